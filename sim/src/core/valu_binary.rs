//! VALU operations with two sources, carries, selects and lane access.

use ferrum_isa::Opcode as O;

use super::valu::Valu;
use super::valu_ldexp::{ldexp_f32, ldexp_f64};
use super::valu_ops::*;
use super::wave::{f16_to_f32, f32_to_f16, fault, Wave, Wide, LANES, R};

/// Two-source operations; `None` when `v.op` is not one of them.
pub(super) fn eval(
    w: &mut Wave,
    v: &Valu,
    s: &[Wide; 3],
    exec: u32,
    out: &mut Wide,
) -> Option<R<Out>> {
    let (a, b, c) = (&s[0], &s[1], &s[2]);
    let f = F32 { ftz: w.flush_f32(), round: w.round_f32() };
    let mask = |x: &Wide| x[0] as u32;
    let u = |x: u64| x as u32;
    let i = |x: u64| x as u32 as i32;
    let r32 = |x: u32| x as u64;
    Some(match v.op {
        O::V_ADD_F32 => map2(out, a, b, |x, y| f.add(x, y)),
        O::V_SUB_F32 => map2(out, a, b, |x, y| f.add(x, y ^ 0x8000_0000)),
        O::V_SUBREV_F32 => map2(out, a, b, |x, y| f.add(y, x ^ 0x8000_0000)),
        O::V_MUL_F32 => map2(out, a, b, |x, y| f.mul(x, y)),
        O::V_MUL_LEGACY_F32 => map2(out, a, b, |x, y| {
            let (p, q) = (f.get(x), f.get(y));
            f.put(if p == 0.0 || q == 0.0 { 0.0 } else { p * q })
        }),
        O::V_MIN_F32 => map2(out, a, b, |x, y| f.put(fmin(f.get(x), f.get(y)))),
        O::V_MAX_F32 => map2(out, a, b, |x, y| f.put(fmax(f.get(x), f.get(y)))),
        O::V_LDEXP_F32 => map2(out, a, b, |x, y| f.put(ldexp_f32(f.get(x), i(y)))),
        O::V_MIN_I32 => map2(out, a, b, |x, y| r32(i(x).min(i(y)) as u32)),
        O::V_MAX_I32 => map2(out, a, b, |x, y| r32(i(x).max(i(y)) as u32)),
        O::V_MIN_U32 => map2(out, a, b, |x, y| r32(u(x).min(u(y)))),
        O::V_MAX_U32 => map2(out, a, b, |x, y| r32(u(x).max(u(y)))),
        O::V_LSHRREV_B32 => map2(out, a, b, |x, y| r32(u(y) >> (u(x) & 31))),
        O::V_ASHRREV_I32 => map2(out, a, b, |x, y| r32((i(y) >> (u(x) & 31)) as u32)),
        O::V_LSHLREV_B32 => map2(out, a, b, |x, y| r32(u(y) << (u(x) & 31))),
        O::V_AND_B32 => map2(out, a, b, |x, y| x & y),
        O::V_OR_B32 => map2(out, a, b, |x, y| x | y),
        O::V_XOR_B32 => map2(out, a, b, |x, y| x ^ y),
        O::V_XNOR_B32 => map2(out, a, b, |x, y| r32(!(u(x) ^ u(y)))),
        // CLAMP on integer adds saturates (unsigned or signed per the opcode).
        O::V_ADD_NC_U32 if v.clamp => map2(out, a, b, |x, y| r32(u(x).saturating_add(u(y)))),
        O::V_SUB_NC_U32 if v.clamp => map2(out, a, b, |x, y| r32(u(x).saturating_sub(u(y)))),
        O::V_SUBREV_NC_U32 if v.clamp => map2(out, a, b, |x, y| r32(u(y).saturating_sub(u(x)))),
        O::V_ADD_NC_I32 if v.clamp => map2(out, a, b, |x, y| r32(i(x).saturating_add(i(y)) as u32)),
        O::V_SUB_NC_I32 if v.clamp => map2(out, a, b, |x, y| r32(i(x).saturating_sub(i(y)) as u32)),
        O::V_ADD_NC_U32 | O::V_ADD_NC_I32 => map2(out, a, b, |x, y| r32(u(x).wrapping_add(u(y)))),
        O::V_SUB_NC_U32 | O::V_SUB_NC_I32 => map2(out, a, b, |x, y| r32(u(x).wrapping_sub(u(y)))),
        O::V_SUBREV_NC_U32 => map2(out, a, b, |x, y| r32(u(y).wrapping_sub(u(x)))),
        O::V_MUL_I32_I24 => {
            map2(out, a, b, |x, y| r32(((i(x) << 8 >> 8) as i64 * (i(y) << 8 >> 8) as i64) as u32))
        }
        O::V_MUL_HI_I32_I24 => map2(out, a, b, |x, y| {
            r32((((i(x) << 8 >> 8) as i64 * (i(y) << 8 >> 8) as i64) >> 32) as u32)
        }),
        O::V_MUL_U32_U24 => map2(out, a, b, |x, y| {
            r32(((u(x) & 0xff_ffff) as u64 * (u(y) & 0xff_ffff) as u64) as u32)
        }),
        O::V_MUL_HI_U32_U24 => map2(out, a, b, |x, y| {
            r32((((u(x) & 0xff_ffff) as u64 * (u(y) & 0xff_ffff) as u64) >> 32) as u32)
        }),
        O::V_MUL_LO_U32 => map2(out, a, b, |x, y| r32(u(x).wrapping_mul(u(y)))),
        O::V_MUL_HI_U32 => map2(out, a, b, |x, y| r32(((u(x) as u64 * u(y) as u64) >> 32) as u32)),
        O::V_MUL_HI_I32 => map2(out, a, b, |x, y| r32(((i(x) as i64 * i(y) as i64) >> 32) as u32)),
        O::V_BFM_B32 => {
            map2(out, a, b, |x, y| r32((((1u64 << (u(x) & 31)) - 1) as u32) << (u(y) & 31)))
        }
        O::V_BCNT_U32_B32 => map2(out, a, b, |x, y| r32(u(x).count_ones().wrapping_add(u(y)))),
        O::V_MBCNT_LO_U32_B32 => set(
            out,
            std::array::from_fn(|l| {
                let below = if l == 0 { 0 } else { u32::MAX >> (32 - l) };
                r32((u(a[l]) & below).count_ones().wrapping_add(u(b[l])))
            }),
        ),
        // Wave32: no lanes above 31, so the high half counts nothing.
        O::V_MBCNT_HI_U32_B32 => set(out, *b),
        O::V_CVT_PKRTZ_F16_F32 => map2(out, a, b, |x, y| {
            let rtz = |v: f32| {
                let hh = f32_to_f16(v);
                // Round toward zero: step back if rounding went away from zero.
                if f16_to_f32(hh).abs() > v.abs() && v.is_finite() {
                    hh - 1
                } else {
                    hh
                }
            };
            rtz(f.get(x)) as u64 | (rtz(f.get(y)) as u64) << 16
        }),
        O::V_PACK_B32_F16 => map2(out, a, b, |x, y| (x & 0xffff) | (y & 0xffff) << 16),
        // Colour-export packing (SPI_SHADER_*16_ABGR): two values into 16-bit halves, S0 low.
        // Integers saturate to the 16-bit range (NIR's pack_uint/sint_2x16, which ACO selects
        // to these); norms clamp to [0, 1] / [-1, 1] and round to nearest even (NaN is 0).
        O::V_CVT_PK_U16_U32 => map2(out, a, b, |x, y| {
            let sat = |v: u32| u64::from(v.min(0xffff));
            sat(u(x)) | sat(u(y)) << 16
        }),
        O::V_CVT_PK_I16_I32 => map2(out, a, b, |x, y| {
            let sat = |v: i32| u64::from(v.clamp(-0x8000, 0x7fff) as i16 as u16);
            sat(i(x)) | sat(i(y)) << 16
        }),
        O::V_CVT_PKNORM_U16_F32 => map2(out, a, b, |x, y| {
            let n = |v: f32| {
                let c = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
                u64::from((c * 65535.0).round_ties_even() as u16)
            };
            n(f.get(x)) | n(f.get(y)) << 16
        }),
        O::V_CVT_PKNORM_I16_F32 => map2(out, a, b, |x, y| {
            let n = |v: f32| {
                let c = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
                u64::from((c * 32767.0).round_ties_even() as i16 as u16)
            };
            n(f.get(x)) | n(f.get(y)) << 16
        }),
        O::V_ADD_F64 => map2(out, a, b, |x, y| f64r(f64v(x) + f64v(y))),
        O::V_MUL_F64 => map2(out, a, b, |x, y| f64r(f64v(x) * f64v(y))),
        O::V_MIN_F64 => map2(out, a, b, |x, y| f64r(f64v(x).min(f64v(y)))),
        O::V_MAX_F64 => map2(out, a, b, |x, y| f64r(f64v(x).max(f64v(y)))),
        O::V_LDEXP_F64 => map2(out, a, b, |x, y| f64r(ldexp_f64(f64v(x), i(y)))),
        O::V_LSHLREV_B64 => map2(out, a, b, |x, y| y << (u(x) & 63)),
        O::V_LSHRREV_B64 => map2(out, a, b, |x, y| y >> (u(x) & 63)),
        O::V_ASHRREV_I64 => map2(out, a, b, |x, y| ((y as i64) >> (u(x) & 63)) as u64),
        O::V_ADD_F16 => map2(out, a, b, |x, y| hr(h(x) + h(y))),
        O::V_SUB_F16 => map2(out, a, b, |x, y| hr(h(x) - h(y))),
        O::V_SUBREV_F16 => map2(out, a, b, |x, y| hr(h(y) - h(x))),
        O::V_MUL_F16 => map2(out, a, b, |x, y| hr(h(x) * h(y))),
        O::V_MIN_F16 => map2(out, a, b, |x, y| hr(fmin(h(x), h(y)))),
        O::V_MAX_F16 => map2(out, a, b, |x, y| hr(fmax(h(x), h(y)))),
        O::V_LDEXP_F16 => {
            map2(out, a, b, |x, y| hr(h(x) * 2f32.powi((y as u16 as i16 as i32).clamp(-64, 64))))
        }
        O::V_ADD_NC_U16 | O::V_ADD_NC_I16 => {
            map2(out, a, b, |x, y| (x as u16).wrapping_add(y as u16) as u64)
        }
        O::V_SUB_NC_U16 | O::V_SUB_NC_I16 => {
            map2(out, a, b, |x, y| (x as u16).wrapping_sub(y as u16) as u64)
        }
        O::V_MUL_LO_U16 => map2(out, a, b, |x, y| (x as u16).wrapping_mul(y as u16) as u64),
        O::V_LSHLREV_B16 => map2(out, a, b, |x, y| ((y as u16) << (x & 15)) as u64),
        O::V_LSHRREV_B16 => map2(out, a, b, |x, y| ((y as u16) >> (x & 15)) as u64),
        O::V_ASHRREV_I16 => map2(out, a, b, |x, y| ((y as u16 as i16) >> (x & 15)) as u16 as u64),
        O::V_MAX_U16 => map2(out, a, b, |x, y| (x as u16).max(y as u16) as u64),
        O::V_MIN_U16 => map2(out, a, b, |x, y| (x as u16).min(y as u16) as u64),
        O::V_MAX_I16 => {
            map2(out, a, b, |x, y| (x as u16 as i16).max(y as u16 as i16) as u16 as u64)
        }
        O::V_MIN_I16 => {
            map2(out, a, b, |x, y| (x as u16 as i16).min(y as u16 as i16) as u16 as u64)
        }

        // ---- carries and selects ----
        O::V_CNDMASK_B32 => {
            let m = mask(c);
            set(out, std::array::from_fn(|l| if m >> l & 1 != 0 { b[l] } else { a[l] }))
        }
        O::V_ADD_CO_U32
        | O::V_SUB_CO_U32
        | O::V_SUBREV_CO_U32
        | O::V_ADD_CO_CI_U32
        | O::V_SUB_CO_CI_U32
        | O::V_SUBREV_CO_CI_U32 => {
            let cin = if matches!(
                v.op,
                O::V_ADD_CO_CI_U32 | O::V_SUB_CO_CI_U32 | O::V_SUBREV_CO_CI_U32
            ) {
                mask(c)
            } else {
                0
            };
            let mut carry = 0u32;
            let mut values = [0u64; LANES];
            for l in 0..LANES {
                let ci = (cin >> l & 1) as u64;
                let (x, y) = (u(a[l]) as u64, u(b[l]) as u64);
                let (r, co) = match v.op {
                    O::V_ADD_CO_U32 | O::V_ADD_CO_CI_U32 => {
                        let r = x + y + ci;
                        (r, r >> 32 != 0)
                    }
                    O::V_SUB_CO_U32 | O::V_SUB_CO_CI_U32 => {
                        (x.wrapping_sub(y).wrapping_sub(ci), y + ci > x)
                    }
                    _ => (y.wrapping_sub(x).wrapping_sub(ci), x + ci > y),
                };
                values[l] = r & 0xffff_ffff;
                carry |= (co as u32) << l;
            }
            *out = values;
            Ok(Out::Vector { carry: Some(carry) })
        }
        O::V_READFIRSTLANE_B32 => {
            let lane = if exec == 0 { 0 } else { exec.trailing_zeros() as usize };
            Ok(Out::Scalar(a[lane] as u32))
        }
        O::V_READLANE_B32 => Ok(Out::Scalar(a[(b[0] & 31) as usize] as u32)),
        O::V_WRITELANE_B32 => writelane(w, v, a[0] as u32, (b[0] & 31) as usize),

        _ => return None,
    })
}

/// `v_writelane_b32`: one lane of the destination, regardless of EXEC.
fn writelane(w: &mut Wave, v: &Valu, value: u32, lane: usize) -> R<Out> {
    let ferrum_isa::Operand::Vgpr(d) = v.vdst else {
        return fault("v_writelane to a non-VGPR");
    };
    let mut row = *w.vrow(d as u32)?;
    row[lane] = value;
    w.vwrite(d as u32, u32::MAX, &row)?;
    Ok(Out::None)
}
