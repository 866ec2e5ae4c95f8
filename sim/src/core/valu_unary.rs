//! VALU operations with one source (moves, conversions, rounding, transcendentals).

use ferrum_isa::Opcode as O;

use super::valu::Valu;
use super::valu_ops::*;
use super::wave::{Wave, Wide, R};

/// One-source operations; `None` when `v.op` is not one of them.
pub(super) fn eval(w: &mut Wave, v: &Valu, s: &[Wide; 3], out: &mut Wide) -> Option<R<Out>> {
    let a = &s[0];
    let f = F32 { ftz: w.flush_f32(), round: w.round_f32() };
    let u = |x: u64| x as u32;
    let i = |x: u64| x as u32 as i32;
    let r32 = |x: u32| x as u64;
    Some(match v.op {
        O::V_NOP | O::V_PIPEFLUSH | O::V_CLREXCP => Ok(Out::None),
        O::V_MOV_B32 => set(out, *a),
        O::V_NOT_B32 => map1(out, a, |x| r32(!u(x))),
        O::V_BFREV_B32 => map1(out, a, |x| r32(u(x).reverse_bits())),
        O::V_FFBH_U32 => {
            map1(out, a, |x| r32(if u(x) == 0 { u32::MAX } else { u(x).leading_zeros() }))
        }
        O::V_FFBL_B32 => {
            map1(out, a, |x| r32(if u(x) == 0 { u32::MAX } else { u(x).trailing_zeros() }))
        }
        O::V_FFBH_I32 => map1(out, a, |x| {
            let v = i(x);
            r32(if v == 0 || v == -1 {
                u32::MAX
            } else {
                // The position (from the MSB) of the first bit that differs from the sign bit,
                // as the ISA guide's loop over i = 1..31 defines it; ACO's findMSB(int) is 31 - it.
                (if v < 0 { !v } else { v }).leading_zeros()
            })
        }),
        O::V_CVT_F32_I32 => map1(out, a, |x| f.round(i(x) as f64)),
        O::V_CVT_F32_U32 => map1(out, a, |x| f.round(u(x) as f64)),
        O::V_CVT_U32_F32 => map1(out, a, |x| cvt_u32(f.get(x))),
        O::V_CVT_I32_F32 => map1(out, a, |x| cvt_i32(f.get(x) as f64)),
        O::V_CVT_FLR_I32_F32 => map1(out, a, |x| cvt_i32(f.get(x).floor() as f64)),
        O::V_CVT_RPI_I32_F32 => map1(out, a, |x| cvt_i32((f.get(x) + 0.5).floor() as f64)),
        O::V_CVT_F16_F32 => map1(out, a, |x| hr(f.get(x))),
        O::V_CVT_F32_F16 => map1(out, a, |x| f.put(h(x))),
        O::V_CVT_F64_F32 => map1(out, a, |x| f64r(f.get(x) as f64)),
        O::V_CVT_F32_F64 => map1(out, a, |x| f.round(f64v(x))),
        O::V_CVT_F64_I32 => map1(out, a, |x| f64r(i(x) as f64)),
        O::V_CVT_F64_U32 => map1(out, a, |x| f64r(u(x) as f64)),
        O::V_CVT_I32_F64 => map1(out, a, |x| cvt_i32(f64v(x))),
        O::V_CVT_U32_F64 => map1(out, a, |x| {
            let d = f64v(x);
            if d.is_nan() {
                0
            } else {
                d.clamp(0.0, u32::MAX as f64) as u32 as u64
            }
        }),
        O::V_CVT_F32_UBYTE0 => map1(out, a, |x| f.put((u(x) & 0xff) as f32)),
        O::V_CVT_F32_UBYTE1 => map1(out, a, |x| f.put((u(x) >> 8 & 0xff) as f32)),
        O::V_CVT_F32_UBYTE2 => map1(out, a, |x| f.put((u(x) >> 16 & 0xff) as f32)),
        O::V_CVT_F32_UBYTE3 => map1(out, a, |x| f.put((u(x) >> 24) as f32)),
        O::V_CVT_U16_F16 => map1(out, a, |x| {
            let v = h(x);
            if v.is_nan() {
                0
            } else {
                v.clamp(0.0, 65535.0) as u16 as u64
            }
        }),
        O::V_CVT_I16_F16 => map1(out, a, |x| {
            let v = h(x);
            if v.is_nan() {
                0
            } else {
                v.clamp(-32768.0, 32767.0) as i16 as u16 as u64
            }
        }),
        O::V_CVT_F16_U16 => map1(out, a, |x| hr(x as u16 as f32)),
        O::V_CVT_F16_I16 => map1(out, a, |x| hr(x as u16 as i16 as f32)),
        O::V_FRACT_F32 => map1(out, a, |x| {
            let v = f.get(x);
            f.put(v - v.floor())
        }),
        O::V_TRUNC_F32 => map1(out, a, |x| f.put(f.get(x).trunc())),
        O::V_CEIL_F32 => map1(out, a, |x| f.put(f.get(x).ceil())),
        O::V_RNDNE_F32 => map1(out, a, |x| f.put(f.get(x).round_ties_even())),
        O::V_FLOOR_F32 => map1(out, a, |x| f.put(f.get(x).floor())),
        O::V_EXP_F32 => map1(out, a, |x| f.put(f.get(x).exp2())),
        O::V_LOG_F32 => map1(out, a, |x| f.put(f.get(x).log2())),
        O::V_RCP_F32 | O::V_RCP_IFLAG_F32 => map1(out, a, |x| f.put(1.0 / f.get(x))),
        O::V_RSQ_F32 => map1(out, a, |x| f.put(1.0 / f.get(x).sqrt())),
        O::V_SQRT_F32 => map1(out, a, |x| f.put(f.get(x).sqrt())),
        O::V_SIN_F32 => map1(out, a, |x| f.put((f.get(x) * std::f32::consts::TAU).sin())),
        O::V_COS_F32 => map1(out, a, |x| f.put((f.get(x) * std::f32::consts::TAU).cos())),
        O::V_FREXP_EXP_I32_F32 => map1(out, a, |x| {
            let v = f.get(x);
            r32(if v == 0.0 || !v.is_finite() {
                0
            } else {
                (v.abs().log2().floor() as i32 + 1) as u32
            })
        }),
        O::V_FREXP_MANT_F32 => map1(out, a, |x| {
            let v = f.get(x);
            if v == 0.0 || !v.is_finite() {
                f.put(v)
            } else {
                f.put(v / 2f32.powi(v.abs().log2().floor() as i32 + 1))
            }
        }),
        O::V_TRUNC_F64 => map1(out, a, |x| f64r(f64v(x).trunc())),
        O::V_CEIL_F64 => map1(out, a, |x| f64r(f64v(x).ceil())),
        O::V_FLOOR_F64 => map1(out, a, |x| f64r(f64v(x).floor())),
        O::V_RNDNE_F64 => map1(out, a, |x| f64r(f64v(x).round_ties_even())),
        O::V_FRACT_F64 => map1(out, a, |x| {
            let d = f64v(x);
            f64r(d - d.floor())
        }),
        O::V_RCP_F64 => map1(out, a, |x| f64r(1.0 / f64v(x))),
        O::V_RSQ_F64 => map1(out, a, |x| f64r(1.0 / f64v(x).sqrt())),
        O::V_SQRT_F64 => map1(out, a, |x| f64r(f64v(x).sqrt())),
        O::V_RCP_F16 => map1(out, a, |x| hr(1.0 / h(x))),
        O::V_SQRT_F16 => map1(out, a, |x| hr(h(x).sqrt())),
        O::V_RSQ_F16 => map1(out, a, |x| hr(1.0 / h(x).sqrt())),
        O::V_EXP_F16 => map1(out, a, |x| hr(h(x).exp2())),
        O::V_LOG_F16 => map1(out, a, |x| hr(h(x).log2())),
        O::V_FLOOR_F16 => map1(out, a, |x| hr(h(x).floor())),
        O::V_CEIL_F16 => map1(out, a, |x| hr(h(x).ceil())),
        O::V_TRUNC_F16 => map1(out, a, |x| hr(h(x).trunc())),
        O::V_RNDNE_F16 => map1(out, a, |x| hr(h(x).round_ties_even())),
        O::V_FRACT_F16 => map1(out, a, |x| {
            let v = h(x);
            hr(v - v.floor())
        }),

        _ => return None,
    })
}
