//! The kernel's ioctl interface, transcribed from `drm.h` and `amdgpu_drm.h`.
//!
//! Every struct is `#[repr(C)]` with exactly the fields, order and padding of the C header, so a
//! pointer to it can be handed to the real kernel. C unions stay Rust unions (`in_`/`out`
//! overlays) because the kernel writes its answer over the request. The layouts are checked
//! against the system headers by `tests/uapi_layout.rs`; the header version targeted is the
//! one Debian's libdrm-dev 2.4.114 ships (the kernel accepts the older, shorter structs).

mod amdgpu;
mod drm;

pub use amdgpu::*;
pub use drm::*;

/// The ioctl "type" byte of every DRM request (`'d'`).
pub const DRM_IOCTL_BASE: u64 = 0x64;
/// First driver-private ioctl number; amdgpu's requests are offsets from it.
pub const DRM_COMMAND_BASE: u64 = 0x40;

const IOC_WRITE: u64 = 1;
const IOC_READ: u64 = 2;

const fn ioc(dir: u64, nr: u64, size: usize) -> u64 {
    (dir << 30) | ((size as u64) << 16) | (DRM_IOCTL_BASE << 8) | nr
}

/// `_IOW('d', nr, T)`: the kernel only reads the argument.
pub const fn drm_iow<T>(nr: u64) -> u64 {
    ioc(IOC_WRITE, nr, core::mem::size_of::<T>())
}

/// `_IOWR('d', nr, T)`: the kernel reads the argument and writes its answer back.
pub const fn drm_iowr<T>(nr: u64) -> u64 {
    ioc(IOC_READ | IOC_WRITE, nr, core::mem::size_of::<T>())
}

/// The ioctl number (`nr`, bits 7:0) of a request.
pub const fn ioctl_nr(request: u64) -> u64 {
    request & 0xff
}

/// The argument size (bits 29:16) encoded in a request.
pub const fn ioctl_size(request: u64) -> usize {
    ((request >> 16) & 0x3fff) as usize
}
