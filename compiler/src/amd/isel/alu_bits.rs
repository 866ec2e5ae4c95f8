//! Integer sign, magnitude and bit ops at every integer width: the bitfield ops (extract,
//! insert) over their whole SPIR-V domain (a count equal to the width, as in
//! `bitfieldExtract(x, 0, 32)`, is defined, while the hardware's `v_bfe`/`v_bfm` width fields
//! are 5 bits wide and read 32 as 0); bit counts, reversals, bit searches, absolute values and
//! 64-bit minima and maxima built from the 32-bit instructions.

use ferrum_isa::Opcode as O;

use super::alu::all_scalar;
use super::alu_int::split;
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::ir::ops::AluOp;

impl Isel<'_> {
    /// `isign`, `ubfe`, `ibfe` and `bitfield_insert` on `bits`-bit components (constant
    /// operands are already folded by the caller).
    pub(super) fn alu_bits(
        &mut self,
        op: AluOp,
        bits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<MVal, BackendError> {
        match (op, bits) {
            (AluOp::Isign, 64) => self.isign64(a[0], uniform),
            (AluOp::Isign, _) => {
                let x = if bits < 32 {
                    self.extend(a[0], bits, true, uniform && all_scalar(a))?
                } else {
                    a[0]
                };
                self.isign32(x, uniform)
            }
            (AluOp::Ubfe | AluOp::Ibfe, 64) => self.bfe64(op == AluOp::Ibfe, a, uniform),
            (AluOp::Ubfe | AluOp::Ibfe, _) => self.bfe32(op == AluOp::Ibfe, a, uniform),
            (_, 64) => self.bfi64(a, uniform),
            _ => self.bfi32(a, uniform),
        }
    }

    /// Sign of a 32-bit integer: clamp to [-1, 1].
    fn isign32(&mut self, x: MVal, uniform: bool) -> Result<MVal, BackendError> {
        if uniform && all_scalar(&[x]) {
            let t =
                self.bin(Some(O::S_MAX_I32), O::V_NOP, false, x, MVal::Const(u32::MAX.into()))?;
            return self.bin(Some(O::S_MIN_I32), O::V_NOP, false, t, MVal::Const(1));
        }
        self.v3(O::V_MED3_I32, &[x, MVal::Const(u32::MAX.into()), MVal::Const(1)], 0)
    }

    /// Sign of a 64-bit integer: the high half is the sign bit broadcast; the low half is that
    /// with bit 0 set when the value is not zero.
    fn isign64(&mut self, x: MVal, uniform: bool) -> Result<MVal, BackendError> {
        let (lo, hi) = split(x);
        let alu = |s: &mut Self, op: AluOp, a: &[MVal]| s.alu_comp(op, 32, 32, a, uniform);
        let sign = alu(self, AluOp::Ishr, &[hi, MVal::Const(31)])?;
        let any = alu(self, AluOp::Ior, &[lo, hi])?;
        let nz = self.alu_comp(AluOp::Ine, 1, 32, &[any, MVal::Const(0)], uniform)?;
        let one = self.alu_comp(AluOp::B2i, 32, 1, &[nz], uniform)?;
        let lo = alu(self, AluOp::Ior, &[sign, one])?;
        self.pair(lo, sign)
    }

    /// `count >= limit` as a lane mask (the only in-domain count at or past the hardware field's
    /// reach is the full width).
    fn full_count(&mut self, count: MVal, limit: u64, uniform: bool) -> Result<MVal, BackendError> {
        self.alu_comp(AluOp::Uge, 1, 32, &[count, MVal::Const(limit)], uniform)
    }

    /// 8-, 16- and 32-bit extract: `v_bfe`, with the full-width count giving the base.
    /// (Narrow values carry don't-care upper bits; offset + count stays within the value.)
    fn bfe32(&mut self, signed: bool, a: &[MVal], uniform: bool) -> Result<MVal, BackendError> {
        let (base, off, count) = (a[0], low(a[1]), low(a[2]));
        if let MVal::Const(c) = count {
            if c & 0xffff_ffff >= 32 {
                return Ok(base);
            }
        }
        let op = if signed { O::V_BFE_I32 } else { O::V_BFE_U32 };
        let r = self.v3(op, &[base, off, count], 0)?;
        if matches!(count, MVal::Const(_)) {
            return Ok(r);
        }
        let full = self.full_count(count, 32, uniform)?;
        self.select(&[full, base, r], uniform)
    }

    /// 8-, 16- and 32-bit insert: `v_bfi` with the mask from `v_bfm` (all ones for a full
    /// count).
    fn bfi32(&mut self, a: &[MVal], uniform: bool) -> Result<MVal, BackendError> {
        let (base, insert, off, count) = (a[0], a[1], low(a[2]), low(a[3]));
        let mask = match (off, count) {
            (MVal::Const(o), MVal::Const(c)) => {
                let (o, c) = (o as u32 & 31, c as u32);
                let m = if c >= 32 { u32::MAX } else { ((1u32 << c) - 1) << o };
                MVal::Const(m.into())
            }
            (_, MVal::Const(c)) if c & 0xffff_ffff >= 32 => MVal::Const(u32::MAX.into()),
            _ => {
                let m = self.v3(O::V_BFM_B32, &[count, off], 0)?;
                if matches!(count, MVal::Const(_)) {
                    m
                } else {
                    let full = self.full_count(count, 32, uniform)?;
                    self.select(&[full, MVal::Const(u32::MAX.into()), m], uniform)?
                }
            }
        };
        let shifted = self.alu_comp(AluOp::Ishl, 32, 32, &[insert, off], uniform)?;
        if mask == MVal::Const(u32::MAX.into()) {
            return Ok(shifted);
        }
        self.v3(O::V_BFI_B32, &[mask, shifted, base], 0)
    }

    /// 64-bit extract: the field shifted to the top, then down (arithmetically for the signed
    /// form); a zero count gives 0.
    fn bfe64(&mut self, signed: bool, a: &[MVal], uniform: bool) -> Result<MVal, BackendError> {
        let (base, off, count) = (a[0], low(a[1]), low(a[2]));
        let i32op =
            |s: &mut Self, op: AluOp, x: MVal, y: MVal| s.alu_comp(op, 32, 32, &[x, y], uniform);
        let used = i32op(self, AluOp::Iadd, off, count)?;
        let up = i32op(self, AluOp::Isub, MVal::Const(64), used)?;
        let down = i32op(self, AluOp::Isub, MVal::Const(64), count)?;
        let top = self.alu_comp(AluOp::Ishl, 64, 64, &[base, up], uniform)?;
        let shr = if signed { AluOp::Ishr } else { AluOp::Ushr };
        let r = self.alu_comp(shr, 64, 64, &[top, down], uniform)?;
        if matches!(count, MVal::Const(c) if c & 0xffff_ffff != 0) {
            return Ok(r);
        }
        let zero = self.alu_comp(AluOp::Ieq, 1, 32, &[count, MVal::Const(0)], uniform)?;
        self.alu_comp(AluOp::Bcsel, 64, 1, &[zero, MVal::Const(0), r], uniform)
    }

    /// 64-bit insert: `(base & !mask) | ((insert << offset) & mask)` with the mask built from
    /// all ones shifted right by `64 - count` (zero for a zero count).
    fn bfi64(&mut self, a: &[MVal], uniform: bool) -> Result<MVal, BackendError> {
        let (base, insert, off, count) = (a[0], a[1], low(a[2]), low(a[3]));
        let op64 = |s: &mut Self, op: AluOp, x: &[MVal]| s.alu_comp(op, 64, 64, x, uniform);
        let down = self.alu_comp(AluOp::Isub, 32, 32, &[MVal::Const(64), count], uniform)?;
        let ones = op64(self, AluOp::Ushr, &[MVal::Const(u64::MAX), down])?;
        let field = if matches!(count, MVal::Const(c) if c & 0xffff_ffff != 0) {
            ones
        } else {
            let zero = self.alu_comp(AluOp::Ieq, 1, 32, &[count, MVal::Const(0)], uniform)?;
            self.alu_comp(AluOp::Bcsel, 64, 1, &[zero, MVal::Const(0), ones], uniform)?
        };
        let mask = op64(self, AluOp::Ishl, &[field, off])?;
        let keep = op64(self, AluOp::Inot, &[mask])?;
        let kept = op64(self, AluOp::Iand, &[base, keep])?;
        let moved = op64(self, AluOp::Ishl, &[insert, off])?;
        let put = op64(self, AluOp::Iand, &[moved, mask])?;
        op64(self, AluOp::Ior, &[kept, put])
    }
}

