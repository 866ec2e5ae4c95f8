//! The compilation pipeline: every pass in order, in one place.

use std::collections::HashMap;

use crate::amd::abi::graphics::ConstantInputs;
use crate::debug::DebugFlags;
use crate::error::CompileError;
use crate::ir::validate::{validate, Expect};
use crate::ir::{print, Shader, Stage};
use crate::passes::*;

/// Runs one pass, prints the IR after it with `FERRUM_DEBUG=ir`, and validates it in debug
/// builds or with `FERRUM_DEBUG=validate`.
macro_rules! pass {
    ($shader:expr, $expect:expr, $name:literal, $pass:expr) => {{
        let r = $pass;
        after_pass($shader, $name, $expect)?;
        r
    }};
}

fn after_pass(s: &Shader, name: &str, expect: Expect) -> Result<(), CompileError> {
    let flags = DebugFlags::get();
    if flags.ir {
        eprintln!("=== after {name}\n{}", print::shader_text(s));
    }
    if cfg!(debug_assertions) || flags.validate {
        validate(s, expect)?;
    }
    Ok(())
}

/// The optimization loop: runs the cheap cleanups until nothing changes.
pub fn optimize(s: &mut Shader, expect: Expect) -> Result<(), CompileError> {
    for _ in 0..16 {
        let mut progress = false;
        progress |= pass!(s, expect, "opt_copy_prop", opt_copy_prop::opt_copy_prop(s));
        progress |= pass!(s, expect, "opt_constant_fold", opt_constant_fold::opt_constant_fold(s));
        progress |= pass!(s, expect, "opt_dead_cf", opt_dead_cf::opt_dead_cf(s));
        progress |= pass!(s, expect, "opt_merge_blocks", opt_merge_blocks::opt_merge_blocks(s));
        progress |= pass!(s, expect, "opt_kill_if", opt_kill_if::opt_kill_if(s));
        progress |= pass!(s, expect, "opt_if_convert", opt_if_convert::opt_if_convert(s));
        progress |= pass!(s, expect, "opt_cse", opt_cse::opt_cse(s));
        progress |= pass!(s, expect, "opt_dce", opt_dce::opt_dce(s));
        if !progress {
            break;
        }
    }
    Ok(())
}

/// Specializes lowered IR of a vertex or fragment shader for its pipeline
/// ([`link_stages`]): a VS's stores to the location components in `unread_outputs` go, a
/// PS reads the components in `constant_inputs` as those constants, and with `single_view`
/// gl_ViewIndex is 0; then the cleanups run again. Returns whether the shader changed.
pub fn link_graphics(
    s: &mut Shader,
    unread_outputs: u128,
    constant_inputs: &ConstantInputs,
    single_view: bool,
) -> Result<bool, CompileError> {
    let expect = Expect { explicit_io_lowered: true, inlined: true };
    let mut changed = false;
    if s.stage == Stage::Vertex {
        changed |= link_unread_outputs(s, unread_outputs)?;
    }
    if s.stage == Stage::Fragment {
        let c = link_stages::propagate_constant_inputs(s, constant_inputs);
        changed |= pass!(s, expect, "link_constant_inputs", c);
    }
    if single_view {
        changed |= pass!(s, expect, "link_view_index", link_stages::zero_view_index(s));
    }
    if changed {
        optimize(s, expect)?;
    }
    Ok(changed)
}

/// Removes a VS's stores to `unread` components (cleaned up). A location read back (a
/// dynamically indexed output array keeps its other elements that way) must keep its stores
/// when the read-back still feeds something after the cleanups: such locations leave
/// `unread` and the removal starts again.
fn link_unread_outputs(s: &mut Shader, mut unread: u128) -> Result<bool, CompileError> {
    let expect = Expect { explicit_io_lowered: true, inlined: true };
    loop {
        let mut t = s.clone();
        let r = link_stages::remove_unread_outputs(&mut t, unread);
        if !pass!(&t, expect, "link_unread_outputs", r) {
            return Ok(false);
        }
        optimize(&mut t, expect)?;
        let kept = link_stages::location_bits(link_stages::read_back_locations(&t)) & unread;
        if kept == 0 {
            *s = t;
            return Ok(true);
        }
        unread &= !kept;
    }
}

/// SPIR-V words → lowered, optimized IR. See the crate documentation for what "lowered" means.
pub fn compile_to_ir(
    words: &[u32],
    entry: &str,
    stage: Stage,
    spec: &HashMap<u32, u64>,
) -> Result<Shader, CompileError> {
    let s = crate::spirv::to_ir(words, entry, stage, spec)?;
    lower_and_optimize(s)
}

/// Translated (or built, see [`crate::meta`]) IR → lowered, optimized IR: every pass after the
/// front end.
pub fn lower_and_optimize(mut s: Shader) -> Result<Shader, CompileError> {
    let mut expect = Expect::default();
    pass!(&s, expect, "spirv_to_ir", ());
    pass!(&s, expect, "inline_functions", inline_functions::inline_functions(&mut s))?;
    expect.inlined = true;
    pass!(&s, expect, "lower_vars_to_ssa", lower_vars_to_ssa::lower_vars_to_ssa(&mut s));
    optimize(&mut s, expect)?;
    // Unrolled loops index arrays by constants once the cleanups fold the counters: variables
    // only a loop indexed dynamically become promotable.
    let unroll = !DebugFlags::get().no_unroll;
    if unroll && pass!(&s, expect, "opt_loop_unroll", opt_loop_unroll::opt_loop_unroll(&mut s)) {
        optimize(&mut s, expect)?;
        pass!(&s, expect, "lower_vars_to_ssa", lower_vars_to_ssa::lower_vars_to_ssa(&mut s));
        optimize(&mut s, expect)?;
    }
    if pass!(&s, expect, "opt_memory_forward", opt_memory_forward::opt_memory_forward(&mut s)) {
        optimize(&mut s, expect)?;
    }
    pass!(&s, expect, "lower_system_values", lower_system_values::lower_system_values(&mut s));
    pass!(&s, expect, "lower_io", lower_io::lower_io(&mut s))?;
    pass!(&s, expect, "opt_constant_arrays", opt_constant_arrays::opt_constant_arrays(&mut s));
    expect.explicit_io_lowered = true;
    pass!(&s, expect, "lower_explicit_io", lower_explicit_io::lower_explicit_io(&mut s));
    pass!(&s, expect, "lower_image_handles", lower_image_handles::lower_image_handles(&mut s));
    pass!(&s, expect, "opt_split_offsets", opt_split_offsets::opt_split_offsets(&mut s));
    pass!(&s, expect, "opt_scalarize_inputs", opt_scalarize_inputs::opt_scalarize_inputs(&mut s));
    optimize(&mut s, expect)?;
    if pass!(&s, expect, "opt_licm", opt_licm::opt_licm(&mut s)) {
        optimize(&mut s, expect)?;
    }
    Ok(s)
}
