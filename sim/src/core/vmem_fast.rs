//! The fast path of untyped vector-memory loads and stores.
//!
//! When every active lane's access is wholly in range and all of them lie inside one mapping
//! that permits the access, the span they cover is translated once and each lane moves its
//! bytes through that one host pointer (the common case: a wave reading or writing a
//! contiguous run of a buffer). Anything else (a lane partly or wholly out of range, a span
//! crossing a mapping's end or unmapped, a permission the mapping lacks) takes no effect here
//! and the caller runs the exact per-lane, per-dword path, which also reports the fault.
//!
//! The two agree by construction: when the whole span is one mapping with the permission,
//! each lane's access on the exact path succeeds, moves the same bytes, and lanes go in the
//! same (ascending) order, so overlapping stores leave the same result.
//!
//! A *dense* span (all 32 lanes, lane `l` at `l * bytes`, whole dwords: `d[i] = s[i]`) is
//! one block of memory in lane order; it moves a lane's dwords at a time with no per-lane
//! address (one 512-byte `memcpy` through a staging block plus a transposition measured
//! slower: the copy's cache misses all landed in the `memcpy`).

use super::wave::{Counter, Wave, LANES, R};
use crate::kernel::{Access, AddressSpace};

/// Start addresses of the active lanes' accesses and the byte span `[lo, hi)` they cover.
pub(super) struct Span {
    /// Each active lane's start address less `lo` (32 bits, so that the host vectorises
    /// their computation; a span of 4 GiB or more takes the exact path). Not filled in a
    /// dense span.
    rel: [u32; LANES],
    lo: u64,
    hi: u64,
    /// Every lane active, lane `l` at `lo + l * bytes` with whole dwords: the span is one
    /// block of memory in lane order.
    dense: bool,
}

/// The lanes set in `mask`, ascending.
fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let lane = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            lane
        })
    })
}

impl Span {
    /// The accesses of `bytes` each that the lanes of `exec` make at `addr(lane)`; `None`
    /// when there are none, when a lane is not wholly in range (`addr` gives `None`), or when
    /// an access would wrap the address space.
    pub fn gather(
        exec: u32,
        bytes: u32,
        mut addr: impl FnMut(usize) -> Option<u64>,
    ) -> Option<Span> {
        if exec == 0 {
            return None;
        }
        let mut at = [0u64; LANES];
        let (mut lo, mut hi) = (u64::MAX, 0);
        for lane in lanes(exec) {
            let a = addr(lane)?;
            let end = a.checked_add(u64::from(bytes))?;
            at[lane] = a;
            lo = lo.min(a);
            hi = hi.max(end);
        }
        if hi - lo > u64::from(u32::MAX) {
            return None;
        }
        let rel = std::array::from_fn(|lane| at[lane].wrapping_sub(lo) as u32);
        Some(Span { rel, lo, hi, dense: false })
    }

    /// The accesses of `bytes` each that the lanes of `exec` make at `base + offset[lane]`,
    /// when the one at the largest offset is wholly in range (`in_range(offset)`, a rule
    /// monotone in the offset, so that every smaller offset is in range too); `None` when
    /// there are none, when that lane is out of range, or when an access would wrap.
    ///
    /// Buffer accesses without an index are all of this form: a minimum and a maximum
    /// instead of [`Span::gather`]'s range check per lane, over 32-bit offsets so that the
    /// host vectorises them.
    pub fn offsets(
        exec: u32,
        bytes: u32,
        base: u64,
        offset: &[u32; LANES],
        in_range: impl FnOnce(u32) -> bool,
    ) -> Option<Span> {
        // Consecutive accesses (a wave reading or writing consecutive elements) have their
        // bounds at the ends, which one vectorised comparison of the row shows.
        let first = offset[0];
        let ascending = |(l, &o): (usize, &u32)| o == first.wrapping_add(l as u32 * bytes);
        let mut dense = false;
        let (min, max) = match exec {
            0 => return None,
            u32::MAX
                if u64::from(first) + 31 * u64::from(bytes) <= u64::from(u32::MAX)
                    && offset.iter().enumerate().fold(true, |ok, x| ok & ascending(x)) =>
            {
                dense = bytes % 4 == 0;
                (first, offset[LANES - 1])
            }
            u32::MAX => offset.iter().fold((u32::MAX, 0), |(lo, hi), &o| (lo.min(o), hi.max(o))),
            _ => {
                let active = lanes(exec).map(|lane| offset[lane]);
                active.fold((u32::MAX, 0), |(lo, hi), o| (lo.min(o), hi.max(o)))
            }
        };
        if !in_range(max) {
            return None;
        }
        let lo = base.checked_add(u64::from(min))?;
        let hi = base.checked_add(u64::from(max) + u64::from(bytes))?;
        let rel = match dense {
            true => [0; LANES],
            false => std::array::from_fn(|lane| offset[lane].wrapping_sub(min)),
        };
        Some(Span { rel, lo, hi, dense })
    }

