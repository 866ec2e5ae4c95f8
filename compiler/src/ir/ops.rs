//! ALU opcodes and their reference semantics.
//!
//! [`eval`] is the single definition of what every ALU op computes. The interpreter and the
//! constant folder both call it, so folding can never change a program's result. Values are
//! untyped bit patterns (one `u64` per component, low `bits` bits significant); the op says how
//! to read them, as in NIR.

use thiserror::Error;

/// Failure to evaluate an op (only for malformed operand shapes).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("cannot evaluate {op}: {why}")]
pub struct EvalError {
    /// Op name.
    pub op: &'static str,
    /// Reason.
    pub why: &'static str,
}

macro_rules! alu_ops {
    ($($v:ident $name:literal $n:literal,)*) => {
        /// An ALU opcode. Component-wise unless noted.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AluOp { $(
            #[doc = $name]
            $v,
        )* }
        impl AluOp {
            /// Printable name.
            pub fn name(self) -> &'static str { match self { $(AluOp::$v => $name,)* } }
            /// Number of sources (0 = variable, for `vec`).
            pub fn num_srcs(self) -> usize { match self { $(AluOp::$v => $n,)* } }
            /// Every op, for tests.
            pub const ALL: &'static [AluOp] = &[$(AluOp::$v,)*];
        }
    };
}

alu_ops! {
    Mov "mov" 1, Vec "vec" 0, Iadd "iadd" 2, Isub "isub" 2, Imul "imul" 2, Udiv "udiv" 2,
    Idiv "idiv" 2, Umod "umod" 2, Irem "irem" 2, Imod "imod" 2, Ineg "ineg" 1, Iabs "iabs" 1,
    Isign "isign" 1, Imin "imin" 2, Imax "imax" 2, Umin "umin" 2, Umax "umax" 2, Iand "iand" 2,
    Ior "ior" 2, Ixor "ixor" 2, Inot "inot" 1, Ishl "ishl" 2, Ushr "ushr" 2, Ishr "ishr" 2,
    BitCount "bit_count" 1, BitReverse "bitfield_reverse" 1, FindLsb "find_lsb" 1,
    UfindMsb "ufind_msb" 1, IfindMsb "ifind_msb" 1, BfiInsert "bitfield_insert" 4,
    Ubfe "ubfe" 3, Ibfe "ibfe" 3, UmulHigh "umul_high" 2, ImulHigh "imul_high" 2,
    Fadd "fadd" 2, Fsub "fsub" 2, Fmul "fmul" 2, Fdiv "fdiv" 2, Frem "frem" 2, Fmod "fmod" 2,
    Fneg "fneg" 1, Fabs "fabs" 1, Fsign "fsign" 1, Fmin "fmin" 2, Fmax "fmax" 2,
    Ffloor "ffloor" 1, Fceil "fceil" 1, Ffract "ffract" 1, FroundEven "fround_even" 1,
    Fround "fround" 1, Ftrunc "ftrunc" 1, Fsqrt "fsqrt" 1, Frsq "frsq" 1, Frcp "frcp" 1,
    Fexp2 "fexp2" 1,
    Flog2 "flog2" 1, Fexp "fexp" 1, Flog "flog" 1, Fpow "fpow" 2, Fsin "fsin" 1, Fcos "fcos" 1,
    Ftan "ftan" 1, Fasin "fasin" 1, Facos "facos" 1, Fatan "fatan" 1, Fatan2 "fatan2" 2,
    Ffma "ffma" 3, Fldexp "fldexp" 2, IsNan "fisnan" 1, IsInf "fisinf" 1,
    Ieq "ieq" 2, Ine "ine" 2, Ult "ult" 2, Uge "uge" 2, Ilt "ilt" 2, Ige "ige" 2,
    Feq "feq" 2, Fneu "fneu" 2, Flt "flt" 2, Fge "fge" 2, Fltu "fltu" 2, Fgeu "fgeu" 2,
    Fequ "fequ" 2, Fneo "fneo" 2,
    Bcsel "bcsel" 3, F2u "f2u" 1, F2i "f2i" 1, U2f "u2f" 1, I2f "i2f" 1, U2u "u2u" 1,
    I2i "i2i" 1, F2f "f2f" 1, F2fRtz "f2f_rtz" 1, B2i "b2i" 1, I2b "i2b" 1, B2f "b2f" 1,
    Fdot "fdot" 2, Ball "ball" 1, Bany "bany" 1, ExtractDyn "extract_dyn" 2,
    InsertDyn "insert_dyn" 3, Bitcast "bitcast" 1,
}

