//! Subgroup reductions, inclusive/exclusive scans and clustered reductions.
//!
//! All of them run with EXEC set to every lane on a copy of the operand in which inactive
//! lanes hold the operation's identity (`v_cndmask` with the saved EXEC), so the lane-crossing
//! steps never have to ask which lanes take part:
//! - reductions: DPP `row_xmask` butterflies reduce each row of 16, `v_permlanex16` combines
//!   the two rows (a clustered reduction stops at its cluster size);
//! - scans: DPP `row_shr` onto identity-filled temporaries (lanes whose source lies outside the
//!   row are not written) and row 0's total, read with `v_readlane`, is added to row 1.
//!
//! Lanes only ever cross through plain 32-bit moves (`v_mov_b32_dpp`, `v_permlanex16_b32`,
//! `v_readlane_b32`) into a temporary, one per dword, and the full operation then runs lane by
//! lane. A DPP-modified add cannot carry into the high dword of a 64-bit value, so 64-bit
//! integer operations are always done this way: add as `v_add_co` + `v_add_co_ci`, multiply
//! from 32-bit partial products, min/max as a 64-bit compare and a select.
//!
//! 8- and 16-bit integers live in 32-bit registers with unspecified upper bits: they are
//! sign-extended (signed min/max) or zero-extended (unsigned min/max) before a 32-bit
//! reduction; add, multiply and the bitwise ops need no extension because the low bits of
//! their 32-bit results depend only on the low bits of the operands. f16 uses the f16 VALU
//! ops, which read and write the low halves.

use ferrum_isa::Opcode as O;

use super::build::{self, Src};
use super::subgroup::{has_vop2, DppCtl};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegOp, RegRef, Slot};
use crate::interp::subgroup::identity;
use crate::ir::{AluOp, SubgroupOp};

/// The VALU opcode of a 32-bit reduction.
fn valu_op(op: AluOp) -> Option<O> {
    Some(match op {
        AluOp::Iadd => O::V_ADD_NC_U32,
        AluOp::Imul => O::V_MUL_LO_U32,
        AluOp::Imin => O::V_MIN_I32,
        AluOp::Imax => O::V_MAX_I32,
        AluOp::Umin => O::V_MIN_U32,
        AluOp::Umax => O::V_MAX_U32,
        AluOp::Iand => O::V_AND_B32,
        AluOp::Ior => O::V_OR_B32,
        AluOp::Ixor => O::V_XOR_B32,
        AluOp::Fadd => O::V_ADD_F32,
        AluOp::Fmul => O::V_MUL_F32,
        AluOp::Fmin => O::V_MIN_F32,
        AluOp::Fmax => O::V_MAX_F32,
        _ => return None,
    })
}

/// The VALU opcode of an f16 reduction.
fn valu_op_f16(op: AluOp) -> Option<O> {
    Some(match op {
        AluOp::Fadd => O::V_ADD_F16,
        AluOp::Fmul => O::V_MUL_F16,
        AluOp::Fmin => O::V_MIN_F16,
        AluOp::Fmax => O::V_MAX_F16,
        _ => return None,
    })
}

/// How two lanes' values combine.
#[derive(Clone, Copy)]
enum Combine {
    /// One VALU op per dword (32-bit and narrower operations, 64-bit bitwise operations).
    Dword(O),
    /// A 64-bit float op.
    F64(O),
    /// 64-bit integer add (the ALU's `v_add_co`/`v_add_co_ci` pair) or multiply.
    Int64(AluOp),
    /// 64-bit min (`true`) or max (`false`): the compare is signed or unsigned.
    MinMax64(AluOp, bool),
}

/// The combining op when it can carry the lane shift itself (DPP on a VOP2 op).
fn fused(p: &Plan) -> Option<O> {
    match p.comb {
        Combine::Dword(op) if has_vop2(op) => Some(op),
        _ => None,
    }
}

/// How an operand is prepared and combined: the combining step, the extension of narrow
/// integers (`Some(signed)`) and the identity in the width the combine works in.
struct Plan {
    comb: Combine,
    extend: Option<bool>,
    identity: u64,
}

