//! GLSL.std.450 `Determinant` and `MatrixInverse` on 2x2, 3x3 and 4x4 matrices of any float
//! width, expanded into scalar arithmetic by cofactors: the determinant along the first
//! column, the inverse as the transposed cofactor matrix over the determinant. Matrices are
//! trees of column vectors, so `m[c][r]` below is column c, row r.

use rspirv::dr::Instruction;

use super::function::{FnCtx, Tree};
use super::operands::{bad, id};
use crate::error::CompileError;
use crate::ir::{AluOp, Value, ValueType};

/// A square matrix as scalars, column-major.
type Scalars = Vec<Vec<Value>>;

impl FnCtx<'_, '_> {
    /// Translates GLSL.std.450 33 (Determinant) or 34 (MatrixInverse).
    pub fn glsl_matrix(&mut self, inst: &Instruction, n: u32) -> Result<(), CompileError> {
        let cols = match self.value(id(inst, 2)?)? {
            Tree::Node(c) => c,
            Tree::Leaf(_) => return Err(bad(inst, "matrix operand is not a matrix")),
        };
        let mut m: Scalars = Vec::new();
        for c in &cols {
            let Tree::Leaf(v) = c else { return Err(bad(inst, "matrix column is an aggregate")) };
            let (_, rows) = self.f.ty(*v).shape();
            m.push((0..u32::from(rows)).map(|r| self.comp(*v, r)).collect());
        }
        let size = m.len();
        if !(2..=4).contains(&size) || m.iter().any(|c| c.len() != size) {
            return Err(bad(inst, "determinant or inverse of a matrix that is not square"));
        }
        let bits = self.f.ty(m[0][0]).shape().0;
        let det = self.det(&m, bits);
        if n == 33 {
            return self.set(inst, Tree::Leaf(det));
        }
        let s = ValueType::data(bits, 1);
        let one = self.imm(bits, crate::ir::ops::from_f64(1.0, bits));
        let rdet = self.alu(AluOp::Fdiv, s, vec![one, det]);
        let mut out = Vec::new();
        for c in 0..size {
            let mut col = Vec::new();
            for r in 0..size {
                // inverse[c][r] = cofactor of m[r][c] / det
                let minor = self.det(&minor(&m, r, c), bits);
                let cof =
                    if (r + c) % 2 == 1 { self.alu(AluOp::Fneg, s, vec![minor]) } else { minor };
                col.push(self.alu(AluOp::Fmul, s, vec![cof, rdet]));
            }
            let vt = ValueType::data(bits, size as u8);
            out.push(Tree::Leaf(self.alu(AluOp::Vec, vt, col)));
        }
        self.set(inst, Tree::Node(out))
    }

    /// The determinant, expanded along the first column.
    fn det(&mut self, m: &Scalars, bits: u8) -> Value {
        let s = ValueType::data(bits, 1);
        if m.len() == 1 {
            return m[0][0];
        }
        if m.len() == 2 {
            let a = self.alu(AluOp::Fmul, s, vec![m[0][0], m[1][1]]);
            let b = self.alu(AluOp::Fmul, s, vec![m[1][0], m[0][1]]);
            return self.alu(AluOp::Fsub, s, vec![a, b]);
        }
        let mut acc: Option<Value> = None;
        for r in 0..m.len() {
            let sub = self.det(&minor(m, 0, r), bits);
            let t = self.alu(AluOp::Fmul, s, vec![m[0][r], sub]);
            acc = Some(match acc {
                None => t,
                Some(a) if r % 2 == 1 => self.alu(AluOp::Fsub, s, vec![a, t]),
                Some(a) => self.alu(AluOp::Fadd, s, vec![a, t]),
            });
        }
        acc.expect("at least two rows")
    }
}

/// `m` without column `col` and row `row`.
fn minor(m: &Scalars, col: usize, row: usize) -> Scalars {
    m.iter()
        .enumerate()
        .filter(|&(c, _)| c != col)
        .map(|(_, v)| v.iter().enumerate().filter(|&(r, _)| r != row).map(|(_, &x)| x).collect())
        .collect()
}
