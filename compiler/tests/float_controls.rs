//! SPV_KHR_float_controls in the compiler: the execution modes land in RSRC1's FLOAT_MODE,
//! the simulator rounds and flushes as the mode says, and constant folding (host
//! arithmetic: nearest even, denormals kept) leaves f32 ops alone when the mode differs.
//! Expectations are hand-computed from IEEE 754.

mod common;

use std::collections::HashMap;

use common::gpu::Gpu;
use common::spvgen::assemble;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{Buffer, Resources};
use ferrum_compiler::ir::Stage;

/// out[0] = 1 + 1.5·2^-24 (0.75 ulp above 1), out[1] = 2^-127 · 2 (a denormal input),
/// out[2] = a + b and out[3] = a * b from the input buffer (not constants), with the given
/// execution modes.
fn module(modes: &[&str]) -> String {
    let mut s = String::from("OpCapability Shader\n");
    for m in modes {
        s += &format!("OpCapability {m}\n");
    }
    s += "OpExtension \"SPV_KHR_float_controls\"\nOpMemoryModel Logical GLSL450\n\
          OpEntryPoint GLCompute %main \"main\" %out %in\nOpExecutionMode %main LocalSize 1 1 1\n";
    for m in modes {
        s += &format!("OpExecutionMode %main {m} 32\n");
    }
    s += "OpDecorate %arr ArrayStride 4\nOpMemberDecorate %S 0 Offset 0\nOpDecorate %S Block\n\
          OpDecorate %out DescriptorSet 0\nOpDecorate %out Binding 1\n\
          OpDecorate %in DescriptorSet 0\nOpDecorate %in Binding 0\n\
          %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n\
          %u32 = OpTypeInt 32 0\n%arr = OpTypeRuntimeArray %f32\n%S = OpTypeStruct %arr\n\
          %pS = OpTypePointer StorageBuffer %S\n%pf = OpTypePointer StorageBuffer %f32\n\
          %out = OpVariable %pS StorageBuffer\n%in = OpVariable %pS StorageBuffer\n\
          %c0 = OpConstant %u32 0\n%c1 = OpConstant %u32 1\n%c2 = OpConstant %u32 2\n\
          %c3 = OpConstant %u32 3\n%one = OpConstant %f32 1\n%tiny = OpConstant %f32 0x1.8p-24\n\
          %half_min = OpConstant %f32 0x1p-127\n%two = OpConstant %f32 2\n\
          %main = OpFunction %void None %fn\n%entry = OpLabel\n\
          %s = OpFAdd %f32 %one %tiny\n%m = OpFMul %f32 %half_min %two\n\
          %pa = OpAccessChain %pf %in %c0 %c0\n%a = OpLoad %f32 %pa\n\
          %pb = OpAccessChain %pf %in %c0 %c1\n%b = OpLoad %f32 %pb\n\
          %ab = OpFAdd %f32 %a %b\n%mb = OpFMul %f32 %a %b\n\
          %p0 = OpAccessChain %pf %out %c0 %c0\nOpStore %p0 %s\n\
          %p1 = OpAccessChain %pf %out %c0 %c1\nOpStore %p1 %m\n\
          %p2 = OpAccessChain %pf %out %c0 %c2\nOpStore %p2 %ab\n\
          %p3 = OpAccessChain %pf %out %c0 %c3\nOpStore %p3 %mb\n\
          OpReturn\nOpFunctionEnd\n";
    s
}

/// FLOAT_MODE and the four results on the simulator; inputs a = 2^-126, b = -2^-127.
fn run(modes: &[&str]) -> (u32, [u32; 4]) {
    run_module(&module(modes), modes)
}

