//! VK_KHR_shader_float_controls through the loader, validation on: the properties Ferrum
//! reports, and f32 add/mul/int-to-float results under each execution mode it claims, on
//! denormal and rounding edges. Expectations are computed by hand from IEEE 754 (each case
//! says why); lavapipe is compared where it reports the same mode.

use std::process::Command;

use ash_loaded::{khr, vk};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{binding, compute_to_host, whole, Kernel, SetPool};
use ferrum_tests::shaders::{compute_spirv, spvasm_for_vulkan_1_0};
use ferrum_tests::{entry_with_lavapipe, Harness};

const EXT: &std::ffi::CStr = c"VK_KHR_shader_float_controls";

/// Lane k: add = a + b, mul = a * b, cvt = float(i).
const SHADER: &str = "#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B {
    float a[8]; float b[8]; int i[8]; float add[8]; float mul[8]; float cvt[8];
} buf;
void main() {
    uint k = gl_LocalInvocationID.x;
    buf.add[k] = buf.a[k] + buf.b[k];
    buf.mul[k] = buf.a[k] * buf.b[k];
    buf.cvt[k] = float(buf.i[k]);
}
";

/// One lane: inputs (bit patterns) and the results (bit patterns) with denormals preserved
/// and round-to-nearest-even, with f32 denormals flushed, and with round-toward-zero.
struct Case {
    a: u32,
    b: u32,
    i: i32,
    /// (add, mul, cvt) preserving denormals, nearest even.
    rte: [u32; 3],
    /// Flush-to-zero (inputs and results), nearest even.
    ftz: [u32; 3],
    /// Toward zero, denormals preserved.
    rtz: [u32; 3],
}

const ONE: u32 = 0x3f80_0000;
const TWO: u32 = 0x4000_0000;
/// 2^-126, the smallest normal, and 2^-127, a denormal.
const MIN_NORMAL: u32 = 0x0080_0000;
const HALF_MIN: u32 = 0x0040_0000;

const CASES: [Case; 8] = [
    // 2^-126 - 2^-127 = 2^-127, a denormal result; with flushing the denormal input is -0
    // first, so the sum is 2^-126. The product underflows to -0 in every mode.
    Case {
        a: MIN_NORMAL,
        b: 0x8040_0000,
        i: 0,
        rte: [HALF_MIN, 0x8000_0000, 0],
        ftz: [MIN_NORMAL, 0x8000_0000, 0],
        rtz: [HALF_MIN, 0x8000_0000, 0],
    },
    // A denormal input: 2^-127 + 0 and 2^-127 * 2 = 2^-126 (normal) unless the input flushes.
    Case {
        a: HALF_MIN,
        b: TWO,
        i: 1,
        rte: [TWO, MIN_NORMAL, ONE],
        ftz: [TWO, 0, ONE],
        rtz: [TWO, MIN_NORMAL, ONE],
    },
    // 2^-100 * 2^-30 = 2^-130 = 2^19 * 2^-149 (denormal result); the sum rounds to 2^-30.
    Case {
        a: 0x0d80_0000,
        b: 0x3080_0000,
        i: -1,
        rte: [0x3080_0000, 0x0008_0000, 0xbf80_0000],
        ftz: [0x3080_0000, 0, 0xbf80_0000],
        rtz: [0x3080_0000, 0x0008_0000, 0xbf80_0000],
    },
    // 1 + 0.75 ulp: nearest rounds up to 1 + 2^-23, toward zero keeps 1. 1 * 1.5·2^-24 is
    // exact. 2^24 + 3 is between 2^24 + 2 and 2^24 + 4 (a tie): nearest even gives 2^24 + 4.
    Case {
        a: ONE,
        b: 0x33c0_0000,
        i: 16_777_219,
        rte: [0x3f80_0001, 0x33c0_0000, 0x4b80_0002],
        ftz: [0x3f80_0001, 0x33c0_0000, 0x4b80_0002],
        rtz: [ONE, 0x33c0_0000, 0x4b80_0001],
    },
    // The same, negative: toward zero moves up in value.
    Case {
        a: 0xbf80_0000,
        b: 0xb3c0_0000,
        i: -16_777_219,
        rte: [0xbf80_0001, 0x33c0_0000, 0xcb80_0002],
        ftz: [0xbf80_0001, 0x33c0_0000, 0xcb80_0002],
        rtz: [0xbf80_0000, 0x33c0_0000, 0xcb80_0001],
    },
    // (1 + 2^-23) * 3 = 3 + 1.5 ulp (ulp 2^-22 in [2, 4)): a tie; nearest even takes
    // 3 + 2 ulp, toward zero 3 + 1 ulp. The sum 4 + 2^-23 is half an ulp (2^-21) below
    // a quarter ulp (2^-21) above 4: nearest even and toward zero both give 4. INT_MAX
    // = 2^31 - 1 rounds to 2^31 to nearest, to 2^31 - 128 toward zero.
    Case {
        a: 0x3f80_0001,
        b: 0x4040_0000,
        i: 0x7fff_ffff,
        rte: [0x4080_0000, 0x4040_0002, 0x4f00_0000],
        ftz: [0x4080_0000, 0x4040_0002, 0x4f00_0000],
        rtz: [0x4080_0000, 0x4040_0001, 0x4eff_ffff],
    },
    // Overflow: MAX + MAX is +inf to nearest, MAX toward zero. INT_MIN converts exactly.
    Case {
        a: 0x7f7f_ffff,
        b: 0x7f7f_ffff,
        i: i32::MIN,
        rte: [0x7f80_0000, 0x7f80_0000, 0xcf00_0000],
        ftz: [0x7f80_0000, 0x7f80_0000, 0xcf00_0000],
        rtz: [0x7f7f_ffff, 0x7f7f_ffff, 0xcf00_0000],
    },
    // The smallest denormal (2^-149) halves to a tie between 0 and 2^-149: nearest even
    // gives 0, as do toward zero and flushing; 0.5 + 2^-149 is 0.5 in every mode.
    Case {
        a: 1,
        b: 0x3f00_0000,
        i: 5,
        rte: [0x3f00_0000, 0, 0x40a0_0000],
        ftz: [0x3f00_0000, 0, 0x40a0_0000],
        rtz: [0x3f00_0000, 0, 0x40a0_0000],
    },
];