impl Isel<'_> {
    /// Bit count, reversal, bit searches and absolute value on 8-, 16- and 64-bit integers,
    /// and 64-bit minima and maxima; `None` for other ops.
    pub(super) fn alu_int_width(
        &mut self,
        op: AluOp,
        bits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        let scalar = uniform && all_scalar(a);
        let i32op = |s: &mut Self, op: AluOp, x: &[MVal]| s.alu_comp(op, 32, 32, x, uniform);
        if bits == 8 || bits == 16 {
            let signed = matches!(op, IfindMsb | Iabs);
            return Ok(Some(match op {
                BitCount | FindLsb | UfindMsb | IfindMsb | Iabs => {
                    let x = self.extend(a[0], bits, signed, scalar)?;
                    i32op(self, op, &[x])?
                }
                BitReverse => {
                    let r = i32op(self, BitReverse, &[a[0]])?;
                    i32op(self, Ushr, &[r, MVal::Const(u64::from(32 - bits))])?
                }
                _ => return Ok(None),
            }));
        }
        if bits != 64 {
            return Ok(None);
        }
        let (lo, hi) = split(a[0]);
        Ok(Some(match op {
            BitCount => {
                let l = i32op(self, BitCount, &[lo])?;
                let h = i32op(self, BitCount, &[hi])?;
                let n = i32op(self, Iadd, &[l, h])?;
                self.pair(n, MVal::Const(0))?
            }
            BitReverse => {
                let l = i32op(self, BitReverse, &[lo])?;
                let h = i32op(self, BitReverse, &[hi])?;
                self.pair(h, l)?
            }
            FindLsb => {
                let l = i32op(self, FindLsb, &[lo])?;
                let h = i32op(self, FindLsb, &[hi])?;
                let h = self.high_index(h, hi, uniform)?;
                let lo_zero = self.alu_comp(Ieq, 1, 32, &[lo, MVal::Const(0)], uniform)?;
                let r = self.select(&[lo_zero, h, l], uniform)?;
                self.index64(r, uniform)?
            }
            UfindMsb | IfindMsb => {
                let (lo, hi) = if op == IfindMsb {
                    let s = i32op(self, Ishr, &[hi, MVal::Const(31)])?;
                    (i32op(self, Ixor, &[lo, s])?, i32op(self, Ixor, &[hi, s])?)
                } else {
                    (lo, hi)
                };
                let l = i32op(self, UfindMsb, &[lo])?;
                let h = i32op(self, UfindMsb, &[hi])?;
                let h = self.high_index(h, hi, uniform)?;
                let hi_zero = self.alu_comp(Ieq, 1, 32, &[hi, MVal::Const(0)], uniform)?;
                let r = self.select(&[hi_zero, l, h], uniform)?;
                self.index64(r, uniform)?
            }
            Iabs => {
                let s = i32op(self, Ishr, &[hi, MVal::Const(31)])?;
                let ss = self.pair(s, s)?;
                let x = self.alu_comp(Ixor, 64, 64, &[a[0], ss], uniform)?;
                self.alu_comp(Isub, 64, 64, &[x, ss], uniform)?
            }
            Imin | Imax | Umin | Umax => {
                let lt = if matches!(op, Imin | Imax) { Ilt } else { Ult };
                let c = self.alu_comp(lt, 1, 64, &[a[0], a[1]], uniform)?;
                let (t, f) = if matches!(op, Imin | Umin) { (a[0], a[1]) } else { (a[1], a[0]) };
                self.alu_comp(Bcsel, 64, 1, &[c, t, f], uniform)?
            }
            _ => return Ok(None),
        }))
    }

    /// A bit index found in the high dword (`-1` when it is zero) as an index of the 64-bit
    /// value.
    fn high_index(&mut self, h: MVal, hi: MVal, uniform: bool) -> Result<MVal, BackendError> {
        let up = self.alu_comp(AluOp::Iadd, 32, 32, &[h, MVal::Const(32)], uniform)?;
        let zero = self.alu_comp(AluOp::Ieq, 1, 32, &[hi, MVal::Const(0)], uniform)?;
        self.select(&[zero, MVal::Const(u32::MAX.into()), up], uniform)
    }

    /// A 32-bit bit index (or -1) as a 64-bit result.
    fn index64(&mut self, r: MVal, uniform: bool) -> Result<MVal, BackendError> {
        let s = self.alu_comp(AluOp::Ishr, 32, 32, &[r, MVal::Const(31)], uniform)?;
        self.pair(r, s)
    }
}

/// The low dword of an offset or count operand (SPIR-V allows any integer width for them).
fn low(v: MVal) -> MVal {
    match v {
        MVal::Const(c) => MVal::Const(c & 0xffff_ffff),
        other => split(other).0,
    }
}
