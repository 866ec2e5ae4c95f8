//! Native scalar instructions: the 32-bit SALU operations programs spend their scalar time in,
//! moves, and branch conditions. Semantics follow `core::salu` operation by operation.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;
use ferrum_isa::tables::{Field, Form};
use ferrum_isa::{Inst, Opcode as O, Operand, Special};

use super::regcache::RegCache;
use super::translate::{Env, Regs};
use crate::core::wave::{f32_const, f64_const, EXEC_LO, M0, VCC_LO};

/// A 32-bit scalar source the translated code reads directly.
#[derive(Debug, Clone, Copy)]
pub(super) enum SSrc {
    Reg(usize),
    Const(u32),
}

/// Source operands read natively: SGPRs, VCC, M0, EXEC and constants (the interpreter's
/// `Wave::ssrc` for these cases; apertures, TTMPs and the rest go to the interpreter).
pub(super) fn ssrc(op: Operand) -> Option<SSrc> {
    Some(match op {
        Operand::Sgpr(n) if n <= 105 => SSrc::Reg(n as usize),
        Operand::Special(s) => match s {
            Special::VccLo => SSrc::Reg(VCC_LO),
            Special::VccHi => SSrc::Reg(VCC_LO + 1),
            Special::M0 => SSrc::Reg(M0),
            Special::ExecLo => SSrc::Reg(EXEC_LO),
            Special::ExecHi => SSrc::Reg(EXEC_LO + 1),
            Special::Null => SSrc::Const(0),
            _ => return None,
        },
        Operand::Int(i) => SSrc::Const(i as i32 as u32),
        Operand::Literal(v) => SSrc::Const(v),
        Operand::Float(c) => SSrc::Const(f32_const(c).to_bits()),
        _ => return None,
    })
}

/// A scalar destination: `Some(None)` discards (NULL).
pub(super) fn sdst(op: Operand) -> Option<Option<usize>> {
    Some(match op {
        Operand::Sgpr(n) if n <= 105 => Some(n as usize),
        Operand::Special(Special::VccLo) => Some(VCC_LO),
        Operand::Special(Special::VccHi) => Some(VCC_LO + 1),
        Operand::Special(Special::M0) => Some(M0),
        Operand::Special(Special::ExecLo) => Some(EXEC_LO),
        Operand::Special(Special::ExecHi) => Some(EXEC_LO + 1),
        Operand::Special(Special::Null) => None,
        _ => return None,
    })
}

/// A 64-bit source: a register pair or a constant extended as `Wave::ssrc64` does.
fn ssrc64(op: Operand) -> Option<(SSrc, SSrc)> {
    Some(match op {
        Operand::Sgpr(n) if n <= 104 => (SSrc::Reg(n as usize), SSrc::Reg(n as usize + 1)),
        Operand::Special(Special::VccLo) => (SSrc::Reg(VCC_LO), SSrc::Reg(VCC_LO + 1)),
        Operand::Special(Special::ExecLo) => (SSrc::Reg(EXEC_LO), SSrc::Reg(EXEC_LO + 1)),
        Operand::Special(Special::Null) => (SSrc::Const(0), SSrc::Const(0)),
        Operand::Int(i) => {
            let v = i as i64 as u64;
            (SSrc::Const(v as u32), SSrc::Const((v >> 32) as u32))
        }
        Operand::Literal(v) => (SSrc::Const(v), SSrc::Const(0)),
        Operand::Float(c) => {
            let v = f64_const(c).to_bits();
            (SSrc::Const(v as u32), SSrc::Const((v >> 32) as u32))
        }
        _ => return None,
    })
}

fn sdst64(op: Operand) -> Option<Option<usize>> {
    Some(match op {
        Operand::Sgpr(n) if n <= 104 => Some(n as usize),
        Operand::Special(Special::VccLo) => Some(VCC_LO),
        Operand::Special(Special::ExecLo) => Some(EXEC_LO),
        Operand::Special(Special::Null) => None,
        _ => return None,
    })
}

