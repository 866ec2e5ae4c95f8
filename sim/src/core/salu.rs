//! Scalar ALU and program control: SOP1, SOP2, SOPK, SOPC, SOPP.
//!
//! SCC rules follow the RDNA2 ISA guide, with ACO's documented errata (e.g. `s_bfe_*` writes
//! SCC). Branch targets are `pc + 4 + simm16 * 4`.

use ferrum_isa::imm::Waitcnt;
use ferrum_isa::{Opcode as O, Sop1, Sop2, Sopc, Sopk, Sopp};

use super::wave::{fault, Wave, R};

/// What the instruction did to control flow.
pub enum Flow {
    Next,
    Jump(u64),
    End,
    Barrier,
}

fn sext16(v: u16) -> u32 {
    v as i16 as i32 as u32
}

pub fn sop2(w: &mut Wave, i: &Sop2, form: &ferrum_isa::tables::Form) -> R<()> {
    let wide = form.dwords(ferrum_isa::tables::Field::Sdst) == 2;
    if wide {
        return sop2_64(w, i);
    }
    let a = w.ssrc(i.ssrc0)?;
    let b = w.ssrc(i.ssrc1)?;
    let scc = w.scc;
    let (d, new_scc): (u32, Option<bool>) = match i.op {
        O::S_ADD_U32 => {
            let (r, c) = a.overflowing_add(b);
            (r, Some(c))
        }
        O::S_SUB_U32 => {
            let (r, c) = a.overflowing_sub(b);
            (r, Some(c))
        }
        O::S_ADD_I32 => {
            let (r, o) = (a as i32).overflowing_add(b as i32);
            (r as u32, Some(o))
        }
        O::S_SUB_I32 => {
            let (r, o) = (a as i32).overflowing_sub(b as i32);
            (r as u32, Some(o))
        }
        O::S_ADDC_U32 => {
            let r = a as u64 + b as u64 + scc as u64;
            (r as u32, Some(r >> 32 != 0))
        }
        O::S_SUBB_U32 => {
            let r = (a as u64).wrapping_sub(b as u64).wrapping_sub(scc as u64);
            (r as u32, Some((b as u64 + scc as u64) > a as u64))
        }
        O::S_MIN_I32 => ((a as i32).min(b as i32) as u32, Some((a as i32) < (b as i32))),
        O::S_MIN_U32 => (a.min(b), Some(a < b)),
        O::S_MAX_I32 => ((a as i32).max(b as i32) as u32, Some((a as i32) > (b as i32))),
        O::S_MAX_U32 => (a.max(b), Some(a > b)),
        O::S_CSELECT_B32 => (if scc { a } else { b }, None),
        O::S_AND_B32 => nz(a & b),
        O::S_OR_B32 => nz(a | b),
        O::S_XOR_B32 => nz(a ^ b),
        O::S_ANDN2_B32 => nz(a & !b),
        O::S_ORN2_B32 => nz(a | !b),
        O::S_NAND_B32 => nz(!(a & b)),
        O::S_NOR_B32 => nz(!(a | b)),
        O::S_XNOR_B32 => nz(!(a ^ b)),
        O::S_LSHL_B32 => nz(a << (b & 31)),
        O::S_LSHR_B32 => nz(a >> (b & 31)),
        O::S_ASHR_I32 => nz(((a as i32) >> (b & 31)) as u32),
        O::S_BFM_B32 => ((((1u64 << (a & 31)) - 1) as u32).wrapping_shl(b & 31), None),
        O::S_MUL_I32 => ((a as i32).wrapping_mul(b as i32) as u32, None),
        O::S_MUL_HI_U32 => (((a as u64 * b as u64) >> 32) as u32, None),
        O::S_MUL_HI_I32 => (((a as i32 as i64 * b as i32 as i64) >> 32) as u32, None),
        O::S_BFE_U32 => nz(bfe(a, b & 31, (b >> 16) & 0x7f)),
        O::S_BFE_I32 => nz(bfe_signed(a, b & 31, (b >> 16) & 0x7f)),
        O::S_ABSDIFF_I32 => nz((a as i32).wrapping_sub(b as i32).unsigned_abs()),
        O::S_LSHL1_ADD_U32 | O::S_LSHL2_ADD_U32 | O::S_LSHL3_ADD_U32 | O::S_LSHL4_ADD_U32 => {
            let n = match i.op {
                O::S_LSHL1_ADD_U32 => 1,
                O::S_LSHL2_ADD_U32 => 2,
                O::S_LSHL3_ADD_U32 => 3,
                _ => 4,
            };
            let r = ((a as u64) << n) + b as u64;
            (r as u32, Some(r >> 32 != 0))
        }
        O::S_PACK_LL_B32_B16 => ((a & 0xffff) | (b << 16), None),
        O::S_PACK_LH_B32_B16 => ((a & 0xffff) | (b & 0xffff_0000), None),
        O::S_PACK_HH_B32_B16 => ((a >> 16) | (b & 0xffff_0000), None),
        op => return fault(format!("unimplemented SOP2 {}", op.name())),
    };
    if let Some(s) = new_scc {
        w.scc = s;
    }
    w.swrite(Wave::sindex(i.sdst)?, d)
}