fn plan(op: AluOp, bits: u8) -> Result<Plan, BackendError> {
    let id = |b: u8| identity(op, b).map_err(|e| unsupported(e.to_string()));
    let is_float = matches!(op, AluOp::Fadd | AluOp::Fmul | AluOp::Fmin | AluOp::Fmax);
    let (comb, extend, identity) = match (bits, op) {
        (32, _) => (valu_op(op).map(Combine::Dword), None, id(32)?),
        (16, _) if is_float => (valu_op_f16(op).map(Combine::Dword), None, id(16)?),
        (8 | 16, _) if !is_float => {
            let extend = match op {
                AluOp::Imin | AluOp::Imax => Some(true),
                AluOp::Umin | AluOp::Umax => Some(false),
                _ => None,
            };
            // The narrow identity extended like the operands: still an identity for the
            // 32-bit op, and the right narrow value where an exclusive scan yields it.
            let narrow = id(bits)?;
            let sign = 1u64 << (bits - 1);
            let wide = match extend {
                Some(true) if narrow & sign != 0 => {
                    narrow | (u64::from(u32::MAX) & !(2 * sign - 1))
                }
                _ => narrow,
            };
            (valu_op(op).map(Combine::Dword), extend, wide)
        }
        // Bitwise operations combine each dword on its own.
        (64, AluOp::Iand | AluOp::Ior | AluOp::Ixor) => {
            (valu_op(op).map(Combine::Dword), None, id(64)?)
        }
        (64, AluOp::Fadd) => (Some(Combine::F64(O::V_ADD_F64)), None, id(64)?),
        (64, AluOp::Fmul) => (Some(Combine::F64(O::V_MUL_F64)), None, id(64)?),
        (64, AluOp::Fmin) => (Some(Combine::F64(O::V_MIN_F64)), None, id(64)?),
        (64, AluOp::Fmax) => (Some(Combine::F64(O::V_MAX_F64)), None, id(64)?),
        (64, AluOp::Iadd | AluOp::Imul) => (Some(Combine::Int64(op)), None, id(64)?),
        (64, AluOp::Imin) => (Some(Combine::MinMax64(AluOp::Ilt, true)), None, id(64)?),
        (64, AluOp::Imax) => (Some(Combine::MinMax64(AluOp::Ilt, false)), None, id(64)?),
        (64, AluOp::Umin) => (Some(Combine::MinMax64(AluOp::Ult, true)), None, id(64)?),
        (64, AluOp::Umax) => (Some(Combine::MinMax64(AluOp::Ult, false)), None, id(64)?),
        _ => (None, None, 0),
    };
    let comb = comb.ok_or_else(|| {
        unsupported(format!("subgroup reduction {} on {bits}-bit values", op.name()))
    })?;
    Ok(Plan { comb, extend, identity })
}

