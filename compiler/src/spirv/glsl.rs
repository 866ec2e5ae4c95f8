//! `GLSL.std.450` extended instructions, expanded into IR ALU ops.

use rspirv::dr::Instruction;

use super::function::{FnCtx, Tree};
use super::operands::{bad, id};
use crate::error::CompileError;
use crate::ir::{ops, AluOp, InstKind, InterpAt, Value, ValueType};

impl FnCtx<'_, '_> {
    pub(super) fn fconst(&mut self, bits: u8, n: u8, f: f64) -> Value {
        let c = self.imm(bits, ops::from_f64(f, bits));
        self.splat(c, n)
    }

    /// Translates GLSL.std.450 instruction number `n`.
    pub fn glsl_inst(&mut self, inst: &Instruction, n: u32) -> Result<(), CompileError> {
        if n == 33 || n == 34 {
            return self.glsl_matrix(inst, n);
        }
        if matches!(n, 76..=78) {
            return self.glsl_interpolate_at(inst, n);
        }
        if n == 36 || n == 52 {
            // ModfStruct { fractional part, whole part }, FrexpStruct { significand, exponent }.
            let x = self.leaf(inst, 2)?;
            let (p, q) = if n == 36 { self.modf(x) } else { self.frexp(x)? };
            return self.set(inst, Tree::Node(vec![Tree::Leaf(p), Tree::Leaf(q)]));
        }
        let vt = self.rvt(inst)?;
        let mut a = Vec::new();
        for i in 2..inst.operands.len() {
            a.push(match self.value(id(inst, i)?)? {
                Tree::Leaf(v) => v,
                Tree::Node(_) => return Err(bad(inst, "aggregate operand")),
            });
        }
        let need = |k: usize| if a.len() < k { Err(bad(inst, "missing operand")) } else { Ok(()) };
        need(1)?;
        let v = if let Some(op) = unary(n) {
            self.alu(op, vt, vec![a[0]])
        } else if let Some(op) = binary(n) {
            need(2)?;
            self.alu(op, vt, vec![a[0], a[1]])
        } else if matches!(n, 43..=50) {
            self.glsl_interp(inst, n, vt, &a)?
        } else if n == 51 {
            // Frexp: the exponent goes through the pointer operand.
            need(2)?;
            let (m, e) = self.frexp(a[0])?;
            self.store_tree(a[1], &Tree::Leaf(e))?;
            m
        } else if n == 35 {
            // Modf: the whole part goes through the pointer operand.
            need(2)?;
            let (fract, whole) = self.modf(a[0]);
            self.store_tree(a[1], &Tree::Leaf(whole))?;
            fract
        } else if matches!(n, 19..=24) {
            self.glsl_hyperbolic(n, vt, a[0])
        } else if matches!(n, 11 | 12) {
            // radians(x) = x * pi/180, degrees(x) = x * 180/pi, the factor rounded to x's type.
            let (bits, comps) = vt.shape();
            let k =
                if n == 11 { std::f64::consts::PI / 180.0 } else { 180.0 / std::f64::consts::PI };
            let c = self.fconst(bits, comps, k);
            self.alu(AluOp::Fmul, vt, vec![a[0], c])
        } else if matches!(n, 66..=72) {
            self.glsl_geometric(inst, n, vt, &a)?
        } else if let Some(v) = self.glsl_pack(inst, n, vt, &a)? {
            v
        } else if n == 81 {
            // NClamp behaves as FClamp for non-NaN inputs, which is all GLSL promises.
            self.glsl_interp(inst, 43, vt, &a)?
        } else {
            return Err(crate::error::CompileError::unsupported(
                "OpExtInst",
                format!("GLSL.std.450 instruction {n}"),
            ));
        };
        self.set(inst, Tree::Leaf(v))
    }

