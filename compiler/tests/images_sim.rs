//! End to end: image shaders whose results are exact run on the simulator's texture unit
//! (strict mode) and leave buffers and images exactly as the IR interpreter does. Images are
//! linear 32-bit-per-channel surfaces described by T#s, S#s and typed V#s the rig writes from
//! the descriptor reference (tests/common/gpu/images.rs).

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

const ON_THE_SIMULATOR: &[&str] = &[
    "sim_fetch_store",
    "sim_sample_exact",
    "sim_divergent",
    "sim_texel_buffers",
    "sim_descriptor_arrays",
    "sim_gather_extended",
];

mod image_cases;

#[test]
fn exact_image_shaders_match_the_interpreter_on_the_simulator() {
    let gpu = Gpu::new();
    let mut failed = Vec::new();
    for name in ON_THE_SIMULATOR {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/image_corpus")
            .join(format!("{name}.comp"));
        let case = image_cases::load(&path).case;
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap();
        let layout = amd::default_layout(&ir);
        let bin = amd::compile(&ir, &layout).unwrap();
        let mut want = case.res.clone();
        interp::run(&ir, case.groups, &mut want).unwrap();
        let got = match gpu.run(&bin, &layout, case.groups, &case.res) {
            Ok(g) => g,
            Err(e) => {
                failed.push(format!("{name}: {e}\n{}", bin.isa_text));
                continue;
            }
        };
        for (w, g) in want.buffers.iter().zip(&got.buffers) {
            if w.data != g.data {
                let at = w.data.iter().zip(&g.data).position(|(a, b)| a != b).unwrap_or(0) / 4 * 4;
                failed.push(format!(
                    "{name}: buffer binding {} differs at byte {at}: want {:02x?} got {:02x?}\n{}",
                    w.binding,
                    &w.data[at..(at + 16).min(w.data.len())],
                    &g.data[at..(at + 16).min(g.data.len())],
                    bin.isa_text
                ));
            }
        }
        for (w, g) in want.images.iter().zip(&got.images) {
            if w.texels != g.texels {
                let at = w.texels.iter().zip(&g.texels).position(|(a, b)| a != b).unwrap_or(0);
                failed.push(format!(
                    "{name}: image binding {} texel {at}: want {:x?} got {:x?}",
                    w.binding, w.texels[at], g.texels[at]
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