/// A planned native scalar instruction.
#[derive(Debug, Clone, Copy)]
pub(super) enum Salu {
    /// Two-source operation into `d` (and SCC as the opcode defines).
    Op2 {
        op: O,
        d: Option<usize>,
        a: SSrc,
        b: SSrc,
    },
    Mov64 {
        d: Option<usize>,
        lo: SSrc,
        hi: SSrc,
    },
    Cmp {
        op: O,
        a: SSrc,
        b: SSrc,
    },
    /// `s_*_saveexec_b32` / `s_*_wrexec_b32`: EXEC becomes `op(a, EXEC)`, SCC whether it is
    /// non-zero, `d` the old EXEC (saveexec) or the new one (wrexec).
    SaveExec {
        op: O,
        d: Option<usize>,
        a: SSrc,
    },
}

pub(super) fn plan(inst: &Inst, form: &Form) -> Option<Salu> {
    match inst {
        Inst::Sop2(i) if form.dwords(Field::Sdst) == 1 && op2_native(i.op) => {
            Some(Salu::Op2 { op: i.op, d: sdst(i.sdst)?, a: ssrc(i.ssrc0)?, b: ssrc(i.ssrc1)? })
        }
        Inst::Sop1(i) => match i.op {
            O::S_MOV_B32 | O::S_NOT_B32 => {
                Some(Salu::Op2 { op: i.op, d: sdst(i.sdst)?, a: ssrc(i.ssrc0)?, b: SSrc::Const(0) })
            }
            O::S_MOV_B64 => {
                let (lo, hi) = ssrc64(i.ssrc0)?;
                Some(Salu::Mov64 { d: sdst64(i.sdst)?, lo, hi })
            }
            op if save_exec_op(op).is_some() => {
                Some(Salu::SaveExec { op, d: sdst(i.sdst)?, a: ssrc(i.ssrc0)? })
            }
            _ => None,
        },
        Inst::Sopk(i) => {
            let imm = SSrc::Const(i.simm16 as i16 as i32 as u32);
            match i.op {
                O::S_MOVK_I32 => {
                    Some(Salu::Op2 { op: O::S_MOV_B32, d: sdst(i.sdst)?, a: imm, b: imm })
                }
                O::S_ADDK_I32 | O::S_MULK_I32 => {
                    let d = sdst(i.sdst)??;
                    let op = if i.op == O::S_ADDK_I32 { O::S_ADD_I32 } else { O::S_MUL_I32 };
                    Some(Salu::Op2 { op, d: Some(d), a: SSrc::Reg(d), b: imm })
                }
                _ => None,
            }
        }
        Inst::Sopc(i) if cmp_cond(i.op).is_some() => {
            Some(Salu::Cmp { op: i.op, a: ssrc(i.ssrc0)?, b: ssrc(i.ssrc1)? })
        }
        _ => None,
    }
}

/// The scalar registers a planned instruction reads and writes.
pub(super) fn regs(s: &Salu) -> Regs {
    let mut m = Regs::default();
    let src = |m: &mut Regs, x: SSrc| {
        if let SSrc::Reg(r) = x {
            m.sgpr(r);
        }
    };
    match *s {
        Salu::Op2 { d, a, b, .. } => {
            src(&mut m, a);
            src(&mut m, b);
            if let Some(d) = d {
                m.sgpr(d);
            }
        }
        Salu::Mov64 { d, lo, hi } => {
            src(&mut m, lo);
            src(&mut m, hi);
            if let Some(d) = d {
                m.sgpr(d);
                m.sgpr(d + 1);
            }
        }
        Salu::Cmp { a, b, .. } => {
            src(&mut m, a);
            src(&mut m, b);
        }
        Salu::SaveExec { d, a, .. } => {
            src(&mut m, a);
            m.sgpr(EXEC_LO);
            m.sgpr(EXEC_LO + 1);
            if let Some(d) = d {
                m.sgpr(d);
            }
        }
    }
    m
}

/// The operation of an EXEC-mask instruction on (source, EXEC) as (invert source, invert
/// EXEC, combine, invert result), and whether sdst receives the new EXEC (`core::salu`'s
/// `saveexec` table).
#[derive(Clone, Copy)]
enum Combine {
    And,
    Or,
    Xor,
}

