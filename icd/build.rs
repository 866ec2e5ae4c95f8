//! Link settings of the shared library the Vulkan loader opens.

fn main() {
    // The loader unloads an ICD when its last instance goes away and may load it again later
    // (the conformance suite does so thousands of times). mimalloc, the driver's allocator,
    // leaves per-thread destructors with the C library that run when a thread exits: they
    // must still be mapped then, so the library stays loaded once loaded (as Mesa's drivers
    // that embed LLVM do, for the same kind of reason).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
}
