//! Where the tables live unless a folder is named: a cache folder of the
//! user's, never the working directory, so that an engine started by a
//! GUI or a service with a bare environment does not fill the folder it
//! was started in.

use std::path::PathBuf;

/// Why there is no default folder: none of the places `default_dir`
/// looks is given. Then there are no tables until a folder is named
/// (`TablebasePath`, `--dir`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no folder for the tables: none of MORRIS_TB_DIR, XDG_CACHE_HOME and HOME is set")]
pub struct NoDefaultDir;

/// The default root folder: `$MORRIS_TB_DIR` (as given, the user's
/// choice), else `morris/tb` under `$XDG_CACHE_HOME`, else under
/// `$HOME/.cache`, else under the platform's cache folder. The two
/// variables count only when they hold an absolute path, as the XDG
/// specification says; on Linux and the other Unixes their rule is the
/// platform's, so nothing else is asked there (not even the password
/// file's home: a process given no `HOME` has been given no place).
pub fn default_dir() -> Result<PathBuf, NoDefaultDir> {
    if let Some(dir) = std::env::var_os("MORRIS_TB_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let absolute = |var| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    absolute("XDG_CACHE_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".cache")))
        .or_else(platform_cache_dir)
        .map(|cache| cache.join("morris").join("tb"))
        .ok_or(NoDefaultDir)
}

/// The cache folder of a system whose convention is not the XDG one
/// (`~/Library/Caches`, `%LOCALAPPDATA%`).
#[cfg(any(windows, target_os = "macos"))]
fn platform_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir()
}

#[cfg(not(any(windows, target_os = "macos")))]
fn platform_cache_dir() -> Option<PathBuf> {
    None
}
