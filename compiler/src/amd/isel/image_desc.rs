//! Image, sampler and texel-buffer descriptors: where they live and how they reach SGPRs.
//!
//! Element `k` of binding `(set, binding)` starts at byte `offset + k * size` of the set's
//! memory, with `offset` from the pipeline's [`crate::amd::ResourceLayout`] and `size` the
//! kind's [`DescriptorKind::descriptor_size`] (T# 32, S# 16, combined 64 with the S# at 32,
//! texel-buffer V# 16). A constant index loads the descriptor once in the prologue; a uniform
//! one computes the offset on the scalar unit; a divergent one runs the instruction once per
//! array element with EXEC narrowed to the lanes that chose it (each element's descriptor
//! loaded in that iteration), the same unrolled form buffer arrays use.

use ferrum_isa::Opcode;

use super::build::{self, SmemOff, Src};
use super::{Isel, MVal};
use crate::amd::abi::{DescriptorKind, COMBINED_SAMPLER_OFFSET};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef};

/// Largest descriptor array a divergent index is unrolled over.
const MAX_UNROLLED_ELEMENTS: u32 = 64;

/// One descriptor to load: which resource, which part (T#, S# or V#).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// The image's T# (8 dwords).
    Image,
    /// The sampler's S# (4 dwords): of a sampler binding, or the second half of a combined one.
    Sampler,
    /// A texel buffer's V# (4 dwords).
    Buffer,
}

/// A descriptor request: resource id (from `ResourceIndex`) and part.
pub(super) type Req = (u32, Part);

