//! Which registers stay in host values across the segment starts of loops.
//!
//! Every segment start is a block the jump table can enter, so a segment begins from the
//! wave's memory copy and ends by storing what it wrote. In a loop made only of native
//! instructions that costs a load and a store of every register the body keeps per
//! iteration. So the segment starts inside such a loop take the registers the loop touches
//! as block parameters instead ([`RegCache::enter`]): a jump from translated code passes its
//! cached values (stores nothing it passes), the jump table's entry loads them, and only the
//! ways out (an exit, an interpreter call, the watchdog) store them.
//!
//! [`RegCache::enter`]: super::regcache::RegCache::enter

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::emit_salu;
use super::emit_valu;
use super::regcache::Carried;
use super::translate::{Plan, Regs};
use crate::core::wave::EXEC_LO;

/// VGPRs carried at most: each is eight host vectors, and beyond the host's vector registers
/// more only lengthen translation (the register allocator spills them to the stack).
const MAX_VGPRS: usize = 24;

/// The registers each segment start inside a native loop is entered with (starts not in the
/// map are entered from the wave's memory copy).
pub(super) fn carry_sets(
    plans: &[(u64, u64, Plan)],
    starts: &BTreeSet<u64>,
) -> BTreeMap<u64, Vec<Carried>> {
    let mut sets: BTreeMap<u64, BTreeSet<Carried>> = BTreeMap::new();
    for (range, regs) in native_loops(plans) {
        let carried = carried(&regs);
        for start in starts.range(range) {
            sets.entry(*start).or_default().extend(carried.iter().copied());
        }
    }
    sets.into_iter().map(|(pc, set)| (pc, set.into_iter().collect())).collect()
}

/// The native loops (of `native_loops`; the first 64) that contain `pc`, as bits.
pub(super) fn mask(loops: &[(Range<u64>, Regs)], pc: u64) -> u64 {
    let inside = loops.iter().take(64).enumerate().filter(|(_, l)| l.0.contains(&pc));
    inside.fold(0, |m, (n, _)| m | 1 << n)
}

/// The registers the loops in `mask` touch.
pub(super) fn regs(loops: &[(Range<u64>, Regs)], mask: u64) -> Regs {
    let mut m = Regs::default();
    for (_, (_, r)) in loops.iter().take(64).enumerate().filter(|(n, _)| mask >> n & 1 != 0) {
        m.add(*r);
    }
    m
}

/// The loops made only of native instructions: the PCs of each (from the target of a
/// backward branch to the branch), and the registers its instructions touch.
pub(super) fn native_loops(plans: &[(u64, u64, Plan)]) -> Vec<(Range<u64>, Regs)> {
    let mut out = Vec::new();
    for (pc, next, plan) in plans {
        let Plan::Branch(_, target) = plan else { continue };
        if target > pc {
            continue;
        }
        let body: Vec<&(u64, u64, Plan)> =
            plans.iter().filter(|p| (*target..*next).contains(&p.0)).collect();
        if let Some(regs) = native_regs(&body) {
            out.push((*target..*next, regs));
        }
    }
    out
}

/// The registers the native instructions of `body` touch; `None` when some instruction
/// leaves native code (an interpreter call, an exit, a barrier, `s_waitcnt`).
fn native_regs(body: &[&(u64, u64, Plan)]) -> Option<Regs> {
    let mut m = Regs::default();
    for (_, _, plan) in body {
        let r = match plan {
            Plan::Salu(s) => emit_salu::regs(s),
            Plan::Valu(v) => emit_valu::regs(v),
            Plan::Branch(..) => Regs::default(),
            _ => return None,
        };
        for (a, b) in m.0.iter_mut().zip(r.0) {
            *a |= b;
        }
    }
    Some(m)
}

/// EXEC (every VALU instruction and the segment's full-EXEC test read it), SCC, and the
/// registers in `regs` (the lowest VGPRs up to [`MAX_VGPRS`]).
fn carried(regs: &Regs) -> Vec<Carried> {
    let bit = |n: usize| regs.0[n / 64] & (1 << (n % 64)) != 0;
    let mut out = vec![Carried::S(EXEC_LO), Carried::Scc];
    out.extend((0..128).filter(|&r| r != EXEC_LO && bit(r)).map(Carried::S));
    out.extend((0..256u32).filter(|&r| bit(128 + r as usize)).map(Carried::V).take(MAX_VGPRS));
    out
}
