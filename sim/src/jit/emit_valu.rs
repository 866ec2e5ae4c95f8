//! Native vector instructions: one wave's 32 lanes as eight 4-lane host vectors.
//!
//! Only plain 32-bit forms are native (no DPP/SDWA, no abs/neg/opsel/clamp/omod); f32
//! arithmetic only when the float mode is known at translation and rounds to nearest even.
//! Each operation mirrors its lane function in `core::valu_*`, including the denormal
//! flushing the interpreter applies to f32 inputs and results (`F32::get`/`F32::put`).

use std::collections::BTreeSet;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, BlockArg, Endianness, InstBuilder, MemFlags, Type, Value};
use cranelift_frontend::FunctionBuilder;
use ferrum_isa::{Ext, Opcode as O, Operand};

use super::cache::Key;
use super::emit_salu::{self, Em, SSrc};
use super::regcache::{lane_mask, Row, CHUNKS, I32X4};
use super::translate::Regs;
use crate::core::valu::{Ty, Valu};
use crate::core::valu_ops::Cond;
use crate::core::wave::{EXEC_LO, VCC_LO};

const F32X4: Type = types::F32X4;

#[derive(Debug, Clone, Copy)]
pub(super) enum VSrc {
    V(u32),
    S(SSrc),
}

#[derive(Debug, Clone, Copy)]
pub(super) enum VDst {
    /// A VGPR, and for carry-out operations the scalar register of the carry mask.
    Vgpr(u32, Option<Option<usize>>),
    /// A compare mask into EXEC (`v_cmpx`) or a scalar register.
    Mask { to_exec: bool, d: Option<usize> },
}

#[derive(Debug, Clone, Copy)]
pub(super) struct VPlan {
    op: O,
    cmp: Option<(Cond, Ty)>,
    src: [VSrc; 3],
    dst: VDst,
}

/// Number of sources an opcode reads natively; `None`: not native.
fn arity(op: O, floats: bool) -> Option<usize> {
    let int = match op {
        O::V_MOV_B32 | O::V_NOT_B32 => 1,
        O::V_ADD_NC_U32
        | O::V_SUB_NC_U32
        | O::V_SUBREV_NC_U32
        | O::V_AND_B32
        | O::V_OR_B32
        | O::V_XOR_B32
        | O::V_XNOR_B32
        | O::V_MUL_LO_U32
        | O::V_MUL_U32_U24
        | O::V_MIN_I32
        | O::V_MAX_I32
        | O::V_MIN_U32
        | O::V_MAX_U32
        | O::V_LSHLREV_B32
        | O::V_LSHRREV_B32
        | O::V_ASHRREV_I32
        | O::V_ADD_CO_U32 => 2,
        O::V_CNDMASK_B32
        | O::V_ADD_CO_CI_U32
        | O::V_MAD_U32_U24
        | O::V_LSHL_ADD_U32
        | O::V_LSHL_OR_B32
        | O::V_ADD3_U32
        | O::V_AND_OR_B32
        | O::V_OR3_B32
        | O::V_XAD_U32 => 3,
        _ => 0,
    };
    if int > 0 {
        return Some(int);
    }
    if !floats {
        return None;
    }
    Some(match op {
        O::V_CVT_F32_U32 | O::V_CVT_F32_I32 | O::V_CVT_U32_F32 | O::V_CVT_I32_F32 => 1,
        O::V_ADD_F32 | O::V_SUB_F32 | O::V_SUBREV_F32 | O::V_MUL_F32 => 2,
        O::V_FMA_F32 | O::V_FMAC_F32 | O::V_FMAMK_F32 | O::V_FMAAK_F32 => 3,
        _ => return None,
    })
}

fn vsrc(op: Operand, vgprs: u32) -> Option<VSrc> {
    match op {
        Operand::Vgpr(r) if u32::from(r) < vgprs => Some(VSrc::V(u32::from(r))),
        Operand::Vgpr(_) => None,
        op => emit_salu::ssrc(op).map(VSrc::S),
    }
}