    /// The host address of `lo` when the whole span lies in one mapping permitting `access`.
    fn host(&self, space: &AddressSpace, access: Access) -> Option<*mut u8> {
        space.translate(self.lo, self.hi - self.lo, access).ok()
    }

    /// The host address of `lane`'s access (inside the span `base` translates) in a span
    /// that is not dense.
    fn at(&self, base: *mut u8, lane: usize) -> *mut u8 {
        debug_assert!(!self.dense);
        // SAFETY: `lo + rel[lane]` and the access's bytes lie in `lo..hi`, which `base` maps.
        unsafe { base.add(self.rel[lane] as usize) }
    }
}

/// A load of `bytes` per lane (1 or 2, sign- or zero-extended, or whole dwords) into the
/// registers from `vdata`, as `vmem::load` does; `Ok(false)`: not taken, nothing changed.
pub(super) fn load(
    w: &mut Wave,
    space: &AddressSpace,
    span: &Span,
    exec: u32,
    vdata: u32,
    (bytes, signed): (u32, bool),
) -> R<bool> {
    let Some(base) = span.host(space, Access::Read) else { return Ok(false) };
    let dwords = bytes.div_ceil(4) as usize;
    w.vwritable(vdata, dwords as u32)?;
    let mut rows = [[0u32; LANES]; 4];
    if span.dense {
        // SAFETY: the span maps its `LANES * bytes` bytes from `base`.
        unsafe {
            match dwords {
                1 => dense_load::<1>(base, &mut rows),
                2 => dense_load::<2>(base, &mut rows),
                3 => dense_load::<3>(base, &mut rows),
                _ => dense_load::<4>(base, &mut rows),
            }
        }
    } else {
        for lane in lanes(exec) {
            let p = span.at(base, lane);
            // SAFETY: `p` is valid for `bytes` bytes of mapped memory (see `Span::at`);
            // unaligned reads, as the exact path's byte copies allow.
            unsafe {
                rows[0][lane] = match (bytes, signed) {
                    (1, true) => p.read() as i8 as i32 as u32,
                    (1, false) => u32::from(p.read()),
                    (2, true) => {
                        u16::from_le(p.cast::<u16>().read_unaligned()) as i16 as i32 as u32
                    }
                    (2, false) => u32::from(u16::from_le(p.cast::<u16>().read_unaligned())),
                    _ => u32::from_le(p.cast::<u32>().read_unaligned()),
                };
                for (j, row) in rows.iter_mut().enumerate().take(dwords).skip(1) {
                    row[lane] = u32::from_le(p.add(4 * j).cast::<u32>().read_unaligned());
                }
            }
        }
    }
    for (j, row) in rows.iter().take(dwords).enumerate() {
        w.vwrite(vdata + j as u32, exec, row)?;
    }
    w.add_pending(Counter::Vm, true, vdata, dwords as u32);
    Ok(true)
}

/// Lane `l`'s `D` dwords from `base + 4 * D * l` into `rows[..D]`, all 32 lanes.
///
/// # Safety
/// `base` is valid for `4 * D * LANES` bytes of reads.
// A transposition: `lane` indexes the inner arrays of `rows`, not `rows`.
#[allow(clippy::needless_range_loop)]
unsafe fn dense_load<const D: usize>(base: *const u8, rows: &mut [[u32; LANES]; 4]) {
    for lane in 0..LANES {
        // SAFETY: lane `lane`'s dwords lie in the range the caller guarantees.
        let d = unsafe { base.add(4 * D * lane).cast::<[u32; D]>().read_unaligned() };
        for (j, x) in d.into_iter().enumerate() {
            rows[j][lane] = u32::from_le(x);
        }
    }
}

