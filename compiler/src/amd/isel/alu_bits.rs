//! Integer sign and the bitfield ops (extract, insert) at every integer width, over their
//! whole SPIR-V domain: a count equal to the width (`bitfieldExtract(x, 0, 32)` is `x`) is
//! defined, while the hardware's `v_bfe`/`v_bfm` width fields are 5 bits wide and read 32 as 0.

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

/// The low dword of an offset or count operand (SPIR-V allows any integer width for them).
fn low(v: MVal) -> MVal {
    match v {
        MVal::Const(c) => MVal::Const(c & 0xffff_ffff),
        other => split(other).0,
    }
}
