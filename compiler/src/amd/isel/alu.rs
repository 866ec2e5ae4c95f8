//! ALU selection, one component at a time. Constant operands are folded with the IR's own
//! reference semantics ([`crate::ir::ops::eval`]); uniform operands use the scalar unit where it
//! has the operation; everything else uses the vector unit.

use ferrum_isa::Opcode as O;

use super::alu_int::split;
use super::build::{self, Src, EXEC};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::RegClass;
use crate::ir::ops::{self, AluOp};
use crate::ir::Value;

/// Two-source 32-bit integer ops: (SALU opcode, VALU opcode, VALU takes operands reversed).
fn int2(op: AluOp) -> Option<(Option<O>, O, bool)> {
    use AluOp::*;
    Some(match op {
        Iadd => (Some(O::S_ADD_U32), O::V_ADD_NC_U32, false),
        Isub => (Some(O::S_SUB_U32), O::V_SUB_NC_U32, false),
        Imul => (Some(O::S_MUL_I32), O::V_MUL_LO_U32, false),
        Iand => (Some(O::S_AND_B32), O::V_AND_B32, false),
        Ior => (Some(O::S_OR_B32), O::V_OR_B32, false),
        Ixor => (Some(O::S_XOR_B32), O::V_XOR_B32, false),
        Ishl => (Some(O::S_LSHL_B32), O::V_LSHLREV_B32, true),
        Ushr => (Some(O::S_LSHR_B32), O::V_LSHRREV_B32, true),
        Ishr => (Some(O::S_ASHR_I32), O::V_ASHRREV_I32, true),
        Imin => (Some(O::S_MIN_I32), O::V_MIN_I32, false),
        Imax => (Some(O::S_MAX_I32), O::V_MAX_I32, false),
        Umin => (Some(O::S_MIN_U32), O::V_MIN_U32, false),
        Umax => (Some(O::S_MAX_U32), O::V_MAX_U32, false),
        UmulHigh => (Some(O::S_MUL_HI_U32), O::V_MUL_HI_U32, false),
        ImulHigh => (Some(O::S_MUL_HI_I32), O::V_MUL_HI_I32, false),
        Fadd => (None, O::V_ADD_F32, false),
        Fsub => (None, O::V_SUB_F32, false),
        Fmul => (None, O::V_MUL_F32, false),
        Fmin => (None, O::V_MIN_F32, false),
        Fmax => (None, O::V_MAX_F32, false),
        _ => return None,
    })
}

/// One-source 32-bit ops: (SALU opcode, VALU opcode).
fn int1(op: AluOp) -> Option<(Option<O>, O)> {
    use AluOp::*;
    Some(match op {
        Inot => (Some(O::S_NOT_B32), O::V_NOT_B32),
        BitReverse => (Some(O::S_BREV_B32), O::V_BFREV_B32),
        FindLsb => (Some(O::S_FF1_I32_B32), O::V_FFBL_B32),
        Ffloor => (None, O::V_FLOOR_F32),
        Fceil => (None, O::V_CEIL_F32),
        Ftrunc => (None, O::V_TRUNC_F32),
        FroundEven => (None, O::V_RNDNE_F32),
        U2f => (None, O::V_CVT_F32_U32),
        I2f => (None, O::V_CVT_F32_I32),
        F2u => (None, O::V_CVT_U32_F32),
        F2i => (None, O::V_CVT_I32_F32),
        _ => return None,
    })
}

/// 32-bit compares: (SALU compare, VALU compare); floats have no scalar form.
fn cmp32(op: AluOp) -> Option<(Option<O>, O)> {
    use AluOp::*;
    Some(match op {
        Ieq => (Some(O::S_CMP_EQ_U32), O::V_CMP_EQ_U32),
        Ine => (Some(O::S_CMP_LG_U32), O::V_CMP_NE_U32),
        Ult => (Some(O::S_CMP_LT_U32), O::V_CMP_LT_U32),
        Uge => (Some(O::S_CMP_GE_U32), O::V_CMP_GE_U32),
        Ilt => (Some(O::S_CMP_LT_I32), O::V_CMP_LT_I32),
        Ige => (Some(O::S_CMP_GE_I32), O::V_CMP_GE_I32),
        Feq => (None, O::V_CMP_EQ_F32),
        Fneu => (None, O::V_CMP_NEQ_F32),
        Flt => (None, O::V_CMP_LT_F32),
        Fge => (None, O::V_CMP_GE_F32),
        Fltu => (None, O::V_CMP_NGE_F32),
        Fgeu => (None, O::V_CMP_NLT_F32),
        Fequ => (None, O::V_CMP_NLG_F32),
        Fneo => (None, O::V_CMP_LG_F32),
        _ => return None,
    })
}

