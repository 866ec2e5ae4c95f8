//! Address arithmetic of vector memory: V# addressing with its range checks and swizzling,
//! private (scratch) addressing, and the FLAT apertures.
//!
//! Accesses are resolved per lane and per dword, because that is the granularity of both the
//! swizzle (4-byte elements) and the range check of raw buffers: a multi-dword access that
//! straddles NUM_RECORDS keeps its in-range dwords and loses the others (loads read 0 there,
//! stores drop them).
//!
//! Swizzled addressing (RDNA2 ISA guide, "Buffer Addressing"), with
//! `index = idxen VGPR + (ADD_TID_ENABLE ? lane : 0)` and `offset = offen VGPR + inst offset`:
//! ```text
//! index_msb  = index / INDEX_STRIDE      index_lsb  = index % INDEX_STRIDE
//! offset_msb = offset / ELEMENT_SIZE     offset_lsb = offset % ELEMENT_SIZE
//! address = base + soffset + (index_msb * STRIDE + offset_msb * ELEMENT_SIZE) * INDEX_STRIDE
//!         + index_lsb * ELEMENT_SIZE + offset_lsb
//! ```
//! GFX10 V#s have no ELEMENT_SIZE field (GFX9's bits 20:19 became part of FORMAT); the element
//! is 4 bytes, which is also the unit in which private memory is interleaved between lanes.
//! Private memory reached through SCRATCH_* instructions or the FLAT private aperture uses the
//! same interleave with the wave size as index stride and FLAT_SCRATCH as base.

use super::wave::{fault, LANES, R};
use crate::compute::WAVE_SIZE;

/// FLAT addresses in `[LDS_APERTURE, LDS_APERTURE + 4 GiB)` reach the workgroup's LDS.
/// The aperture bases are what amdgpu programs into SH_MEM_BASES for graphics VMIDs.
pub const LDS_APERTURE: u64 = 0x2000_0000_0000_0000;
/// FLAT addresses in `[PRIVATE_APERTURE, PRIVATE_APERTURE + 4 GiB)` reach the lane's scratch.
pub const PRIVATE_APERTURE: u64 = 0x1000_0000_0000_0000;
/// Swizzle element size of GFX10 buffers and of private memory.
pub const ELEMENT_BYTES: u64 = 4;

/// SH_MEM_BASES as `s_getreg` reads it: PRIVATE_BASE [15:0] and SHARED_BASE [31:16] hold
/// address bits 63:48 of the apertures.
pub fn sh_mem_bases() -> u32 {
    (PRIVATE_APERTURE >> 48) as u32 | ((LDS_APERTURE >> 48) as u32) << 16
}

/// Where a FLAT address goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aperture {
    Global(u64),
    /// Byte offset in the workgroup's LDS.
    Lds(u32),
    /// Byte offset in the lane's private memory.
    Private(u32),
}

pub fn classify_flat(addr: u64) -> Aperture {
    match addr >> 32 {
        hi if hi == LDS_APERTURE >> 32 => Aperture::Lds(addr as u32),
        hi if hi == PRIVATE_APERTURE >> 32 => Aperture::Private(addr as u32),
        _ => Aperture::Global(addr),
    }
}

/// Per lane, the address of each dword of the access (`None`: out of range).
pub type Addrs = [[Option<u64>; 4]; LANES];

/// The dword pieces of an access of `bytes`: (piece index, byte offset, length).
pub fn pieces(bytes: u32) -> impl Iterator<Item = (usize, u64, usize)> {
    (0..bytes.div_ceil(4)).map(move |j| (j as usize, 4 * j as u64, (bytes - 4 * j).min(4) as usize))
}

/// Offset from the base of element `(index, offset)` in a swizzled buffer.
pub fn swizzle_offset(index: u64, offset: u64, stride: u64, index_stride: u64) -> u64 {
    let (index_msb, index_lsb) = (index / index_stride, index % index_stride);
    let (offset_msb, offset_lsb) = (offset / ELEMENT_BYTES, offset % ELEMENT_BYTES);
    (index_msb * stride + offset_msb * ELEMENT_BYTES) * index_stride
        + index_lsb * ELEMENT_BYTES
        + offset_lsb
}

fn check_element(offset: u64, len: usize) -> R<()> {
    if offset % ELEMENT_BYTES + len as u64 > ELEMENT_BYTES {
        return fault(format!(
            "swizzled access of {len} bytes at offset {offset:#x} crosses a 4-byte element"
        ));
    }
    Ok(())
}

