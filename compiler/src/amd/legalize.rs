//! Operand legalization: after selection, every instruction's sources fit its encoding.
//!
//! Selection picks operands for what they mean (a constant stays a constant, a uniform value
//! stays in its SGPR); the encodings restrict where those may go. This pass enforces, from
//! the `isa` crate's operand tables, for every SALU and VALU instruction:
//! - a source field gets only the operand classes the form accepts (literals, SGPRs);
//! - at most one distinct 32-bit literal per instruction (SOP2/SOPC and gfx10's VOP3 alike);
//! - the VALU constant-bus limit: at most two distinct scalar values (SGPRs, special
//!   registers, the literal, an implicit VCC read) per instruction on gfx10, one for the
//!   64-bit shifts.
//!
//! Offending sources move into registers just before the instruction: `s_mov` into a fresh
//! SGPR for scalar instructions; for vector ones a surplus literal goes into an SGPR by
//! `s_mov` when the constant bus has room for it (a gfx10 VOP3 may read one literal and one
//! SGPR), else into a VGPR by `v_mov_b32` (neither touches SCC, VCC or EXEC, so they can sit
//! between a compare and its user). Sources are kept in field order, so the first literal and
//! the first scalar values stay in place, except that a literal already copied earlier in the
//! block gives its place to one that is not. Copies of literals are reused for the rest of
//! their block: an SGPR copy holds for every lane, a VGPR copy only until EXEC changes.
//! Afterwards the encoder never refuses an instruction for its operands.

use std::collections::HashMap;

use ferrum_isa::tables::{accept, Enc, Field};
use ferrum_isa::{Inst, Opcode, Operand, Special};

use super::isel_build::{self as build, Src};
use super::liveness::writes_exec;
use super::mir::{patch, MFunc, MInst, RegClass, RegOp, RegRef, Slot};

/// Constant-bus reads a gfx10 VALU instruction may make.
fn bus_limit(op: Opcode) -> usize {
    match op {
        Opcode::V_LSHLREV_B64 | Opcode::V_LSHRREV_B64 | Opcode::V_ASHRREV_I64 => 1,
        _ => 2,
    }
}

fn slot_of(f: Field) -> Option<Slot> {
    Some(match f {
        Field::Ssrc0 => Slot::Ssrc0,
        Field::Ssrc1 => Slot::Ssrc1,
        Field::Src0 => Slot::Src0,
        Field::Src1 => Slot::Src1,
        Field::Src2 => Slot::Src2,
        _ => return None,
    })
}

/// A scalar value as the constant bus sees it: a register dword range, a special register or
/// a literal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scalar {
    Reg(RegRef),
    Fixed(Operand),
    Literal(u32),
}

/// One source field of an instruction.
struct Source {
    slot: Slot,
    dwords: u8,
    accept: u8,
    scalar: Option<Scalar>,
}

fn is_valu(inst: &Inst) -> bool {
    matches!(inst.enc(), Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Vop3p)
}

fn is_salu(inst: &Inst) -> bool {
    matches!(inst.enc(), Enc::Sop1 | Enc::Sop2 | Enc::Sopc)
}

/// The sources of `mi` that legalization may rewrite.
fn sources(mf: &MFunc, mi: &MInst) -> Vec<Source> {
    let Some(form) = mi.inst.form() else { return Vec::new() };
    let mut out = Vec::new();
    for (field, op) in mi.inst.sources() {
        let (Some(slot), Some(od)) = (slot_of(field), form.operand(field)) else { continue };
        let used = mi.uses.iter().find(|u| u.slot == slot);
        let scalar = match (op, used) {
            (Operand::Literal(v), _) => Some(Scalar::Literal(v)),
            (Operand::Sgpr(_), Some(u)) if mf.info(u.reg.vreg).class == RegClass::S => {
                Some(Scalar::Reg(u.reg))
            }
            (Operand::Vgpr(_), _) | (Operand::Int(_) | Operand::Float(_), _) => None,
            (Operand::Special(Special::Null), _) => None,
            (other @ Operand::Special(_), None) => Some(Scalar::Fixed(other)),
            _ => None,
        };
        out.push(Source { slot, dwords: mi.inst.dwords(field).max(1), accept: od.accept, scalar });
    }
    out
}