fn nz(v: u32) -> (u32, Option<bool>) {
    (v, Some(v != 0))
}

fn bfe(v: u32, offset: u32, width: u32) -> u32 {
    if width == 0 {
        return 0;
    }
    let v = v >> offset;
    if width >= 32 {
        v
    } else {
        v & ((1 << width) - 1)
    }
}

fn bfe_signed(v: u32, offset: u32, width: u32) -> u32 {
    if width == 0 {
        return 0;
    }
    let x = bfe(v, offset, width);
    if width >= 32 {
        return x;
    }
    let shift = 32 - width;
    (((x << shift) as i32) >> shift) as u32
}

fn sop2_64(w: &mut Wave, i: &Sop2) -> R<()> {
    let shift_amount =
        matches!(i.op, O::S_LSHL_B64 | O::S_LSHR_B64 | O::S_ASHR_I64 | O::S_BFE_U64 | O::S_BFE_I64);
    let a = w.ssrc64(i.ssrc0)?;
    let b = if shift_amount { w.ssrc(i.ssrc1)? as u64 } else { w.ssrc64(i.ssrc1)? };
    let nz64 = |v: u64| (v, Some(v != 0));
    let (d, scc): (u64, Option<bool>) = match i.op {
        O::S_CSELECT_B64 => (if w.scc { a } else { b }, None),
        O::S_AND_B64 => nz64(a & b),
        O::S_OR_B64 => nz64(a | b),
        O::S_XOR_B64 => nz64(a ^ b),
        O::S_ANDN2_B64 => nz64(a & !b),
        O::S_ORN2_B64 => nz64(a | !b),
        O::S_NAND_B64 => nz64(!(a & b)),
        O::S_NOR_B64 => nz64(!(a | b)),
        O::S_XNOR_B64 => nz64(!(a ^ b)),
        O::S_LSHL_B64 => nz64(a << (b & 63)),
        O::S_LSHR_B64 => nz64(a >> (b & 63)),
        O::S_ASHR_I64 => nz64(((a as i64) >> (b & 63)) as u64),
        O::S_BFM_B64 => {
            let a = w.ssrc(i.ssrc0)? as u64;
            ((((1u128 << (a & 63)) - 1) as u64).wrapping_shl((b & 63) as u32), None)
        }
        O::S_BFE_U64 | O::S_BFE_I64 => {
            let (off, width) = ((b & 63) as u32, ((b >> 16) & 0x7f) as u32);
            let x = if width == 0 {
                0
            } else if width >= 64 {
                a >> off
            } else {
                (a >> off) & ((1 << width) - 1)
            };
            let x = if i.op == O::S_BFE_I64 && width > 0 && width < 64 {
                let s = 64 - width;
                (((x << s) as i64) >> s) as u64
            } else {
                x
            };
            nz64(x)
        }
        op => return fault(format!("unimplemented SOP2 {}", op.name())),
    };
    if let Some(s) = scc {
        w.scc = s;
    }
    w.swrite64(Wave::sindex(i.sdst)?, d)
}

