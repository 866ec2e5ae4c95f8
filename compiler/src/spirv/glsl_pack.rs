//! GLSL.std.450 packing instructions (`packHalf2x16`, `unpackUnorm4x8`, `packDouble2x32`,
//! ...), `ldexp` and `frexp`, expanded into conversions, clamps, bitcasts and bit fields.

use rspirv::dr::Instruction;

use super::function::FnCtx;
use super::operands::bad;
use crate::error::CompileError;
use crate::ir::{ops, AluOp, Value, ValueType};

impl FnCtx<'_, '_> {
    fn fsplat(&mut self, bits: u8, n: u8, f: f64) -> Value {
        let c = self.imm(bits, ops::from_f64(f, bits));
        self.splat(c, n)
    }

    /// `clamp(v, lo, hi)` on floats.
    fn fclamp(&mut self, v: Value, lo: f64, hi: f64) -> Value {
        let vt = self.f.ty(v);
        let (bits, n) = vt.shape();
        let (l, h) = (self.fsplat(bits, n, lo), self.fsplat(bits, n, hi));
        let t = self.alu(AluOp::Fmax, vt, vec![v, l]);
        self.alu(AluOp::Fmin, vt, vec![t, h])
    }

    /// Packs `v` (n floats) into one 32-bit word of n fields of `32 / n` bits.
    fn pack(&mut self, v: Value, signed: bool) -> Value {
        let n = self.f.ty(v).shape().1;
        let fbits = (32 / u32::from(n)) as u8;
        let scale = if signed {
            f64::from((1u32 << (fbits - 1)) - 1)
        } else {
            f64::from((1u32 << fbits) - 1)
        };
        let c = self.fclamp(v, if signed { -1.0 } else { 0.0 }, 1.0);
        let s = self.fsplat(32, n, scale);
        let m = self.alu(AluOp::Fmul, ValueType::data(32, n), vec![c, s]);
        let r = self.alu(AluOp::FroundEven, ValueType::data(32, n), vec![m]);
        let conv = if signed { AluOp::F2i } else { AluOp::F2u };
        let i = self.alu(conv, ValueType::data(32, n), vec![r]);
        let narrow = self.alu(
            if signed { AluOp::I2i } else { AluOp::U2u },
            ValueType::data(fbits, n),
            vec![i],
        );
        self.alu(AluOp::Bitcast, ValueType::data(32, 1), vec![narrow])
    }

    /// frexp(x) = (significand in [0.5, 1) with x's sign, 32-bit exponent) with x = s * 2^e;
    /// (x, 0) for zeros, infinities and NaNs. Read from the bit fields: subnormals are first
    /// scaled into the normal range by 2^(mantissa bits + 1), which is exact.
    pub(super) fn frexp(&mut self, x: Value) -> Result<(Value, Value), CompileError> {
        let vt = self.f.ty(x);
        let (bits, n) = vt.shape();
        let (man, bias): (u8, u64) = match bits {
            16 => (10, 15),
            32 => (23, 127),
            64 => (52, 1023),
            _ => return Err(CompileError::unsupported("frexp", format!("{bits}-bit floats"))),
        };
        let it = ValueType::data(bits, n);
        let bt = ValueType::data(1, n);
        let i32t = ValueType::data(32, n);
        let int = |s: &mut Self, v: u64| {
            let c = s.imm(bits, v);
            s.splat(c, n)
        };
        let field = ((1u64 << (bits - 1 - man)) - 1) << man;
        // Subnormals (and zeros) scaled by 2^(man + 1).
        let u = self.alu(AluOp::Bitcast, it, vec![x]);
        let fm = int(self, field);
        let e0 = self.alu(AluOp::Iand, it, vec![u, fm]);
        let zero = int(self, 0);
        let sub = self.alu(AluOp::Ieq, bt, vec![e0, zero]);
        let scale = self.fsplat(bits, n, 2f64.powi(i32::from(man) + 1));
        let scaled = self.alu(AluOp::Fmul, vt, vec![x, scale]);
        let xs = self.alu(AluOp::Bcsel, vt, vec![sub, scaled, x]);
        let us = self.alu(AluOp::Bitcast, it, vec![xs]);
        // Significand: the exponent field replaced by bias - 1 (a value in [0.5, 1)).
        let keep = int(self, !field & ops::mask(bits));
        let rest = self.alu(AluOp::Iand, it, vec![us, keep]);
        let half = int(self, (bias - 1) << man);
        let sig = self.alu(AluOp::Ior, it, vec![rest, half]);
        let sig = self.alu(AluOp::Bitcast, vt, vec![sig]);
        // Exponent: field - (bias - 1), less the scaling.
        let ef = self.alu(AluOp::Iand, it, vec![us, fm]);
        let sh = int(self, u64::from(man));
        let e = self.alu(AluOp::Ushr, it, vec![ef, sh]);
        let e = if bits == 32 { e } else { self.alu(AluOp::U2u, i32t, vec![e]) };
        let adj = self.imm(32, bias - 1);
        let adj = self.splat(adj, n);
        let e = self.alu(AluOp::Isub, i32t, vec![e, adj]);
        let extra = self.imm(32, u64::from(man) + 1);
        let extra = self.splat(extra, n);
        let e_sub = self.alu(AluOp::Isub, i32t, vec![e, extra]);
        let e = self.alu(AluOp::Bcsel, i32t, vec![sub, e_sub, e]);
        // Zeros, infinities and NaNs come back unchanged with exponent 0.
        let fz = self.fsplat(bits, n, 0.0);
        let is_zero = self.alu(AluOp::Feq, bt, vec![x, fz]);
        let all = self.alu(AluOp::Ieq, bt, vec![e0, fm]);
        let special = self.alu(AluOp::Ior, bt, vec![is_zero, all]);
        let sig = self.alu(AluOp::Bcsel, vt, vec![special, x, sig]);
        let z32 = self.imm(32, 0);
        let z32 = self.splat(z32, n);
        let e = self.alu(AluOp::Bcsel, i32t, vec![special, z32, e]);
        Ok((sig, e))
    }

