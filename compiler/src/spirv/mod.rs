//! The SPIR-V front end: `rspirv` parses the binary, then [`module`] translates types,
//! constants and globals and [`function`] translates the functions the entry point reaches.

mod alu;
mod arith;
mod contract;
mod decorations;
mod fast_div;
mod float_controls;
pub mod function;
mod glsl;
mod glsl_matrix;
mod glsl_pack;
mod image;
mod memory;
pub mod module;
mod operands;
mod spec_op;
mod subgroup;

use std::collections::HashMap;

use crate::error::CompileError;
use crate::ir::{FuncId, Function, Shader, Stage};

/// Decodes a SPIR-V binary given as words.
pub fn load(words: &[u32]) -> Result<rspirv::dr::Module, CompileError> {
    if words.len() < 5 {
        return Err(CompileError::Malformed("shorter than the 5-word header".into()));
    }
    if words[0] != spirv::MAGIC_NUMBER {
        return Err(CompileError::Malformed(format!("bad magic number 0x{:08x}", words[0])));
    }
    // rspirv trusts word counts when decoding strings; check the instruction stream first.
    let mut names_not_utf8 = Vec::new();
    let mut literal_lists = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let wc = (words[at] >> 16) as usize;
        if wc == 0 || at + wc > words.len() {
            return Err(CompileError::Malformed(format!(
                "instruction at word {at} (opcode {}) has word count {wc} past the end",
                words[at] & 0xffff
            )));
        }
        // rspirv panics on an OpSpecConstantOp wrapping an opcode with context-dependent
        // operands; SPIR-V allows none of those there.
        if words[at] & 0xffff == spirv::Op::SpecConstantOp as u32 {
            let inner = words.get(at + 3).copied().unwrap_or(0);
            if !spec_op_allowed(inner) {
                return Err(CompileError::Malformed(format!(
                    "OpSpecConstantOp with opcode {inner}"
                )));
            }
            if let Some(list) = SpecLiteralList::read(&words[at..at + wc]) {
                literal_lists.push((at, list));
            }
        }
        if debug_name_not_utf8(&words[at..at + wc]) {
            names_not_utf8.push(at..at + wc);
        }
        at += wc;
    }
    let load =
        |w: &[u32]| rspirv::dr::load_words(w).map_err(|e| CompileError::Malformed(e.to_string()));
    if names_not_utf8.is_empty() && literal_lists.is_empty() {
        return load(words);
    }
    // A debug name is any string of bytes to SPIR-V's consumers (nothing refers to it), but
    // rspirv decodes it as UTF-8: such names are dropped rather than the module refused.
    // Spec-constant ops with literal lists are shortened to their first literal, which rspirv
    // decodes, and get their whole list back after decoding.
    log::debug!("spirv: {} debug names that are not UTF-8 dropped", names_not_utf8.len());
    let mut edits: Vec<(std::ops::Range<usize>, Option<usize>)> =
        names_not_utf8.into_iter().map(|r| (r, None)).collect();
    for (k, (at, list)) in literal_lists.iter().enumerate() {
        edits.push((*at..*at + list.words, Some(k)));
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut kept = words[..5].to_vec();
    let mut from = 5;
    for (r, list) in edits {
        kept.extend_from_slice(&words[from..r.start]);
        if let Some(k) = list {
            let head = &words[r.start..r.start + literal_lists[k].1.keep];
            kept.push((head.len() as u32) << 16 | (head[0] & 0xffff));
            kept.extend_from_slice(&head[1..]);
        }
        from = r.end;
    }
    kept.extend_from_slice(&words[from..]);
    let mut module = load(&kept)?;
    for (_, list) in literal_lists {
        list.restore(&mut module);
    }
    Ok(module)
}

/// An `OpSpecConstantOp` wrapping `OpVectorShuffle`, `OpCompositeExtract` or
/// `OpCompositeInsert`. rspirv 0.12 decodes the wrapped opcode's operands one per grammar
/// entry, ignoring the `LiteralInteger*` quantifier of those three, so any second literal is
/// reported as an extra operand and the module refused.
struct SpecLiteralList {
    /// Result id.
    id: u32,
    /// Every literal, in order.
    literals: Vec<u32>,
    /// Word count of the whole instruction.
    words: usize,
    /// Words kept for rspirv: up to the first literal.
    keep: usize,
}

