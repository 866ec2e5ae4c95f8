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

    fn read(&self, addr: u32, size: u32) -> R<u64> {
        if !self.check(addr, size)? {
            return Ok(0);
        }
        let mut b = [0u8; 8];
        b[..size as usize].copy_from_slice(&self.bytes[addr as usize..(addr + size) as usize]);
        Ok(u64::from_le_bytes(b))
    }

    fn write(&mut self, addr: u32, size: u32, value: u64) -> R<()> {
        if self.check(addr, size)? {
            self.bytes[addr as usize..(addr + size) as usize]
                .copy_from_slice(&value.to_le_bytes()[..size as usize]);
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy)]
pub enum DsKind {
    Read { size: u32, signed: bool, dwords: u32 },
    Write { size: u32, dwords: u32 },
    Read2 { size: u32, stride64: bool },
    Write2 { size: u32, stride64: bool },
    Atomic { op: AtomicOp, ret: bool, wide: bool },
    AddF32 { ret: bool },
    Permute { backward: bool },
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

pub fn exec(w: &mut Wave, i: &Ds, kind: Option<&DsKind>, lds: &mut Lds<'_>) -> R<()> {
    let name = i.op.name();
    if i.gds {
        return fault(format!("{name}: GDS is not modelled"));
    }
    let kind =
        *kind.ok_or_else(|| super::wave::Fault::Shader(format!("unimplemented DS {name}")))?;
    let exec = w.exec();
    let addr = *w.vrow(i.addr as u32)?;
    let offset = i.offset0 as u32 | (i.offset1 as u32) << 8;
    let active = |lane: usize| exec >> lane & 1 != 0;
    match kind {
        DsKind::Read { size, signed, dwords } => {
            w.vwritable(i.vdst as u32, dwords)?;
            let mut rows = vec![[0u32; LANES]; dwords as usize];
            for lane in (0..LANES).filter(|&l| active(l)) {
                for (j, row) in rows.iter_mut().enumerate() {
                    let v = lds
                        .read(addr[lane].wrapping_add(offset).wrapping_add(4 * j as u32), size)?
                        as u32;
                    row[lane] = match (size, signed) {
                        (1, true) => v as u8 as i8 as i32 as u32,
                        (2, true) => v as u16 as i16 as i32 as u32,
                        _ => v,
                    };
                }
            }
            write_rows(w, i.vdst as u32, exec, &rows)?;
        }
        DsKind::Write { size, dwords } => {
            w.vreadable(i.data0 as u32, dwords)?;
            for lane in (0..LANES).filter(|&l| active(l)) {
                for j in 0..dwords {
                    let v = w.v[(i.data0 as u32 + j) as usize][lane] as u64;
                    lds.write(addr[lane].wrapping_add(offset).wrapping_add(4 * j), size, v)?;
                }
            }
        }
        DsKind::Read2 { size, stride64 } => {
            let per = size / 4;
            let scale = size * if stride64 { 64 } else { 1 };
            w.vwritable(i.vdst as u32, 2 * per)?;
            let mut rows = vec![[0u32; LANES]; (2 * per) as usize];
            for lane in (0..LANES).filter(|&l| active(l)) {
                for (k, off) in [i.offset0, i.offset1].into_iter().enumerate() {
                    let a = addr[lane].wrapping_add(off as u32 * scale);
                    let v = lds.read(a, size)?;
                    rows[k * per as usize][lane] = v as u32;
                    if per == 2 {
                        rows[k * 2 + 1][lane] = (v >> 32) as u32;
                    }
                }
            }
            write_rows(w, i.vdst as u32, exec, &rows)?;
        }
        DsKind::Write2 { size, stride64 } => {
            let per = size / 4;
            let scale = size * if stride64 { 64 } else { 1 };
            w.vreadable(i.data0 as u32, per)?;
            w.vreadable(i.data1 as u32, per)?;
            for lane in (0..LANES).filter(|&l| active(l)) {
                for (off, data) in [(i.offset0, i.data0), (i.offset1, i.data1)] {
                    let lo = w.v[data as usize][lane] as u64;
                    let v = if per == 2 {
                        lo | (w.v[data as usize + 1][lane] as u64) << 32
                    } else {
                        lo
                    };
                    lds.write(addr[lane].wrapping_add(off as u32 * scale), size, v)?;
                }
            }
        }
        DsKind::Atomic { op, ret, wide } => {
            let per = if wide { 2 } else { 1 };
            let size = 4 * per;
            w.vreadable(i.data0 as u32, per)?;
            if op == AtomicOp::CmpSwap {
                w.vreadable(i.data1 as u32, per)?;
            }
            let mut rows = vec![[0u32; LANES]; per as usize];
            for lane in (0..LANES).filter(|&l| active(l)) {
                let a = addr[lane].wrapping_add(offset);
                let get = |r: u8| {
                    let lo = w.v[r as usize][lane] as u64;
                    if wide {
                        lo | (w.v[r as usize + 1][lane] as u64) << 32
                    } else {
                        lo
                    }
                };
                // ds_cmpst: data0 is the compare value, data1 the new value.
                let (src, cmp) = if op == AtomicOp::CmpSwap {
                    (get(i.data1), get(i.data0))
                } else {
                    (get(i.data0), 0)
                };
                let old = lds.read(a, size)?;
                lds.write(a, size, atomic_apply(op, old, src, cmp, wide))?;
                rows[0][lane] = old as u32;
                if wide {
                    rows[1][lane] = (old >> 32) as u32;
                }
            }
            if ret {
                w.vwritable(i.vdst as u32, per)?;
                write_rows(w, i.vdst as u32, exec, &rows)?;
            }
        }
        DsKind::AddF32 { ret } => {
            w.vreadable(i.data0 as u32, 1)?;
            let mut row = [0u32; LANES];
            for lane in (0..LANES).filter(|&l| active(l)) {
                let a = addr[lane].wrapping_add(offset);
                let old = lds.read(a, 4)? as u32;
                let new = f32::from_bits(old) + f32::from_bits(w.v[i.data0 as usize][lane]);
                lds.write(a, 4, new.to_bits() as u64)?;
                row[lane] = old;
            }
            if ret {
                write_rows(w, i.vdst as u32, exec, &[row])?;
            }
        }
        DsKind::Permute { backward } => {
            w.vreadable(i.data0 as u32, 1)?;
            let data = w.v[i.data0 as usize];
            let mut row = [0u32; LANES];
            for lane in (0..LANES).filter(|&l| active(l)) {
                let sel = ((addr[lane].wrapping_add(offset) >> 2) & 31) as usize;
                if backward {
                    row[lane] = if active(sel) { data[sel] } else { 0 };
                } else {
                    row[sel] = data[lane];
                }
            }
            write_rows(w, i.vdst as u32, if backward { exec } else { u32::MAX }, &[row])?;
        }
    }
    Ok(())
}

fn write_rows(w: &mut Wave, first: u32, exec: u32, rows: &[[u32; LANES]]) -> R<()> {
    for (j, row) in rows.iter().enumerate() {
        w.vwrite(first + j as u32, exec, row)?;
    }
    w.add_pending(Counter::Lds, true, first, rows.len() as u32);
    Ok(())
}
