//! Lane semantics of the VALU operations (RDNA2 ISA guide, chapter "Vector ALU operations").
//!
//! Every operation is a pure function of its per-lane sources, evaluated for all 32 lanes
//! (inactive lanes are masked at write-back), which keeps the loops simple enough for the host
//! compiler to vectorise.

use ferrum_isa::Opcode as O;

use super::valu::{Ty, Valu};
use super::wave::{f16_to_f32, f32_to_f16, fault, Wave, Wide, LANES, R};

/// What an operation produced besides the per-lane values it wrote to the output buffer.
pub enum Out {
    None,
    /// Per-lane results (in the caller's buffer), and optionally a carry/borrow mask.
    Vector {
        carry: Option<u32>,
    },
    /// A compare result.
    Mask(u32),
    /// A value for a scalar destination (`v_readlane`, `v_readfirstlane`).
    Scalar(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    T,
    Class,
}

/// Parses `v_cmp[x]_<cond>_<type>`.
pub fn compare_kind(name: &str) -> Option<(Cond, Ty)> {
    let rest = name.strip_prefix("v_cmpx_").or_else(|| name.strip_prefix("v_cmp_"))?;
    let (cond, ty) = rest.split_once('_')?;
    let cond = match cond {
        "f" => Cond::F,
        "lt" => Cond::Lt,
        "eq" => Cond::Eq,
        "le" => Cond::Le,
        "gt" => Cond::Gt,
        "lg" | "ne" => Cond::Ne,
        "ge" => Cond::Ge,
        "o" => Cond::O,
        "u" => Cond::U,
        "nge" => Cond::Nge,
        "nlg" => Cond::Nlg,
        "ngt" => Cond::Ngt,
        "nle" => Cond::Nle,
        "neq" => Cond::Neq,
        "nlt" => Cond::Nlt,
        "tru" | "t" => Cond::T,
        "class" => Cond::Class,
        _ => return None,
    };
    Some((cond, super::valu::src_type(ty)))
}

fn map1(out: &mut Wide, a: &Wide, f: impl Fn(u64) -> u64) -> R<Out> {
    for (o, &x) in out.iter_mut().zip(a) {
        *o = f(x);
    }
    Ok(Out::Vector { carry: None })
}

fn map2(out: &mut Wide, a: &Wide, b: &Wide, f: impl Fn(u64, u64) -> u64) -> R<Out> {
    for l in 0..LANES {
        out[l] = f(a[l], b[l]);
    }
    Ok(Out::Vector { carry: None })
}

fn map3(out: &mut Wide, a: &Wide, b: &Wide, c: &Wide, f: impl Fn(u64, u64, u64) -> u64) -> R<Out> {
    for l in 0..LANES {
        out[l] = f(a[l], b[l], c[l]);
    }
    Ok(Out::Vector { carry: None })
}

fn set(out: &mut Wide, values: Wide) -> R<Out> {
    *out = values;
    Ok(Out::Vector { carry: None })
}

/// f32 view of a lane value with the wave's denormal mode.
#[derive(Clone, Copy)]
struct F32 {
    ftz: bool,
}

impl F32 {
    fn get(self, x: u64) -> f32 {
        let f = f32::from_bits(x as u32);
        if self.ftz && f.is_subnormal() {
            0.0f32.copysign(f)
        } else {
            f
        }
    }
    fn put(self, f: f32) -> u64 {
        let f = if self.ftz && f.is_subnormal() { 0.0f32.copysign(f) } else { f };
        f.to_bits() as u64
    }
}

fn f64v(x: u64) -> f64 {
    f64::from_bits(x)
}
fn f64r(x: f64) -> u64 {
    x.to_bits()
}
fn h(x: u64) -> f32 {
    f16_to_f32(x as u16)
}
fn hr(x: f32) -> u64 {
    f32_to_f16(x) as u64
}

/// IEEE-mode min/max: a NaN operand yields the other operand.
fn fmin(a: f32, b: f32) -> f32 {
    a.min(b)
}
fn fmax(a: f32, b: f32) -> f32 {
    a.max(b)
}

fn cvt_u32(f: f32) -> u64 {
    if f.is_nan() {
        0
    } else {
        f.clamp(0.0, u32::MAX as f32) as u32 as u64
    }
}

fn cvt_i32(f: f64) -> u64 {
    if f.is_nan() {
        0
    } else {
        f.clamp(i32::MIN as f64, i32::MAX as f64) as i32 as u32 as u64
    }
}

fn med3<T: PartialOrd + Copy>(a: T, b: T, c: T) -> T {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if c < lo {
        lo
    } else if c > hi {
        hi
    } else {
        c
    }
}

fn bfe(v: u32, off: u32, width: u32, signed: bool) -> u32 {
    let (off, width) = (off & 31, width & 31);
    if width == 0 {
        return 0;
    }
    let x = (v >> off) & ((1u32 << width) - 1).max(if width == 32 { u32::MAX } else { 0 });
    if signed && width < 32 {
        let s = 32 - width;
        (((x << s) as i32) >> s) as u32
    } else {
        x
    }
}

pub fn eval(w: &mut Wave, v: &Valu, s: &[Wide; 3], exec: u32, out: &mut Wide) -> R<Out> {
    if let Some((cond, ty)) = v.cmp {
        return Ok(Out::Mask(compare(w, cond, ty, &s[0], &s[1])));
    }
    let (a, b, c) = (&s[0], &s[1], &s[2]);
    let f = F32 { ftz: w.flush_f32() };
    let mask = |x: &Wide| x[0] as u32;
    let u = |x: u64| x as u32;
    let i = |x: u64| x as u32 as i32;
    let r32 = |x: u32| x as u64;
    match v.op {
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
                (if v < 0 { !v } else { v }).leading_zeros() - 1
            })
        }),
        O::V_CVT_F32_I32 => map1(out, a, |x| f.put(i(x) as f32)),
        O::V_CVT_F32_U32 => map1(out, a, |x| f.put(u(x) as f32)),
        O::V_CVT_U32_F32 => map1(out, a, |x| cvt_u32(f.get(x))),
        O::V_CVT_I32_F32 => map1(out, a, |x| cvt_i32(f.get(x) as f64)),
        O::V_CVT_FLR_I32_F32 => map1(out, a, |x| cvt_i32(f.get(x).floor() as f64)),
        O::V_CVT_RPI_I32_F32 => map1(out, a, |x| cvt_i32((f.get(x) + 0.5).floor() as f64)),
        O::V_CVT_F16_F32 => map1(out, a, |x| hr(f.get(x))),
        O::V_CVT_F32_F16 => map1(out, a, |x| f.put(h(x))),
        O::V_CVT_F64_F32 => map1(out, a, |x| f64r(f.get(x) as f64)),
        O::V_CVT_F32_F64 => map1(out, a, |x| f.put(f64v(x) as f32)),
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
        O::V_FLOOR_F16 => map1(out, a, |x| hr(h(x).floor())),
        O::V_CEIL_F16 => map1(out, a, |x| hr(h(x).ceil())),
        O::V_TRUNC_F16 => map1(out, a, |x| hr(h(x).trunc())),
        O::V_RNDNE_F16 => map1(out, a, |x| hr(h(x).round_ties_even())),
        O::V_FRACT_F16 => map1(out, a, |x| {
            let v = h(x);
            hr(v - v.floor())
        }),

        // ---- two sources ----
        O::V_ADD_F32 => map2(out, a, b, |x, y| f.put(f.get(x) + f.get(y))),
        O::V_SUB_F32 => map2(out, a, b, |x, y| f.put(f.get(x) - f.get(y))),
        O::V_SUBREV_F32 => map2(out, a, b, |x, y| f.put(f.get(y) - f.get(x))),
        O::V_MUL_F32 => map2(out, a, b, |x, y| f.put(f.get(x) * f.get(y))),
        O::V_MUL_LEGACY_F32 => map2(out, a, b, |x, y| {
            let (p, q) = (f.get(x), f.get(y));
            f.put(if p == 0.0 || q == 0.0 { 0.0 } else { p * q })
        }),
        O::V_MIN_F32 => map2(out, a, b, |x, y| f.put(fmin(f.get(x), f.get(y)))),
        O::V_MAX_F32 => map2(out, a, b, |x, y| f.put(fmax(f.get(x), f.get(y)))),
        O::V_LDEXP_F32 => {
            map2(out, a, b, |x, y| f.put(f.get(x) * 2f32.powi(i(y).clamp(-300, 300))))
        }
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
        O::V_ADD_F64 => map2(out, a, b, |x, y| f64r(f64v(x) + f64v(y))),
        O::V_MUL_F64 => map2(out, a, b, |x, y| f64r(f64v(x) * f64v(y))),
        O::V_MIN_F64 => map2(out, a, b, |x, y| f64r(f64v(x).min(f64v(y)))),
        O::V_MAX_F64 => map2(out, a, b, |x, y| f64r(f64v(x).max(f64v(y)))),
        O::V_LDEXP_F64 => {
            map2(out, a, b, |x, y| f64r(f64v(x) * 2f64.powi(i(y).clamp(-2200, 2200))))
        }
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
        O::V_WRITELANE_B32 => {
            let ferrum_isa::Operand::Vgpr(d) = v.vdst else {
                return fault("v_writelane to a non-VGPR");
            };
            let mut row = *w.vrow(d as u32)?;
            row[(b[0] & 31) as usize] = a[0] as u32;
            w.vwrite(d as u32, u32::MAX, &row)?;
            Ok(Out::None)
        }

        // ---- three sources ----
        O::V_FMA_F32 | O::V_FMAC_F32 | O::V_FMAMK_F32 | O::V_FMAAK_F32 | O::V_DIV_FMAS_F32 => {
            map3(out, a, b, c, |x, y, z| f.put(f.get(x).mul_add(f.get(y), f.get(z))))
        }
        O::V_FMA_LEGACY_F32 | O::V_FMAC_LEGACY_F32 => map3(out, a, b, c, |x, y, z| {
            let (p, q) = (f.get(x), f.get(y));
            f.put(if p == 0.0 || q == 0.0 { f.get(z) } else { p.mul_add(q, f.get(z)) })
        }),
        O::V_FMA_F64 | O::V_DIV_FMAS_F64 => {
            map3(out, a, b, c, |x, y, z| f64r(f64v(x).mul_add(f64v(y), f64v(z))))
        }
        O::V_FMA_F16 | O::V_FMAC_F16 | O::V_FMAMK_F16 | O::V_FMAAK_F16 => {
            map3(out, a, b, c, |x, y, z| hr((h(x) as f64 * h(y) as f64 + h(z) as f64) as f32))
        }
        // Without denormal/overflow scaling, div_scale passes the operand through and
        // div_fixup only has to resolve the special cases.
        O::V_DIV_SCALE_F32 | O::V_DIV_SCALE_F64 => {
            *out = *a;
            Ok(Out::Vector { carry: Some(0) })
        }
        O::V_DIV_FIXUP_F32 => map3(out, a, b, c, |q, d, n| {
            let (q, d, n) = (f.get(q), f.get(d), f.get(n));
            f.put(if d.is_nan() || n.is_nan() {
                f32::NAN
            } else if d == 0.0 || n.is_infinite() {
                n / d
            } else {
                q
            })
        }),
        O::V_DIV_FIXUP_F64 => map3(out, a, b, c, |q, d, n| {
            let (q, d, n) = (f64v(q), f64v(d), f64v(n));
            f64r(if d.is_nan() || n.is_nan() {
                f64::NAN
            } else if d == 0.0 || n.is_infinite() {
                n / d
            } else {
                q
            })
        }),
        O::V_MAD_U32_U24 => map3(out, a, b, c, |x, y, z| {
            r32(((u(x) & 0xff_ffff) * (u(y) & 0xff_ffff)).wrapping_add(u(z)))
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
        op => fault(format!("unimplemented VALU {}", op.name())),
    }
}

