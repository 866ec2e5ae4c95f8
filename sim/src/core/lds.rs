//! DS instructions on the workgroup's LDS, bounded by the allocation in COMPUTE_PGM_RSRC2.
//!
//! All waves of a workgroup run on one host thread, one instruction at a time, so every DS
//! operation (including the atomics) is naturally atomic with respect to the others.

use ferrum_isa::Ds;

use super::vmem::{atomic_apply, AtomicOp};
use super::wave::{fault, Counter, Wave, LANES, R};

/// The workgroup's LDS and how strictly to police it.
pub struct Lds<'a> {
    pub bytes: &'a mut [u8],
    pub strict: bool,
}

impl Lds<'_> {
    /// Checks `[addr, addr + size)`; `Ok(false)` for a tolerated out-of-range access.
    fn check(&self, addr: u32, size: u32) -> R<bool> {
        if addr as u64 + size as u64 <= self.bytes.len() as u64 {
            return Ok(true);
        }
        if self.strict {
            return fault(format!(
                "LDS access of {size} bytes at {addr:#x} beyond the {} bytes allocated by COMPUTE_PGM_RSRC2.LDS_SIZE",
                self.bytes.len()
            ));
        }
        Ok(false)
    }

    pub fn read(&self, addr: u32, size: u32) -> R<u64> {
        if !self.check(addr, size)? {
            return Ok(0);
        }
        let at = addr as usize;
        // Fixed-size copies for the common sizes (a variable-length copy is a memmove call,
        // which dominated LDS-heavy kernels).
        Ok(match size {
            4 => u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("4 bytes")) as u64,
            8 => u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8 bytes")),
            _ => {
                let mut b = [0u8; 8];
                b[..size as usize].copy_from_slice(&self.bytes[at..at + size as usize]);
                u64::from_le_bytes(b)
            }
        })
    }

    pub fn write(&mut self, addr: u32, size: u32, value: u64) -> R<()> {
        if self.check(addr, size)? {
            let at = addr as usize;
            match size {
                4 => self.bytes[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes()),
                8 => self.bytes[at..at + 8].copy_from_slice(&value.to_le_bytes()),
                _ => self.bytes[at..at + size as usize]
                    .copy_from_slice(&value.to_le_bytes()[..size as usize]),
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DsKind {
    Read {
        size: u32,
        signed: bool,
        dwords: u32,
    },
    Write {
        size: u32,
        dwords: u32,
    },
    Read2 {
        size: u32,
        stride64: bool,
    },
    Write2 {
        size: u32,
        stride64: bool,
    },
    Atomic {
        op: AtomicOp,
        ret: bool,
        wide: bool,
    },
    AddF32 {
        ret: bool,
    },
    Permute {
        backward: bool,
    },
    /// `ds_swizzle_b32`: a lane shuffle selected by the offset, no LDS access.
    Swizzle,
}

pub fn classify(name: &str) -> Option<DsKind> {
    let rest = name.strip_prefix("ds_")?;
    Some(match rest {
        "read_b32" => DsKind::Read { size: 4, signed: false, dwords: 1 },
        "read_b64" => DsKind::Read { size: 4, signed: false, dwords: 2 },
        "read_b96" => DsKind::Read { size: 4, signed: false, dwords: 3 },
        "read_b128" => DsKind::Read { size: 4, signed: false, dwords: 4 },
        "read_u8" => DsKind::Read { size: 1, signed: false, dwords: 1 },
        "read_i8" => DsKind::Read { size: 1, signed: true, dwords: 1 },
        "read_u16" => DsKind::Read { size: 2, signed: false, dwords: 1 },
        "read_i16" => DsKind::Read { size: 2, signed: true, dwords: 1 },
        "write_b8" => DsKind::Write { size: 1, dwords: 1 },
        "write_b16" => DsKind::Write { size: 2, dwords: 1 },
        "write_b32" => DsKind::Write { size: 4, dwords: 1 },
        "write_b64" => DsKind::Write { size: 4, dwords: 2 },
        "write_b96" => DsKind::Write { size: 4, dwords: 3 },
        "write_b128" => DsKind::Write { size: 4, dwords: 4 },
        "read2_b32" => DsKind::Read2 { size: 4, stride64: false },
        "read2_b64" => DsKind::Read2 { size: 8, stride64: false },
        "read2st64_b32" => DsKind::Read2 { size: 4, stride64: true },
        "read2st64_b64" => DsKind::Read2 { size: 8, stride64: true },
        "write2_b32" => DsKind::Write2 { size: 4, stride64: false },
        "write2_b64" => DsKind::Write2 { size: 8, stride64: false },
        "write2st64_b32" => DsKind::Write2 { size: 4, stride64: true },
        "write2st64_b64" => DsKind::Write2 { size: 8, stride64: true },
        "add_f32" => DsKind::AddF32 { ret: false },
        "add_rtn_f32" => DsKind::AddF32 { ret: true },
        "bpermute_b32" => DsKind::Permute { backward: true },
        "permute_b32" => DsKind::Permute { backward: false },
        "swizzle_b32" => DsKind::Swizzle,
        other => {
            let (base, ret) = match other.split_once("_rtn_") {
                Some((b, t)) => (format!("{b}_{t}"), true),
                None => (other.to_string(), false),
            };
            let wide = base.ends_with("64");
            let op = match base
                .trim_end_matches("_u32")
                .trim_end_matches("_i32")
                .trim_end_matches("_b32")
                .trim_end_matches("_u64")
                .trim_end_matches("_i64")
                .trim_end_matches("_b64")
            {
                "add" => AtomicOp::Add,
                "sub" => AtomicOp::Sub,
                "inc" => AtomicOp::Inc,
                "dec" => AtomicOp::Dec,
                "min" if base.contains("_i") => AtomicOp::Smin,
                "max" if base.contains("_i") => AtomicOp::Smax,
                "min" => AtomicOp::Umin,
                "max" => AtomicOp::Umax,
                "and" => AtomicOp::And,
                "or" => AtomicOp::Or,
                "xor" => AtomicOp::Xor,
                "wrxchg" => AtomicOp::Swap,
                "cmpst" => AtomicOp::CmpSwap,
                _ => return None,
            };
            DsKind::Atomic { op, ret, wide }
        }
    })
}

/// A DS instruction's kind and operands, decoded once (see [`super::mem_op`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DsOp {
    pub kind: DsKind,
    pub vdst: u8,
    pub addr: u8,
    pub data0: u8,
    pub data1: u8,
    pub offset0: u8,
    pub offset1: u8,
}

impl DsOp {
    pub fn new(i: &Ds, kind: DsKind) -> DsOp {
        let Ds { vdst, addr, data0, data1, offset0, offset1, .. } = *i;
        DsOp { kind, vdst, addr, data0, data1, offset0, offset1 }
    }

    pub fn run(&self, w: &mut Wave, lds: &mut Lds<'_>) -> R<()> {
        let a = Args {
            op: self,
            addr: *w.vrow(self.addr as u32)?,
            offset: self.offset0 as u32 | (self.offset1 as u32) << 8,
            exec: w.exec(),
        };
        match self.kind {
            DsKind::Read { size, signed, dwords } => read(w, &a, lds, size, signed, dwords),
            DsKind::Write { size, dwords } => write(w, &a, lds, size, dwords),
            DsKind::Read2 { size, stride64 } => read2(w, &a, lds, size, stride64),
            DsKind::Write2 { size, stride64 } => write2(w, &a, lds, size, stride64),
            DsKind::Atomic { op, ret, wide } => atomic(w, &a, lds, op, ret, wide),
            DsKind::AddF32 { ret } => add_f32(w, &a, lds, ret),
            DsKind::Swizzle => swizzle(w, &a),
            DsKind::Permute { backward } => permute(w, &a, backward),
        }
    }
}

/// Operands shared by every DS instruction: the per-lane address and the active lanes.
struct Args<'a> {
    op: &'a DsOp,
    addr: [u32; LANES],
    offset: u32,
    exec: u32,
}

impl Args<'_> {
    fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..LANES).filter(|&l| self.exec >> l & 1 != 0)
    }

    fn is_active(&self, lane: usize) -> bool {
        self.exec >> lane & 1 != 0
    }

    /// Reads a 32- or 64-bit data operand of `lane` starting at VGPR `r`.
    fn data(w: &Wave, r: u8, lane: usize, wide: bool) -> u64 {
        let lo = w.v[r as usize][lane] as u64;
        if wide {
            lo | (w.v[r as usize + 1][lane] as u64) << 32
        } else {
            lo
        }
    }
}

