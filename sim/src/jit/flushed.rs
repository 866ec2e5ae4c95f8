//! Which VGPRs hold flushed f32 values at each segment start.
//!
//! With denormal flushing on, every native f32 operation flushes its VGPR inputs unless the
//! value is known to be flushed already (the result of a flushing operation under the same
//! EXEC, see `emit_valu`). Within a segment the register cache knows; across a segment start
//! it used to forget, so a loop flushed its carried accumulators again on every iteration.
//!
//! This is a forward dataflow over the segment starts: a VGPR is flushed at a start when it
//! is flushed at the end of every way in (the meet is the intersection; the program's entry
//! knows nothing). The jump table is not a way in of its own: the function is only entered at
//! the PC an earlier run of the same wave (translated or interpreted) reached along the
//! program's own control flow, and what held on that way holds at the entry. That is only
//! true when every transfer of control is one the walk sees, so programs with an indirect
//! jump or an interpreted branch get no knowledge at all.

use std::collections::{BTreeMap, BTreeSet};

use super::emit_salu;
use super::emit_valu;
use super::translate::Plan;
use crate::core::wave::EXEC_LO;

/// VGPRs known flushed in the lanes EXEC enables.
pub(super) type Set = BTreeSet<u32>;

/// The known-flushed VGPRs at each segment start (starts the dataflow never reaches know
/// nothing). `ftz`: the float mode flushes f32 denormals and native code does f32 arithmetic
/// (otherwise nothing is recorded).
pub(super) fn flushed_in(
    plans: &[(u64, u64, Plan)],
    starts: &BTreeSet<u64>,
    ftz: bool,
) -> BTreeMap<u64, Set> {
    let mut known: BTreeMap<u64, Set> = BTreeMap::new();
    let Some(&entry) = starts.first() else { return known };
    if !ftz {
        return known;
    }
    let index: BTreeMap<u64, usize> = plans.iter().enumerate().map(|(k, p)| (p.0, k)).collect();
    known.insert(entry, Set::new());
    let mut todo = vec![entry];
    while let Some(pc) = todo.pop() {
        let set = known[&pc].clone();
        for (to, out) in segment_out(plans, starts, &index, index[&pc], set, ftz) {
            let met = match known.get(&to) {
                Some(old) => old.intersection(&out).copied().collect(),
                None => out,
            };
            if known.get(&to) != Some(&met) {
                known.insert(to, met);
                todo.push(to);
            }
        }
    }
    known
}

/// The ways out of the segment starting at `plans[k]` entered with `set`: (start, flushed).
fn segment_out(
    plans: &[(u64, u64, Plan)],
    starts: &BTreeSet<u64>,
    index: &BTreeMap<u64, usize>,
    k: usize,
    mut set: Set,
    ftz: bool,
) -> Vec<(u64, Set)> {
    let mut out = Vec::new();
    for (j, (pc, next, plan)) in plans.iter().enumerate().skip(k) {
        if j > k && starts.contains(pc) {
            // Falls into the next segment.
            out.push((*pc, set));
            return out;
        }
        match plan {
            Plan::Salu(s) => {
                if emit_salu::regs(s).0[EXEC_LO / 64] & (1 << (EXEC_LO % 64)) != 0 {
                    set.clear();
                }
            }
            Plan::Valu(v) => emit_valu::flush_transfer(v, ftz, &mut set),
            Plan::Branch(cond, target) => {
                if cond.is_some() {
                    out.push((*next, set.clone()));
                }
                out.push((*target, set));
                return keep_starts(out, starts);
            }
            // The interpreter may write any register (its own float results are flushed
            // too, but it is not worth tracking).
            Plan::Helper | Plan::Mem(_) => {
                out.push((*next, Set::new()));
                return keep_starts(out, starts);
            }
            // `s_waitcnt` and hints retire bookkeeping only; a barrier resumes at the next
            // instruction with the registers as they were.
            Plan::Nothing(_) | Plan::Barrier => {
                out.push((*next, set));
                return keep_starts(out, starts);
            }
            Plan::End => return out,
        }
        if !index.contains_key(next) {
            // The next instruction was not translated: the code leaves.
            return out;
        }
    }
    out
}

fn keep_starts(mut out: Vec<(u64, Set)>, starts: &BTreeSet<u64>) -> Vec<(u64, Set)> {
    out.retain(|(pc, _)| starts.contains(pc));
    out
}
