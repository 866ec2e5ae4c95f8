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

use super::liveness::{normalize, overlap, ranges, Range};
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

/// Gives the source and destination of every move whose live ranges do not overlap one
/// register, then deletes the moves that copy a register onto itself. Returns the moves
/// deleted. Afterwards no plain move copies a virtual register dword onto itself.
pub fn coalesce_copies(mf: &mut MFunc) -> u32 {
    let mut live: Vec<Range> = ranges(mf);
    let mut parent: Vec<u32> = (0..mf.vregs.len() as u32).collect();
    let copies: Vec<(RegRef, RegRef)> =
        mf.blocks.iter().flat_map(|b| &b.insts).filter_map(|mi| plain_copy(mf, mi)).collect();
    for (d, s) in copies {
        let (a, b) = (find(&mut parent, d.vreg.0), find(&mut parent, s.vreg.0));
        if a == b {
            continue;
        }
        let (ia, ib) = (mf.info(VReg(a)), mf.info(VReg(b)));
        let pinned = ia.fixed.is_some() || ib.fixed.is_some();
        let special = mf.unspillable.contains(&VReg(a)) || mf.unspillable.contains(&VReg(b));
        if pinned || special || overlap(&live[a as usize], &live[b as usize]) {
            continue;
        }
        // Keep the lower number as the root (stable output), with the stricter alignment.
        let (root, other) = (a.min(b), a.max(b));
        parent[other as usize] = root;
        let moved = std::mem::take(&mut live[other as usize]);
        live[root as usize].extend(moved);
        normalize(&mut live[root as usize]);
        let align = ia.align.max(ib.align);
        mf.vregs[root as usize].align = align;
    }
    let roots: Vec<u32> = (0..parent.len() as u32).map(|v| find(&mut parent, v)).collect();
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
