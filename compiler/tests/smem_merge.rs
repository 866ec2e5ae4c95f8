//! Scalar load merging on corpus shaders: the uniform reads of `smem_*` shaders leave
//! selection as one scalar load per dword and reach the final code as a few wide loads. (That
//! the merged code computes the same results is the simulator corpus test's job.)

mod common;

use ferrum_compiler::amd::{self, abi, mir::MFunc, opt_dce, smem_merge};
use ferrum_compiler::ir::{Shader, Stage};
use ferrum_isa::Inst;

fn shader(name: &str) -> Shader {
    let words = common::glsl_to_spirv(&common::corpus_dir().join(name));
    ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default()).unwrap()
}

/// Scalar loads in `mf` whose mnemonic starts with `prefix`, and the dwords they read.
fn smem(mf: &MFunc, prefix: &str) -> (usize, u32) {
    let mut n = (0, 0);
    for mi in mf.blocks.iter().flat_map(|b| &b.insts) {
        if let Inst::Smem(s) = &mi.inst {
            if s.op.name().starts_with(prefix) {
                n.0 += 1;
                n.1 += u32::from(mi.defs[0].dwords);
            }
        }
    }
    n
}

/// Mnemonics of the listing's instructions that start with `prefix`, in order.
fn listed<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    let ops = text.lines().filter_map(|l| l.split_whitespace().next());
    ops.filter(|op| op.starts_with(prefix)).collect()
}

/// Selects and merges `name`: (before, after) counts of scalar loads with `prefix`, the merged
/// machine code and the compiled listing.
fn merged_mir(name: &str, prefix: &str) -> ((usize, u32), (usize, u32), MFunc, String) {
    let ir = shader(name);
    let layout = amd::default_layout(&ir);
    let mut mf = amd::isel::select(&ir, &layout).unwrap();
    opt_dce::opt_dce(&mut mf);
    let before = smem(&mf, prefix);
    let removed = smem_merge::merge_scalar_loads(&mut mf);
    let after = smem(&mf, prefix);
    assert!(removed >= before.0 - after.0, "{name}: {removed} removed, {before:?} -> {after:?}");
    let text = amd::compile(&ir, &layout).unwrap().isa_text;
    (before, after, mf, text)
}

fn merged(name: &str, prefix: &str) -> ((usize, u32), (usize, u32), String) {
    let (before, after, _, text) = merged_mir(name, prefix);
    (before, after, text)
}

#[test]
fn vec4_and_mat4_members_are_read_by_octets() {
    let (before, after, text) = merged("smem_ubo_vec4_mat4.comp", "s_buffer_load");
    // Selection reads a, each column of m and tail as quads, s, t and uv separately.
    assert!(before.0 >= 9, "{before:?}");
    // 0..32 bytes, 32..64, 64..96 and tail at 96..112.
    assert_eq!(after.0, 4, "{text}");
    let ops = listed(&text, "s_buffer_load");
    let want = ["s_buffer_load_dwordx8", "s_buffer_load_dwordx8", "s_buffer_load_dwordx8"];
    assert_eq!(ops, [&want[..], &["s_buffer_load_dwordx4"]].concat(), "{text}");
}

#[test]
fn push_constants_merge_without_reading_past_the_last_dword() {
    let (before, after, mf, text) = merged_mir("smem_push_block.comp", "s_load");
    assert!(after.0 < before.0, "{before:?} -> {after:?}");
    let push = mf.vregs.iter().position(|v| v.fixed == Some(abi::SGPR_PUSH_BLOCK)).unwrap();
    let mut read = 0;
    for mi in mf.blocks.iter().flat_map(|b| &b.insts) {
        let Inst::Smem(s) = &mi.inst else { continue };
        if mi.uses[0].reg.vreg.0 as usize == push {
            // The push block's 15 dwords (60 bytes): nothing read at or beyond byte 60.
            let end = s.offset as u32 + 4 * u32::from(mi.defs[0].dwords);
            assert!(end <= 60, "{} at {} reads past the push block\n{text}", s.op.name(), s.offset);
            read += 1;
        }
    }
    // 0..32 bytes, 32..48, 48..56.
    assert_eq!(read, 3, "{text}");
}

#[test]
fn loads_reaching_past_num_records_still_merge() {
    let (before, after, text) = merged("smem_range_end.comp", "s_buffer_load");
    assert_eq!(before, (8, 8));
    assert_eq!(after, (2, 12), "{text}");
    assert!(text.contains("s_buffer_load_dwordx8"), "{text}");
}

#[test]
fn sparse_std140_elements_are_not_merged() {
    let (before, after, text) = merged("smem_std140_gaps.comp", "s_buffer_load");
    assert!(after.0 < before.0, "{before:?} -> {after:?}");
    // f[0] and f[1] are 16 bytes apart: two single loads rather than a mostly unread x8.
    assert!(text.contains("s_buffer_load_dword s"), "{text}");
    assert!(after.1 <= 2 * before.1, "{before:?} -> {after:?}");
}
