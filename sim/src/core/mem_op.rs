//! The most frequent memory instructions with their operands decoded once: untyped buffer
//! loads and stores without an index (`buffer_load_dwordx4 v[1:4], v0, s[8:11], 0 offen`),
//! scalar loads (`s_load_dwordx8`) and LDS reads and writes ([`DsOp`]).
//!
//! The interpreter runs them from here, so there is one implementation. The translator packs
//! an operation into one word at translation, which its call-out unpacks: the instruction is
//! neither looked up nor decoded nor dispatched on each execution, which in a short kernel
//! (a copy: two scalar loads and two buffer accesses per wave) cost more than the accesses.
//!
//! [`BufferOp::run`] is the interpreter's fast path with the interpreter's checks, in the
//! interpreter's order, before any effect: it either completes the instruction, returns the
//! fault the interpreter would report, or returns `Ok(false)` having changed nothing (the
//! exact per-lane path must run).

use ferrum_isa::{Buffer, Operand, Smem, Special};

use super::address::Vsharp;
use super::lds::{DsKind, DsOp};
use super::vmem::{vsharp_check, Kind};
use super::vmem_fast::{self, Span};
use super::wave::{fault, Counter, Wave, LANES, R};
use super::Mem;
use crate::kernel::Access;

/// `soffset` of a buffer access or a scalar load: null (0), an inline integer or an SGPR,
/// packed into ten bits (two of kind, eight of value); anything else does not pack.
fn pack_soffset(op: Operand) -> Option<u64> {
    match op {
        Operand::Special(Special::Null) => Some(0),
        Operand::Int(c) => Some(1 | u64::from(c as u8) << 2),
        Operand::Sgpr(r) => Some(2 | u64::from(r) << 2),
        _ => None,
    }
}

fn unpack_soffset(bits: u64) -> Operand {
    let value = (bits >> 2) as u8;
    match bits & 3 {
        0 => Operand::Special(Special::Null),
        1 => Operand::Int(value as i8),
        _ => Operand::Sgpr(value),
    }
}

/// The value of `soffset` as the interpreter reads it (null reads as 0).
fn soffset_value(w: &Wave, op: Operand) -> R<u32> {
    match op {
        Operand::Special(Special::Null) => Ok(0),
        op => w.ssrc(op),
    }
}

/// An untyped MUBUF load or store of `bytes` per lane (1, 2 or whole dwords), addressed by
/// an optional VGPR offset (`offen`) without an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferOp {
    pub store: bool,
    pub bytes: u32,
    pub signed: bool,
    pub offen: bool,
    pub vaddr: u8,
    pub vdata: u8,
    pub srsrc: u8,
    pub soffset: Operand,
    pub offset: u16,
}

impl BufferOp {
    /// The operation of `i`, when it is of this form: no index, no LDS or TFE, an untyped
    /// load or store.
    pub fn new(i: &Buffer, kind: Kind) -> Option<BufferOp> {
        if i.idxen || i.lds || i.tfe {
            return None;
        }
        let (store, bytes, signed) = match kind {
            Kind::Load { bytes, signed } => (false, bytes, signed),
            Kind::Store { bytes } => (true, bytes, false),
            _ => return None,
        };
        Some(BufferOp {
            store,
            bytes,
            signed,
            offen: i.offen,
            vaddr: i.vaddr,
            vdata: i.vdata,
            srsrc: i.srsrc,
            soffset: i.soffset,
            offset: i.offset,
        })
    }

    /// One word for the translator's call-out; `None` when an operand does not pack.
    pub fn pack(&self) -> Option<u64> {
        if self.bytes > 16 || self.offset >= 1 << 12 {
            return None;
        }
        let soffset = pack_soffset(self.soffset)?;
        Some(
            u64::from(self.store)
                | u64::from(self.signed) << 1
                | u64::from(self.offen) << 2
                | u64::from(self.bytes) << 3
                | u64::from(self.vaddr) << 8
                | u64::from(self.vdata) << 16
                | u64::from(self.srsrc) << 24
                | u64::from(self.offset) << 32
                | soffset << 44,
        )
    }

    pub fn unpack(bits: u64) -> BufferOp {
        BufferOp {
            store: bits & 1 != 0,
            signed: bits >> 1 & 1 != 0,
            offen: bits >> 2 & 1 != 0,
            bytes: (bits >> 3 & 0x1f) as u32,
            vaddr: (bits >> 8) as u8,
            vdata: (bits >> 16) as u8,
            srsrc: (bits >> 24) as u8,
            offset: (bits >> 32 & 0xfff) as u16,
            soffset: unpack_soffset(bits >> 44 & 0x3ff),
        }
    }

