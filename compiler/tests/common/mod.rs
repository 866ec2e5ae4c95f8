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

/// Compiles a GLSL file to SPIR-V words. Panics loudly if glslangValidator is missing.
pub fn glsl_to_spirv(path: &Path) -> Vec<u32> {
    let out = std::env::temp_dir().join(format!(
        "ferrum-{}-{}.spv",
        std::process::id(),
        path.file_name().unwrap().to_string_lossy()
    ));
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
    let _ = std::fs::remove_file(&out);
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Global buffer `i`'s base address.
pub fn global_addr(i: usize) -> u64 {
    0x10_0000_0000 + (i as u64) * 0x10_0000
}

fn fill(init: &str, words: usize) -> Vec<u8> {
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
        words: glsl_to_spirv(path),
        groups: [1, 1, 1],
        res: Resources::default(),
        spec: HashMap::new(),
    };
    let mut addr_patches = Vec::new();
    for line in src.lines() {
        let Some(d) = line.trim().strip_prefix("//!") else { continue };
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
        .filter(|p| p.extension().is_some_and(|e| e == "comp"))
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
pub mod gpu;
