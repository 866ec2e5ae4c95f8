//! The register-allocation checker (after regalloc2's): a forward data-flow over physical
//! registers proving that every register read sees the virtual register its operand names,
//! on every path. Reads of a virtual register that is not written on every path to the read
//! (φ registers and mask accumulators, read before their first write on purpose) are exempt:
//! a must-be-defined analysis runs alongside and only fully defined reads are checked.
//!
//! Spill slots are cells too: a spill store copies what its data register holds (as the spilled
//! value) into the slot's cells, and a reload must find the value it claims to reload there,
//! so a value that goes through memory is followed as closely as one that stays in registers.

use ferrum_isa::{Inst, Opcode, Operand, Seg, Special};

use super::error::BackendError;
use super::mir::{MFunc, MInst, RegClass, RegOp, Slot, SpillMove};
use super::regalloc::Assignment;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    /// Not reached yet.
    Bottom,
    /// Reached, never written.
    Undef,
    /// Holds dword `.1` of virtual register `.0` (on some paths possibly undefined: `.2`).
    Val(u32, u8),
    /// Different values on different paths.
    Conflict,
}

fn merge(a: Cell, b: Cell) -> Cell {
    use Cell::*;
    match (a, b) {
        (Bottom, x) | (x, Bottom) => x,
        (Undef, Undef) => Undef,
        (Val(v, d), Undef) | (Undef, Val(v, d)) => Val(v, d),
        (Val(v, d), Val(w, e)) if v == w && d == e => Val(v, d),
        _ => Conflict,
    }
}

const S_BASE: usize = 0;
const V_BASE: usize = 128;
/// Private-memory dwords (spill slots) follow the registers.
const M_BASE: usize = V_BASE + 256;

fn cell_index(class: RegClass, r: u8) -> usize {
    match class {
        RegClass::S => S_BASE + r as usize,
        RegClass::V => V_BASE + r as usize,
    }
}

/// [`check`] where the compiler validates its work: in debug builds (so in every test) and
/// with `FERRUM_DEBUG=validate`, as for the IR validator after each pass. Release pipeline
/// creation skips it (as release builds of Mesa's ACO skip their register-allocation
/// validator): it costs a data-flow over every register and slot of the program.
pub fn check_when_validating(mf: &MFunc, a: &Assignment) -> Result<(), BackendError> {
    if cfg!(debug_assertions) || crate::debug::DebugFlags::get().validate {
        check(mf, a)
    } else {
        Ok(())
    }
}

