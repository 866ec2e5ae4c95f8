//! `KillIf`: a conditional `OpKill` in straight-line code (see `passes::opt_kill_if`).
//!
//! The lanes whose condition holds leave EXEC (`s_andn2_b32 exec_lo, exec_lo, c`) and the live
//! mask when the shader keeps one; nothing is saved or restored, and the code after the kill
//! (stores to outputs included) stays in the block it was in. `opt_kill_if` only makes the
//! instruction in blocks every invocation runs once (the entry's post-dominators outside
//! loops), where EXEC is all the lanes still alive: no region join later restores a copy of
//! EXEC that still holds the killed lanes. A wave whose lanes are all killed runs on with an
//! empty EXEC to the exports, whose valid mask is then empty.

use ferrum_isa::{Inst, Opcode, Operand, Special};

use super::build::{self, Src, EXEC};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::RegClass;
use crate::ir::{Stage, Value};

impl Isel<'_> {
    /// `KillIf(c)`: the active lanes where `c` holds end.
    pub(super) fn select_kill_if(&mut self, c: Value) -> Result<(), BackendError> {
        if self.shader.stage != Stage::Fragment {
            return Err(unsupported("a conditional kill outside a fragment shader"));
        }
        let cond = match self.comp(c, 0)? {
            MVal::Const(x) if x & 1 == 0 => return Ok(()),
            MVal::Const(_) => Src::I(u32::MAX),
            MVal::Reg(r, class) => Src::R(r, class),
            MVal::Res(_) => return Err(unsupported("a resource as a kill condition")),
        };
        if let Some(live) = self.gfx.live {
            let l = Src::R(live, RegClass::S);
            self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(live), l, cond, 1));
        }
        let mut andn2 = build::sop2(Opcode::S_ANDN2_B32, None, EXEC, cond, 1);
        if let Inst::Sop2(i) = &mut andn2.inst {
            i.sdst = Operand::Special(Special::ExecLo);
        }
        self.emit(andn2);
        Ok(())
    }
}

impl Isel<'_> {
    /// `DemoteIf(c)`: the active lanes where `c` holds leave the live mask and keep running
    /// (as `Demote` in a branch on `c` would, without the branch).
    pub(super) fn select_demote_if(&mut self, c: Value) -> Result<(), BackendError> {
        let Some(live) = self.gfx.live.filter(|_| self.gfx.demotes) else {
            return Err(unsupported("a conditional demote outside a fragment shader"));
        };
        let cond = match self.comp(c, 0)? {
            MVal::Const(x) if x & 1 == 0 => return Ok(()),
            MVal::Const(_) => EXEC,
            MVal::Reg(r, class) => Src::R(r, class),
            MVal::Res(_) => return Err(unsupported("a resource as a demote condition")),
        };
        let l = Src::R(live, RegClass::S);
        self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(live), l, cond, 1));
        Ok(())
    }
}
