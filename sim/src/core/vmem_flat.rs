//! FLAT, GLOBAL and SCRATCH: 64-bit (or SGPR-based) addresses routed per lane by aperture
//! (VM, private scratch, LDS), on top of the untyped accesses and atomics of [`super::vmem`].

use ferrum_isa::{Flat, Operand, Seg, Special};

use super::address::{self, pieces, Addrs, Aperture};
use super::lds::Lds;
use super::vmem::{
    access, atomic_apply, atomic_lanes, data_dwords, data_rows, try_fast, AtomicOp, Kind,
};
use super::vmem_fast::Span;
use super::wave::{fault, Wave, LANES, R};
use super::Mem;

fn flat_bytes(k: Kind) -> R<u32> {
    match k {
        Kind::Load { bytes, .. }
        | Kind::Store { bytes }
        | Kind::LoadD16 { bytes, .. }
        | Kind::StoreD16Hi { bytes } => Ok(bytes),
        Kind::Atomic { wide, .. } => Ok(if wide { 8 } else { 4 }),
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => {
            fault("typed access needs a buffer descriptor")
        }
    }
}

/// FLAT, GLOBAL and SCRATCH. FLAT addresses are routed per lane by aperture: the LDS
/// aperture reaches the workgroup's LDS, the private aperture the lane's scratch through
/// FLAT_SCRATCH, anything else the GPU VM.
pub fn flat(
    w: &mut Wave,
    i: &Flat,
    form: &ferrum_isa::tables::Form,
    kind: Option<Kind>,
    mem: &Mem<'_>,
    lds: &mut Lds<'_>,
) -> R<()> {
    let name = i.op.name();
    let dd = data_dwords(form);
    let k = kind.ok_or_else(|| super::wave::Fault::Shader(format!("unimplemented {name}")))?;
    let bytes = flat_bytes(k)?;
    let exec = w.exec();
    let mut addrs: Addrs = [[None; 4]; LANES];
    // Lanes that address LDS, with their LDS byte offsets.
    let mut lds_mask = 0u32;
    let mut lds_offsets = [0u32; LANES];
    match i.seg {
        Seg::Scratch => {
            // The private offset is an SGPR or a VGPR, plus the signed instruction offset.
            // GFX10.3's ST mode (`off, off`) encodes SADDR as 0x7F: the offset alone.
            let row = match i.saddr {
                Operand::Special(Special::Null) => *w.vrow(i.addr as u32)?,
                Operand::Special(Special::ExecHi) => [0; LANES],
                s => [w.ssrc(s)?; LANES],
            };
            // Inactive lanes hold anything: only active ones are addressed (and checked).
            for (lane, a) in addrs.iter_mut().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
                let off = row[lane].wrapping_add(i.offset as i32 as u32);
                *a = address::private_dwords(w.flat_scratch, lane, off, bytes)?;
            }
        }
        Seg::Global | Seg::Flat => {
            let saddr = i.saddr != Operand::Special(Special::Null) && i.seg == Seg::Global;
            let base = if saddr { Some(w.ssrc64(i.saddr)?) } else { None };
            let lo = *w.vrow(i.addr as u32)?;
            let hi = if base.is_none() { Some(*w.vrow(i.addr as u32 + 1)?) } else { None };
            let lane_addr = |lane: usize| {
                match (base, hi.as_ref()) {
                    (Some(b), _) => b.wrapping_add(lo[lane] as u64),
                    (None, Some(h)) => lo[lane] as u64 | (h[lane] as u64) << 32,
                    (None, None) => 0,
                }
                .wrapping_add(i.offset as i64 as u64)
            };
            // Only accesses whose active lanes all reach the VM take the fast path.
            let global = |lane| {
                let a = lane_addr(lane);
                (i.seg == Seg::Global || address::classify_flat(a) == Aperture::Global(a))
                    .then_some(a)
            };
            let vdata = if matches!(k, Kind::Load { .. }) { i.vdst } else { i.data };
            let span = |bytes| Span::gather(exec, bytes, global);
            if try_fast(w, mem, k, exec, vdata as u32, span)? {
                return Ok(());
            }
            for (lane, a) in addrs.iter_mut().enumerate() {
                let addr = lane_addr(lane);
                let place = if i.seg == Seg::Flat {
                    address::classify_flat(addr)
                } else {
                    Aperture::Global(addr)
                };
                *a = match place {
                    Aperture::Global(addr) => address::linear_dwords(addr, bytes),
                    Aperture::Private(off) if exec >> lane & 1 != 0 => {
                        address::private_dwords(w.flat_scratch, lane, off, bytes)?
                    }
                    Aperture::Private(_) => [None; 4],
                    Aperture::Lds(off) => {
                        lds_mask |= 1 << lane;
                        lds_offsets[lane] = off;
                        [None; 4]
                    }
                };
            }
        }
    }
    lds_mask &= exec;
    if lds_mask != 0 {
        flat_lds(w, i, k, bytes, lds, lds_mask, &lds_offsets)?;
    }
    let exec = exec & !lds_mask;
    if let Kind::Atomic { op, wide } = k {
        return flat_atomic(w, i, mem, &addrs, exec, dd, op, wide);
    }
    let vdata = match k {
        Kind::Load { .. } | Kind::LoadD16 { .. } => i.vdst,
        _ => i.data,
    };
    access(w, mem, k, &addrs, exec, vdata as u32, dd, i.glc)
}