/// The fields of a V# that shape addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vsharp {
    pub base: u64,
    pub stride: u64,
    pub num_records: u64,
    pub swizzle: bool,
    pub index_stride: u64,
    pub add_tid: bool,
    pub oob_select: u32,
}

impl Vsharp {
    /// Decodes the four dwords (descriptors-gfx103.md §1).
    pub fn parse(v: &[u32]) -> Vsharp {
        Vsharp {
            base: v[0] as u64 | ((v[1] & 0xffff) as u64) << 32,
            stride: ((v[1] >> 16) & 0x3fff) as u64,
            num_records: v[2] as u64,
            swizzle: v[1] >> 31 != 0,
            index_stride: 8 << ((v[3] >> 21) & 3),
            add_tid: v[3] >> 23 & 1 != 0,
            oob_select: (v[3] >> 28) & 3,
        }
    }

    /// Addresses of an access of `bytes` per lane with the given VGPR index and offset
    /// (instruction offset included) and SGPR offset.
    pub fn addresses(
        &self,
        soffset: u64,
        index: &[u64; LANES],
        offset: &[u64; LANES],
        bytes: u32,
    ) -> R<Addrs> {
        let mut out: Addrs = [[None; 4]; LANES];
        for (lane, dwords) in out.iter_mut().enumerate() {
            let index = index[lane] + if self.add_tid { lane as u64 } else { 0 };
            for (j, at, len) in pieces(bytes) {
                let o = offset[lane] + at;
                let rel = if self.swizzle {
                    check_element(o, len)?;
                    swizzle_offset(index, o, self.stride, self.index_stride)
                } else {
                    index * self.stride + o
                };
                let in_range = match self.oob_select {
                    0 => index < self.num_records && o < self.stride.max(1),
                    1 => index < self.num_records,
                    2 => self.num_records != 0,
                    _ => soffset + rel + len as u64 <= self.num_records,
                };
                if in_range {
                    dwords[j] = Some(self.base.wrapping_add(soffset).wrapping_add(rel));
                }
            }
        }
        Ok(out)
    }

    /// The start address of `lane`'s access of `bytes` in an unswizzled buffer when every
    /// dword of it is in range (the per-dword rule of [`Vsharp::addresses`] holding for its
    /// last dword, hence for all), else `None`.
    pub fn whole_in_range(
        &self,
        soffset: u64,
        lane: usize,
        index: u64,
        offset: u64,
        bytes: u32,
    ) -> Option<u64> {
        debug_assert!(!self.swizzle, "swizzled accesses take the exact path");
        let index = index + if self.add_tid { lane as u64 } else { 0 };
        let rel = index * self.stride + offset;
        let last = offset + 4 * (u64::from(bytes.div_ceil(4)) - 1);
        let in_range = match self.oob_select {
            0 => index < self.num_records && last < self.stride.max(1),
            1 => index < self.num_records,
            2 => self.num_records != 0,
            _ => soffset + rel + u64::from(bytes) <= self.num_records,
        };
        in_range.then(|| self.base.wrapping_add(soffset).wrapping_add(rel))
    }
}

/// Address of byte `offset` of `lane`'s private memory in the wave's scratch at
/// `flat_scratch`.
pub fn private_address(flat_scratch: u64, lane: usize, offset: u32) -> u64 {
    flat_scratch.wrapping_add(swizzle_offset(lane as u64, offset as u64, 0, WAVE_SIZE as u64))
}

/// The dword addresses of one lane's private access of `bytes` at `offset`.
pub fn private_dwords(
    flat_scratch: u64,
    lane: usize,
    offset: u32,
    bytes: u32,
) -> R<[Option<u64>; 4]> {
    let mut out = [None; 4];
    for (j, at, len) in pieces(bytes) {
        let o = offset.wrapping_add(at as u32);
        check_element(o as u64, len)?;
        out[j] = Some(private_address(flat_scratch, lane, o));
    }
    Ok(out)
}

