//! GLSL compiled to SPIR-V at test time with glslangValidator (the tool the compiler corpus
//! uses), cached per process.

use std::collections::HashMap;
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// SPIR-V words for a compute shader's GLSL source.
pub fn compute_spirv(source: &str) -> Vec<u32> {
    static CACHE: OnceLock<Mutex<HashMap<String, Vec<u32>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(words) = cache.lock().unwrap().get(source) {
        return words.clone();
    }
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ferrum-glsl-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, out) = (dir.join("s.comp"), dir.join("s.spv"));
    std::fs::write(&src, source).unwrap();
    let run = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.0", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("glslangValidator (install glslang-tools)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stdout));
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let words: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    cache.lock().unwrap().insert(source.to_string(), words.clone());
    words
}