fn int_cc(c: Cond, signed: bool) -> Option<IntCC> {
    Some(match (c, signed) {
        (Cond::Eq, _) => IntCC::Equal,
        (Cond::Ne, _) => IntCC::NotEqual,
        (Cond::Lt, true) => IntCC::SignedLessThan,
        (Cond::Le, true) => IntCC::SignedLessThanOrEqual,
        (Cond::Gt, true) => IntCC::SignedGreaterThan,
        (Cond::Ge, true) => IntCC::SignedGreaterThanOrEqual,
        (Cond::Lt, false) => IntCC::UnsignedLessThan,
        (Cond::Le, false) => IntCC::UnsignedLessThanOrEqual,
        (Cond::Gt, false) => IntCC::UnsignedGreaterThan,
        (Cond::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
        _ => return None,
    })
}

fn float_cc(c: Cond) -> Option<FloatCC> {
    Some(match c {
        Cond::Lt => FloatCC::LessThan,
        Cond::Le => FloatCC::LessThanOrEqual,
        Cond::Gt => FloatCC::GreaterThan,
        Cond::Ge => FloatCC::GreaterThanOrEqual,
        Cond::Eq => FloatCC::Equal,
        Cond::Ne => FloatCC::OrderedNotEqual,
        Cond::Neq => FloatCC::NotEqual,
        Cond::O => FloatCC::Ordered,
        Cond::U => FloatCC::Unordered,
        _ => return None,
    })
}

/// Decides whether `v` is native; `floats`: f32 arithmetic may be native.
pub(super) fn plan(v: &Valu, key: Key, floats: bool) -> Option<VPlan> {
    if v.ext != Ext::None || v.abs | v.neg | v.opsel | v.omod != 0 || v.clamp {
        return None;
    }
    let (n, dst) = if let Some((cond, ty)) = v.cmp {
        match ty {
            Ty::I32 => int_cc(cond, true)?,
            Ty::U32 | Ty::B32 => int_cc(cond, false)?,
            Ty::F32 if floats => {
                float_cc(cond)?;
                IntCC::Equal
            }
            _ => return None,
        };
        let d = match (v.to_exec, v.sdst) {
            (true, _) => None,
            (false, None) => Some(VCC_LO),
            (false, Some(op)) => emit_salu::sdst(op)?,
        };
        (2, VDst::Mask { to_exec: v.to_exec, d })
    } else {
        let n = arity(v.op, floats)?;
        if v.dst_bits != 32 {
            return None;
        }
        let Operand::Vgpr(d) = v.vdst else { return None };
        if u32::from(d) >= key.vgprs {
            return None;
        }
        let carry = match v.op {
            O::V_ADD_CO_U32 | O::V_ADD_CO_CI_U32 => Some(match v.sdst {
                None => Some(VCC_LO),
                Some(op) => emit_salu::sdst(op)?,
            }),
            _ => None,
        };
        (n, VDst::Vgpr(u32::from(d), carry))
    };
    let mut src = [VSrc::S(SSrc::Const(0)); 3];
    for (k, slot) in src.iter_mut().enumerate().take(n) {
        if v.bits[k] != 32 {
            return None;
        }
        *slot = vsrc(v.src[k], key.vgprs)?;
    }
    // Lane masks (carry-in, select) and per-lane-uniform shift amounts must be scalars.
    let scalar = |s: VSrc| matches!(s, VSrc::S(_));
    match v.op {
        O::V_CNDMASK_B32 | O::V_ADD_CO_CI_U32 if !scalar(src[2]) => return None,
        O::V_LSHLREV_B32 | O::V_LSHRREV_B32 | O::V_ASHRREV_I32 if !scalar(src[0]) => return None,
        O::V_LSHL_ADD_U32 | O::V_LSHL_OR_B32 if !scalar(src[1]) => return None,
        _ => {}
    }
    Some(VPlan { op: v.op, cmp: v.cmp, src, dst })
}

/// Whether the instruction writes a VGPR (under EXEC).
pub(super) fn writes_vgpr(p: &VPlan) -> bool {
    matches!(p.dst, VDst::Vgpr(..))
}

/// The registers a planned instruction reads and writes (sources beyond its arity are
/// constants, so all three slots can be visited).
pub(super) fn regs(p: &VPlan) -> Regs {
    let mut m = Regs::default();
    for s in p.src {
        match s {
            VSrc::V(r) => m.vgpr(r),
            VSrc::S(SSrc::Reg(r)) => m.sgpr(r),
            VSrc::S(SSrc::Const(_)) => {}
        }
    }
    let sdst = match p.dst {
        VDst::Vgpr(d, carry) => {
            m.vgpr(d);
            carry.flatten()
        }
        VDst::Mask { d, .. } => d,
    };
    if let Some(r) = sdst {
        m.sgpr(r);
        m.sgpr(r + 1);
    }
    m
}

impl Em<'_, '_> {
    fn splat(&mut self, x: Value) -> Row {
        let v = self.b.ins().splat(I32X4, x);
        [v; CHUNKS]
    }

    fn konst(&mut self, c: u32) -> Row {
        let x = self.b.ins().iconst(types::I32, i64::from(c as i32));
        self.splat(x)
    }

    fn load(&mut self, s: VSrc) -> Row {
        match s {
            VSrc::V(r) => self.rc.vget(self.b, self.env, r).0,
            VSrc::S(s) => {
                let x = self.read(s);
                self.splat(x)
            }
        }
    }

    /// A source as f32 input: denormals flushed when the mode flushes, unless the value is
    /// known to be flushed already (a constant, or the result of a flushing operation).
    fn fload(&mut self, s: VSrc) -> Row {
        let ftz = self.ftz;
        match s {
            VSrc::V(r) => {
                let (row, flushed) = self.rc.vget(self.b, self.env, r);
                if flushed || !ftz {
                    return row;
                }
                self.map1(&row, |b, x| flush(b, true, x))
            }
            VSrc::S(SSrc::Const(c)) => {
                let c = if ftz && c & 0x7f80_0000 == 0 { c & 0x8000_0000 } else { c };
                self.konst(c)
            }
            VSrc::S(s) => {
                let x = self.read(s);
                let x = if ftz { flush_scalar(self.b, x) } else { x };
                self.splat(x)
            }
        }
    }

    /// The scalar value of a scalar source (shift amounts, lane masks).
    fn scalar(&mut self, s: VSrc) -> Value {
        match s {
            VSrc::S(s) => self.read(s),
            VSrc::V(_) => unreachable!("planned as a scalar"),
        }
    }

    fn map1(&mut self, a: &Row, f: impl Fn(&mut FunctionBuilder, Value) -> Value) -> Row {
        std::array::from_fn(|c| f(self.b, a[c]))
    }

    fn map2(
        &mut self,
        a: &Row,
        b: &Row,
        f: impl Fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Row {
        std::array::from_fn(|c| f(self.b, a[c], b[c]))
    }

    fn map3(
        &mut self,
        a: &Row,
        b: &Row,
        x: &Row,
        f: impl Fn(&mut FunctionBuilder, Value, Value, Value) -> Value,
    ) -> Row {
        std::array::from_fn(|c| f(self.b, a[c], b[c], x[c]))
    }

    /// A lane-mask vector (all ones / zero per lane) to the 4 mask bits of chunk `c`.
    fn bits(&mut self, m: &Row) -> Value {
        let mut acc = self.b.ins().iconst(types::I32, 0);
        for (c, v) in m.iter().enumerate() {
            let hb = self.b.ins().vhigh_bits(types::I32, *v);
            let hb = self.b.ins().ishl_imm(hb, 4 * c as i64);
            acc = self.b.ins().bor(acc, hb);
        }
        acc
    }

    fn exec(&mut self) -> Value {
        self.rc.exec(self.b, self.env)
    }

    /// An f32 operation on flushed operand rows: the host operation per chunk, the NaN
    /// operand rule (on a cold path taken only when some lane's result is NaN), then the
    /// output flush.
    fn float_op(
        &mut self,
        ops: &[Row],
        f: impl Fn(&mut FunctionBuilder, &[Value]) -> Value,
    ) -> Row {
        let b = &mut *self.b;
        let rf: [Value; CHUNKS] = std::array::from_fn(|c| {
            let args: Vec<Value> = ops.iter().map(|o| cast(b, F32X4, o[c])).collect();
            f(b, &args)
        });
        // One unordered compare tests two chunks: a lane is set when either holds a NaN.
        let mut nan_any = None;
        for pair in rf.chunks(2) {
            let nan = b.ins().fcmp(FloatCC::Unordered, pair[0], pair[1]);
            nan_any = Some(match nan_any {
                Some(a) => b.ins().bor(a, nan),
                None => nan,
            });
        }
        let r: Row = std::array::from_fn(|c| cast(b, I32X4, rf[c]));
        let any = b.ins().vany_true(nan_any.expect("eight chunks"));
        let (fix, join) = (b.create_block(), b.create_block());
        for _ in 0..CHUNKS {
            b.append_block_param(join, I32X4);
        }
        let args: Vec<BlockArg> = r.iter().map(|v| BlockArg::Value(*v)).collect();
        b.set_cold_block(fix);
        b.ins().brif(any, fix, &[], join, &args);
        b.switch_to_block(fix);
        let fixed: Vec<BlockArg> = (0..CHUNKS)
            .map(|c| {
                let x: Vec<Value> = ops.iter().map(|o| o[c]).collect();
                BlockArg::Value(nan_operand(b, r[c], &x))
            })
            .collect();
        b.ins().jump(join, &fixed);
        b.switch_to_block(join);
        let params = b.block_params(join).to_vec();
        let ftz = self.ftz;
        std::array::from_fn(|c| flush(self.b, ftz, params[c]))
    }
}

fn zero_vec(b: &mut FunctionBuilder) -> Value {
    let z = b.ins().iconst(types::I32, 0);
    b.ins().splat(I32X4, z)
}

/// Little-endian lane reinterpretation between I32X4 and F32X4.
fn cast(b: &mut FunctionBuilder, ty: Type, x: Value) -> Value {
    b.ins().bitcast(ty, MemFlags::new().with_endianness(Endianness::Little), x)
}

/// `F32::get`/`F32::put` with flushing: a zero exponent keeps only the sign.
fn flush(b: &mut FunctionBuilder, ftz: bool, x: Value) -> Value {
    if !ftz {
        return x;
    }
    let e = b.ins().iconst(types::I32, 0x7f80_0000);
    let e = b.ins().splat(I32X4, e);
    let s = b.ins().iconst(types::I32, 0x8000_0000u32 as i32 as i64);
    let s = b.ins().splat(I32X4, s);
    let exp = b.ins().band(x, e);
    let zero = zero_vec(b);
    let den = b.ins().icmp(IntCC::Equal, exp, zero);
    let sign = b.ins().band(x, s);
    b.ins().bitselect(den, sign, x)
}

/// [`flush`] of one scalar.
fn flush_scalar(b: &mut FunctionBuilder, x: Value) -> Value {
    let exp = b.ins().band_imm(x, 0x7f80_0000);
    let den = b.ins().icmp_imm(IntCC::Equal, exp, 0);
    let sign = b.ins().band_imm(x, 0x8000_0000u32 as i32 as i64);
    b.ins().select(den, sign, x)
}

/// `valu_ops::nan_operand`: lanes with a NaN operand take the first one, quieted, in place
/// of whatever NaN the host operation chose.
fn nan_operand(b: &mut FunctionBuilder, r: Value, ops: &[Value]) -> Value {
    let q = b.ins().iconst(types::I32, 0x0040_0000);
    let q = b.ins().splat(I32X4, q);
    // Last operand first, so that earlier operands take precedence.
    ops.iter().rev().fold(r, |r, &x| {
        let f = cast(b, F32X4, x);
        let nan = b.ins().fcmp(FloatCC::Unordered, f, f);
        let quiet = b.ins().bor(x, q);
        b.ins().bitselect(nan, quiet, r)
    })
}

fn sign_flip(b: &mut FunctionBuilder, x: Value) -> Value {
    let s = b.ins().iconst(types::I32, 0x8000_0000u32 as i32 as i64);
    let s = b.ins().splat(I32X4, s);
    b.ins().bxor(x, s)
}

pub(super) fn emit(e: &mut Em, p: &VPlan) {
    if let VDst::Mask { to_exec, d } = p.dst {
        let mask = compare(e, p);
        let exec = e.exec();
        let mask = e.b.ins().band(mask, exec);
        if to_exec {
            let zero = e.b.ins().iconst(types::I32, 0);
            e.write(Some(EXEC_LO), mask);
            e.write(Some(EXEC_LO + 1), zero);
        } else {
            e.write(d, mask);
        }
        return;
    }
    let VDst::Vgpr(d, carry) = p.dst else { unreachable!() };
    let (row, cmask) = compute(e, p);
    if let (Some(dst), Some(m)) = (carry, cmask) {
        let bits = e.bits(&m);
        let exec = e.exec();
        let bits = e.b.ins().band(bits, exec);
        e.write(dst, bits);
    }
    let flushed = e.ftz && (is_float(p.op) || p.op == O::V_MOV_B32 && e.flushed(p.src[0]));
    e.rc.vset(e.b, e.env, d, &row, flushed);
}

impl Em<'_, '_> {
    /// Whether a source's active lanes hold f32 values that flushing leaves unchanged (so a
    /// move passes the knowledge on).
    fn flushed(&mut self, s: VSrc) -> bool {
        match s {
            VSrc::V(r) => self.rc.vget(self.b, self.env, r).1,
            VSrc::S(s) => scalar_flushed(s),
        }
    }
}

/// Whether a scalar source is an f32 that flushing leaves unchanged (a constant that is
/// normal, zero, infinite or NaN; a register is not known).
fn scalar_flushed(s: SSrc) -> bool {
    match s {
        SSrc::Const(c) => c & 0x7f80_0000 != 0 || c & 0x7fff_ffff == 0,
        SSrc::Reg(_) => false,
    }
}

/// What [`emit`] records about flushed VGPRs, on a set of VGPRs known to hold flushed f32
/// values in the lanes EXEC enables (the dataflow of `super::flushed`): an EXEC write
/// forgets all, a written VGPR is flushed exactly when `emit` marks it so.
pub(super) fn flush_transfer(p: &VPlan, ftz: bool, set: &mut BTreeSet<u32>) {
    match p.dst {
        VDst::Mask { to_exec, d } => {
            if to_exec || d == Some(EXEC_LO) {
                set.clear();
            }
        }
        VDst::Vgpr(d, carry) => {
            // The carry mask is written first (see `emit`).
            if carry == Some(Some(EXEC_LO)) {
                set.clear();
            }
            let src = match p.src[0] {
                VSrc::V(r) => set.contains(&r),
                VSrc::S(s) => scalar_flushed(s),
            };
            if ftz && (is_float(p.op) || p.op == O::V_MOV_B32 && src) {
                set.insert(d);
            } else {
                set.remove(&d);
            }
        }
    }
}

/// Operations whose result went through the output flush.
fn is_float(op: O) -> bool {
    matches!(
        op,
        O::V_CVT_F32_U32
            | O::V_CVT_F32_I32
            | O::V_ADD_F32
            | O::V_SUB_F32
            | O::V_SUBREV_F32
            | O::V_MUL_F32
            | O::V_FMA_F32
            | O::V_FMAC_F32
            | O::V_FMAMK_F32
            | O::V_FMAAK_F32
    )
}

/// The compare mask (before EXEC).
fn compare(e: &mut Em, p: &VPlan) -> Value {
    let (cond, ty) = p.cmp.expect("planned compare");
    let m: Row = match ty {
        Ty::F32 => {
            let (a, b) = (e.fload(p.src[0]), e.fload(p.src[1]));
            let cc = float_cc(cond).expect("planned");
            e.map2(&a, &b, |b, x, y| {
                let (x, y) = (cast(b, F32X4, x), cast(b, F32X4, y));
                if cc == FloatCC::OrderedNotEqual {
                    // x64 has no vector `one`: ordered and not equal.
                    let o = b.ins().fcmp(FloatCC::Ordered, x, y);
                    let ne = b.ins().fcmp(FloatCC::NotEqual, x, y);
                    b.ins().band(o, ne)
                } else {
                    b.ins().fcmp(cc, x, y)
                }
            })
        }
        ty => {
            let (a, b) = (e.load(p.src[0]), e.load(p.src[1]));
            let cc = int_cc(cond, ty == Ty::I32).expect("planned");
            e.map2(&a, &b, |b, x, y| b.ins().icmp(cc, x, y))
        }
    };
    e.bits(&m)
}

/// The result row, and for carry-out operations the per-lane carry as a lane mask.
fn compute(e: &mut Em, p: &VPlan) -> (Row, Option<Row>) {
    let ftz = e.ftz;
    let r = match p.op {
        O::V_MOV_B32 => e.load(p.src[0]),
        O::V_NOT_B32 => {
            let a = e.load(p.src[0]);
            e.map1(&a, |b, x| b.ins().bnot(x))
        }
        O::V_CVT_F32_U32 | O::V_CVT_F32_I32 => {
            let a = e.load(p.src[0]);
            e.map1(&a, |b, x| {
                let f = if p.op == O::V_CVT_F32_U32 {
                    b.ins().fcvt_from_uint(F32X4, x)
                } else {
                    b.ins().fcvt_from_sint(F32X4, x)
                };
                let r = cast(b, I32X4, f);
                flush(b, ftz, r)
            })
        }
        O::V_CVT_U32_F32 | O::V_CVT_I32_F32 => {
            let a = e.fload(p.src[0]);
            e.map1(&a, |b, x| {
                let f = cast(b, F32X4, x);
                if p.op == O::V_CVT_U32_F32 {
                    b.ins().fcvt_to_uint_sat(I32X4, f)
                } else {
                    b.ins().fcvt_to_sint_sat(I32X4, f)
                }
            })
        }
        O::V_LSHLREV_B32 | O::V_LSHRREV_B32 | O::V_ASHRREV_I32 => {
            let amount = e.scalar(p.src[0]);
            let y = e.load(p.src[1]);
            e.map1(&y, |b, x| match p.op {
                O::V_LSHLREV_B32 => b.ins().ishl(x, amount),
                O::V_LSHRREV_B32 => b.ins().ushr(x, amount),
                _ => b.ins().sshr(x, amount),
            })
        }
        O::V_ADD_CO_U32 | O::V_ADD_CO_CI_U32 => return add_carry(e, p),
        O::V_ADD_F32 | O::V_SUB_F32 | O::V_SUBREV_F32 | O::V_MUL_F32 => float2(e, p),
        op if arity(op, true) == Some(2) => {
            let (a, y) = (e.load(p.src[0]), e.load(p.src[1]));
            binary(e, op, &a, &y)
        }
        op => return (ternary(e, op, p), None),
    };
    (r, None)
}

/// f32 add, subtract and multiply.
fn float2(e: &mut Em, p: &VPlan) -> Row {
    let (x, y) = (e.fload(p.src[0]), e.fload(p.src[1]));
    // Subtraction adds the negated operand; the NaN rule sees the operands as written.
    let (x2, y2) = match p.op {
        O::V_SUB_F32 => (x, e.map1(&y, sign_flip)),
        O::V_SUBREV_F32 => (e.map1(&x, sign_flip), y),
        _ => (x, y),
    };
    let (first, second) = if p.op == O::V_SUBREV_F32 { (y2, x2) } else { (x2, y2) };
    let mul = p.op == O::V_MUL_F32;
    e.float_op(&[first, second], |b, a| {
        if mul {
            b.ins().fmul(a[0], a[1])
        } else {
            b.ins().fadd(a[0], a[1])
        }
    })
}

fn binary(e: &mut Em, op: O, a: &Row, y: &Row) -> Row {
    match op {
        O::V_ADD_NC_U32 => e.map2(a, y, |b, x, y| b.ins().iadd(x, y)),
        O::V_SUB_NC_U32 => e.map2(a, y, |b, x, y| b.ins().isub(x, y)),
        O::V_SUBREV_NC_U32 => e.map2(a, y, |b, x, y| b.ins().isub(y, x)),
        O::V_AND_B32 => e.map2(a, y, |b, x, y| b.ins().band(x, y)),
        O::V_OR_B32 => e.map2(a, y, |b, x, y| b.ins().bor(x, y)),
        O::V_XOR_B32 => e.map2(a, y, |b, x, y| b.ins().bxor(x, y)),
        O::V_XNOR_B32 => e.map2(a, y, |b, x, y| {
            let r = b.ins().bxor(x, y);
            b.ins().bnot(r)
        }),
        O::V_MUL_LO_U32 => e.map2(a, y, |b, x, y| b.ins().imul(x, y)),
        O::V_MUL_U32_U24 => {
            let m = e.konst(0xff_ffff);
            let (x, y) = (
                e.map2(a, &m, |b, x, m| b.ins().band(x, m)),
                e.map2(y, &m, |b, x, m| b.ins().band(x, m)),
            );
            e.map2(&x, &y, |b, x, y| b.ins().imul(x, y))
        }
        O::V_MIN_I32 => e.map2(a, y, |b, x, y| b.ins().smin(x, y)),
        O::V_MAX_I32 => e.map2(a, y, |b, x, y| b.ins().smax(x, y)),
        O::V_MIN_U32 => e.map2(a, y, |b, x, y| b.ins().umin(x, y)),
        O::V_MAX_U32 => e.map2(a, y, |b, x, y| b.ins().umax(x, y)),
        _ => unreachable!("arity admitted {op:?}"),
    }
}

fn ternary(e: &mut Em, op: O, p: &VPlan) -> Row {
    match op {
        O::V_CNDMASK_B32 => {
            let (a, y) = (e.load(p.src[0]), e.load(p.src[1]));
            let s = e.scalar(p.src[2]);
            let m = lane_mask(e.b, s);
            std::array::from_fn(|c| e.b.ins().bitselect(m[c], y[c], a[c]))
        }
        O::V_LSHL_ADD_U32 | O::V_LSHL_OR_B32 => {
            let a = e.load(p.src[0]);
            let amount = e.scalar(p.src[1]);
            let z = e.load(p.src[2]);
            e.map2(&a, &z, |b, x, z| {
                let s = b.ins().ishl(x, amount);
                if op == O::V_LSHL_ADD_U32 {
                    b.ins().iadd(s, z)
                } else {
                    b.ins().bor(s, z)
                }
            })
        }
        // V_FMA_F32 and the FMAC/FMAMK/FMAAK forms the prep normalised to it.
        O::V_FMA_F32 | O::V_FMAC_F32 | O::V_FMAMK_F32 | O::V_FMAAK_F32 => {
            let (x, y, z) = (e.fload(p.src[0]), e.fload(p.src[1]), e.fload(p.src[2]));
            e.float_op(&[x, y, z], |b, a| b.ins().fma(a[0], a[1], a[2]))
        }
        _ => {
            let a = e.load(p.src[0]);
            let (y, z) = (e.load(p.src[1]), e.load(p.src[2]));
            let m24 = e.konst(0xff_ffff);
            match op {
                O::V_MAD_U32_U24 => {
                    let x = e.map2(&a, &m24, |b, x, m| b.ins().band(x, m));
                    let y = e.map2(&y, &m24, |b, x, m| b.ins().band(x, m));
                    e.map3(&x, &y, &z, |b, x, y, z| {
                        let m = b.ins().imul(x, y);
                        b.ins().iadd(m, z)
                    })
                }
                O::V_ADD3_U32 => e.map3(&a, &y, &z, |b, x, y, z| {
                    let s = b.ins().iadd(x, y);
                    b.ins().iadd(s, z)
                }),
                O::V_AND_OR_B32 => e.map3(&a, &y, &z, |b, x, y, z| {
                    let s = b.ins().band(x, y);
                    b.ins().bor(s, z)
                }),
                O::V_OR3_B32 => e.map3(&a, &y, &z, |b, x, y, z| {
                    let s = b.ins().bor(x, y);
                    b.ins().bor(s, z)
                }),
                O::V_XAD_U32 => e.map3(&a, &y, &z, |b, x, y, z| {
                    let s = b.ins().bxor(x, y);
                    b.ins().iadd(s, z)
                }),
                _ => unreachable!("arity admitted {op:?}"),
            }
        }
    }
}

/// `v_add_co_u32` / `v_add_co_ci_u32`: sum and per-lane carry out.
fn add_carry(e: &mut Em, p: &VPlan) -> (Row, Option<Row>) {
    let a = e.load(p.src[0]);
    let y = e.load(p.src[1]);
    let t = e.map2(&a, &y, |b, x, y| b.ins().iadd(x, y));
    let c1 = e.map2(&t, &a, |b, t, x| b.ins().icmp(IntCC::UnsignedLessThan, t, x));
    if p.op == O::V_ADD_CO_U32 {
        return (t, Some(c1));
    }
    let s = e.scalar(p.src[2]);
    let cin = lane_mask(e.b, s);
    // A set lane mask is -1: subtracting it adds the carry.
    let r = e.map2(&t, &cin, |b, t, c| b.ins().isub(t, c));
    let c2 = e.map2(&r, &t, |b, r, t| b.ins().icmp(IntCC::UnsignedLessThan, r, t));
    let c = e.map2(&c1, &c2, |b, x, y| b.ins().bor(x, y));
    (r, Some(c))
}
