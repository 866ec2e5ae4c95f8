//! Vector memory merging: selection emits one access per IR load or store, so `o[i*4 + k]` for
//! k = 0..3 becomes four `buffer_store_dword`s at offsets 0, 4, 8 and 12 from one address
//! register (once [`crate::passes::opt_split_offsets`] and selection have put the constants
//! into the immediates). This pass, run on machine IR before register allocation, merges such
//! runs within a block: MUBUF and GLOBAL dword loads and stores with the same address
//! registers and consecutive immediates into one `_dwordx2/x3/x4`, and pairs of LDS
//! `ds_read_b32`/`ds_write_b32` on one address into `ds_read2_b32`/`ds_write2_b32`.
//!
//! Why it is sound:
//! - A merged access touches exactly the dwords of its members. Raw buffers are range-checked
//!   per dword (RDNA2 ISA guide, "Range checking": dword-x{2,3,4} accesses check each
//!   component), so every dword keeps the in/out-of-range result it had alone; GLOBAL and LDS
//!   have no range check, and multi-dword accesses need only dword alignment (MUBUF/GLOBAL with
//!   the unaligned access mode amdgpu programs, `ds_read2`/`ds_write2` per dword).
//! - A load group is issued where its first member was, a store group where its last member
//!   was. A member only moves across instructions that cannot observe the move: none may write
//!   (for loads) or access (for stores) memory of the same kind that may alias it (accesses
//!   with the same address registers at disjoint offsets are the only ones known apart), none
//!   is a barrier, wait, or other program-control instruction, and none writes EXEC, since
//!   every lane's access must happen under the same mask.
//! - Address registers and store data must be defined at most once in the function, so they
//!   hold the same value wherever the member moves.
//! - Loaded values and store data must sit in consecutive registers: merged destinations are a
//!   fresh register range that the members' results are renamed into; store data is renamed
//!   the same way when each member's data is a whole register defined once, and copied into the
//!   fresh range otherwise (a merge is taken only when it does not add instructions).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ferrum_isa::{Inst, Opcode as O, Operand, Special};

use super::mir::{MFunc, MInst, RegClass, RegOp, RegRef, Slot, VReg};

/// Largest dword count of one MUBUF/GLOBAL access.
const MAX_DWORDS: u32 = 4;
/// Largest dword offset `ds_read2_b32`/`ds_write2_b32` encode (8-bit fields).
const MAX_DS2_DWORD: i64 = 255;

/// Memory an access reaches: accesses of different kinds never alias.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mem {
    /// Buffers and global memory (MUBUF, GLOBAL, FLAT: they may name the same bytes).
    Vmem,
    /// The workgroup's LDS.
    Lds,
    /// The lane's private memory.
    Private,
}

/// Address registers and fixed fields shared by the members of a group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    mem: Mem,
    load: bool,
    /// The instruction with offsets, data registers and opcode cleared.
    shape: String,
    /// Address registers (V#, VGPR offset, SGPR offset, global address and base).
    regs: Vec<(RegRef, u8)>,
}

/// A plain dword access: instruction index, byte offset, dwords, data operand.
#[derive(Clone, Copy, Debug)]
struct Access {
    idx: usize,
    offset: i64,
    dwords: u32,
    data: RegOp,
}

/// (memory, load, dwords) of a mergeable opcode.
fn shape(op: O) -> Option<(Mem, bool, u32)> {
    Some(match op {
        O::BUFFER_LOAD_DWORD | O::GLOBAL_LOAD_DWORD => (Mem::Vmem, true, 1),
        O::BUFFER_LOAD_DWORDX2 | O::GLOBAL_LOAD_DWORDX2 => (Mem::Vmem, true, 2),
        O::BUFFER_LOAD_DWORDX3 | O::GLOBAL_LOAD_DWORDX3 => (Mem::Vmem, true, 3),
        O::BUFFER_STORE_DWORD | O::GLOBAL_STORE_DWORD => (Mem::Vmem, false, 1),
        O::BUFFER_STORE_DWORDX2 | O::GLOBAL_STORE_DWORDX2 => (Mem::Vmem, false, 2),
        O::BUFFER_STORE_DWORDX3 | O::GLOBAL_STORE_DWORDX3 => (Mem::Vmem, false, 3),
        O::DS_READ_B32 => (Mem::Lds, true, 1),
        O::DS_WRITE_B32 => (Mem::Lds, false, 1),
        _ => return None,
    })
}

