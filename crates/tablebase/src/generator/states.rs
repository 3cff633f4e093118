//! The generator's slot states, in memory the kernel may back with huge
//! pages.
//!
//! Both passes touch slots all over tables of up to gigabytes (the
//! placement pass writes each position's slot one mover class apart, the
//! distance passes update predecessors anywhere). With 4 KB pages nearly
//! every such access also misses the TLB and waits for a page walk; with
//! 2 MB pages the TLB covers gigabytes. Where the system has no
//! transparent huge pages the memory is plain.

use std::marker::PhantomData;
use std::ops::Deref;
use std::sync::atomic::{AtomicU16, AtomicU32};

use memmap2::MmapMut;

/// Atomics whose all-zero bytes are a valid value (zero).
///
/// # Safety
/// Implementors must be valid when all their bytes are zero, and need no
/// more alignment than a page.
pub(crate) unsafe trait Zeroed: Sync {}

// SAFETY: atomic integers are plain integers in memory; zero is zero.
unsafe impl Zeroed for AtomicU32 {}
// SAFETY: as above.
unsafe impl Zeroed for AtomicU16 {}

/// `len` atomics, all zero at first, in an anonymous mapping advised to
/// use huge pages.
pub(crate) struct States<T: Zeroed> {
    map: MmapMut,
    len: usize,
    kind: PhantomData<T>,
}

impl<T: Zeroed> States<T> {
    /// Zeroed states; `None` when the memory cannot be mapped.
    pub(crate) fn zeroed(len: usize) -> Option<States<T>> {
        let bytes = (len * size_of::<T>()).max(1);
        let map = MmapMut::map_anon(bytes).ok()?;
        // Only advice: without huge pages the memory still works.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Some(States {
            map,
            len,
            kind: PhantomData,
        })
    }
}

impl<T: Zeroed> Deref for States<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: the mapping is page-aligned, holds `len` values of `T`
        // (zeroed by the kernel, valid by `Zeroed`) and lives as long as
        // `self`; atomics are changed through shared references only.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<T>(), self.len) }
    }
}
