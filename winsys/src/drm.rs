//! The real kernel: an amdgpu render node driven with `ioctl(2)` and `mmap(2)`.
//!
//! Nothing here is exercised by tests on machines without an AMD GPU beyond enumeration, so it
//! is kept to the plain system calls with libdrm's retry rule (EINTR/EAGAIN are retried).

use core::ffi::c_void;
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::kernel::{Errno, Kernel};
use crate::uapi;

/// An open render node (`/dev/dri/renderD*`).
#[derive(Debug)]
pub struct RenderNode {
    file: File,
    path: PathBuf,
}

impl RenderNode {
    /// Opens `path` and checks that the amdgpu driver is behind it.
    pub fn open(path: &Path) -> Result<RenderNode> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_CLOEXEC)
            .open(path)
            .map_err(|source| Error::Open { path: path.to_owned(), source })?;
        let node = RenderNode { file, path: path.to_owned() };
        let driver = node.driver_name()?;
        if driver != "amdgpu" {
            return Err(Error::NotAmdgpu { path: path.to_owned(), driver });
        }
        Ok(node)
    }

    /// The path this node was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kernel driver's name from `DRM_IOCTL_VERSION`.
    pub fn driver_name(&self) -> Result<String> {
        let mut name = [0u8; 64];
        let mut version = uapi::DrmVersion {
            name_len: name.len(),
            name: name.as_mut_ptr(),
            ..Default::default()
        };
        // SAFETY: `version` is a drm_version whose only user pointer is `name`, valid for
        // `name_len` bytes (date/desc have length 0).
        unsafe { self.ioctl(uapi::DRM_IOCTL_VERSION, (&raw mut version).cast()) }
            .map_err(|errno| Error::ioctl("DRM_IOCTL_VERSION", errno))?;
        let len = version.name_len.min(name.len());
        Ok(String::from_utf8_lossy(&name[..len]).into_owned())
    }
}

impl Kernel for RenderNode {
    unsafe fn ioctl(&self, request: u64, arg: *mut c_void) -> Result<i32, Errno> {
        loop {
            // SAFETY: the caller guarantees `arg` matches `request` (trait contract).
            let ret = unsafe { libc::ioctl(self.file.as_raw_fd(), request as _, arg) };
            if ret >= 0 {
                return Ok(ret);
            }
            let errno = Errno::last();
            if errno != Errno::EINTR && errno != Errno::EAGAIN {
                return Err(errno);
            }
        }
    }

    fn mmap(&self, offset: u64, len: usize) -> Result<*mut u8, Errno> {
        // SAFETY: a new shared mapping at a kernel-chosen address touches no existing memory.
        let ptr = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.file.as_raw_fd(),
                offset as libc::off_t,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(Errno::last());
        }
        Ok(ptr.cast())
    }

    unsafe fn munmap(&self, ptr: *mut u8, len: usize) -> Result<(), Errno> {
        // SAFETY: the caller guarantees this is a mapping we returned and that it is unused.
        if unsafe { libc::munmap(ptr.cast(), len) } != 0 {
            return Err(Errno::last());
        }
        Ok(())
    }

    fn describe(&self) -> String {
        format!("amdgpu {}", self.path.display())
    }
}

/// Render nodes (`/dev/dri/renderD*`) whose kernel driver is amdgpu, in name order.
pub fn enumerate_amdgpu() -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir("/dev/dri") else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = dir
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("renderD"))
        })
        .collect();
    paths.sort();
    paths.retain(|path| match RenderNode::open(path) {
        Ok(_) => true,
        Err(err) => {
            log::debug!("skipping {}: {err}", path.display());
            false
        }
    });
    paths
}
