//! Vector memory: MUBUF (V#-addressed, with the documented out-of-bounds rules), and the
//! per-lane accesses and atomics that GLOBAL/FLAT/SCRATCH ([`super::vmem_flat`]) share.
//!
//! Loads and atomics with return write their VGPRs immediately but stay "outstanding" until an
//! `s_waitcnt vmcnt` retires them, so strict mode catches a read before the wait.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use ferrum_isa::tables::Field;
use ferrum_isa::{Buffer, Operand, Special};

use super::address::{pieces, Addrs, Vsharp};
use super::mem_op::BufferOp;
use super::vmem_fast::{self, Span};
use super::wave::{fault, Counter, Wave, LANES, R};
use super::Mem;
use crate::kernel::{Access, Translator};
use crate::tex::format::Format;

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
    /// `*_d16` / `*_d16_hi` loads: 1 or 2 bytes into one half of the register, the other
    /// half kept.
    LoadD16 {
        bytes: u32,
        signed: bool,
        hi: bool,
    },
    /// `*_store_{byte,short}_d16_hi`: stores from the register's high half.
    StoreD16Hi {
        bytes: u32,
    },
    Atomic {
        op: AtomicOp,
        wide: bool,
    },
    /// Typed access converting `comps` components through a data format; `d16` packs two
    /// 16-bit components per register (f16 for float formats).
    LoadFormat {
        comps: u32,
        d16: bool,
    },
    StoreFormat {
        comps: u32,
        d16: bool,
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
        let (t, d16) = t.strip_prefix("d16_").map_or((t, false), |t| (t, true));
        return Some(Kind::LoadFormat { comps: comps(t)?, d16 });
    }
    if let Some(t) = rest.strip_prefix("store_format_") {
        let (t, d16) = t.strip_prefix("d16_").map_or((t, false), |t| (t, true));
        return Some(Kind::StoreFormat { comps: comps(t)?, d16 });
    }
    if let Some(t) = rest.strip_prefix("load_").and_then(|t| t.strip_suffix("_d16_hi")) {
        let (bytes, signed) = d16_load(t)?;
        return Some(Kind::LoadD16 { bytes, signed, hi: true });
    }
    if let Some(t) = rest.strip_prefix("load_").and_then(|t| t.strip_suffix("_d16")) {
        let (bytes, signed) = d16_load(t)?;
        return Some(Kind::LoadD16 { bytes, signed, hi: false });
    }
    match rest {
        "store_byte_d16_hi" => return Some(Kind::StoreD16Hi { bytes: 1 }),
        "store_short_d16_hi" => return Some(Kind::StoreD16Hi { bytes: 2 }),
        _ => {}
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

fn d16_load(t: &str) -> Option<(u32, bool)> {
    Some(match t {
        "ubyte" => (1, false),
        "sbyte" => (1, true),
        "short" => (2, false),
        _ => return None,
    })
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

/// Performs the access for every lane in `exec`, dword by dword where an address exists.
#[allow(clippy::too_many_arguments)]
pub(super) fn access(
    w: &mut Wave,
    mem: &Mem<'_>,
    kind: Kind,
    addrs: &Addrs,
    exec: u32,
    vdata: u32,
    data_dwords: u32,
    glc: bool,
) -> R<()> {
    match kind {
        Kind::Load { bytes, signed } => load(w, mem, addrs, exec, vdata, bytes, signed),
        Kind::Store { bytes } => store(w, mem, addrs, exec, vdata, bytes),
        Kind::LoadD16 { bytes, signed, hi } => {
            load_d16(w, mem, addrs, exec, vdata, (bytes, signed, hi))
        }
        Kind::StoreD16Hi { bytes } => store_d16_hi(w, mem, addrs, exec, vdata, bytes),
        Kind::Atomic { op, wide } => {
            w.vreadable(vdata, data_dwords)?;
            let data = data_rows(w, vdata, data_dwords);
            // Buffer atomics return into the data registers.
            atomic_lanes(w, mem, addrs, exec, &data[..data_dwords as usize], vdata, op, wide, glc)
        }
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => {
            fault("typed access needs a buffer descriptor")
        }
    }
}

fn load(
    w: &mut Wave,
    mem: &Mem<'_>,
    addrs: &Addrs,
    exec: u32,
    vdata: u32,
    bytes: u32,
    signed: bool,
) -> R<()> {
    let mut tr = Translator::new(mem.space);
    let dwords = bytes.div_ceil(4);
    w.vwritable(vdata, dwords)?;
    let mut all = [[0u32; LANES]; 4];
    let rows = &mut all[..dwords as usize];
    for lane in (0..LANES).filter(|l| exec >> l & 1 != 0) {
        // Out-of-range dwords read as zero.
        let mut buf = [0u8; 16];
        if let Some(addr) = contiguous(&addrs[lane], bytes) {
            tr.read(addr, &mut buf[..bytes as usize])?;
        } else {
            for (j, at, len) in pieces(bytes) {
                if let Some(addr) = addrs[lane][j] {
                    tr.read(addr, &mut buf[at as usize..at as usize + len])?;
                }
            }
        }
        for (j, row) in rows.iter_mut().enumerate() {
            row[lane] =
                u32::from_le_bytes([buf[4 * j], buf[4 * j + 1], buf[4 * j + 2], buf[4 * j + 3]]);
        }
        rows[0][lane] = match (bytes, signed) {
            (1, true) => buf[0] as i8 as i32 as u32,
            (2, true) => u16::from_le_bytes([buf[0], buf[1]]) as i16 as i32 as u32,
            _ => rows[0][lane],
        };
    }
    for (j, row) in rows.iter().enumerate() {
        w.vwrite(vdata + j as u32, exec, row)?;
    }
    w.add_pending(Counter::Vm, true, vdata, dwords);
    Ok(())
}

/// `*_d16(_hi)` loads: the value (sign- or zero-extended to 16 bits) replaces one half of
/// the register.
fn load_d16(
    w: &mut Wave,
    mem: &Mem<'_>,
    addrs: &Addrs,
    exec: u32,
    vdata: u32,
    (bytes, signed, hi): (u32, bool, bool),
) -> R<()> {
    let mut tr = Translator::new(mem.space);
    let mut row = *w.vrow(vdata)?;
    w.vwritable(vdata, 1)?;
    for lane in (0..LANES).filter(|l| exec >> l & 1 != 0) {
        let mut buf = [0u8; 2];
        if let Some(addr) = addrs[lane][0] {
            tr.read(addr, &mut buf[..bytes as usize])?;
        }
        let half = match (bytes, signed) {
            (1, true) => buf[0] as i8 as i16 as u16,
            (1, false) => buf[0] as u16,
            _ => u16::from_le_bytes(buf),
        } as u32;
        row[lane] =
            if hi { (row[lane] & 0xffff) | half << 16 } else { (row[lane] & !0xffff) | half };
    }
    w.vwrite(vdata, exec, &row)?;
    w.add_pending(Counter::Vm, true, vdata, 1);
    Ok(())
}

fn store_d16_hi(
    w: &mut Wave,
    mem: &Mem<'_>,
    addrs: &Addrs,
    exec: u32,
    vdata: u32,
    bytes: u32,
) -> R<()> {
    let mut tr = Translator::new(mem.space);
    let row = *w.vrow(vdata)?;
    for lane in (0..LANES).filter(|l| exec >> l & 1 != 0) {
        if let Some(addr) = addrs[lane][0] {
            tr.write(addr, &(row[lane] >> 16).to_le_bytes()[..bytes as usize])?;
        }
    }
    Ok(())
}

fn store(w: &mut Wave, mem: &Mem<'_>, addrs: &Addrs, exec: u32, vdata: u32, bytes: u32) -> R<()> {
    let mut tr = Translator::new(mem.space);
    w.vreadable(vdata, bytes.div_ceil(4))?;
    for (lane, dw) in addrs.iter().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
        if let Some(addr) = contiguous(dw, bytes) {
            let mut buf = [0u8; 16];
            for j in 0..bytes.div_ceil(4) as usize {
                let word = w.v[vdata as usize + j][lane].to_le_bytes();
                buf[4 * j..4 * j + 4].copy_from_slice(&word);
            }
            tr.write(addr, &buf[..bytes as usize])?;
            continue;
        }
        for (j, _, len) in pieces(bytes) {
            if let Some(addr) = dw[j] {
                let word = w.v[(vdata + j as u32) as usize][lane].to_le_bytes();
                tr.write(addr, &word[..len])?;
            }
        }
    }
    Ok(())
}

/// Copies of up to four data registers from `first` (checked readable by the caller).
pub(super) fn data_rows(w: &Wave, first: u32, count: u32) -> [[u32; LANES]; 4] {
    std::array::from_fn(|j| {
        if (j as u32) < count {
            w.v[(first + j as u32) as usize]
        } else {
            [0; LANES]
        }
    })
}

/// Atomics of the lanes in `exec` with operands from `data` (rows of the data registers);
/// with `glc` the old values go to `ret` (and the following register for 64-bit atomics).
#[allow(clippy::too_many_arguments)]
pub(super) fn atomic_lanes(
    w: &mut Wave,
    mem: &Mem<'_>,
    addrs: &Addrs,
    exec: u32,
    data: &[[u32; LANES]],
    ret: u32,
    op: AtomicOp,
    wide: bool,
    glc: bool,
) -> R<()> {
    let per = if wide { 2 } else { 1 };
    let mut all = [[0u32; LANES]; 2];
    let rets = &mut all[..per];
    for (lane, dwords) in addrs.iter().enumerate().filter(|(l, _)| exec >> l & 1 != 0) {
        let Some(addr) = atomic_address(dwords, wide)? else { continue };
        let reg = |k: usize| data[k][lane] as u64;
        let (src, cmp) = if wide {
            (reg(0) | reg(1) << 32, if op == AtomicOp::CmpSwap { reg(2) | reg(3) << 32 } else { 0 })
        } else {
            (reg(0), if op == AtomicOp::CmpSwap { reg(1) } else { 0 })
        };
        let old = atomic_rmw(mem, addr, wide, |o| atomic_apply(op, o, src, cmp, wide))?;
        rets[0][lane] = old as u32;
        if wide {
            rets[1][lane] = (old >> 32) as u32;
        }
    }
    if glc {
        for (j, row) in rets.iter().enumerate() {
            w.vwrite(ret + j as u32, exec, row)?;
        }
        w.add_pending(Counter::Vm, true, ret, per as u32);
    }
    Ok(())
}

/// Untyped loads and stores on the fast path ([`vmem_fast`]) when `span(bytes)` finds every
/// active lane's access wholly in range; `Ok(false)`: the exact path must run.
pub(super) fn try_fast(
    w: &mut Wave,
    mem: &Mem<'_>,
    kind: Kind,
    exec: u32,
    vdata: u32,
    span: impl FnOnce(u32) -> Option<Span>,
) -> R<bool> {
    match kind {
        Kind::Load { bytes, signed } => match span(bytes) {
            Some(s) => vmem_fast::load(w, mem.space, &s, exec, vdata, (bytes, signed)),
            None => Ok(false),
        },
        Kind::Store { bytes } => match span(bytes) {
            Some(s) => vmem_fast::store(w, mem.space, &s, exec, vdata, bytes),
            None => Ok(false),
        },
        _ => Ok(false),
    }
}

/// The start address when every dword of the access is in range and they are consecutive
/// (the common case, moved with one translation).
fn contiguous(dwords: &[Option<u64>; 4], bytes: u32) -> Option<u64> {
    let a = dwords[0]?;
    let n = bytes.div_ceil(4) as usize;
    (1..n).all(|j| dwords[j] == Some(a + 4 * j as u64)).then_some(a)
}

/// The address of an atomic: all its dwords in range and contiguous, else `None` (skipped).
fn atomic_address(dwords: &[Option<u64>; 4], wide: bool) -> R<Option<u64>> {
    let Some(a) = dwords[0] else { return Ok(None) };
    if !wide {
        return Ok(Some(a));
    }
    match dwords[1] {
        None => Ok(None),
        Some(b) if b == a + 4 => Ok(Some(a)),
        Some(_) => fault("64-bit atomic on a swizzled address"),
    }
}

/// An atomic read-modify-write on GPU memory, atomic with respect to other host threads.
pub fn atomic_rmw(mem: &Mem<'_>, addr: u64, wide: bool, f: impl Fn(u64) -> u64) -> R<u64> {
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
    let k =
        kind.ok_or_else(|| super::wave::Fault::Shader(format!("unimplemented MUBUF {name}")))?;
    if let Some(op) = BufferOp::new(i, k) {
        if op.run(w, mem)? {
            return Ok(());
        }
    }
    let v = w.sread_n::<4>(i.srsrc as usize)?;
    let vs = Vsharp::parse(&v);
    if w.strict() {
        vsharp_check(v[3])?;
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
            if vs.swizzle {
                return fault(format!("{name}: typed access to a swizzled buffer"));
            }
            let f = Format::from_code(format).filter(|f| f.block() == (1, 1));
            Some(f.ok_or_else(|| {
                super::wave::Fault::Shader(format!("{name}: data format {format} not modelled"))
            })?)
        }
        _ => None,
    };
    let bytes = match k {
        Kind::Load { bytes, .. }
        | Kind::Store { bytes }
        | Kind::LoadD16 { bytes, .. }
        | Kind::StoreD16Hi { bytes } => bytes,
        Kind::Atomic { wide, .. } => {
            if wide {
                8
            } else {
                4
            }
        }
        Kind::LoadFormat { .. } | Kind::StoreFormat { .. } => typed.map_or(4, |f| f.bytes()),
    };
    // Plain arrays: closures over the `Option` rows copied a whole row per lane.
    let index: [u64; LANES] = std::array::from_fn(|l| idx_row.as_ref().map_or(0, |r| r[l] as u64));
    let offset: [u64; LANES] =
        std::array::from_fn(|l| i.offset as u64 + off_row.as_ref().map_or(0, |r| r[l] as u64));
    // Without an index or ADD_TID, `BufferOp` above took the fast path if it could.
    if typed.is_none() && !vs.swizzle && (idx_row.is_some() || vs.add_tid) {
        let exec = w.exec();
        let span = |bytes| {
            Span::gather(exec, bytes, |l| vs.whole_in_range(soffset, l, index[l], offset[l], bytes))
        };
        if try_fast(w, mem, k, exec, i.vdata as u32, span)? {
            return Ok(());
        }
    }
    let addrs = vs.addresses(soffset, &index, &offset, bytes)?;
    if let Some(fmt) = typed {
        // A format element is converted as a whole: it is in range only if all of it is.
        let whole: [Option<u64>; LANES] = std::array::from_fn(|l| {
            let d = &addrs[l];
            pieces(bytes).all(|(j, _, _)| d[j].is_some()).then_some(d[0]).flatten()
        });
        return typed_access(w, mem, k, &whole, i.vdata as u32, &fmt, v[3]);
    }
    // Only atomics use the data width of the form, a table search too slow for every access.
    let dd = data_dwords(form);
    access(w, mem, k, &addrs, w.exec(), i.vdata as u32, dd, i.glc)
}

