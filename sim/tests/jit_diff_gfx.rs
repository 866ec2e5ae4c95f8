//! Pixel-shader waves on translated code against the interpreter: the same draw with
//! interpolation (VINTRP), native f32 and integer arithmetic, an EXEC-masked section and an
//! export must leave byte-identical colour targets under both engines, and the JIT engine
//! must really have translated the pixel shader.

mod common;

use common::asm::{Asm, Int, Op, EXEC, S, V, VCC};
use common::gfx::*;
use ferrum_isa::{FloatConst, Opcode, Operand};
use ferrum_regs::gfx103::*;
use ferrum_sim::jit::Engine;
use ferrum_sim::SimConfig;

const M0: Operand = Operand::Special(ferrum_isa::Special::M0);

/// Interpolates two attributes, mixes them with native VALU operations (including NaN,
/// infinity and denormal producing ones), kills half the lanes' writes through EXEC, and
/// exports.
fn shader() -> Asm {
    let mut p = Asm::new();
    p.sop1(Op::S_MOV_B32, M0, S(0));
    vintrp(&mut p, Opcode::V_INTERP_P1_F32, 4, 0, 0, 0);
    vintrp(&mut p, Opcode::V_INTERP_P2_F32, 4, 1, 0, 0);
    vintrp(&mut p, Opcode::V_INTERP_P1_F32, 5, 0, 0, 1);
    vintrp(&mut p, Opcode::V_INTERP_P2_F32, 5, 1, 0, 1);
    vintrp(&mut p, Opcode::V_INTERP_MOV_F32, 6, 2, 1, 0);
    p.vop3(Op::V_FMA_F32, V(7), [V(4), V(5), Operand::Float(FloatConst::Half)])
        .vop2(Op::V_MUL_F32, 6, V(6), 4)
        // 1e-39 (a denormal) scaled: flushing or keeping must agree.
        .vop2(Op::V_MUL_F32, 8, Operand::Literal(0x000a_e398), 7)
        .vop2(Op::V_ADD_F32, 7, V(8), 7)
        .vopc(Op::V_CMP_GT_F32, Operand::Float(FloatConst::Four), 4)
        .sop1(Op::S_MOV_B32, S(10), EXEC)
        .sop2(Op::S_AND_B32, EXEC, VCC, S(10))
        .vop1(Op::V_CVT_U32_F32, V(5), V(5))
        .vop2(Op::V_XOR_B32, 5, Int(-1), 5)
        .sop1(Op::S_MOV_B32, EXEC, S(10));
    export(&mut p, 0, [4, 5, 6, 7], false).endpgm();
    p
}

fn render(engine: Engine) -> (Vec<u8>, u64) {
    let config = SimConfig { strict: true, threads: 2, engine, ..Default::default() };
    let mut s = Scene::with_size(W, H, config);
    s.set(
        SPI_PS_IN_CONTROL,
        SPI_PS_IN_CONTROL::PS_W32_EN.val(1) | SPI_PS_IN_CONTROL::NUM_INTERP.val(2),
    );
    s.set(SPI_PS_INPUT_CNTL_0, 0);
    s.set(SPI_PS_INPUT_CNTL_0 + 4, 1 | SPI_PS_INPUT_CNTL_0::FLAT_SHADE.val(1));
    s.shader(&mut shader(), 16);
    let bits = |x: f32| x.to_bits();
    let v = |x: f32, y: f32, a: [f32; 2], flat: u32| {
        vtx(x, y, 0.5, 1.0, vec![[bits(a[0]), bits(a[1]), 0, 0], [flat, 0, 0, 0]])
    };
    let mut t = tri([
        v(1.0, 2.0, [0.0, 8.0], 0x7fc0_0000),
        v(63.0, 9.0, [9.5, -3.0], 0x7f80_0000),
        v(17.0, 62.0, [-2.0, 1e30], 0x0000_0001),
    ]);
    t.provoking = 1;
    t.flat_params = t.v[1].params.clone();
    s.fill_color(&[0x5a]);
    s.draw(vec![t]).unwrap();
    let translated =
        s.compute.stats.translated_dispatches.load(std::sync::atomic::Ordering::Relaxed);
    let n = s.color.map.len();
    let mut bytes = vec![0u8; n];
    s.color.map.read(0, &mut bytes).unwrap();
    (bytes, translated)
}

#[test]
fn pixel_shader_matches_the_interpreter() {
    let (a, ta) = render(Engine::Interp);
    let (b, tb) = render(Engine::Jit);
    assert_eq!(ta, 0, "the interpreter engine translated");
    assert!(tb > 0, "the pixel shader was not translated");
    assert!(a.chunks(16).filter(|p| p != &[0x5a; 16]).count() > 500, "too few pixels drawn");
    let diff = a.iter().zip(&b).position(|(x, y)| x != y);
    assert!(diff.is_none(), "first difference at byte {diff:?}");
}
