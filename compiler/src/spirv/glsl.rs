//! `GLSL.std.450` extended instructions, expanded into IR ALU ops.

use rspirv::dr::Instruction;

use super::function::{FnCtx, Tree};
use super::operands::{bad, id};
use crate::error::CompileError;
use crate::ir::{ops, AluOp, Value, ValueType};

impl FnCtx<'_, '_> {
    fn fconst(&mut self, bits: u8, n: u8, f: f64) -> Value {
        let c = self.imm(bits, ops::from_f64(f, bits));
        self.splat(c, n)
    }

    /// Translates GLSL.std.450 instruction number `n`.
    pub fn glsl_inst(&mut self, inst: &Instruction, n: u32) -> Result<(), CompileError> {
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
        let (bits, comps) = vt.shape();
        let un = |s: &mut Self, op: AluOp| s.alu(op, vt, vec![a[0]]);
        let v = match n {
            1 => un(self, AluOp::Fround),
            2 => un(self, AluOp::FroundEven),
            3 => un(self, AluOp::Ftrunc),
            4 => un(self, AluOp::Fabs),
            5 => un(self, AluOp::Iabs),
            6 => un(self, AluOp::Fsign),
            7 => un(self, AluOp::Isign),
            8 => un(self, AluOp::Ffloor),
            9 => un(self, AluOp::Fceil),
            10 => un(self, AluOp::Ffract),
            13 => un(self, AluOp::Fsin),
            14 => un(self, AluOp::Fcos),
            15 => un(self, AluOp::Ftan),
            16 => un(self, AluOp::Fasin),
            17 => un(self, AluOp::Facos),
            18 => un(self, AluOp::Fatan),
            25 => {
                need(2)?;
                self.alu(AluOp::Fatan2, vt, vec![a[0], a[1]])
            }
            26 => {
                need(2)?;
                self.alu(AluOp::Fpow, vt, vec![a[0], a[1]])
            }
            27 => un(self, AluOp::Fexp),
            28 => un(self, AluOp::Flog),
            29 => un(self, AluOp::Fexp2),
            30 => un(self, AluOp::Flog2),
            31 => un(self, AluOp::Fsqrt),
            32 => un(self, AluOp::Frsq),
            37 | 38 | 39 | 40 | 41 | 42 | 79 | 80 => {
                need(2)?;
                let op = match n {
                    37 | 79 => AluOp::Fmin,
                    38 => AluOp::Umin,
                    39 => AluOp::Imin,
                    40 | 80 => AluOp::Fmax,
                    41 => AluOp::Umax,
                    _ => AluOp::Imax,
                };
                self.alu(op, vt, vec![a[0], a[1]])
            }
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
            73 => un(self, AluOp::FindLsb),
            74 => un(self, AluOp::IfindMsb),
            75 => un(self, AluOp::UfindMsb),
            other => {
                return Err(crate::error::CompileError::unsupported(
                    "OpExtInst",
                    format!("GLSL.std.450 instruction {other}"),
                ))
            }
        };
        self.set(inst, Tree::Leaf(v))
    }
}
