//! Copy coalescing: a plain register-to-register move whose source and destination dwords are
//! never live at the same time needs no register of its own. Both virtual registers are
//! renamed to one (the narrower living at a dword offset of the wider: components gathered
//! into a wide register for a vector store are then computed in place), and the move, now
//! copying a register dword onto itself, is deleted.
//!
//! This is what removes most φ copies: instruction selection turns every φ into copies on its
//! incoming edges (`x_phi := x_next` at a loop latch, one copy per side at an if/else join),
//! and the source usually dies at the copy while the φ register is dead until it.
//! [`super::liveness::ranges`] gives each register dword its live range with holes, in
//! positions that separate an instruction's reads from its writes, so a source read for the
//! last time by the copy and the destination the copy writes do not overlap, and a
//! loop-carried φ register is seen dead between its last read in the body and the latch copy.
//!
//! For SGPRs that test is the whole story. A VGPR seen dead in a hole may still hold, in lanes
//! that left a loop or branch before the write that ends the hole, a value those lanes read
//! after they come back (a loop's φ read after a divergent break): the linear CFG follows the
//! wave, not each lane. So a vector source may take over its destination's register in a hole
//! only when every lane writing the source also runs the copy (one definition that falls
//! through to the copy with no EXEC change or branch between); otherwise the two registers'
//! whole spans, first to last mention, must not meet, which is what the allocator itself
//! requires of two VGPRs sharing a register. Registers written in lanes outside EXEC
//! (whole-wave sections, `v_writelane`) are left alone.

use ferrum_isa::{Ext, Inst, Opcode};

use super::liveness::{normalize, overlap, ranges, writes_exec, written_outside_exec, Range};
use super::mir::{MFunc, MInst, RegClass, RegRef, VReg};

/// A move `dst := src` that coalescing may remove: one dword of the same class, no
/// modifiers, nothing else read or written.
fn plain_copy(mf: &MFunc, mi: &MInst) -> Option<(RegRef, RegRef)> {
    let class = match &mi.inst {
        Inst::Vop1(i) if i.op == Opcode::V_MOV_B32 && i.ext == Ext::None => RegClass::V,
        Inst::Sop1(i) if i.op == Opcode::S_MOV_B32 => RegClass::S,
        _ => return None,
    };
    let ([d], [s]) = (mi.defs.as_slice(), mi.uses.as_slice()) else { return None };
    let (di, si) = (mf.info(d.reg.vreg), mf.info(s.reg.vreg));
    let ok = di.class == class
        && si.class == class
        && d.dwords == 1
        && s.dwords == 1
        && mi.spill.is_none()
        && mi.target.is_none();
    ok.then_some((d.reg, s.reg))
}

/// Classes of registers sharing one register range: each register lives at a dword offset
/// of its class's root, the widest member.
struct Classes {
    parent: Vec<u32>,
    /// Offset of each register in its parent.
    off: Vec<u8>,
}

impl Classes {
    /// Root of `v` and the offset of `v` in it.
    fn find(&mut self, v: u32) -> (u32, u8) {
        let p = self.parent[v as usize];
        if p == v {
            return (v, 0);
        }
        let (r, o) = self.find(p);
        self.parent[v as usize] = r;
        self.off[v as usize] += o;
        (r, self.off[v as usize])
    }
}

/// True if any dword of `small` (placed at dword `shift` of `big`) overlaps the dword of
/// `big` it would share a register with.
fn clash(small: &[Range], big: &[Range], shift: usize) -> bool {
    small.iter().enumerate().any(|(k, r)| overlap(r, &big[k + shift]))
}

/// True if, for some dword, the spans from first to last position of `small` and of the
/// dword of `big` it would share a register with overlap.
fn hulls_clash(small: &[Range], big: &[Range], shift: usize) -> bool {
    let hull = |r: &Range| Some((r.first()?.0, r.last()?.1));
    small.iter().enumerate().any(|(k, r)| match (hull(r), hull(&big[k + shift])) {
        (Some(a), Some(b)) => a.0 <= b.1 && b.0 <= a.1,
        _ => false,
    })
}

