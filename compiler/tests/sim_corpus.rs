//! End to end: every corpus shader the backend compiles runs on the simulator (strict mode:
//! missing waits, registers or LDS beyond the allocation are faults) and leaves memory exactly
//! as the IR interpreter does.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

fn check(gpu: &Gpu, case: &common::Case, groups: [u32; 3]) -> Result<(), String> {
    let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .map_err(|e| e.to_string())?;
    let layout = amd::default_layout(&ir);
    let bin = match amd::compile(&ir, &layout) {
        Ok(b) => b,
        Err(amd::BackendError::Unsupported(_)) => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    let mut want = case.res.clone();
    if let Err(e) = interp::run(&ir, groups, &mut want) {
        // Shapes beyond the shader's buffers: the interpreter refuses out-of-bounds accesses
        // (the GPU would drop them), so there is no oracle for this shape.
        if groups != case.groups && matches!(e, interp::InterpError::OutOfBounds { .. }) {
            return Ok(());
        }
        return Err(format!("interpreter: {e}"));
    }
    let got =
        gpu.run(&bin, &layout, groups, &case.res).map_err(|e| format!("{e}\n{}", bin.isa_text))?;
    for (i, (w, g)) in want.buffers.iter().zip(&got.buffers).enumerate() {
        if w.data != g.data {
            let first = w.data.iter().zip(&g.data).position(|(a, b)| a != b).unwrap_or(0) / 4 * 4;
            return Err(format!(
                "buffer {i} (set {} binding {}) differs first at byte {first}: want {:02x?} got {:02x?}\n{}",
                w.set,
                w.binding,
                &w.data[first..(first + 16).min(w.data.len())],
                &g.data[first..(first + 16).min(g.data.len())],
                bin.isa_text
            ));
        }
    }
    for (i, (w, g)) in want.globals.iter().zip(&got.globals).enumerate() {
        if w.data != g.data {
            return Err(format!("global buffer {i} differs\n{}", bin.isa_text));
        }
    }
    Ok(())
}

/// Shaders whose result depends on the order in which invocations run, so the interpreter's
/// order is no oracle: `atomics_shared` mixes atomicAdd and atomicMax on `hist[3]` between
/// invocations with no ordering, so add-then-max per invocation (interpreter) and all adds then
/// all maxes (one wave) give different, equally valid, sums.
const ORDER_DEPENDENT: &[&str] = &["atomics_shared"];

#[test]
fn corpus_runs_on_the_simulator_like_the_interpreter() {
    let gpu = Gpu::new();
    let mut failures = Vec::new();
    for case in common::all_cases() {
        if ORDER_DEPENDENT.contains(&case.name.as_str()) {
            continue;
        }
        // The case's own dispatch shape, a single workgroup, and more groups in y and z.
        let g = case.groups;
        for groups in [g, [1, 1, 1], [g[0], g[1] + 1, g[2] + 1]] {
            if let Err(e) = check(&gpu, &case, groups) {
                failures.push(format!("{} {groups:?}: {e}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