fn compare(w: &Wave, cond: Cond, ty: Ty, a: &Wide, b: &Wide) -> u32 {
    let ftz = w.flush_f32();
    let mut mask = 0u32;
    for l in 0..LANES {
        let (x, y) = (a[l], b[l]);
        let r = match ty {
            Ty::F16 | Ty::F32 | Ty::F64 => {
                let (p, q) = match ty {
                    Ty::F16 => (h(x) as f64, h(y) as f64),
                    Ty::F32 => {
                        let f = F32 { ftz };
                        (f.get(x) as f64, f.get(y) as f64)
                    }
                    _ => (f64v(x), f64v(y)),
                };
                if cond == Cond::Class {
                    class(p, ty, x, y as u32)
                } else {
                    float_cond(cond, p, q)
                }
            }
            Ty::I16 => int_cond(cond, x as u16 as i16 as i64, y as u16 as i16 as i64),
            Ty::U16 => int_cond(cond, x as u16 as i64, y as u16 as i64),
            Ty::I32 => int_cond(cond, x as u32 as i32 as i64, y as u32 as i32 as i64),
            Ty::I64 => int_cond(cond, x as i64, y as i64),
            Ty::U64 | Ty::B64 => int_cond_u(cond, x, y),
            _ => int_cond_u(cond, x as u32 as u64, y as u32 as u64),
        };
        mask |= (r as u32) << l;
    }
    mask
}