pub fn exec(w: &mut Wave, i: &Ds, kind: Option<&DsKind>, lds: &mut Lds<'_>) -> R<()> {
    let name = i.op.name();
    if i.gds {
        return fault(format!("{name}: GDS is not modelled"));
    }
    let kind =
        *kind.ok_or_else(|| super::wave::Fault::Shader(format!("unimplemented DS {name}")))?;
    DsOp::new(i, kind).run(w, lds)
}

fn read(w: &mut Wave, a: &Args<'_>, lds: &Lds<'_>, size: u32, signed: bool, dwords: u32) -> R<()> {
    w.vwritable(a.op.vdst as u32, dwords)?;
    let mut rows = [[0u32; LANES]; 4];
    let rows = &mut rows[..dwords as usize];
    for lane in a.active() {
        for (j, row) in rows.iter_mut().enumerate() {
            let at = a.addr[lane].wrapping_add(a.offset).wrapping_add(4 * j as u32);
            let v = lds.read(at, size)? as u32;
            row[lane] = match (size, signed) {
                (1, true) => v as u8 as i8 as i32 as u32,
                (2, true) => v as u16 as i16 as i32 as u32,
                _ => v,
            };
        }
    }
    write_rows(w, a.op.vdst as u32, a.exec, rows)
}

