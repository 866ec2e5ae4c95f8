//! Code-shape checks of three backend rules, on fragment shaders (what they compute is
//! checked elsewhere: every pass against the interpreter in gfx_interp.rs, the simulator's
//! pixels against the interpreter in gfx_interp_sim.rs and against lavapipe end to end):
//!
//! * an atomic whose old value nothing reads returns nothing (`opt_dce` drops its result):
//!   no `glc`, no wait for the value;
//! * consecutive memory writes of a whole-quad-mode PS share one exact-mode window;
//! * an output stored in a block every returning invocation runs (a top-level merge) needs
//!   no zero default, as one stored in the entry block;
//! * quad broadcasts and swaps run in whole-quad mode (the helper lanes they read stay alive).

mod common;

use ferrum_compiler::amd::abi::graphics::GfxKey;
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary};
use ferrum_compiler::ir::Stage;

fn fragment(name: &str, src: &str) -> GfxBinary {
    let ir = common::glsl_source_to_ir(&format!("{name}.frag"), src, Stage::Fragment);
    compile_graphics(&ir, &default_layout(&ir), GfxKey::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

const ATOMICS: &str = "#version 450
layout(set = 0, binding = 0) buffer Out { uint total; uint seen; uint hits[]; };
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float d = dFdx(uv.x);
    uint px = uint(p.x);
    atomicAdd(hits[p.y * 24 + p.x], 1u);
    atomicAdd(total, 1u);
    uint before = atomicMax(seen, px);
    o = vec4(d, float(before), 0.0, 1.0);
}
";

#[test]
fn atomics_without_a_reader_return_nothing() {
    let ps = fragment("atomics", ATOMICS);
    let atomics: Vec<&str> = ps.isa_text.lines().filter(|l| l.contains("buffer_atomic")).collect();
    assert_eq!(atomics.len(), 3, "{}", ps.isa_text);
    // Only atomicMax's old value is read.
    assert_eq!(atomics.iter().filter(|l| l.contains(" glc")).count(), 1, "{}", ps.isa_text);
    assert!(atomics.iter().any(|l| l.starts_with("buffer_atomic_umax") && l.contains(" glc")));
}

#[test]
fn consecutive_memory_writes_share_one_exact_window() {
    // dFdx keeps the helper lanes (whole-quad mode); the atomics run in exact mode. The
    // first two are adjacent and share a window; the third's address addition comes between
    // it and them (any other instruction closes the window), so it gets its own: two
    // narrowings of EXEC to the live lanes for three atomics.
    let ps = fragment("atomics", ATOMICS);
    let narrowings = ps.isa_text.lines().filter(|l| l.starts_with("s_and_b32 exec_lo")).count();
    assert_eq!(narrowings, 2, "{}", ps.isa_text);
}

#[test]
fn outputs_stored_after_a_top_level_branch_need_no_zero_default() {
    // The colour is stored at the merge of an if/else that every invocation passes.
    let ps = fragment(
        "merge",
        "#version 450\nlayout(set = 0, binding = 0) uniform sampler2D tex;\n\
         layout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 o;\n\
         void main() {\n o = gl_FragCoord.y < 24.0 ? texture(tex, uv) : texture(tex, uv, 0.5);\n}\n",
    );
    let zeros = ps.isa_text.lines().filter(|l| l.starts_with("v_mov_b32") && l.contains(", 0 ;"));
    assert_eq!(zeros.count(), 0, "{}", ps.isa_text);
}

#[test]
fn quad_operations_keep_the_helper_lanes() {
    // Vulkan launches helper invocations for a fragment shader's quad broadcasts and swaps;
    // the PS runs in whole-quad mode like one that takes derivatives.
    let ps = fragment(
        "quad",
        "#version 450\n#extension GL_KHR_shader_subgroup_quad : require\n\
         layout(location = 0) in float v;\nlayout(location = 0) out vec4 o;\n\
         void main() {\n o = vec4(subgroupQuadBroadcast(v, 1) - subgroupQuadBroadcast(v, 0));\n}\n",
    );
    assert!(ps.isa_text.contains("s_wqm_b32"), "{}", ps.isa_text);
    let swap = fragment(
        "swap",
        "#version 450\n#extension GL_KHR_shader_subgroup_quad : require\n\
         layout(location = 0) in float v;\nlayout(location = 0) out vec4 o;\n\
         void main() {\n o = vec4(subgroupQuadSwapHorizontal(v) - v);\n}\n",
    );
    assert!(swap.isa_text.contains("s_wqm_b32"), "{}", swap.isa_text);
}
