//! Instruction selection: lowered IR to machine IR with virtual registers.
//!
//! Control flow is lowered the way a wave executes it: blocks run in a fixed layout order
//! (see [`layout_order`]), each with EXEC set to the lanes that reached it. The general case
//! is a lane mask per block in an SGPR that its predecessors OR their outgoing lanes into; the
//! block starts by moving its mask into EXEC and skips itself (`s_cbranch_execz`), together
//! with everything it dominates, when no lane arrived. A loop jumps back to its header while
//! the header's mask is non-zero. That scheme covers any reducible CFG: if/else, switch,
//! loops with break and continue, early returns. Most blocks need less, and `cf_plan`
//! decides how little:
//! - a block entered only by falling through from its single predecessor keeps EXEC;
//! - a block with a single predecessor gets its mask written whole there (no OR, no zeroing);
//! - the join of a single-entry, single-exit region restores EXEC from a copy its head took;
//! - uniform if/else, switch and loops (conditions the same in every lane, see
//!   [`crate::analysis::divergence`]) branch on SCC with `s_cbranch_scc*` and leave EXEC
//!   alone; divergent constructs nested in them keep masks, and vice versa.
//!
//! φs become copies on each incoming edge, executed with EXEC narrowed to the lanes taking
//! that edge (on a jump's own path for uniform branches).
//!
//! Uniform values live in SGPRs and use the scalar unit where it has the operation; divergent
//! ones live in VGPRs. Booleans are lane masks in one SGPR (wave32).

mod alu;
mod alu_atan;
mod alu_bits;
mod alu_f16;
mod alu_float;
mod alu_int;
mod arith64;
pub(crate) mod build;
mod cf;
mod cf_plan;
mod const_data;
mod cvt64;
mod cvt_round;
mod div64;
mod div_const;
mod div_const32;
mod export_values;
mod image;
mod image_desc;
mod image_sample;
pub mod io;
mod kill_if;
pub mod layout_order;
mod mem;
mod private_index;
pub(crate) mod scratch;
mod subgroup;
mod subgroup_scan;
mod vertex_fetch;

use rustc_hash::FxHashMap as HashMap;

use ferrum_isa::Opcode;

pub use build::Src;
pub use subgroup::{SubgroupClass, SubgroupFeatures, SUBGROUP_FEATURES};

use super::abi::{self, ResourceLayout};
use super::error::{unsupported, BackendError};
use super::mir::{MFunc, MInst, RegClass, RegRef, VRegInfo};
use crate::analysis::divergence::Divergence;
use crate::ir::{Function, Inst, InstKind, Shader, Stage, Value};

/// Run-time value of a resource index that is chosen per lane or through a φ (variable
/// pointers): this tag plus the resource's position in the selector's list.
pub(crate) const RES_CODE: u32 = 0x7e00_0000;
/// Set number of resource entries whose descriptor is chosen at run time.
pub(crate) const DYNAMIC_SET: u32 = u32::MAX;

/// A selected value component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MVal {
    /// A known bit pattern.
    Const(u64),
    /// A register (1 or 2 dwords for 32/64-bit components; booleans are 1-dword lane masks).
    Reg(RegRef, RegClass),
    /// A descriptor-buffer resource (index into the selector's resource list).
    Res(u32),
}

/// The ABI's input registers as virtual registers pinned to their hardware registers.
#[derive(Clone, Copy, Debug)]
pub struct Inputs {
    /// `s[0:1]`.
    pub set_table: RegRef,
    /// `s[2:3]`.
    pub push: RegRef,
    /// `s[4:5]`.
    pub num_groups: RegRef,
    /// `s6..s8`.
    pub group_id: [RegRef; 3],
    /// `v0..v2`.
    pub local_id: [RegRef; 3],
    /// Scratch ring address and this wave's byte offset into it, for shaders whose private
    /// memory lives in the ring.
    pub scratch: Option<(RegRef, RegRef)>,
}

