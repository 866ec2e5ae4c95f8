//! Drops EXEC writes that nothing observes: a φ copy's edge restores EXEC just before the
//! next block's head sets it again (the lane-mask lowering emits each side on its own, so the
//! pair meets only in the final layout).

use ferrum_isa::{Inst, Opcode, Operand, Special};

use super::mir::{MFunc, MInst};

fn sets_exec(mi: &MInst) -> bool {
    matches!(
        mi.inst,
        Inst::Sop1(ref s) if s.op == Opcode::S_MOV_B32 && s.sdst == Operand::Special(Special::ExecLo)
    )
}

/// Removes an `s_mov_b32 exec_lo, x` ending a block when control can only fall into the next
/// non-empty block and that block starts by writing EXEC the same way. Returns how many.
pub fn drop_overwritten_exec(mf: &mut MFunc) -> usize {
    let n = mf.blocks.len();
    let mut target = vec![false; n + 1];
    for blk in &mf.blocks {
        for mi in &blk.insts {
            if let Some(t) = mi.target {
                target[t] = true;
            }
        }
    }
    let mut removed = 0;
    for b in 0..n {
        let Some(last) = mf.blocks[b].insts.last() else { continue };
        if !sets_exec(last) {
            continue;
        }
        let mut k = b + 1;
        while k < n && mf.blocks[k].insts.is_empty() && !target[k] {
            k += 1;
        }
        if k < n && !target[k] && mf.blocks[k].insts.first().is_some_and(sets_exec) {
            mf.blocks[b].insts.pop();
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amd::isel::Src;
    use crate::amd::isel_build::{sop1, sop1_fixed, sopp};
    use crate::amd::mir::{MBlock, RegClass};

    const EXEC: Operand = Operand::Special(Special::ExecLo);

    #[test]
    fn a_restore_overwritten_by_the_next_head_goes_and_a_branch_target_keeps_it() {
        let mut mf = MFunc::default();
        let (a, b) = (mf.vreg(RegClass::S, 1), mf.vreg(RegClass::S, 1));
        let set = |r| sop1_fixed(Opcode::S_MOV_B32, EXEC, Src::R(r, RegClass::S));
        mf.blocks = vec![
            MBlock { insts: vec![sop1(Opcode::S_MOV_B32, a, Src::I(1), 1), set(a)] },
            MBlock::default(),
            MBlock { insts: vec![set(b), set(a)] },
            MBlock { insts: vec![set(b)] },
        ];
        assert_eq!(drop_overwritten_exec(&mut mf), 2);
        assert_eq!(mf.blocks[0].insts.len(), 1);
        assert_eq!(mf.blocks[2].insts.len(), 1);
        // Now make block 3 a branch target: the write before it must stay.
        mf.blocks[2].insts.push(set(a));
        let mut br = sopp(Opcode::S_CBRANCH_SCC1, 0);
        br.target = Some(3);
        mf.blocks[0].insts.insert(0, br);
        assert_eq!(drop_overwritten_exec(&mut mf), 0);
    }
}