fn write(w: &mut Wave, a: &Args<'_>, lds: &mut Lds<'_>, size: u32, dwords: u32) -> R<()> {
    w.vreadable(a.op.data0 as u32, dwords)?;
    for lane in a.active() {
        for j in 0..dwords {
            let v = w.v[(a.op.data0 as u32 + j) as usize][lane] as u64;
            lds.write(a.addr[lane].wrapping_add(a.offset).wrapping_add(4 * j), size, v)?;
        }
    }
    Ok(())
}

/// `ds_read2*`: two elements at OFFSET0 and OFFSET1 (in element units, or 64 elements for
/// the `st64` forms).
fn read2(w: &mut Wave, a: &Args<'_>, lds: &Lds<'_>, size: u32, stride64: bool) -> R<()> {
    let per = size / 4;
    let scale = size * if stride64 { 64 } else { 1 };
    w.vwritable(a.op.vdst as u32, 2 * per)?;
    let mut rows = [[0u32; LANES]; 4];
    let rows = &mut rows[..(2 * per) as usize];
    for lane in a.active() {
        for (k, off) in [a.op.offset0, a.op.offset1].into_iter().enumerate() {
            let v = lds.read(a.addr[lane].wrapping_add(off as u32 * scale), size)?;
            rows[k * per as usize][lane] = v as u32;
            if per == 2 {
                rows[k * 2 + 1][lane] = (v >> 32) as u32;
            }
        }
    }
    write_rows(w, a.op.vdst as u32, a.exec, rows)
}

fn write2(w: &mut Wave, a: &Args<'_>, lds: &mut Lds<'_>, size: u32, stride64: bool) -> R<()> {
    let per = size / 4;
    let scale = size * if stride64 { 64 } else { 1 };
    w.vreadable(a.op.data0 as u32, per)?;
    w.vreadable(a.op.data1 as u32, per)?;
    for lane in a.active() {
        for (off, data) in [(a.op.offset0, a.op.data0), (a.op.offset1, a.op.data1)] {
            let v = Args::data(w, data, lane, per == 2);
            lds.write(a.addr[lane].wrapping_add(off as u32 * scale), size, v)?;
        }
    }
    Ok(())
}

fn atomic(
    w: &mut Wave,
    a: &Args<'_>,
    lds: &mut Lds<'_>,
    op: AtomicOp,
    ret: bool,
    wide: bool,
) -> R<()> {
    let per = if wide { 2 } else { 1 };
    w.vreadable(a.op.data0 as u32, per)?;
    if op == AtomicOp::CmpSwap {
        w.vreadable(a.op.data1 as u32, per)?;
    }
    let mut rows = [[0u32; LANES]; 2];
    let rows = &mut rows[..per as usize];
    for lane in a.active() {
        let at = a.addr[lane].wrapping_add(a.offset);
        // ds_cmpst: data0 is the compare value, data1 the new value.
        let (src, cmp) = if op == AtomicOp::CmpSwap {
            (Args::data(w, a.op.data1, lane, wide), Args::data(w, a.op.data0, lane, wide))
        } else {
            (Args::data(w, a.op.data0, lane, wide), 0)
        };
        let old = lds.read(at, 4 * per)?;
        lds.write(at, 4 * per, atomic_apply(op, old, src, cmp, wide))?;
        rows[0][lane] = old as u32;
        if wide {
            rows[1][lane] = (old >> 32) as u32;
        }
    }
    if ret {
        w.vwritable(a.op.vdst as u32, per)?;
        write_rows(w, a.op.vdst as u32, a.exec, rows)?;
    }
    Ok(())
}