/// The position of the one instruction writing each register (`None` when several do).
fn single_defs(mf: &MFunc) -> Vec<Option<usize>> {
    let mut out: Vec<Option<usize>> = vec![None; mf.vregs.len()];
    let mut count = vec![0u32; mf.vregs.len()];
    for (pos, mi) in mf.blocks.iter().flat_map(|b| &b.insts).enumerate() {
        let mut seen: Vec<usize> = mi.defs.iter().map(|d| d.reg.vreg.0 as usize).collect();
        seen.sort_unstable();
        seen.dedup();
        for v in seen {
            count[v] += 1;
            out[v] = Some(pos);
        }
    }
    out.iter().zip(&count).map(|(&d, &c)| d.filter(|_| c == 1)).collect()
}

/// Per position, how many instructions before it may change EXEC or branch.
fn exec_changes(mf: &MFunc) -> Vec<u32> {
    let mut out = vec![0];
    for mi in mf.blocks.iter().flat_map(|b| &b.insts) {
        let n =
            out.last().copied().unwrap_or(0) + u32::from(writes_exec(mi) || mi.target.is_some());
        out.push(n);
    }
    out
}

/// Gives the source and destination of every move one register dword when their live
/// ranges do not overlap (a component copied into a wide register for a vector store lives in
/// that dword of it from the start), then deletes the moves that copy a register dword onto
/// itself. Returns the moves deleted. Afterwards no plain move copies a virtual register
/// dword onto itself.
pub fn coalesce_copies(mf: &mut MFunc) -> u32 {
    let mut live: Vec<Vec<Range>> = ranges(mf);
    let n = mf.vregs.len() as u32;
    let mut cl = Classes { parent: (0..n).collect(), off: vec![0; n as usize] };
    let wide = written_outside_exec(mf);
    let def_at = single_defs(mf);
    let exec_changes = exec_changes(mf);
    // Without EXEC changes every lane runs every instruction: the linear liveness is exact.
    let whole_wave_always = !mf.blocks.iter().flat_map(|b| &b.insts).any(writes_exec);
    let mut joined = vec![false; n as usize];
    let copies: Vec<(RegRef, RegRef, usize)> = mf
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .enumerate()
        .filter_map(|(p, mi)| plain_copy(mf, mi).map(|(d, s)| (d, s, p)))
        .filter(|(d, s, _)| !wide[d.vreg.0 as usize] && !wide[s.vreg.0 as usize])
        .collect();
    for (d, s, p) in copies {
        let ((a, ao), (b, bo)) = (cl.find(d.vreg.0), cl.find(s.vreg.0));
        if a == b {
            continue;
        }
        let (ia, ib) = (mf.info(VReg(a)), mf.info(VReg(b)));
        let pinned = ia.fixed.is_some() || ib.fixed.is_some();
        let special = mf.unspillable.contains(&VReg(a)) || mf.unspillable.contains(&VReg(b));
        if pinned || special {
            continue;
        }
        // The dword of each root the moved dword sits at; the narrower root joins the wider
        // one (the lower number on a tie) at the shift that lines the two up.
        let (da, db) = (usize::from(ao + d.off), usize::from(bo + s.off));
        let a_joins = (ia.size, b) < (ib.size, a);
        let (big, small, shift) =
            if a_joins { (b, a, db.checked_sub(da)) } else { (a, b, da.checked_sub(db)) };
        let (bi, si) = (mf.info(VReg(big)), mf.info(VReg(small)));
        let Some(shift) = shift else { continue };
        let fits = shift + usize::from(si.size) <= usize::from(bi.size);
        if !fits || shift % usize::from(si.align.max(1)) != 0 {
            continue;
        }
        // Vector registers: lanes that leave a loop or branch before the copy keep the
        // destination's older value in lanes the linear liveness no longer follows, so the
        // source may only take over the destination's register in a hole when every lane
        // writing it also runs the copy (its one definition falls through to the copy with
        // no EXEC change or branch in between); otherwise their whole spans must not meet.
        let vector = si.class == RegClass::V;
        let local = whole_wave_always
            || !joined[s.vreg.0 as usize]
                && cl.parent[s.vreg.0 as usize] == s.vreg.0
                && def_at[s.vreg.0 as usize]
                    .is_some_and(|q| q < p && exec_changes[p] == exec_changes[q + 1]);
        let (sl, bl) = (&live[small as usize], &live[big as usize]);
        let conflict =
            if vector && !local { hulls_clash(sl, bl, shift) } else { clash(sl, bl, shift) };
        if conflict {
            continue;
        }
        joined[small as usize] = true;
        joined[big as usize] = true;
        cl.parent[small as usize] = big;
        cl.off[small as usize] = shift as u8;
        let moved = std::mem::take(&mut live[small as usize]);
        for (k, r) in moved.into_iter().enumerate() {
            let dst = &mut live[big as usize][k + shift];
            dst.extend(r);
            normalize(dst);
        }
        mf.vregs[big as usize].align = bi.align.max(si.align);
    }
    let home: Vec<(u32, u8)> = (0..n).map(|v| cl.find(v)).collect();
    let mut removed = 0;
    for blk in &mut mf.blocks {
        for mi in &mut blk.insts {
            for op in mi.defs.iter_mut().chain(mi.uses.iter_mut()) {
                let (root, off) = home[op.reg.vreg.0 as usize];
                op.reg = RegRef { vreg: VReg(root), off: op.reg.off + off };
            }
        }
        blk.insts.retain(|mi| {
            let keep = !is_self_copy(mi);
            removed += u32::from(!keep);
            keep
        });
    }
    removed
}