pub fn sopk(w: &mut Wave, i: &Sopk) -> R<Flow> {
    let imm = i.simm16;
    match i.op {
        O::S_MOVK_I32 => w.swrite(Wave::sindex(i.sdst)?, sext16(imm))?,
        O::S_CMOVK_I32 => {
            if w.scc {
                w.swrite(Wave::sindex(i.sdst)?, sext16(imm))?;
            }
        }
        O::S_ADDK_I32 => {
            let d = Wave::sindex(i.sdst)?;
            let (r, o) = (w.sread(d)? as i32).overflowing_add(imm as i16 as i32);
            w.scc = o;
            w.swrite(d, r as u32)?;
        }
        O::S_MULK_I32 => {
            let d = Wave::sindex(i.sdst)?;
            let r = (w.sread(d)? as i32).wrapping_mul(imm as i16 as i32);
            w.swrite(d, r as u32)?;
        }
        O::S_CMPK_EQ_I32
        | O::S_CMPK_LG_I32
        | O::S_CMPK_GT_I32
        | O::S_CMPK_GE_I32
        | O::S_CMPK_LT_I32
        | O::S_CMPK_LE_I32 => {
            let a = w.ssrc(i.sdst)? as i32;
            let b = imm as i16 as i32;
            w.scc = match i.op {
                O::S_CMPK_EQ_I32 => a == b,
                O::S_CMPK_LG_I32 => a != b,
                O::S_CMPK_GT_I32 => a > b,
                O::S_CMPK_GE_I32 => a >= b,
                O::S_CMPK_LT_I32 => a < b,
                _ => a <= b,
            };
        }
        O::S_CMPK_EQ_U32
        | O::S_CMPK_LG_U32
        | O::S_CMPK_GT_U32
        | O::S_CMPK_GE_U32
        | O::S_CMPK_LT_U32
        | O::S_CMPK_LE_U32 => {
            let a = w.ssrc(i.sdst)?;
            let b = imm as u32;
            w.scc = match i.op {
                O::S_CMPK_EQ_U32 => a == b,
                O::S_CMPK_LG_U32 => a != b,
                O::S_CMPK_GT_U32 => a > b,
                O::S_CMPK_GE_U32 => a >= b,
                O::S_CMPK_LT_U32 => a < b,
                _ => a <= b,
            };
        }
        O::S_GETREG_B32 => {
            let (id, offset, mask) = hwreg_fields(imm);
            let value = hwreg_read(w, id)?;
            w.swrite(Wave::sindex(i.sdst)?, (value >> offset) & mask)?;
        }
        O::S_SETREG_B32 | O::S_SETREG_IMM32_B32 => {
            let value = if i.op == O::S_SETREG_B32 { w.ssrc(i.sdst)? } else { i.imm32 };
            let (id, offset, mask) = hwreg_fields(imm);
            let old = hwreg_read(w, id)?;
            let new = (old & !(mask << offset)) | ((value & mask) << offset);
            hwreg_write(w, id, new)?;
        }
        O::S_WAITCNT_VSCNT | O::S_WAITCNT_EXPCNT => {}
        O::S_WAITCNT_VMCNT => w.wait(Some((imm & 0x3f) as u32), None),
        O::S_WAITCNT_LGKMCNT => w.wait(None, Some((imm & 0x3f) as u32)),
        O::S_CALL_B64 => {
            let ret = w.pc + 4;
            w.swrite64(Wave::sindex(i.sdst)?, ret)?;
            return Ok(Flow::Jump(ret.wrapping_add(sext16(imm) as i32 as i64 as u64 * 4)));
        }
        op => return fault(format!("unimplemented SOPK {}", op.name())),
    }
    Ok(Flow::Next)
}

/// hwreg(id, offset, size) operand: id [5:0], offset [10:6], size - 1 [15:11].
fn hwreg_fields(imm: u16) -> (u16, u32, u32) {
    let id = imm & 0x3f;
    let offset = (imm >> 6 & 0x1f) as u32;
    let size = (imm >> 11 & 0x1f) as u32 + 1;
    let mask = if size >= 32 { u32::MAX } else { (1 << size) - 1 };
    (id, offset, mask)
}

const HW_REG_MODE: u16 = 1;
const HW_REG_SH_MEM_BASES: u16 = 15;
const HW_REG_FLAT_SCR_LO: u16 = 20;
const HW_REG_FLAT_SCR_HI: u16 = 21;