fn add_f32(w: &mut Wave, a: &Args<'_>, lds: &mut Lds<'_>, ret: bool) -> R<()> {
    w.vreadable(a.op.data0 as u32, 1)?;
    let mut row = [0u32; LANES];
    for lane in a.active() {
        let at = a.addr[lane].wrapping_add(a.offset);
        let old = lds.read(at, 4)? as u32;
        let new = f32::from_bits(old) + f32::from_bits(w.v[a.op.data0 as usize][lane]);
        lds.write(at, 4, new.to_bits() as u64)?;
        row[lane] = old;
    }
    if ret {
        write_rows(w, a.op.vdst as u32, a.exec, &[row])?;
    }
    Ok(())
}

/// `ds_swizzle_b32`: the shuffled value is the instruction's ADDR operand; inactive source
/// lanes read 0.
fn swizzle(w: &mut Wave, a: &Args<'_>) -> R<()> {
    let mode = SwizzleMode::new(a.offset)?;
    let row: [u32; LANES] = std::array::from_fn(|lane| {
        let src = mode.source(lane);
        if a.is_active(src) {
            a.addr[src]
        } else {
            0
        }
    });
    write_rows(w, a.op.vdst as u32, a.exec, &[row])
}

/// `ds_bpermute_b32` (each lane pulls from lane ADDR/4) and `ds_permute_b32` (each lane pushes
/// to lane ADDR/4).
fn permute(w: &mut Wave, a: &Args<'_>, backward: bool) -> R<()> {
    w.vreadable(a.op.data0 as u32, 1)?;
    let data = w.v[a.op.data0 as usize];
    let mut row = [0u32; LANES];
    for lane in a.active() {
        let sel = ((a.addr[lane].wrapping_add(a.offset) >> 2) & 31) as usize;
        if backward {
            row[lane] = if a.is_active(sel) { data[sel] } else { 0 };
        } else {
            row[sel] = data[lane];
        }
    }
    write_rows(w, a.op.vdst as u32, if backward { a.exec } else { u32::MAX }, &[row])
}

fn write_rows(w: &mut Wave, first: u32, exec: u32, rows: &[[u32; LANES]]) -> R<()> {
    for (j, row) in rows.iter().enumerate() {
        w.vwrite(first + j as u32, exec, row)?;
    }
    w.add_pending(Counter::Lds, true, first, rows.len() as u32);
    Ok(())
}

/// The lane shuffle of `ds_swizzle_b32`, from its offset: quad permute (offset[15:8] = 0x80,
/// two bits per lane of a quad) or bit-mask mode (offset[15] = 0: and, or, xor masks of 5 bits).
enum SwizzleMode {
    Quad(usize),
    Mask { and: usize, or: usize, xor: usize },
}

impl SwizzleMode {
    fn new(offset: u32) -> R<SwizzleMode> {
        let o = offset as usize;
        if o & 0xff00 == 0x8000 {
            Ok(SwizzleMode::Quad(o))
        } else if o & 0x8000 != 0 {
            fault(format!("ds_swizzle_b32 offset {offset:#x} (mode not modelled)"))
        } else {
            Ok(SwizzleMode::Mask { and: o & 0x1f, or: o >> 5 & 0x1f, xor: o >> 10 & 0x1f })
        }
    }

    /// The lane that `lane` reads.
    fn source(&self, lane: usize) -> usize {
        match *self {
            SwizzleMode::Quad(sel) => (lane & !3) | (sel >> (2 * (lane & 3)) & 3),
            SwizzleMode::Mask { and, or, xor } => ((lane & and) | or) ^ xor,
        }
    }
}
