//! `opt_if_convert`: small if/else constructs become selects. Each shader runs on edge values
//! (±0, ±inf, NaN with a payload, denormals, the extreme integers) three ways: the IR straight
//! from the front end in the interpreter (the reference), the optimized IR in the interpreter
//! (byte for byte), and the machine code on the simulator. The listings show which branches
//! went away, and that arms with side effects or long expansions keep theirs.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
use ferrum_compiler::ir::Value;
use ferrum_compiler::ir::{AluOp, AtomicOp, Inst, InstKind, Space, Stage, SubgroupOp, Terminator};
use ferrum_compiler::meta::KernelBuilder;
use ferrum_compiler::passes::opt_if_convert;

/// Input words: float and integer edges, one per invocation.
const EDGES: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0 (and i32::MIN)
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_1234, // NaN with a payload
    0xffa0_0001, // signalling-looking negative NaN
    0x0000_0001, // smallest denormal (and 1)
    0x807f_ffff, // largest negative denormal
    0x7f7f_ffff, // largest finite (and a large positive int)
    0xffff_ffff, // NaN / -1 / u32::MAX
    0x7fff_ffff, // NaN / i32::MAX
    0x3f80_0000, // 1.0
    0xbf00_0000, // -0.5
    0x0000_0005, // 5 (a small integer)
    0x0000_0014, // 20
    0x4120_0000, // 10.0
];

const HEADER: &str = "#version 450\n#extension GL_ARB_gpu_shader_int64 : require\n\
    layout(local_size_x = 16) in;\n\
    layout(std430, binding = 0) readonly buffer I { uint x[]; };\n\
    layout(std430, binding = 1) buffer O { uint o[]; };\n\
    layout(push_constant) uniform P { uint k; } pc;\n";

/// Diamonds and triangles of several value shapes, nested, on divergent and uniform conditions.
const CONVERTIBLE: &str = "void main() {\n uint i = gl_LocalInvocationID.x;\n\
    uint u = x[i];\n float f = uintBitsToFloat(u);\n int s = int(u);\n\
    float a; if (f < 1.0) a = f * 2.0; else a = -f;\n\
    uint b = u; if (s < 0) b = ~u + 1u;\n\
    vec2 c = vec2(f, 0.0); if (u > 0x7f000000u) c = vec2(1.0, f + 1.0);\n\
    uint d; if (u < 10u) { if (u < 5u) d = u + 100u; else d = u * 3u; } else d = u >> 1;\n\
    bool e = f > 0.0; if (isnan(f)) e = !e;\n\
    uint64_t g = uint64_t(u) << 4; if ((u & 1u) != 0u) g = g + 0xffffffff0ul;\n\
    uint h = u; if (pc.k > 3u) h = u ^ 0x55u; else h = u | 0x100u;\n\
    float m = f; if (f != f) m = 0.0;\n\
    o[i * 10u + 0u] = floatBitsToUint(a);\n o[i * 10u + 1u] = b;\n\
    o[i * 10u + 2u] = floatBitsToUint(c.x);\n o[i * 10u + 3u] = floatBitsToUint(c.y);\n\
    o[i * 10u + 4u] = d;\n o[i * 10u + 5u] = e ? 1u : 2u;\n\
    o[i * 10u + 6u] = uint(g);\n o[i * 10u + 7u] = uint(g >> 32);\n\
    o[i * 10u + 8u] = h;\n o[i * 10u + 9u] = floatBitsToUint(m);\n}\n";

/// Arms that must keep their branch: a store, a division by a variable, a subgroup operation.
const KEPT: &str = "#extension GL_KHR_shader_subgroup_arithmetic : require\n\
    void main() {\n uint i = gl_LocalInvocationID.x;\n uint u = x[i];\n\
    if (u > 0x7f000000u) o[i * 10u + 9u] = u;\n\
    uint q = 7u; if (u != 0u) q = 1000u / u;\n\
    uint r = 0u; if (u < 20u) r = subgroupAdd(u);\n\
    o[i * 10u] = q;\n o[i * 10u + 1u] = r;\n}\n";

struct Run {
    listing: String,
    out: Vec<u8>,
}

fn source(body: &str) -> String {
    if let Some(rest) = body.strip_prefix("#extension") {
        // Extensions go before the declarations.
        let (ext, main) = rest.split_once('\n').unwrap();
        let (first, decls) = HEADER.split_once('\n').unwrap();
        return format!("{first}\n#extension{ext}\n{decls}{main}");
    }
    format!("{HEADER}{body}")
}

fn resources(k: u32) -> Resources {
    let input: Vec<u8> = EDGES.iter().flat_map(|v| v.to_le_bytes()).collect();
    Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: input },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0xcd; EDGES.len() * 40] },
        ],
        push: k.to_le_bytes().to_vec(),
        ..Default::default()
    }
}