    /// Runs the access when every active lane's access is wholly in range of an unswizzled
    /// buffer and they all lie in one mapping that permits it; `Ok(false)`: nothing changed.
    pub fn run(&self, w: &mut Wave, mem: &Mem<'_>) -> R<bool> {
        let v = w.sread_n::<4>(self.srsrc as usize)?;
        if w.strict() {
            vsharp_check(v[3])?;
        }
        let soffset = u64::from(soffset_value(w, self.soffset)?);
        let zeros = [0; LANES];
        let row = if self.offen { w.vrow(u32::from(self.vaddr))? } else { &zeros };
        let vs = Vsharp::parse(&v);
        if vs.swizzle || vs.add_tid {
            return Ok(false);
        }
        let exec = w.exec();
        let offset = u64::from(self.offset);
        let at = vs.base.wrapping_add(soffset).wrapping_add(offset);
        // Index 0 in every lane: the range rule is monotone in the offset.
        let span = Span::offsets(exec, self.bytes, at, row, |o| {
            vs.whole_in_range(soffset, 0, 0, offset + u64::from(o), self.bytes).is_some()
        });
        let Some(span) = span else { return Ok(false) };
        let vdata = u32::from(self.vdata);
        match self.store {
            false => vmem_fast::load(w, mem.space, &span, exec, vdata, (self.bytes, self.signed)),
            true => vmem_fast::store(w, mem.space, &span, exec, vdata, self.bytes),
        }
    }
}

/// `s_load_dword*`: `count` dwords (at most 16) from the 64-bit address in `sbase` plus the
/// offsets into the registers from `sdata`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmemOp {
    pub count: u32,
    pub sbase: u8,
    pub sdata: Operand,
    pub offset: i32,
    pub soffset: Operand,
}

impl SmemOp {
    /// One word for the translator's call-out (bits 0..53); `None` when an operand does not
    /// pack (the offset must fit the encoding's 21 signed bits).
    pub fn pack(&self) -> Option<u64> {
        let Operand::Sgpr(d) = self.sdata else { return None };
        if self.count > 16 || !(-(1 << 20)..1 << 20).contains(&self.offset) {
            return None;
        }
        let soffset = pack_soffset(self.soffset)?;
        Some(
            u64::from(self.count)
                | u64::from(self.sbase) << 5
                | u64::from(d) << 13
                | soffset << 21
                | u64::from(self.offset as u32 & 0x1f_ffff) << 32,
        )
    }

    pub fn unpack(bits: u64) -> SmemOp {
        SmemOp {
            count: (bits & 0x1f) as u32,
            sbase: (bits >> 5) as u8,
            sdata: Operand::Sgpr((bits >> 13) as u8),
            soffset: unpack_soffset(bits >> 21 & 0x3ff),
            offset: (((bits >> 32) as u32) << 11) as i32 >> 11,
        }
    }

