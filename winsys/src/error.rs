//! Errors of the safe winsys API, with the kernel's errno translated where it has a meaning
//! the driver acts on (out of memory, timeout, lost context).

use std::path::PathBuf;

use crate::kernel::Errno;

/// Why a context is unusable, as the kernel reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LostReason {
    /// This context's own work hung or faulted.
    Guilty,
    /// Another context's fault reset the GPU.
    Innocent,
    /// A reset happened but the kernel cannot say whose it was.
    Unknown,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{op}: {errno}")]
    Ioctl { op: &'static str, errno: Errno },
    #[error("cannot open {path}: {source}")]
    Open { path: PathBuf, source: std::io::Error },
    #[error("{path} is driven by {driver}, not amdgpu")]
    NotAmdgpu { path: PathBuf, driver: String },
    #[error("amdgpu DRM interface {major}.{minor} is too old (need 3.27)")]
    KernelTooOld { major: i32, minor: i32 },
    #[error("out of memory")]
    OutOfMemory,
    #[error("GPU context lost ({0:?})")]
    ContextLost(LostReason),
    #[error("timed out")]
    Timeout,
    #[error("invalid argument: {0}")]
    InvalidArgument(&'static str),
    #[error("GPU virtual address space exhausted")]
    VaExhausted,
}

impl Error {
    /// Generic translation of an ioctl failure.
    pub(crate) fn ioctl(op: &'static str, errno: Errno) -> Error {
        match errno {
            Errno::ENOMEM | Errno::ENOSPC => Error::OutOfMemory,
            _ => Error::Ioctl { op, errno },
        }
    }
}

pub type Result<T, E = Error> = core::result::Result<T, E>;
