//! The live mask of shaders that end in several places: kill, demotion, helper lanes and
//! the exact mode that memory writes and the exports run in under whole-quad mode.

use ferrum_isa::{Opcode, Operand, Special};

use crate::amd::error::{unsupported, BackendError};
use crate::amd::isel::build::{self, Src};
use crate::amd::isel::{Isel, MVal};
use crate::amd::mir::{RegClass, RegRef};
use crate::ir::{ImageOp, InstKind, Space, Stage, Value};

impl Isel<'_> {
    /// The launch mask, saved in the prologue for shaders that end in several places.
    pub(in crate::amd::isel) fn save_live_mask(&mut self) {
        if let Some(live) = self.gfx.live {
            self.emit_prologue(build::sop1(Opcode::S_MOV_B32, live, build::EXEC, 1));
        }
        if self.gfx.wqm {
            // The wave starts with only the covered pixels in EXEC; helpers join here.
            let exec = Operand::Special(Special::ExecLo);
            self.emit_prologue(build::sop1_fixed(Opcode::S_WQM_B32, exec, build::EXEC));
        }
    }

    /// Whether `kind` writes memory other invocations can see: helper lanes must not.
    pub(in crate::amd::isel) fn needs_exact(&self, kind: &InstKind) -> bool {
        let visible = |s: &Space| matches!(s, Space::Buffer | Space::Global);
        (self.gfx.wqm || self.gfx.demotes)
            && match kind {
                InstKind::MemStore { space, .. } | InstKind::MemAtomic { space, .. } => {
                    visible(space)
                }
                InstKind::Image(im) => matches!(im.op, ImageOp::Write | ImageOp::Atomic(_)),
                _ => false,
            }
    }

    /// Exact mode: EXEC narrowed to the live lanes; returns the whole-quad EXEC to restore.
    pub(in crate::amd::isel) fn enter_exact(&mut self) -> RegRef {
        let live = self.gfx.live.expect("whole-quad mode and demotion keep the live mask");
        let saved = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(Opcode::S_MOV_B32, saved, build::EXEC, 1));
        let exec = Operand::Special(Special::ExecLo);
        let l = Src::R(live, RegClass::S);
        let mut and = build::sop2(Opcode::S_AND_B32, None, build::EXEC, l, 1);
        if let ferrum_isa::Inst::Sop2(i) = &mut and.inst {
            i.sdst = exec;
        }
        self.emit(and);
        saved
    }

    /// Back to whole-quad mode after [`Self::enter_exact`].
    pub(in crate::amd::isel) fn leave_exact(&mut self, saved: RegRef) {
        let exec = Operand::Special(Special::ExecLo);
        self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(saved, RegClass::S)));
    }

    /// `OpKill`: the active lanes leave the live mask (and end, as at a return).
    pub(in crate::amd::isel) fn select_kill(&mut self) -> Result<(), BackendError> {
        let Some(live) = self.gfx.live.filter(|_| self.shader.stage == Stage::Fragment) else {
            return Err(unsupported("OpKill outside a fragment shader"));
        };
        let l = Src::R(live, RegClass::S);
        self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(live), l, build::EXEC, 1));
        Ok(())
    }

    /// `OpDemoteToHelperInvocation`: the active lanes leave the live mask but keep running
    /// (as ACO does: the exact mask loses them, whole-quad EXEC keeps them for derivatives);
    /// memory writes and the exports only see `live`.
    pub(in crate::amd::isel) fn select_demote(&mut self) -> Result<(), BackendError> {
        let Some(live) = self.gfx.live.filter(|_| self.gfx.demotes) else {
            return Err(unsupported("OpDemoteToHelperInvocation outside a fragment shader"));
        };
        let l = Src::R(live, RegClass::S);
        self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(live), l, build::EXEC, 1));
        Ok(())
    }

    /// `OpIsHelperInvocationEXT` / gl_HelperInvocation: active lanes outside the live mask
    /// (whole-quad helpers and demoted lanes).
    pub(in crate::amd::isel) fn select_is_helper(&mut self, d: Value) -> Result<(), BackendError> {
        if self.shader.stage != Stage::Fragment {
            return Err(unsupported("gl_HelperInvocation outside a fragment shader"));
        }
        let m = self.vreg(RegClass::S, 1);
        match self.gfx.live {
            Some(live) => {
                let l = Src::R(live, RegClass::S);
                self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(m), build::EXEC, l, 1));
                self.set(d, vec![MVal::Reg(m, RegClass::S)]);
            }
            // No helpers run and nothing demotes: every lane is live.
            None => self.set(d, vec![MVal::Const(0)]),
        }
        Ok(())
    }
}
