//! Vector memory: MUBUF (V#-addressed, with the documented out-of-bounds rules) and
//! GLOBAL/FLAT (64-bit addresses), including atomics.
//!
//! Loads and atomics with return write their VGPRs immediately but stay "outstanding" until an
//! `s_waitcnt vmcnt` retires them, so strict mode catches a read before the wait.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use ferrum_isa::tables::Field;
use ferrum_isa::{Buffer, Flat, Operand, Seg, Special};

use super::wave::{fault, Counter, Wave, LANES, R};
use super::Mem;
use crate::kernel::{Access, Translator};

/// What a vector memory instruction does with its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Load of `bytes` per lane (1, 2 or a multiple of 4), sign-extending sub-dword values.
    Load {
        bytes: u32,
        signed: bool,
    },
    Store {
        bytes: u32,
    },
    Atomic {
        op: AtomicOp,
        wide: bool,
    },
    /// Typed access converting `comps` components through a data format.
    LoadFormat {
        comps: u32,
    },
    StoreFormat {
        comps: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    Swap,
    CmpSwap,
    Add,
    Sub,
    Smin,
    Umin,
    Smax,
    Umax,
    And,
    Or,
    Xor,
    Inc,
    Dec,
}

/// Classifies a vector-memory mnemonic (`buffer_load_dwordx2`, `global_atomic_add_x2`, ...).
pub fn kind(name: &str, data_dwords: u32) -> Option<Kind> {
    let rest = name.split_once('_')?.1;
    let comps = |t: &str| match t {
        "x" => Some(1),
        "xy" => Some(2),
        "xyz" => Some(3),
        "xyzw" => Some(4),
        _ => None,
    };
    if let Some(t) = rest.strip_prefix("load_format_") {
        return Some(Kind::LoadFormat { comps: comps(t)? });
    }
    if let Some(t) = rest.strip_prefix("store_format_") {
        return Some(Kind::StoreFormat { comps: comps(t)? });
    }
    if let Some(t) = rest.strip_prefix("load_") {
        let (bytes, signed) = match t {
            "ubyte" => (1, false),
            "sbyte" => (1, true),
            "ushort" => (2, false),
            "sshort" => (2, true),
            "dword" | "dwordx2" | "dwordx3" | "dwordx4" => (4 * data_dwords, false),
            _ => return None,
        };
        return Some(Kind::Load { bytes, signed });
    }
    if let Some(t) = rest.strip_prefix("store_") {
        let bytes = match t {
            "byte" => 1,
            "short" => 2,
            "dword" | "dwordx2" | "dwordx3" | "dwordx4" => 4 * data_dwords,
            _ => return None,
        };
        return Some(Kind::Store { bytes });
    }
    let t = rest.strip_prefix("atomic_")?;
    let (t, wide) = match t.strip_suffix("_x2") {
        Some(t) => (t, true),
        None => (t, false),
    };
    let op = match t {
        "swap" => AtomicOp::Swap,
        "cmpswap" => AtomicOp::CmpSwap,
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "smin" => AtomicOp::Smin,
        "umin" => AtomicOp::Umin,
        "smax" => AtomicOp::Smax,
        "umax" => AtomicOp::Umax,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        _ => return None,
    };
    Some(Kind::Atomic { op, wide })
}