/// Selection state for one function.
pub struct Isel<'a> {
    pub(crate) shader: &'a Shader,
    pub(crate) f: &'a Function,
    pub(crate) layout: &'a ResourceLayout,
    pub(crate) div: Divergence,
    pub(crate) mf: MFunc,
    pub(crate) cur: usize,
    vals: Vec<Option<Vec<MVal>>>,
    /// Resources: (set, binding, array index).
    pub(crate) res: Vec<(u32, u32, MVal)>,
    vsharp: HashMap<(u32, u32, u32), RegRef>,
    /// Image, sampler and texel-buffer descriptors with constant indices, loaded in the
    /// prologue: (set, binding, element, byte offset within the element).
    image_desc: HashMap<(u32, u32, u32, u32), RegRef>,
    set_base: HashMap<u32, RegRef>,
    pub(crate) inputs: Inputs,
    /// Per-invocation scratch kept in VGPRs, one per dword (see [`mem`]).
    pub(crate) scratch: Vec<RegRef>,
    /// Private data lives in the scratch ring, not in VGPRs ([`scratch::in_memory`]).
    pub(crate) private_in_memory: bool,
    /// Private data lives in VGPRs, where dynamic indices move M0 (see [`private_index`]).
    pub(crate) indexed_private: bool,
    /// The block whose code has set M0 to PRIM_MASK with no M0-relative move since.
    pub(crate) m0_prim: Option<usize>,
    /// Waterfall loops selected inside blocks, split off by [`private_index::split_waterfalls`].
    waterfalls: Vec<private_index::Waterfall>,
    /// 64-bit divisions done in the current machine block, so that `x / d` and `x % d` share
    /// one (see [`div64`]).
    div_cache: Vec<div64::CachedDivision>,
    /// 32-bit quotients by constants in the current machine block (see [`div_const32`]).
    quotients: Vec<div_const32::CachedQuotient>,
    /// Definitions and value bounds, for folding address constants (see [`mem`]).
    pub(crate) bounds: crate::analysis::bounds::Bounds<'a>,
    /// Vertex/pixel shader inputs and outputs.
    pub(crate) gfx: io::GfxIo,
}

fn pinned(mf: &mut MFunc, class: RegClass, size: u8, reg: u8) -> RegRef {
    let r = mf.vreg(class, size);
    mf.vregs[r.vreg.0 as usize] = VRegInfo { class, size, align: 1, fixed: Some(reg) };
    r
}

impl<'a> Isel<'a> {
    fn new(
        shader: &'a Shader,
        layout: &'a ResourceLayout,
        scratch: bool,
        key: abi::graphics::GfxKey,
    ) -> Self {
        let f = shader.entry_fn();
        let mut mf = MFunc::default();
        let private_in_memory = scratch::in_memory(shader);
        let scratch = scratch || private_in_memory;
        let user = abi::UserSgprs { scratch };
        // Graphics stages find the ring address and wave offset after their own SGPRs.
        let (ring_sgpr, wave_off_sgpr) = match shader.stage {
            Stage::Vertex | Stage::Fragment => {
                let g = abi::graphics::GfxSgprs { pixel: shader.stage == Stage::Fragment, scratch };
                (g.scratch_ring(), g.scratch_wave_offset())
            }
            _ => (scratch.then_some(abi::SGPR_SCRATCH_RING), user.scratch_wave_offset()),
        };
        let inputs = Inputs {
            set_table: pinned(&mut mf, RegClass::S, 2, abi::SGPR_SET_TABLE),
            push: pinned(&mut mf, RegClass::S, 2, abi::SGPR_PUSH_BLOCK),
            num_groups: pinned(&mut mf, RegClass::S, 2, abi::SGPR_NUM_WORKGROUPS),
            group_id: user.workgroup_id().map(|r| pinned(&mut mf, RegClass::S, 1, r)),
            local_id: abi::VGPR_LOCAL_ID.map(|r| pinned(&mut mf, RegClass::V, 1, r)),
            scratch: ring_sgpr.zip(wave_off_sgpr).map(|(ring, off)| {
                let ring = pinned(&mut mf, RegClass::S, 2, ring);
                (ring, pinned(&mut mf, RegClass::S, 1, off))
            }),
        };
        let gfx = io::GfxIo::new(shader, &mut mf, key, scratch);
        Isel {
            gfx,
            shader,
            f,
            layout,
            div: crate::analysis::divergence::analyze(f),
            mf,
            cur: 0,
            vals: vec![None; f.values.len()],
            res: Vec::new(),
            vsharp: HashMap::default(),
            image_desc: HashMap::default(),
            set_base: HashMap::default(),
            inputs,
            scratch: Vec::new(),
            private_in_memory,
            indexed_private: !private_in_memory && shader.scratch_size > 0,
            m0_prim: None,
            waterfalls: Vec::new(),
            div_cache: Vec::new(),
            quotients: Vec::new(),
            bounds: crate::analysis::bounds::Bounds::new(shader, f),
        }
    }

