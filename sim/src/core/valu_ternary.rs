//! VALU operations with three sources (fused multiply-add, bit-field, min3/med3, 64-bit mad).

use ferrum_isa::Opcode as O;

use super::valu::Valu;
use super::valu_ops::*;
use super::wave::{Wave, Wide, R};

/// Three-source operations; `None` when `v.op` is not one of them.
pub(super) fn eval(w: &mut Wave, v: &Valu, s: &[Wide; 3], out: &mut Wide) -> Option<R<Out>> {
    let (a, b, c) = (&s[0], &s[1], &s[2]);
    let f = F32 { ftz: w.flush_f32(), round: w.round_f32() };
    if let Some(r) = super::valu_div::eval(v.op, f, w.vcc(), s, out) {
        return Some(r);
    }
    let u = |x: u64| x as u32;
    let i = |x: u64| x as u32 as i32;
    let r32 = |x: u32| x as u64;
    Some(match v.op {
        O::V_FMA_F32 | O::V_FMAC_F32 | O::V_FMAMK_F32 | O::V_FMAAK_F32 => {
            map3(out, a, b, c, |x, y, z| f.fma(x, y, z))
        }
        O::V_FMA_LEGACY_F32 | O::V_FMAC_LEGACY_F32 => map3(out, a, b, c, |x, y, z| {
            let (p, q) = (f.get(x), f.get(y));
            f.put(if p == 0.0 || q == 0.0 { f.get(z) } else { p.mul_add(q, f.get(z)) })
        }),
        O::V_FMA_F64 => map3(out, a, b, c, |x, y, z| f64r(f64v(x).mul_add(f64v(y), f64v(z)))),
        O::V_FMA_F16 | O::V_FMAC_F16 | O::V_FMAMK_F16 | O::V_FMAAK_F16 => {
            map3(out, a, b, c, |x, y, z| hr((h(x) as f64 * h(y) as f64 + h(z) as f64) as f32))
        }
        O::V_MAD_U32_U24 => map3(out, a, b, c, |x, y, z| {
            r32(((u(x) & 0xff_ffff).wrapping_mul(u(y) & 0xff_ffff)).wrapping_add(u(z)))
        }),
        O::V_MAD_I32_I24 => map3(out, a, b, c, |x, y, z| {
            r32(((i(x) << 8 >> 8).wrapping_mul(i(y) << 8 >> 8)).wrapping_add(i(z)) as u32)
        }),
        O::V_BFE_U32 => map3(out, a, b, c, |x, y, z| r32(bfe(u(x), u(y), u(z), false))),
        O::V_BFE_I32 => map3(out, a, b, c, |x, y, z| r32(bfe(u(x), u(y), u(z), true))),
        O::V_BFI_B32 => map3(out, a, b, c, |x, y, z| r32((u(x) & u(y)) | (!u(x) & u(z)))),
        O::V_ALIGNBIT_B32 => map3(out, a, b, c, |x, y, z| {
            (((x & 0xffff_ffff) << 32 | (y & 0xffff_ffff)) >> (u(z) & 31)) & 0xffff_ffff
        }),
        O::V_ALIGNBYTE_B32 => map3(out, a, b, c, |x, y, z| {
            (((x & 0xffff_ffff) << 32 | (y & 0xffff_ffff)) >> (8 * (u(z) & 3))) & 0xffff_ffff
        }),
        O::V_MIN3_F32 => {
            map3(out, a, b, c, |x, y, z| f.put(fmin(fmin(f.get(x), f.get(y)), f.get(z))))
        }
        O::V_MAX3_F32 => {
            map3(out, a, b, c, |x, y, z| f.put(fmax(fmax(f.get(x), f.get(y)), f.get(z))))
        }
        O::V_MED3_F32 => map3(out, a, b, c, |x, y, z| f.put(med3(f.get(x), f.get(y), f.get(z)))),
        O::V_CUBEID_F32 | O::V_CUBESC_F32 | O::V_CUBETC_F32 | O::V_CUBEMA_F32 => {
            let op = v.op;
            map3(out, a, b, c, |x, y, z| f.put(cube(op, f.get(x), f.get(y), f.get(z))))
        }
        O::V_MIN3_I32 => map3(out, a, b, c, |x, y, z| r32(i(x).min(i(y)).min(i(z)) as u32)),
        O::V_MAX3_I32 => map3(out, a, b, c, |x, y, z| r32(i(x).max(i(y)).max(i(z)) as u32)),
        O::V_MED3_I32 => map3(out, a, b, c, |x, y, z| r32(med3(i(x), i(y), i(z)) as u32)),
        O::V_MIN3_U32 => map3(out, a, b, c, |x, y, z| r32(u(x).min(u(y)).min(u(z)))),
        O::V_MAX3_U32 => map3(out, a, b, c, |x, y, z| r32(u(x).max(u(y)).max(u(z)))),
        O::V_MED3_U32 => map3(out, a, b, c, |x, y, z| r32(med3(u(x), u(y), u(z)))),
        O::V_XOR3_B32 => map3(out, a, b, c, |x, y, z| x ^ y ^ z),
        O::V_OR3_B32 => map3(out, a, b, c, |x, y, z| x | y | z),
        O::V_ADD3_U32 => {
            map3(out, a, b, c, |x, y, z| r32(u(x).wrapping_add(u(y)).wrapping_add(u(z))))
        }
        O::V_LSHL_ADD_U32 => {
            map3(out, a, b, c, |x, y, z| r32((u(x) << (u(y) & 31)).wrapping_add(u(z))))
        }
        O::V_ADD_LSHL_U32 => {
            map3(out, a, b, c, |x, y, z| r32(u(x).wrapping_add(u(y)) << (u(z) & 31)))
        }
        O::V_LSHL_OR_B32 => map3(out, a, b, c, |x, y, z| r32((u(x) << (u(y) & 31)) | u(z))),
        O::V_AND_OR_B32 => map3(out, a, b, c, |x, y, z| (x & y) | z),
        O::V_XAD_U32 => map3(out, a, b, c, |x, y, z| r32((u(x) ^ u(y)).wrapping_add(u(z)))),
        O::V_PERM_B32 => map3(out, a, b, c, |x, y, z| {
            let bytes = (x & 0xffff_ffff) << 32 | (y & 0xffff_ffff);
            let sel = u(z);
            let mut out = 0u32;
            for k in 0..4 {
                let s = (sel >> (8 * k)) & 0xff;
                let byte = match s {
                    0..=7 => (bytes >> (8 * s)) as u32 & 0xff,
                    12 => 0,
                    13..=255 => 0xff,
                    _ => {
                        // 8..11: sign of byte 1, 3, 5, 7 replicated.
                        let src = 2 * (s - 8) + 1;
                        if (bytes >> (8 * src + 7)) & 1 != 0 {
                            0xff
                        } else {
                            0
                        }
                    }
                };
                out |= byte << (8 * k);
            }
            out as u64
        }),
        O::V_MAD_U64_U32 | O::V_MAD_I64_I32 => {
            let signed = v.op == O::V_MAD_I64_I32;
            let mut carry = 0u32;
            let values = std::array::from_fn(|l| {
                let (x, y, z) = (a[l], b[l], c[l]);
                let (r, o) = if signed {
                    let p = i(x) as i128 * i(y) as i128 + z as i64 as i128;
                    (p as u64, p > i64::MAX as i128 || p < i64::MIN as i128)
                } else {
                    let p = u(x) as u128 * u(y) as u128 + z as u128;
                    (p as u64, p >> 64 != 0)
                };
                carry |= (o as u32) << l;
                r
            });
            *out = values;
            Ok(Out::Vector { carry: Some(carry) })
        }
        _ => return None,
    })
}

/// The cube-map helpers for direction (x, y, z): face id (+X, −X, +Y, −Y, +Z, −Z = 0..5),
/// face s and t coordinates and twice the major axis, the major axis chosen with ties going
/// to z, then y (RDNA2 ISA pseudocode; the s/t signs are Vulkan's cube face table).
pub fn cube(op: ferrum_isa::Opcode, x: f32, y: f32, z: f32) -> f32 {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (id, sc, tc, ma) = if az >= ax && az >= ay {
        (if z < 0.0 { 5.0 } else { 4.0 }, if z < 0.0 { -x } else { x }, -y, 2.0 * z)
    } else if ay >= ax {
        (if y < 0.0 { 3.0 } else { 2.0 }, x, if y < 0.0 { -z } else { z }, 2.0 * y)
    } else {
        (if x < 0.0 { 1.0 } else { 0.0 }, if x < 0.0 { z } else { -z }, -y, 2.0 * x)
    };
    match op {
        O::V_CUBEID_F32 => id,
        O::V_CUBESC_F32 => sc,
        O::V_CUBETC_F32 => tc,
        _ => ma,
    }
}
