//! `opt_constant_arrays`: private arrays filled only with constants become tables in the
//! shader's constant data, read with one load (`s_load` for a uniform index, `global_load`
//! for a divergent one) from after the code. Every index is checked against hand-computed
//! values on the interpreter and on the simulator, the first, last and out-of-range ones
//! included (an out-of-range index reads the last element: the pass clamps it, so no load
//! leaves the table). The corpus shader `constant_table.comp` adds the before/after
//! interpreter checks of every pass (passes.rs) and the simulator comparison (sim_corpus.rs).

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
use ferrum_compiler::ir::{print::shader_text, InstKind, Shader, Space, Stage};

const PERM: [i32; 8] = [3, 7, 0, 5, 1, 6, 2, 4];

fn spirv(name: &str, src: &str) -> Vec<u32> {
    let path = std::env::temp_dir()
        .join(format!("ferrum-const-arrays-{}-{name}.comp", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_file(&path);
    words
}

fn lowered(name: &str, src: &str) -> Shader {
    let words = spirv(name, src);
    ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default()).unwrap()
}

/// Explicit loads of `space` in the entry function.
fn loads(s: &Shader, space: Space) -> usize {
    let insts = s.entry_fn().blocks.iter().flat_map(|b| &b.insts);
    insts.filter(|i| matches!(i.kind, InstKind::MemLoad { space: sp, .. } if sp == space)).count()
}

fn table_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `perm[pc.pi]` (uniform) and `perm[idx[lane]]` (divergent) for 16 lanes; `decl` declares
/// `perm`.
fn table_shader(decl: &str) -> String {
    format!(
        "#version 450
layout(local_size_x = 16) in;
layout(push_constant) uniform P {{ int pi; }} pc;
layout(std430, binding = 0) readonly buffer I {{ int idx[]; }};
layout(std430, binding = 1) buffer O {{ uvec2 o[]; }};
void main() {{
    {decl}
    uint l = gl_LocalInvocationID.x;
    o[l] = uvec2(uint(perm[pc.pi]), uint(perm[idx[l]]));
}}"
    )
}

const LANE_INDICES: [i32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, -1, 100, i32::MIN, i32::MAX, 7, 0, 3];

/// The element an index reads: its own in range, the last one out of range.
fn expected(i: i32) -> u32 {
    PERM[(i as u32).min(7) as usize] as u32
}

fn resources(pi: i32) -> Resources {
    let idx = table_bytes(&LANE_INDICES);
    Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: idx },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0; 16 * 8] },
        ],
        push: pi.to_le_bytes().to_vec(),
        ..Resources::default()
    }
}

fn check_every_index(s: &Shader) {
    let layout = amd::default_layout(s);
    let bin = amd::compile(s, &layout).unwrap();
    let gpu = Gpu::new();
    for pi in [0, 3, 7, 8, -1, i32::MAX] {
        let want: Vec<u32> =
            LANE_INDICES.iter().flat_map(|&i| [expected(pi), expected(i)]).collect();
        let mut r = resources(pi);
        interp::run(s, [1, 1, 1], &mut r).unwrap();
        let got = |r: &Resources| -> Vec<u32> {
            (0..32).map(|k| common::u32_at(&r.buffers[1].data, k)).collect()
        };
        assert_eq!(got(&r), want, "interpreter, pi = {pi}");
        let g = gpu.run(&bin, &layout, [1, 1, 1], &resources(pi)).unwrap();
        assert_eq!(got(&g), want, "simulator, pi = {pi}\n{}", bin.isa_text);
    }
}

#[test]
fn a_constant_array_becomes_a_table_read_at_every_index() {
    let s = lowered("perm", &table_shader("int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);"));
    assert_eq!(s.constant_data, table_bytes(&PERM), "{}", shader_text(&s));
    assert_eq!(loads(&s, Space::Scratch), 0, "{}", shader_text(&s));
    assert_eq!(loads(&s, Space::Constant), 2, "{}", shader_text(&s));
    assert_eq!(s.scratch_size, 0);
    check_every_index(&s);
}

#[test]
fn a_const_array_indexed_through_an_access_chain_becomes_a_table() {
    // glslang stores the whole OpConstantComposite, then indexes through OpAccessChain.
    let s = lowered("const", &table_shader("const int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);"));
    assert_eq!(s.constant_data, table_bytes(&PERM), "{}", shader_text(&s));
    assert_eq!(loads(&s, Space::Scratch), 0, "{}", shader_text(&s));
    check_every_index(&s);
}

#[test]
fn uniform_indices_load_scalars_and_divergent_ones_vectors() {
    let s = lowered("isa", &table_shader("int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);"));
    let bin = amd::compile(&s, &amd::default_layout(&s)).unwrap();
    let t = &bin.isa_text;
    assert!(t.contains("s_getpc_b64"), "{t}");
    assert!(t.contains("s_load_dword s"), "{t}");
    assert!(t.contains("global_load_dword v"), "{t}");
    // The table follows the code at a 256-byte boundary.
    let at = bin.code.len() - 32;
    assert_eq!(at % 256, 0);
    assert_eq!(&bin.code[at..], &table_bytes(&PERM)[..]);
}

#[test]
fn arrays_that_are_not_constant_tables_stay() {
    // Too small: the select chain is shorter than a table load.
    let s = lowered("small", &table_shader("int perm[3] = int[](3, 7, 0);"));
    assert!(s.constant_data.is_empty(), "{}", shader_text(&s));
    // An element that is not a constant.
    let s = lowered("dyn", &table_shader("int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, idx[0]);"));
    assert!(s.constant_data.is_empty(), "{}", shader_text(&s));
    // Written after a read.
    let s = lowered(
        "late",
        &table_shader(
            "int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);\n int r = perm[idx[1]];\n perm[2] = 9;\n perm[3] = r;",
        ),
    );
    assert!(s.constant_data.is_empty(), "{}", shader_text(&s));
    // Written in a branch.
    let s = lowered(
        "branch",
        &table_shader(
            "int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);\n if (pc.pi > 2) { perm[1] = 9; }",
        ),
    );
    assert!(s.constant_data.is_empty(), "{}", shader_text(&s));
}

#[test]
fn the_corpus_table_shader_uses_both_load_forms() {
    let case = common::load_case(&common::corpus_dir().join("constant_table.comp"));
    let s =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    assert_eq!(loads(&s, Space::Scratch), 0, "{}", shader_text(&s));
    // perm (32 bytes) then pts at the next 16-byte boundary (40 bytes).
    assert_eq!(s.constant_data.len(), 72);
    let bin = amd::compile(&s, &amd::default_layout(&s)).unwrap();
    assert!(bin.isa_text.contains("s_load_dwordx2"), "{}", bin.isa_text);
    assert!(bin.isa_text.contains("global_load_dwordx2"), "{}", bin.isa_text);
}