impl AluOp {
    /// Ops whose results depend on the float rounding and denormal mode (float arithmetic,
    /// comparisons, conversions to float): constant folding with host arithmetic is only
    /// right for them under the default mode (see `FloatControls::f32_differs_from_host`).
    pub fn follows_float_mode(self) -> bool {
        let name = self.name();
        name.starts_with('f') || name.ends_with("2f")
    }

    /// Ops that read their sources component-wise with equal counts.
    pub fn is_componentwise(self) -> bool {
        !matches!(
            self,
            AluOp::Vec
                | AluOp::Fdot
                | AluOp::Ball
                | AluOp::Bany
                | AluOp::ExtractDyn
                | AluOp::InsertDyn
                | AluOp::Bitcast
        )
    }

    /// Commutative two-source ops (CSE canonicalises their operand order).
    pub fn is_commutative(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            Iadd | Imul
                | Iand
                | Ior
                | Ixor
                | Imin
                | Imax
                | Umin
                | Umax
                | Fadd
                | Fmul
                | Ieq
                | Ine
                | Feq
                | Fneu
                | Fequ
                | Fneo
                | UmulHigh
                | ImulHigh
        )
    }
}

/// A source operand: bit size and components.
#[derive(Clone, Copy, Debug)]
pub struct Src<'a> {
    /// Bit size of each component.
    pub bits: u8,
    /// Component bit patterns.
    pub comps: &'a [u64],
}

