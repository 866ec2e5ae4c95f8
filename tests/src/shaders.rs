//! Shaders built at test time: GLSL with glslangValidator (the tool the compiler corpus uses),
//! cached per process, and the corpus's SPIR-V assembly with spirv-as.

use std::collections::HashMap;
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// SPIR-V words for a compute shader's GLSL source.
pub fn compute_spirv(source: &str) -> Vec<u32> {
    glsl_spirv(source, "comp")
}

/// SPIR-V words for GLSL of the stage named by glslangValidator's file extension `stage`
/// ("comp", "vert", "frag").
pub fn glsl_spirv(source: &str, stage: &str) -> Vec<u32> {
    glsl_spirv_for(source, stage, "vulkan1.0")
}

/// As [`glsl_spirv`], for glslangValidator's target environment `env` ("vulkan1.1" gives
/// SPIR-V 1.3, which subgroup operations need).
pub fn glsl_spirv_for(source: &str, stage: &str, env: &str) -> Vec<u32> {
    static CACHE: OnceLock<Mutex<HashMap<String, Vec<u32>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = format!("{stage} {env}\n{source}");
    if let Some(words) = cache.lock().unwrap().get(&key) {
        return words.clone();
    }
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ferrum-glsl-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, out) = (dir.join(format!("s.{stage}")), dir.join("s.spv"));
    std::fs::write(&src, source).unwrap();
    let run = Command::new("glslangValidator")
        .args(["-V", "--target-env", env, "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("glslangValidator (install glslang-tools)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stdout));
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let words: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    cache.lock().unwrap().insert(key, words.clone());
    words
}

/// SPIR-V assembly as a SPIR-V 1.0 module. The corpus writes it for SPIR-V 1.4+, which a
/// Vulkan 1.0 device cannot consume; the two differences these shaders touch are rewritten:
/// the StorageBuffer class and variable pointers need their extensions declared (core since
/// 1.3), and entry points list only Input/Output variables (all globals since 1.4). The
/// validation layer checks the result like any other module.
pub fn spvasm_for_vulkan_1_0(src: &str) -> Result<Vec<u32>, String> {
    let io_vars: Vec<&str> = src
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once('=')?;
            let t: Vec<&str> = rest.split_whitespace().collect();
            (t.first() == Some(&"OpVariable") && matches!(t.get(2), Some(&"Input" | &"Output")))
                .then(|| name.trim())
        })
        .collect();
    let mut extensions = Vec::new();
    if src.contains("StorageBuffer") {
        extensions.push("SPV_KHR_storage_buffer_storage_class");
    }
    if src.contains("OpCapability VariablePointers") {
        extensions.push("SPV_KHR_variable_pointers");
    }
    let mut text = String::new();
    for line in src.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        // Extensions go after the capabilities, before any OpExtInstImport or the memory model.
        if t.first() == Some(&"OpMemoryModel") || t.contains(&"OpExtInstImport") {
            for e in extensions.drain(..) {
                text.push_str(&format!("OpExtension \"{e}\"\n"));
            }
        }
        if t.first() == Some(&"OpEntryPoint") {
            // OpEntryPoint Model %fn "name" interface...
            let (head, interface) = t.split_at(4.min(t.len()));
            let kept: Vec<&str> =
                interface.iter().copied().filter(|id| io_vars.contains(id)).collect();
            text.push_str(&format!("{} {}\n", head.join(" "), kept.join(" ")));
            continue;
        }
        text.push_str(line);
        text.push('\n');
    }
    // One name per call: tests assembling in parallel threads of this process must not share
    // files (a name from the text's length let RoundingModeRTZ and RTE variants, equally long,
    // overwrite each other, so a test sometimes ran the other test's shader).
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let stem = format!("ferrum-corpus-asm-{}-{n}", std::process::id());
    let (input, output) = (dir.join(format!("{stem}.spvasm")), dir.join(format!("{stem}.spv")));
    std::fs::write(&input, &text).unwrap();
    let run = Command::new("spirv-as")
        .args(["--target-env", "vulkan1.0", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .expect("spirv-as (install spirv-tools)");
    std::fs::remove_file(&input).ok();
    if !run.status.success() {
        return Err(format!("spirv-as: {}", String::from_utf8_lossy(&run.stderr).trim()));
    }
    let bytes = std::fs::read(&output).unwrap();
    std::fs::remove_file(&output).ok();
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect())
}