fn float_cond(c: Cond, a: f64, b: f64) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let unordered = a.is_nan() || b.is_nan();
    let ord = a.partial_cmp(&b);
    match c {
        Cond::F => false,
        Cond::Lt => a < b,
        Cond::Eq => a == b,
        Cond::Le => a <= b,
        Cond::Gt => a > b,
        Cond::Ne => !unordered && a != b,
        Cond::Ge => a >= b,
        Cond::O => !unordered,
        Cond::U => unordered,
        Cond::Nge => !matches!(ord, Some(Greater | Equal)),
        Cond::Nlg => unordered || a == b,
        Cond::Ngt => ord != Some(Greater),
        Cond::Nle => !matches!(ord, Some(Less | Equal)),
        Cond::Neq => a != b,
        Cond::Nlt => ord != Some(Less),
        Cond::T => true,
        Cond::Class => false,
    }
}

fn int_cond(c: Cond, a: i64, b: i64) -> bool {
    match c {
        Cond::Lt => a < b,
        Cond::Eq => a == b,
        Cond::Le => a <= b,
        Cond::Gt => a > b,
        Cond::Ne => a != b,
        Cond::Ge => a >= b,
        Cond::T => true,
        _ => false,
    }
}

fn int_cond_u(c: Cond, a: u64, b: u64) -> bool {
    match c {
        Cond::Lt => a < b,
        Cond::Eq => a == b,
        Cond::Le => a <= b,
        Cond::Gt => a > b,
        Cond::Ne => a != b,
        Cond::Ge => a >= b,
        Cond::T => true,
        _ => false,
    }
}

/// `v_cmp_class`: bit mask of IEEE classes (0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
/// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
fn class(v: f64, ty: Ty, raw: u64, mask: u32) -> bool {
    let quiet_bit = match ty {
        Ty::F16 => raw >> 9 & 1,
        Ty::F32 => raw >> 22 & 1,
        _ => raw >> 51 & 1,
    };
    let denormal = match ty {
        Ty::F16 => (raw >> 10) & 0x1f == 0 && raw & 0x3ff != 0,
        Ty::F32 => (raw >> 23) & 0xff == 0 && raw & 0x7f_ffff != 0,
        _ => v.is_subnormal(),
    };
    let bit = if v.is_nan() {
        if quiet_bit == 1 {
            1
        } else {
            0
        }
    } else if v.is_infinite() {
        if v < 0.0 {
            2
        } else {
            9
        }
    } else if v == 0.0 && !denormal {
        if v.is_sign_negative() {
            5
        } else {
            6
        }
    } else if denormal {
        if v.is_sign_negative() || (raw >> (ty.bits() - 1)) & 1 == 1 {
            4
        } else {
            7
        }
    } else if v < 0.0 {
        3
    } else {
        8
    };
    mask >> bit & 1 != 0
}