    /// Unpacks one 32-bit word into `n` normalized floats.
    fn unpack(&mut self, w: Value, n: u8, signed: bool) -> Value {
        let fbits = (32 / u32::from(n)) as u8;
        let parts = self.alu(AluOp::Bitcast, ValueType::data(fbits, n), vec![w]);
        let wide = self.alu(
            if signed { AluOp::I2i } else { AluOp::U2u },
            ValueType::data(32, n),
            vec![parts],
        );
        let f = self.alu(
            if signed { AluOp::I2f } else { AluOp::U2f },
            ValueType::data(32, n),
            vec![wide],
        );
        let scale = if signed {
            f64::from((1u32 << (fbits - 1)) - 1)
        } else {
            f64::from((1u32 << fbits) - 1)
        };
        let s = self.fsplat(32, n, scale);
        let q = self.alu(AluOp::Fdiv, ValueType::data(32, n), vec![f, s]);
        if signed {
            self.fclamp(q, -1.0, 1.0)
        } else {
            q
        }
    }

    /// ldexp's exponent as the 32-bit integer the IR op takes: narrower ones sign-extended,
    /// 64-bit ones clamped to i32 first (beyond ±2^31 every finite result is already ±0 or
    /// ±inf, so the clamp keeps the exact product).
    fn ldexp_exponent(&mut self, e: Value) -> Value {
        let (bits, n) = self.f.ty(e).shape();
        if bits == 32 {
            return e;
        }
        let e = if bits == 64 {
            let vt = ValueType::data(64, n);
            let lo = self.imm(64, i64::from(i32::MIN) as u64);
            let lo = self.splat(lo, n);
            let hi = self.imm(64, i32::MAX as u64);
            let hi = self.splat(hi, n);
            let t = self.alu(AluOp::Imax, vt, vec![e, lo]);
            self.alu(AluOp::Imin, vt, vec![t, hi])
        } else {
            e
        };
        self.alu(AluOp::I2i, ValueType::data(32, n), vec![e])
    }

    /// GLSL.std.450 53..=65 (ldexp and the pack/unpack family); `None` for other numbers.
    pub fn glsl_pack(
        &mut self,
        inst: &Instruction,
        n: u32,
        vt: ValueType,
        a: &[Value],
    ) -> Result<Option<Value>, CompileError> {
        let arg = |k: usize| a.get(k).copied().ok_or_else(|| bad(inst, "missing operand"));
        // Packs take vec4 (4x8) or vec2 (2x16) of 32-bit floats; unpacks a 32-bit word.
        let want = match n {
            54 | 55 => Some((32, 4)),
            56..=59 => Some((32, 2)),
            60..=64 => Some((32, 1)),
            65 => Some((64, 1)),
            _ => None,
        };
        if let Some(w) = want {
            if self.f.ty(arg(0)?).shape() != w {
                return Err(bad(inst, "operand shape does not match the packing instruction"));
            }
        }
        // The double pair are bit casts: the result must have the other shape.
        let result = match n {
            59 => Some((64, 1)),
            65 => Some((32, 2)),
            _ => None,
        };
        if result.is_some_and(|r| vt.shape() != r) {
            return Err(bad(inst, "result shape does not match the packing instruction"));
        }
        Ok(Some(match n {
            53 => {
                let e = self.ldexp_exponent(arg(1)?);
                self.alu(AluOp::Fldexp, vt, vec![arg(0)?, e])
            }
            54 | 56 => self.pack(arg(0)?, true),
            55 | 57 => self.pack(arg(0)?, false),
            58 => {
                let h = self.alu(AluOp::F2f, ValueType::data(16, 2), vec![arg(0)?]);
                self.alu(AluOp::Bitcast, ValueType::data(32, 1), vec![h])
            }
            60 => self.unpack(arg(0)?, 2, true),
            61 => self.unpack(arg(0)?, 2, false),
            62 => {
                let h = self.alu(AluOp::Bitcast, ValueType::data(16, 2), vec![arg(0)?]);
                self.alu(AluOp::F2f, ValueType::data(32, 2), vec![h])
            }
            63 => self.unpack(arg(0)?, 4, true),
            64 => self.unpack(arg(0)?, 4, false),
            // packDouble2x32(uvec2) and unpackDouble2x32(double): the first component is the
            // low dword, as in a little-endian bit cast.
            59 | 65 => self.alu(AluOp::Bitcast, vt, vec![arg(0)?]),
            _ => return Ok(None),
        }))
    }
}