/// The opcode of a merged MUBUF/GLOBAL access of `dwords`.
fn wide_op(op: O, dwords: u32) -> O {
    let buffer = op.name().starts_with("buffer");
    let load = op.name().contains("load");
    match (buffer, load, dwords) {
        (true, true, 2) => O::BUFFER_LOAD_DWORDX2,
        (true, true, 3) => O::BUFFER_LOAD_DWORDX3,
        (true, true, _) => O::BUFFER_LOAD_DWORDX4,
        (true, false, 2) => O::BUFFER_STORE_DWORDX2,
        (true, false, 3) => O::BUFFER_STORE_DWORDX3,
        (true, false, _) => O::BUFFER_STORE_DWORDX4,
        (false, true, 2) => O::GLOBAL_LOAD_DWORDX2,
        (false, true, 3) => O::GLOBAL_LOAD_DWORDX3,
        (false, true, _) => O::GLOBAL_LOAD_DWORDX4,
        (false, false, 2) => O::GLOBAL_STORE_DWORDX2,
        (false, false, 3) => O::GLOBAL_STORE_DWORDX3,
        (false, false, _) => O::GLOBAL_STORE_DWORDX4,
    }
}

/// `mi` as a mergeable access: no cache-policy or special bits, and its data operand.
fn candidate(mi: &MInst, idx: usize) -> Option<(Key, Access)> {
    let (mem, load, dwords) = shape(mi.inst.op())?;
    let mut inst = mi.inst;
    let offset = match &mut inst {
        Inst::Mubuf(b) => {
            if b.glc || b.slc || b.dlc || b.lds || b.tfe || b.idxen {
                return None;
            }
            let o = i64::from(b.offset);
            (b.offset, b.vdata, b.op) = (0, 0, O::BUFFER_LOAD_DWORD);
            o
        }
        Inst::Flat(f) => {
            if f.glc || f.slc || f.dlc || f.seg != ferrum_isa::Seg::Global {
                return None;
            }
            let o = i64::from(f.offset);
            (f.offset, f.vdst, f.data, f.op) = (0, 0, 0, O::GLOBAL_LOAD_DWORD);
            o
        }
        Inst::Ds(d) => {
            if d.gds {
                return None;
            }
            let o = i64::from(d.offset0) | i64::from(d.offset1) << 8;
            (d.offset0, d.offset1, d.vdst, d.data0, d.op) = (0, 0, 0, 0, O::DS_READ_B32);
            o
        }
        _ => return None,
    };
    let data_slots = [Slot::Vdata, Slot::FlatVdst, Slot::FlatData, Slot::DsVdst, Slot::DsData0];
    let ops = if load { &mi.defs } else { &mi.uses };
    let data_ops: Vec<&RegOp> = ops.iter().filter(|o| data_slots.contains(&o.slot)).collect();
    let [data] = data_ops.as_slice() else { return None };
    if u32::from(data.dwords) != dwords || offset % 4 != 0 || offset < 0 {
        return None;
    }
    let regs = mi
        .uses
        .iter()
        .filter(|o| !data_slots.contains(&o.slot))
        .map(|o| (o.reg, o.dwords))
        .collect();
    let key = Key { mem, load, shape: format!("{inst:?}"), regs };
    Some((key, Access { idx, offset, dwords, data: **data }))
}

/// Memory kind of any instruction that touches memory, and whether it reads or writes it.
fn memory_effect(mi: &MInst) -> Option<(Mem, bool, bool)> {
    let name = mi.inst.op().name();
    let rw = |load: bool| if load { (true, false) } else { (true, true) };
    let (mem, (reads, writes)) = match &mi.inst {
        Inst::Mubuf(_) | Inst::Mtbuf(_) | Inst::Mimg(_) => (Mem::Vmem, rw(name.contains("load"))),
        Inst::Flat(f) => {
            let mem = match f.seg {
                ferrum_isa::Seg::Scratch => Mem::Private,
                _ => Mem::Vmem,
            };
            (mem, rw(name.contains("load")))
        }
        Inst::Ds(_) => (Mem::Lds, rw(name.starts_with("ds_read"))),
        _ => return None,
    };
    Some((mem, reads, writes))
}

