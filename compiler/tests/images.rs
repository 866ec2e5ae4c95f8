//! Image shaders (tests/image_corpus): every pass preserves what the interpreter computes, byte
//! for byte, in buffers and images; the backend selects them, llvm-mc reassembles the listing
//! to exactly our bytes, and the instructions each shader is written to exercise appear.
//!
//! Directives beyond the common ones (`//!` lines):
//! - `image SET BINDING float|uint|sint W H D LAYERS LEVELS INIT [ms SAMPLES]`: an image
//!   (or combined image/sampler) with texels from the fill pattern INIT;
//! - `texbuf SET BINDING float|uint|sint N INIT`: a texel buffer of N texels;
//! - `sampler SET BINDING nearest|linear mipnearest|miplinear ADDR [compare OP] [unnorm]`: a
//!   sampler, attached to the image at the same binding if there is one (combined);
//! - `isa TEXT`: the compiled listing contains TEXT.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Resources};
use ferrum_compiler::ir::validate::{validate, Expect};
use ferrum_compiler::ir::{print, Shader, Stage};
use ferrum_compiler::passes::*;
use ferrum_compiler::pipeline::optimize;

mod image_cases;

use image_cases::{load, ImageCase};

fn cases() -> Vec<ImageCase> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/image_corpus");
    let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.retain(|p| p.extension().is_some_and(|e| e == "comp"));
    paths.sort();
    paths.iter().map(|p| load(p)).collect()
}

fn run(c: &common::Case, s: &Shader) -> Resources {
    let mut res = c.res.clone();
    interp::run(s, c.groups, &mut res)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, print::shader_text(s)));
    res
}

fn check(c: &common::Case, stage: &str, s: &Shader, ex: Expect, reference: &Resources) {
    validate(s, ex)
        .unwrap_or_else(|e| panic!("{} after {stage}: {e}\n{}", c.name, print::shader_text(s)));
    let got = run(c, s);
    for (i, (a, b)) in reference.buffers.iter().zip(&got.buffers).enumerate() {
        assert!(
            a.data == b.data,
            "{}: buffer {i} differs after {stage}\n{}",
            c.name,
            print::shader_text(s)
        );
    }
    for (i, (a, b)) in reference.images.iter().zip(&got.images).enumerate() {
        assert!(
            a.texels == b.texels,
            "{}: image {i} differs after {stage}\n{}",
            c.name,
            print::shader_text(s)
        );
    }
}

#[test]
fn every_pass_preserves_image_results() {
    let cases = cases();
    assert!(cases.len() >= 8, "image corpus has only {} shaders", cases.len());
    each_case(&cases, |ic| {
        let c = &ic.case;
        let mut s = ferrum_compiler::spirv::to_ir(&c.words, "main", Stage::Compute, &c.spec)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let reference = run(c, &s);
        // The shader must have done something observable.
        assert!(
            reference.buffers.iter().zip(&c.res.buffers).any(|(a, b)| a.data != b.data)
                || reference.images.iter().zip(&c.res.images).any(|(a, b)| a.texels != b.texels),
            "{}: the shader changes nothing",
            c.name
        );
        let mut ex = Expect::default();
        inline_functions::inline_functions(&mut s).unwrap();
        ex.inlined = true;
        check(c, "inline_functions", &s, ex, &reference);
        lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
        check(c, "lower_vars_to_ssa", &s, ex, &reference);
        optimize(&mut s, ex).unwrap();
        check(c, "optimize", &s, ex, &reference);
        lower_system_values::lower_system_values(&mut s);
        lower_explicit_io::lower_explicit_io(&mut s);
        ex.explicit_io_lowered = true;
        check(c, "lower_explicit_io", &s, ex, &reference);
        lower_image_handles::lower_image_handles(&mut s);
        check(c, "lower_image_handles", &s, ex, &reference);
        optimize(&mut s, ex).unwrap();
        opt_licm::opt_licm(&mut s);
        check(c, "optimize (lowered)", &s, ex, &reference);
        let full =
            ferrum_compiler::compile_to_ir(&c.words, "main", Stage::Compute, &c.spec).unwrap();
        check(c, "compile_to_ir", &full, ex, &reference);
    });
}

/// textureProj* divides the coordinates and the depth reference by q:
/// image_corpus/projective.comp writes each projective result next to the plain call on
/// divided coordinates.
#[test]
fn projective_sampling_divides_by_q() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/image_corpus/projective.comp");
    let c = load(&path).case;
    let s = ferrum_compiler::compile_to_ir(&c.words, "main", Stage::Compute, &c.spec).unwrap();
    let got = run(&c, &s);
    let texels: Vec<&[u8]> = got.buffers[0].data.chunks(16).collect();
    let nonzero = texels.iter().filter(|t| t.iter().any(|&b| b != 0)).count();
    assert!(nonzero > texels.len() / 2, "{nonzero} of {} texels written", texels.len());
    for (k, pair) in texels.chunks(2).enumerate() {
        assert_eq!(pair[0], pair[1], "lane {} slot {}", k / 6, 2 * (k % 6));
    }
}

/// Runs `f` on every case, then fails naming every case that failed.
fn each_case(cases: &[ImageCase], f: impl Fn(&ImageCase)) {
    let mut failed = Vec::new();
    for ic in cases {
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(ic))).is_err() {
            failed.push(ic.case.name.clone());
        }
    }
    assert!(failed.is_empty(), "failed: {failed:?}");
}

fn llvm_mc_bytes(text: &str) -> Vec<u8> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc is required (apt install llvm)");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "llvm-mc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut bytes = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(enc) = line.split("encoding: [").nth(1) else { continue };
        for b in enc.trim_end_matches(']').split(',') {
            bytes.push(u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap());
        }
    }
    bytes
}

#[test]
fn image_shaders_compile_and_reassemble_with_llvm_mc() {
    each_case(&cases(), |ic| {
        let c = &ic.case;
        let ir = ferrum_compiler::compile_to_ir(&c.words, "main", Stage::Compute, &c.spec)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let bin = amd::compile(&ir, &amd::default_layout(&ir))
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, print::shader_text(&ir)));
        let text: String = bin.isa_text.lines().map(|l| format!("{l}\n")).collect();
        assert_eq!(llvm_mc_bytes(&text), bin.code, "{}: llvm-mc disagrees\n{text}", c.name);
        for want in &ic.isa {
            assert!(text.contains(want.as_str()), "{}: no `{want}` in\n{text}", c.name);
        }
    });
}
