//! Scalar load merging: selection reads uniform data a component at a time, so a shader that
//! uses four consecutive UBO members gets four `s_buffer_load_dword`s. This pass, run on
//! machine IR before register allocation, replaces loads from the same base at nearby
//! constant offsets within one block by one `s_load_dwordx2/x4/x8` or
//! `s_buffer_load_dwordx2/x4/x8` and points the readers of the narrow results into the wide
//! one.
//!
//! Why it is sound:
//! - Scalar loads are only selected for memory no shader invocation writes (uniform buffers,
//!   push constants, descriptor sets, dispatch sizes), so a load may move up to the first load
//!   of its group across stores and barriers; it never moves across a block boundary, so the
//!   merged load runs exactly when the first original did.
//! - `s_buffer_load` checks each dword against the V#'s NUM_RECORDS separately (dwords beyond
//!   it read as zero), so a wide load gives every dword the value the narrow load gave it; it
//!   may therefore also cover unread gap dwords and round its size up to a power of two.
//! - `s_load` has no range check: a merged load covers exactly the dwords from its first to
//!   its last original dword, so it reads no memory the originals would not have read past.
//! - Destinations are fresh virtual registers of [`MFunc::vreg`], which gives SGPR pairs even
//!   and larger tuples 4-aligned first registers, as SDATA requires.

use std::collections::{BTreeMap, HashMap, HashSet};

use ferrum_isa::{Inst, Opcode as O, Operand, Special};

use super::mir::{MFunc, RegClass, RegRef, Slot, VReg};

/// Widest scalar load (`_dwordx8`; x16 would tie up too many SGPRs for uniform data).
const MAX_DWORDS: u32 = 8;

/// Loads from the same base can merge: kind (buffer or address) and base registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    buffer: bool,
    base: RegRef,
}

/// A mergeable load: instruction index in its block, first dword, dwords, destination.
#[derive(Clone, Copy, Debug)]
struct Load {
    idx: usize,
    start: u32,
    dwords: u32,
    dst: VReg,
}

/// (buffer form, dwords) of a plain scalar load opcode.
fn shape(op: O) -> Option<(bool, u32)> {
    Some(match op {
        O::S_LOAD_DWORD => (false, 1),
        O::S_LOAD_DWORDX2 => (false, 2),
        O::S_LOAD_DWORDX4 => (false, 4),
        O::S_LOAD_DWORDX8 => (false, 8),
        O::S_BUFFER_LOAD_DWORD => (true, 1),
        O::S_BUFFER_LOAD_DWORDX2 => (true, 2),
        O::S_BUFFER_LOAD_DWORDX4 => (true, 4),
        O::S_BUFFER_LOAD_DWORDX8 => (true, 8),
        _ => return None,
    })
}

/// The scalar load of `dwords` (1, 2, 4 or 8).
fn load_op(buffer: bool, dwords: u32) -> O {
    match (buffer, dwords) {
        (false, 1) => O::S_LOAD_DWORD,
        (false, 2) => O::S_LOAD_DWORDX2,
        (false, 4) => O::S_LOAD_DWORDX4,
        (false, _) => O::S_LOAD_DWORDX8,
        (true, 1) => O::S_BUFFER_LOAD_DWORD,
        (true, 2) => O::S_BUFFER_LOAD_DWORDX2,
        (true, 4) => O::S_BUFFER_LOAD_DWORDX4,
        (true, _) => O::S_BUFFER_LOAD_DWORDX8,
    }
}

/// Definitions per virtual register over the whole function.
fn def_counts(mf: &MFunc) -> Vec<u32> {
    let mut n = vec![0u32; mf.vregs.len()];
    for mi in mf.blocks.iter().flat_map(|b| &b.insts) {
        for d in &mi.defs {
            n[d.reg.vreg.0 as usize] += 1;
        }
    }
    n
}

/// The mergeable loads of block `b`, by base.
fn candidates(mf: &MFunc, b: usize, defs: &[u32]) -> HashMap<Key, Vec<Load>> {
    let mut out: HashMap<Key, Vec<Load>> = HashMap::new();
    // Registers read so far in the block: a load whose result was already read here (a value
    // from the previous loop iteration) must stay where it is.
    let mut read = HashSet::new();
    for (idx, mi) in mf.blocks[b].insts.iter().enumerate() {
        if let Some((key, load)) = candidate(mf, mi, idx, defs) {
            if !read.contains(&load.dst) {
                out.entry(key).or_default().push(load);
            }
        }
        read.extend(mi.uses.iter().map(|u| u.reg.vreg));
    }
    out
}