/// Instructions nothing moves across: program control, waits and barriers, and EXEC writes.
fn is_fence(mi: &MInst) -> bool {
    let exec = |o: &Operand| matches!(o, Operand::Special(Special::ExecLo | Special::ExecHi));
    let name = mi.inst.op().name();
    match &mi.inst {
        Inst::Sopp(_) => true,
        Inst::Sopk(k) => name.starts_with("s_waitcnt") || exec(&k.sdst),
        Inst::Sop1(i) => exec(&i.sdst) || name.contains("exec"),
        Inst::Sop2(i) => exec(&i.sdst),
        Inst::Vop3(i) => exec(&i.sdst) || name.starts_with("v_cmpx"),
        Inst::Vopc(_) => name.starts_with("v_cmpx"),
        Inst::Smem(_) => name.contains("inv") || name.contains("wb"),
        Inst::Mubuf(_) => name.contains("_gl"),
        _ => mi.target.is_some(),
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

/// True if instruction `mi` may not be crossed by a member of `key`'s group at `range`.
fn blocks(mi: &MInst, key: &Key, range: (i64, i64)) -> bool {
    if is_fence(mi) {
        return true;
    }
    let Some((mem, reads, writes)) = memory_effect(mi) else { return false };
    if mem != key.mem || !(writes || (!key.load && reads)) {
        return false;
    }
    // Known apart: the same address registers and disjoint bytes.
    match candidate(mi, 0) {
        Some((k, a)) if k.regs == key.regs && k.shape == key.shape => {
            let end = a.offset + 4 * i64::from(a.dwords);
            !(end <= range.0 || range.1 <= a.offset)
        }
        _ => true,
    }
}

/// The block's candidate accesses by key, in block order, with the registers their address
/// needs defined at most once.
fn candidates(mf: &MFunc, b: usize, defs: &[u32]) -> Vec<(Key, Vec<Access>)> {
    let mut out: Vec<(Key, Vec<Access>)> = Vec::new();
    for (idx, mi) in mf.blocks[b].insts.iter().enumerate() {
        let Some((key, a)) = candidate(mi, idx) else { continue };
        if key.regs.iter().any(|(r, _)| defs[r.vreg.0 as usize] > 1) {
            continue;
        }
        // A loaded register is renamed into the merged range as a whole.
        let info = mf.info(a.data.reg.vreg);
        let whole = a.data.reg.off == 0 && u32::from(info.size) == a.dwords;
        if key.load && (!whole || info.fixed.is_some()) {
            continue;
        }
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(a),
            None => out.push((key, vec![a])),
        }
    }
    out
}

/// Can `a` move to instruction index `to` (up for loads, down for stores)?
fn can_move(mf: &MFunc, b: usize, key: &Key, a: &Access, to: usize, defs: &[u32]) -> bool {
    let range = (a.offset, a.offset + 4 * i64::from(a.dwords));
    let insts = &mf.blocks[b].insts;
    let (lo, hi) = if to < a.idx { (to, a.idx) } else { (a.idx + 1, to + 1) };
    let window = &insts[lo..hi];
    let data = a.data.reg.vreg;
    if defs[data.0 as usize] > 1 {
        return false;
    }
    // A load moved up must not define its result before a reader of the old value.
    let early_read = key.load && window.iter().any(|mi| mi.uses.iter().any(|u| u.reg.vreg == data));
    let crossing = if key.load { &window[1..] } else { &window[..window.len() - 1] };
    !early_read && !crossing.iter().any(|mi| blocks(mi, key, range))
}

/// A planned merge: members (in offset order) and where the merged access goes.
struct Group {
    members: Vec<Access>,
    at: usize,
}

/// Chooses groups among `accs` (block order): runs of consecutive offsets for MUBUF/GLOBAL
/// (at most four dwords), pairs within the 8-bit dword fields for LDS.
fn plan(mf: &MFunc, b: usize, key: &Key, accs: &[Access], defs: &[u32]) -> Vec<Group> {
    let mut sorted: Vec<Access> = accs.to_vec();
    sorted.sort_by_key(|a| (a.offset, a.idx));
    let mut taken = HashSet::default();
    let mut out = Vec::new();
    for i in 0..sorted.len() {
        if taken.contains(&sorted[i].idx) {
            continue;
        }
        let mut members = vec![sorted[i]];
        let mut dwords = sorted[i].dwords;
        for a in &sorted[i + 1..] {
            let last = members.last().expect("members");
            let next = last.offset + 4 * i64::from(last.dwords);
            let fits = if key.mem == Mem::Lds {
                members.len() < 2 && a.offset / 4 <= MAX_DS2_DWORD
            } else {
                a.offset == next && dwords + a.dwords <= MAX_DWORDS
            };
            if taken.contains(&a.idx) || a.offset < next || !fits {
                if a.offset >= next {
                    break;
                }
                continue;
            }
            members.push(*a);
            dwords += a.dwords;
        }
        // Shrink from the end until every member can move to the merged position.
        while members.len() >= 2 {
            let at = if key.load {
                members.iter().map(|m| m.idx).min()
            } else {
                members.iter().map(|m| m.idx).max()
            };
            let at = at.expect("members");
            if members.iter().all(|m| m.idx == at || can_move(mf, b, key, m, at, defs)) {
                for m in &members {
                    taken.insert(m.idx);
                }
                out.push(Group { members, at });
                break;
            }
            members.pop();
        }
    }
    out
}

/// Merges vector memory accesses; returns how many instructions were removed.
pub fn merge_vector_accesses(mf: &mut MFunc) -> usize {
    let mut removed = 0;
    // Loads first: their merged results may then be stored as they are.
    for load in [true, false] {
        let defs = def_counts(mf);
        let mut renamed: HashMap<VReg, RegRef> = HashMap::default();
        for b in 0..mf.blocks.len() {
            let mut dead = HashSet::default();
            let mut before: Vec<(usize, MInst)> = Vec::new();
            for (key, accs) in candidates(mf, b, &defs) {
                if key.load != load || accs.len() < 2 {
                    continue;
                }
                for g in plan(mf, b, &key, &accs, &defs) {
                    let Some(copies) = emit_group(mf, b, &key, &g, &defs, &mut renamed) else {
                        continue;
                    };
                    before.extend(copies.into_iter().map(|c| (g.at, c)));
                    for m in &g.members {
                        if m.idx != g.at {
                            dead.insert(m.idx);
                        }
                    }
                    removed += g.members.len() - 1;
                }
            }
            rebuild(mf, b, &dead, before);
        }
        rename(mf, &renamed);
    }
    removed
}

/// Rewrites the instruction at `g.at` into the merged access; returns copies to insert before
/// it, or `None` (and changes nothing) when the merge would not pay.
fn emit_group(
    mf: &mut MFunc,
    b: usize,
    key: &Key,
    g: &Group,
    defs: &[u32],
    renamed: &mut HashMap<VReg, RegRef>,
) -> Option<Vec<MInst>> {
    let total: u32 = g.members.iter().map(|m| m.dwords).sum();
    let first = g.members[0];
    let lds = key.mem == Mem::Lds;
    let mut copies = Vec::new();
    let data = if key.load {
        let wide = mf.vreg(RegClass::V, total as u8);
        let mut at = 0;
        for m in &g.members {
            renamed.insert(m.data.reg.vreg, wide.at(at));
            at += m.dwords as u8;
        }
        wide
    } else if lds {
        first.data.reg
    } else {
        let (wide, c, names) = store_data(mf, b, &g.members, defs, renamed);
        if c.len() >= g.members.len() {
            return None;
        }
        copies = c;
        renamed.extend(names);
        wide
    };
    let mi = &mut mf.blocks[b].insts[g.at];
    match &mut mi.inst {
        Inst::Mubuf(i) => (i.op, i.offset) = (wide_op(i.op, total), first.offset as u16),
        Inst::Flat(i) => (i.op, i.offset) = (wide_op(i.op, total), first.offset as i16),
        Inst::Ds(i) => {
            let second = g.members[1].offset;
            i.op = if key.load { O::DS_READ2_B32 } else { O::DS_WRITE2_B32 };
            i.offset0 = (first.offset / 4) as u8;
            i.offset1 = (second / 4) as u8;
        }
        _ => return None,
    }
    let slot = first.data.slot;
    if key.load {
        mi.defs.retain(|d| d.slot != slot);
        mi.defs.push(RegOp { slot, reg: data, dwords: total as u8 });
    } else if lds {
        mi.uses.retain(|u| u.slot != Slot::DsData0 && u.slot != Slot::DsData1);
        mi.uses.push(RegOp { slot: Slot::DsData0, reg: first.data.reg, dwords: 1 });
        mi.uses.push(RegOp { slot: Slot::DsData1, reg: g.members[1].data.reg, dwords: 1 });
    } else {
        mi.uses.retain(|u| u.slot != slot);
        mi.uses.push(RegOp { slot, reg: data, dwords: total as u8 });
    }
    Some(copies)
}

/// Consecutive registers holding the members' store data: an existing run, or a fresh range
/// that whole once-defined data registers are to be renamed into (the returned renames) and
/// others are copied to (the returned copies).
fn store_data(
    mf: &mut MFunc,
    b: usize,
    members: &[Access],
    defs: &[u32],
    renamed: &HashMap<VReg, RegRef>,
) -> (RegRef, Vec<MInst>, Vec<(VReg, RegRef)>) {
    let first = members[0].data.reg;
    let mut at = 0u8;
    let run = members.iter().all(|m| {
        let ok = m.data.reg.vreg == first.vreg && m.data.reg.off == first.off + at;
        at += m.dwords as u8;
        ok
    });
    if run {
        return (first, Vec::new(), Vec::new());
    }
    let total: u8 = members.iter().map(|m| m.dwords as u8).sum();
    let wide = mf.vreg(RegClass::V, total);
    let mut copies = Vec::new();
    let mut names = Vec::new();
    let mut at = 0u8;
    let mut seen = HashSet::default();
    for m in members {
        let r = m.data.reg;
        let info = mf.info(r.vreg);
        let whole = r.off == 0 && info.size == m.dwords as u8 && info.class == RegClass::V;
        let movable = whole
            && info.fixed.is_none()
            && defined_in(mf, b, r.vreg)
            && defs[r.vreg.0 as usize] == 1
            && !renamed.contains_key(&r.vreg)
            && !mf.unspillable.contains(&r.vreg)
            && seen.insert(r.vreg);
        if movable {
            names.push((r.vreg, wide.at(at)));
        } else {
            for k in 0..m.dwords as u8 {
                let src = super::isel::build::Src::R(r.at(k), RegClass::V);
                copies.push(super::isel::build::vop1(O::V_MOV_B32, wide.at(at + k), src));
            }
        }
        at += m.dwords as u8;
    }
    (wide, copies, names)
}

/// True if `v` is written in block `b`. A range whose parts are written in different blocks is
/// live from the function's entry for the allocator, so only data written in the store's own
/// block is renamed into it.
fn defined_in(mf: &MFunc, b: usize, v: VReg) -> bool {
    mf.blocks[b].insts.iter().any(|mi| mi.defs.iter().any(|d| d.reg.vreg == v))
}

/// Drops the dead members of block `b` and inserts copies before their merged access.
fn rebuild(mf: &mut MFunc, b: usize, dead: &HashSet<usize>, mut before: Vec<(usize, MInst)>) {
    if dead.is_empty() && before.is_empty() {
        return;
    }
    let old = std::mem::take(&mut mf.blocks[b].insts);
    let mut out = Vec::with_capacity(old.len() + before.len());
    for (i, mi) in old.into_iter().enumerate() {
        let mut k = 0;
        while k < before.len() {
            if before[k].0 == i {
                out.push(before.remove(k).1);
            } else {
                k += 1;
            }
        }
        if !dead.contains(&i) {
            out.push(mi);
        }
    }
    mf.blocks[b].insts = out;
}

/// Points every operand of a renamed register at its place in the merged range.
fn rename(mf: &mut MFunc, renamed: &HashMap<VReg, RegRef>) {
    if renamed.is_empty() {
        return;
    }
    for mi in mf.blocks.iter_mut().flat_map(|b| &mut b.insts) {
        for op in mi.uses.iter_mut().chain(mi.defs.iter_mut()) {
            if let Some(&to) = renamed.get(&op.reg.vreg) {
                op.reg = to.at(op.reg.off);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amd::isel::build::{self, Src};
    use crate::amd::mir::MBlock;

    /// Registers of a test function: V#s, a VGPR offset, an LDS address, store data.
    struct Regs {
        vsharp: RegRef,
        other: RegRef,
        voff: RegRef,
        lds: RegRef,
        data: Vec<RegRef>,
    }

    fn regs(mf: &mut MFunc) -> Regs {
        let vsharp = mf.vreg(RegClass::S, 4);
        let other = mf.vreg(RegClass::S, 4);
        let voff = mf.vreg(RegClass::V, 1);
        let lds = mf.vreg(RegClass::V, 1);
        let data = (0..4).map(|_| mf.vreg(RegClass::V, 1)).collect();
        Regs { vsharp, other, voff, lds, data }
    }

    fn load(mf: &mut MFunc, r: &Regs, vsharp: RegRef, off: u16) -> MInst {
        let d = mf.vreg(RegClass::V, 1);
        build::mubuf(O::BUFFER_LOAD_DWORD, d, 1, true, Some(r.voff), vsharp, Src::I(0), off, false)
    }

    fn store(r: &Regs, k: usize, off: u16) -> MInst {
        let (v, s) = (r.voff, r.vsharp);
        build::mubuf(O::BUFFER_STORE_DWORD, r.data[k], 1, false, Some(v), s, Src::I(0), off, false)
    }

    /// A function of one block: the data registers defined first, then `body`.
    fn func(mf: &mut MFunc, r: &Regs, body: Vec<MInst>) {
        let mut insts: Vec<MInst> =
            r.data.iter().map(|&d| build::vop1(O::V_MOV_B32, d, Src::I(7))).collect();
        insts.extend(body);
        mf.blocks.push(MBlock { insts });
    }

    fn ops(mf: &MFunc) -> Vec<&'static str> {
        let names = mf.blocks[0].insts.iter().map(|mi| mi.inst.op().name());
        names.filter(|n| !n.starts_with("v_mov")).collect()
    }

    #[test]
    fn consecutive_loads_and_stores_become_one_access_each() {
        let mut mf = MFunc::default();
        let r = regs(&mut mf);
        let body = vec![
            load(&mut mf, &r, r.vsharp, 8),
            load(&mut mf, &r, r.vsharp, 4),
            store(&r, 1, 20),
            store(&r, 0, 16),
        ];
        func(&mut mf, &r, body);
        assert_eq!(merge_vector_accesses(&mut mf), 2);
        assert_eq!(ops(&mf), ["buffer_load_dwordx2", "buffer_store_dwordx2"]);
        let Inst::Mubuf(l) = mf.blocks[0].insts[4].inst else { panic!() };
        assert_eq!(l.offset, 4);
        // The data registers were renamed into one range, in offset order.
        let st = &mf.blocks[0].insts[5];
        let data = st.uses.iter().find(|u| u.slot == Slot::Vdata).unwrap();
        assert_eq!(data.dwords, 2);
        assert_eq!(mf.blocks[0].insts[0].defs[0].reg, data.reg);
        assert_eq!(mf.blocks[0].insts[1].defs[0].reg, data.reg.at(1));
    }

    #[test]
    fn aliasing_stores_barriers_and_exec_writes_keep_accesses_apart() {
        // A store through another V# may write what the second load reads.
        let mut mf = MFunc::default();
        let r = regs(&mut mf);
        let other = build::mubuf(
            O::BUFFER_STORE_DWORD,
            r.data[2],
            1,
            false,
            Some(r.voff),
            r.other,
            Src::I(0),
            4,
            false,
        );
        let body = vec![load(&mut mf, &r, r.vsharp, 0), other, load(&mut mf, &r, r.vsharp, 4)];
        func(&mut mf, &r, body);
        assert_eq!(merge_vector_accesses(&mut mf), 0);

        // A store to the same address registers at a disjoint offset does not.
        let mut mf = MFunc::default();
        let r = regs(&mut mf);
        let body =
            vec![load(&mut mf, &r, r.vsharp, 0), store(&r, 2, 8), load(&mut mf, &r, r.vsharp, 4)];
        func(&mut mf, &r, body);
        assert_eq!(merge_vector_accesses(&mut mf), 1);

        // Stores never move past a load that may read them, a barrier or an EXEC write.
        for fence in 0..3 {
            let mut mf = MFunc::default();
            let r = regs(&mut mf);
            let mid = match fence {
                0 => load(&mut mf, &r, r.other, 0),
                1 => build::sopp(O::S_BARRIER, 0),
                _ => build::sop1_fixed(O::S_MOV_B32, Operand::Special(Special::ExecLo), Src::I(1)),
            };
            func(&mut mf, &r, vec![store(&r, 0, 0), mid, store(&r, 1, 4)]);
            assert_eq!(merge_vector_accesses(&mut mf), 0, "fence {fence}");
        }
    }

    #[test]
    fn lds_pairs_use_dword_offsets_within_reach() {
        let mut mf = MFunc::default();
        let r = regs(&mut mf);
        let ds_store =
            |k: usize, off: u16| build::ds(O::DS_WRITE_B32, None, r.lds, &[(r.data[k], 1)], off);
        // 0 and 1020 bytes pair (dwords 0 and 255); 1024 is out of the 8-bit field's reach.
        let body = vec![ds_store(0, 0), ds_store(1, 1020), ds_store(2, 1024)];
        func(&mut mf, &r, body);
        assert_eq!(merge_vector_accesses(&mut mf), 1);
        assert_eq!(ops(&mf), ["ds_write2_b32", "ds_write_b32"]);
        let Inst::Ds(d) = mf.blocks[0].insts[4].inst else { panic!() };
        assert_eq!((d.offset0, d.offset1), (0, 255));
    }
}
