//! Final layout and encoding: branch offsets (with relaxation to a long jump through
//! `s_setpc_b64` when a target is beyond the ±32K-dword reach of SOPP branches), encoding
//! through `isa`, and the listing.

use ferrum_isa::{encode, Inst, Opcode, Operand, Sop1, Sop2, Sopp};

use super::error::BackendError;
use super::mir::MFunc;

/// SGPR pair reserved for long branches (excluded from allocation).
pub const LONG_BRANCH_SGPR: u8 = 104;

/// Alignment of the constant data after the code (the tables inside are 16-byte aligned).
pub const CONSTANT_DATA_ALIGN: usize = 256;

/// Byte offset of the constant data in a program of `code_bytes` bytes of instructions.
pub fn constant_data_offset(code_bytes: usize) -> usize {
    code_bytes.next_multiple_of(CONSTANT_DATA_ALIGN)
}

/// `code` followed by `data` at [`constant_data_offset`] (nothing added without data).
pub fn with_constant_data(mut code: Vec<u8>, data: &[u8]) -> Vec<u8> {
    if !data.is_empty() {
        code.resize(constant_data_offset(code.len()), 0);
        code.extend_from_slice(data);
    }
    code
}

/// Dwords of the constant-data address sequence an `s_getpc_b64` MIR instruction stands for.
const CONSTADDR_SIZE: usize = 4;

/// The sequence putting the constant data's address in `dst` (a register pair):
/// `s_getpc_b64` and the 64-bit addition of `delta`, the distance in bytes from the end of the
/// `s_getpc_b64` to the data (always positive: the data follows the code).
fn constant_address(dst: Operand, delta: u32) -> Vec<Inst> {
    let Operand::Sgpr(lo) = dst else { return Vec::new() };
    pc_plus(lo, delta, Operand::Int(0)).to_vec()
}

/// `s[lo:lo+1]` = the address after `s_getpc_b64` plus `delta_lo` in the low dword, carrying
/// `hi` into the high one.
fn pc_plus(lo: u8, delta_lo: u32, hi: Operand) -> [Inst; 3] {
    let (l, h) = (Operand::Sgpr(lo), Operand::Sgpr(lo + 1));
    [
        Inst::Sop1(Sop1 { op: Opcode::S_GETPC_B64, sdst: l, ssrc0: Operand::UNUSED }),
        Inst::Sop2(Sop2 {
            op: Opcode::S_ADD_U32,
            sdst: l,
            ssrc0: l,
            ssrc1: Operand::Literal(delta_lo),
        }),
        Inst::Sop2(Sop2 { op: Opcode::S_ADDC_U32, sdst: h, ssrc0: h, ssrc1: hi }),
    ]
}

/// Encoded program.
pub struct Code {
    /// Machine words.
    pub words: Vec<u32>,
    /// Number of instructions.
    pub instructions: u32,
}

fn inverse(op: Opcode) -> Option<Opcode> {
    Some(match op {
        Opcode::S_CBRANCH_SCC0 => Opcode::S_CBRANCH_SCC1,
        Opcode::S_CBRANCH_SCC1 => Opcode::S_CBRANCH_SCC0,
        Opcode::S_CBRANCH_EXECZ => Opcode::S_CBRANCH_EXECNZ,
        Opcode::S_CBRANCH_EXECNZ => Opcode::S_CBRANCH_EXECZ,
        Opcode::S_CBRANCH_VCCZ => Opcode::S_CBRANCH_VCCNZ,
        Opcode::S_CBRANCH_VCCNZ => Opcode::S_CBRANCH_VCCZ,
        _ => return None,
    })
}

/// The long-jump sequence to byte offset `delta` from the end of `s_getpc_b64`.
fn long_jump(delta: i64) -> Vec<Inst> {
    let lo = Operand::Sgpr(LONG_BRANCH_SGPR);
    let mut seq =
        pc_plus(LONG_BRANCH_SGPR, delta as u32, Operand::Literal((delta >> 32) as u32)).to_vec();
    seq.push(Inst::Sop1(Sop1 { op: Opcode::S_SETPC_B64, sdst: Operand::UNUSED, ssrc0: lo }));
    seq
}

fn enc(i: &Inst) -> Result<Vec<u32>, BackendError> {
    encode(i).map_err(|e| BackendError::Encode(format!("{}: {e}", i.op().name())))
}