/// Where a source that cannot stay in its field goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dest {
    Sgpr,
    Vgpr,
}

/// Copies of literals made earlier in the current block.
#[derive(Default)]
struct LiteralCopies {
    /// SGPR copies: the same in every lane, so good for the rest of the block.
    sgpr: HashMap<u32, RegRef>,
    /// VGPR copies: written in the lanes of EXEC at the time, so good until EXEC changes.
    vgpr: HashMap<u32, RegRef>,
}

/// The literal a vector instruction keeps in its literal field when it has several: the
/// first one without an SGPR copy in this block (the others then read their copies at no
/// cost), or simply the first.
fn kept_literal(srcs: &[Source], copies: &LiteralCopies) -> Option<u32> {
    let lits: Vec<u32> = srcs
        .iter()
        .filter_map(|s| match s.scalar {
            Some(Scalar::Literal(v)) => Some(v),
            _ => None,
        })
        .collect();
    let distinct = lits.iter().any(|&v| v != lits[0]);
    if !distinct {
        return lits.first().copied();
    }
    lits.iter().copied().find(|v| !copies.sgpr.contains_key(v)).or(lits.first().copied())
}

/// Which sources of `mi` must move into registers (indices into `srcs`) and where.
fn to_move(mi: &MInst, srcs: &[Source], copies: &LiteralCopies) -> Vec<(usize, Dest)> {
    let valu = is_valu(&mi.inst);
    let mut moved = Vec::new();
    let keep = if valu { kept_literal(srcs, copies) } else { None };
    let mut literal: Option<u32> = None;
    // Bus entries: scalar values read, and literals read through an SGPR copy.
    let mut bus: Vec<(Scalar, bool)> = Vec::new();
    let limit = bus_limit(mi.inst.op());
    // VOP2 forms that read VCC (v_cndmask_b32_e32, v_addc) take a slot for it.
    let implicit_vcc = valu && mi.inst.enc() == Enc::Vop2 && mi.inst.reads_vcc();
    let mut used = usize::from(implicit_vcc);
    // Vector-op literals that cannot stay, placed once every other source has its slot.
    let mut surplus = Vec::new();
    for (i, s) in srcs.iter().enumerate() {
        let Some(sc) = s.scalar else { continue };
        let bad_class = match sc {
            Scalar::Literal(_) => s.accept != 0 && s.accept & accept::LITERAL == 0,
            _ => s.accept != 0 && s.accept & accept::SGPR == 0,
        };
        let other_literal = matches!(sc, Scalar::Literal(v) if keep.is_some_and(|k| k != v));
        if valu && matches!(sc, Scalar::Literal(_)) && (bad_class || other_literal) {
            surplus.push(i);
            continue;
        }
        let second_literal = matches!(sc, Scalar::Literal(v) if literal.is_some_and(|l| l != v));
        let over_bus = valu && !bus.contains(&(sc, false)) && used >= limit;
        if bad_class || second_literal || over_bus {
            moved.push((i, if valu { Dest::Vgpr } else { Dest::Sgpr }));
            continue;
        }
        if let Scalar::Literal(v) = sc {
            literal = Some(v);
        }
        if !bus.contains(&(sc, false)) {
            bus.push((sc, false));
            used += 1;
        }
    }
    // Through an SGPR copy while the bus has room and the field takes SGPRs, else a VGPR.
    for i in surplus {
        let s = &srcs[i];
        let entry = (s.scalar.expect("a literal"), true);
        let takes_sgpr = s.accept == 0 || s.accept & accept::SGPR != 0;
        if takes_sgpr && (bus.contains(&entry) || used < limit) {
            if !bus.contains(&entry) {
                bus.push(entry);
                used += 1;
            }
            moved.push((i, Dest::Sgpr));
        } else {
            moved.push((i, Dest::Vgpr));
        }
    }
    moved
}

/// Instructions whose sources have meaning beyond their value (lane selects and lane
/// writes read SGPRs by design and have their own limits).
fn exempt(op: Opcode) -> bool {
    matches!(op, Opcode::V_READLANE_B32 | Opcode::V_WRITELANE_B32 | Opcode::V_READFIRSTLANE_B32)
}

