//! Dead machine-code elimination: selection works a component at a time and produces values
//! nobody reads (unused vector components, address halves); this removes every instruction
//! whose results are all unread and that has no other effect.

use ferrum_isa::Inst;

use super::mir::MFunc;

fn has_side_effects(i: &Inst) -> bool {
    i.is_memory() && !matches!(i, Inst::Smem(_))
        || i.is_branch()
        || i.writes_exec()
        || matches!(i, Inst::Sopp(_) | Inst::Sopc(_))
        || matches!(i, Inst::Sop1(s) if !s.sdst.is_scalar_reg() || matches!(s.sdst, ferrum_isa::Operand::Special(_)))
        || matches!(i, Inst::Sop2(s) if matches!(s.sdst, ferrum_isa::Operand::Special(_)))
}

/// Removes dead instructions until none is left. Returns true if anything was removed.
pub fn opt_dce(mf: &mut MFunc) -> bool {
    let mut any = false;
    loop {
        let mut used = vec![false; mf.vregs.len()];
        for blk in &mf.blocks {
            for mi in &blk.insts {
                for u in &mi.uses {
                    used[u.reg.vreg.0 as usize] = true;
                }
            }
        }
        let mut removed = false;
        for blk in &mut mf.blocks {
            blk.insts.retain(|mi| {
                let dead = !mi.defs.is_empty()
                    && mi.defs.iter().all(|d| !used[d.reg.vreg.0 as usize])
                    && !has_side_effects(&mi.inst);
                removed |= dead;
                !dead
            });
        }
        if !removed {
            return any;
        }
        any = true;
    }
}