fn save_exec_op(op: O) -> Option<(bool, bool, Combine, bool, bool)> {
    use Combine::*;
    Some(match op {
        O::S_AND_SAVEEXEC_B32 => (false, false, And, false, false),
        O::S_OR_SAVEEXEC_B32 => (false, false, Or, false, false),
        O::S_XOR_SAVEEXEC_B32 => (false, false, Xor, false, false),
        O::S_ANDN2_SAVEEXEC_B32 => (false, true, And, false, false),
        O::S_ORN2_SAVEEXEC_B32 => (false, true, Or, false, false),
        O::S_NAND_SAVEEXEC_B32 => (false, false, And, true, false),
        O::S_NOR_SAVEEXEC_B32 => (false, false, Or, true, false),
        O::S_XNOR_SAVEEXEC_B32 => (false, false, Xor, true, false),
        O::S_ANDN1_SAVEEXEC_B32 => (true, false, And, false, false),
        O::S_ORN1_SAVEEXEC_B32 => (true, false, Or, false, false),
        O::S_ANDN1_WREXEC_B32 => (true, false, And, false, true),
        O::S_ANDN2_WREXEC_B32 => (false, true, And, false, true),
        _ => return None,
    })
}

fn emit_save_exec(e: &mut Em, op: O, d: Option<usize>, a: SSrc) {
    let (not_a, not_exec, combine, not_r, wr) = save_exec_op(op).expect("planned saveexec");
    let x = e.read(a);
    let exec = e.rc.exec(e.b, e.env);
    let x = if not_a { e.b.ins().bnot(x) } else { x };
    let y = if not_exec { e.b.ins().bnot(exec) } else { exec };
    let r = match combine {
        Combine::And => e.b.ins().band(x, y),
        Combine::Or => e.b.ins().bor(x, y),
        Combine::Xor => e.b.ins().bxor(x, y),
    };
    let new = if not_r { e.b.ins().bnot(r) } else { r };
    // `Wave::set_exec`: the high half of a wave32 EXEC reads as zero.
    let zero = e.b.ins().iconst(types::I32, 0);
    e.rc.sset(EXEC_LO, new);
    e.rc.sset(EXEC_LO + 1, zero);
    let nz = e.b.ins().icmp_imm(IntCC::NotEqual, new, 0);
    e.rc.set_scc(nz);
    e.write(d, if wr { new } else { exec });
}

fn op2_native(op: O) -> bool {
    matches!(
        op,
        O::S_ADD_U32
            | O::S_SUB_U32
            | O::S_ADD_I32
            | O::S_SUB_I32
            | O::S_ADDC_U32
            | O::S_MIN_I32
            | O::S_MIN_U32
            | O::S_MAX_I32
            | O::S_MAX_U32
            | O::S_CSELECT_B32
            | O::S_AND_B32
            | O::S_OR_B32
            | O::S_XOR_B32
            | O::S_ANDN2_B32
            | O::S_ORN2_B32
            | O::S_NAND_B32
            | O::S_NOR_B32
            | O::S_XNOR_B32
            | O::S_LSHL_B32
            | O::S_LSHR_B32
            | O::S_ASHR_I32
            | O::S_MUL_I32
            | O::S_MUL_HI_U32
            | O::S_LSHL1_ADD_U32
            | O::S_LSHL2_ADD_U32
            | O::S_LSHL3_ADD_U32
            | O::S_LSHL4_ADD_U32
    )
}

fn cmp_cond(op: O) -> Option<IntCC> {
    Some(match op {
        O::S_CMP_EQ_I32 | O::S_CMP_EQ_U32 => IntCC::Equal,
        O::S_CMP_LG_I32 | O::S_CMP_LG_U32 => IntCC::NotEqual,
        O::S_CMP_GT_I32 => IntCC::SignedGreaterThan,
        O::S_CMP_GE_I32 => IntCC::SignedGreaterThanOrEqual,
        O::S_CMP_LT_I32 => IntCC::SignedLessThan,
        O::S_CMP_LE_I32 => IntCC::SignedLessThanOrEqual,
        O::S_CMP_GT_U32 => IntCC::UnsignedGreaterThan,
        O::S_CMP_GE_U32 => IntCC::UnsignedGreaterThanOrEqual,
        O::S_CMP_LT_U32 => IntCC::UnsignedLessThan,
        O::S_CMP_LE_U32 => IntCC::UnsignedLessThanOrEqual,
        _ => return None,
    })
}