    /// clamp, mix, step, smoothstep and fma.
    fn glsl_interp(
        &mut self,
        inst: &Instruction,
        n: u32,
        vt: ValueType,
        a: &[Value],
    ) -> Result<Value, CompileError> {
        let need = |k: usize| if a.len() < k { Err(bad(inst, "missing operand")) } else { Ok(()) };
        let (bits, comps) = vt.shape();
        Ok(match n {
            43..=45 => {
                need(3)?;
                let (mx, mn) = match n {
                    43 => (AluOp::Fmax, AluOp::Fmin),
                    44 => (AluOp::Umax, AluOp::Umin),
                    _ => (AluOp::Imax, AluOp::Imin),
                };
                let t = self.alu(mx, vt, vec![a[0], a[1]]);
                self.alu(mn, vt, vec![t, a[2]])
            }
            46 => {
                need(3)?;
                // mix(x, y, a) = x + (y - x) * a
                let d = self.alu(AluOp::Fsub, vt, vec![a[1], a[0]]);
                let m = self.alu(AluOp::Fmul, vt, vec![d, a[2]]);
                self.alu(AluOp::Fadd, vt, vec![a[0], m])
            }
            48 => {
                need(2)?;
                let lt = self.alu(AluOp::Flt, ValueType::data(1, comps), vec![a[1], a[0]]);
                let (z, o) = (self.fconst(bits, comps, 0.0), self.fconst(bits, comps, 1.0));
                self.alu(AluOp::Bcsel, vt, vec![lt, z, o])
            }
            49 => {
                need(3)?;
                // t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t)
                let num = self.alu(AluOp::Fsub, vt, vec![a[2], a[0]]);
                let den = self.alu(AluOp::Fsub, vt, vec![a[1], a[0]]);
                let q = self.alu(AluOp::Fdiv, vt, vec![num, den]);
                let (z, o) = (self.fconst(bits, comps, 0.0), self.fconst(bits, comps, 1.0));
                let t0 = self.alu(AluOp::Fmax, vt, vec![q, z]);
                let t = self.alu(AluOp::Fmin, vt, vec![t0, o]);
                let two = self.fconst(bits, comps, 2.0);
                let three = self.fconst(bits, comps, 3.0);
                let tt = self.alu(AluOp::Fmul, vt, vec![two, t]);
                let s = self.alu(AluOp::Fsub, vt, vec![three, tt]);
                let t2 = self.alu(AluOp::Fmul, vt, vec![t, t]);
                self.alu(AluOp::Fmul, vt, vec![t2, s])
            }
            50 => {
                need(3)?;
                self.alu(AluOp::Ffma, vt, vec![a[0], a[1], a[2]])
            }
            other => {
                return Err(CompileError::unsupported(
                    "OpExtInst",
                    format!("GLSL.std.450 instruction {other}"),
                ))
            }
        })
    }

    /// length, distance, cross, normalize, faceforward, reflect and refract.
    fn glsl_geometric(
        &mut self,
        inst: &Instruction,
        n: u32,
        vt: ValueType,
        a: &[Value],
    ) -> Result<Value, CompileError> {
        let need = |k: usize| if a.len() < k { Err(bad(inst, "missing operand")) } else { Ok(()) };
        let (bits, comps) = vt.shape();
        Ok(match n {
            66 => {
                let sb = self.f.ty(a[0]).shape().0;
                let d = self.alu(AluOp::Fdot, ValueType::data(sb, 1), vec![a[0], a[0]]);
                self.alu(AluOp::Fsqrt, vt, vec![d])
            }
            67 => {
                need(2)?;
                let t = self.f.ty(a[0]);
                let d = self.alu(AluOp::Fsub, t, vec![a[0], a[1]]);
                let dd = self.alu(AluOp::Fdot, vt, vec![d, d]);
                self.alu(AluOp::Fsqrt, vt, vec![dd])
            }
            68 => {
                need(2)?;
                let c = |s: &mut Self, v: Value, i: u32| s.comp(v, i);
                let (x1, y1, z1) = (c(self, a[0], 0), c(self, a[0], 1), c(self, a[0], 2));
                let (x2, y2, z2) = (c(self, a[1], 0), c(self, a[1], 1), c(self, a[1], 2));
                let s = ValueType::data(bits, 1);
                let mut cross = |p: Value, q: Value, r: Value, t: Value| {
                    let m1 = self.alu(AluOp::Fmul, s, vec![p, q]);
                    let m2 = self.alu(AluOp::Fmul, s, vec![r, t]);
                    self.alu(AluOp::Fsub, s, vec![m1, m2])
                };
                let cx = cross(y1, z2, z1, y2);
                let cy = cross(z1, x2, x1, z2);
                let cz = cross(x1, y2, y1, x2);
                self.alu(AluOp::Vec, vt, vec![cx, cy, cz])
            }
            69 => {
                let d = self.alu(AluOp::Fdot, ValueType::data(bits, 1), vec![a[0], a[0]]);
                let r = self.alu(AluOp::Frsq, ValueType::data(bits, 1), vec![d]);
                let rv = self.splat(r, comps);
                self.alu(AluOp::Fmul, vt, vec![a[0], rv])
            }
            70 => {
                need(3)?;
                // faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N
                let s = ValueType::data(bits, 1);
                let d = self.alu(AluOp::Fdot, s, vec![a[2], a[1]]);
                let z = self.fconst(bits, 1, 0.0);
                let lt = self.alu(AluOp::Flt, ValueType::data(1, 1), vec![d, z]);
                let ltv = self.splat(lt, comps);
                let neg = self.alu(AluOp::Fneg, vt, vec![a[0]]);
                self.alu(AluOp::Bcsel, vt, vec![ltv, a[0], neg])
            }
            72 => {
                need(3)?;
                self.refract(vt, a[0], a[1], a[2])
            }
            71 => {
                need(2)?;
                // reflect(I, N) = I - 2 * dot(N, I) * N
                let d = self.alu(AluOp::Fdot, ValueType::data(bits, 1), vec![a[1], a[0]]);
                let two = self.imm(bits, ops::from_f64(2.0, bits));
                let d2 = self.alu(AluOp::Fmul, ValueType::data(bits, 1), vec![d, two]);
                let dv = self.splat(d2, comps);
                let p = self.alu(AluOp::Fmul, vt, vec![dv, a[1]]);
                self.alu(AluOp::Fsub, vt, vec![a[0], p])
            }
            other => {
                return Err(CompileError::unsupported(
                    "OpExtInst",
                    format!("GLSL.std.450 instruction {other}"),
                ))
            }
        })
    }
}