fn hwreg_read(w: &Wave, id: u16) -> R<u32> {
    match id {
        HW_REG_MODE => Ok(w.mode),
        HW_REG_SH_MEM_BASES => Ok(super::address::sh_mem_bases()),
        HW_REG_FLAT_SCR_LO => Ok(w.flat_scratch as u32),
        HW_REG_FLAT_SCR_HI => Ok((w.flat_scratch >> 32) as u32),
        _ => fault(format!("hardware register {id} is not modelled")),
    }
}

fn hwreg_write(w: &mut Wave, id: u16, value: u32) -> R<()> {
    match id {
        // FP_ROUND[1:0] (f32) is modelled; FP_ROUND[3:2] (f16/f64) only as nearest-even.
        HW_REG_MODE if value & 0xc != 0 => {
            fault("MODE.FP_ROUND for f16/f64 other than nearest-even")
        }
        HW_REG_MODE => {
            w.mode = value;
            Ok(())
        }
        HW_REG_FLAT_SCR_LO => {
            w.flat_scratch = (w.flat_scratch & !0xffff_ffff) | value as u64;
            Ok(())
        }
        HW_REG_FLAT_SCR_HI => {
            w.flat_scratch = (w.flat_scratch & 0xffff_ffff) | (value as u64) << 32;
            Ok(())
        }
        _ => fault(format!("writing hardware register {id} is not modelled")),
    }
}

