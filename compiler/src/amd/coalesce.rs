//! Copy coalescing: a plain register-to-register move whose source and destination are never
//! live at the same time needs no register of its own. Both virtual registers are renamed to
//! one, and the move, now copying a register onto itself, is deleted.
//!
//! This is what removes most φ copies: instruction selection turns every φ into copies on its
//! incoming edges (`x_phi := x_next` at a loop latch, one copy per side at an if/else join),
//! and the source usually dies at the copy while the φ register is dead until it. The test is
//! exact, not a heuristic: [`super::liveness::ranges`] gives each register its live range with
//! holes, in positions that separate an instruction's reads from its writes, so a source read
//! for the last time by the copy and the destination the copy writes do not overlap, while a
//! loop-carried φ register is seen dead between its last read in the body and the latch copy.
//!
//! Renaming is as safe as allocation itself: both rely on the same liveness, and giving two
//! non-overlapping ranges one register is exactly what the allocator does when it reuses a
//! register. Masked moves (a φ copy under the lanes taking one edge) are no exception: the
//! liveness already treats such a write as the definition of the whole register, which the
//! lowering of divergent control flow (blocks skippable by `s_cbranch_execz`) makes sound.

use ferrum_isa::{Ext, Inst, Opcode};

use super::liveness::{normalize, ranges, Range};
use super::mir::{MFunc, MInst, RegClass, RegRef, VReg};

/// A move `dst := src` that coalescing may remove: same class, same dword of same-sized
/// registers, no modifiers, nothing else read or written.
fn plain_copy(mf: &MFunc, mi: &MInst) -> Option<(RegRef, RegRef)> {
    let class = match &mi.inst {
        Inst::Vop1(i) if i.op == Opcode::V_MOV_B32 && i.ext == Ext::None => RegClass::V,
        Inst::Sop1(i) if i.op == Opcode::S_MOV_B32 => RegClass::S,
        _ => return None,
    };
    let ([d], [s]) = (mi.defs.as_slice(), mi.uses.as_slice()) else { return None };
    let (di, si) = (mf.info(d.reg.vreg), mf.info(s.reg.vreg));
    let same_shape = di.class == class && si.class == class && di.size == si.size;
    let ok = same_shape
        && d.dwords == 1
        && s.dwords == 1
        && d.reg.off == s.reg.off
        && mi.spill.is_none()
        && mi.target.is_none();
    ok.then_some((d.reg, s.reg))
}

/// Union-find root of `v`.
fn find(parent: &mut [u32], v: u32) -> u32 {
    let mut r = v;
    while parent[r as usize] != r {
        r = parent[r as usize];
    }
    let mut x = v;
    while parent[x as usize] != r {
        let next = parent[x as usize];
        parent[x as usize] = r;
        x = next;
    }
    r
}

/// A copy of a whole virtual register: the consecutive moves `dst.k := src.k` of one block
/// that together write every dword of `dst`, and the positions they span.
struct Copy {
    dst: u32,
    src: u32,
    /// First and last position of the moves.
    window: (usize, usize),
    /// Every dword of `dst` is written, each exactly once.
    whole: bool,
}

/// The copies of `mf`, moves of consecutive dwords of one pair grouped into one copy.
fn copies(mf: &MFunc) -> Vec<Copy> {
    let mut out: Vec<Copy> = Vec::new();
    let mut pos = 0;
    for blk in &mf.blocks {
        // Dwords written by the group being extended (bit per dword).
        let mut written = 0u32;
        let mut open = false;
        for mi in &blk.insts {
            let p = pos;
            pos += 1;
            let Some((d, s)) = plain_copy(mf, mi) else {
                open = false;
                continue;
            };
            let bit = 1u32 << d.off.min(31);
            match out.last_mut() {
                Some(c) if open && c.dst == d.vreg.0 && c.src == s.vreg.0 && written & bit == 0 => {
                    c.window.1 = 2 * p + 1;
                    written |= bit;
                }
                _ => {
                    let window = (2 * p, 2 * p + 1);
                    out.push(Copy { dst: d.vreg.0, src: s.vreg.0, window, whole: false });
                    written = bit;
                    open = true;
                }
            }
            let c = out.last_mut().expect("just pushed or extended");
            let size = mf.info(d.vreg).size;
            c.whole = written.count_ones() == u32::from(size);
        }
    }
    out
}

/// True if the normalized ranges `a` and `b` share a position outside `window`.
fn overlap_outside(a: &[(usize, usize)], b: &[(usize, usize)], window: (usize, usize)) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (lo, hi) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if lo <= hi && (lo < window.0 || hi > window.1) {
            return true;
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

/// True if `r` has a position in `window`.
fn meets(r: &[(usize, usize)], window: (usize, usize)) -> bool {
    r.iter().any(|&(a, b)| a <= window.1 && b >= window.0)
}

/// Gives the source and destination of every copy whose live ranges do not overlap one
/// register, then deletes the moves that copy a register onto itself. Returns the moves
/// deleted. Afterwards no plain move copies a virtual register dword onto itself.
///
/// A copy of a register wider than a dword is one move per dword, so the destination is
/// written before the source's last read: the two may overlap within the copy's moves when
/// the moves write every dword of the destination and nothing else the two registers were
/// merged with is live there (after merging, each move copies a dword onto itself).
pub fn coalesce_copies(mf: &mut MFunc) -> u32 {
    let orig: Vec<Range> = ranges(mf);
    let mut live = orig.clone();
    let n = mf.vregs.len() as u32;
    let mut parent: Vec<u32> = (0..n).collect();
    let mut members: Vec<Vec<u32>> = (0..n).map(|v| vec![v]).collect();
    for c in copies(mf) {
        let (a, b) = (find(&mut parent, c.dst), find(&mut parent, c.src));
        if a == b {
            continue;
        }
        let (ia, ib) = (mf.info(VReg(a)), mf.info(VReg(b)));
        let pinned = ia.fixed.is_some() || ib.fixed.is_some();
        let special = mf.unspillable.contains(&VReg(a)) || mf.unspillable.contains(&VReg(b));
        if pinned || special {
            continue;
        }
        let window = if c.whole { c.window } else { (1, 0) };
        let others_meet = |root: u32, own: u32| {
            let others = members[root as usize].iter().filter(|&&m| m != own);
            c.whole && others.into_iter().any(|&m| meets(&orig[m as usize], window))
        };
        let clash = overlap_outside(&live[a as usize], &live[b as usize], window)
            || others_meet(a, c.dst)
            || others_meet(b, c.src);
        if clash {
            continue;
        }
        // Keep the lower number as the root (stable output), with the stricter alignment.
        let (root, other) = (a.min(b), a.max(b));
        parent[other as usize] = root;
        let moved = std::mem::take(&mut live[other as usize]);
        live[root as usize].extend(moved);
        normalize(&mut live[root as usize]);
        let moved = std::mem::take(&mut members[other as usize]);
        members[root as usize].extend(moved);
        mf.vregs[root as usize].align = ia.align.max(ib.align);
    }
    let roots: Vec<u32> = (0..n).map(|v| find(&mut parent, v)).collect();
    let mut removed = 0;
    for blk in &mut mf.blocks {
        for mi in &mut blk.insts {
            for op in mi.defs.iter_mut().chain(mi.uses.iter_mut()) {
                op.reg.vreg = VReg(roots[op.reg.vreg.0 as usize]);
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
}