/// Word 3 of a V# that the hardware would misread: TYPE must be 0 (a T# has TYPE >= 8) and
/// RESOURCE_LEVEL 1 on GFX10 (descriptors-gfx103.md §1).
pub(super) fn vsharp_check(word3: u32) -> R<()> {
    if word3 >> 30 != 0 {
        return fault(format!(
            "V# word 3 {word3:#010x} has TYPE {} (an image descriptor?)",
            word3 >> 30
        ));
    }
    if word3 >> 24 & 1 == 0 {
        return fault(format!("V# word 3 {word3:#010x} has RESOURCE_LEVEL 0 (must be 1)"));
    }
    Ok(())
}

/// Bytes one lane moves for a vector-memory kind (format accesses are not FLAT).
/// Packs component rows two per register as 16-bit values (floats converted to f16).
fn pack_d16(rows: &[[u32; LANES]], integer: bool) -> Vec<[u32; LANES]> {
    let half = |v: u32| {
        if integer {
            v & 0xffff
        } else {
            super::wave::f32_to_f16(f32::from_bits(v)) as u32
        }
    };
    rows.chunks(2)
        .map(|pair| {
            std::array::from_fn(|l| half(pair[0][l]) | pair.get(1).map_or(0, |r| half(r[l])) << 16)
        })
        .collect()
}

