//! Subgroup operations on the wave32 hardware.
//!
//! - Votes, ballots and elect are scalar ops on lane masks ANDed with EXEC (`s_ff1`,
//!   `s_bcnt1`), so inactive lanes never count.
//! - Reductions and scans: see [`super::subgroup_scan`].
//! - Shuffles go through `ds_bpermute_b32` (the LDS crossbar, no LDS memory); quad ops with a
//!   constant lane are DPP `quad_perm` moves; broadcasts with a uniform lane are `v_readlane`.
//!
//! Supported data: 8-, 16-, 32- and 64-bit integers, f16, f32 and f64 and vectors of them for
//! every operation (data movement moves whole dwords: the undefined upper bits of narrow
//! values go along), and booleans for everything (votes, ballots, elect and and/or/xor
//! reductions on the masks; the rest on 0/1 values in VGPRs), vectors component by component.
//!
//! [`SUBGROUP_FEATURES`] states what this covers; the driver reports it as the device's subgroup
//! properties, and `tests/subgroup_sim.rs` runs a corpus shader for each class it lists.

use ferrum_isa::{Dpp16, Ext, Inst, Opcode as O, Operand, Special};

use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{MInst, RegClass, RegOp, RegRef, Slot};
use crate::ir::{AluOp, Stage, SubgroupOp, Value};

const EXEC_OP: Operand = Operand::Special(Special::ExecLo);

/// A DPP16 control and what happens to the lanes it does not feed.
#[derive(Clone, Copy)]
pub(super) struct DppCtl {
    /// The lane selection (`quad_perm`, `row_shr`, `row_xmask`, ...).
    pub ctrl: u16,
    /// Rows written (bit per row of 16 lanes).
    pub row_mask: u8,
    /// Lanes not written keep the destination's value, which is therefore read.
    pub keep: bool,
    /// `bound_ctrl`: an invalid source lane reads 0 and the lane is written.
    pub zero: bool,
}

impl DppCtl {
    pub(super) fn new(ctrl: u16) -> Self {
        DppCtl { ctrl, row_mask: 0xf, keep: false, zero: false }
    }
}

/// Whether `op` has a VOP2 encoding (the only VALU form besides VOP1 that takes DPP on gfx10).
pub(super) fn has_vop2(op: O) -> bool {
    ferrum_isa::tables::Enc::Vop2.form_of(op).is_some()
}

/// A class of subgroup operations, as Vulkan's `VkSubgroupFeatureFlagBits` and SPIR-V's
/// `GroupNonUniform*` capabilities divide them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubgroupClass {
    /// Elect, subgroup barriers.
    Basic,
    /// All, any, all-equal.
    Vote,
    /// Reductions and inclusive/exclusive scans.
    Arithmetic,
    /// Ballots, broadcasts and the bit-count helpers on ballots.
    Ballot,
    /// Shuffle by index and by xor.
    Shuffle,
    /// Shuffle up and down.
    ShuffleRelative,
    /// Clustered reductions.
    Clustered,
    /// Quad broadcast and swaps.
    Quad,
}

impl SubgroupClass {
    /// The SPIR-V capability a module declares to use the class.
    pub fn capability(self) -> spirv::Capability {
        use spirv::Capability as C;
        match self {
            Self::Basic => C::GroupNonUniform,
            Self::Vote => C::GroupNonUniformVote,
            Self::Arithmetic => C::GroupNonUniformArithmetic,
            Self::Ballot => C::GroupNonUniformBallot,
            Self::Shuffle => C::GroupNonUniformShuffle,
            Self::ShuffleRelative => C::GroupNonUniformShuffleRelative,
            Self::Clustered => C::GroupNonUniformClustered,
            Self::Quad => C::GroupNonUniformQuad,
        }
    }
}

/// What the backend compiles, for the driver to report as its subgroup properties.
#[derive(Clone, Copy, Debug)]
pub struct SubgroupFeatures {
    /// Stages whose shaders may use subgroup operations.
    pub stages: &'static [Stage],
    /// The operation classes, each for every type below.
    pub classes: &'static [SubgroupClass],
    /// Whether the classes work on 8-, 16- and 64-bit integers and f16 (scalars and vectors)
    /// as well as on 32-bit types, f64 and booleans: what
    /// `VK_KHR_shader_subgroup_extended_types` asks for.
    pub extended_types: bool,
}