    /// Appends to the current block.
    pub(crate) fn emit(&mut self, mi: MInst) {
        self.mf.blocks[self.cur].insts.push(mi);
    }

    /// Appends to the prologue (block 0), which dominates everything.
    fn emit_prologue(&mut self, mi: MInst) {
        self.mf.blocks[0].insts.push(mi);
    }

    /// A fresh virtual register.
    pub(crate) fn vreg(&mut self, class: RegClass, size: u8) -> RegRef {
        self.mf.vreg(class, size)
    }

    /// The selected components of `v`.
    pub(crate) fn get(&self, v: Value) -> Result<Vec<MVal>, BackendError> {
        self.vals[v.0 as usize]
            .clone()
            .ok_or_else(|| unsupported(format!("value %{} used before selection", v.0)))
    }

    /// Component `i` of `v` (a scalar operand is broadcast).
    pub(crate) fn comp(&self, v: Value, i: usize) -> Result<MVal, BackendError> {
        let c = self.get(v)?;
        Ok(if c.len() == 1 { c[0] } else { c[i.min(c.len() - 1)] })
    }

    pub(crate) fn set(&mut self, v: Value, comps: Vec<MVal>) {
        self.vals[v.0 as usize] = Some(comps);
    }

    /// (bits, comps) of `v`.
    pub(crate) fn shape(&self, v: Value) -> (u8, u8) {
        self.f.ty(v).shape()
    }

    pub(crate) fn is_div(&self, v: Value) -> bool {
        self.div.is_divergent(v)
    }

    /// `v` as an instruction source (32-bit component or the low half of a constant).
    pub(crate) fn src(&self, v: MVal) -> Result<Src, BackendError> {
        match v {
            MVal::Const(c) => Ok(Src::I(c as u32)),
            MVal::Reg(r, c) => Ok(Src::R(r, c)),
            MVal::Res(id) => Ok(Src::I(RES_CODE | id)),
        }
    }

    /// `v` in a VGPR (copied if it is a constant or an SGPR); 1 or 2 dwords.
    pub(crate) fn in_vgpr(&mut self, v: MVal, dw: u8) -> Result<RegRef, BackendError> {
        if let MVal::Reg(r, RegClass::V) = v {
            return Ok(r);
        }
        let d = self.vreg(RegClass::V, dw);
        for i in 0..dw {
            let s = match v {
                MVal::Const(c) => Src::I((c >> (32 * u32::from(i))) as u32),
                MVal::Reg(r, c) => Src::R(r.at(i), c),
                MVal::Res(id) => Src::I(RES_CODE | id),
            };
            self.emit(build::vop1(Opcode::V_MOV_B32, d.at(i), s));
        }
        Ok(d)
    }

    /// `v` in SGPRs; `None` if it is divergent data in VGPRs.
    pub(crate) fn in_sgpr(
        &mut self,
        v: MVal,
        dw: u8,
        uniform: bool,
    ) -> Result<Option<RegRef>, BackendError> {
        match v {
            MVal::Reg(r, RegClass::S) => Ok(Some(r)),
            MVal::Const(c) => {
                let d = self.vreg(RegClass::S, dw);
                if dw == 2 {
                    self.emit(build::sop1(Opcode::S_MOV_B32, d, Src::I(c as u32), 1));
                    self.emit(build::sop1(Opcode::S_MOV_B32, d.at(1), Src::I((c >> 32) as u32), 1));
                } else {
                    self.emit(build::sop1(Opcode::S_MOV_B32, d, Src::I(c as u32), 1));
                }
                Ok(Some(d))
            }
            MVal::Reg(r, RegClass::V) if uniform => {
                let d = self.vreg(RegClass::S, dw);
                for i in 0..dw {
                    self.emit(build::readfirstlane(d.at(i), r.at(i)));
                }
                Ok(Some(d))
            }
            MVal::Reg(..) => Ok(None),
            MVal::Res(_) => Err(unsupported("a buffer resource used as data")),
        }
    }

