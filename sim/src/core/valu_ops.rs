//! Lane semantics of the VALU operations (RDNA2 ISA guide, chapter "Vector ALU operations").
//!
//! Every operation is a pure function of its per-lane sources, evaluated for all 32 lanes
//! (inactive lanes are masked at write-back), which keeps the loops simple enough for the host
//! compiler to vectorise.

use super::rounding::{self, Round};
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

pub(super) fn map1(out: &mut Wide, a: &Wide, f: impl Fn(u64) -> u64) -> R<Out> {
    for (o, &x) in out.iter_mut().zip(a) {
        *o = f(x);
    }
    Ok(Out::Vector { carry: None })
}

pub(super) fn map2(out: &mut Wide, a: &Wide, b: &Wide, f: impl Fn(u64, u64) -> u64) -> R<Out> {
    for l in 0..LANES {
        out[l] = f(a[l], b[l]);
    }
    Ok(Out::Vector { carry: None })
}

pub(super) fn map3(
    out: &mut Wide,
    a: &Wide,
    b: &Wide,
    c: &Wide,
    f: impl Fn(u64, u64, u64) -> u64,
) -> R<Out> {
    for l in 0..LANES {
        out[l] = f(a[l], b[l], c[l]);
    }
    Ok(Out::Vector { carry: None })
}

pub(super) fn set(out: &mut Wide, values: Wide) -> R<Out> {
    *out = values;
    Ok(Out::Vector { carry: None })
}

/// f32 view of a lane value with the wave's denormal mode.
#[derive(Clone, Copy)]
pub(super) struct F32 {
    pub(super) ftz: bool,
    pub(super) round: Round,
}

impl F32 {
    pub(super) fn get(self, x: u64) -> f32 {
        let f = f32::from_bits(x as u32);
        if self.ftz && f.is_subnormal() {
            0.0f32.copysign(f)
        } else {
            f
        }
    }
    pub(super) fn put(self, f: f32) -> u64 {
        let f = if self.ftz && f.is_subnormal() { 0.0f32.copysign(f) } else { f };
        f.to_bits() as u64
    }
    /// The f32 arithmetic that honours MODE.FP_ROUND (host arithmetic when it is nearest-even,
    /// which keeps the common case as fast as plain `+`).
    #[inline]
    pub(super) fn add(self, x: u64, y: u64) -> u64 {
        let (a, b) = (self.get(x), self.get(y));
        self.put(nan_operand(&[a, b]).unwrap_or_else(|| match self.round {
            Round::NearestEven => a + b,
            r => rounding::add(a, b, r),
        }))
    }
    #[inline]
    pub(super) fn mul(self, x: u64, y: u64) -> u64 {
        let (a, b) = (self.get(x), self.get(y));
        self.put(nan_operand(&[a, b]).unwrap_or_else(|| match self.round {
            Round::NearestEven => a * b,
            r => rounding::mul(a, b, r),
        }))
    }
    #[inline]
    pub(super) fn fma(self, x: u64, y: u64, z: u64) -> u64 {
        let (a, b, c) = (self.get(x), self.get(y), self.get(z));
        self.put(nan_operand(&[a, b, c]).unwrap_or_else(|| match self.round {
            Round::NearestEven => a.mul_add(b, c),
            r => rounding::fma(a, b, c, r),
        }))
    }
    /// An exact f64 value (a converted integer or f64 source) rounded to f32.
    #[inline]
    pub(super) fn round(self, x: f64) -> u64 {
        self.put(match self.round {
            Round::NearestEven => x as f32,
            r => rounding::round_pair(x, 0.0, r),
        })
    }
}

/// The result of an arithmetic operation with a NaN operand: the first NaN operand, quieted.
/// Host arithmetic leaves the choice between two NaN operands to the code generator (an
/// x86 `mulss` returns its destination operand's, and operands of commutative operations may
/// be swapped), so it is made here, in operand order, for the interpreter and the JIT alike.
#[inline]
pub(crate) fn nan_operand(ops: &[f32]) -> Option<f32> {
    ops.iter().find(|x| x.is_nan()).map(|x| f32::from_bits(x.to_bits() | 0x0040_0000))
}

pub(super) fn f64v(x: u64) -> f64 {
    f64::from_bits(x)
}
pub(super) fn f64r(x: f64) -> u64 {
    x.to_bits()
}
pub(super) fn h(x: u64) -> f32 {
    f16_to_f32(x as u16)
}
pub(super) fn hr(x: f32) -> u64 {
    f32_to_f16(x) as u64
}

/// IEEE-mode min/max: a NaN operand yields the other operand.
pub(super) fn fmin(a: f32, b: f32) -> f32 {
    a.min(b)
}
pub(super) fn fmax(a: f32, b: f32) -> f32 {
    a.max(b)
}

pub(super) fn cvt_u32(f: f32) -> u64 {
    if f.is_nan() {
        0
    } else {
        f.clamp(0.0, u32::MAX as f32) as u32 as u64
    }
}

pub(super) fn cvt_i32(f: f64) -> u64 {
    if f.is_nan() {
        0
    } else {
        f.clamp(i32::MIN as f64, i32::MAX as f64) as i32 as u32 as u64
    }
}

pub(super) fn med3<T: PartialOrd + Copy>(a: T, b: T, c: T) -> T {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if c < lo {
        lo
    } else if c > hi {
        hi
    } else {
        c
    }
}

pub(super) fn bfe(v: u32, off: u32, width: u32, signed: bool) -> u32 {
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
    if let Some(r) = super::valu_unary::eval(w, v, s, out) {
        return r;
    }
    if let Some(r) = super::valu_binary::eval(w, v, s, exec, out) {
        return r;
    }
    if let Some(r) = super::valu_ternary::eval(w, v, s, out) {
        return r;
    }
    fault(format!("unimplemented VALU {}", v.op.name()))
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
                        let f = F32 { ftz, round: Round::NearestEven };
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