pub fn sop1(w: &mut Wave, i: &Sop1, next_pc: u64) -> R<Flow> {
    let d = || Wave::sindex(i.sdst);
    match i.op {
        O::S_MOV_B32 => {
            let v = w.ssrc(i.ssrc0)?;
            w.swrite(d()?, v)?;
        }
        O::S_MOV_B64 => {
            let v = w.ssrc64(i.ssrc0)?;
            w.swrite64(d()?, v)?;
        }
        O::S_CMOV_B32 => {
            let v = w.ssrc(i.ssrc0)?;
            if w.scc {
                w.swrite(d()?, v)?;
            }
        }
        O::S_CMOV_B64 => {
            let v = w.ssrc64(i.ssrc0)?;
            if w.scc {
                w.swrite64(d()?, v)?;
            }
        }
        O::S_NOT_B32 => {
            let v = !w.ssrc(i.ssrc0)?;
            w.scc = v != 0;
            w.swrite(d()?, v)?;
        }
        O::S_NOT_B64 => {
            let v = !w.ssrc64(i.ssrc0)?;
            w.scc = v != 0;
            w.swrite64(d()?, v)?;
        }
        O::S_WQM_B32 | O::S_WQM_B64 => {
            // Whole-quad mode: each result quad (4 bits) is all ones if any of its source bits is.
            let a =
                if i.op == O::S_WQM_B32 { u64::from(w.ssrc(i.ssrc0)?) } else { w.ssrc64(i.ssrc0)? };
            let quad = |q: u32| if a >> (4 * q) & 0xf != 0 { 0xf << (4 * q) } else { 0 };
            let v = (0..16).fold(0u64, |m, q| m | quad(q));
            w.scc = v != 0;
            if i.op == O::S_WQM_B32 {
                w.swrite(d()?, v as u32)?;
            } else {
                w.swrite64(d()?, v)?;
            }
        }
        O::S_BREV_B32 => {
            let v = w.ssrc(i.ssrc0)?.reverse_bits();
            w.swrite(d()?, v)?;
        }
        O::S_BCNT1_I32_B32 | O::S_BCNT0_I32_B32 => {
            let a = w.ssrc(i.ssrc0)?;
            let v = if i.op == O::S_BCNT1_I32_B32 { a.count_ones() } else { a.count_zeros() };
            w.scc = v != 0;
            w.swrite(d()?, v)?;
        }
        O::S_BCNT1_I32_B64 => {
            let v = w.ssrc64(i.ssrc0)?.count_ones();
            w.scc = v != 0;
            w.swrite(d()?, v)?;
        }
        O::S_FF1_I32_B32 => {
            let a = w.ssrc(i.ssrc0)?;
            let v = if a == 0 { u32::MAX } else { a.trailing_zeros() };
            w.swrite(d()?, v)?;
        }
        O::S_FF1_I32_B64 => {
            let a = w.ssrc64(i.ssrc0)?;
            let v = if a == 0 { u32::MAX } else { a.trailing_zeros() };
            w.swrite(d()?, v)?;
        }
        O::S_FLBIT_I32_B32 => {
            let a = w.ssrc(i.ssrc0)?;
            let v = if a == 0 { u32::MAX } else { a.leading_zeros() };
            w.swrite(d()?, v)?;
        }
        O::S_SEXT_I32_I8 => {
            let v = w.ssrc(i.ssrc0)? as i8 as i32 as u32;
            w.swrite(d()?, v)?;
        }
        O::S_SEXT_I32_I16 => {
            let v = w.ssrc(i.ssrc0)? as i16 as i32 as u32;
            w.swrite(d()?, v)?;
        }
        O::S_ABS_I32 => {
            let v = (w.ssrc(i.ssrc0)? as i32).unsigned_abs();
            w.scc = v != 0;
            w.swrite(d()?, v)?;
        }
        O::S_BITSET0_B32 | O::S_BITSET1_B32 => {
            let bit = w.ssrc(i.ssrc0)? & 31;
            let di = d()?;
            let old = w.sread(di)?;
            let v = if i.op == O::S_BITSET1_B32 { old | 1 << bit } else { old & !(1 << bit) };
            w.swrite(di, v)?;
        }
        O::S_GETPC_B64 => w.swrite64(d()?, next_pc)?,
        O::S_SETPC_B64 => return Ok(Flow::Jump(w.ssrc64(i.ssrc0)?)),
        O::S_SWAPPC_B64 => {
            let target = w.ssrc64(i.ssrc0)?;
            w.swrite64(d()?, next_pc)?;
            return Ok(Flow::Jump(target));
        }
        op if saveexec(op).is_some() => {
            let (kind, write_result) = saveexec(op).expect("checked");
            let a = w.ssrc(i.ssrc0)?;
            let exec = w.exec();
            let new = match kind {
                SaveExec::And => a & exec,
                SaveExec::Or => a | exec,
                SaveExec::Xor => a ^ exec,
                SaveExec::Andn2 => a & !exec,
                SaveExec::Orn2 => a | !exec,
                SaveExec::Nand => !(a & exec),
                SaveExec::Nor => !(a | exec),
                SaveExec::Xnor => !(a ^ exec),
                SaveExec::Andn1 => !a & exec,
                SaveExec::Orn1 => !a | exec,
            };
            w.set_exec(new);
            w.scc = new != 0;
            w.swrite(d()?, if write_result { new } else { exec })?;
        }
        op => return fault(format!("unimplemented SOP1 {}", op.name())),
    }
    Ok(Flow::Next)
}

#[derive(Clone, Copy)]
enum SaveExec {
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
    Andn1,
    Orn1,
}

/// The wave32 (`_b32`) exec-mask instructions: (operation, writes the new exec to sdst).
fn saveexec(op: ferrum_isa::Opcode) -> Option<(SaveExec, bool)> {
    Some(match op {
        O::S_AND_SAVEEXEC_B32 => (SaveExec::And, false),
        O::S_OR_SAVEEXEC_B32 => (SaveExec::Or, false),
        O::S_XOR_SAVEEXEC_B32 => (SaveExec::Xor, false),
        O::S_ANDN2_SAVEEXEC_B32 => (SaveExec::Andn2, false),
        O::S_ORN2_SAVEEXEC_B32 => (SaveExec::Orn2, false),
        O::S_NAND_SAVEEXEC_B32 => (SaveExec::Nand, false),
        O::S_NOR_SAVEEXEC_B32 => (SaveExec::Nor, false),
        O::S_XNOR_SAVEEXEC_B32 => (SaveExec::Xnor, false),
        O::S_ANDN1_SAVEEXEC_B32 => (SaveExec::Andn1, false),
        O::S_ORN1_SAVEEXEC_B32 => (SaveExec::Orn1, false),
        O::S_ANDN1_WREXEC_B32 => (SaveExec::Andn1, true),
        O::S_ANDN2_WREXEC_B32 => (SaveExec::Andn2, true),
        _ => return None,
    })
}