/// The lanes of a FLAT access that hit the LDS aperture. Runs before the access of the other
/// lanes, which records the outstanding load (or returning atomic) for all of them.
fn flat_lds(
    w: &mut Wave,
    i: &Flat,
    k: Kind,
    bytes: u32,
    lds: &mut Lds<'_>,
    mask: u32,
    offsets: &[u32; LANES],
) -> R<()> {
    let dwords = bytes.div_ceil(4);
    match k {
        Kind::Load { signed, .. } => {
            w.vwritable(i.vdst as u32, dwords)?;
            let mut rows = vec![[0u32; LANES]; dwords as usize];
            for lane in (0..LANES).filter(|l| mask >> l & 1 != 0) {
                for (j, at, len) in pieces(bytes) {
                    let x = lds.read(offsets[lane].wrapping_add(at as u32), len as u32)? as u32;
                    rows[j][lane] = match (bytes, signed) {
                        (1, true) => x as u8 as i8 as i32 as u32,
                        (2, true) => x as u16 as i16 as i32 as u32,
                        _ => x,
                    };
                }
            }
            // The caller's access of the other lanes records the outstanding load.
            for (j, row) in rows.iter().enumerate() {
                w.vwrite(i.vdst as u32 + j as u32, mask, row)?;
            }
        }
        Kind::Store { .. } => {
            w.vreadable(i.data as u32, dwords)?;
            for lane in (0..LANES).filter(|l| mask >> l & 1 != 0) {
                for (j, at, len) in pieces(bytes) {
                    let x = w.v[i.data as usize + j][lane] as u64;
                    lds.write(offsets[lane].wrapping_add(at as u32), len as u32, x)?;
                }
            }
        }
        Kind::Atomic { op, wide } => {
            let per = if wide { 2 } else { 1 };
            let dd = if op == AtomicOp::CmpSwap { 2 * per } else { per };
            w.vreadable(i.data as u32, dd)?;
            let mut rets = vec![[0u32; LANES]; per as usize];
            for lane in (0..LANES).filter(|l| mask >> l & 1 != 0) {
                let reg = |k: u32| w.v[(i.data as u32 + k) as usize][lane] as u64;
                let (src, cmp) = if wide {
                    (reg(0) | reg(1) << 32, if dd == 4 { reg(2) | reg(3) << 32 } else { 0 })
                } else {
                    (reg(0), if dd == 2 { reg(1) } else { 0 })
                };
                // The workgroup's waves run on one host thread, so LDS needs no locking.
                let old = lds.read(offsets[lane], 4 * per)?;
                lds.write(offsets[lane], 4 * per, atomic_apply(op, old, src, cmp, wide))?;
                rets[0][lane] = old as u32;
                if wide {
                    rets[1][lane] = (old >> 32) as u32;
                }
            }
            if i.glc {
                for (j, row) in rets.iter().enumerate() {
                    w.vwrite(i.vdst as u32 + j as u32, mask, row)?;
                }
            }
        }
        Kind::LoadD16 { .. } | Kind::StoreD16Hi { .. } => {
            return fault("16-bit FLAT accesses to the LDS aperture are not modelled")
        }
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => {
            return fault("typed access needs a buffer descriptor")
        }
    }
    Ok(())
}

/// FLAT/GLOBAL/SCRATCH atomics: data from `data`, the old value returned into `vdst`.
#[allow(clippy::too_many_arguments)]
fn flat_atomic(
    w: &mut Wave,
    i: &Flat,
    mem: &Mem<'_>,
    addrs: &Addrs,
    exec: u32,
    dd: u32,
    op: AtomicOp,
    wide: bool,
) -> R<()> {
    w.vreadable(i.data as u32, dd)?;
    let data = data_rows(w, i.data as u32, dd);
    atomic_lanes(w, mem, addrs, exec, &data[..dd as usize], i.vdst as u32, op, wide, i.glc)
}
