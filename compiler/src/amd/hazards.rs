//! RDNA2 (gfx10.3) hazards that need wait states the hardware does not insert itself.
//!
//! gfx10.3 fixed the gfx10.1 bugs that LLVM and ACO work around (VMEM-to-scalar-write,
//! SMEM-to-vector-write, v_cmpx/permlane, LDS-branch-VMEM and the others are features of
//! gfx1010 only in LLVM's subtarget table). What remains are the documented "manually
//! inserted wait states" of the ISA guide; the ones reachable from code this backend emits are
//! listed in [`RULES`], each as (writer, reader, wait states).

use ferrum_isa::{Inst, Opcode};

use super::isel_build::sopp;
use super::mir::MFunc;

/// Who writes, who reads, how many wait states must separate them.
struct Rule {
    writer: fn(&Inst) -> bool,
    reader: fn(&Inst) -> bool,
    states: usize,
    why: &'static str,
}

fn valu_writes_sgpr(i: &Inst) -> bool {
    match i {
        Inst::Vop3(v) => {
            v.sdst.is_scalar_reg()
                && v.sdst != ferrum_isa::Operand::Special(ferrum_isa::Special::Null)
                || v.vdst.is_scalar_reg()
        }
        Inst::Vop1(v) => v.vdst.is_scalar_reg(),
        Inst::Vopc(_) => true,
        _ => false,
    }
}

fn lane_select(i: &Inst) -> bool {
    matches!(i.op(), Opcode::V_READLANE_B32 | Opcode::V_WRITELANE_B32)
}

fn div_fmas(i: &Inst) -> bool {
    matches!(i.op(), Opcode::V_DIV_FMAS_F32 | Opcode::V_DIV_FMAS_F64)
}

const RULES: &[Rule] = &[
    Rule {
        writer: valu_writes_sgpr,
        reader: lane_select,
        states: 4,
        why: "VALU writes an SGPR that v_readlane/v_writelane uses as lane select",
    },
    Rule {
        writer: valu_writes_sgpr,
        reader: div_fmas,
        states: 4,
        why: "VALU writes VCC that v_div_fmas reads",
    },
];

/// Inserts `s_nop`s where a rule's reader follows its writer too closely. Blocks are treated
/// as if anything could precede them (the wait is inserted when the reader is within the
/// distance of a block start).
pub fn fix_hazards(mf: &mut MFunc) {
    for blk in &mut mf.blocks {
        let insts = std::mem::take(&mut blk.insts);
        let mut out: Vec<super::mir::MInst> = Vec::with_capacity(insts.len());
        for mi in insts {
            for rule in RULES {
                if !(rule.reader)(&mi.inst) {
                    continue;
                }
                let recent: Vec<&Inst> =
                    out.iter().rev().take(rule.states).map(|m| &m.inst).collect();
                let dist = recent.iter().position(|i| (rule.writer)(i));
                let need = match dist {
                    Some(d) => rule.states - d,
                    None if recent.len() < rule.states => rule.states - recent.len(),
                    None => 0,
                };
                if need > 0 {
                    log::trace!("hazard: {}", rule.why);
                    out.push(sopp(Opcode::S_NOP, (need - 1) as u16));
                }
            }
            out.push(mi);
        }
        blk.insts = out;
    }
}