    pub fn run(&self, w: &mut Wave, mem: &Mem<'_>) -> R<()> {
        let count = self.count as usize;
        if count > 16 {
            return fault(format!("a scalar load of {count} dwords"));
        }
        let soffset = soffset_value(w, self.soffset)?;
        let offset = i64::from(self.offset).wrapping_add(i64::from(soffset)) as u64;
        let sbase = self.sbase as usize;
        let base = u64::from(w.sread(sbase)?) | u64::from(w.sread(sbase + 1)?) << 32;
        // The two low address bits are ignored by scalar loads.
        let addr = base.wrapping_add(offset) & !3;
        let mut buf = [0u32; 16];
        let values = &mut buf[..count];
        match mem.space.translate(addr, 4 * count as u64, Access::Read) {
            Ok(p) => {
                for (j, val) in values.iter_mut().enumerate() {
                    // SAFETY: `p` is valid for the `4 * count` bytes translated.
                    *val = u32::from_le(unsafe { p.add(4 * j).cast::<u32>().read_unaligned() });
                }
            }
            // Across a mapping's end, or a fault: piece by piece, as the access reports it.
            Err(_) => {
                let mut bytes = [0u8; 64];
                mem.space.read(addr, &mut bytes[..4 * count])?;
                for (val, b) in values.iter_mut().zip(bytes.chunks_exact(4)) {
                    *val = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
        }
        write_loaded(w, self.sdata, values)
    }
}

/// The dwords a scalar load read, into the registers from `sdata` (outstanding until an
/// `s_waitcnt lgkmcnt`).
pub(super) fn write_loaded(w: &mut Wave, sdata: Operand, values: &[u32]) -> R<()> {
    let (d, count) = (Wave::sindex(sdata)?, values.len());
    if d + count > 106 && d < 106 {
        return fault(format!("destination beyond s105 ({count} dwords from s{d})"));
    }
    w.swrite_n(d, values)?;
    w.add_pending(Counter::Smem, false, d as u32, count as u32);
    Ok(())
}

impl From<(&Smem, u32)> for SmemOp {
    /// A scalar load `i` of `count` dwords (the form's data width).
    fn from((i, count): (&Smem, u32)) -> SmemOp {
        SmemOp { count, sbase: i.sbase, sdata: i.sdata, offset: i.offset, soffset: i.soffset }
    }
}

/// LDS reads and writes, one or two elements: ten bits of kind, then the six register and
/// offset bytes.
impl DsOp {
    /// One word for the translator's call-out (bits 0..59); `None` for the other kinds.
    pub fn pack(&self) -> Option<u64> {
        let kind = match self.kind {
            DsKind::Read { size, signed, dwords } => {
                u64::from(size) << 2 | u64::from(signed) << 6 | u64::from(dwords) << 7
            }
            DsKind::Write { size, dwords } => 1 | u64::from(size) << 2 | u64::from(dwords) << 7,
            DsKind::Read2 { size, stride64 } => {
                2 | u64::from(size) << 2 | u64::from(stride64) << 10
            }
            DsKind::Write2 { size, stride64 } => {
                3 | u64::from(size) << 2 | u64::from(stride64) << 10
            }
            _ => return None,
        };
        let regs = [self.vdst, self.addr, self.data0, self.data1, self.offset0, self.offset1];
        Some(regs.iter().enumerate().fold(kind, |w, (k, &r)| w | u64::from(r) << (11 + 8 * k)))
    }

    pub fn unpack(bits: u64) -> DsOp {
        let size = (bits >> 2 & 0xf) as u32;
        let (signed, dwords, stride64) =
            (bits >> 6 & 1 != 0, (bits >> 7 & 7) as u32, bits >> 10 & 1 != 0);
        let kind = match bits & 3 {
            0 => DsKind::Read { size, signed, dwords },
            1 => DsKind::Write { size, dwords },
            2 => DsKind::Read2 { size, stride64 },
            _ => DsKind::Write2 { size, stride64 },
        };
        let r = |k: u64| (bits >> (11 + 8 * k)) as u8;
        DsOp {
            kind,
            vdst: r(0),
            addr: r(1),
            data0: r(2),
            data1: r(3),
            offset0: r(4),
            offset1: r(5),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_ops_round_trip_through_their_word() {
        let mut r = fastrand::Rng::with_seed(0xb0ff);
        let soffsets = [
            Operand::Special(Special::Null),
            Operand::Int(-16),
            Operand::Int(64),
            Operand::Int(0),
            Operand::Sgpr(0),
            Operand::Sgpr(105),
        ];
        for _ in 0..2000 {
            let op = BufferOp {
                store: r.bool(),
                bytes: [1, 2, 4, 8, 12, 16][r.usize(..6)],
                signed: r.bool(),
                offen: r.bool(),
                vaddr: r.u8(..),
                vdata: r.u8(..),
                srsrc: r.u8(..128),
                soffset: soffsets[r.usize(..soffsets.len())],
                offset: r.u16(..4096),
            };
            assert_eq!(BufferOp::unpack(op.pack().unwrap()), op);
        }
        let m0 = BufferOp { soffset: Operand::Special(Special::M0), ..BufferOp::unpack(0) };
        assert_eq!(m0.pack(), None);
    }

    #[test]
    fn lds_ops_round_trip_through_their_word() {
        let mut r = fastrand::Rng::with_seed(0x1d5);
        for _ in 0..2000 {
            let kind = match r.u32(..4) {
                0 => DsKind::Read {
                    size: [1, 2, 4][r.usize(..3)],
                    signed: r.bool(),
                    dwords: r.u32(1..5),
                },
                1 => DsKind::Write { size: [1, 2, 4][r.usize(..3)], dwords: r.u32(1..5) },
                2 => DsKind::Read2 { size: [4, 8][r.usize(..2)], stride64: r.bool() },
                _ => DsKind::Write2 { size: [4, 8][r.usize(..2)], stride64: r.bool() },
            };
            let op = DsOp {
                kind,
                vdst: r.u8(..),
                addr: r.u8(..),
                data0: r.u8(..),
                data1: r.u8(..),
                offset0: r.u8(..),
                offset1: r.u8(..),
            };
            let bits = op.pack().unwrap();
            assert!(bits < 1 << 62, "the call-out's tag bits are free");
            assert_eq!(DsOp::unpack(bits), op);
        }
        let swizzle = DsOp { kind: DsKind::Swizzle, ..DsOp::unpack(0) };
        assert_eq!(swizzle.pack(), None);
    }

    #[test]
    fn scalar_loads_round_trip_through_their_word() {
        let mut r = fastrand::Rng::with_seed(0x5104d);
        for _ in 0..2000 {
            let op = SmemOp {
                count: [1, 2, 4, 8, 16][r.usize(..5)],
                sbase: r.u8(..106),
                sdata: Operand::Sgpr(r.u8(..106)),
                offset: [0, -1, 4, (1 << 20) - 1, -(1 << 20)][r.usize(..5)],
                soffset: [Operand::Special(Special::Null), Operand::Sgpr(r.u8(..106))]
                    [r.usize(..2)],
            };
            assert_eq!(SmemOp::unpack(op.pack().unwrap()), op);
        }
        let vcc = SmemOp { sdata: Operand::Special(Special::VccLo), ..SmemOp::unpack(1) };
        assert_eq!(vcc.pack(), None);
        let far = SmemOp { offset: 1 << 20, ..SmemOp::unpack(1) };
        assert_eq!(far.pack(), None);
    }
}