/// The single source of the device's subgroup properties. The compiler tests run a corpus
/// shader for every class listed here (`tests/subgroup_sim.rs`).
pub const SUBGROUP_FEATURES: SubgroupFeatures = SubgroupFeatures {
    // The wave is the subgroup only in compute: the graphics stages have no lowering yet.
    stages: &[Stage::Compute],
    classes: &[
        SubgroupClass::Basic,
        SubgroupClass::Vote,
        SubgroupClass::Arithmetic,
        SubgroupClass::Ballot,
        SubgroupClass::Shuffle,
        SubgroupClass::ShuffleRelative,
        SubgroupClass::Clustered,
        SubgroupClass::Quad,
    ],
    extended_types: true,
};

impl Isel<'_> {
    fn sg_s(&mut self) -> RegRef {
        self.vreg(RegClass::S, 1)
    }

    fn sg_v(&mut self) -> RegRef {
        self.vreg(RegClass::V, 1)
    }

    /// Saves EXEC and enables every lane.
    pub(super) fn exec_all(&mut self) -> RegRef {
        let saved = self.sg_s();
        self.emit(build::sop1(O::S_MOV_B32, saved, build::EXEC, 1));
        self.emit(build::sop1_fixed(O::S_MOV_B32, EXEC_OP, Src::I(u32::MAX)));
        saved
    }

    pub(super) fn exec_set(&mut self, m: Src) {
        self.emit(build::sop1_fixed(O::S_MOV_B32, EXEC_OP, m));
    }

    /// `v_mov_b32_dpp dst, src ctrl`; lanes whose source is invalid keep `dst`, so `dst` must
    /// be initialised unless every source lane is valid (use [`Self::dpp_mov_all`] then).
    pub(super) fn dpp_mov(&mut self, dst: RegRef, src: RegRef, ctrl: u16) {
        self.dpp_mov_inner(dst, src, DppCtl { keep: true, ..DppCtl::new(ctrl) });
    }

    /// A DPP move whose every lane reads a valid source (row_xmask, quad_perm under full EXEC):
    /// `dst` is fully written, so its old value is not live.
    pub(super) fn dpp_mov_all(&mut self, dst: RegRef, src: RegRef, ctrl: u16) {
        self.dpp_mov_inner(dst, src, DppCtl::new(ctrl));
    }

    /// A DPP move whose lanes with an invalid source are written with 0 (`bound_ctrl`): as
    /// [`Self::dpp_mov`] onto a zero-filled `dst`, without the fill.
    pub(super) fn dpp_mov_zero(&mut self, dst: RegRef, src: RegRef, ctrl: u16) {
        self.dpp_mov_inner(dst, src, DppCtl { zero: true, ..DppCtl::new(ctrl) });
    }

    fn dpp_mov_inner(&mut self, dst: RegRef, src: RegRef, c: DppCtl) {
        let mi = build::vop1(O::V_MOV_B32, dst, Src::R(src, RegClass::V));
        self.emit_dpp(mi, dst, c);
    }

    /// `op_dpp dst, a, b`: `a` from the lane `c.ctrl` selects, combined with this lane's `b`
    /// (`op` must have a VOP2 form, see [`has_vop2`]).
    pub(super) fn dpp_op(&mut self, op: O, dst: RegRef, a: RegRef, b: RegRef, c: DppCtl) {
        let mi = build::vop2(op, dst, Src::R(a, RegClass::V), Src::R(b, RegClass::V));
        self.emit_dpp(mi, dst, c);
    }

    fn emit_dpp(&mut self, mut mi: MInst, dst: RegRef, c: DppCtl) {
        let dpp = Dpp16 {
            ctrl: c.ctrl,
            row_mask: c.row_mask,
            bank_mask: 0xf,
            bound_ctrl: c.zero,
            fi: false,
            neg: 0,
            abs: 0,
        };
        match &mut mi.inst {
            Inst::Vop1(i) => i.ext = Ext::Dpp16(dpp),
            Inst::Vop2(i) => i.ext = Ext::Dpp16(dpp),
            _ => unreachable!("DPP on a VOP1 or VOP2 instruction only"),
        }
        if c.keep {
            // The lanes not written keep their value: the old contents are read too.
            mi.uses.push(RegOp { slot: Slot::Vdst, reg: dst, dwords: 1 });
        }
        self.emit(mi);
    }

    pub(super) fn readlane(&mut self, v: RegRef, lane: Src) -> RegRef {
        let d = self.sg_s();
        self.readlane_to(d, v, lane);
        d
    }

    /// `v_readlane_b32 d, v, lane` (`d` may be one dword of a wider SGPR range).
    pub(super) fn readlane_to(&mut self, d: RegRef, v: RegRef, lane: Src) {
        let mut mi = build::vop3(O::V_READLANE_B32, None, None, &[Src::R(v, RegClass::V), lane], 0);
        mi.defs.push(RegOp { slot: Slot::Vdst, reg: d, dwords: 1 });
        self.emit(mi);
    }

    pub(super) fn vmov(&mut self, d: RegRef, s: Src) {
        self.emit(build::vop1(O::V_MOV_B32, d, s));
    }

    fn apply(&mut self, op: O, a: RegRef, b: Src) -> RegRef {
        let d = self.sg_v();
        self.emit(build::vop2(op, d, b, Src::R(a, RegClass::V)));
        d
    }

    /// A boolean as a lane-mask operand.
    fn mask_src(&self, c: MVal) -> Src {
        match c {
            MVal::Const(0) => Src::I(0),
            MVal::Const(_) => Src::I(u32::MAX),
            MVal::Reg(r, class) => Src::R(r, class),
            MVal::Res(_) => Src::I(0),
        }
    }

    /// `-1` if SCC else `0`.
    fn scc_mask(&mut self, t: u32, f: u32) -> MVal {
        MVal::Reg(self.scc_reg(t, f), RegClass::S)
    }

    /// `t` if `x != 0` else `f` (an explicit compare: SCC from an ALU op whose result is
    /// otherwise unused would not survive dead-code elimination).
    fn nonzero_mask(&mut self, x: RegRef, t: u32, f: u32) -> MVal {
        self.emit(build::sopc(O::S_CMP_LG_U32, Src::R(x, RegClass::S), Src::I(0)));
        self.scc_mask(t, f)
    }

    fn scc_reg(&mut self, t: u32, f: u32) -> RegRef {
        let r = self.sg_s();
        self.emit(build::sop2(O::S_CSELECT_B32, Some(r), Src::I(t), Src::I(f), 1));
        r
    }

    pub(super) fn select_subgroup(
        &mut self,
        op: SubgroupOp,
        dst: Option<Value>,
        srcs: &[Value],
    ) -> Result<(), BackendError> {
        let d = dst.ok_or_else(|| unsupported("subgroup op without result"))?;
        let (bits, comps) = srcs.first().map_or((1, 1), |v| self.shape(*v));
        let lane = match srcs.get(1) {
            Some(v) => Some(self.comp(*v, 0)?),
            None => None,
        };
        let out = if op == SubgroupOp::AllEqual {
            vec![self.all_equal(srcs[0], bits, comps)?]
        } else {
            // Component by component (vectors of booleans included).
            let mut out = Vec::new();
            for i in 0..usize::from(comps) {
                if bits != 1 {
                    out.extend(self.subgroup_data(op, bits, self.comp(srcs[0], i)?, lane)?);
                    continue;
                }
                let c = match srcs.first() {
                    Some(v) => self.mask_src(self.comp(*v, i)?),
                    None => Src::I(0),
                };
                out.push(if Self::mask_op(op) {
                    self.subgroup_bool(op, c)?
                } else {
                    self.bool_via_data(op, c, lane)?
                });
            }
            out
        };
        let out = match op {
            SubgroupOp::Ballot => vec![out[0], MVal::Const(0), MVal::Const(0), MVal::Const(0)],
            _ => out,
        };
        self.set(d, out);
        Ok(())
    }

    /// Boolean operations done on the lane masks themselves.
    fn mask_op(op: SubgroupOp) -> bool {
        matches!(
            op,
            SubgroupOp::Elect
                | SubgroupOp::Ballot
                | SubgroupOp::Any
                | SubgroupOp::All
                | SubgroupOp::AllEqual
                | SubgroupOp::BroadcastFirst
                | SubgroupOp::Reduce(AluOp::Iand | AluOp::Ior | AluOp::Ixor)
        )
    }

    /// Other boolean operations run on 0/1 in a VGPR (and/or/xor of 0/1 are the logical ops)
    /// and turn the result back into a lane mask.
    fn bool_via_data(
        &mut self,
        op: SubgroupOp,
        c: Src,
        lane: Option<MVal>,
    ) -> Result<MVal, BackendError> {
        let v = self.sg_v();
        self.emit(build::vop3(O::V_CNDMASK_B32, Some(v), None, &[Src::I(0), Src::I(1), c], 0));
        let r = self.subgroup_data(op, 32, MVal::Reg(v, RegClass::V), lane)?;
        match r[0] {
            MVal::Reg(x, RegClass::V) => {
                let m = self.sg_s();
                self.emit(build::vcmp(O::V_CMP_NE_U32, m, Src::I(0), Src::R(x, RegClass::V), 1));
                Ok(MVal::Reg(m, RegClass::S))
            }
            MVal::Reg(x, RegClass::S) => Ok(self.nonzero_mask(x, u32::MAX, 0)),
            other => Ok(other),
        }
    }

    fn subgroup_bool(&mut self, op: SubgroupOp, c: Src) -> Result<MVal, BackendError> {
        let t = self.sg_s();
        Ok(match op {
            SubgroupOp::Elect => {
                self.emit(build::sop1(O::S_FF1_I32_B32, t, build::EXEC, 1));
                let r = self.sg_s();
                self.emit(build::sop2(
                    O::S_LSHL_B32,
                    Some(r),
                    Src::I(1),
                    Src::R(t, RegClass::S),
                    1,
                ));
                MVal::Reg(r, RegClass::S)
            }
            SubgroupOp::Ballot => {
                self.emit(build::sop2(O::S_AND_B32, Some(t), c, build::EXEC, 1));
                MVal::Reg(t, RegClass::S)
            }
            SubgroupOp::Any | SubgroupOp::Reduce(AluOp::Ior) => {
                self.emit(build::sop2(O::S_AND_B32, Some(t), c, build::EXEC, 1));
                self.nonzero_mask(t, u32::MAX, 0)
            }
            SubgroupOp::All | SubgroupOp::Reduce(AluOp::Iand) => {
                self.emit(build::sop2(O::S_ANDN2_B32, Some(t), build::EXEC, c, 1));
                self.nonzero_mask(t, 0, u32::MAX)
            }
            SubgroupOp::Reduce(AluOp::Ixor) => {
                self.emit(build::sop2(O::S_AND_B32, Some(t), c, build::EXEC, 1));
                let n = self.sg_s();
                self.emit(build::sop1(O::S_BCNT1_I32_B32, n, Src::R(t, RegClass::S), 1));
                self.emit(build::sop2(O::S_AND_B32, Some(n), Src::R(n, RegClass::S), Src::I(1), 1));
                self.nonzero_mask(n, u32::MAX, 0)
            }
            SubgroupOp::AllEqual => {
                // All active lanes true, or none.
                self.emit(build::sop2(O::S_AND_B32, Some(t), c, build::EXEC, 1));
                let u = self.sg_s();
                self.emit(build::sop2(
                    O::S_XOR_B32,
                    Some(u),
                    Src::R(t, RegClass::S),
                    build::EXEC,
                    1,
                ));
                self.emit(build::sopc(O::S_CMP_EQ_U32, Src::R(t, RegClass::S), Src::I(0)));
                let a = self.scc_reg(u32::MAX, 0);
                self.emit(build::sopc(O::S_CMP_EQ_U32, Src::R(u, RegClass::S), Src::I(0)));
                let b = self.scc_reg(u32::MAX, 0);
                let r = self.sg_s();
                let (sa, sb) = (Src::R(a, RegClass::S), Src::R(b, RegClass::S));
                self.emit(build::sop2(O::S_OR_B32, Some(r), sa, sb, 1));
                MVal::Reg(r, RegClass::S)
            }
            SubgroupOp::BroadcastFirst => {
                self.emit(build::sop1(O::S_FF1_I32_B32, t, build::EXEC, 1));
                let u = self.sg_s();
                self.emit(build::sop2(O::S_LSHR_B32, Some(u), c, Src::R(t, RegClass::S), 1));
                self.emit(build::sop2(O::S_AND_B32, Some(u), Src::R(u, RegClass::S), Src::I(1), 1));
                self.nonzero_mask(u, u32::MAX, 0)
            }
            other => return Err(unsupported(format!("subgroup {} on booleans", other.name()))),
        })
    }

    fn subgroup_data(
        &mut self,
        op: SubgroupOp,
        bits: u8,
        x: MVal,
        lane: Option<MVal>,
    ) -> Result<Vec<MVal>, BackendError> {
        let dw = Self::dwords(bits);
        match op {
            SubgroupOp::BroadcastFirst | SubgroupOp::Broadcast => {
                if let MVal::Reg(_, RegClass::S) | MVal::Const(_) = x {
                    return Ok(vec![x]);
                }
                let v = self.in_vgpr(x, dw)?;
                let r = self.vreg(RegClass::S, dw);
                let lane = match lane {
                    None => None,
                    Some(l) => Some(self.uniform_lane(l)?),
                };
                for i in 0..dw {
                    match lane {
                        None => self.emit(build::readfirstlane(r.at(i), v.at(i))),
                        Some(l) => self.readlane_to(r.at(i), v.at(i), l),
                    }
                }
                Ok(vec![MVal::Reg(r, RegClass::S)])
            }
            SubgroupOp::QuadSwap(k) => {
                let sel = [0u16, 0xb1, 0x4e, 0x1b][usize::from(k & 3)];
                self.dpp_move(x, dw, sel)
            }
            SubgroupOp::QuadBroadcast if matches!(lane, Some(MVal::Const(_))) => {
                let Some(MVal::Const(l)) = lane else { return Err(unsupported("quad lane")) };
                self.dpp_move(x, dw, (l & 3) as u16 * 0x55)
            }
            SubgroupOp::Shuffle
            | SubgroupOp::ShuffleXor
            | SubgroupOp::ShuffleUp
            | SubgroupOp::ShuffleDown
            | SubgroupOp::QuadBroadcast => {
                let l = lane.ok_or_else(|| unsupported("shuffle without lane"))?;
                self.shuffle(op, x, dw, l)
            }
            SubgroupOp::Derivative { y, fine } => Ok(vec![self.derivative(x, bits, y, fine)?]),
            SubgroupOp::Reduce(a)
            | SubgroupOp::InclusiveScan(a)
            | SubgroupOp::ExclusiveScan(a)
            | SubgroupOp::ClusteredReduce(a, _) => self.scan(op, a, x, bits),
            other => Err(unsupported(format!("subgroup {} on data", other.name()))),
        }
    }

    /// Lanes whose value differs from the first active lane's, in any dword of any component.
    fn all_equal(&mut self, x: Value, bits: u8, comps: u8) -> Result<MVal, BackendError> {
        if bits == 1 {
            return self.all_equal_bool(x, comps);
        }
        let diff = self.sg_s();
        self.emit(build::sop1(O::S_MOV_B32, diff, Src::I(0), 1));
        for i in 0..usize::from(comps) {
            let c = self.comp(x, i)?;
            let MVal::Reg(mut v, RegClass::V) = c else { continue };
            if bits < 32 {
                // Only the low bits of a narrow value are defined.
                v = self.apply(O::V_AND_B32, v, Src::I((1u32 << bits) - 1));
            }
            for k in 0..Self::dwords(bits) {
                let f = self.sg_s();
                self.emit(build::readfirstlane(f, v.at(k)));
                let m = self.sg_s();
                let (sf, sv) = (Src::R(f, RegClass::S), Src::R(v.at(k), RegClass::V));
                self.emit(build::vcmp(O::V_CMP_NE_U32, m, sf, sv, 1));
                let (sd, sm) = (Src::R(diff, RegClass::S), Src::R(m, RegClass::S));
                self.emit(build::sop2(O::S_OR_B32, Some(diff), sd, sm, 1));
            }
        }
        let t = self.sg_s();
        self.emit(build::sop2(O::S_AND_B32, Some(t), Src::R(diff, RegClass::S), build::EXEC, 1));
        Ok(self.nonzero_mask(t, 0, u32::MAX))
    }

    /// Every component of a boolean vector the same in all active lanes.
    fn all_equal_bool(&mut self, x: Value, comps: u8) -> Result<MVal, BackendError> {
        let mut all: Option<MVal> = None;
        for i in 0..usize::from(comps) {
            let c = self.mask_src(self.comp(x, i)?);
            let e = self.subgroup_bool(SubgroupOp::AllEqual, c)?;
            all = Some(match all {
                None => e,
                Some(a) => {
                    let r = self.sg_s();
                    let (sa, se) = (self.mask_src(a), self.mask_src(e));
                    self.emit(build::sop2(O::S_AND_B32, Some(r), sa, se, 1));
                    MVal::Reg(r, RegClass::S)
                }
            });
        }
        Ok(all.unwrap_or(MVal::Const(1)))
    }

    fn uniform_lane(&mut self, l: MVal) -> Result<Src, BackendError> {
        Ok(match l {
            MVal::Const(c) => Src::I((c & 31) as u32),
            MVal::Reg(r, RegClass::S) => Src::R(r, RegClass::S),
            MVal::Reg(r, RegClass::V) => {
                let s = self.sg_s();
                self.emit(build::readfirstlane(s, r));
                Src::R(s, RegClass::S)
            }
            MVal::Res(_) => return Err(unsupported("a resource as a lane index")),
        })
    }

    /// A quad difference (see [`SubgroupOp::Derivative`]): the lane pairs as DPP `quad_perm`
    /// selections (lane `i` of the quad reads lane `perm[i]`), the higher minus the lower. The
    /// quad's lanes 0..3 are the pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1) as the SPI packs
    /// them (ACO's derivatives take the same pairs).
    pub(super) fn derivative(
        &mut self,
        x: MVal,
        bits: u8,
        y: bool,
        fine: bool,
    ) -> Result<MVal, BackendError> {
        if self.shader.stage != Stage::Fragment {
            return Err(unsupported("derivatives outside fragment shaders"));
        }
        if !matches!(x, MVal::Reg(_, RegClass::V)) {
            // The same in every lane of the quad.
            return Ok(MVal::Const(0));
        }
        let perm = |p: [u16; 4]| p[0] | p[1] << 2 | p[2] << 4 | p[3] << 6;
        let (hi, lo) = match (y, fine) {
            (false, false) => ([1, 1, 1, 1], [0, 0, 0, 0]),
            (false, true) => ([1, 1, 3, 3], [0, 0, 2, 2]),
            (true, false) => ([2, 2, 2, 2], [0, 0, 0, 0]),
            (true, true) => ([2, 3, 2, 3], [0, 1, 0, 1]),
        };
        let v = self.in_vgpr(x, Self::dwords(bits))?;
        if bits == 64 {
            // No DPP on VOP3: move both operands, then subtract.
            let a = self.dpp_move(x, 2, perm(hi))?[0];
            let b = self.dpp_move(x, 2, perm(lo))?[0];
            return self.alu_comp(AluOp::Fsub, 64, 64, &[a, b], false);
        }
        let low = self.sg_v();
        self.dpp_mov_all(low, v, perm(lo));
        let d = self.sg_v();
        let op = if bits == 16 { O::V_SUB_F16 } else { O::V_SUB_F32 };
        self.dpp_op(op, d, v, low, DppCtl::new(perm(hi)));
        Ok(MVal::Reg(d, RegClass::V))
    }

    fn dpp_move(&mut self, x: MVal, dw: u8, ctrl: u16) -> Result<Vec<MVal>, BackendError> {
        let v = self.in_vgpr(x, dw)?;
        let r = self.vreg(RegClass::V, dw);
        for i in 0..dw {
            self.dpp_mov_all(r.at(i), v.at(i), ctrl);
        }
        Ok(vec![MVal::Reg(r, RegClass::V)])
    }

    fn shuffle(
        &mut self,
        op: SubgroupOp,
        x: MVal,
        dw: u8,
        l: MVal,
    ) -> Result<Vec<MVal>, BackendError> {
        let v = self.in_vgpr(x, dw)?;
        let ls = self.src(l)?;
        let id = self.sg_v();
        self.emit(build::vop3(
            O::V_MBCNT_LO_U32_B32,
            Some(id),
            None,
            &[Src::I(u32::MAX), Src::I(0)],
            0,
        ));
        let ids = Src::R(id, RegClass::V);
        let lane = match op {
            SubgroupOp::Shuffle => self.in_vgpr(l, 1)?,
            SubgroupOp::ShuffleXor => self.apply(O::V_XOR_B32, id, ls),
            SubgroupOp::ShuffleDown => self.apply(O::V_ADD_NC_U32, id, ls),
            SubgroupOp::ShuffleUp => {
                let d = self.sg_v();
                self.emit(build::vop3(O::V_SUB_NC_U32, Some(d), None, &[ids, ls], 0));
                d
            }
            _ => {
                let q = self.apply(O::V_AND_B32, id, Src::I(!3));
                let k = self.sg_v();
                self.emit(build::vop3(O::V_AND_B32, Some(k), None, &[ls, Src::I(3)], 0));
                self.apply(O::V_OR_B32, q, Src::R(k, RegClass::V))
            }
        };
        let addr = self.sg_v();
        self.emit(build::vop2(O::V_LSHLREV_B32, addr, Src::I(2), Src::R(lane, RegClass::V)));
        let r = self.vreg(RegClass::V, dw);
        for i in 0..dw {
            self.emit(build::ds(O::DS_BPERMUTE_B32, Some((r.at(i), 1)), addr, &[(v.at(i), 1)], 0));
        }
        Ok(vec![MVal::Reg(r, RegClass::V)])
    }
}