/// Checks the allocation of `mf` (before rewriting; operands still name virtual registers).
pub fn check(mf: &MFunc, a: &Assignment) -> Result<(), BackendError> {
    let nb = mf.blocks.len();
    let nv = mf.vregs.len();
    let cells = lane_base(mf) + mf.lane_slots as usize;
    let mut entry = vec![vec![Cell::Bottom; cells]; nb];
    // Must-defined virtual registers at block entry (None = not reached yet).
    let mut defined: Vec<Option<Vec<bool>>> = vec![None; nb];
    entry[0] = vec![Cell::Undef; cells];
    let mut d0 = vec![false; nv];
    for (v, info) in mf.vregs.iter().enumerate() {
        if let (Some(f), true) = (info.fixed, a.reg[v] != u8::MAX) {
            d0[v] = true;
            for d in 0..info.size {
                entry[0][cell_index(info.class, f + d)] = Cell::Val(v as u32, d);
            }
        }
    }
    defined[0] = Some(d0);
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| mf.succs(b)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            if entry[b].iter().all(|c| *c == Cell::Bottom) {
                continue;
            }
            let mut st = entry[b].clone();
            let mut def = defined[b].clone().unwrap_or_else(|| vec![false; nv]);
            transfer(mf, a, b, &mut st, &mut def)?;
            for &s in &succs[b] {
                match &mut defined[s] {
                    slot @ None => {
                        *slot = Some(def.clone());
                        changed = true;
                    }
                    Some(d) => {
                        for (x, y) in d.iter_mut().zip(&def) {
                            if *x && !*y {
                                *x = false;
                                changed = true;
                            }
                        }
                    }
                }
                for (x, c) in entry[s].iter_mut().zip(&st) {
                    let m = merge(*x, *c);
                    if m != *x {
                        *x = m;
                        changed = true;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Runs block `b` over the cell state `st` and the must-defined set `def`, checking each read.
fn transfer(
    mf: &MFunc,
    a: &Assignment,
    b: usize,
    st: &mut [Cell],
    def: &mut [bool],
) -> Result<(), BackendError> {
    for (i, mi) in mf.blocks[b].insts.iter().enumerate() {
        if let Some(sm) = mi.spill {
            let insts = &mf.blocks[b].insts;
            match (sm.lane, encoded_slot(insts, i)) {
                (true, _) => {}
                (false, Some(at)) if at == sm.slot => {}
                (false, at) => {
                    return Err(BackendError::RegallocCheck(format!(
                        "block {b} instruction {i}: spill move recorded at byte {} but \
                         addresses {at:?}",
                        sm.slot
                    )))
                }
            }
            spill_move(mf, a, sm, mi, st, def).map_err(|e| {
                BackendError::RegallocCheck(format!("block {b} instruction {i}: {e}"))
            })?;
        }
        tied_fields(mf, a, mi)
            .map_err(|e| BackendError::RegallocCheck(format!("block {b} instruction {i}: {e}")))?;
        for u in &mi.uses {
            let v = u.reg.vreg.0 as usize;
            if !def[v] {
                continue;
            }
            let info = mf.vregs[v];
            for d in 0..u.dwords {
                let dw = u.reg.off + d;
                let c = st[cell_index(info.class, a.reg[v].wrapping_add(dw))];
                if !matches!(c, Cell::Val(x, y) if x as usize == v && y == dw) && c != Cell::Undef {
                    return Err(BackendError::RegallocCheck(format!(
                        "block {b} instruction {i} ({}): v{v}.{dw} reads {c:?}",
                        mi.inst.op().name()
                    )));
                }
            }
        }
        for d in &mi.defs {
            let v = d.reg.vreg.0 as usize;
            let info = mf.vregs[v];
            if d.reg.off == 0 && d.dwords == info.size {
                def[v] = true;
            }
            for k in 0..d.dwords {
                let dw = d.reg.off + k;
                st[cell_index(info.class, a.reg[v].wrapping_add(dw))] = Cell::Val(v as u32, dw);
            }
        }
    }
    Ok(())
}

/// An operand that is both read and written names one register field twice (a partial-lane
/// write reading the lanes it keeps): the encoding holds a single register, so both names must
/// be given the same one, or the write lands where the data flow above does not follow it.
fn tied_fields(mf: &MFunc, a: &Assignment, mi: &MInst) -> Result<(), String> {
    let phys = |op: &RegOp| {
        let v = op.reg.vreg.0 as usize;
        (mf.vregs[v].class, a.reg[v].wrapping_add(op.reg.off))
    };
    for d in &mi.defs {
        for u in mi.uses.iter().filter(|u| u.slot == d.slot) {
            if phys(u) != phys(d) {
                return Err(format!(
                    "{} reads v{}.{} and writes v{}.{} through one field, but they are \
                     allocated {:?} and {:?}",
                    mi.inst.op().name(),
                    u.reg.vreg.0,
                    u.reg.off,
                    d.reg.vreg.0,
                    d.reg.off,
                    phys(u),
                    phys(d)
                ));
            }
        }
    }
    Ok(())
}

/// The scratch byte a spill move's encoding addresses: its immediate offset, plus the value
/// the nearest earlier `s_mov_b32` in the block put in its SGPR address (`None` if not known).
fn encoded_slot(insts: &[MInst], i: usize) -> Option<u32> {
    let Inst::Flat(f) = &insts[i].inst else { return None };
    if f.seg != Seg::Scratch {
        return None;
    }
    let off = i32::from(f.offset);
    if f.saddr == Operand::Special(Special::ExecHi) {
        return u32::try_from(off).ok();
    }
    let s = insts[i].uses.iter().find(|u| u.slot == Slot::Saddr)?;
    let set = insts[..i].iter().rev().find(|p| p.defs.iter().any(|d| d.reg == s.reg))?;
    let base = match &set.inst {
        Inst::Sop1(m) if m.op == Opcode::S_MOV_B32 => match m.ssrc0 {
            Operand::Literal(x) => x,
            Operand::Int(n) => u32::try_from(n).ok()?,
            _ => return None,
        },
        _ => return None,
    };
    base.checked_add_signed(off)
}

/// First cell of the VGPR-lane slots of scalar spills (after the private-memory dwords).
fn lane_base(mf: &MFunc) -> usize {
    M_BASE + mf.scratch_bytes.div_ceil(4) as usize
}

/// Follows a spill store (register → slot) or checks a reload (the slot holds the value).
fn spill_move(
    mf: &MFunc,
    a: &Assignment,
    sm: SpillMove,
    mi: &MInst,
    st: &mut [Cell],
    def: &mut [bool],
) -> Result<(), String> {
    let orig = sm.orig.0 as usize;
    let slot =
        if sm.lane { lane_base(mf) + sm.slot as usize } else { M_BASE + sm.slot as usize / 4 };
    let class = mf.vregs[orig].class;
    if sm.store {
        let data = mi
            .uses
            .iter()
            .find(|u| mf.vregs[u.reg.vreg.0 as usize].class == class)
            .ok_or("spill store without data")?;
        let t = data.reg.vreg.0 as usize;
        for d in 0..sm.dwords {
            let c = st[cell_index(class, a.reg[t].wrapping_add(data.reg.off + d))];
            st[slot + d as usize] = match c {
                Cell::Val(x, y) if x as usize == t => Cell::Val(orig as u32, sm.off + y),
                other => other,
            };
        }
        if sm.off == 0 && sm.dwords == mf.vregs[orig].size {
            def[orig] = true;
        }
        return Ok(());
    }
    if !def[orig] {
        return Ok(());
    }
    for d in 0..sm.dwords {
        let c = st[slot + d as usize];
        if !matches!(c, Cell::Val(x, y) if x as usize == orig && y == sm.off + d)
            && c != Cell::Undef
        {
            return Err(format!("reload of v{orig}.{} finds {c:?}", sm.off + d));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ferrum_isa::Opcode;

    use super::*;
    use crate::amd::isel_build::{vop1, vop2, Src};
    use crate::amd::mir::{MBlock, RegClass, RegRef, Slot, VReg};
    use crate::amd::regalloc::allocate;

    /// v0 = 1; v1 = 2; v2 = v0 + v1 (three virtual registers, two live at once).
    fn program() -> MFunc {
        let mut mf = MFunc::default();
        let (x, y, z) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
        let insts = vec![
            vop1(Opcode::V_MOV_B32, x, Src::I(1)),
            vop1(Opcode::V_MOV_B32, y, Src::I(2)),
            vop2(Opcode::V_ADD_NC_U32, z, Src::R(x, RegClass::V), Src::R(y, RegClass::V)),
        ];
        mf.blocks.push(MBlock { insts });
        mf
    }

    #[test]
    fn the_allocators_answer_passes() {
        let mf = program();
        let a = allocate(&mf).unwrap();
        assert_ne!(a.reg[0], a.reg[1], "x and y are live together");
        check(&mf, &a).unwrap();
    }

    #[test]
    fn a_clobbered_value_is_caught() {
        let mf = program();
        let mut a = allocate(&mf).unwrap();
        a.reg[1] = a.reg[0];
        let e = check(&mf, &a).unwrap_err();
        assert!(matches!(e, BackendError::RegallocCheck(_)), "{e}");
    }

    #[test]
    fn values_are_followed_through_spill_slots() {
        let mut mf = program();
        crate::amd::spill::spill(&mut mf, crate::amd::mir::VReg(0));
        crate::amd::spill::spill(&mut mf, crate::amd::mir::VReg(1));
        let a = allocate(&mf).unwrap();
        check(&mf, &a).unwrap();
        // A reload of x that reads y's slot is caught.
        let reload_x = mf.blocks[0]
            .insts
            .iter_mut()
            .find(|mi| mi.spill.is_some_and(|s| !s.store && s.orig.0 == 0))
            .unwrap();
        reload_x.spill.as_mut().unwrap().slot = 4;
        let e = check(&mf, &a).unwrap_err();
        assert!(matches!(e, BackendError::RegallocCheck(_)), "{e}");
    }

    /// x = 1; x = (x with some lanes rewritten); z = x + x. The middle instruction reads and
    /// writes x through its destination field, as DPP moves with kept lanes and v_writelane do.
    fn partial_write() -> MFunc {
        let mut mf = MFunc::default();
        let (x, z) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
        let mut keep = vop1(Opcode::V_MOV_B32, x, Src::I(7));
        keep.uses.push(RegOp { slot: Slot::Vdst, reg: x, dwords: 1 });
        let insts = vec![
            vop1(Opcode::V_MOV_B32, x, Src::I(1)),
            keep,
            vop2(Opcode::V_ADD_NC_U32, z, Src::R(x, RegClass::V), Src::R(x, RegClass::V)),
        ];
        mf.blocks.push(MBlock { insts });
        mf
    }

    #[test]
    fn a_spilled_partial_write_keeps_one_register() {
        let mut mf = partial_write();
        crate::amd::spill::spill(&mut mf, VReg(0));
        let a = allocate(&mf).unwrap();
        check(&mf, &a).unwrap();
    }

    #[test]
    fn a_read_and_write_of_one_field_in_two_registers_is_caught() {
        let mut mf = partial_write();
        // Give the kept lanes' read its own register: the encoded field can name only one.
        let y = mf.vreg(RegClass::V, 1);
        let insts = &mut mf.blocks[0].insts;
        insts.insert(1, vop1(Opcode::V_MOV_B32, y, Src::R(RegRef::new(VReg(0)), RegClass::V)));
        insts[2].uses[0].reg = y;
        let a = allocate(&mf).unwrap();
        let e = check(&mf, &a).unwrap_err();
        assert!(e.to_string().contains("through one field"), "{e}");
    }

    #[test]
    fn a_spill_move_whose_encoded_offset_differs_from_its_slot_is_caught() {
        let mut mf = program();
        crate::amd::spill::spill(&mut mf, VReg(0));
        // y's slot is beyond an immediate offset: addressed through an SGPR.
        mf.scratch_bytes = crate::amd::isel::scratch::MAX_IMM_OFFSET + 1;
        crate::amd::spill::spill(&mut mf, VReg(1));
        let a = allocate(&mf).unwrap();
        check(&mf, &a).unwrap();
        let by_sgpr = |mi: &MInst| mi.uses.iter().any(|u| u.slot == Slot::Saddr);
        assert!(mf.blocks[0].insts.iter().any(|mi| mi.spill.is_some() && by_sgpr(mi)));
        let store = mf.blocks[0].insts.iter_mut().find(|mi| mi.spill.is_some()).unwrap();
        if let Inst::Flat(f) = &mut store.inst {
            f.offset += 4;
        }
        let e = check(&mf, &a).unwrap_err();
        assert!(e.to_string().contains("addresses"), "{e}");
    }

    #[test]
    fn scalar_values_are_followed_through_vgpr_lanes() {
        use crate::amd::isel_build::sop2;
        let mut mf = MFunc::default();
        let (x, y, z) = (mf.vreg(RegClass::S, 1), mf.vreg(RegClass::S, 1), mf.vreg(RegClass::S, 1));
        let insts = vec![
            crate::amd::isel_build::sop1(Opcode::S_MOV_B32, x, Src::I(1), 1),
            crate::amd::isel_build::sop1(Opcode::S_MOV_B32, y, Src::I(2), 1),
            sop2(Opcode::S_ADD_U32, Some(z), Src::R(x, RegClass::S), Src::R(y, RegClass::S), 1),
        ];
        mf.blocks.push(MBlock { insts });
        crate::amd::spill::spill_sgpr(&mut mf, crate::amd::mir::VReg(0));
        crate::amd::spill::spill_sgpr(&mut mf, crate::amd::mir::VReg(1));
        let a = allocate(&mf).unwrap();
        check(&mf, &a).unwrap();
        let reload_y = mf.blocks[0]
            .insts
            .iter_mut()
            .find(|mi| mi.spill.is_some_and(|s| !s.store && s.orig.0 == 1))
            .unwrap();
        reload_y.spill.as_mut().unwrap().slot = 0;
        let e = check(&mf, &a).unwrap_err();
        assert!(matches!(e, BackendError::RegallocCheck(_)), "{e}");
    }
}