/// `mi` as a mergeable load: an immediate dword-aligned offset, no cache-policy bits, the only
/// definition of a whole unpinned register, and a base defined at most once (so its value is
/// the same at every load that reads it).
fn candidate(mf: &MFunc, mi: &super::mir::MInst, idx: usize, defs: &[u32]) -> Option<(Key, Load)> {
    let Inst::Smem(s) = &mi.inst else { return None };
    let (buffer, dwords) = shape(s.op)?;
    if s.soffset != Operand::Special(Special::Null) || s.glc || s.dlc {
        return None;
    }
    if s.offset < 0 || s.offset % 4 != 0 {
        return None;
    }
    let [d] = mi.defs.as_slice() else { return None };
    let [base] = mi.uses.as_slice() else { return None };
    if d.slot != Slot::Sdata || base.slot != Slot::Sbase {
        return None;
    }
    let info = mf.info(d.reg.vreg);
    let whole = d.reg.off == 0 && u32::from(d.dwords) == dwords && u32::from(info.size) == dwords;
    if !whole || info.fixed.is_some() || info.class != RegClass::S {
        return None;
    }
    if defs[d.reg.vreg.0 as usize] != 1 || defs[base.reg.vreg.0 as usize] > 1 {
        return None;
    }
    let load = Load { idx, start: s.offset as u32 / 4, dwords, dst: d.reg.vreg };
    Some((Key { buffer, base: base.reg }, load))
}

/// A merged load: members (indices into the base's load list), first dword, dwords.
struct Group {
    members: Vec<usize>,
    start: u32,
    dwords: u32,
}

/// Chooses merged loads among `loads` (sorted by first dword), greedily from the lowest
/// offset: the widest load whose window holds at least two loads, whose size follows from
/// their span (exactly for `s_load`, the next power of two for range-checked buffer loads),
/// and of which at least half the dwords are actually read.
fn plan(loads: &[Load], buffer: bool) -> Vec<Group> {
    let mut taken = vec![false; loads.len()];
    let mut out = Vec::new();
    for i in 0..loads.len() {
        if taken[i] {
            continue;
        }
        let start = loads[i].start;
        let mut w = MAX_DWORDS;
        while w >= 1 {
            let members: Vec<usize> = (i..loads.len())
                .filter(|&j| !taken[j] && loads[j].start + loads[j].dwords <= start + w)
                .collect();
            let span = members.iter().map(|&j| loads[j].start + loads[j].dwords).max();
            let span = span.unwrap_or(start) - start;
            let fits = if buffer { span.next_power_of_two() == w } else { span == w };
            let read: HashSet<u32> = members
                .iter()
                .flat_map(|&j| loads[j].start..loads[j].start + loads[j].dwords)
                .collect();
            if members.len() >= 2 && fits && read.len() as u32 * 2 >= w {
                for &j in &members {
                    taken[j] = true;
                }
                out.push(Group { members, start, dwords: w });
                break;
            }
            w /= 2;
        }
        taken[i] = true;
    }
    out
}

/// Merges scalar loads; returns how many loads were removed.
pub fn merge_scalar_loads(mf: &mut MFunc) -> usize {
    let defs = def_counts(mf);
    // Old destination → (merged register, dword offset in it).
    let mut moved: HashMap<VReg, RegRef> = HashMap::new();
    let mut removed = 0;
    for b in 0..mf.blocks.len() {
        // Sorted by base so that the fresh registers come out in a deterministic order.
        let groups: BTreeMap<_, _> = candidates(mf, b, &defs)
            .into_iter()
            .map(|(k, v)| ((k.base.vreg, k.base.off, k.buffer), (k, v)))
            .collect();
        let mut dead = HashSet::new();
        for (key, mut loads) in groups.into_values() {
            loads.sort_by_key(|l| (l.start, std::cmp::Reverse(l.dwords), l.idx));
            for g in plan(&loads, key.buffer) {
                let wide = mf.vreg(RegClass::S, g.dwords as u8);
                let first = g.members.iter().map(|&j| loads[j].idx).min().expect("members");
                for &j in &g.members {
                    let l = loads[j];
                    moved.insert(l.dst, wide.at((l.start - g.start) as u8));
                    if l.idx != first {
                        dead.insert(l.idx);
                    }
                }
                let mi = &mut mf.blocks[b].insts[first];
                if let Inst::Smem(s) = &mut mi.inst {
                    s.op = load_op(key.buffer, g.dwords);
                    s.offset = (g.start * 4) as i32;
                }
                mi.defs[0].reg = wide;
                mi.defs[0].dwords = g.dwords as u8;
                removed += g.members.len() - 1;
            }
        }
        let mut k = 0;
        mf.blocks[b].insts.retain(|_| {
            k += 1;
            !dead.contains(&(k - 1))
        });
    }
    if moved.is_empty() {
        return 0;
    }
    for mi in mf.blocks.iter_mut().flat_map(|b| &mut b.insts) {
        for op in mi.uses.iter_mut().chain(mi.defs.iter_mut()) {
            if let Some(&to) = moved.get(&op.reg.vreg) {
                op.reg = to.at(op.reg.off);
            }
        }
    }
    removed
}