impl FnCtx<'_, '_> {
    /// sinh, cosh, tanh, asinh, acosh and atanh (GLSL.std.450 19..=24) from exp, log and sqrt,
    /// the formulas Vulkan's precision table states their precision by; tanh as
    /// 1 - 2 / (e^2x + 1), which tends to ±1 instead of inf / inf, and asinh on |x| with the
    /// sign restored, which avoids cancellation for negative x.
    fn glsl_hyperbolic(&mut self, n: u32, vt: ValueType, x: Value) -> Value {
        let (bits, comps) = vt.shape();
        let one = self.fconst(bits, comps, 1.0);
        let half = self.fconst(bits, comps, 0.5);
        match n {
            19 | 20 => {
                let e = self.alu(AluOp::Fexp, vt, vec![x]);
                let nx = self.alu(AluOp::Fneg, vt, vec![x]);
                let en = self.alu(AluOp::Fexp, vt, vec![nx]);
                let op = if n == 19 { AluOp::Fsub } else { AluOp::Fadd };
                let s = self.alu(op, vt, vec![e, en]);
                self.alu(AluOp::Fmul, vt, vec![s, half])
            }
            21 => {
                let two = self.fconst(bits, comps, 2.0);
                let x2 = self.alu(AluOp::Fmul, vt, vec![x, two]);
                let e = self.alu(AluOp::Fexp, vt, vec![x2]);
                let d = self.alu(AluOp::Fadd, vt, vec![e, one]);
                let q = self.alu(AluOp::Fdiv, vt, vec![two, d]);
                self.alu(AluOp::Fsub, vt, vec![one, q])
            }
            22 | 23 => {
                let ax = if n == 22 { self.alu(AluOp::Fabs, vt, vec![x]) } else { x };
                let xx = self.alu(AluOp::Fmul, vt, vec![ax, ax]);
                let op = if n == 22 { AluOp::Fadd } else { AluOp::Fsub };
                let t = self.alu(op, vt, vec![xx, one]);
                let r = self.alu(AluOp::Fsqrt, vt, vec![t]);
                let s = self.alu(AluOp::Fadd, vt, vec![ax, r]);
                let l = self.alu(AluOp::Flog, vt, vec![s]);
                if n == 23 {
                    return l;
                }
                let z = self.fconst(bits, comps, 0.0);
                let neg = self.alu(AluOp::Flt, ValueType::data(1, comps), vec![x, z]);
                let nl = self.alu(AluOp::Fneg, vt, vec![l]);
                self.alu(AluOp::Bcsel, vt, vec![neg, nl, l])
            }
            _ => {
                let p = self.alu(AluOp::Fadd, vt, vec![one, x]);
                let m = self.alu(AluOp::Fsub, vt, vec![one, x]);
                let q = self.alu(AluOp::Fdiv, vt, vec![p, m]);
                let l = self.alu(AluOp::Flog, vt, vec![q]);
                self.alu(AluOp::Fmul, vt, vec![l, half])
            }
        }
    }

    /// modf(x): (x - trunc(x), trunc(x)), the fractional part of an infinity being zero.
    fn modf(&mut self, x: Value) -> (Value, Value) {
        let vt = self.f.ty(x);
        let (bits, comps) = vt.shape();
        let whole = self.alu(AluOp::Ftrunc, vt, vec![x]);
        let d = self.alu(AluOp::Fsub, vt, vec![x, whole]);
        let inf = self.alu(AluOp::IsInf, ValueType::data(1, comps), vec![x]);
        let z = self.fconst(bits, comps, 0.0);
        (self.alu(AluOp::Bcsel, vt, vec![inf, z, d]), whole)
    }