pub fn sopc(w: &mut Wave, i: &Sopc) -> R<()> {
    w.scc = match i.op {
        O::S_CMP_EQ_U64 => w.ssrc64(i.ssrc0)? == w.ssrc64(i.ssrc1)?,
        O::S_CMP_LG_U64 => w.ssrc64(i.ssrc0)? != w.ssrc64(i.ssrc1)?,
        O::S_BITCMP0_B64 | O::S_BITCMP1_B64 => {
            let bit = w.ssrc64(i.ssrc0)? >> (w.ssrc(i.ssrc1)? & 63) & 1;
            (bit == 1) == (i.op == O::S_BITCMP1_B64)
        }
        op => {
            let a = w.ssrc(i.ssrc0)?;
            let b = w.ssrc(i.ssrc1)?;
            let (ai, bi) = (a as i32, b as i32);
            match op {
                O::S_CMP_EQ_I32 | O::S_CMP_EQ_U32 => a == b,
                O::S_CMP_LG_I32 | O::S_CMP_LG_U32 => a != b,
                O::S_CMP_GT_I32 => ai > bi,
                O::S_CMP_GE_I32 => ai >= bi,
                O::S_CMP_LT_I32 => ai < bi,
                O::S_CMP_LE_I32 => ai <= bi,
                O::S_CMP_GT_U32 => a > b,
                O::S_CMP_GE_U32 => a >= b,
                O::S_CMP_LT_U32 => a < b,
                O::S_CMP_LE_U32 => a <= b,
                O::S_BITCMP0_B32 => a >> (b & 31) & 1 == 0,
                O::S_BITCMP1_B32 => a >> (b & 31) & 1 == 1,
                op => return fault(format!("unimplemented SOPC {}", op.name())),
            }
        }
    };
    Ok(())
}

pub fn sopp(w: &mut Wave, i: &Sopp, next_pc: u64) -> R<Flow> {
    let target = next_pc.wrapping_add((i.simm16 as i16 as i64 * 4) as u64);
    let branch = |taken: bool| Ok(if taken { Flow::Jump(target) } else { Flow::Next });
    match i.op {
        O::S_ENDPGM => Ok(Flow::End),
        O::S_BRANCH => Ok(Flow::Jump(target)),
        O::S_CBRANCH_SCC0 => branch(!w.scc),
        O::S_CBRANCH_SCC1 => branch(w.scc),
        O::S_CBRANCH_VCCZ => branch(w.vcc() == 0),
        O::S_CBRANCH_VCCNZ => branch(w.vcc() != 0),
        O::S_CBRANCH_EXECZ => branch(w.exec() == 0),
        O::S_CBRANCH_EXECNZ => branch(w.exec() != 0),
        O::S_BARRIER => Ok(Flow::Barrier),
        O::S_WAITCNT => {
            let c = Waitcnt::from_imm(i.simm16);
            w.wait(Some(c.vmcnt as u32), Some(c.lgkmcnt as u32));
            Ok(Flow::Next)
        }
        // Scheduling hints, prefetch control and counters with nothing to model.
        O::S_NOP
        | O::S_SLEEP
        | O::S_SETPRIO
        | O::S_INST_PREFETCH
        | O::S_CLAUSE
        | O::S_WAITCNT_DEPCTR
        | O::S_CODE_END
        | O::S_ICACHE_INV
        | O::S_TTRACEDATA
        | O::S_INCPERFLEVEL
        | O::S_DECPERFLEVEL
        | O::S_SENDMSG
        | O::S_SENDMSGHALT => Ok(Flow::Next),
        O::S_DENORM_MODE => {
            // imm[1:0] fp32 denorm mode, imm[3:2] fp16/64: MODE.FP_DENORM[7:4].
            w.mode = (w.mode & !0xf0) | ((i.simm16 as u32 & 0xf) << 4);
            Ok(Flow::Next)
        }
        O::S_ROUND_MODE => {
            if i.simm16 & 0xf != 0 {
                return fault("rounding modes other than nearest-even are not modelled");
            }
            Ok(Flow::Next)
        }
        op => fault(format!("unimplemented SOPP {}", op.name())),
    }
}
