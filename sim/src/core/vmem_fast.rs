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

use super::wave::{Counter, Wave, LANES, R};
use crate::kernel::{Access, AddressSpace};

/// Start addresses of the active lanes' accesses and the byte span `[lo, hi)` they cover.
pub(super) struct Span {
    addr: [u64; LANES],
    lo: u64,
    hi: u64,
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
        let mut s = Span { addr: [0; LANES], lo: u64::MAX, hi: 0 };
        for lane in lanes(exec) {
            let a = addr(lane)?;
            let end = a.checked_add(u64::from(bytes))?;
            s.addr[lane] = a;
            s.lo = s.lo.min(a);
            s.hi = s.hi.max(end);
        }
        Some(s)
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
        let (min, max) = match exec {
            0 => return None,
            u32::MAX
                if u64::from(first) + 31 * u64::from(bytes) <= u64::from(u32::MAX)
                    && offset.iter().enumerate().fold(true, |ok, x| ok & ascending(x)) =>
            {
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
        let addr = std::array::from_fn(|lane| base.wrapping_add(u64::from(offset[lane])));
        Some(Span { addr, lo, hi })
    }

    /// The host address of `lo` when the whole span lies in one mapping permitting `access`.
    fn host(&self, space: &AddressSpace, access: Access) -> Option<*mut u8> {
        space.translate(self.lo, self.hi - self.lo, access).ok()
    }

    /// The host address of `lane`'s access (inside the span `base` translates).
    fn at(&self, base: *mut u8, lane: usize) -> *mut u8 {
        // SAFETY: `addr[lane]..addr[lane] + bytes` lies in `lo..hi`, which `base` maps.
        unsafe { base.add((self.addr[lane] - self.lo) as usize) }
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
    for lane in lanes(exec) {
        let p = span.at(base, lane);
        // SAFETY: `p` is valid for `bytes` bytes of mapped memory (see `Span::at`); unaligned
        // reads, as the exact path's byte copies allow.
        unsafe {
            rows[0][lane] = match (bytes, signed) {
                (1, true) => p.read() as i8 as i32 as u32,
                (1, false) => u32::from(p.read()),
                (2, true) => u16::from_le(p.cast::<u16>().read_unaligned()) as i16 as i32 as u32,
                (2, false) => u32::from(u16::from_le(p.cast::<u16>().read_unaligned())),
                _ => u32::from_le(p.cast::<u32>().read_unaligned()),
            };
            for (j, row) in rows.iter_mut().enumerate().take(dwords).skip(1) {
                row[lane] = u32::from_le(p.add(4 * j).cast::<u32>().read_unaligned());
            }
        }
    }
    for (j, row) in rows.iter().take(dwords).enumerate() {
        w.vwrite(vdata + j as u32, exec, row)?;
    }
    w.add_pending(Counter::Vm, true, vdata, dwords as u32);
    Ok(true)
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
            let fits = |o: u32| o + bytes <= limit;
            let got = Span::offsets(exec, bytes, base, &offset, fits);
            let want = Span::gather(exec, bytes, |l| {
                fits(offset[l]).then(|| base.wrapping_add(u64::from(offset[l])))
            });
            let Some(got) = got else { continue };
            taken += 1;
            let want = want.expect("gather takes what offsets takes");
            assert_eq!((got.lo, got.hi), (want.lo, want.hi));
            for lane in lanes(exec) {
                assert_eq!(got.addr[lane], want.addr[lane]);
            }
        }
        assert!(taken > 2000, "only {taken} spans");
    }
}