/// Rewrites the sources of `mi` listed in `idx` to registers (copies of literals made
/// earlier in the block where there are some); returns the moves to put before it, or `None`
/// when a source cannot be moved (a 64-bit literal of a vector op).
fn rewrite(
    mf: &mut MFunc,
    mi: &mut MInst,
    srcs: &[Source],
    idx: &[(usize, Dest)],
    copies: &mut LiteralCopies,
) -> Option<Vec<MInst>> {
    let mut moves = Vec::new();
    // New copies are remembered only once the whole instruction could be rewritten.
    let mut made = Vec::new();
    for &(i, dest) in idx {
        let s = &srcs[i];
        let sc = s.scalar.expect("only scalar sources move");
        let class = if dest == Dest::Vgpr { RegClass::V } else { RegClass::S };
        let cache = match (sc, s.dwords) {
            (Scalar::Literal(v), 1) => Some(v),
            _ => None,
        };
        let known = cache.and_then(|v| {
            let earlier = match dest {
                Dest::Sgpr => copies.sgpr.get(&v),
                Dest::Vgpr => copies.vgpr.get(&v),
            };
            let here = made.iter().find(|&&(d, w, _)| d == dest && w == v).map(|(_, _, t)| t);
            earlier.or(here).copied()
        });
        let t = match known {
            Some(t) => t,
            None => {
                let t = mf.vreg(class, s.dwords);
                moves.extend(copy_into(t, class, s.dwords, sc)?);
                if let Some(v) = cache {
                    made.push((dest, v, t));
                }
                t
            }
        };
        mi.uses.retain(|u| u.slot != s.slot);
        mi.uses.push(RegOp { slot: s.slot, reg: t, dwords: s.dwords });
        let placeholder = if class == RegClass::V { Operand::Vgpr(0) } else { Operand::Sgpr(0) };
        patch(&mut mi.inst, s.slot, placeholder);
    }
    for (dest, v, t) in made {
        let map = if dest == Dest::Sgpr { &mut copies.sgpr } else { &mut copies.vgpr };
        map.insert(v, t);
    }
    Some(moves)
}

/// The moves that copy scalar `sc` (`dw` dwords) into register `t` of `class`.
fn copy_into(t: RegRef, class: RegClass, dw: u8, sc: Scalar) -> Option<Vec<MInst>> {
    let src_dw = |k: u8| match sc {
        Scalar::Reg(r) => Some(Src::R(r.at(k), RegClass::S)),
        Scalar::Fixed(op) if k == 0 => Some(Src::Fixed(op)),
        Scalar::Literal(v) if k == 0 => Some(Src::I(v)),
        _ => None,
    };
    let mut moves = Vec::new();
    match (class, dw, sc) {
        (RegClass::S, 2, Scalar::Literal(v)) => {
            moves.push(build::sop1(Opcode::S_MOV_B64, t, Src::I(v), 2));
        }
        (RegClass::S, dw, _) => {
            for k in 0..dw {
                moves.push(build::sop1(Opcode::S_MOV_B32, t.at(k), src_dw(k)?, 1));
            }
        }
        (RegClass::V, dw, _) => {
            for k in 0..dw {
                moves.push(build::vop1(Opcode::V_MOV_B32, t.at(k), src_dw(k)?));
            }
        }
    }
    Some(moves)
}

/// Legalizes the sources of every scalar and vector ALU instruction of `mf` (see the module
/// documentation); afterwards each one's operands are encodable as they stand.
pub fn legalize_operands(mf: &mut MFunc) {
    for b in 0..mf.blocks.len() {
        let insts = std::mem::take(&mut mf.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        let mut copies = LiteralCopies::default();
        for mut mi in insts {
            if (is_valu(&mi.inst) || is_salu(&mi.inst)) && !exempt(mi.inst.op()) {
                let srcs = sources(mf, &mi);
                let idx = to_move(&mi, &srcs, &copies);
                if !idx.is_empty() {
                    let before = mi.clone();
                    match rewrite(mf, &mut mi, &srcs, &idx, &mut copies) {
                        Some(moves) => out.extend(moves),
                        None => mi = before,
                    }
                }
            }
            if writes_exec(&mi) {
                copies.vgpr.clear();
            }
            out.push(mi);
        }
        mf.blocks[b].insts = out;
    }
}
