//! The RDNA2 backend on the corpus: every shader either compiles or is refused with
//! `Unsupported` (never a checker or encoder failure), and the disassembly of what compiles
//! reassembles with LLVM's `llvm-mc` to exactly the bytes we emitted.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use ferrum_compiler::amd::{self, BackendError};
use ferrum_compiler::ir::Stage;

/// Assembles `text` with llvm-mc and returns the bytes of every instruction, in order.
fn llvm_mc_bytes(text: &str) -> Vec<u8> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc is required for the backend tests (apt install llvm)");
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

/// Shaders that use what the backend does not select yet (each refusal is an `Unsupported`
/// error naming the construct; see the report in the branch history).
const NOT_YET: &[&str] = &[];

#[test]
fn corpus_compiles_and_reassembles_with_llvm_mc() {
    let cases = common::all_cases();
    let mut compiled = 0;
    let mut unexpected = Vec::new();
    for case in &cases {
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        match amd::compile(&ir, &amd::default_layout(&ir)) {
            Ok(bin) => {
                compiled += 1;
                let text: String = bin.isa_text.lines().map(|l| format!("{l}\n")).collect();
                let theirs = llvm_mc_bytes(&text);
                let (code, data) = common::split_constant_data(&bin.code, theirs.len());
                assert_eq!(data, &ir.constant_data[..], "{}: constant data", case.name);
                if theirs != code {
                    let at = theirs.iter().zip(code).position(|(a, b)| a != b).unwrap_or(0);
                    let at = at / 4 * 4;
                    panic!(
                        "{}: llvm-mc assembles the listing differently at byte {at:#x}: \
                         {:02x?} vs ours {:02x?}\n{text}",
                        case.name,
                        &theirs[at..(at + 8).min(theirs.len())],
                        &code[at..(at + 8).min(code.len())]
                    );
                }
                assert_eq!(bin.stats.code_size as usize, bin.code.len());
                assert!(bin.metadata.vgprs >= 3 && bin.metadata.sgprs >= 9);
            }
            Err(BackendError::Unsupported(what)) => {
                if !NOT_YET.contains(&case.name.as_str()) {
                    unexpected.push(format!("{}: {what}", case.name));
                }
            }
            Err(e) => panic!("{}: {e}", case.name),
        }
    }
    assert!(unexpected.is_empty(), "unexpectedly unsupported:\n{}", unexpected.join("\n"));
    assert!(compiled + NOT_YET.len() >= cases.len(), "{compiled} of {} compiled", cases.len());
}

#[test]
fn register_pressure_stress_compiles_within_the_register_files() {
    // 96 values loaded before any is consumed: all live at once.
    let n = 96;
    let mut src = String::from(
        "#version 450\nlayout(local_size_x = 64) in;\n\
         layout(std430, binding = 0) buffer B { float d[]; };\nvoid main() {\n\
         uint i = gl_GlobalInvocationID.x;\n",
    );
    for k in 0..n {
        src.push_str(&format!("float a{k} = d[i * {n}u + {k}u];\n"));
    }
    for k in 0..n {
        src.push_str(&format!("d[i * {n}u + {k}u] = a{} * a{k};\n", n - 1 - k));
    }
    src.push_str("}\n");
    let dir = std::env::temp_dir().join(format!("ferrum-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stress.comp");
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let bin = amd::compile(&ir, &amd::default_layout(&ir)).unwrap();
    assert!(bin.stats.vgprs >= n, "{} VGPRs for {n} live values", bin.stats.vgprs);
    assert!(bin.stats.vgprs <= 256);
    let text: String = bin.isa_text.lines().map(|l| format!("{l}\n")).collect();
    assert_eq!(llvm_mc_bytes(&text), bin.code);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ferrum_compile_reports_bad_input_in_one_line() {
    let dir = std::env::temp_dir().join(format!("ferrum-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.spv");
    std::fs::write(&bad, [0x03u8, 0x02, 0x23, 0x07, 1, 2, 3, 4]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile")).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    let corpus = common::corpus_dir().join("ssbo_std430_basic.comp");
    let spv = dir.join("ok.spv");
    std::fs::write(
        &spv,
        common::glsl_to_spirv(&corpus).iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum-compile"))
        .args([spv.to_str().unwrap(), "--stats", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap();
    for key in
        ["instructions", "code_size", "vgprs", "sgprs", "spilled_vgprs", "lds_size", "compile_ms"]
    {
        assert!(last.contains(&format!("\"{key}\":")), "{last}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
