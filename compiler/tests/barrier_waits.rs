//! Barriers wait only for the memory their semantics name: `barrier()` for shared memory
//! (lgkmcnt), `memoryBarrierBuffer()` for device memory too (vmcnt and vscnt).

mod common;

const SRC: &str = "#version 450\nlayout(local_size_x = 64) in;\n\
    layout(std430, binding = 0) buffer B { uint d[]; };\nshared uint t[64];\n";

#[test]
fn a_shared_memory_barrier_waits_for_lds_only() {
    let text = common::listing(
        "shared",
        &format!("{SRC}void main() {{ uint l = gl_LocalInvocationID.x; t[l] = d[l]; barrier(); d[l] = t[63u - l]; }}\n"),
    );
    let before: Vec<&str> = text.lines().take_while(|l| !l.starts_with("s_barrier")).collect();
    let wait = before.iter().rev().find(|l| l.starts_with("s_waitcnt")).expect("a wait");
    assert!(wait.contains("lgkmcnt(0)") && !wait.contains("vmcnt"), "{text}");
    assert!(!text.contains("s_waitcnt_vscnt"), "{text}");
}

#[test]
fn a_buffer_memory_barrier_waits_for_device_memory() {
    let text = common::listing(
        "buffer",
        &format!("{SRC}void main() {{ uint l = gl_LocalInvocationID.x; d[l] = l; memoryBarrierBuffer(); barrier(); d[64u + l] = d[63u - l]; }}\n"),
    );
    assert!(text.contains("s_waitcnt_vscnt null, 0x0"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("s_waitcnt") && l.contains("vmcnt(0)")), "{text}");
}