/// What runs with the requested descriptors in SGPRs.
pub(super) type WithDescs<'f, 'a> =
    dyn FnMut(&mut Isel<'a>, &[RegRef]) -> Result<(), BackendError> + 'f;

impl<'a> Isel<'a> {
    /// Byte offset within the element and dwords of `part` of a binding of `kind`.
    fn part_place(kind: DescriptorKind, part: Part) -> Result<(u32, u8), BackendError> {
        use DescriptorKind as K;
        Ok(match (kind, part) {
            (
                K::SampledImage | K::StorageImage | K::InputAttachment | K::CombinedImageSampler,
                Part::Image,
            ) => (0, 8),
            (K::Sampler, Part::Sampler) => (0, 4),
            (K::CombinedImageSampler, Part::Sampler) => (COMBINED_SAMPLER_OFFSET, 4),
            (K::UniformTexelBuffer | K::StorageTexelBuffer, Part::Buffer) => (0, 4),
            _ => return Err(unsupported(format!("{part:?} descriptor of a {kind:?} binding"))),
        })
    }

    /// Loads `part` of element `index` (constant or SGPR) of resource `id`'s binding.
    fn load_part(&mut self, id: u32, part: Part, index: MVal) -> Result<RegRef, BackendError> {
        let (set, binding, _) = self.res[id as usize];
        let b =
            *self.layout.get(set, binding).ok_or(BackendError::MissingBinding { set, binding })?;
        let (extra, dw) = Self::part_place(b.kind, part)?;
        let stride = b.kind.descriptor_size();
        let op = if dw == 8 { Opcode::S_LOAD_DWORDX8 } else { Opcode::S_LOAD_DWORDX4 };
        let base = self.set_base(set);
        match index {
            MVal::Const(k) => {
                let key = (set, binding, k as u32, extra);
                if let Some(&r) = self.image_desc.get(&key) {
                    return Ok(r);
                }
                let off = b.offset + k as u32 * stride + extra;
                let r = self.vreg(RegClass::S, dw);
                self.emit_prologue(build::smem_load(op, r, dw, base, 2, SmemOff::Imm(off)));
                self.image_desc.insert(key, r);
                Ok(r)
            }
            MVal::Reg(i, RegClass::S) => {
                let t = self.vreg(RegClass::S, 1);
                let si = Src::R(i, RegClass::S);
                if stride.is_power_of_two() {
                    let sh = Src::I(stride.trailing_zeros());
                    self.emit(build::sop2(Opcode::S_LSHL_B32, Some(t), si, sh, 1));
                } else {
                    self.emit(build::sop2(Opcode::S_MUL_I32, Some(t), si, Src::I(stride), 1));
                }
                let st = Src::R(t, RegClass::S);
                let off = Src::I(b.offset + extra);
                self.emit(build::sop2(Opcode::S_ADD_U32, Some(t), st, off, 1));
                let r = self.vreg(RegClass::S, dw);
                self.emit(build::smem_load(op, r, dw, base, 2, SmemOff::Reg(t)));
                Ok(r)
            }
            _ => Err(unsupported("descriptor index in VGPRs where a uniform one was expected")),
        }
    }

    /// The uniform form of an index value: a constant or SGPR, or `None` if it is divergent.
    fn uniform_index(&mut self, id: u32) -> Result<Option<MVal>, BackendError> {
        let (_, _, index) = self.res[id as usize];
        match index {
            MVal::Const(_) | MVal::Reg(_, RegClass::S) => Ok(Some(index)),
            MVal::Reg(_, RegClass::V) => Ok(None),
            MVal::Res(_) => Err(unsupported("a resource used as a descriptor index")),
        }
    }

    /// Runs `f` with the descriptors `reqs` names in SGPRs (in request order). Requests whose
    /// index is divergent are served per array element with EXEC narrowed (several requests
    /// on the same resource share one narrowing).
    pub(super) fn with_descriptors(
        &mut self,
        reqs: &[Req],
        f: &mut WithDescs<'_, 'a>,
    ) -> Result<(), BackendError> {
        let mut got = vec![None; reqs.len()];
        self.serve(reqs, &mut got, f)
    }

    fn serve(
        &mut self,
        reqs: &[Req],
        got: &mut Vec<Option<RegRef>>,
        f: &mut WithDescs<'_, 'a>,
    ) -> Result<(), BackendError> {
        let Some(next) = got.iter().position(Option::is_none) else {
            let regs: Vec<RegRef> = got.iter().flatten().copied().collect();
            return f(self, &regs);
        };
        let id = reqs[next].0;
        let same: Vec<usize> = (0..reqs.len()).filter(|&i| reqs[i].0 == id).collect();
        if let Some(index) = self.uniform_index(id)? {
            for &i in &same {
                got[i] = Some(self.load_part(id, reqs[i].1, index)?);
            }
            self.serve(reqs, got, f)?;
            for &i in &same {
                got[i] = None;
            }
            return Ok(());
        }
        let (set, binding, index) = self.res[id as usize];
        let MVal::Reg(idx, RegClass::V) = index else {
            return Err(unsupported("descriptor index"));
        };
        let b =
            *self.layout.get(set, binding).ok_or(BackendError::MissingBinding { set, binding })?;
        if b.array_size == 0 || b.array_size > MAX_UNROLLED_ELEMENTS {
            return Err(unsupported(format!(
                "a divergent index into a descriptor array of {} elements",
                b.array_size
            )));
        }
        let exec = ferrum_isa::Operand::Special(ferrum_isa::Special::ExecLo);
        let saved = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(Opcode::S_MOV_B32, saved, build::EXEC, 1));
        for k in 0..b.array_size {
            let m = self.vreg(RegClass::S, 1);
            self.emit(build::vcmp(Opcode::V_CMP_EQ_U32, m, Src::I(k), Src::R(idx, RegClass::V), 1));
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
            // Loaded here rather than in the prologue: only the element this iteration
            // serves is needed, and holding every element's descriptor would cost SGPRs.
            for &i in &same {
                let r = self.load_part_in_loop(id, reqs[i].1, k)?;
                got[i] = Some(r);
            }
            self.serve(reqs, got, f)?;
            for &i in &same {
                got[i] = None;
            }
            // Every lane compares again: the next element's lanes are not in this one's EXEC.
            self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(saved, RegClass::S)));
        }
        Ok(())
    }

    /// `part` of element `k`, loaded at the current position (not cached).
    fn load_part_in_loop(&mut self, id: u32, part: Part, k: u32) -> Result<RegRef, BackendError> {
        let (set, binding, _) = self.res[id as usize];
        let b =
            *self.layout.get(set, binding).ok_or(BackendError::MissingBinding { set, binding })?;
        let (extra, dw) = Self::part_place(b.kind, part)?;
        let op = if dw == 8 { Opcode::S_LOAD_DWORDX8 } else { Opcode::S_LOAD_DWORDX4 };
        let base = self.set_base(set);
        let off = b.offset + k * b.kind.descriptor_size() + extra;
        let r = self.vreg(RegClass::S, dw);
        self.emit(build::smem_load(op, r, dw, base, 2, SmemOff::Imm(off)));
        Ok(r)
    }
}