impl SpecLiteralList {
    /// The list of `inst` if it is one of the three with more than one literal.
    fn read(inst: &[u32]) -> Option<Self> {
        use spirv::Op as O;
        let inner = O::from_u32(*inst.get(3)?)?;
        // VectorShuffle: vector, vector, components; CompositeInsert: object, composite,
        // indexes; CompositeExtract: composite, indexes.
        let first = match inner {
            O::VectorShuffle | O::CompositeInsert => 6,
            O::CompositeExtract => 5,
            _ => return None,
        };
        // With one literal (or none: malformed) rspirv decodes it as it is.
        if inst.len() <= first + 1 {
            return None;
        }
        Some(SpecLiteralList {
            id: inst[2],
            literals: inst[first..].to_vec(),
            words: inst.len(),
            keep: first + 1,
        })
    }

    /// Puts the whole list back on the decoded instruction.
    fn restore(self, m: &mut rspirv::dr::Module) {
        use rspirv::dr::Operand;
        let Some(inst) = m.types_global_values.iter_mut().find(|i| i.result_id == Some(self.id))
        else {
            return;
        };
        let ids = inst.operands.iter().take_while(|o| !matches!(o, Operand::LiteralBit32(_)));
        let mut ops: Vec<Operand> = ids.cloned().collect();
        ops.extend(self.literals.into_iter().map(Operand::LiteralBit32));
        inst.operands = ops;
    }
}

/// An OpName or OpMemberName whose name is not valid UTF-8 (up to its terminating NUL).
fn debug_name_not_utf8(inst: &[u32]) -> bool {
    let first = match inst[0] & 0xffff {
        x if x == spirv::Op::Name as u32 => 2,
        x if x == spirv::Op::MemberName as u32 => 3,
        _ => return false,
    };
    let bytes: Vec<u8> = inst.iter().skip(first).flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[..end]).is_err()
}

/// Opcodes SPIR-V allows inside OpSpecConstantOp (for shaders).
fn spec_op_allowed(op: u32) -> bool {
    use spirv::Op as O;
    let Some(op) = O::from_u32(op) else { return false };
    matches!(
        op,
        O::SConvert
            | O::UConvert
            | O::FConvert
            | O::SNegate
            | O::Not
            | O::IAdd
            | O::ISub
            | O::IMul
            | O::UDiv
            | O::SDiv
            | O::UMod
            | O::SRem
            | O::SMod
            | O::ShiftRightLogical
            | O::ShiftRightArithmetic
            | O::ShiftLeftLogical
            | O::BitwiseOr
            | O::BitwiseXor
            | O::BitwiseAnd
            | O::VectorShuffle
            | O::CompositeExtract
            | O::CompositeInsert
            | O::LogicalOr
            | O::LogicalAnd
            | O::LogicalNot
            | O::LogicalEqual
            | O::LogicalNotEqual
            | O::Select
            | O::IEqual
            | O::INotEqual
            | O::ULessThan
            | O::SLessThan
            | O::UGreaterThan
            | O::SGreaterThan
            | O::ULessThanEqual
            | O::SLessThanEqual
            | O::UGreaterThanEqual
            | O::SGreaterThanEqual
            | O::QuantizeToF16
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertFToU
            | O::ConvertUToF
            | O::Bitcast
            | O::FNegate
            | O::FAdd
            | O::FSub
            | O::FMul
            | O::FDiv
            | O::FRem
            | O::FMod
            | O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
    )
}

/// Translates entry point `entry` of `stage` into unlowered IR (derefs, calls, variables).
/// `spec` maps SpecId to the constant's bit pattern.
pub fn to_ir(
    words: &[u32],
    entry: &str,
    stage: Stage,
    spec: &HashMap<u32, u64>,
) -> Result<Shader, CompileError> {
    let spv = load(words)?;
    let mut m = module::ModuleCtx::new(&spv, stage)?;
    let entry_id = module::find_entry(&spv, entry, stage)?;
    m.float_controls(entry_id)?;
    m.translate_globals(spec)?;
    m.execution_modes(entry_id)?;
    // Every function is translated (unreachable ones are dropped by inlining); the entry
    // keeps its index so calls can refer to any function.
    let mut order: Vec<u32> =
        spv.functions.iter().filter_map(|f| f.def.as_ref()?.result_id).collect();
    order.sort_by_key(|&f| f != entry_id);
    for (i, &f) in order.iter().enumerate() {
        m.funcs.insert(f, FuncId(i as u32));
        m.shader.funcs.push(Function::new(""));
    }
    m.shader.entry = FuncId(0);
    for &f in &order {
        let sf = m.spv_funcs[&f];
        let fid = m.funcs[&f];
        function::translate_function(&mut m, sf, fid)?;
    }
    Ok(m.shader)
}
