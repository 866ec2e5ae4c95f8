//! Buffer resource descriptors (V#), as the shader ABI puts them in descriptor sets and in the
//! push block: a raw buffer whose NUM_RECORDS is the bound range, so accesses past the range
//! read 0 and drop stores (robust buffer access for free).
//!
//! Fields from descriptors-gfx103.md §1.

use crate::format::Sel;

/// SQ_SEL_X/Y/Z/W in DST_SEL_X..W (dword 3 bits 11:0).
const DST_SEL_XYZW: u32 = 4 | (5 << 3) | (6 << 6) | (7 << 9);
/// GFX10_FORMAT 32_FLOAT, what Mesa uses for raw buffers (dword 3 bits 18:12).
const FORMAT_32_FLOAT: u32 = 22;
/// RESOURCE_LEVEL must be 1 on GFX10.x (dword 3 bit 24).
const RESOURCE_LEVEL: u32 = 1 << 24;
/// OOB_SELECT = 3: raw, out of bounds when offset >= NUM_RECORDS (dword 3 bits 29:28).
const OOB_SELECT_RAW: u32 = 3 << 28;

/// Dword 3 of every raw-buffer V#.
pub const RAW_BUFFER_WORD3: u32 =
    DST_SEL_XYZW | (FORMAT_32_FLOAT << 12) | RESOURCE_LEVEL | OOB_SELECT_RAW;

/// Size in bytes of one buffer descriptor.
pub const BUFFER_DESCRIPTOR_SIZE: u64 = 16;

/// A raw-buffer V# for `range` bytes at GPU address `va` (stride 0, TYPE = buffer).
pub fn buffer(va: u64, range: u64) -> [u32; 4] {
    // NUM_RECORDS is 32 bits; a larger range is clamped, which only limits robustness.
    let records = range.min(u64::from(u32::MAX)) as u32;
    [va as u32, ((va >> 32) as u32) & 0xffff, records, RAW_BUFFER_WORD3]
}

/// OOB_SELECT = 0: structured, out of bounds when index >= NUM_RECORDS or offset >= STRIDE.
const OOB_SELECT_STRUCTURED: u32 = 0;

/// A typed V# for a texel buffer view: `elements` records of `stride` bytes at `va`, read and
/// written through `format` (GFX10_FORMAT) with the channel selects `swizzle`. Typed buffer
/// instructions index it by texel (`idxen`), so out-of-range texels read 0 and drop stores.
pub fn typed(va: u64, elements: u32, stride: u32, format: u8, swizzle: [Sel; 4]) -> [u32; 4] {
    let sel: u32 = swizzle.iter().enumerate().map(|(i, &c)| (c as u32) << (3 * i)).sum();
    [
        va as u32,
        (((va >> 32) as u32) & 0xffff) | ((stride & 0x3fff) << 16),
        elements,
        sel | (u32::from(format) << 12) | RESOURCE_LEVEL | (OOB_SELECT_STRUCTURED << 28),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_buffer_word3_matches_the_reference() {
        assert_eq!(RAW_BUFFER_WORD3, 0x3101_6FAC);
    }

    #[test]
    fn address_and_range_land_in_their_fields() {
        let d = buffer(0x1234_5678_9abc, 1000);
        assert_eq!(d, [0x5678_9abc, 0x1234, 1000, 0x3101_6FAC]);
        assert_eq!(buffer(0, u64::MAX)[2], u32::MAX);
    }

    #[test]
    fn typed_descriptor_fields() {
        // R32G32B32A32_SFLOAT with X,Y,Z,W: word 3 as the reference's vertex example, with
        // the structured OOB mode.
        let d = typed(0x1_0000_0040, 100, 16, 77, [Sel::X, Sel::Y, Sel::Z, Sel::W]);
        assert_eq!(d, [0x40, 0x0010_0001, 100, 0x0104_DFAC]);
        let bgra = typed(0, 1, 4, 56, [Sel::Z, Sel::Y, Sel::X, Sel::W]);
        assert_eq!(bgra[3] & 0xfff, 6 | (5 << 3) | (4 << 6) | (7 << 9));
    }
}