    /// The 64-bit base address of descriptor set `set` (loaded once, in the prologue).
    fn set_base(&mut self, set: u32) -> RegRef {
        if let Some(&r) = self.set_base.get(&set) {
            return r;
        }
        let r = self.vreg(RegClass::S, 2);
        let table = self.inputs.set_table;
        self.emit_prologue(build::smem_load(
            Opcode::S_LOAD_DWORDX2,
            r,
            2,
            table,
            2,
            build::SmemOff::Imm(set * 8),
        ));
        self.set_base.insert(set, r);
        r
    }

    /// The V# of `(set, binding)[k]`, loaded once in the prologue.
    fn vsharp_const(&mut self, set: u32, binding: u32, k: u32) -> Result<RegRef, BackendError> {
        if let Some(&r) = self.vsharp.get(&(set, binding, k)) {
            return Ok(r);
        }
        let b =
            *self.layout.get(set, binding).ok_or(BackendError::MissingBinding { set, binding })?;
        let base = if b.kind.is_dynamic() { self.inputs.push } else { self.set_base(set) };
        let off = b.descriptor_offset() + k * abi::BUFFER_DESCRIPTOR_SIZE;
        let r = self.vreg(RegClass::S, 4);
        let load =
            build::smem_load(Opcode::S_LOAD_DWORDX4, r, 4, base, 2, build::SmemOff::Imm(off));
        self.emit_prologue(load);
        self.vsharp.insert((set, binding, k), r);
        Ok(r)
    }

    /// The V# of resource `id` when its index is uniform.
    pub(crate) fn vsharp(&mut self, id: u32) -> Result<RegRef, BackendError> {
        let (set, binding, index) = self.res[id as usize];
        if let MVal::Const(k) = index {
            return self.vsharp_const(set, binding, k as u32);
        }
        let b =
            *self.layout.get(set, binding).ok_or(BackendError::MissingBinding { set, binding })?;
        let base = if b.kind.is_dynamic() { self.inputs.push } else { self.set_base(set) };
        let Some(i) = self.in_sgpr(index, 1, false)? else {
            return Err(unsupported("a non-uniform descriptor index here"));
        };
        let t = self.vreg(RegClass::S, 1);
        let si = Src::R(i, RegClass::S);
        self.emit(build::sop2(Opcode::S_LSHL_B32, Some(t), si, Src::I(4), 1));
        let st = Src::R(t, RegClass::S);
        self.emit(build::sop2(Opcode::S_ADD_U32, Some(t), st, Src::I(b.descriptor_offset()), 1));
        let r = self.vreg(RegClass::S, 4);
        self.emit(build::smem_load(Opcode::S_LOAD_DWORDX4, r, 4, base, 2, build::SmemOff::Reg(t)));
        Ok(r)
    }

