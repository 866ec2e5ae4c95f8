//! The `ferrum-compile` command: IR dump for a good module, one-line error and status 1 for
//! a bad one.

mod common;

use std::process::Command;

fn write_spv(name: &str, words: &[u32]) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("ferrum-cli-{}-{name}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn dumps_lowered_ir() {
    let words = common::glsl_to_spirv(&common::corpus_dir().join("std140_row_major.comp"));
    let p = write_spv("good", &words);
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile"))
        .arg(&p)
        .args(["--dump", "ir"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&p);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("shader compute local_size(4, 1, 1)"));
    assert!(text.contains("load_buffer"));
    assert!(!text.contains("deref_"), "lowered IR still has derefs:\n{text}");
}

#[test]
fn malformed_module_is_one_line_error() {
    let words = common::glsl_to_spirv(&common::corpus_dir().join("std140_row_major.comp"));
    let p = write_spv("bad", &words[..words.len() / 2]);
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile")).arg(&p).output().unwrap();
    let _ = std::fs::remove_file(&p);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("ferrum-compile: "));
}

#[test]
fn graphics_modules_and_debug_dump() {
    let words = common::glsl_to_spirv(&common::corpus_dir().join("../graphics/textured.frag"));
    let p = write_spv("frag", &words);
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile"))
        .arg(&p)
        .env("FERRUM_DEBUG", "ir,validate")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&p);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("shader fragment"));
    let err = String::from_utf8(out.stderr).unwrap();
    for pass in
        ["inline_functions", "lower_vars_to_ssa", "lower_io", "lower_explicit_io", "opt_cse"]
    {
        assert!(err.contains(&format!("=== after {pass}")), "no dump after {pass}");
    }
}

#[test]
fn vertex_and_fragment_isa_with_registers() {
    for (file, stage, want) in
        [("color.vert", "vert", "exp pos0"), ("color.frag", "frag", "exp mrt0")]
    {
        let words =
            common::glsl_to_spirv(&common::corpus_dir().join("../graphics/draw").join(file));
        let p = write_spv(&format!("draw-{stage}"), &words);
        let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile"))
            .args([p.to_str().unwrap(), "--stage", stage, "--dump", "isa"])
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&p);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(want) && text.contains("rsrc1"), "{text}");
    }
}

#[test]
fn vertex_input_rates_from_the_command_line() {
    let words = common::glsl_to_spirv(&common::corpus_dir().join("../graphics/draw/fetch.vert"));
    let p = write_spv("rates-vert", &words);
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile"))
            .args([p.to_str().unwrap(), "--stage", "vert", "--dump", "isa"])
            .args(extra)
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), out.stderr)
    };
    let (ok, per_vertex, _) = run(&[]);
    assert!(ok);
    // A divisor of 3 divides the instance id with one more multiply-high (the shader's own
    // gl_VertexIndex / 3 has some already); per-vertex fetches and divisor 1 need none.
    let (ok, div3, _) = run(&["--instance-rate", "1", "--instance-rate", "6:3"]);
    assert!(ok);
    let (ok, div1, _) = run(&["--instance-rate", "6"]);
    assert!(ok);
    let mul_hi = |t: &str| t.matches("v_mul_hi_u32").count();
    assert!(mul_hi(&div3) > mul_hi(&per_vertex), "{div3}");
    assert_eq!(mul_hi(&div1), mul_hi(&per_vertex), "{div1}");
    assert_ne!(div1, per_vertex);
    for bad in ["32", "x", "1:y"] {
        let (ok, _, err) = run(&["--instance-rate", bad]);
        assert!(!ok && String::from_utf8_lossy(&err).contains("--instance-rate"), "{bad}");
    }
    let _ = std::fs::remove_file(&p);
}