/// The emitting state every native instruction works with.
pub(super) struct Em<'a, 'b> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub env: &'a Env,
    pub rc: &'a mut RegCache,
    /// The float mode flushes f32 denormals.
    pub ftz: bool,
}

impl Em<'_, '_> {
    pub fn read(&mut self, s: SSrc) -> Value {
        match s {
            SSrc::Reg(r) => self.rc.sget(self.b, self.env, r),
            SSrc::Const(c) => self.b.ins().iconst(types::I32, i64::from(c as i32)),
        }
    }

    pub fn write(&mut self, d: Option<usize>, v: Value) {
        if let Some(r) = d {
            self.rc.sset(r, v);
        }
    }

    fn read_scc(&mut self) -> Value {
        self.rc.scc(self.b, self.env)
    }
}

pub(super) fn emit(e: &mut Em, s: &Salu) {
    match *s {
        Salu::Mov64 { d, lo, hi } => {
            let (l, h) = (e.read(lo), e.read(hi));
            e.write(d, l);
            e.write(d.map(|r| r + 1), h);
        }
        Salu::Cmp { op, a, b: c } => {
            let (x, y) = (e.read(a), e.read(c));
            let cc = cmp_cond(op).expect("planned compare");
            let t = e.b.ins().icmp(cc, x, y);
            e.rc.set_scc(t);
        }
        Salu::SaveExec { op, d, a } => emit_save_exec(e, op, d, a),
        Salu::Op2 { op, d, a, b: c } => {
            let (x, y) = (e.read(a), e.read(c));
            let scc = matches!(op, O::S_ADDC_U32 | O::S_CSELECT_B32).then(|| e.read_scc());
            let (r, scc) = op2(e.b, scc, op, x, y);
            e.write(d, r);
            if let Some(t) = scc {
                e.rc.set_scc(t);
            }
        }
    }
}