impl Isel<'_> {
    /// Reductions and scans (see the module docs).
    pub(super) fn scan(
        &mut self,
        op: SubgroupOp,
        a: AluOp,
        x: MVal,
        bits: u8,
    ) -> Result<Vec<MVal>, BackendError> {
        let p = plan(a, bits)?;
        if let Some(r) = self.reduce_uniform(op, a, x, bits) {
            return Ok(vec![r]);
        }
        let dw = Self::dwords(bits);
        let mut xv = self.in_vgpr(x, dw)?;
        if let Some(signed) = p.extend {
            xv = self.bit_extend(xv, bits, signed);
        }
        let saved = self.exec_all();
        let ss = Src::R(saved, RegClass::S);
        let t = self.vreg(RegClass::V, dw);
        for k in 0..dw {
            // The identity as an inline constant or literal; the mask is the other
            // constant-bus read.
            let id = Src::I((p.identity >> (32 * u32::from(k))) as u32);
            let srcs = [id, Src::R(xv.at(k), RegClass::V), ss];
            self.emit(build::vop3(O::V_CNDMASK_B32, Some(t.at(k)), None, &srcs, 0));
        }
        let result = match op {
            SubgroupOp::Reduce(_) => {
                let t = self.reduce_rows(&p, dw, t, 16)?;
                let t = self.reduce_halves(&p, dw, t)?;
                // Every lane holds the total: read it once into SGPRs.
                let r = self.vreg(RegClass::S, dw);
                for d in 0..dw {
                    self.readlane_to(r.at(d), t.at(d), Src::I(0));
                }
                self.exec_set(ss);
                return Ok(vec![MVal::Reg(r, RegClass::S)]);
            }
            SubgroupOp::ClusteredReduce(_, n) if n >= 32 => {
                let t = self.reduce_rows(&p, dw, t, 16)?;
                self.reduce_halves(&p, dw, t)?
            }
            SubgroupOp::ClusteredReduce(_, n) => self.reduce_rows(&p, dw, t, n)?,
            _ => {
                let t = self.scan_rows(&p, dw, t)?;
                if matches!(op, SubgroupOp::ExclusiveScan(_)) {
                    self.shift_one(&p, dw, t)
                } else {
                    t
                }
            }
        };
        self.exec_set(ss);
        Ok(vec![MVal::Reg(result, RegClass::V)])
    }

    /// A reduction of a wave-uniform operand (an SGPR or a constant) needs no lane crossing:
    /// the idempotent integer operations return the operand, a sum is the operand times the
    /// active-lane count, an xor the operand if that count is odd. `None` where the shortcut
    /// does not apply: float operations (a NaN operand folded with the identity is not the
    /// operand; sums round differently from a lane-by-lane fold), products, 64-bit sums.
    fn reduce_uniform(&mut self, op: SubgroupOp, a: AluOp, x: MVal, bits: u8) -> Option<MVal> {
        use AluOp::*;
        if !matches!(x, MVal::Reg(_, RegClass::S) | MVal::Const(_)) {
            return None;
        }
        let idempotent = matches!(a, Iand | Ior | Imin | Imax | Umin | Umax);
        match op {
            SubgroupOp::Reduce(_) | SubgroupOp::ClusteredReduce(..) if idempotent => Some(x),
            SubgroupOp::Reduce(Iadd | Ixor) if bits <= 32 => {
                let xs = self.src(x).ok()?;
                let n = self.vreg(RegClass::S, 1);
                self.emit(build::sop1(O::S_BCNT1_I32_B32, n, build::EXEC, 1));
                if a == Ixor {
                    let (sn, one) = (Src::R(n, RegClass::S), Src::I(1));
                    self.emit(build::sop2(O::S_AND_B32, Some(n), sn, one, 1));
                }
                let r = self.vreg(RegClass::S, 1);
                self.emit(build::sop2(O::S_MUL_I32, Some(r), xs, Src::R(n, RegClass::S), 1));
                Some(MVal::Reg(r, RegClass::S))
            }
            _ => None,
        }
    }

    /// `x`'s low `bits` bits zero- or sign-extended to 32 (`v_bfe`).
    fn bit_extend(&mut self, x: RegRef, bits: u8, signed: bool) -> RegRef {
        let op = if signed { O::V_BFE_I32 } else { O::V_BFE_U32 };
        let r = self.vreg(RegClass::V, 1);
        let srcs = [Src::R(x, RegClass::V), Src::I(0), Src::I(u32::from(bits))];
        self.emit(build::vop3(op, Some(r), None, &srcs, 0));
        r
    }

    /// Combines each lane with the lanes of its aligned cluster of `n` (at most 16, one DPP
    /// row) through `row_xmask` butterflies; afterwards every lane holds its cluster's total.
    fn reduce_rows(
        &mut self,
        p: &Plan,
        dw: u8,
        mut t: RegRef,
        n: u8,
    ) -> Result<RegRef, BackendError> {
        for k in [1u16, 2, 4, 8].into_iter().filter(|&k| k < u16::from(n)) {
            if let Some(op) = fused(p) {
                // Every lane's source is valid: one DPP-modified op per dword.
                let r = self.vreg(RegClass::V, dw);
                for d in 0..dw {
                    self.dpp_op(op, r.at(d), t.at(d), t.at(d), DppCtl::new(0x160 + k));
                }
                t = r;
                continue;
            }
            let tmp = self.vreg(RegClass::V, dw);
            for d in 0..dw {
                self.dpp_mov_all(tmp.at(d), t.at(d), 0x160 + k);
            }
            t = self.combine(p.comb, dw, t, tmp)?;
        }
        Ok(t)
    }

    /// Combines the two rows' totals: `v_permlanex16` gives each lane the same lane of the
    /// other row.
    fn reduce_halves(&mut self, p: &Plan, dw: u8, t: RegRef) -> Result<RegRef, BackendError> {
        let (lo, hi) = (self.vreg(RegClass::S, 1), self.vreg(RegClass::S, 1));
        self.emit(build::sop1(O::S_MOV_B32, lo, Src::I(0x7654_3210), 1));
        self.emit(build::sop1(O::S_MOV_B32, hi, Src::I(0xfedc_ba98), 1));
        // EXEC is full, so every source lane is active and every lane is written.
        let other = self.vreg(RegClass::V, dw);
        for d in 0..dw {
            let srcs =
                [Src::R(t.at(d), RegClass::V), Src::R(lo, RegClass::S), Src::R(hi, RegClass::S)];
            self.emit(build::vop3(O::V_PERMLANEX16_B32, Some(other.at(d)), None, &srcs, 0));
        }
        self.combine(p.comb, dw, t, other)
    }

    /// Inclusive scan of the identity-filled copy `t` across the wave.
    fn scan_rows(&mut self, p: &Plan, dw: u8, mut t: RegRef) -> Result<RegRef, BackendError> {
        for k in [1u16, 2, 4, 8] {
            if let Some(op) = fused(p) {
                t = self.scan_step_fused(op, p.identity, dw, t, 0x110 + k);
                continue;
            }
            let tmp = self.shifted(p, dw, t, 0x110 + k);
            t = self.combine(p.comb, dw, t, tmp)?;
        }
        // Row 1 also takes row 0's total (lane 15).
        if let Some(op) = fused(p) {
            for d in 0..dw {
                // Every lane of row 1 reads lane 15 of row 0 (row 0's lanes read row 1's last
                // lane, unused), then only row 1 combines it (DPP row_mask, identity quad_perm).
                let x = self.vreg(RegClass::V, 1);
                let srcs = [Src::R(t.at(d), RegClass::V), Src::I(u32::MAX), Src::I(u32::MAX)];
                self.emit(build::vop3(O::V_PERMLANEX16_B32, Some(x), None, &srcs, 0));
                let c = DppCtl { row_mask: 0x2, keep: true, ..DppCtl::new(0xe4) };
                self.dpp_op(op, t.at(d), x, t.at(d), c);
            }
            return Ok(t);
        }
        let add = self.fill(p.identity, dw);
        let mut row0 = Vec::new();
        for d in 0..dw {
            row0.push(self.readlane(t.at(d), Src::I(15)));
        }
        self.exec_set(Src::I(0xffff_0000));
        for (d, r) in (0..dw).zip(row0) {
            // Only row 1 is written: the rest of `add` stays live through the move.
            let mut mi = build::vop1(O::V_MOV_B32, add.at(d), Src::R(r, RegClass::S));
            mi.uses.push(RegOp { slot: Slot::Vdst, reg: add.at(d), dwords: 1 });
            self.emit(mi);
        }
        self.exec_set(Src::I(u32::MAX));
        self.combine(p.comb, dw, t, add)
    }

    /// An inclusive scan shifted up by one lane (the exclusive scan): `row_shr:1` within each
    /// row, lane 15's value written into lane 16, the identity into lane 0.
    fn shift_one(&mut self, p: &Plan, dw: u8, t: RegRef) -> RegRef {
        let e = self.shifted(p, dw, t, 0x111);
        for d in 0..dw {
            let l15 = self.readlane(t.at(d), Src::I(15));
            let srcs = [Src::R(l15, RegClass::S), Src::I(16)];
            let ed = e.at(d);
            let mut mi = build::vop3(O::V_WRITELANE_B32, Some(ed), None, &srcs, 0);
            mi.uses.push(RegOp { slot: Slot::Vdst, reg: ed, dwords: 1 });
            self.emit(mi);
        }
        e
    }

    /// One scan step as a DPP-modified op: lanes whose source lies outside the row must end
    /// up with their own value, which `bound_ctrl` gives when the identity is zero (`0 op t`);
    /// otherwise they keep a copy of `t` made first.
    fn scan_step_fused(&mut self, op: O, identity: u64, dw: u8, t: RegRef, ctrl: u16) -> RegRef {
        if identity != 0 {
            // In place: the lanes not written already hold their own value.
            for d in 0..dw {
                let c = DppCtl { keep: true, ..DppCtl::new(ctrl) };
                self.dpp_op(op, t.at(d), t.at(d), t.at(d), c);
            }
            return t;
        }
        let r = self.vreg(RegClass::V, dw);
        for d in 0..dw {
            let c = DppCtl { zero: true, ..DppCtl::new(ctrl) };
            self.dpp_op(op, r.at(d), t.at(d), t.at(d), c);
        }
        r
    }

    /// `t` moved by the DPP row shift `ctrl`; lanes whose source lies outside the row get the
    /// identity (written as zero by `bound_ctrl` when that is the identity, else pre-filled).
    fn shifted(&mut self, p: &Plan, dw: u8, t: RegRef, ctrl: u16) -> RegRef {
        if p.identity == 0 {
            let r = self.vreg(RegClass::V, dw);
            for d in 0..dw {
                self.dpp_mov_zero(r.at(d), t.at(d), ctrl);
            }
            return r;
        }
        let r = self.fill(p.identity, dw);
        for d in 0..dw {
            self.dpp_mov(r.at(d), t.at(d), ctrl);
        }
        r
    }

    /// A fresh VGPR range holding `v` in every (enabled) lane.
    fn fill(&mut self, v: u64, dw: u8) -> RegRef {
        let r = self.vreg(RegClass::V, dw);
        for d in 0..dw {
            self.vmov(r.at(d), Src::I((v >> (32 * u32::from(d))) as u32));
        }
        r
    }

    fn combine(
        &mut self,
        c: Combine,
        dw: u8,
        a: RegRef,
        b: RegRef,
    ) -> Result<RegRef, BackendError> {
        let (av, bv) = (MVal::Reg(a, RegClass::V), MVal::Reg(b, RegClass::V));
        let r = match c {
            Combine::Dword(op) => {
                let r = self.vreg(RegClass::V, dw);
                for d in 0..dw {
                    self.emit(build::vop2(
                        op,
                        r.at(d),
                        Src::R(b.at(d), RegClass::V),
                        Src::R(a.at(d), RegClass::V),
                    ));
                }
                return Ok(r);
            }
            Combine::F64(op) => {
                let r = self.vreg(RegClass::V, 2);
                let srcs = [Src::R(a, RegClass::V), Src::R(b, RegClass::V)];
                self.emit(build::vop3w(op, Some((r, 2)), None, &srcs, 2, 0));
                return Ok(r);
            }
            Combine::Int64(AluOp::Imul) => return Ok(self.mul64_pair(a, b)),
            Combine::Int64(op) => self.alu_comp(op, 64, 64, &[av, bv], false)?,
            Combine::MinMax64(cmp, min) => {
                let lt = self.alu_comp(cmp, 1, 64, &[av, bv], false)?;
                let lt = self.src(lt)?;
                // Select straight into one register pair (no copies joining two halves).
                let (t, f) = if min { (a, b) } else { (b, a) };
                let r = self.vreg(RegClass::V, 2);
                for d in 0..2 {
                    let srcs = [Src::R(f.at(d), RegClass::V), Src::R(t.at(d), RegClass::V), lt];
                    self.emit(build::vop3(O::V_CNDMASK_B32, Some(r.at(d)), None, &srcs, 0));
                }
                return Ok(r);
            }
        };
        self.in_vgpr(r, 2)
    }

    /// The low 64 bits of `a * b`: `v_mad_u64_u32` of the low halves, with both cross
    /// products (only their low halves reach bit 63) added in through its 64-bit addend.
    fn mul64_pair(&mut self, a: RegRef, b: RegRef) -> RegRef {
        let v = |r: RegRef| Src::R(r, RegClass::V);
        let (c1, c2) = (self.vreg(RegClass::V, 1), self.vreg(RegClass::V, 1));
        self.emit(build::vop3(O::V_MUL_LO_U32, Some(c1), None, &[v(a), v(b.at(1))], 0));
        self.emit(build::vop3(O::V_MUL_LO_U32, Some(c2), None, &[v(a.at(1)), v(b)], 0));
        let addend = self.vreg(RegClass::V, 2);
        self.vmov(addend, Src::I(0));
        self.emit(build::vop2(O::V_ADD_NC_U32, addend.at(1), v(c1), v(c2)));
        let r = self.vreg(RegClass::V, 2);
        let carry = self.vreg(RegClass::S, 1);
        let srcs = [v(a), v(b), v(addend)];
        let mut mi = build::vop3w(O::V_MAD_U64_U32, Some((r, 2)), Some(carry), &srcs, 1, 0);
        if let Some(u) = mi.uses.iter_mut().find(|u| u.slot == Slot::Src2) {
            u.dwords = 2;
        }
        self.emit(mi);
        r
    }
}