/// A plain move whose source and destination are the same register dword.
fn is_self_copy(mi: &MInst) -> bool {
    let plain = match &mi.inst {
        Inst::Vop1(i) => i.op == Opcode::V_MOV_B32 && i.ext == Ext::None,
        Inst::Sop1(i) => i.op == Opcode::S_MOV_B32,
        _ => false,
    };
    match (mi.defs.as_slice(), mi.uses.as_slice()) {
        ([d], [s]) => plain && d.reg == s.reg && d.dwords == s.dwords && mi.spill.is_none(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use ferrum_isa::Opcode;

    use super::*;
    use crate::amd::isel_build::{sopp, vop1, vop2, Src};
    use crate::amd::mir::MBlock;
    use crate::amd::regalloc::allocate;
    use crate::amd::regalloc_check::check;

    fn v(r: RegRef) -> Src {
        Src::R(r, RegClass::V)
    }

    /// Block 1 loops back to itself.
    fn back_edge() -> MInst {
        let mut b = sopp(Opcode::S_CBRANCH_SCC1, 0);
        b.target = Some(1);
        b
    }

    fn moves(mf: &MFunc) -> usize {
        mf.blocks.iter().flat_map(|b| &b.insts).filter(|mi| plain_copy(mf, mi).is_some()).count()
    }

    /// x = 0; loop { t = x + 1; x = t }; y = x + x: the latch copy of the loop-carried value.
    #[test]
    fn a_loop_carried_copy_disappears() {
        let mut mf = MFunc::default();
        let (x, t, y) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
        mf.blocks.push(MBlock { insts: vec![vop1(Opcode::V_MOV_B32, x, Src::I(0))] });
        let body = vec![
            vop2(Opcode::V_ADD_NC_U32, t, Src::I(1), v(x)),
            vop1(Opcode::V_MOV_B32, x, v(t)),
            back_edge(),
        ];
        mf.blocks.push(MBlock { insts: body });
        mf.blocks.push(MBlock { insts: vec![vop2(Opcode::V_ADD_NC_U32, y, v(x), v(x))] });
        assert_eq!(coalesce_copies(&mut mf), 1);
        assert_eq!(moves(&mf), 0);
        let add = &mf.blocks[1].insts[0];
        assert_eq!(add.defs[0].reg, add.uses[0].reg, "t and x are one register");
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }

    /// The source is read again after the copy: both stay, as does the move.
    #[test]
    fn a_source_live_after_the_copy_keeps_its_move() {
        let mut mf = MFunc::default();
        let (s, d, y) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
        let insts = vec![
            vop1(Opcode::V_MOV_B32, s, Src::I(3)),
            vop1(Opcode::V_MOV_B32, d, v(s)),
            vop1(Opcode::V_MOV_B32, s, Src::I(4)),
            vop2(Opcode::V_ADD_NC_U32, y, v(s), v(d)),
        ];
        mf.blocks.push(MBlock { insts });
        assert_eq!(coalesce_copies(&mut mf), 0);
        assert_eq!(moves(&mf), 1);
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }

    /// Two φs exchanged each iteration (t = a; a = b; b = t, as parallel-copy lowering emits
    /// them): every pair of the cycle is live at once somewhere, so no copy may go.
    #[test]
    fn a_swap_cycle_keeps_its_copies() {
        let mut mf = MFunc::default();
        let [a, b, t, y] = [0; 4].map(|_| mf.vreg(RegClass::V, 1));
        let entry =
            vec![vop1(Opcode::V_MOV_B32, a, Src::I(1)), vop1(Opcode::V_MOV_B32, b, Src::I(2))];
        mf.blocks.push(MBlock { insts: entry });
        let body = vec![
            vop1(Opcode::V_MOV_B32, t, v(a)),
            vop1(Opcode::V_MOV_B32, a, v(b)),
            vop1(Opcode::V_MOV_B32, b, v(t)),
            back_edge(),
        ];
        mf.blocks.push(MBlock { insts: body });
        mf.blocks.push(MBlock { insts: vec![vop2(Opcode::V_SUB_NC_U32, y, v(a), v(b))] });
        assert_eq!(coalesce_copies(&mut mf), 0);
        let body = &mf.blocks[1].insts;
        let regs: Vec<VReg> = body[..3].iter().map(|mi| mi.defs[0].reg.vreg).collect();
        assert_eq!(regs, [t.vreg, a.vreg, b.vreg]);
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }

    /// A φ joining two sides: each side's value dies at its copy, so both merge with the φ.
    #[test]
    fn both_sides_of_a_join_merge_with_the_phi() {
        let mut mf = MFunc::default();
        let [p, q, d, y] = [0; 4].map(|_| mf.vreg(RegClass::V, 1));
        let mut skip = sopp(Opcode::S_CBRANCH_SCC0, 0);
        skip.target = Some(2);
        let mut join = sopp(Opcode::S_BRANCH, 0);
        join.target = Some(3);
        mf.blocks.push(MBlock { insts: vec![skip] });
        mf.blocks.push(MBlock {
            insts: vec![
                vop1(Opcode::V_MOV_B32, p, Src::I(5)),
                vop1(Opcode::V_MOV_B32, d, v(p)),
                join,
            ],
        });
        mf.blocks.push(MBlock {
            insts: vec![vop1(Opcode::V_MOV_B32, q, Src::I(6)), vop1(Opcode::V_MOV_B32, d, v(q))],
        });
        mf.blocks.push(MBlock { insts: vec![vop2(Opcode::V_ADD_NC_U32, y, v(d), v(d))] });
        assert_eq!(coalesce_copies(&mut mf), 2);
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }

    /// A 64-bit copy is two moves, the destination's first written before the source's
    /// second is read: still one register pair when the source dies at the copy. A copy of
    /// one dword of the pair, the other being live, is kept.
    #[test]
    fn a_pair_copied_by_dwords_merges_but_half_a_pair_does_not() {
        let mut mf = MFunc::default();
        let (s, d, e) = (mf.vreg(RegClass::V, 2), mf.vreg(RegClass::V, 2), mf.vreg(RegClass::V, 2));
        let y = mf.vreg(RegClass::V, 1);
        let insts = vec![
            vop1(Opcode::V_MOV_B32, s, Src::I(1)),
            vop1(Opcode::V_MOV_B32, s.at(1), Src::I(2)),
            vop1(Opcode::V_MOV_B32, d, v(s)),
            vop1(Opcode::V_MOV_B32, d.at(1), v(s.at(1))),
            vop1(Opcode::V_MOV_B32, e.at(1), Src::I(3)),
            vop1(Opcode::V_MOV_B32, e, v(d)),
            vop2(Opcode::V_ADD_NC_U32, y, v(e), v(e.at(1))),
            vop2(Opcode::V_ADD_NC_U32, y, v(y), v(d.at(1))),
        ];
        mf.blocks.push(MBlock { insts });
        assert_eq!(coalesce_copies(&mut mf), 2);
        assert_eq!(moves(&mf), 1, "e.0 := d.0 stays: e.1 is live across it and d.1 after it");
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }

    /// Components gathered into a wide register (as for a vector store) are computed in
    /// their dwords of it; a component read again after the gather keeps its own register.
    #[test]
    fn components_are_computed_in_place_unless_read_later() {
        let mut mf = MFunc::default();
        let [x, y, z] = [0; 3].map(|_| mf.vreg(RegClass::V, 1));
        let (vec, w) = (mf.vreg(RegClass::V, 3), mf.vreg(RegClass::V, 1));
        let insts = vec![
            vop1(Opcode::V_MOV_B32, x, Src::I(1)),
            vop1(Opcode::V_MOV_B32, y, Src::I(2)),
            vop2(Opcode::V_ADD_NC_U32, z, v(x), v(y)),
            vop1(Opcode::V_MOV_B32, vec, v(x)),
            vop1(Opcode::V_MOV_B32, vec.at(1), v(y)),
            vop1(Opcode::V_MOV_B32, vec.at(2), v(z)),
            vop2(Opcode::V_ADD_NC_U32, w, v(vec.at(2)), v(y)),
            vop2(Opcode::V_ADD_NC_U32, w, v(w), v(vec)),
        ];
        mf.blocks.push(MBlock { insts });
        assert_eq!(coalesce_copies(&mut mf), 2, "x and z merge; y is read after the gather");
        let first = &mf.blocks[0].insts[0];
        assert_eq!(first.defs[0].reg, vec, "x is computed in dword 0");
        assert_eq!(mf.blocks[0].insts[2].defs[0].reg, vec.at(2), "z in dword 2");
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }

    /// A register written in a whole-wave section (EXEC set to every lane) may hold lanes
    /// that the linear liveness does not see: it is never merged, though it dies at its copy.
    #[test]
    fn registers_written_outside_exec_are_left_alone() {
        use crate::amd::isel_build::sop1_fixed;
        use ferrum_isa::{Operand, Special};
        let exec = Operand::Special(Special::ExecLo);
        let program = |whole_wave: bool| {
            let mut mf = MFunc::default();
            let [t, x, y] = [0; 3].map(|_| mf.vreg(RegClass::V, 1));
            let saved = mf.vreg(RegClass::S, 1);
            let mut insts = Vec::new();
            if whole_wave {
                insts.push(sop1_fixed(Opcode::S_MOV_B32, exec, Src::I(u32::MAX)));
            }
            insts.push(vop1(Opcode::V_MOV_B32, t, Src::I(5)));
            if whole_wave {
                insts.push(sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(saved, RegClass::S)));
            }
            insts.push(vop1(Opcode::V_MOV_B32, x, v(t)));
            insts.push(vop2(Opcode::V_ADD_NC_U32, y, v(x), v(x)));
            mf.blocks.push(MBlock { insts });
            mf
        };
        assert_eq!(coalesce_copies(&mut program(false)), 1);
        assert_eq!(coalesce_copies(&mut program(true)), 0);
    }

    /// x = 0; loop { t = x + 1; (some lanes leave: EXEC narrows); x = t }; y = x + x. The
    /// lanes leaving between t's write and the latch copy read x after the loop: t must not
    /// be written into x's register, though the linear liveness sees x dead there.
    #[test]
    fn a_loop_carried_vector_copy_after_lanes_leave_stays() {
        use crate::amd::isel_build::sop1_fixed;
        use ferrum_isa::{Operand, Special};
        let mut mf = MFunc::default();
        let (x, t, y) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
        let staying = mf.vreg(RegClass::S, 1);
        let exec = Operand::Special(Special::ExecLo);
        let narrow = sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(staying, RegClass::S));
        mf.blocks.push(MBlock { insts: vec![vop1(Opcode::V_MOV_B32, x, Src::I(0))] });
        mf.blocks.push(MBlock {
            insts: vec![
                crate::amd::isel_build::sop1(Opcode::S_MOV_B32, staying, Src::I(1), 1),
                vop2(Opcode::V_ADD_NC_U32, t, Src::I(1), v(x)),
                narrow,
            ],
        });
        mf.blocks.push(MBlock { insts: vec![vop1(Opcode::V_MOV_B32, x, v(t)), back_edge()] });
        mf.blocks.push(MBlock { insts: vec![vop2(Opcode::V_ADD_NC_U32, y, v(x), v(x))] });
        assert_eq!(coalesce_copies(&mut mf), 0);
        check(&mf, &allocate(&mf).unwrap()).unwrap();
    }
}