/// Applies an atomic operation to `old`; returns the new memory value.
pub fn atomic_apply(op: AtomicOp, old: u64, src: u64, cmp: u64, wide: bool) -> u64 {
    let (bits, mask) = if wide { (64, u64::MAX) } else { (32, u32::MAX as u64) };
    let sext = |v: u64| if wide { v as i64 } else { v as u32 as i32 as i64 };
    let r = match op {
        AtomicOp::Swap => src,
        AtomicOp::CmpSwap => {
            if old == cmp {
                src
            } else {
                old
            }
        }
        AtomicOp::Add => old.wrapping_add(src),
        AtomicOp::Sub => old.wrapping_sub(src),
        AtomicOp::Smin => sext(old).min(sext(src)) as u64,
        AtomicOp::Umin => old.min(src),
        AtomicOp::Smax => sext(old).max(sext(src)) as u64,
        AtomicOp::Umax => old.max(src),
        AtomicOp::And => old & src,
        AtomicOp::Or => old | src,
        AtomicOp::Xor => old ^ src,
        AtomicOp::Inc => {
            if old >= src {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > src {
                src
            } else {
                old - 1
            }
        }
    };
    let _ = bits;
    r & mask
}

/// One lane's access: its address, or `None` when out of bounds.
type Addrs = [Option<u64>; LANES];

/// Performs the access for every active lane with a valid address.
fn access(
    w: &mut Wave,
    mem: &Mem<'_>,
    kind: Kind,
    addrs: &Addrs,
    vdata: u32,
    data_dwords: u32,
    glc: bool,
) -> R<()> {
    let exec = w.exec();
    let mut tr = Translator::new(mem.space);
    match kind {
        Kind::Load { bytes, signed } => {
            let dwords = bytes.div_ceil(4);
            w.vwritable(vdata, dwords)?;
            let mut rows = vec![[0u32; LANES]; dwords as usize];
            for lane in 0..LANES {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = addrs[lane] else { continue };
                let mut buf = [0u8; 16];
                tr.read(addr, &mut buf[..bytes as usize])?;
                let mut words = [0u32; 4];
                for (j, word) in words.iter_mut().enumerate() {
                    *word = u32::from_le_bytes([
                        buf[4 * j],
                        buf[4 * j + 1],
                        buf[4 * j + 2],
                        buf[4 * j + 3],
                    ]);
                }
                if bytes < 4 {
                    words[0] = match (bytes, signed) {
                        (1, true) => buf[0] as i8 as i32 as u32,
                        (2, true) => u16::from_le_bytes([buf[0], buf[1]]) as i16 as i32 as u32,
                        _ => words[0],
                    };
                }
                for j in 0..dwords as usize {
                    rows[j][lane] = words[j];
                }
            }
            // Out-of-bounds lanes return zero.
            for (j, row) in rows.iter().enumerate() {
                w.vwrite(vdata + j as u32, exec, row)?;
            }
            w.add_pending(Counter::Vm, true, vdata, dwords);
        }
        Kind::Store { bytes } => {
            let dwords = bytes.div_ceil(4);
            w.vreadable(vdata, dwords)?;
            for (lane, addr) in addrs.iter().enumerate() {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = *addr else { continue };
                let mut buf = [0u8; 16];
                for j in 0..dwords as usize {
                    buf[4 * j..4 * j + 4]
                        .copy_from_slice(&w.v[(vdata + j as u32) as usize][lane].to_le_bytes());
                }
                tr.write(addr, &buf[..bytes as usize])?;
            }
        }
        Kind::Atomic { op, wide } => {
            let per = if wide { 2 } else { 1 };
            w.vreadable(vdata, data_dwords)?;
            let mut ret = vec![[0u32; LANES]; per as usize];
            for lane in 0..LANES {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = addrs[lane] else { continue };
                let reg = |k: u32| w.v[(vdata + k) as usize][lane] as u64;
                let (src, cmp) = if wide {
                    (
                        reg(0) | reg(1) << 32,
                        if op == AtomicOp::CmpSwap { reg(2) | reg(3) << 32 } else { 0 },
                    )
                } else {
                    (reg(0), if op == AtomicOp::CmpSwap { reg(1) } else { 0 })
                };
                let old = atomic_rmw(mem, addr, wide, |old| atomic_apply(op, old, src, cmp, wide))?;
                ret[0][lane] = old as u32;
                if wide {
                    ret[1][lane] = (old >> 32) as u32;
                }
            }
            if glc {
                for (j, row) in ret.iter().enumerate() {
                    w.vwrite(vdata + j as u32, exec, row)?;
                }
                w.add_pending(Counter::Vm, true, vdata, per);
            }
        }
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => {
            return fault("typed access needs a buffer descriptor");
        }
    }
    Ok(())
}

/// An atomic read-modify-write on GPU memory, atomic with respect to other host threads.
fn atomic_rmw(mem: &Mem<'_>, addr: u64, wide: bool, f: impl Fn(u64) -> u64) -> R<u64> {
    let size = if wide { 8 } else { 4 };
    if addr % size != 0 {
        return fault(format!("misaligned atomic at {addr:#x}"));
    }
    let ptr = mem.space.translate(addr, size, Access::Write)?;
    mem.space.translate(addr, size, Access::Read)?;
    if wide {
        // SAFETY: `ptr` is 8-byte aligned (checked) and valid for 8 bytes of mapped memory
        // that lives as long as the address-space snapshot.
        let a = unsafe { AtomicU64::from_ptr(ptr.cast()) };
        Ok(a.fetch_update(Ordering::AcqRel, Ordering::Acquire, |o| Some(f(o))).unwrap_or(0))
    } else {
        // SAFETY: as above, for 4 bytes.
        let a = unsafe { AtomicU32::from_ptr(ptr.cast()) };
        Ok(a.fetch_update(Ordering::AcqRel, Ordering::Acquire, |o| Some(f(o as u64) as u32))
            .unwrap_or(0) as u64)
    }
}

pub fn data_dwords(form: &ferrum_isa::tables::Form) -> u32 {
    [Field::Vdata, Field::Vdst, Field::Data]
        .iter()
        .map(|&f| form.dwords(f) as u32)
        .max()
        .unwrap_or(1)
        .max(1)
}

pub fn buffer(
    w: &mut Wave,
    i: &Buffer,
    form: &ferrum_isa::tables::Form,
    kind: Option<Kind>,
    mem: &Mem<'_>,
    mtbuf: bool,
) -> R<()> {
    let name = i.op.name();
    if i.lds || i.tfe {
        return fault(format!("unimplemented {name} with lds/tfe"));
    }
    let dd = data_dwords(form);
    let k =
        kind.ok_or_else(|| super::wave::Fault::Shader(format!("unimplemented MUBUF {name}")))?;
    let v = w.sread_range(i.srsrc as usize, 4)?;
    let base = v[0] as u64 | ((v[1] & 0xffff) as u64) << 32;
    let stride = ((v[1] >> 16) & 0x3fff) as u64;
    let num_records = v[2] as u64;
    let add_tid = v[3] >> 23 & 1 != 0;
    let oob_select = (v[3] >> 28) & 3;
    if v[1] >> 31 != 0 {
        return fault(format!("{name}: swizzled buffers are not modelled"));
    }
    let soffset =
        if i.soffset == Operand::Special(Special::Null) { 0 } else { w.ssrc(i.soffset)? as u64 };
    let (idx_row, off_row) = match (i.idxen, i.offen) {
        (true, true) => (Some(*w.vrow(i.vaddr as u32)?), Some(*w.vrow(i.vaddr as u32 + 1)?)),
        (true, false) => (Some(*w.vrow(i.vaddr as u32)?), None),
        (false, true) => (None, Some(*w.vrow(i.vaddr as u32)?)),
        (false, false) => (None, None),
    };
    // Typed accesses take their format from the instruction (MTBUF) or the V# (MUBUF).
    let format = if mtbuf { i.format as u32 } else { (v[3] >> 12) & 0x7f };
    let typed = match k {
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => {
            Some(super::formats::lookup(format).ok_or_else(|| {
                super::wave::Fault::Shader(format!("{name}: data format {format} not modelled"))
            })?)
        }
        _ => None,
    };
    let bytes = match k {
        Kind::Load { bytes, .. } | Kind::Store { bytes } => bytes as u64,
        Kind::Atomic { wide, .. } => {
            if wide {
                8
            } else {
                4
            }
        }
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => {
            typed.map_or(4, |(w, _)| super::formats::element_bytes(w) as u64)
        }
    };
    let mut addrs: Addrs = [None; LANES];
    for (lane, a) in addrs.iter_mut().enumerate() {
        let mut index = idx_row.map_or(0, |r| r[lane] as u64);
        if add_tid {
            index += lane as u64;
        }
        let offset = i.offset as u64 + off_row.map_or(0, |r| r[lane] as u64);
        let in_bounds = match oob_select {
            0 => index < num_records && offset < stride.max(1),
            1 => index < num_records,
            2 => num_records != 0,
            _ => soffset + offset + bytes <= num_records,
        };
        if in_bounds {
            *a = Some(base.wrapping_add(soffset).wrapping_add(offset).wrapping_add(index * stride));
        }
    }
    if let Some((widths, num)) = typed {
        return typed_access(w, mem, k, &addrs, i.vdata as u32, widths, num, v[3]);
    }
    access(w, mem, k, &addrs, i.vdata as u32, dd, i.glc)
}

pub fn flat(
    w: &mut Wave,
    i: &Flat,
    form: &ferrum_isa::tables::Form,
    kind: Option<Kind>,
    mem: &Mem<'_>,
) -> R<()> {
    let name = i.op.name();
    if i.seg == Seg::Scratch {
        return fault(format!("unimplemented {name} (scratch)"));
    }
    let dd = data_dwords(form);
    let k = kind.ok_or_else(|| super::wave::Fault::Shader(format!("unimplemented {name}")))?;
    let saddr = i.saddr != Operand::Special(Special::Null) && i.seg == Seg::Global;
    let base = if saddr { Some(w.ssrc64(i.saddr)?) } else { None };
    let lo = *w.vrow(i.addr as u32)?;
    let hi = if base.is_none() { Some(*w.vrow(i.addr as u32 + 1)?) } else { None };
    let mut addrs: Addrs = [None; LANES];
    for (lane, a) in addrs.iter_mut().enumerate() {
        let addr = match (base, hi) {
            (Some(b), _) => b.wrapping_add(lo[lane] as u64),
            (None, Some(h)) => lo[lane] as u64 | (h[lane] as u64) << 32,
            (None, None) => 0,
        };
        *a = Some(addr.wrapping_add(i.offset as i64 as u64));
    }
    let vdata = match k {
        Kind::Load { .. } => i.vdst,
        _ => i.data,
    };
    if let Kind::Atomic { .. } = k {
        // Atomics return into vdst; stage the data through it.
        let per = if matches!(k, Kind::Atomic { wide: true, .. }) { 2 } else { 1 };
        w.vreadable(i.data as u32, dd)?;
        let exec = w.exec();
        let mut rets = vec![[0u32; LANES]; per];
        let mut tmp = Wave::scratch_view(w, i.data as u32, dd);
        let Kind::Atomic { op, wide } = k else { unreachable!("checked above") };
        for (lane, addr) in addrs.iter().enumerate() {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let Some(addr) = *addr else { continue };
            let reg = |kk: usize| tmp[kk][lane] as u64;
            let (src, cmp) = if wide {
                (
                    reg(0) | reg(1) << 32,
                    if op == AtomicOp::CmpSwap { reg(2) | reg(3) << 32 } else { 0 },
                )
            } else {
                (reg(0), if op == AtomicOp::CmpSwap { reg(1) } else { 0 })
            };
            let old = atomic_rmw(mem, addr, wide, |o| atomic_apply(op, o, src, cmp, wide))?;
            rets[0][lane] = old as u32;
            if wide {
                rets[1][lane] = (old >> 32) as u32;
            }
        }
        tmp.clear();
        if i.glc {
            for (j, row) in rets.iter().enumerate() {
                w.vwrite(i.vdst as u32 + j as u32, exec, row)?;
            }
            w.add_pending(Counter::Vm, true, i.vdst as u32, per as u32);
        }
        return Ok(());
    }
    access(w, mem, k, &addrs, vdata as u32, dd, i.glc)
}

impl Wave {
    /// A copy of `count` VGPR rows from `first` (source data of an atomic).
    fn scratch_view(w: &Wave, first: u32, count: u32) -> Vec<[u32; LANES]> {
        (first..first + count).map(|r| w.v[r as usize]).collect()
    }
}

/// buffer/tbuffer `*_format_*`: converts between the element's data format and registers.
#[allow(clippy::too_many_arguments)]
fn typed_access(
    w: &mut Wave,
    mem: &Mem<'_>,
    k: Kind,
    addrs: &Addrs,
    vdata: u32,
    widths: &[u32],
    num: super::formats::Num,
    word3: u32,
) -> R<()> {
    use super::formats::{element_bytes, pack, unpack, Num};
    let exec = w.exec();
    let mut tr = Translator::new(mem.space);
    let bytes = element_bytes(widths) as usize;
    match k {
        Kind::LoadFormat { comps } => {
            w.vwritable(vdata, comps)?;
            let one = if matches!(num, Num::Uint | Num::Sint) { 1 } else { 1.0f32.to_bits() };
            let mut rows = vec![[0u32; LANES]; comps as usize];
            for (lane, addr) in addrs.iter().enumerate() {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = *addr else { continue };
                let mut buf = [0u8; 16];
                tr.read(addr, &mut buf[..bytes])?;
                let channels = unpack(u128::from_le_bytes(buf), widths, num);
                // Missing channels read as (0, 0, 0, 1); DST_SEL then picks per component.
                let get =
                    |c: usize| channels.get(c).copied().unwrap_or(if c == 3 { one } else { 0 });
                for (j, row) in rows.iter_mut().enumerate() {
                    row[lane] = match (word3 >> (3 * j)) & 7 {
                        1 => one,
                        s @ 4..=7 => get(s as usize - 4),
                        _ => 0,
                    };
                }
            }
            for (j, row) in rows.iter().enumerate() {
                w.vwrite(vdata + j as u32, exec, row)?;
            }
            w.add_pending(Counter::Vm, true, vdata, comps);
        }
        Kind::StoreFormat { comps } => {
            w.vreadable(vdata, comps)?;
            if (comps as usize) < widths.len() {
                return fault("format store with fewer components than the format has channels");
            }
            for (lane, addr) in addrs.iter().enumerate() {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = *addr else { continue };
                let values: Vec<u32> =
                    (0..comps).map(|j| w.v[(vdata + j) as usize][lane]).collect();
                let raw = pack(&values, widths, num).ok_or_else(|| {
                    super::wave::Fault::Shader(
                        "conversion to this data format is not modelled".into(),
                    )
                })?;
                tr.write(addr, &raw.to_le_bytes()[..bytes])?;
            }
        }
        _ => return fault("typed access of an untyped instruction"),
    }
    Ok(())
}