/// Interprets the unoptimized and the optimized IR and runs the machine code; all three must
/// agree byte for byte.
fn run_three_ways(name: &str, body: &str, k: u32) -> Run {
    let src = source(body);
    let path = std::env::temp_dir().join(format!("ferrum-ifc-{}-{name}.comp", std::process::id()));
    std::fs::write(&path, &src).unwrap();
    let words = common::glsl_to_spirv(&path);
    std::fs::remove_file(&path).ok();
    let none = Default::default();
    let raw = ferrum_compiler::spirv::to_ir(&words, "main", Stage::Compute, &none).unwrap();
    let mut reference = resources(k);
    interp::run(&raw, [1, 1, 1], &mut reference).unwrap();
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &none).unwrap();
    let mut optimized = resources(k);
    interp::run(&ir, [1, 1, 1], &mut optimized).unwrap();
    assert!(
        reference.buffers[1].data == optimized.buffers[1].data,
        "{name}: the optimized IR differs from the front end's\n{}",
        ferrum_compiler::ir::print::shader_text(&ir)
    );
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let mut got = Gpu::new().run(&bin, &layout, [1, 1, 1], &resources(k)).unwrap();
    let listing = amd::compile_spirv(&words, "main", &none, &layout).unwrap().isa_text;
    for (i, (w, g)) in
        reference.buffers[1].data.chunks(4).zip(got.buffers[1].data.chunks(4)).enumerate()
    {
        assert_eq!(w, g, "{name} (k = {k}): word {i} (input {:#010x})\n{listing}", EDGES[i / 10]);
    }
    Run { listing, out: got.buffers.swap_remove(1).data }
}

fn count(listing: &str, prefix: &str) -> usize {
    listing.lines().filter(|l| l.trim_start().starts_with(prefix)).count()
}

#[test]
fn small_arms_become_selects_on_edge_values() {
    for k in [0, 4] {
        let r = run_three_ways("convertible", CONVERTIBLE, k);
        // Every if/else of the shader is a select now: no branch is left at all.
        assert_eq!(count(&r.listing, "s_cbranch"), 0, "{}", r.listing);
        assert!(count(&r.listing, "v_cndmask_b32") >= 8, "{}", r.listing);
        // The uniform condition selects on the scalar unit.
        assert!(count(&r.listing, "s_cselect_b32") >= 1, "{}", r.listing);
        // Hand-checked words: -0.0 < 1.0 doubles to -0.0; NaN takes the else arm (-NaN).
        assert_eq!(common::u32_at(&r.out, 10), 0x8000_0000);
        assert_eq!(common::u32_at(&r.out, 40), 0xffc0_1234);
        // i32::MIN negates to itself; NaN's m is 0.
        assert_eq!(common::u32_at(&r.out, 11), 0x8000_0000);
        assert_eq!(common::u32_at(&r.out, 49), 0);
        // 5 is not below 5: 5 * 3; the uniform select follows the push constant.
        assert_eq!(common::u32_at(&r.out, 134), 15);
        assert_eq!(common::u32_at(&r.out, 138), if k > 3 { 5 ^ 0x55 } else { 5 | 0x100 });
    }
}

#[test]
fn arms_with_effects_or_long_expansions_keep_their_branches() {
    let r = run_three_ways("kept", KEPT, 0);
    // The store and the division are each skipped by a branch; the subgroup add runs only
    // on the lanes below 20.
    assert!(count(&r.listing, "s_cbranch_execz") >= 3, "{}", r.listing);
}

/// `i == 0 ? a : i == 1 ? b : ...`: five nested selections of constant vectors convert from
/// the inside out into one straight-line chain of selects (the graphics_state VS's shape).
const CHAIN: &str = "void main() {\n uint i = gl_LocalInvocationID.x;\n uint u = x[i];\n\
    int s = int(u & 7u);\n\
    vec2 p = s == 0 ? vec2(-0.8, -0.7) : s == 1 ? vec2(0.6, -0.9) : s == 2 ? vec2(-0.2, 0.8)\n\
        : s == 3 ? vec2(0.9, 0.85) : s == 4 ? vec2(0.7, -0.5) : vec2(-0.6, 0.3);\n\
    o[i * 10u] = floatBitsToUint(p.x);\n o[i * 10u + 1u] = floatBitsToUint(p.y);\n\
    uint v = u > 10u ? pc.k * 3u : u;\n o[i * 10u + 2u] = v;\n}\n";