/// Result and new SCC (an i8 0/1) of a two-source operation; `scc`: the old SCC for the
/// operations that read it.
fn op2(
    b: &mut FunctionBuilder,
    scc: Option<Value>,
    op: O,
    x: Value,
    y: Value,
) -> (Value, Option<Value>) {
    let nz = |b: &mut FunctionBuilder, r: Value| (r, Some(b.ins().icmp_imm(IntCC::NotEqual, r, 0)));
    match op {
        O::S_MOV_B32 => (x, None),
        O::S_NOT_B32 => {
            let r = b.ins().bnot(x);
            nz(b, r)
        }
        O::S_ADD_U32 => {
            let r = b.ins().iadd(x, y);
            (r, Some(b.ins().icmp(IntCC::UnsignedLessThan, r, x)))
        }
        O::S_SUB_U32 => {
            let r = b.ins().isub(x, y);
            (r, Some(b.ins().icmp(IntCC::UnsignedGreaterThan, y, x)))
        }
        O::S_ADD_I32 | O::S_SUB_I32 => {
            let (r, o) = if op == O::S_ADD_I32 {
                b.ins().sadd_overflow(x, y)
            } else {
                b.ins().ssub_overflow(x, y)
            };
            (r, Some(o))
        }
        O::S_ADDC_U32 => {
            let c = scc.expect("read for S_ADDC_U32");
            let c = b.ins().uextend(types::I64, c);
            let (x64, y64) = (b.ins().uextend(types::I64, x), b.ins().uextend(types::I64, y));
            let s = b.ins().iadd(x64, y64);
            let s = b.ins().iadd(s, c);
            let r = b.ins().ireduce(types::I32, s);
            let hi = b.ins().ushr_imm(s, 32);
            (r, Some(b.ins().icmp_imm(IntCC::NotEqual, hi, 0)))
        }
        O::S_MIN_I32 => (b.ins().smin(x, y), Some(b.ins().icmp(IntCC::SignedLessThan, x, y))),
        O::S_MIN_U32 => (b.ins().umin(x, y), Some(b.ins().icmp(IntCC::UnsignedLessThan, x, y))),
        O::S_MAX_I32 => (b.ins().smax(x, y), Some(b.ins().icmp(IntCC::SignedGreaterThan, x, y))),
        O::S_MAX_U32 => (b.ins().umax(x, y), Some(b.ins().icmp(IntCC::UnsignedGreaterThan, x, y))),
        O::S_CSELECT_B32 => {
            let c = scc.expect("read for S_CSELECT_B32");
            (b.ins().select(c, x, y), None)
        }
        O::S_AND_B32 => {
            let r = b.ins().band(x, y);
            nz(b, r)
        }
        O::S_OR_B32 => {
            let r = b.ins().bor(x, y);
            nz(b, r)
        }
        O::S_XOR_B32 => {
            let r = b.ins().bxor(x, y);
            nz(b, r)
        }
        O::S_ANDN2_B32 => {
            let r = b.ins().band_not(x, y);
            nz(b, r)
        }
        O::S_ORN2_B32 => {
            let r = b.ins().bor_not(x, y);
            nz(b, r)
        }
        O::S_NAND_B32 => {
            let r = b.ins().band(x, y);
            let r = b.ins().bnot(r);
            nz(b, r)
        }
        O::S_NOR_B32 => {
            let r = b.ins().bor(x, y);
            let r = b.ins().bnot(r);
            nz(b, r)
        }
        O::S_XNOR_B32 => {
            let r = b.ins().bxor(x, y);
            let r = b.ins().bnot(r);
            nz(b, r)
        }
        // Cranelift masks shift amounts by the type width, as the hardware uses b[4:0].
        O::S_LSHL_B32 => {
            let r = b.ins().ishl(x, y);
            nz(b, r)
        }
        O::S_LSHR_B32 => {
            let r = b.ins().ushr(x, y);
            nz(b, r)
        }
        O::S_ASHR_I32 => {
            let r = b.ins().sshr(x, y);
            nz(b, r)
        }
        O::S_MUL_I32 => (b.ins().imul(x, y), None),
        O::S_MUL_HI_U32 => (b.ins().umulhi(x, y), None),
        O::S_LSHL1_ADD_U32 | O::S_LSHL2_ADD_U32 | O::S_LSHL3_ADD_U32 | O::S_LSHL4_ADD_U32 => {
            let n = match op {
                O::S_LSHL1_ADD_U32 => 1,
                O::S_LSHL2_ADD_U32 => 2,
                O::S_LSHL3_ADD_U32 => 3,
                _ => 4,
            };
            let (x64, y64) = (b.ins().uextend(types::I64, x), b.ins().uextend(types::I64, y));
            let s = b.ins().ishl_imm(x64, n);
            let s = b.ins().iadd(s, y64);
            let r = b.ins().ireduce(types::I32, s);
            let hi = b.ins().ushr_imm(s, 32);
            (r, Some(b.ins().icmp_imm(IntCC::NotEqual, hi, 0)))
        }
        _ => unreachable!("op2_native admitted {op:?}"),
    }
}

/// A conditional branch's condition.
#[derive(Debug, Clone, Copy)]
pub(super) enum Cond {
    Scc(bool),
    VccZero(bool),
    ExecZero(bool),
}

pub(super) fn branch_cond(op: O) -> Option<Cond> {
    Some(match op {
        O::S_CBRANCH_SCC0 => Cond::Scc(false),
        O::S_CBRANCH_SCC1 => Cond::Scc(true),
        O::S_CBRANCH_VCCZ => Cond::VccZero(true),
        O::S_CBRANCH_VCCNZ => Cond::VccZero(false),
        O::S_CBRANCH_EXECZ => Cond::ExecZero(true),
        O::S_CBRANCH_EXECNZ => Cond::ExecZero(false),
        _ => return None,
    })
}

/// The branch condition as an integer (nonzero: taken).
pub(super) fn branch_test(e: &mut Em, c: Cond) -> Value {
    let zero_test = |e: &mut Em, reg: usize, zero: bool| {
        let v = e.rc.sget(e.b, e.env, reg);
        let cc = if zero { IntCC::Equal } else { IntCC::NotEqual };
        e.b.ins().icmp_imm(cc, v, 0)
    };
    match c {
        Cond::Scc(set) => {
            let v = e.read_scc();
            if set {
                v
            } else {
                e.b.ins().icmp_imm(IntCC::Equal, v, 0)
            }
        }
        Cond::VccZero(z) => zero_test(e, VCC_LO, z),
        Cond::ExecZero(z) => zero_test(e, EXEC_LO, z),
    }
}