    /// Runs `f` with the V# of resource `id`. A divergent descriptor index is handled by
    /// running `f` once per array element with EXEC narrowed to the lanes that chose it.
    pub(crate) fn with_rsrc(
        &mut self,
        id: u32,
        mut f: impl FnMut(&mut Self, RegRef) -> Result<(), BackendError>,
    ) -> Result<(), BackendError> {
        let (set, binding, index) = self.res[id as usize];
        if set == DYNAMIC_SET {
            return self.with_chosen_rsrc(index, f);
        }
        let MVal::Reg(idx, RegClass::V) = index else {
            let r = self.vsharp(id)?;
            return f(self, r);
        };
        let n = self
            .layout
            .get(set, binding)
            .ok_or(BackendError::MissingBinding { set, binding })?
            .array_size;
        let saved = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(Opcode::S_MOV_B32, saved, build::EXEC, 1));
        for k in 0..n {
            let r = self.vsharp_const(set, binding, k)?;
            let m = self.vreg(RegClass::S, 1);
            self.emit(build::vcmp(Opcode::V_CMP_EQ_U32, m, Src::I(k), Src::R(idx, RegClass::V), 1));
            let exec = ferrum_isa::Operand::Special(ferrum_isa::Special::ExecLo);
            let mut and = build::sop2(
                Opcode::S_AND_B32,
                None,
                Src::R(saved, RegClass::S),
                Src::R(m, RegClass::S),
                1,
            );
            if let ferrum_isa::Inst::Sop2(i) = &mut and.inst {
                i.sdst = exec;
            }
            self.emit(and);
            f(self, r)?;
            self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(saved, RegClass::S)));
        }
        Ok(())
    }

    /// Runs `f` once per statically known resource with EXEC narrowed to the lanes whose
    /// run-time resource code `code` names it.
    fn with_chosen_rsrc(
        &mut self,
        code: MVal,
        mut f: impl FnMut(&mut Self, RegRef) -> Result<(), BackendError>,
    ) -> Result<(), BackendError> {
        let cands: Vec<u32> = (0..self.res.len() as u32)
            .filter(|&i| {
                let (set, _, idx) = self.res[i as usize];
                set != DYNAMIC_SET && matches!(idx, MVal::Const(_))
            })
            .collect();
        let exec = ferrum_isa::Operand::Special(ferrum_isa::Special::ExecLo);
        let saved = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(Opcode::S_MOV_B32, saved, build::EXEC, 1));
        let c = self.src(code)?;
        for k in cands {
            let r = self.vsharp(k)?;
            let m = self.vreg(RegClass::S, 1);
            match c {
                Src::R(reg, RegClass::V) => self.emit(build::vcmp(
                    Opcode::V_CMP_EQ_U32,
                    m,
                    Src::I(RES_CODE | k),
                    Src::R(reg, RegClass::V),
                    1,
                )),
                other => {
                    self.emit(build::sopc(Opcode::S_CMP_EQ_U32, other, Src::I(RES_CODE | k)));
                    self.emit(build::sop2(
                        Opcode::S_CSELECT_B32,
                        Some(m),
                        Src::I(u32::MAX),
                        Src::I(0),
                        1,
                    ));
                }
            }
            let saved_s = Src::R(saved, RegClass::S);
            let mut and = build::sop2(Opcode::S_AND_B32, None, saved_s, Src::R(m, RegClass::S), 1);
            if let ferrum_isa::Inst::Sop2(i) = &mut and.inst {
                i.sdst = exec;
            }
            self.emit(and);
            f(self, r)?;
            self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, saved_s));
        }
        Ok(())
    }

    /// Selects a block's instructions. Those that helper lanes must not run (memory writes
    /// in a PS that keeps helpers) run with EXEC narrowed to the live lanes; consecutive ones
    /// share one narrowing.
    fn select_insts(&mut self, insts: &[Inst]) -> Result<(), BackendError> {
        let mut exact = None;
        for inst in insts {
            if self.needs_exact(&inst.kind) {
                if exact.is_none() {
                    exact = Some(self.enter_exact());
                }
            } else if let Some(saved) = exact.take() {
                self.leave_exact(saved);
            }
            self.select_inst_in_mode(inst)?;
        }
        if let Some(saved) = exact {
            self.leave_exact(saved);
        }
        Ok(())
    }

    fn select_inst_in_mode(&mut self, inst: &Inst) -> Result<(), BackendError> {
        let dst = inst.dst;
        match &inst.kind {
            InstKind::Const(c) => {
                let bits = dst.map_or(32, |d| self.shape(d).0);
                let v = c
                    .iter()
                    .map(|&x| MVal::Const(if bits == 1 { u64::from(x & 1 != 0) } else { x }))
                    .collect();
                self.set(dst.unwrap_or(Value(0)), v);
            }
            InstKind::Undef => {
                let (_, n) = self.shape(dst.unwrap_or(Value(0)));
                self.set(dst.unwrap_or(Value(0)), vec![MVal::Const(0); n as usize]);
            }
            InstKind::Alu(op, srcs) => {
                let d = dst.ok_or_else(|| unsupported("ALU op without result"))?;
                self.select_alu(*op, d, srcs)?;
            }
            InstKind::Phi(_) => {
                if let Some(d) = dst {
                    self.phi_regs(d);
                }
                return Ok(());
            }
            InstKind::ResourceIndex { set, binding, index } => {
                let i = self.comp(*index, 0)?;
                self.res.push((*set, *binding, i));
                let id = self.res.len() as u32 - 1;
                self.set(dst.unwrap_or(Value(0)), vec![MVal::Res(id)]);
            }
            InstKind::SysVal(sv) => self.select_sysval(*sv, dst.unwrap_or(Value(0)))?,
            InstKind::IoStore { slot, comp, value } => {
                self.select_io_store(*slot, *comp, *value)?
            }
            InstKind::IoLoad { slot, comp, output, at } => {
                let d = dst.ok_or_else(|| unsupported("input load without result"))?;
                self.select_io_load(d, *slot, *comp, *output, *at)?
            }
            InstKind::InterpolateAt { .. } => {
                return Err(unsupported("InterpolateAt* survived lower_io"));
            }
            InstKind::MemLoad { space, addr, align } => {
                let d = dst.ok_or_else(|| unsupported("load without result"))?;
                self.select_load(*space, d, *addr, *align)?;
            }
            InstKind::MemStore { space, addr, value, align } => {
                self.select_store(*space, *addr, *value, *align)?
            }
            InstKind::MemAtomic { space, op, addr, srcs } => {
                self.select_atomic(*space, *op, dst, *addr, srcs)?
            }
            InstKind::BufferSize { index } => {
                let MVal::Res(id) = self.comp(*index, 0)? else {
                    return Err(unsupported("buffer size of a non-resource"));
                };
                let v = self.vsharp(id)?;
                self.set(dst.unwrap_or(Value(0)), vec![MVal::Reg(v.at(2), RegClass::S)]);
            }
            InstKind::Barrier { exec, memory } => self.select_barrier(*exec, *memory),
            InstKind::Subgroup { op, srcs } => self.select_subgroup(*op, dst, srcs)?,
            InstKind::Image(im) => self.select_image(im, dst)?,
            InstKind::Demote => self.select_demote()?,
            InstKind::KillIf(c) => self.select_kill_if(*c)?,
            InstKind::DemoteIf(c) => self.select_demote_if(*c)?,
            InstKind::IsHelper => {
                let d = dst.ok_or_else(|| unsupported("is_helper without result"))?;
                self.select_is_helper(d)?
            }
            other => return Err(unsupported(format!("IR instruction {other:?}"))),
        }
        if let Some(d) = dst {
            self.fix_temporal(d)?;
        }
        Ok(())
    }

    /// Values used outside a loop with divergent exits keep each lane's last value: data moves
    /// to VGPRs (whose inactive lanes are preserved), masks merge into an accumulator.
    fn fix_temporal(&mut self, d: Value) -> Result<(), BackendError> {
        if !self.div.temporal[d.0 as usize] {
            return Ok(());
        }
        let (bits, _) = self.shape(d);
        let comps = self.get(d)?;
        let mut out = Vec::new();
        for c in comps {
            out.push(match c {
                MVal::Reg(r, RegClass::S) if bits == 1 => {
                    let acc = self.vreg(RegClass::S, 1);
                    let t = self.vreg(RegClass::S, 1);
                    let sa = Src::R(acc, RegClass::S);
                    self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(acc), sa, build::EXEC, 1));
                    self.emit(build::sop2(
                        Opcode::S_AND_B32,
                        Some(t),
                        Src::R(r, RegClass::S),
                        build::EXEC,
                        1,
                    ));
                    self.emit(build::sop2(
                        Opcode::S_OR_B32,
                        Some(acc),
                        sa,
                        Src::R(t, RegClass::S),
                        1,
                    ));
                    MVal::Reg(acc, RegClass::S)
                }
                MVal::Reg(_, RegClass::S) => {
                    let dw = if bits == 64 { 2 } else { 1 };
                    MVal::Reg(self.in_vgpr(c, dw)?, RegClass::V)
                }
                other => other,
            });
        }
        self.set(d, out);
        Ok(())
    }

    fn select_sysval(&mut self, sv: crate::ir::SysVal, d: Value) -> Result<(), BackendError> {
        use crate::ir::SysVal as S;
        let n = self.shape(d).1 as usize;
        if let Some(v) = self.select_vs_sysval(sv).or_else(|| self.select_gfx_sysval(sv)) {
            self.set(d, v.into_iter().take(n.max(1)).collect());
            return Ok(());
        }
        let v: Vec<MVal> = match sv {
            S::LocalInvocationId => {
                self.inputs.local_id.iter().map(|&r| MVal::Reg(r, RegClass::V)).collect()
            }
            S::WorkgroupId => {
                self.inputs.group_id.iter().map(|&r| MVal::Reg(r, RegClass::S)).collect()
            }
            S::NumWorkgroups => {
                let r = self.vreg(RegClass::S, 2);
                let z = self.vreg(RegClass::S, 1);
                let base = self.inputs.num_groups;
                self.emit(build::smem_load(
                    Opcode::S_LOAD_DWORDX2,
                    r,
                    2,
                    base,
                    2,
                    build::SmemOff::Imm(0),
                ));
                self.emit(build::smem_load(
                    Opcode::S_LOAD_DWORD,
                    z,
                    1,
                    base,
                    2,
                    build::SmemOff::Imm(8),
                ));
                vec![
                    MVal::Reg(r, RegClass::S),
                    MVal::Reg(r.at(1), RegClass::S),
                    MVal::Reg(z, RegClass::S),
                ]
            }
            S::SubgroupSize => vec![MVal::Const(u64::from(abi::WAVE_SIZE))],
            S::SubgroupInvocationId => {
                let r = self.vreg(RegClass::V, 1);
                self.emit(build::vop3(
                    Opcode::V_MBCNT_LO_U32_B32,
                    Some(r),
                    None,
                    &[Src::I(u32::MAX), Src::I(0)],
                    0,
                ));
                vec![MVal::Reg(r, RegClass::V)]
            }
            other => return Err(unsupported(format!("system value {other:?} in compute"))),
        };
        self.set(d, v.into_iter().take(n.max(1)).collect());
        Ok(())
    }

    /// Waits for the accesses the barrier orders to complete (LDS through lgkmcnt, device
    /// memory through vmcnt and vscnt), then, for a control barrier, `s_barrier`.
    fn select_barrier(&mut self, exec: bool, memory: crate::ir::BarrierMemory) {
        use ferrum_isa::imm::Waitcnt;
        let wait = Waitcnt {
            vmcnt: if memory.device { 0 } else { Waitcnt::NONE.vmcnt },
            expcnt: Waitcnt::NONE.expcnt,
            lgkmcnt: if memory.workgroup || memory.device { 0 } else { Waitcnt::NONE.lgkmcnt },
        };
        if memory.workgroup || memory.device {
            self.emit(build::sopp(Opcode::S_WAITCNT, wait.to_imm()));
        }
        if memory.device {
            self.emit(build::sopk_null(Opcode::S_WAITCNT_VSCNT, 0));
        }
        if exec {
            self.emit(build::sopp(Opcode::S_BARRIER, 0));
        }
    }

    /// Number of 32-bit registers a value component of `bits` needs.
    pub(crate) fn dwords(bits: u8) -> u8 {
        if bits == 64 {
            2
        } else {
            1
        }
    }
}

/// Selects machine code for the shader's entry function.
pub fn select(shader: &Shader, layout: &ResourceLayout) -> Result<MFunc, BackendError> {
    select_with(shader, layout, false)
}

/// [`select`], with the scratch ring set up even when private data does not need it (for
/// register spilling).
pub fn select_with(
    shader: &Shader,
    layout: &ResourceLayout,
    scratch: bool,
) -> Result<MFunc, BackendError> {
    select_keyed(shader, layout, scratch, abi::graphics::GfxKey::default())
}

/// [`select_with`] for a pixel shader whose colour exports follow `key`.
pub fn select_keyed(
    shader: &Shader,
    layout: &ResourceLayout,
    scratch: bool,
    key: abi::graphics::GfxKey,
) -> Result<MFunc, BackendError> {
    let mut isel = Isel::new(shader, layout, scratch, key);
    isel.select_function()?;
    private_index::split_waterfalls(&mut isel.mf, std::mem::take(&mut isel.waterfalls));
    super::legalize::legalize_operands(&mut isel.mf);
    Ok(isel.mf)
}