/// Mask of the low `bits` bits.
pub fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v`.
pub fn sext(v: u64, bits: u8) -> i64 {
    if bits >= 64 {
        return v as i64;
    }
    let sh = 64 - u32::from(bits);
    ((v << sh) as i64) >> sh
}

/// Reads a float of width `bits` as f64.
pub fn to_f64(v: u64, bits: u8) -> f64 {
    match bits {
        16 => f16_to_f32(v as u16) as f64,
        32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

/// Writes an f64 as a float of width `bits`, rounding to nearest even (once).
pub fn from_f64(f: f64, bits: u8) -> u64 {
    match bits {
        16 => u64::from(f32_to_f16(f64_to_f32_odd(f))),
        32 => u64::from((f as f32).to_bits()),
        _ => f.to_bits(),
    }
}

/// f64 to f32 rounded to odd: truncated, with the lowest bit set when anything was cut off.
/// Rounding that once more to a format at least two bits narrower (f16) gives the correctly
/// rounded result, where rounding f64 to f32 to nearest first could round twice (a value just
/// above an f16 tie would land on it and then go to even).
pub fn f64_to_f32_odd(f: f64) -> f32 {
    let t = f64_to_f32_rtz(f);
    if f64::from(t) == f || f.is_nan() {
        t
    } else {
        f32::from_bits(t.to_bits() | 1)
    }
}

/// f64 to f32 rounded toward zero (finite values saturate at ±FLT_MAX).
pub fn f64_to_f32_rtz(f: f64) -> f32 {
    let r = f as f32;
    if f64::from(r).abs() > f.abs() {
        // Rounded away from zero: the neighbour toward zero (an overflow to ±inf steps back
        // to ±FLT_MAX).
        f32::from_bits(r.to_bits() - 1)
    } else {
        r
    }
}

/// f32 to f16 rounded toward zero (finite values saturate at ±65504).
pub fn f32_to_f16_rtz(f: f32) -> u16 {
    let h = f32_to_f16(f);
    if f16_to_f32(h).abs() > f.abs() {
        h - 1
    } else {
        h
    }
}

/// IEEE half to single.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            let f = m as f32 / 1024.0 / 16384.0;
            return if sign != 0 { -f } else { f };
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// IEEE single to half, round to nearest even.
pub fn f32_to_f16(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 255 {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        let r = if rem > halfway || (rem == halfway && half & 1 == 1) { half + 1 } else { half };
        return sign | r as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let r = if rem > 0x1000 || (rem == 0x1000 && half & 1 == 1) { half + 1 } else { half };
    sign | r as u16
}

fn fl(op: AluOp, a: f64, b: f64, c: f64) -> f64 {
    use AluOp::*;
    match op {
        Fadd => a + b,
        Fsub => a - b,
        Fmul => a * b,
        Fdiv => a / b,
        // Vulkan's OpFRem is x - y * trunc(x / y) (its precision is inherited from that).
        Frem => a - b * (a / b).trunc(),
        Fmod => a - b * (a / b).floor(),
        Fneg => -a,
        Fabs => a.abs(),
        Fsign => {
            if a > 0.0 {
                1.0
            } else if a < 0.0 {
                -1.0
            } else {
                a
            }
        }
        Fmin => a.min(b),
        Fmax => a.max(b),
        Ffloor => a.floor(),
        Fceil => a.ceil(),
        Ffract => a - a.floor(),
        FroundEven => a.round_ties_even(),
        Fround => a.round(),
        Ftrunc => a.trunc(),
        Fsqrt => a.sqrt(),
        Frsq => 1.0 / a.sqrt(),
        Frcp => 1.0 / a,
        Fexp2 => a.exp2(),
        Flog2 => a.log2(),
        Fexp => a.exp(),
        Flog => a.ln(),
        Fpow => a.powf(b),
        Fsin => a.sin(),
        Fcos => a.cos(),
        Ftan => a.tan(),
        Fasin => a.asin(),
        Facos => a.acos(),
        Fatan => a.atan(),
        Fatan2 => a.atan2(b),
        Ffma => a.mul_add(b, c),
        _ => f64::NAN,
    }
}

/// Float op evaluated at the precision of `bits` (32-bit ops round through f32 so the
/// result is what single-precision hardware gives for the basic arithmetic ops).
fn float_op(op: AluOp, bits: u8, a: u64, b: u64, c: u64) -> u64 {
    // Negation and absolute value are sign-bit operations in IEEE 754: they keep a NaN's
    // payload (signalling ones stay signalling), as the hardware's modifiers do.
    let sign = 1u64 << (bits - 1);
    match op {
        AluOp::Fneg => return (a ^ sign) & mask(bits),
        AluOp::Fabs => return a & !sign & mask(bits),
        _ => {}
    }
    if bits == 32 {
        let (x, y, z) =
            (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
        let r = match op {
            AluOp::Fadd => x + y,
            AluOp::Fsub => x - y,
            AluOp::Fmul => x * y,
            AluOp::Fdiv => x / y,
            AluOp::Ffma => x.mul_add(y, z),
            AluOp::Fsqrt => x.sqrt(),
            AluOp::Frcp => 1.0 / x,
            _ => fl(op, x as f64, y as f64, z as f64) as f32,
        };
        return u64::from(r.to_bits());
    }
    from_f64(fl(op, to_f64(a, bits), to_f64(b, bits), to_f64(c, bits)), bits)
}

/// `x * 2^e` for a float `x` of `bits` bits and a signed exponent of any size: the exact
/// product rounded once to nearest even (GLSL.std.450 Ldexp; SPIR-V leaves exponents outside
/// the normal range undefined or flushable, and the exact product is what `v_ldexp` gives).
fn ldexp(bits: u8, x: u64, e: i64) -> u64 {
    // f16 and f32 values times 2^e are exact in f64 for every e that does not overflow or
    // underflow f64, which only happens where the narrow result is ±inf or ±0 anyway.
    from_f64(ldexp_f64(to_f64(x, bits), e), bits)
}

/// `x * 2^e` rounded once to f64.
pub fn ldexp_f64(x: f64, e: i64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        // Zeros and infinities unchanged, NaNs quieted (as arithmetic does).
        return x + x;
    }
    // Every finite non-zero f64 is within 2^-1074..2^1024: beyond ±2200 the result saturates.
    let mut e = e.clamp(-2200, 2200);
    let mut b = x.to_bits();
    if (b >> 52) & 0x7ff == 0 {
        // A denormal: normalise exactly first.
        b = (x * 2f64.powi(64)).to_bits();
        e -= 64;
    }
    let exp_mask = 0x7ffu64 << 52;
    // The result's exponent; x's sign and significand bits carry over unchanged.
    let t = ((b & exp_mask) >> 52) as i64 - 1023 + e;
    match t {
        1024.. => f64::INFINITY.copysign(x),
        -1022..=1023 => f64::from_bits((b & !exp_mask) | (((t + 1023) as u64) << 52)),
        // Below half the smallest denormal (2^-1075): rounds to zero.
        ..=-1100 => 0f64.copysign(x),
        // A denormal result: m * 2^(t + 100) is an exact normal number, and the one
        // multiplication by 2^-100 rounds it once.
        _ => f64::from_bits((b & !exp_mask) | (((t + 100 + 1023) as u64) << 52)) * 2f64.powi(-100),
    }
}

fn int_op(op: AluOp, bits: u8, a: u64, b: u64, c: u64, d: u64) -> u64 {
    use AluOp::*;
    let m = mask(bits);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let sh = (b as u32) & (u32::from(bits.max(8)) - 1);
    let r = match op {
        Mov => a,
        Iadd => a.wrapping_add(b),
        Isub => a.wrapping_sub(b),
        Imul => a.wrapping_mul(b),
        // Division by zero is undefined in SPIR-V; these are the values we pick everywhere.
        Udiv => a.checked_div(b & m).unwrap_or(m),
        Idiv => sa.checked_div(sb).map_or(m, |v| v as u64),
        Umod => a.checked_rem(b & m).unwrap_or(a),
        Irem => sa.checked_rem(sb).map_or(a, |v| v as u64),
        Imod => {
            if sb == 0 {
                a
            } else {
                sa.checked_rem(sb)
                    .map_or(0, |r| if r != 0 && (r < 0) != (sb < 0) { r + sb } else { r })
                    as u64
            }
        }
        Ineg => a.wrapping_neg(),
        Iabs => sa.unsigned_abs(),
        Isign => sa.signum() as u64,
        Imin => sa.min(sb) as u64,
        Imax => sa.max(sb) as u64,
        Umin => (a & m).min(b & m),
        Umax => (a & m).max(b & m),
        Iand => a & b,
        Ior => a | b,
        Ixor => a ^ b,
        Inot => !a,
        Ishl => a << sh,
        Ushr => (a & m) >> sh,
        Ishr => (sa >> sh) as u64,
        BitCount => u64::from((a & m).count_ones()),
        BitReverse => (a & m).reverse_bits() >> (64 - u32::from(bits)),
        FindLsb => {
            if a & m == 0 {
                m
            } else {
                u64::from((a & m).trailing_zeros())
            }
        }
        UfindMsb => {
            if a & m == 0 {
                m
            } else {
                63 - u64::from((a & m).leading_zeros())
            }
        }
        IfindMsb => {
            let v = if sa < 0 { !a & m } else { a & m };
            if v == 0 {
                m
            } else {
                63 - u64::from(v.leading_zeros())
            }
        }
        // Offset + count <= width is the defined domain (a count of 64 is a 64-bit field).
        BfiInsert => {
            let (off, cnt) = (c as u32 & 63, (d as u32 & 127).min(64));
            let fm = if cnt >= 64 { u64::MAX } else { ((1u64 << cnt) - 1) << off };
            (a & !fm) | ((b << off) & fm)
        }
        Ubfe | Ibfe => {
            let (off, cnt) = (b as u32 & 63, (c as u32 & 127).min(64));
            if cnt == 0 {
                0
            } else {
                let v = (a & m) >> off;
                let fm = mask(cnt as u8);
                if op == Ibfe {
                    sext(v & fm, cnt as u8) as u64
                } else {
                    v & fm
                }
            }
        }
        UmulHigh => (((a & m) as u128 * (b & m) as u128) >> bits) as u64,
        ImulHigh => ((i128::from(sa) * i128::from(sb)) >> bits) as u64,
        _ => 0,
    };
    r & m
}

fn compare(op: AluOp, bits: u8, a: u64, b: u64) -> bool {
    use AluOp::*;
    let m = mask(bits);
    let (fa, fb) = (to_f64(a, bits), to_f64(b, bits));
    match op {
        Ieq => a & m == b & m,
        Ine => a & m != b & m,
        Ult => a & m < b & m,
        Uge => a & m >= b & m,
        Ilt => sext(a, bits) < sext(b, bits),
        Ige => sext(a, bits) >= sext(b, bits),
        Feq => fa == fb,
        Fneu => fa != fb,
        Flt => fa < fb,
        Fge => fa >= fb,
        Fltu => fa.partial_cmp(&fb).is_none_or(|o| o.is_lt()),
        Fgeu => fa.partial_cmp(&fb).is_none_or(|o| o.is_ge()),
        Fequ => fa == fb || fa.is_nan() || fb.is_nan(),
        Fneo => fa != fb && !fa.is_nan() && !fb.is_nan(),
        IsNan => fa.is_nan(),
        IsInf => fa.is_infinite(),
        _ => false,
    }
}

/// An integer rounded once to nearest even into a float of `bits` bits. (Going through f64
/// would round 64-bit values twice; f16 goes through f32, which is exact below 2^24 and
/// overflows f16 above it either way.)
fn int_to_float(v: i128, bits: u8) -> u64 {
    match bits {
        64 => (v as f64).to_bits(),
        32 => u64::from((v as f32).to_bits()),
        _ => u64::from(f32_to_f16(v as f32)),
    }
}

fn convert(op: AluOp, sbits: u8, dbits: u8, a: u64) -> u64 {
    use AluOp::*;
    let f = to_f64(a, sbits);
    let r = match op {
        F2u => {
            if f.is_nan() || f <= 0.0 {
                0
            } else {
                (f.trunc() as u64).min(mask(dbits))
            }
        }
        F2i => {
            let lo = -(1i128 << (dbits - 1));
            let hi = (1i128 << (dbits - 1)) - 1;
            if f.is_nan() {
                0
            } else {
                (f.trunc() as i128).clamp(lo, hi) as u64
            }
        }
        U2f => int_to_float(i128::from(a & mask(sbits)), dbits),
        I2f => int_to_float(i128::from(sext(a, sbits)), dbits),
        U2u => a & mask(sbits),
        I2i => sext(a, sbits) as u64,
        F2f => from_f64(f, dbits),
        // Toward zero through f32 (truncating twice truncates once: f16's values are f32's).
        F2fRtz => match dbits {
            16 if sbits == 64 => u64::from(f32_to_f16_rtz(f64_to_f32_rtz(f))),
            16 => u64::from(f32_to_f16_rtz(f as f32)),
            32 => u64::from(f64_to_f32_rtz(f).to_bits()),
            _ => from_f64(f, dbits),
        },
        B2i => a & 1,
        B2f => from_f64((a & 1) as f64, dbits),
        I2b => u64::from(a & mask(sbits) != 0),
        _ => 0,
    };
    r & mask(dbits)
}

fn comp(s: &Src<'_>, i: usize) -> u64 {
    if s.comps.len() == 1 {
        s.comps[0]
    } else {
        s.comps.get(i).copied().unwrap_or(0)
    }
}

/// Ops that read whole vectors rather than component by component (`None` otherwise).
fn eval_whole(
    op: AluOp,
    dst_bits: u8,
    dst_comps: u8,
    srcs: &[Src<'_>],
) -> Result<Option<Vec<u64>>, EvalError> {
    use AluOp::*;
    let err = |why| EvalError { op: op.name(), why };
    let n = usize::from(dst_comps);
    match op {
        Vec => {
            let v: std::vec::Vec<u64> = srcs.iter().flat_map(|s| s.comps.iter().copied()).collect();
            if v.len() != n {
                return Err(err("component count mismatch"));
            }
            return Ok(Some(v));
        }
        Fdot => {
            let (a, b) = (&srcs[0], &srcs[1]);
            if a.comps.len() != b.comps.len() || a.comps.is_empty() {
                return Err(err("component count mismatch"));
            }
            // The first product, then one fused multiply-add per further component (what
            // contraction allows; NoContraction dots are separate multiplies and adds).
            let mut acc = float_op(Fmul, a.bits, a.comps[0], b.comps[0], 0);
            for i in 1..a.comps.len() {
                acc = float_op(Ffma, a.bits, a.comps[i], b.comps[i], acc);
            }
            return Ok(Some(vec![acc]));
        }
        Ball => return Ok(Some(vec![u64::from(srcs[0].comps.iter().all(|c| c & 1 == 1))])),
        Bany => return Ok(Some(vec![u64::from(srcs[0].comps.iter().any(|c| c & 1 == 1))])),
        ExtractDyn => {
            let i = srcs[1].comps[0] as usize;
            return Ok(Some(vec![srcs[0].comps.get(i).copied().unwrap_or(0)]));
        }
        Bitcast => {
            // Little-endian re-chunking of the source bits.
            let s = &srcs[0];
            let mut bytes = std::vec::Vec::new();
            for &c in s.comps {
                bytes.extend_from_slice(&c.to_le_bytes()[..usize::from(s.bits / 8)]);
            }
            let w = usize::from(dst_bits / 8);
            if bytes.len() != w * n || w == 0 {
                return Err(err("size mismatch"));
            }
            return Ok(Some(
                bytes
                    .chunks(w)
                    .map(|ch| {
                        let mut b = [0u8; 8];
                        b[..w].copy_from_slice(ch);
                        u64::from_le_bytes(b)
                    })
                    .collect(),
            ));
        }
        InsertDyn => {
            let mut v = srcs[0].comps.to_vec();
            let i = srcs[2].comps[0] as usize;
            if let Some(c) = v.get_mut(i) {
                *c = srcs[1].comps[0];
            }
            return Ok(Some(v));
        }
        _ => {}
    }
    Ok(None)
}

/// Evaluates `op` producing `dst_comps` components of `dst_bits` bits.
pub fn eval(
    op: AluOp,
    dst_bits: u8,
    dst_comps: u8,
    srcs: &[Src<'_>],
) -> Result<Vec<u64>, EvalError> {
    use AluOp::*;
    let err = |why| EvalError { op: op.name(), why };
    if op.num_srcs() != 0 && srcs.len() != op.num_srcs() {
        return Err(err("wrong source count"));
    }
    let n = usize::from(dst_comps);
    let m = mask(dst_bits);
    if let Some(v) = eval_whole(op, dst_bits, dst_comps, srcs)? {
        return Ok(v);
    }
    let sb = srcs.first().map_or(dst_bits, |s| s.bits);
    let mut out = std::vec::Vec::with_capacity(n);
    for i in 0..n {
        let a = srcs.first().map_or(0, |s| comp(s, i));
        let b = srcs.get(1).map_or(0, |s| comp(s, i));
        let c = srcs.get(2).map_or(0, |s| comp(s, i));
        let d = srcs.get(3).map_or(0, |s| comp(s, i));
        let r = match op {
            Bcsel => {
                if a & 1 == 1 {
                    b
                } else {
                    c
                }
            }
            Ieq | Ine | Ult | Uge | Ilt | Ige | Feq | Fneu | Flt | Fge | Fltu | Fgeu | Fequ
            | Fneo | IsNan | IsInf => u64::from(compare(op, sb, a, b)),
            F2u | F2i | U2f | I2f | U2u | I2i | F2f | F2fRtz | B2i | I2b | B2f => {
                convert(op, sb, dst_bits, a)
            }
            Fadd | Fsub | Fmul | Fdiv | Frem | Fmod | Fneg | Fabs | Fsign | Fmin | Fmax
            | Ffloor | Fceil | Ffract | FroundEven | Fround | Ftrunc | Fsqrt | Frsq | Frcp
            | Fexp2 | Flog2 | Fexp | Flog | Fpow | Fsin | Fcos | Ftan | Fasin | Facos | Fatan
            | Fatan2 | Ffma => float_op(op, dst_bits, a, b, c),
            Fldexp => ldexp(dst_bits, a, sext(b, srcs[1].bits)),
            _ => int_op(op, dst_bits, a, b, c, d),
        };
        out.push(r & m);
    }
    Ok(out)
}

/// Reference semantics of an atomic read-modify-write: returns the new memory value (the
/// instruction's result is always the old value). `srcs` is `[data]` or `[data, comparator]`.
pub fn atomic(op: super::inst::AtomicOp, bits: u8, old: u64, srcs: &[u64]) -> u64 {
    use super::inst::AtomicOp as A;
    let m = mask(bits);
    let d = srcs.first().copied().unwrap_or(0) & m;
    let old = old & m;
    let r = match op {
        A::Add => old.wrapping_add(d),
        A::Imin => sext(old, bits).min(sext(d, bits)) as u64,
        A::Imax => sext(old, bits).max(sext(d, bits)) as u64,
        A::Umin => old.min(d),
        A::Umax => old.max(d),
        A::And => old & d,
        A::Or => old | d,
        A::Xor => old ^ d,
        A::Xchg | A::Store => d,
        A::CmpXchg => {
            if old == srcs.get(1).copied().unwrap_or(0) & m {
                d
            } else {
                old
            }
        }
        A::Load => old,
    };
    r & m
}