/// The shader with `OpExecutionMode %main <mode> 32` for each of `modes` (and their
/// capabilities and SPV_KHR_float_controls), through spirv-dis and spirv-as.
fn shader_with_modes(modes: &[&str]) -> Vec<u32> {
    let words = compute_spirv(SHADER);
    if modes.is_empty() {
        return words;
    }
    // A name per call: tests of this file run in parallel threads of one process.
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let path = dir.join(format!("ferrum-float-controls-{}-{n}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("spirv-dis").arg("--raw-id").arg(&path).output().expect("spirv-dis");
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut result = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("OpExtInstImport") || trimmed.contains("= OpExtInstImport") {
            result.push_str("OpExtension \"SPV_KHR_float_controls\"\n");
        }
        result.push_str(line);
        result.push('\n');
        if trimmed == "OpCapability Shader" {
            for m in modes {
                // The capability of each mode has the mode's name.
                let cap = m.split_whitespace().next().unwrap();
                result.push_str(&format!("OpCapability {cap}\n"));
            }
        }
        if trimmed.starts_with("OpExecutionMode") && trimmed.contains("LocalSize") {
            let entry = trimmed.split_whitespace().nth(1).unwrap();
            for m in modes {
                result.push_str(&format!("OpExecutionMode {entry} {m} 32\n"));
            }
        }
    }
    assert!(result.contains("OpExtension \"SPV_KHR_float_controls\""), "{result}");
    spvasm_for_vulkan_1_0(&result).unwrap()
}

/// Runs the shader with `modes` on `gpu`; returns (add, mul, cvt) bit patterns per lane.
/// Declared modes and the expectation they select.
type Variant = (&'static [&'static str], fn(&Case) -> [u32; 3]);

fn run(gpu: &Gpu, modes: &[&str]) -> Vec<[u32; 3]> {
    let d = &gpu.device;
    let buf = gpu.host_buffer(6 * 32);
    let mut input = Vec::new();
    for c in &CASES {
        input.extend(c.a.to_le_bytes());
    }
    for c in &CASES {
        input.extend(c.b.to_le_bytes());
    }
    for c in &CASES {
        input.extend(c.i.to_le_bytes());
    }
    input.resize(6 * 32, 0xee);
    buf.write(0, &input);
    let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
    let kernel = Kernel::new(d, &shader_with_modes(modes), &[&bindings], 0);
    let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
    set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(buf.buffer)]);
    gpu.run(|d, cb| {
        kernel.bind(cb, &[set.set], &[]);
        // SAFETY: a command buffer in the recording state.
        unsafe { d.cmd_dispatch(cb, 1, 1, 1) };
        compute_to_host(d, cb);
    });
    drop((set, kernel));
    let words = buf.u32s();
    gpu.destroy_buffer(buf);
    (0..8).map(|k| [words[24 + k], words[32 + k], words[40 + k]]).collect()
}

fn float_controls(
    h: &Harness,
    pd: vk::PhysicalDevice,
) -> vk::PhysicalDeviceFloatControlsProperties<'static> {
    let mut fc = vk::PhysicalDeviceFloatControlsProperties::default();
    {
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut fc);
        // The device reports Vulkan 1.0: the query is the KHR extension's.
        let p2_ext = khr::get_physical_device_properties2::Instance::new(&h.entry, &h.instance);
        // SAFETY: a live physical device and a valid output chain.
        unsafe { p2_ext.get_physical_device_properties2(pd, &mut p2) };
    }
    fc.p_next = std::ptr::null_mut();
    fc
}

