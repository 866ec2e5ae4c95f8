//! The amdgpu kernel interface: UAPI types, the `Kernel` trait and a safe API over it.
