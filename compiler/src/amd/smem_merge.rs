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

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

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
    let mut out: HashMap<Key, Vec<Load>> = HashMap::default();
    // Registers read so far in the block: a load whose result was already read here (a value
    // from the previous loop iteration) must stay where it is.
    let mut read = HashSet::default();
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
    let mut moved: HashMap<VReg, RegRef> = HashMap::default();
    let mut removed = 0;
    for b in 0..mf.blocks.len() {
        // Sorted by base so that the fresh registers come out in a deterministic order.
        let groups: BTreeMap<_, _> = candidates(mf, b, &defs)
            .into_iter()
            .map(|(k, v)| ((k.base.vreg, k.base.off, k.buffer), (k, v)))
            .collect();
        let mut dead = HashSet::default();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amd::isel_build::{self as build, SmemOff, Src};
    use crate::amd::mir::MBlock;

    /// A function whose single block holds `loads` (buffer form, byte offset, dwords) from one
    /// base, each followed by an `s_add_u32` reading the last dword of its result.
    fn func(loads: &[(bool, u32, u8)]) -> (MFunc, Vec<RegRef>) {
        let mut mf = MFunc::default();
        let addr = mf.vreg(RegClass::S, 2);
        let vsharp = mf.vreg(RegClass::S, 4);
        let mut insts = Vec::new();
        let mut dsts = Vec::new();
        for &(buffer, off, dw) in loads {
            let d = mf.vreg(RegClass::S, dw);
            let (base, bw) = if buffer { (vsharp, 4) } else { (addr, 2) };
            let op = load_op(buffer, u32::from(dw));
            insts.push(build::smem_load(op, d, dw, base, bw, SmemOff::Imm(off)));
            let t = mf.vreg(RegClass::S, 1);
            let last = Src::R(d.at(dw - 1), RegClass::S);
            insts.push(build::sop2(O::S_ADD_U32, Some(t), last, Src::I(1), 1));
            dsts.push(d);
        }
        mf.blocks.push(MBlock { insts });
        (mf, dsts)
    }

    /// (opcode, byte offset, destination) of every scalar load, in order.
    fn loads(mf: &MFunc) -> Vec<(O, i32, RegRef)> {
        let smem = mf.blocks.iter().flat_map(|b| &b.insts).filter_map(|mi| match &mi.inst {
            Inst::Smem(s) => Some((s.op, s.offset, mi.defs[0].reg)),
            _ => None,
        });
        smem.collect()
    }

    /// The register each `s_add_u32` reads, in order.
    fn reads(mf: &MFunc) -> Vec<RegRef> {
        let adds = mf.blocks[0].insts.iter().filter(|mi| mi.inst.op() == O::S_ADD_U32);
        adds.map(|mi| mi.uses[0].reg).collect()
    }

    #[test]
    fn consecutive_buffer_dwords_become_one_load_and_readers_follow() {
        let (mut mf, _) = func(&[(true, 8, 1), (true, 0, 1), (true, 4, 1), (true, 12, 1)]);
        assert_eq!(merge_scalar_loads(&mut mf), 3);
        let l = loads(&mf);
        assert_eq!(l.len(), 1);
        let (op, off, wide) = l[0];
        assert_eq!((op, off), (O::S_BUFFER_LOAD_DWORDX4, 0));
        assert_eq!(mf.info(wide.vreg).align, 4);
        // The merged load sits where the first original was, before every reader.
        assert!(matches!(mf.blocks[0].insts[0].inst, Inst::Smem(_)));
        assert_eq!(reads(&mf), vec![wide.at(2), wide.at(0), wide.at(1), wide.at(3)]);
    }

    #[test]
    fn buffer_loads_round_up_but_address_loads_never_read_past_their_span() {
        let (mut mf, _) = func(&[(true, 0, 1), (true, 4, 2)]);
        merge_scalar_loads(&mut mf);
        let ops: Vec<O> = loads(&mf).iter().map(|l| l.0).collect();
        assert_eq!(ops, vec![O::S_BUFFER_LOAD_DWORDX4]);

        let (mut mf, _) = func(&[(false, 0, 1), (false, 4, 2)]);
        assert_eq!(merge_scalar_loads(&mut mf), 0);
        let (mut mf, _) = func(&[(false, 0, 1), (false, 4, 1), (false, 8, 1)]);
        assert_eq!(merge_scalar_loads(&mut mf), 1);
        let got: Vec<(O, i32)> = loads(&mf).iter().map(|l| (l.0, l.1)).collect();
        assert_eq!(got, vec![(O::S_LOAD_DWORDX2, 0), (O::S_LOAD_DWORD, 8)]);
    }

    #[test]
    fn sparse_loads_stay_apart_and_duplicates_merge() {
        // One dword in every four (std140 scalar arrays): an x8 would be three quarters waste.
        let (mut mf, _) = func(&[(true, 0, 1), (true, 16, 1)]);
        assert_eq!(merge_scalar_loads(&mut mf), 0);
        let (mut mf, _) = func(&[(true, 20, 1), (true, 20, 1), (false, 16, 4), (false, 16, 4)]);
        assert_eq!(merge_scalar_loads(&mut mf), 2);
        let got: Vec<(O, i32)> = loads(&mf).iter().map(|l| (l.0, l.1)).collect();
        assert_eq!(got, vec![(O::S_BUFFER_LOAD_DWORD, 20), (O::S_LOAD_DWORDX4, 16)]);
    }

    #[test]
    fn two_quads_become_one_octet() {
        let (mut mf, _) = func(&[(false, 32, 4), (false, 48, 4)]);
        assert_eq!(merge_scalar_loads(&mut mf), 1);
        let (op, off, wide) = loads(&mf)[0];
        assert_eq!((op, off), (O::S_LOAD_DWORDX8, 32));
        assert_eq!(reads(&mf), vec![wide.at(3), wide.at(7)]);
    }

    #[test]
    fn register_offsets_other_blocks_and_earlier_readers_block_merging() {
        // A register offset.
        let (mut mf, dsts) = func(&[(true, 0, 1), (true, 4, 1)]);
        let off = mf.vreg(RegClass::S, 1);
        let base = mf.blocks[0].insts[0].uses[0].reg;
        mf.blocks[0].insts[2] =
            build::smem_load(O::S_BUFFER_LOAD_DWORD, dsts[1], 1, base, 4, SmemOff::Reg(off));
        assert_eq!(merge_scalar_loads(&mut mf), 0);

        // The same offsets in two blocks.
        let (mut mf, _) = func(&[(true, 0, 1), (true, 4, 1)]);
        let second = mf.blocks[0].insts.split_off(2);
        mf.blocks.push(MBlock { insts: second });
        assert_eq!(merge_scalar_loads(&mut mf), 0);

        // A result read before its load in the block (the previous iteration's value).
        let (mut mf, dsts) = func(&[(true, 0, 1), (true, 4, 1)]);
        let t = mf.vreg(RegClass::S, 1);
        let early = build::sop2(O::S_ADD_U32, Some(t), Src::R(dsts[1], RegClass::S), Src::I(2), 1);
        mf.blocks[0].insts.insert(0, early);
        assert_eq!(merge_scalar_loads(&mut mf), 0);
    }

    #[test]
    fn a_base_written_twice_blocks_merging() {
        let (mut mf, _) = func(&[(true, 0, 1), (true, 4, 1)]);
        let base = mf.blocks[0].insts[0].uses[0].reg;
        let redefine = build::sop1(O::S_MOV_B32, base, Src::I(0), 1);
        mf.blocks[0].insts.insert(2, redefine.clone());
        mf.blocks[0].insts.insert(0, redefine);
        assert_eq!(merge_scalar_loads(&mut mf), 0);
    }
}
