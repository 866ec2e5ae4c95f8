//! SPIR-V to RDNA2 shader compiler.