/// Lane `l`'s `D` dwords of `rows` to `base + 4 * D * l`, all 32 lanes.
///
/// # Safety
/// `base` is valid for `4 * D * LANES` bytes of writes; `rows` has at least `D` rows.
// A transposition, as in `dense_load`.
#[allow(clippy::needless_range_loop)]
unsafe fn dense_store<const D: usize>(rows: &[[u32; LANES]], base: *mut u8) {
    let rows: &[[u32; LANES]; D] = rows[..D].try_into().expect("D rows");
    for lane in 0..LANES {
        let d: [u32; D] = std::array::from_fn(|j| rows[j][lane].to_le());
        // SAFETY: lane `lane`'s dwords lie in the range the caller guarantees.
        unsafe { base.add(4 * D * lane).cast::<[u32; D]>().write_unaligned(d) };
    }
}

/// A store of `bytes` per lane (1, 2 or whole dwords) from the registers at `vdata`, as
/// `vmem::store` does; `Ok(false)`: not taken, nothing changed.
pub(super) fn store(
    w: &mut Wave,
    space: &AddressSpace,
    span: &Span,
    exec: u32,
    vdata: u32,
    bytes: u32,
) -> R<bool> {
    let Some(base) = span.host(space, Access::Write) else { return Ok(false) };
    w.vreadable(vdata, bytes.div_ceil(4))?;
    if span.dense {
        let rows = &w.v[vdata as usize..];
        // SAFETY: as in `load`, for writes.
        unsafe {
            match bytes / 4 {
                1 => dense_store::<1>(rows, base),
                2 => dense_store::<2>(rows, base),
                3 => dense_store::<3>(rows, base),
                _ => dense_store::<4>(rows, base),
            }
        }
        return Ok(true);
    }
    for lane in lanes(exec) {
        let p = span.at(base, lane);
        let word = |j: usize| w.v[vdata as usize + j][lane];
        // SAFETY: as in `load`, for writes.
        unsafe {
            match bytes {
                1 => p.write(word(0) as u8),
                2 => p.cast::<u16>().write_unaligned((word(0) as u16).to_le()),
                _ => {
                    for j in 0..(bytes / 4) as usize {
                        p.add(4 * j).cast::<u32>().write_unaligned(word(j).to_le());
                    }
                }
            }
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where both apply, [`Span::offsets`] gives [`Span::gather`]'s span, or none.
    #[test]
    fn offsets_agree_with_gather() {
        let mut r = fastrand::Rng::with_seed(0x0ff5_e75e);
        let mut taken = 0;
        for _ in 0..20_000 {
            let exec = match r.u32(..4) {
                0 => u32::MAX,
                1 => 0,
                _ => r.u32(..),
            };
            let bytes = [1, 2, 4, 8, 12, 16][r.usize(..6)];
            let base = [0, 0x1_0000, u64::MAX - 0x1000][r.usize(..3)];
            let limit = r.u32(..0x3000);
            // Consecutive accesses (bounds at the ends), one lane out of order, or scattered.
            let start = r.u32(..0x1000);
            let mut offset: [u32; LANES] = std::array::from_fn(|l| start + l as u32 * bytes);
            match r.u32(..3) {
                0 => {}
                1 => offset[r.usize(..LANES)] = r.u32(..0x2000),
                _ => offset = std::array::from_fn(|_| r.u32(..0x2000)),
            }
            let consecutive = (0..LANES).all(|l| offset[l] == offset[0] + l as u32 * bytes);
            let fits = |o: u32| o + bytes <= limit;
            let got = Span::offsets(exec, bytes, base, &offset, fits);
            let want = Span::gather(exec, bytes, |l| {
                fits(offset[l]).then(|| base.wrapping_add(u64::from(offset[l])))
            });
            let Some(got) = got else { continue };
            taken += 1;
            let want = want.expect("gather takes what offsets takes");
            assert_eq!((got.lo, got.hi), (want.lo, want.hi));
            assert!(!want.dense);
            assert_eq!(got.dense, exec == u32::MAX && bytes % 4 == 0 && consecutive);
            for lane in lanes(exec) {
                let at = |s: &Span| match s.dense {
                    true => s.lo + u64::from(bytes) * lane as u64,
                    false => s.lo + u64::from(s.rel[lane]),
                };
                assert_eq!(at(&got), at(&want));
            }
        }
        assert!(taken > 2000, "only {taken} spans");
    }
}