/// Removes unconditional branches to the code right after them (a jump whose target block
/// follows once the empty blocks in between are passed over), and turns a conditional branch
/// over a lone `s_branch` into the inverse branch to that jump's target.
pub fn drop_branches_to_next(mf: &mut MFunc) {
    invert_branches_over_jumps(mf);
    for b in 0..mf.blocks.len() {
        let Some(last) = mf.blocks[b].insts.last() else { continue };
        let Some(t) = last.target else { continue };
        if last.inst.op() != Opcode::S_BRANCH || t <= b {
            continue;
        }
        if mf.blocks[b + 1..t].iter().all(|x| x.insts.is_empty()) {
            mf.blocks[b].insts.pop();
        }
    }
}

/// The first non-empty block from `b` on.
fn next_code(mf: &MFunc, mut b: usize) -> usize {
    while b < mf.blocks.len() && mf.blocks[b].insts.is_empty() {
        b += 1;
    }
    b
}

/// `s_cbranch_X L1; s_branch L2; L1:` becomes `s_cbranch_notX L2` when nothing else jumps to
/// the `s_branch`.
fn invert_branches_over_jumps(mf: &mut MFunc) {
    let n = mf.blocks.len();
    let mut targeted = vec![false; n + 1];
    for blk in &mf.blocks {
        for mi in &blk.insts {
            if let Some(t) = mi.target {
                targeted[t] = true;
            }
        }
    }
    for b in 0..n {
        let Some(last) = mf.blocks[b].insts.last() else { continue };
        let (Some(t), Some(inv)) = (last.target, inverse(last.inst.op())) else { continue };
        let k = next_code(mf, b + 1);
        if k >= n || t <= k || (b + 1..=k).any(|x| targeted[x]) {
            continue;
        }
        let [jump] = &mf.blocks[k].insts[..] else { continue };
        let Some(far) = jump.target else { continue };
        if jump.inst.op() != Opcode::S_BRANCH || next_code(mf, k + 1) != next_code(mf, t) {
            continue;
        }
        let mut br = super::isel_build::sopp(inv, 0);
        br.target = Some(far);
        *mf.blocks[b].insts.last_mut().expect("checked above") = br;
        mf.blocks[k].insts.clear();
    }
}

/// Lays out and encodes `mf` (registers already assigned).
pub fn emit(mf: &MFunc) -> Result<Code, BackendError> {
    let flat: Vec<(&super::mir::MInst, usize)> = mf
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(b, blk)| blk.insts.iter().map(move |m| (m, b)))
        .collect();
    let mut long = vec![false; flat.len()];
    loop {
        // Sizes (in dwords) with the current short/long choices.
        let mut size = Vec::with_capacity(flat.len());
        for (i, (mi, _)) in flat.iter().enumerate() {
            size.push(if long[i] {
                long_size(mi.inst.op())
            } else if mi.inst.op() == Opcode::S_GETPC_B64 {
                CONSTADDR_SIZE
            } else {
                enc(&mi.inst)?.len()
            });
        }
        let mut block_start = vec![usize::MAX; mf.blocks.len() + 1];
        let mut at = 0;
        for (i, (_, b)) in flat.iter().enumerate() {
            if block_start[*b] == usize::MAX {
                block_start[*b] = at;
            }
            at += size[i];
        }
        // Empty blocks start where the next instruction does.
        block_start[mf.blocks.len()] = at;
        for b in (0..mf.blocks.len()).rev() {
            if block_start[b] == usize::MAX {
                block_start[b] = block_start[b + 1];
            }
        }
        let data_at = constant_data_offset(at * 4);
        let mut words = Vec::new();
        let mut grew = false;
        let mut expanded = 0;
        for (i, (mi, _)) in flat.iter().enumerate() {
            let here = words.len();
            if let (Inst::Sop1(s), None) = (&mi.inst, mi.target) {
                if s.op == Opcode::S_GETPC_B64 {
                    let seq = constant_address(s.sdst, (data_at - (here + 1) * 4) as u32);
                    if seq.is_empty() {
                        return Err(BackendError::Encode("s_getpc_b64 without an SGPR".into()));
                    }
                    for s in &seq {
                        words.extend(enc(s)?);
                    }
                    expanded += seq.len() - 1;
                    continue;
                }
            }
            let Some(t) = mi.target else {
                words.extend(enc(&mi.inst)?);
                continue;
            };
            let dest = block_start[t] as i64;
            if !long[i] {
                let off = dest - (here as i64 + 1);
                if off < i64::from(i16::MIN) || off > i64::from(i16::MAX) {
                    long[i] = true;
                    grew = true;
                    words.extend(std::iter::repeat_n(0, long_size(mi.inst.op())));
                    continue;
                }
                let Inst::Sopp(s) = mi.inst else {
                    return Err(BackendError::Encode("branch is not SOPP".into()));
                };
                words.extend(enc(&Inst::Sopp(Sopp { op: s.op, simm16: off as i16 as u16 }))?);
            } else {
                let mut seq = Vec::new();
                let op = mi.inst.op();
                if let Some(inv) = inverse(op) {
                    // Skip the long jump when the condition does not hold.
                    seq.push(Inst::Sopp(Sopp { op: inv, simm16: 6 }));
                }
                let getpc_end = (here + seq.len() + 1) as i64 * 4;
                seq.extend(long_jump(dest * 4 - getpc_end));
                for s in &seq {
                    words.extend(enc(s)?);
                }
            }
        }
        if !grew {
            let instructions = (flat.len() + expanded) as u32;
            return Ok(Code { words, instructions });
        }
    }
}