/// [`run`] of module text `text`.
fn run_module(text: &str, modes: &[&str]) -> (u32, [u32; 4]) {
    let words = assemble(text, &modes.join("-"));
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &HashMap::new())
        .expect("front end");
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).expect("backend");
    let input: Vec<u8> =
        [0x0080_0000u32, 0x8040_0000].iter().flat_map(|w| w.to_le_bytes()).collect();
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: input },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0xee; 16] },
        ],
        ..Default::default()
    };
    let got = Gpu::new().run(&bin, &layout, [1, 1, 1], &res).expect("simulator");
    let out = &got.buffers[1].data;
    let w = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
    (bin.metadata.rsrc1 >> 12 & 0xff, [w(0), w(1), w(2), w(3)])
}

#[test]
fn defaults_round_to_nearest_and_keep_denormals() {
    let (mode, out) = run(&[]);
    assert_eq!(mode, 0xf0);
    // 1 + 0.75 ulp rounds up; 2^-127 · 2 = 2^-126; 2^-126 - 2^-127 = 2^-127 (denormal);
    // 2^-126 · -2^-127 underflows to -0.
    assert_eq!(out, [0x3f80_0001, 0x0080_0000, 0x0040_0000, 0x8000_0000]);
    let (mode, out2) = run(&["DenormPreserve", "RoundingModeRTE"]);
    assert_eq!((mode, out2), (0xf0, out), "the declared defaults change nothing");
}

#[test]
fn toward_zero_truncates_folded_and_computed_sums() {
    let (mode, out) = run(&["RoundingModeRTZ"]);
    assert_eq!(mode, 0xf3, "FP_ROUND f32 = 3");
    assert_eq!(out, [0x3f80_0000, 0x0080_0000, 0x0040_0000, 0x8000_0000]);
}

#[test]
fn flush_to_zero_flushes_denormal_inputs_and_results() {
    let (mode, out) = run(&["DenormFlushToZero"]);
    assert_eq!(mode, 0xc0, "FP_DENORM f32 = 0, f16/f64 kept");
    // The constant 2^-127 is flushed before the multiply; b = -2^-127 flushes to -0, so
    // a + b = 2^-126; the product is -0 either way.
    assert_eq!(out, [0x3f80_0001, 0, 0x0080_0000, 0x8000_0000]);
}

#[test]
fn modes_not_advertised_are_refused() {
    for bad in ["DenormFlushToZero 16", "RoundingModeRTZ 64"] {
        let cap = bad.split(' ').next().unwrap();
        let text = module(&[]).replace(
            "OpExecutionMode %main LocalSize 1 1 1\n",
            &format!("OpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main {bad}\n"),
        );
        let text = text.replace("OpCapability Shader\n", &format!("OpCapability Shader\nOpCapability {cap}\nOpCapability Float16\nOpCapability Float64\n"));
        let words = assemble(&text, &bad.replace(' ', "_"));
        let err = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &HashMap::new())
            .expect_err(bad);
        assert!(err.to_string().contains("not advertised"), "{bad}: {err}");
    }
}

/// `module` with out[2] = -b and out[3] = |b| (b = -2^-127, a denormal) instead of a + b
/// and a * b.
fn sign_module(modes: &[&str]) -> String {
    module(modes)
        .replace("OpMemoryModel", "%glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel")
        .replace("%ab = OpFAdd %f32 %a %b\n", "%ab = OpFNegate %f32 %b\n")
        .replace("%mb = OpFMul %f32 %a %b\n", "%mb = OpExtInst %f32 %glsl FAbs %b\n")
}

#[test]
fn negate_and_abs_flush_a_denormal_only_under_flush_to_zero() {
    let modes = ["DenormFlushToZero"];
    let (_, out) = run_module(&sign_module(&modes), &modes);
    assert_eq!([out[2] & 0x7fff_ffff, out[3] & 0x7fff_ffff], [0, 0], "flushed: {out:x?}");
    let (_, out) = run_module(&sign_module(&[]), &[]);
    assert_eq!([out[2], out[3]], [0x0040_0000, 0x0040_0000], "kept: {out:x?}");
}
