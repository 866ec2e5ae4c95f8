//! 64-bit integer to float conversions. The hardware converts only 32-bit integers, so these
//! are built from 32-bit pieces, each correctly rounded to nearest even as OpConvertSToF and
//! OpConvertUToF require.
//!
//! To f32: the value is normalized so its leading one is bit 63, the low dword is folded into
//! the high one as a sticky bit (it lies below the rounding position, so only its being non-zero
//! matters), v_cvt_f32_u32 rounds once, and v_ldexp_f32 scales back (exact). Signed values
//! convert their magnitude (2^63 included) and take the sign afterwards: rounding to nearest even
//! is symmetric. To f16: through f32, which is exact below 2^24 and overflows f16 above it either
//! way, so there is no double rounding. To f64: hi·2^32 + lo in one fused multiply-add, both
//! halves being exact in f64, so the only rounding is the fma's.
//!
//! Floats to 64-bit integers go through the truncated f64 (exact for every source width): its
//! high dword is floor(t / 2^32), its low one t - high·2^32 (exact), each converted by
//! v_cvt_u32_f64. Out-of-range values saturate and NaN gives 0, as the IR's reference
//! conversion defines them (SPIR-V leaves them undefined).

use ferrum_isa::Opcode as O;

use super::alu_int::split;
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::ir::ops::AluOp;

/// 2^32 as an f64 bit pattern.
const TWO_POW_32_F64: u64 = 0x41f0_0000_0000_0000;
/// -2^32, 2^-32, 2^63 and 2^64 as f64 bit patterns.
const MINUS_TWO_POW_32_F64: u64 = 0xc1f0_0000_0000_0000;
const TWO_POW_MINUS_32_F64: u64 = 0x3df0_0000_0000_0000;
const TWO_POW_63_F64: u64 = 0x43e0_0000_0000_0000;
const TWO_POW_64_F64: u64 = 0x43f0_0000_0000_0000;

impl Isel<'_> {
    /// `x` (64-bit, signed if `signed`) converted to a float of `bits` bits.
    pub(super) fn int64_to_float(
        &mut self,
        signed: bool,
        bits: u8,
        x: MVal,
    ) -> Result<MVal, BackendError> {
        match bits {
            64 => {
                let (lo, hi) = split(x);
                let hop = if signed { O::V_CVT_F64_I32 } else { O::V_CVT_F64_U32 };
                let fh = self.cvt(hop, hi, 1, 2)?;
                let fl = self.cvt(O::V_CVT_F64_U32, lo, 1, 2)?;
                let scale = MVal::Const(TWO_POW_32_F64);
                self.v3_64(O::V_FMA_F64, &[fh, scale, fl], 0)
            }
            32 if signed => self.i64_to_f32(x),
            32 => self.u64_to_f32(x),
            16 => {
                let f = if signed { self.i64_to_f32(x)? } else { self.u64_to_f32(x)? };
                self.alu_comp(AluOp::F2f, 16, 32, &[f], false)
            }
            _ => Err(crate::amd::error::unsupported(format!(
                "64-bit integer to {bits}-bit float conversion"
            ))),
        }
    }

    fn u64_to_f32(&mut self, x: MVal) -> Result<MVal, BackendError> {
        let (_, hi) = split(x);
        // v_ffbh_u32 gives -1 for zero: then the value is the low dword, shifted up by 32.
        let lz = self.v1(O::V_FFBH_U32, hi)?;
        let sh = self.bin(None, O::V_MIN_U32, false, lz, MVal::Const(32))?;
        let n = self.alu_wide(AluOp::Ishl, 64, 64, &[x, sh], false)?;
        let (nl, nh) = split(n);
        let sticky = self.bin(None, O::V_MIN_U32, false, nl, MVal::Const(1))?;
        let top = self.bin(None, O::V_OR_B32, false, nh, sticky)?;
        let f = self.v1(O::V_CVT_F32_U32, top)?;
        let e = self.bin(None, O::V_SUB_NC_U32, false, MVal::Const(32), sh)?;
        self.v3(O::V_LDEXP_F32, &[f, e], 0)
    }

    fn i64_to_f32(&mut self, x: MVal) -> Result<MVal, BackendError> {
        let (_, hi) = split(x);
        let sign = self.bin(None, O::V_ASHRREV_I32, true, hi, MVal::Const(31))?;
        let s64 = self.pair(sign, sign)?;
        let flipped = self.alu_wide(AluOp::Ixor, 64, 64, &[x, s64], false)?;
        let mag = self.alu_wide(AluOp::Isub, 64, 64, &[flipped, s64], false)?;
        let f = self.u64_to_f32(mag)?;
        let sbit = self.bin(None, O::V_AND_B32, false, sign, MVal::Const(0x8000_0000))?;
        self.bin(None, O::V_XOR_B32, false, f, sbit)
    }

    /// The float `x` of `sbits` bits converted to a 64-bit integer, truncating toward zero.
    pub(super) fn float_to_int64(
        &mut self,
        signed: bool,
        sbits: u8,
        x: MVal,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        let d = match sbits {
            64 => x,
            32 => self.cvt(O::V_CVT_F64_F32, x, 1, 2)?,
            16 => {
                let f = self.f16_to_f32(x)?;
                self.cvt(O::V_CVT_F64_F32, f, 1, 2)?
            }
            _ => {
                return Err(crate::amd::error::unsupported(format!(
                    "{sbits}-bit float to 64-bit integer conversion"
                )))
            }
        };
        let t = self.cvt(O::V_TRUNC_F64, d, 2, 2)?;
        // The magnitude for signed results; negative values clamp to 0 for unsigned ones.
        let m = if signed {
            let (lo, hi) = split(t);
            let hi = self.bin(None, O::V_AND_B32, false, hi, MVal::Const(0x7fff_ffff))?;
            self.pair(lo, hi)?
        } else {
            self.v3_64(O::V_MAX_F64, &[t, MVal::Const(0)], 0)?
        };
        let u = self.f64_to_u64(m)?;
        let limit = if signed { TWO_POW_63_F64 } else { TWO_POW_64_F64 };
        let over = self.alu_comp(Fge, 1, 64, &[m, MVal::Const(limit)], false)?;
        if !signed {
            return self.select_wide(&[over, MVal::Const(u64::MAX), u], false, 64);
        }
        let neg = self.alu_comp(Flt, 1, 64, &[t, MVal::Const(0)], false)?;
        let minus = self.alu_wide(Isub, 64, 64, &[MVal::Const(0), u], false)?;
        let v = self.select_wide(&[neg, minus, u], false, 64)?;
        let sat = self.select_wide(
            &[neg, MVal::Const(i64::MIN as u64), MVal::Const(i64::MAX as u64)],
            false,
            64,
        )?;
        self.select_wide(&[over, sat, v], false, 64)
    }

    /// A non-negative integral f64 below 2^64 (or NaN, giving 0) as a 64-bit integer.
    fn f64_to_u64(&mut self, m: MVal) -> Result<MVal, BackendError> {
        let scaled = self.v3_64(O::V_MUL_F64, &[m, MVal::Const(TWO_POW_MINUS_32_F64)], 0)?;
        let hi_f = self.cvt(O::V_FLOOR_F64, scaled, 2, 2)?;
        let lo_f = self.v3_64(O::V_FMA_F64, &[hi_f, MVal::Const(MINUS_TWO_POW_32_F64), m], 0)?;
        let hi = self.cvt(O::V_CVT_U32_F64, hi_f, 2, 1)?;
        let lo = self.cvt(O::V_CVT_U32_F64, lo_f, 2, 1)?;
        self.pair(lo, hi)
    }
}