/// Dwords of a long branch: [inverted short branch] + getpc (1) + add (2) + addc (2) + setpc (1).
fn long_size(op: Opcode) -> usize {
    6 + usize::from(inverse(op).is_some())
}

/// The program as LLVM-syntax text, one instruction per line with its byte offset.
pub fn listing(words: &[u32]) -> String {
    let mut s = String::new();
    for e in ferrum_isa::listing(words) {
        match e.inst {
            Ok(i) => s.push_str(&format!("{i} ; {:06x}\n", e.offset)),
            Err(err) => s.push_str(&format!("; {:06x}: undecodable: {err}\n", e.offset)),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amd::isel_build::sopp;
    use crate::amd::mir::{MBlock, MInst};

    fn br(op: Opcode, t: usize) -> MInst {
        let mut b = sopp(op, 0);
        b.target = Some(t);
        b
    }

    fn ops(mf: &MFunc) -> Vec<Vec<(Opcode, Option<usize>)>> {
        mf.blocks
            .iter()
            .map(|b| b.insts.iter().map(|m| (m.inst.op(), m.target)).collect())
            .collect()
    }

    #[test]
    fn a_conditional_branch_over_a_jump_becomes_the_inverse_branch() {
        let nop = || sopp(Opcode::S_NOP, 0);
        let blocks = vec![
            MBlock { insts: vec![nop(), br(Opcode::S_CBRANCH_SCC1, 3)] },
            MBlock { insts: vec![br(Opcode::S_BRANCH, 4)] },
            MBlock::default(),
            MBlock { insts: vec![nop()] },
            MBlock { insts: vec![nop(), br(Opcode::S_BRANCH, 5)] },
            MBlock { insts: vec![sopp(Opcode::S_ENDPGM, 0)] },
        ];
        let mut mf = MFunc { blocks, ..MFunc::default() };
        drop_branches_to_next(&mut mf);
        let got = ops(&mf);
        assert_eq!(got[0][1], (Opcode::S_CBRANCH_SCC0, Some(4)));
        assert!(got[1].is_empty());
        // The jump to the very next block went too.
        assert_eq!(got[4], vec![(Opcode::S_NOP, None)]);
    }

    #[test]
    fn a_jump_that_is_a_branch_target_stays() {
        let blocks = vec![
            MBlock { insts: vec![br(Opcode::S_CBRANCH_EXECZ, 2)] },
            MBlock { insts: vec![br(Opcode::S_BRANCH, 3)] },
            MBlock { insts: vec![br(Opcode::S_CBRANCH_SCC0, 1)] },
            MBlock { insts: vec![sopp(Opcode::S_ENDPGM, 0)] },
        ];
        let mut mf = MFunc { blocks, ..MFunc::default() };
        drop_branches_to_next(&mut mf);
        assert_eq!(ops(&mf)[0], vec![(Opcode::S_CBRANCH_EXECZ, Some(2))]);
        assert_eq!(ops(&mf)[1], vec![(Opcode::S_BRANCH, Some(3))]);
    }
}