#[test]
fn nested_chains_and_push_constant_loads_become_selects() {
    for k in [0, 4] {
        let r = run_three_ways("chain", CHAIN, k);
        assert_eq!(count(&r.listing, "s_cbranch"), 0, "{}", r.listing);
        // Inputs 0 (+0), 1 (-0: s = 0), 6 (1), 13 (5), 14 (20: s = 4), 15 (10.0: s = 0).
        let p = |i: usize| (common::f32_at(&r.out, i * 10), common::f32_at(&r.out, i * 10 + 1));
        assert_eq!(p(0), (-0.8, -0.7));
        assert_eq!(p(1), (-0.8, -0.7));
        assert_eq!(p(6), (0.6, -0.9));
        assert_eq!(p(13), (-0.6, 0.3));
        assert_eq!(p(14), (0.7, -0.5));
        // The push constant is read only where the input is above 10 (20, not 5).
        assert_eq!(common::u32_at(&r.out, 142), 3 * k);
        assert_eq!(common::u32_at(&r.out, 132), 5);
    }
}

/// Hand-built IR: one selection whose arm holds `arm`'s instructions; returns whether
/// `opt_if_convert` removed the branch.
fn converts(arm: impl FnOnce(&mut KernelBuilder, Value)) -> bool {
    let mut k = KernelBuilder::new("arm", [16, 1, 1]);
    let id = k.global_id();
    let x = k.component(id, 0);
    let eight = k.imm(8);
    let c = k.cmp(AluOp::Ult, x, eight);
    k.if_then(c, |k| arm(k, x));
    let mut s = k.finish();
    let changed = opt_if_convert::opt_if_convert(&mut s);
    let branches = s.funcs[0]
        .blocks
        .iter()
        .filter(|b| matches!(b.term, Terminator::CondBranch { .. }))
        .count();
    assert_eq!(changed, branches == 0);
    changed
}

#[test]
fn only_loads_that_cannot_fault_are_speculated() {
    // Push constants at a constant offset inside the 256-byte push block: speculated.
    assert!(converts(|k, _| {
        k.push_constants(8, 2);
    }));
    assert!(converts(|k, _| {
        k.push_constants(252, 1);
    }));
    // Past the block, or at an offset computed per invocation: they keep the branch.
    assert!(!converts(|k, _| {
        k.push_constants(256, 1);
    }));
    assert!(!converts(|k, _| {
        k.push_constants(248, 3);
    }));
    assert!(!converts(|k, x| {
        let four = k.imm(4);
        let addr = k.op(AluOp::Imul, &[x, four]);
        k.emit(InstKind::MemLoad { space: Space::Push, addr, align: 4 }, 32, 1);
    }));
    // Buffer loads (their descriptor need not be valid where the arm is not taken), stores,
    // atomics, demotes and subgroup operations never run speculatively.
    assert!(!converts(|k, x| {
        let d = k.descriptor(0, 0, None);
        k.buffer_load(d, x, 1);
    }));
    assert!(!converts(|k, x| {
        let d = k.descriptor(0, 1, None);
        k.buffer_store(d, x, x);
    }));
    assert!(!converts(|k, x| {
        let d = k.descriptor(0, 1, None);
        let addr = k.vec(&[d, x]);
        let op = AtomicOp::Add;
        let kind = InstKind::MemAtomic { space: Space::Buffer, op, addr, srcs: vec![x] };
        k.emit(kind, 32, 1);
    }));
    assert!(!converts(|k, _| k.insert(Inst { dst: None, kind: InstKind::Demote })));
    assert!(!converts(|k, x| {
        k.emit(InstKind::Subgroup { op: SubgroupOp::BroadcastFirst, srcs: vec![x] }, 32, 1);
    }));
}

#[test]
fn a_side_effect_in_an_inner_arm_keeps_both_branches() {
    let mut k = KernelBuilder::new("nested", [16, 1, 1]);
    let id = k.global_id();
    let x = k.component(id, 0);
    let (eight, four) = (k.imm(8), k.imm(4));
    let c = k.cmp(AluOp::Ult, x, eight);
    let d = k.cmp(AluOp::Ult, x, four);
    k.if_then(c, |k| {
        k.push_constants(0, 1);
        k.if_then(d, |k| {
            let b = k.descriptor(0, 1, None);
            k.buffer_store(b, x, x);
        });
    });
    let mut s = k.finish();
    assert!(!opt_if_convert::opt_if_convert(&mut s));
}

#[test]
fn an_output_stored_in_a_branch_is_a_select() {
    // discard.frag: `o = vec4(color, 1.0); if (color.z > 0.5) o.w = 0.25;` (its results on
    // the simulator against hand-computed colours: gfx_draw's discard test).
    let path = common::corpus_dir().join("../graphics/draw/discard.frag");
    let words = common::glsl_to_spirv(&path);
    let none = Default::default();
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Fragment, &none).unwrap();
    assert_eq!(ir.funcs[0].blocks.iter().filter(|b| !b.insts.is_empty()).count(), 1);
    let text = ferrum_compiler::ir::print::shader_text(&ir);
    assert!(text.contains("bcsel"), "{text}");
}