pub(super) fn all_scalar(v: &[MVal]) -> bool {
    v.iter().all(|x| !matches!(x, MVal::Reg(_, RegClass::V)))
}

impl Isel<'_> {
    pub(super) fn select_alu(
        &mut self,
        op: AluOp,
        d: Value,
        srcs: &[Value],
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(d);
        if self.select_vector_op(op, d, srcs, bits)? {
            return Ok(());
        }
        let sbits = srcs.first().map_or(bits, |&s| self.shape(s).0);
        let uniform = !self.is_div(d);
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let a: Vec<MVal> = srcs.iter().map(|&s| self.comp(s, i)).collect::<Result<_, _>>()?;
            let division =
                matches!(op, AluOp::Udiv | AluOp::Umod | AluOp::Idiv | AluOp::Irem | AluOp::Imod)
                    && bits == 32;
            out.push(match &a[..] {
                // A division by a constant picks its sequence from the dividend's bound.
                &[n @ MVal::Reg(..), MVal::Const(d)] if division => {
                    let bound = self.bounds.max(srcs[0], i);
                    let sc = uniform && all_scalar(&a);
                    self.div_const32(op, n, d as u32, bound, sc)?
                }
                _ => self.alu_comp(op, bits, sbits, &a, uniform)?,
            });
        }
        self.set(d, out);
        Ok(())
    }

    /// Ops on whole vectors (construction, dynamic indexing, bitcasts, dot products, boolean
    /// reductions); false if `op` is component-wise.
    fn select_vector_op(
        &mut self,
        op: AluOp,
        d: Value,
        srcs: &[Value],
        bits: u8,
    ) -> Result<bool, BackendError> {
        match op {
            AluOp::Vec => {
                let mut out = Vec::new();
                for &s in srcs {
                    out.extend(self.get(s)?);
                }
                self.set(d, out);
                Ok(true)
            }
            AluOp::Mov => {
                let v = self.get(srcs[0])?;
                self.set(d, v);
                Ok(true)
            }
            AluOp::ExtractDyn => {
                let v = self.get(srcs[0])?;
                let idx = self.comp(srcs[1], 0)?;
                let c = match idx {
                    MVal::Const(i) => v.get(i as usize).copied().unwrap_or(MVal::Const(0)),
                    _ => {
                        // A select chain over the components (out of range reads component 0).
                        let uniform = !self.is_div(d);
                        let mut acc = v[0];
                        for (k, &c) in v.iter().enumerate().skip(1) {
                            let m = self.compare(
                                AluOp::Ieq,
                                32,
                                &[idx, MVal::Const(k as u64)],
                                uniform,
                            )?;
                            acc = self.select_wide(&[m, c, acc], uniform, bits)?;
                        }
                        acc
                    }
                };
                self.set(d, vec![c]);
                Ok(true)
            }
            AluOp::InsertDyn => {
                let mut v = self.get(srcs[0])?;
                let x = self.comp(srcs[1], 0)?;
                match self.comp(srcs[2], 0)? {
                    MVal::Const(i) => {
                        if let Some(slot) = v.get_mut(i as usize) {
                            *slot = x;
                        }
                    }
                    idx => {
                        let uniform = !self.is_div(d);
                        for (k, slot) in v.iter_mut().enumerate() {
                            let m = self.compare(
                                AluOp::Ieq,
                                32,
                                &[idx, MVal::Const(k as u64)],
                                uniform,
                            )?;
                            *slot = self.select_wide(&[m, x, *slot], uniform, bits)?;
                        }
                    }
                }
                self.set(d, v);
                Ok(true)
            }
            AluOp::Bitcast => self.select_bitcast(d, srcs[0]).map(|_| true),
            AluOp::Fdot => self.select_fdot(d, srcs).map(|_| true),
            AluOp::Ball | AluOp::Bany => {
                let v = self.get(srcs[0])?;
                let o = if op == AluOp::Ball { AluOp::Iand } else { AluOp::Ior };
                let mut acc = v[0];
                for &c in &v[1..] {
                    acc = self.bool_op(o, &[acc, c])?;
                }
                self.set(d, vec![acc]);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    pub(super) fn alu_comp(
        &mut self,
        op: AluOp,
        bits: u8,
        sbits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<MVal, BackendError> {
        // Host arithmetic rounds to nearest even and keeps denormals; under another f32
        // mode the hardware computes f32 float ops (as opt_constant_fold also leaves them).
        let keep = self.shader.float_controls.f32_differs_from_host()
            && op.follows_float_mode()
            && (bits == 32 || sbits == 32);
        if let Some(c) = fold(op, bits, sbits, a).filter(|_| !keep) {
            return Ok(MVal::Const(c));
        }
        // Buffer addresses are (resource, offset) pairs; offset arithmetic adds 0 to the
        // resource half.
        match (op, a) {
            (AluOp::Iadd, [MVal::Res(r), MVal::Const(0)] | [MVal::Const(0), MVal::Res(r)]) => {
                return Ok(MVal::Res(*r));
            }
            (AluOp::Bcsel, [_, MVal::Res(x), MVal::Res(y)]) if x == y => return Ok(MVal::Res(*x)),
            _ => {}
        }
        if op == AluOp::F2fRtz {
            return self.f2f_rtz(bits, sbits, a[0]);
        }
        if matches!(op, AluOp::Isign | AluOp::Ubfe | AluOp::Ibfe | AluOp::BfiInsert) {
            return self.alu_bits(op, bits, a, uniform);
        }
        if bits != 32 && bits == sbits {
            if let Some(v) = self.alu_int_width(op, bits, a, uniform)? {
                return Ok(v);
            }
        }
        if bits == 32 {
            if let Some(v) = self.simplify(op, a)? {
                return Ok(v);
            }
        }
        if bits == 1 && sbits == 1 {
            return self.bool_op(op, a);
        }
        if bits == 16 || sbits == 16 {
            if let Some(v) = self.float16(op, bits, sbits, a, uniform)? {
                return Ok(v);
            }
        }
        if matches!(bits, 8 | 16) || matches!(sbits, 8 | 16) {
            if let Some(v) = self.alu_narrow(op, bits, sbits, a, uniform)? {
                return Ok(v);
            }
        }
        if bits == 1 {
            return self.compare(op, sbits, a, uniform);
        }
        if bits == 64 || sbits == 64 {
            if let Some(v) = self.float64(op, bits, sbits, a)? {
                return Ok(v);
            }
        }
        let mixed = matches!(op, AluOp::Bcsel | AluOp::B2i | AluOp::B2f);
        if bits != 32 || (sbits != 32 && !mixed) {
            return self.alu_wide(op, bits, sbits, a, uniform);
        }
        let scalar = uniform && all_scalar(a);
        if let Some((sop, vop, rev)) = int2(op) {
            return self.bin(sop.filter(|_| scalar), vop, rev, a[0], a[1]);
        }
        if let Some((sop, vop)) = int1(op) {
            let x = self.src(a[0])?;
            return Ok(match sop.filter(|_| scalar) {
                Some(s) => {
                    let r = self.vreg(RegClass::S, 1);
                    self.emit(build::sop1(s, r, x, 1));
                    MVal::Reg(r, RegClass::S)
                }
                None => {
                    let r = self.vreg(RegClass::V, 1);
                    self.emit(build::vop1(vop, r, x));
                    MVal::Reg(r, RegClass::V)
                }
            });
        }
        self.alu_other32(op, bits, a, uniform, scalar)
    }

    /// 32-bit ops that need more than one table lookup.
    fn alu_other32(
        &mut self,
        op: AluOp,
        bits: u8,
        a: &[MVal],
        uniform: bool,
        scalar: bool,
    ) -> Result<MVal, BackendError> {
        if let Some(v) = self.float32(op, a)? {
            return Ok(v);
        }
        use AluOp::*;
        match op {
            Ineg => self.bin(
                Some(O::S_SUB_U32).filter(|_| scalar),
                O::V_SUB_NC_U32,
                false,
                MVal::Const(0),
                a[0],
            ),
            Iabs if scalar => self.sop1v(O::S_ABS_I32, a[0]),
            Iabs => {
                let neg = self.bin(None, O::V_SUB_NC_U32, false, MVal::Const(0), a[0])?;
                self.bin(None, O::V_MAX_I32, false, a[0], neg)
            }
            BitCount if scalar => self.sop1v(O::S_BCNT1_I32_B32, a[0]),
            BitCount => self.v3(O::V_BCNT_U32_B32, &[a[0], MVal::Const(0)], 0),
            // Under DenormFlushToZero a sign-bit operation would pass a denormal through; a
            // multiply by ±1 flushes it as every other f32 operation does (as ACO selects).
            Fneg if self.shader.float_controls.flush_denorms_32 => {
                self.bin(None, O::V_MUL_F32, false, a[0], MVal::Const(0xbf80_0000))
            }
            Fabs if self.shader.float_controls.flush_denorms_32 => {
                let m = self.bin(None, O::V_AND_B32, false, a[0], MVal::Const(0x7fff_ffff))?;
                self.bin(None, O::V_MUL_F32, false, m, MVal::Const(0x3f80_0000))
            }
            Fneg => self.bin(
                Some(O::S_XOR_B32).filter(|_| scalar),
                O::V_XOR_B32,
                false,
                a[0],
                MVal::Const(0x8000_0000),
            ),
            Fabs => self.bin(
                Some(O::S_AND_B32).filter(|_| scalar),
                O::V_AND_B32,
                false,
                a[0],
                MVal::Const(0x7fff_ffff),
            ),
            Ffma => self.v3(O::V_FMA_F32, a, 0),
            Bcsel => self.select(a, uniform),
            B2i | B2f => {
                let one = if op == B2i { 1 } else { 0x3f80_0000 };
                self.select(&[a[0], MVal::Const(one), MVal::Const(0)], uniform)
            }
            U2u | I2i | F2f => Ok(a[0]),
            Udiv | Umod | Idiv | Irem | Imod if matches!(a[1], MVal::Const(_)) => {
                let MVal::Const(d) = a[1] else { unreachable!("matched above") };
                self.div_const32(op, a[0], d as u32, None, scalar)
            }
            Udiv | Umod | Idiv | Irem | Imod => self.divmod(op, a[0], a[1]),
            UfindMsb | IfindMsb => {
                // The signed form is the unsigned one of x ^ (x >> 31) (identical results, and
                // one instruction fewer to trust than v_ffbh_i32's sign-bit counting).
                let x = if op == IfindMsb {
                    let sh = Some(O::S_ASHR_I32).filter(|_| scalar);
                    let sign = self.bin(sh, O::V_ASHRREV_I32, true, a[0], MVal::Const(31))?;
                    let xo = Some(O::S_XOR_B32).filter(|_| scalar);
                    self.bin(xo, O::V_XOR_B32, false, a[0], sign)?
                } else {
                    a[0]
                };
                // Leading-zero count (-1 for zero) to a bit index.
                let t = if scalar {
                    self.sop1v(O::S_FLBIT_I32_B32, x)?
                } else {
                    self.v1(O::V_FFBH_U32, x)?
                };
                let sub = Some(O::S_SUB_U32).filter(|_| scalar);
                let r = self.bin(sub, O::V_SUB_NC_U32, false, MVal::Const(31), t)?;
                let none =
                    self.compare(Ieq, 32, &[t, MVal::Const(u64::from(u32::MAX))], uniform)?;
                self.select(&[none, MVal::Const(u64::from(u32::MAX)), r], uniform)
            }
            _ => Err(unsupported(format!("{} on {bits}-bit values", op.name()))),
        }
    }

    /// Algebraic identities that leave one operand (or a cheaper op).
    fn simplify(&mut self, op: AluOp, a: &[MVal]) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        let k = |v: MVal| if let MVal::Const(c) = v { Some(c as u32) } else { None };
        let (x, y) = (a[0], a.get(1).copied().unwrap_or(MVal::Const(0)));
        Ok(match (op, k(x), k(y)) {
            (Iadd | Ior | Ixor, Some(0), _) => Some(y),
            (Iadd | Isub | Ior | Ixor | Ishl | Ushr | Ishr, _, Some(0)) => Some(x),
            (Imul, Some(1), _) | (Iand, Some(u32::MAX), _) => Some(y),
            (Imul, _, Some(1)) | (Iand, _, Some(u32::MAX)) => Some(x),
            (Imul | Iand, Some(0), _) | (Imul | Iand, _, Some(0)) => Some(MVal::Const(0)),
            (Imul, Some(c), None) | (Imul, None, Some(c)) if c.is_power_of_two() => {
                let v = if k(x).is_some() { y } else { x };
                let scalar = !matches!(v, MVal::Reg(_, RegClass::V));
                let sh = MVal::Const(u64::from(c.trailing_zeros()));
                Some(self.bin(
                    Some(O::S_LSHL_B32).filter(|_| scalar),
                    O::V_LSHLREV_B32,
                    true,
                    v,
                    sh,
                )?)
            }
            _ => None,
        })
    }

    pub(super) fn v1(&mut self, op: O, a: MVal) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::V, 1);
        let x = self.src(a)?;
        self.emit(build::vop1(op, r, x));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// Select of 32- or 64-bit components.
    pub(super) fn select_wide(
        &mut self,
        a: &[MVal],
        uniform: bool,
        bits: u8,
    ) -> Result<MVal, BackendError> {
        if bits != 64 {
            return self.select(a, uniform);
        }
        let (t, f) = (split(a[1]), split(a[2]));
        let lo = self.select(&[a[0], t.0, f.0], uniform)?;
        let hi = self.select(&[a[0], t.1, f.1], uniform)?;
        self.pair(lo, hi)
    }

    pub(super) fn sop1v(&mut self, op: O, a: MVal) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::S, 1);
        let x = self.src(a)?;
        self.emit(build::sop1(op, r, x, 1));
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// Two-source op on the scalar unit (`sop`) or the vector unit.
    pub(super) fn bin(
        &mut self,
        sop: Option<O>,
        vop: O,
        rev: bool,
        a: MVal,
        b: MVal,
    ) -> Result<MVal, BackendError> {
        let (x, y) = (self.src(a)?, self.src(b)?);
        if let Some(s) = sop {
            let r = self.vreg(RegClass::S, 1);
            self.emit(build::sop2(s, Some(r), x, y, 1));
            return Ok(MVal::Reg(r, RegClass::S));
        }
        let (x, y) = if rev { (y, x) } else { (x, y) };
        let r = self.vreg(RegClass::V, 1);
        // VOP2 wants the VGPR second; commutative ops can swap.
        let commutes = !rev && !matches!(vop, O::V_SUB_NC_U32 | O::V_SUB_F32 | O::V_SUB_F16);
        let (x, y) = if !y.is_v() && x.is_v() && commutes { (y, x) } else { (x, y) };
        self.emit(build::vop2(vop, r, x, y));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// A VOP3 op with up to three 32-bit sources.
    /// `neg` applies to f32 sources; a negated constant is folded into the constant (LLVM's
    /// syntax reads `-4.0` as the constant, not as `neg(4.0)`).
    pub(super) fn v3(&mut self, op: O, a: &[MVal], mut neg: u8) -> Result<MVal, BackendError> {
        let mut a = a.to_vec();
        for (i, x) in a.iter_mut().enumerate() {
            if let MVal::Const(c) = x {
                if neg & (1 << i) != 0 {
                    *c ^= 0x8000_0000;
                    neg &= !(1 << i);
                }
            }
        }
        let srcs: Vec<Src> = a.iter().map(|&x| self.src(x)).collect::<Result<_, _>>()?;
        let r = self.vreg(RegClass::V, 1);
        self.emit(build::vop3(op, Some(r), None, &srcs, neg));
        Ok(MVal::Reg(r, RegClass::V))
    }

    pub(super) fn select(&mut self, a: &[MVal], uniform: bool) -> Result<MVal, BackendError> {
        if a[1] == a[2] {
            return Ok(a[1]);
        }
        let c = match a[0] {
            MVal::Const(x) => return Ok(if x & 1 != 0 { a[1] } else { a[2] }),
            MVal::Reg(r, _) => r,
            MVal::Res(_) => return Err(unsupported("select on a resource")),
        };
        if uniform && all_scalar(&a[1..]) {
            let (t, f) = (self.src(a[1])?, self.src(a[2])?);
            self.emit(build::sopc(O::S_CMP_LG_U32, Src::R(c, RegClass::S), Src::I(0)));
            let r = self.vreg(RegClass::S, 1);
            self.emit(build::sop2(O::S_CSELECT_B32, Some(r), t, f, 1));
            return Ok(MVal::Reg(r, RegClass::S));
        }
        let (t, f) = (self.src(a[1])?, self.src(a[2])?);
        let mut srcs = vec![f, t];
        // The mask itself occupies one constant-bus slot.
        if srcs.iter().filter(|s| s.uses_const_bus()).count() > 1 {
            let r = self.vreg(RegClass::V, 1);
            self.emit(build::vop1(O::V_MOV_B32, r, srcs[1]));
            srcs[1] = Src::R(r, RegClass::V);
        }
        srcs.push(Src::R(c, RegClass::S));
        let r = self.vreg(RegClass::V, 1);
        self.emit(build::vop3(O::V_CNDMASK_B32, Some(r), None, &srcs, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// Boolean (lane-mask) logic. A mask's bits for lanes outside EXEC must stay clear unless
    /// the value is uniform and they match the active lanes (a scalar compare's all-ones):
    /// uniform consumers test the whole mask against zero. Not, xor, xnor and select can set
    /// such bits from clear ones (`!false` as `~0`, `true ^ v_cmp`), so their results are
    /// ANDed with EXEC, as ACO negates with `s_andn2 exec`.
    pub(super) fn bool_op(&mut self, op: AluOp, a: &[MVal]) -> Result<MVal, BackendError> {
        let m = |v: MVal| match v {
            MVal::Const(x) => Src::I(if x & 1 != 0 { u32::MAX } else { 0 }),
            MVal::Reg(r, c) => Src::R(r, c),
            MVal::Res(_) => Src::I(0),
        };
        let r = self.vreg(RegClass::S, 1);
        let s = match op {
            AluOp::Iand => O::S_AND_B32,
            AluOp::Ior => O::S_OR_B32,
            AluOp::Ixor | AluOp::Ine => O::S_XOR_B32,
            AluOp::Ieq => O::S_XNOR_B32,
            AluOp::Inot => {
                self.emit(build::sop2(O::S_ANDN2_B32, Some(r), EXEC, m(a[0]), 1));
                return Ok(MVal::Reg(r, RegClass::S));
            }
            AluOp::Mov => return Ok(a[0]),
            AluOp::Bcsel => {
                let [t, u, v] = [(); 3].map(|_| self.vreg(RegClass::S, 1));
                self.emit(build::sop2(O::S_AND_B32, Some(t), m(a[0]), m(a[1]), 1));
                self.emit(build::sop2(O::S_ANDN2_B32, Some(u), m(a[2]), m(a[0]), 1));
                self.emit(build::sop2(O::S_AND_B32, Some(v), Src::R(u, RegClass::S), EXEC, 1));
                let (t, v) = (Src::R(t, RegClass::S), Src::R(v, RegClass::S));
                self.emit(build::sop2(O::S_OR_B32, Some(r), t, v, 1));
                return Ok(MVal::Reg(r, RegClass::S));
            }
            _ => return Err(unsupported(format!("{} on booleans", op.name()))),
        };
        self.emit(build::sop2(s, Some(r), m(a[0]), m(a[1]), 1));
        if matches!(op, AluOp::Ixor | AluOp::Ine | AluOp::Ieq) {
            let k = self.vreg(RegClass::S, 1);
            self.emit(build::sop2(O::S_AND_B32, Some(k), Src::R(r, RegClass::S), EXEC, 1));
            return Ok(MVal::Reg(k, RegClass::S));
        }
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// A comparison producing a lane mask.
    pub(super) fn compare(
        &mut self,
        op: AluOp,
        sbits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::S, 1);
        if op == AluOp::I2b {
            return self.compare(AluOp::Ine, sbits, &[a[0], MVal::Const(0)], uniform);
        }
        if sbits == 64 {
            return match op {
                // NaN is the value unequal to itself; infinities have magnitude +inf.
                AluOp::IsNan => self.compare64(AluOp::Fneu, &[a[0], a[0]], r),
                AluOp::IsInf => {
                    let m = self.float64(AluOp::Fabs, 64, 64, &a[..1])?.expect("f64 abs");
                    self.compare64(AluOp::Feq, &[m, MVal::Const(0x7ff0_0000_0000_0000)], r)
                }
                _ => self.compare64(op, a, r),
            };
        }
        if sbits != 32 {
            return Err(unsupported(format!("{} on {sbits}-bit values", op.name())));
        }
        match op {
            AluOp::IsNan => {
                let x = self.src(a[0])?;
                self.emit(build::vcmp(O::V_CMP_U_F32, r, x, x, 1));
                return Ok(MVal::Reg(r, RegClass::S));
            }
            AluOp::IsInf => {
                let x = self.src(a[0])?;
                // Class mask: -inf (bit 2) and +inf (bit 9).
                self.emit(build::vcmp(O::V_CMP_CLASS_F32, r, x, Src::I(0x204), 1));
                return Ok(MVal::Reg(r, RegClass::S));
            }
            _ => {}
        }
        let (sop, vop) = cmp32(op).ok_or_else(|| unsupported(format!("compare {}", op.name())))?;
        let (x, y) = (self.src(a[0])?, self.src(a[1])?);
        match sop.filter(|_| uniform && all_scalar(a)) {
            Some(s) => {
                self.emit(build::sopc(s, x, y));
                self.emit(build::sop2(O::S_CSELECT_B32, Some(r), Src::I(u32::MAX), Src::I(0), 1));
            }
            None => {
                let srcs = [x, y];
                self.emit(build::vcmp(vop, r, srcs[0], srcs[1], 1));
            }
        }
        Ok(MVal::Reg(r, RegClass::S))
    }

    fn select_bitcast(&mut self, d: Value, s: Value) -> Result<(), BackendError> {
        let (db, dn) = self.shape(d);
        let (sb, _) = self.shape(s);
        let v = self.get(s)?;
        if db == sb {
            self.set(d, v);
            return Ok(());
        }
        // Split into dwords, regroup.
        let mut dwords = Vec::new();
        for c in v {
            match (c, sb) {
                (MVal::Const(x), 64) => {
                    dwords.push(MVal::Const(x & 0xffff_ffff));
                    dwords.push(MVal::Const(x >> 32));
                }
                (MVal::Reg(r, cl), 64) => {
                    dwords.push(MVal::Reg(r, cl));
                    dwords.push(MVal::Reg(r.at(1), cl));
                }
                (x, 32) => dwords.push(x),
                (x, 8 | 16) => dwords.push(x),
                _ => return Err(unsupported(format!("bitcast from {sb}-bit components"))),
            }
        }
        let uniform = !self.is_div(d);
        if sb < 32 {
            // Pack narrow components into dwords, lowest first.
            let per = (32 / sb) as usize;
            let mut packed = Vec::new();
            for group in dwords.chunks(per) {
                let mut acc = MVal::Const(0);
                for (k, &c) in group.iter().enumerate() {
                    let m = MVal::Const((1u64 << sb) - 1);
                    let low = self.alu_comp(AluOp::Iand, 32, 32, &[c, m], uniform)?;
                    let sh = MVal::Const(u64::from(sb) * k as u64);
                    let part = self.alu_comp(AluOp::Ishl, 32, 32, &[low, sh], uniform)?;
                    acc = self.alu_comp(AluOp::Ior, 32, 32, &[acc, part], uniform)?;
                }
                packed.push(acc);
            }
            dwords = packed;
        }
        let out = match db {
            32 => dwords,
            8 | 16 => {
                // Unpack: component k is the dword shifted down (upper bits unspecified).
                let per = 32 / db;
                let mut out = Vec::new();
                for &w in &dwords {
                    for k in 0..per {
                        let sh = MVal::Const(u64::from(db) * u64::from(k));
                        out.push(self.alu_comp(AluOp::Ushr, 32, 32, &[w, sh], uniform)?);
                    }
                }
                out
            }
            64 => {
                let mut out = Vec::new();
                for pair in dwords.chunks(2) {
                    out.push(self.pair(pair[0], pair[1])?);
                }
                out
            }
            _ => return Err(unsupported(format!("bitcast to {db}-bit components"))),
        };
        if out.len() != dn as usize {
            return Err(unsupported("bitcast size mismatch"));
        }
        self.set(d, out);
        Ok(())
    }

    /// A 64-bit value from two dwords.
    pub(super) fn pair(&mut self, lo: MVal, hi: MVal) -> Result<MVal, BackendError> {
        match (lo, hi) {
            (MVal::Const(a), MVal::Const(b)) => Ok(MVal::Const(a | b << 32)),
            (MVal::Reg(a, c1), MVal::Reg(b, c2))
                if c1 == c2 && a.vreg == b.vreg && b.off == a.off + 1 =>
            {
                Ok(MVal::Reg(a, c1))
            }
            _ => {
                let scalar = all_scalar(&[lo, hi]);
                let class = if scalar { RegClass::S } else { RegClass::V };
                let r = self.vreg(class, 2);
                for (i, x) in [lo, hi].into_iter().enumerate() {
                    let s = self.src(x)?;
                    match class {
                        RegClass::S => self.emit(build::sop1(O::S_MOV_B32, r.at(i as u8), s, 1)),
                        RegClass::V => self.emit(build::vop1(O::V_MOV_B32, r.at(i as u8), s)),
                    }
                }
                Ok(MVal::Reg(r, class))
            }
        }
    }

    /// Dot products at the operands' precision (f16, f32 or f64), summed in order from +0 like
    /// the reference semantics.
    fn select_fdot(&mut self, d: Value, srcs: &[Value]) -> Result<(), BackendError> {
        let bits = self.shape(d).0;
        let (a, b) = (self.get(srcs[0])?, self.get(srcs[1])?);
        // The IR's fused definition: the first product, then a multiply-add per component.
        let mut acc = self.alu_comp(AluOp::Fmul, bits, bits, &[a[0], b[0]], false)?;
        for i in 1..a.len() {
            acc = self.alu_comp(AluOp::Ffma, bits, bits, &[a[i], b[i], acc], false)?;
        }
        self.set(d, vec![acc]);
        Ok(())
    }
}

/// Constant folding through the IR's reference semantics when every source is known.
fn fold(op: AluOp, bits: u8, sbits: u8, a: &[MVal]) -> Option<u64> {
    let consts: Vec<u64> = a
        .iter()
        .map(|x| if let MVal::Const(c) = x { Some(*c) } else { None })
        .collect::<Option<_>>()?;
    let srcs: Vec<[u64; 1]> = consts.iter().map(|&c| [c]).collect();
    let views: Vec<ops::Src<'_>> = srcs
        .iter()
        .enumerate()
        .map(|(i, c)| ops::Src {
            bits: match (op, i) {
                (AluOp::Bcsel, 0) => 1,
                // ldexp's exponent is a 32-bit integer whatever the float's width.
                (AluOp::Fldexp, 1) => 32,
                _ => sbits,
            },
            comps: c,
        })
        .collect();
    let r = ops::eval(op, bits, 1, &views).ok()?;
    Some(r[0])
}