/// buffer/tbuffer `*_format_*`: converts between the element's data format and registers.
/// Loads apply the V#'s DST_SEL to the element's channels (missing ones read 0, 0, 0, 1);
/// stores write the channels in register order and need one register per channel.
#[allow(clippy::too_many_arguments)]
fn typed_access(
    w: &mut Wave,
    mem: &Mem<'_>,
    k: Kind,
    addrs: &[Option<u64>; LANES],
    vdata: u32,
    fmt: &Format,
    word3: u32,
) -> R<()> {
    let exec = w.exec();
    let mut tr = Translator::new(mem.space);
    let bytes = fmt.bytes() as usize;
    match k {
        Kind::LoadFormat { comps, d16 } => {
            let regs = if d16 { comps.div_ceil(2) } else { comps };
            w.vwritable(vdata, regs)?;
            let one = if fmt.is_integer() { 1 } else { 1.0f32.to_bits() };
            let mut rows = vec![[0u32; LANES]; comps as usize];
            for (lane, addr) in addrs.iter().enumerate() {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = *addr else { continue };
                let mut buf = [0u8; 16];
                tr.read(addr, &mut buf[..bytes])?;
                let channels = fmt.decode(&buf[..bytes]);
                for (j, row) in rows.iter_mut().enumerate() {
                    row[lane] = match (word3 >> (3 * j)) & 7 {
                        1 => one,
                        s @ 4..=7 => channels[s as usize - 4],
                        _ => 0,
                    };
                }
            }
            if d16 {
                rows = pack_d16(&rows, fmt.is_integer());
            }
            for (j, row) in rows.iter().enumerate() {
                w.vwrite(vdata + j as u32, exec, row)?;
            }
            w.add_pending(Counter::Vm, true, vdata, regs);
        }
        Kind::StoreFormat { comps, d16 } => {
            w.vreadable(vdata, if d16 { comps.div_ceil(2) } else { comps })?;
            if (comps as usize) < fmt.channels() {
                return fault("format store with fewer components than the format has channels");
            }
            for (lane, addr) in addrs.iter().enumerate() {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let Some(addr) = *addr else { continue };
                let mut values = [0u32; 4];
                for (j, v) in values.iter_mut().enumerate().take(comps as usize) {
                    *v = if d16 {
                        let h = (w.v[vdata as usize + j / 2][lane] >> (16 * (j % 2))) & 0xffff;
                        if fmt.is_integer() {
                            h
                        } else {
                            super::wave::f16_to_f32(h as u16).to_bits()
                        }
                    } else {
                        w.v[vdata as usize + j][lane]
                    };
                }
                let mut buf = [0u8; 16];
                fmt.encode(values, &mut buf)
                    .ok_or_else(|| super::wave::Fault::Shader("format not writable".into()))?;
                tr.write(addr, &buf[..bytes])?;
            }
        }
        _ => return fault("typed access of an untyped instruction"),
    }
    Ok(())
}

#[cfg(test)]
#[path = "vmem_tests.rs"]
mod tests;