    /// refract(I, N, eta) as GLSL defines it: k = 1 - eta^2 * (1 - dot(N, I)^2); zero where
    /// k < 0, else eta * I - (eta * dot(N, I) + sqrt(k)) * N.
    fn refract(&mut self, vt: ValueType, i: Value, n: Value, eta: Value) -> Value {
        let (bits, comps) = vt.shape();
        let s = ValueType::data(bits, 1);
        // eta may be wider or narrower than I (SPIR-V only asks for a float scalar).
        let eta =
            if self.f.ty(eta).shape().0 == bits { eta } else { self.alu(AluOp::F2f, s, vec![eta]) };
        let d = self.alu(AluOp::Fdot, s, vec![n, i]);
        let one = self.fconst(bits, 1, 1.0);
        let dd = self.alu(AluOp::Fmul, s, vec![d, d]);
        let t = self.alu(AluOp::Fsub, s, vec![one, dd]);
        let ee = self.alu(AluOp::Fmul, s, vec![eta, eta]);
        let et = self.alu(AluOp::Fmul, s, vec![ee, t]);
        let k = self.alu(AluOp::Fsub, s, vec![one, et]);
        let root = self.alu(AluOp::Fsqrt, s, vec![k]);
        let ed = self.alu(AluOp::Fmul, s, vec![eta, d]);
        let f = self.alu(AluOp::Fadd, s, vec![ed, root]);
        let (etav, fv) = (self.splat(eta, comps), self.splat(f, comps));
        let ei = self.alu(AluOp::Fmul, vt, vec![etav, i]);
        let fnv = self.alu(AluOp::Fmul, vt, vec![fv, n]);
        let r = self.alu(AluOp::Fsub, vt, vec![ei, fnv]);
        let z = self.fconst(bits, 1, 0.0);
        let neg = self.alu(AluOp::Flt, ValueType::data(1, 1), vec![k, z]);
        let negv = self.splat(neg, comps);
        let zv = self.fconst(bits, comps, 0.0);
        self.alu(AluOp::Bcsel, vt, vec![negv, zv, r])
    }
}

/// GLSL.std.450 instructions that are one unary ALU op.
fn unary(n: u32) -> Option<AluOp> {
    Some(match n {
        1 => AluOp::Fround,
        2 => AluOp::FroundEven,
        3 => AluOp::Ftrunc,
        4 => AluOp::Fabs,
        5 => AluOp::Iabs,
        6 => AluOp::Fsign,
        7 => AluOp::Isign,
        8 => AluOp::Ffloor,
        9 => AluOp::Fceil,
        10 => AluOp::Ffract,
        13 => AluOp::Fsin,
        14 => AluOp::Fcos,
        15 => AluOp::Ftan,
        16 => AluOp::Fasin,
        17 => AluOp::Facos,
        18 => AluOp::Fatan,
        27 => AluOp::Fexp,
        28 => AluOp::Flog,
        29 => AluOp::Fexp2,
        30 => AluOp::Flog2,
        31 => AluOp::Fsqrt,
        32 => AluOp::Frsq,
        73 => AluOp::FindLsb,
        74 => AluOp::IfindMsb,
        75 => AluOp::UfindMsb,
        _ => return None,
    })
}

/// GLSL.std.450 instructions that are one binary ALU op.
fn binary(n: u32) -> Option<AluOp> {
    Some(match n {
        25 => AluOp::Fatan2,
        26 => AluOp::Fpow,
        37 | 79 => AluOp::Fmin,
        38 => AluOp::Umin,
        39 => AluOp::Imin,
        40 | 80 => AluOp::Fmax,
        41 => AluOp::Umax,
        42 => AluOp::Imax,
        _ => return None,
    })
}

impl FnCtx<'_, '_> {
    /// `InterpolateAtCentroid` (76), `InterpolateAtSample` (77), `InterpolateAtOffset` (78):
    /// operand 2 is a pointer to a fragment input (or an element of one), which `lower_io`
    /// turns into an interpolated input load.
    fn glsl_interpolate_at(&mut self, inst: &Instruction, n: u32) -> Result<(), CompileError> {
        let vt = self.rvt(inst)?;
        let leaf = |s: &mut Self, i: usize| match s.value(id(inst, i)?)? {
            Tree::Leaf(v) => Ok(v),
            Tree::Node(_) => Err(bad(inst, "aggregate operand")),
        };
        let ptr = leaf(self, 2)?;
        let at = match n {
            76 => InterpAt::Centroid,
            77 => InterpAt::Sample(leaf(self, 3)?),
            _ => InterpAt::Offset(leaf(self, 3)?),
        };
        let v = self.emit(InstKind::InterpolateAt { ptr, at }, vt);
        self.set(inst, Tree::Leaf(v))
    }
}
