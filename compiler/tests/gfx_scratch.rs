//! Private arrays indexed dynamically in vertex and pixel shaders, too big for VGPRs: they
//! live in the graphics scratch ring (RSRC2.SCRATCH_EN, SPI_TMPRING_SIZE, the ring address in
//! user SGPRs and the SPI's wave offset), drawn on the simulator and compared with values
//! computed here (their code is reassembled with llvm-mc in gfx_draw.rs).

mod common;

use common::draw::{draw, H, W};
use ferrum_compiler::amd::abi::graphics::PsKey;
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary, GfxMetadata};
use ferrum_compiler::ir::Stage;

fn compile(file: &str, stage: Stage) -> GfxBinary {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), PsKey::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn vertex_shader_tables_in_scratch_place_two_triangles() {
    let vs = compile("scratch.vert", Stage::Vertex);
    let ps = compile("flat.frag", Stage::Fragment);
    let GfxMetadata::Vertex(vm) = &vs.metadata else { panic!() };
    assert_eq!(vm.rsrc2 & 1, 1, "SCRATCH_EN:\n{}", vs.isa_text);
    // `c` (96 bytes) is in the ring; the constant table `P` is in the code object's constant
    // data (opt_constant_arrays).
    assert!(vm.scratch_bytes_per_lane >= 96, "a 96-byte array");
    assert!(vs.isa_text.contains("s_getpc_b64"), "P read from the constant data:\n{}", vs.isa_text);
    assert!(vs.isa_text.contains("scratch_load"), "{}", vs.isa_text);
    let pixels = draw(&vs, &ps, 6, 1).unwrap_or_else(|e| panic!("{e}\nVS:\n{}", vs.isa_text));
    // Provoking vertices 0 and 3 read c[5] and c[2]: (i / 8, vertex / 16, 1/4, 1).
    let first = [0.625, 0.0, 0.25, 1.0];
    let second = [0.25, 0.1875, 0.25, 1.0];
    for y in 0..H {
        for x in 0..W {
            // The shared diagonal: pixel centres with x + y + 1 = W (W = H) lie on it.
            let s = x + y + 1;
            if s == W {
                continue;
            }
            let want = if s < W { first } else { second };
            assert_eq!(pixels[(y * W + x) as usize], want, "({x}, {y})");
        }
    }
}

#[test]
fn pixel_shader_arrays_in_scratch_hold_each_lanes_values() {
    let vs = compile("scratch.vert", Stage::Vertex);
    let ps = compile("scratch.frag", Stage::Fragment);
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!() };
    assert_eq!(pm.rsrc2 & 1, 1, "SCRATCH_EN:\n{}", ps.isa_text);
    assert_eq!(pm.user_sgprs().prim_mask(), 7, "PRIM_MASK after the ring address");
    let pixels = draw(&vs, &ps, 6, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let t = |i: u32, y: u32| i as f32 / 64.0 + y as f32 / 4.0;
    for y in 0..H {
        for x in 0..W {
            if x + y + 1 == W {
                continue;
            }
            let want = [t(x % 24, y), t((x + y) % 24, y), 0.5, 1.0];
            assert_eq!(pixels[(y * W + x) as usize], want, "({x}, {y})");
        }
    }
}
