//! Constant colours folded into a pixel shader's exports (amd/isel/export_values.rs) give the
//! same colour buffer as the same values converted at run time: each case draws a full-screen
//! triangle twice on the simulator, once with the colour written as constants (packed at
//! compile time for the 16-bit export formats) and once read from a flat input the vertex
//! shader wrote (converted by the packing instruction), and compares every texel's bits.
//! Values: NaN, ±infinity, f32 denormals, ±0, half overflow (65520), half denormals, norm
//! rounding ties, the 16-bit integer bounds and beyond.

mod common;

use common::draw::draw;
use ferrum_compiler::amd::abi::graphics::PsKey;
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary};
use ferrum_compiler::ir::Stage;
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as EX;

/// Float colours (GLSL expressions) covering the edges of every float export conversion.
const FLOATS: [&str; 4] = [
    "vec4(uintBitsToFloat(0x7fc00000u), uintBitsToFloat(0x7f800000u), \
     uintBitsToFloat(0xff800000u), 65520.0)",
    // An f32 denormal, -0, 1.5 * 2^-24 (a half tie), 0.5 (a unorm16 tie).
    "vec4(uintBitsToFloat(0x80000001u), -0.0, uintBitsToFloat(0x33c00000u), 0.5)",
    // A snorm16 tie, 0.25, -1, 1 + 2^-11 + 2^-23 (rounds up to nearest, down toward zero).
    "vec4(-0.5, 0.25, -1.0, uintBitsToFloat(0x3f801001u))",
    // One value in every component: one register for both halves.
    "vec4(-7.0, -7.0, -7.0, -7.0)",
];

/// Integer colours at and beyond the 16-bit bounds.
const INTS: [&str; 2] =
    ["ivec4(0x7fff, 0x8000, -0x8000, -0x8001)", "ivec4(int(0x80000000u), 0x7fffffff, -1, 0x10000)"];

fn compile_glsl(name: &str, src: &str, stage: Stage, key: PsKey) -> GfxBinary {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gfx_export_constants");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), key).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The texels of a full-screen triangle whose colour is `value` of GLSL type `ty`, written
/// as constants (`folded`) or from a flat input; and the pixel shader.
fn draw_colour(ty: &str, value: &str, fmt: u32, folded: bool, case: usize) -> (Vec<u32>, String) {
    let vs = format!(
        "#version 450
layout(location = 0) flat out {ty} v;
void main() {{
    int i = gl_VertexIndex;
    gl_Position = vec4(i == 1 ? 3.0 : -1.0, i == 2 ? 3.0 : -1.0, 0.5, 1.0);
    v = {value};
}}"
    );
    let fs = if folded {
        format!(
            "#version 450
layout(location = 0) out {ty} o;
void main() {{ o = {value}; }}"
        )
    } else {
        format!(
            "#version 450
layout(location = 0) flat in {ty} v;
layout(location = 0) out {ty} o;
void main() {{ o = v; }}"
        )
    };
    let key = PsKey { color_formats: [fmt; 8], ..PsKey::default() };
    let tag = format!("{case}_{fmt}_{folded}");
    let vs = compile_glsl(&format!("c{tag}.vert"), &vs, Stage::Vertex, key);
    let ps = compile_glsl(&format!("c{tag}.frag"), &fs, Stage::Fragment, key);
    let texels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    (texels.iter().flat_map(|t| t.map(f32::to_bits)).collect(), ps.isa_text)
}

fn check(ty: &str, values: &[&str], formats: &[u32]) {
    for &fmt in formats {
        for (case, value) in values.iter().enumerate() {
            let (folded, isa) = draw_colour(ty, value, fmt, true, case);
            let (converted, _) = draw_colour(ty, value, fmt, false, case);
            assert_eq!(folded[..4], converted[..4], "{value} in format {fmt}\n{isa}");
            assert!(folded == converted, "{value} in format {fmt}: texels differ\n{isa}");
            // Every texel is covered (the first pixel is not a left-over clear).
            assert!(folded.chunks(4).all(|t| t == &folded[..4]), "{value} in format {fmt}");
            // Nothing is converted at run time, and nothing moved twice.
            assert!(!isa.contains("v_cvt_pk"), "{value} in format {fmt} not folded:\n{isa}");
            let moves = isa.matches("v_mov_b32").count();
            let distinct = if case == 3 { 1 } else { 4 };
            assert!(moves <= distinct, "{value} in format {fmt}: {moves} moves\n{isa}");
        }
    }
}

#[test]
fn constant_float_colours_fold_into_every_float_export_format() {
    let formats = [
        EX::SPI_SHADER_FP16_ABGR,
        EX::SPI_SHADER_UNORM16_ABGR,
        EX::SPI_SHADER_SNORM16_ABGR,
        EX::SPI_SHADER_32_ABGR,
        EX::SPI_SHADER_32_GR,
    ];
    check("vec4", &FLOATS, &formats);
}

#[test]
fn constant_integer_colours_fold_into_the_integer_export_formats() {
    let formats = [EX::SPI_SHADER_UINT16_ABGR, EX::SPI_SHADER_SINT16_ABGR, EX::SPI_SHADER_32_ABGR];
    check("ivec4", &INTS, &formats);
}