/// The dword addresses of a contiguous access at `addr`.
#[inline]
pub fn linear_dwords(addr: u64, bytes: u32) -> [Option<u64>; 4] {
    let n = bytes.div_ceil(4) as usize;
    std::array::from_fn(|j| (j < n).then(|| addr.wrapping_add(4 * j as u64)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_descriptor_interleaves_lanes_by_dword() {
        // A wave32 scratch V#: stride 0, INDEX_STRIDE 32, ADD_TID, swizzled, raw range check.
        let v = Vsharp::parse(&[0x1000, 1 << 31, u32::MAX, (2 << 21) | (1 << 23) | (3 << 28)]);
        assert_eq!((v.index_stride, v.swizzle, v.add_tid), (32, true, true));
        let a = v.addresses(0x400, &[0; LANES], &[8; LANES], 8).unwrap();
        // Lane 5, dwords 2 and 3 of its private memory.
        assert_eq!(a[5][0], Some(0x1000 + 0x400 + 2 * 128 + 5 * 4));
        assert_eq!(a[5][1], Some(0x1000 + 0x400 + 3 * 128 + 5 * 4));
        assert_eq!(a[5][0], Some(private_address(0x1400, 5, 8)));
    }

    #[test]
    fn swizzle_with_stride_and_index_stride() {
        // index 19 with INDEX_STRIDE 8: msb 2, lsb 3; offset 6: msb 1, lsb 2; STRIDE 12.
        assert_eq!(swizzle_offset(19, 6, 12, 8), (2 * 12 + 4) * 8 + 3 * 4 + 2);
    }

    #[test]
    fn raw_range_is_checked_per_dword() {
        let v = Vsharp::parse(&[0x2000, 0, 24, 3 << 28]);
        let a = v.addresses(0, &[0; LANES], &[16; LANES], 16).unwrap();
        assert_eq!(a[0], [Some(0x2010), Some(0x2014), None, None]);
        let a = v.addresses(0, &[0; LANES], &[22; LANES], 2).unwrap();
        assert_eq!(a[0][0], Some(0x2016), "a short at the last two bytes is in range");
    }

    /// Without an index, `whole_in_range` is monotone in the offset (what the buffer fast
    /// path's one check at the largest offset relies on), and the address is base + soffset
    /// + offset.
    #[test]
    fn whole_in_range_without_index_is_monotone_in_the_offset() {
        let mut r = fastrand::Rng::with_seed(0x6d6f_6e6f);
        for _ in 0..20_000 {
            let stride = [0, 4, 12, 16, 100][r.usize(..5)];
            let words = [0x1000, stride << 16, r.u32(..300), r.u32(..4) << 28];
            let v = Vsharp::parse(&words);
            let bytes = [1, 2, 4, 8, 12, 16][r.usize(..6)];
            let soffset = r.u64(..40);
            let (a, b) = (r.u64(..260), r.u64(..260));
            let (small, large) = (a.min(b), a.max(b));
            if v.whole_in_range(soffset, 0, 0, large, bytes).is_some() {
                let got = v.whole_in_range(soffset, 0, 0, small, bytes);
                assert_eq!(got, Some(0x1000 + soffset + small), "{v:?} {bytes} bytes");
            }
        }
    }

    /// `whole_in_range` gives an address exactly when every dword of the per-dword rule is in
    /// range, and then the same, consecutive addresses.
    #[test]
    fn whole_in_range_agrees_with_the_per_dword_rule() {
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (mut whole, mut partial) = (0, 0);
        for _ in 0..20_000 {
            let stride = [0, 4, 12, 16, 100][next(5) as usize];
            let words = [0x1000, (stride as u32) << 16, next(300) as u32, (next(4) as u32) << 28];
            let mut v = Vsharp::parse(&words);
            v.add_tid = next(2) == 0;
            let bytes = [1, 2, 4, 8, 12, 16][next(6) as usize];
            let (soffset, lane) = (next(40), next(32) as usize);
            let index = [next(8); LANES];
            let offset = [next(260); LANES];
            let rule = v.addresses(soffset, &index, &offset, bytes).unwrap()[lane];
            let got = v.whole_in_range(soffset, lane, index[lane], offset[lane], bytes);
            let n = bytes.div_ceil(4) as usize;
            match got {
                Some(a) => {
                    whole += 1;
                    assert_eq!(rule, linear_dwords(a, bytes), "{v:?} {bytes} bytes");
                }
                None => {
                    partial += 1;
                    assert!(rule[..n].iter().any(Option::is_none), "{v:?} {bytes} bytes: {rule:?}");
                }
            }
        }
        assert!(whole > 2000 && partial > 2000, "{whole} whole, {partial} not");
    }

    #[test]
    fn unaligned_swizzled_access_is_refused() {
        assert!(private_dwords(0, 0, 2, 4).is_err());
        assert!(private_dwords(0, 0, 2, 2).is_ok());
    }

    #[test]
    fn apertures() {
        assert_eq!(classify_flat(LDS_APERTURE + 12), Aperture::Lds(12));
        assert_eq!(classify_flat(PRIVATE_APERTURE + 8), Aperture::Private(8));
        assert_eq!(classify_flat(0x1234_5678), Aperture::Global(0x1234_5678));
        assert_eq!(sh_mem_bases(), 0x2000_1000);
    }
}
