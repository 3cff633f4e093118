//! The values' layouts in a table file: a code a slot in one or two
//! bytes, or win/draw/loss only, five slots a byte.

use crate::value::{Probe, Value};

/// How a table stores its values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueLayout {
    /// The value code (`Probe::code`) in one byte: distances up to 126 plies.
    Byte,
    /// The value code in two little-endian bytes.
    Word,
    /// Win, draw or loss only (base 3: 0 draw, 1 win, 2 loss), five slots
    /// to a byte: a fifth of `Byte`, for users short of disk. Read back, a
    /// win or loss has no distance (`Probe::NO_DISTANCE`).
    Wdl,
}

/// Powers of 3: the weight of each of a `ValueLayout::Wdl` byte's five slots.
pub(crate) const POW3: [u8; 5] = [1, 3, 9, 27, 81];

/// The value of each base-3 digit of a `ValueLayout::Wdl` table.
const WDL_DIGITS: [Value; 3] = [Value::Draw, Value::Win, Value::Loss];

impl ValueLayout {
    /// The header byte: bytes per value, or 3 for `Wdl` (format versions
    /// before `Wdl` refuse a table with a width they do not know).
    pub(crate) fn tag(self) -> u8 {
        match self {
            ValueLayout::Byte => 1,
            ValueLayout::Word => 2,
            ValueLayout::Wdl => 3,
        }
    }

    pub(crate) fn of_tag(tag: u8) -> Option<ValueLayout> {
        match tag {
            1 => Some(ValueLayout::Byte),
            2 => Some(ValueLayout::Word),
            3 => Some(ValueLayout::Wdl),
            _ => None,
        }
    }

    /// Value bytes of a table with `slots` slots.
    pub fn bytes(self, slots: u64) -> Option<u64> {
        match self {
            ValueLayout::Byte => Some(slots),
            ValueLayout::Word => slots.checked_mul(2),
            ValueLayout::Wdl => Some(slots.div_ceil(POW3.len() as u64)),
        }
    }

    /// The values of `codes` in this layout.
    pub(crate) fn encode(self, codes: impl ExactSizeIterator<Item = u16>) -> Vec<u8> {
        match self {
            ValueLayout::Byte => codes.map(|c| c as u8).collect(),
            ValueLayout::Word => codes.flat_map(u16::to_le_bytes).collect(),
            ValueLayout::Wdl => {
                let mut out = vec![0u8; codes.len().div_ceil(POW3.len())];
                for (i, c) in codes.enumerate() {
                    let value = Probe::from_code(c).value;
                    let digit = WDL_DIGITS.iter().position(|&v| v == value).unwrap_or(0) as u8;
                    out[i / POW3.len()] += digit * POW3[i % POW3.len()];
                }
                out
            }
        }
    }
}

/// The value of slot `slot` in `ValueLayout::Wdl` value bytes.
#[inline]
pub(crate) fn wdl_digit(data: &[u8], slot: u64) -> Value {
    let i = slot as usize / POW3.len();
    WDL_DIGITS[(data[i] / POW3[slot as usize % POW3.len()] % 3) as usize]
}