#[test]
fn properties_claim_what_the_modes_deliver() {
    let h = Harness::new(true, &[khr::get_physical_device_properties2::NAME]);
    let fc = float_controls(&h, h.physical_device_named("Ferrum"));
    let t = vk::TRUE;
    // One FLOAT_MODE field for f32, one shared by f16 and f64.
    assert_eq!(fc.denorm_behavior_independence, vk::ShaderFloatControlsIndependence::TYPE_32_ONLY);
    assert_eq!(fc.rounding_mode_independence, vk::ShaderFloatControlsIndependence::TYPE_32_ONLY);
    assert_eq!(
        [
            fc.shader_denorm_preserve_float16,
            fc.shader_denorm_preserve_float32,
            fc.shader_denorm_preserve_float64
        ],
        [t, t, t]
    );
    assert_eq!(fc.shader_denorm_flush_to_zero_float32, t);
    assert_eq!(fc.shader_rounding_mode_rtz_float32, t);
    assert_eq!(fc.shader_rounding_mode_rte_float32, t);
    // Not claimed: the f16/f64 field keeps its defaults, and signed-zero/inf/NaN preservation
    // is not promised.
    assert_eq!(fc.shader_denorm_flush_to_zero_float16, vk::FALSE);
    assert_eq!(fc.shader_denorm_flush_to_zero_float64, vk::FALSE);
    assert_eq!(fc.shader_rounding_mode_rtz_float16, vk::FALSE);
    assert_eq!(fc.shader_rounding_mode_rtz_float64, vk::FALSE);
    assert_eq!(fc.shader_signed_zero_inf_nan_preserve_float32, vk::FALSE);
    h.assert_clean();
}

#[test]
fn f32_modes_round_and_flush_as_declared() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[EXT]);
    let variants: [Variant; 6] = [
        (&[], |c| c.rte),
        (&["RoundingModeRTE"], |c| c.rte),
        (&["DenormPreserve"], |c| c.rte),
        (&["DenormFlushToZero"], |c| c.ftz),
        (&["RoundingModeRTZ"], |c| c.rtz),
        (&["DenormPreserve", "RoundingModeRTZ"], |c| c.rtz),
    ];
    for (modes, want) in variants {
        let got = run(&gpu, modes);
        for (k, (c, g)) in CASES.iter().zip(&got).enumerate() {
            assert_eq!(
                *g,
                want(c),
                "modes {modes:?}, lane {k} (a {:#x}, b {:#x}, i {})",
                c.a,
                c.b,
                c.i
            );
        }
    }
    drop(gpu);
    h.assert_clean();
}

/// Flush-to-zero and toward-zero together: the flush applies to inputs and results, the
/// rounding to the rest.
#[test]
fn flush_and_toward_zero_combine() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[EXT]);
    let got = run(&gpu, &["DenormFlushToZero", "RoundingModeRTZ"]);
    for (k, (c, g)) in CASES.iter().zip(&got).enumerate() {
        let denormal_edge = k < 3;
        let want = if denormal_edge { c.ftz } else { c.rtz };
        assert_eq!(*g, want, "lane {k}");
    }
    drop(gpu);
    h.assert_clean();
}

/// Where lavapipe reports a mode too, its results on the lanes that mode decides must match.
#[test]
fn modes_lavapipe_supports_match_it() {
    let h = Harness::with_entry(
        entry_with_lavapipe(),
        true,
        &[khr::get_physical_device_properties2::NAME],
    );
    let lvp_pd = h.physical_device_named("llvmpipe");
    let lvp_fc = float_controls(&h, lvp_pd);
    let ferrum = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[EXT]);
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &[EXT]);
    let mut compared = 0;
    // (mode, lavapipe claims it, lanes whose results the mode decides)
    let modes: [(&str, u32, &[usize]); 4] = [
        ("RoundingModeRTE", lvp_fc.shader_rounding_mode_rte_float32, &[3, 4, 5, 6]),
        ("RoundingModeRTZ", lvp_fc.shader_rounding_mode_rtz_float32, &[3, 4, 5, 6]),
        ("DenormPreserve", lvp_fc.shader_denorm_preserve_float32, &[0, 1, 2, 7]),
        ("DenormFlushToZero", lvp_fc.shader_denorm_flush_to_zero_float32, &[0, 1, 2, 7]),
    ];
    for (mode, claimed, lanes) in modes {
        if claimed != vk::TRUE {
            eprintln!("lavapipe does not claim {mode} 32; hand-computed expectations only");
            continue;
        }
        let (a, b) = (run(&ferrum, &[mode]), run(&lvp, &[mode]));
        for &k in lanes {
            assert_eq!(a[k], b[k], "{mode}, lane {k}: Ferrum vs lavapipe");
        }
        compared += 1;
    }
    assert!(compared >= 1, "lavapipe claims none of the f32 modes");
    drop((ferrum, lvp));
    h.assert_clean();
}
