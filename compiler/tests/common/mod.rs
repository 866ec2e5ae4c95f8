//! Test helpers: compile the GLSL corpus with glslangValidator and build interpreter inputs
//! from `//!` directives in each shader.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use ferrum_compiler::interp::{Buffer, GlobalBuffer, Resources};

/// One corpus shader with its inputs.
pub struct Case {
    pub name: String,
    pub words: Vec<u32>,
    pub groups: [u32; 3],
    pub res: Resources,
    pub spec: HashMap<u32, u64>,
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Compiles a GLSL file to SPIR-V words with glslangValidator (panics loudly if it is
/// missing). Results are cached under the cargo test temp dir, keyed by the source text, so
/// the test binaries share one compilation of the corpus.
pub fn glsl_to_spirv(path: &Path) -> Vec<u32> {
    use std::hash::{Hash, Hasher};
    let src = std::fs::read(path).unwrap();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    src.hash(&mut h);
    let cache_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("glsl-cache");
    let _ = std::fs::create_dir_all(&cache_dir);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let cached = cache_dir.join(format!("{name}-{:016x}.spv", h.finish()));
    if let Ok(bytes) = std::fs::read(&cached) {
        return words_of(&bytes);
    }
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = cache_dir.join(format!("tmp-{}-{seq}-{name}.spv", std::process::id()));
    let st = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.2", "-o"])
        .arg(&out)
        .arg(path)
        .output()
        .expect("glslangValidator is required for the compiler tests (apt install glslang-tools)");
    assert!(
        st.status.success(),
        "glslangValidator failed on {}:\n{}",
        path.display(),
        String::from_utf8_lossy(&st.stdout)
    );
    let bytes = std::fs::read(&out).unwrap();
    // Rename is atomic, so concurrent test binaries never see a partial file.
    let _ = std::fs::rename(&out, &cached);
    words_of(&bytes)
}

/// GLSL source text (a test's own shader) to SPIR-V words: written to a private temporary
/// file named `name` (its extension gives the stage) and compiled by [`glsl_to_spirv`].
pub fn glsl_source_to_spirv(name: &str, src: &str) -> Vec<u32> {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ferrum-src-{}-{seq}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let words = glsl_to_spirv(&path);
    std::fs::remove_dir_all(&dir).ok();
    words
}

/// GLSL source text to lowered, optimized IR of `stage` (panics naming `name` on errors).
pub fn glsl_source_to_ir(
    name: &str,
    src: &str,
    stage: ferrum_compiler::ir::Stage,
) -> ferrum_compiler::ir::Shader {
    let words = glsl_source_to_spirv(name, src);
    ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Assembles SPIR-V assembly with spirv-as. Panics loudly if it is missing.
pub fn spvasm_to_spirv(path: &Path) -> Vec<u32> {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!("ferrum-{}-{seq}-asm.spv", std::process::id()));
    let st = Command::new("spirv-as")
        .args(["--target-env", "vulkan1.2", "-o"])
        .arg(&out)
        .arg(path)
        .output()
        .expect("spirv-as is required for the compiler tests (apt install spirv-tools)");
    assert!(
        st.status.success(),
        "spirv-as failed on {}:\n{}",
        path.display(),
        String::from_utf8_lossy(&st.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Global buffer `i`'s base address.
pub fn global_addr(i: usize) -> u64 {
    0x10_0000_0000 + (i as u64) * 0x10_0000
}

/// `words` 32-bit words of the named pattern (`zero`, `ramp`, `framp`, `rand`, `frand`, `bytes`).
pub fn fill(init: &str, words: usize) -> Vec<u8> {
    let mut seed = 0x1234_5678u32;
    let mut out = Vec::with_capacity(words * 4);
    for i in 0..words {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let w: u32 = match init {
            "zero" => 0,
            "ramp" => i as u32,
            "framp" => (i as f32 * 0.5 + 1.0).to_bits(),
            "rand" => (seed >> 8) % 1000,
            "frand" => (((seed >> 8) % 64) as f32 / 8.0 - 4.0).to_bits(),
            "bytes" => u32::from_le_bytes([
                (4 * i) as u8,
                (4 * i + 1) as u8,
                (4 * i + 2) as u8,
                (4 * i + 3) as u8,
            ]),
            other => panic!("unknown init {other}"),
        };
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Parses a corpus shader's directives.
pub fn load_case(path: &Path) -> Case {
    let src = std::fs::read_to_string(path).unwrap();
    let mut case = Case {
        name: path.file_stem().unwrap().to_string_lossy().into_owned(),
        words: if path.extension().is_some_and(|e| e == "spvasm") {
            spvasm_to_spirv(path)
        } else {
            glsl_to_spirv(path)
        },
        groups: [1, 1, 1],
        res: Resources::default(),
        spec: HashMap::new(),
    };
    let mut addr_patches = Vec::new();
    for line in src.lines() {
        let Some(d) = line.trim().strip_prefix("//!").or_else(|| line.trim().strip_prefix(";!"))
        else {
            continue;
        };
        let t: Vec<&str> = d.split_whitespace().collect();
        let n =
            |i: usize| -> u64 { t[i].parse().unwrap_or_else(|_| panic!("bad directive {line}")) };
        match t[0] {
            "groups" => case.groups = [n(1) as u32, n(2) as u32, n(3) as u32],
            "buf" => case.res.buffers.push(Buffer {
                set: n(1) as u32,
                binding: n(2) as u32,
                index: if t.len() > 5 { n(5) as u32 } else { 0 },
                data: fill(t[3], n(4) as usize),
            }),
            "push" => case.res.push = fill(t[1], n(2) as usize),
            "global" => case.res.globals.push(GlobalBuffer {
                addr: global_addr(n(1) as usize),
                data: fill(t[2], n(3) as usize),
            }),
            "pushaddr" => addr_patches.push((None, n(1) as usize, n(2) as usize)),
            "bufaddr" => {
                addr_patches.push((Some((n(1) as u32, n(2) as u32)), n(3) as usize, n(4) as usize))
            }
            "globaladdr" => {
                addr_patches.push((Some((u32::MAX, n(1) as u32)), n(2) as usize, n(3) as usize))
            }
            "spec" => {
                case.spec.insert(n(1) as u32, n(2));
            }
            // Image contents and samplers (parsed by tests/images.rs).
            "image" | "sampler" | "texbuf" | "isa" => {}
            other => panic!("unknown directive {other}"),
        }
    }
    for (target, off, gi) in addr_patches {
        let a = global_addr(gi).to_le_bytes();
        let data = match target {
            None => &mut case.res.push,
            Some((u32::MAX, g)) => &mut case.res.globals[g as usize].data,
            Some((s, b)) => {
                &mut case
                    .res
                    .buffers
                    .iter_mut()
                    .find(|x| x.set == s && x.binding == b)
                    .unwrap()
                    .data
            }
        };
        data[off..off + 8].copy_from_slice(&a);
    }
    case
}

/// Every corpus case, sorted by name.
pub fn all_cases() -> Vec<Case> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp" || e == "spvasm"))
        .collect();
    paths.sort();
    paths.iter().map(|p| load_case(p)).collect()
}

/// Reads little-endian f32 `i` of a byte buffer.
pub fn f32_at(data: &[u8], i: usize) -> f32 {
    f32::from_le_bytes(data[i * 4..i * 4 + 4].try_into().unwrap())
}

/// Reads little-endian u32 `i` of a byte buffer.
pub fn u32_at(data: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(data[i * 4..i * 4 + 4].try_into().unwrap())
}
#[allow(dead_code)]
pub mod draw;
pub mod gpu;
pub mod tri;

/// The disassembly of GLSL compute source `src` (`name` keeps concurrent tests' files apart).
#[allow(dead_code)]
pub fn listing(name: &str, src: &str) -> String {
    use ferrum_compiler::amd::{compile_spirv, default_layout};
    let path =
        std::env::temp_dir().join(format!("ferrum-listing-{}-{name}.comp", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let words = glsl_to_spirv(&path);
    let _ = std::fs::remove_file(&path);
    let none = std::collections::HashMap::new();
    let ir =
        ferrum_compiler::compile_to_ir(&words, "main", ferrum_compiler::ir::Stage::Compute, &none)
            .unwrap();
    compile_spirv(&words, "main", &none, &default_layout(&ir)).unwrap().isa_text
}
pub mod spvgen;

/// A program's bytes split into its instructions (the first `code_len` bytes: what the listing
/// shows and llvm-mc reassembles) and its constant data, checking that the data starts where
/// the backend places it (`constant_data_offset`) after zero padding. Returns the data.
pub fn split_constant_data(program: &[u8], code_len: usize) -> (&[u8], &[u8]) {
    let code_len = code_len.min(program.len());
    let (code, rest) = program.split_at(code_len);
    if rest.is_empty() {
        return (code, rest);
    }
    let pad = ferrum_compiler::amd::emit::constant_data_offset(code_len) - code_len;
    assert!(
        rest.len() > pad && rest[..pad].iter().all(|&b| b == 0),
        "after {code_len} bytes of code: {} bytes that are not zero padding and data",
        rest.len()
    );
    (code, &rest[pad..])
}
