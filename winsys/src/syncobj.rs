//! DRM sync objects: what Vulkan fences and semaphores (binary and timeline) are made of.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::Duration;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::kernel::Errno;
use crate::uapi;

/// A DRM syncobj; destroyed when dropped.
#[derive(Debug)]
pub struct Syncobj {
    dev: Device,
    handle: u32,
}

/// A syncobj and a timeline point (0 = binary semantics).
#[derive(Debug, Clone, Copy)]
pub struct SyncPoint<'a> {
    pub syncobj: &'a Syncobj,
    pub point: u64,
}

/// How [`Device::wait_syncobjs`] decides it is done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WaitMode {
    /// All points must be reached (otherwise any one).
    pub all: bool,
    /// Points not yet submitted are waited for instead of being an error.
    pub for_submit: bool,
    /// Only wait until each point has a fence attached, not until it signals.
    pub available: bool,
}

impl WaitMode {
    fn flags(self) -> u32 {
        let mut f = 0;
        if self.all {
            f |= uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
        }
        if self.for_submit {
            f |= uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
        }
        if self.available {
            f |= uapi::DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
        }
        f
    }
}

fn wait_error(op: &'static str, errno: Errno) -> Error {
    if errno == Errno::ETIME {
        Error::Timeout
    } else {
        Error::ioctl(op, errno)
    }
}

impl Device {
    /// Creates a syncobj, optionally already signaled.
    pub fn create_syncobj(&self, signaled: bool) -> Result<Syncobj> {
        let flags = if signaled { uapi::DRM_SYNCOBJ_CREATE_SIGNALED } else { 0 };
        let mut arg = uapi::DrmSyncobjCreate { handle: 0, flags };
        // SAFETY: syncobj_create carries no user pointers.
        unsafe { self.ioctl(uapi::DRM_IOCTL_SYNCOBJ_CREATE, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_CREATE", e))?;
        Ok(Syncobj { dev: self.clone(), handle: arg.handle })
    }

    /// Imports a syncobj exported with [`Syncobj::export`] (possibly by another process).
    pub fn import_syncobj(&self, fd: &OwnedFd) -> Result<Syncobj> {
        let mut arg = uapi::DrmSyncobjHandle { fd: fd.as_raw_fd(), ..Default::default() };
        // SAFETY: syncobj_handle carries no user pointers.
        unsafe { self.ioctl(uapi::DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_FD_TO_HANDLE", e))?;
        Ok(Syncobj { dev: self.clone(), handle: arg.handle })
    }

    /// Waits for several points; returns the index of the first signaled one (meaningful for
    /// wait-any). `Error::Timeout` when the timeout passes.
    pub fn wait_syncobjs(
        &self,
        points: &[SyncPoint<'_>],
        mode: WaitMode,
        timeout: Option<Duration>,
    ) -> Result<usize> {
        if points.is_empty() {
            return Ok(0);
        }
        let handles: Vec<u32> = points.iter().map(|p| p.syncobj.handle).collect();
        let values: Vec<u64> = points.iter().map(|p| p.point).collect();
        let mut arg = uapi::DrmSyncobjTimelineWait {
            handles: handles.as_ptr() as u64,
            points: values.as_ptr() as u64,
            timeout_nsec: crate::time::deadline_ns(timeout),
            count_handles: handles.len() as u32,
            flags: mode.flags(),
            ..Default::default()
        };
        // SAFETY: `handles` and `points` point to `count_handles` elements each, alive for
        // the call.
        unsafe { self.ioctl(uapi::DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &mut arg) }
            .map_err(|e| wait_error("SYNCOBJ_TIMELINE_WAIT", e))?;
        Ok(arg.first_signaled as usize)
    }
}

impl Syncobj {
    pub fn handle(&self) -> u32 {
        self.handle
    }

    fn array_op(&self, request: u64, op: &'static str) -> Result<()> {
        let handles = [self.handle];
        let mut arg =
            uapi::DrmSyncobjArray { handles: handles.as_ptr() as u64, count_handles: 1, pad: 0 };
        // SAFETY: `handles` holds one element, alive for the call.
        unsafe { self.dev.ioctl(request, &mut arg) }.map_err(|e| Error::ioctl(op, e))?;
        Ok(())
    }

    /// Signals a binary syncobj (replaces its fence by a signaled one).
    pub fn signal(&self) -> Result<()> {
        self.array_op(uapi::DRM_IOCTL_SYNCOBJ_SIGNAL, "SYNCOBJ_SIGNAL")
    }

    /// Removes the fence of a binary syncobj (back to unsignaled).
    pub fn reset(&self) -> Result<()> {
        self.array_op(uapi::DRM_IOCTL_SYNCOBJ_RESET, "SYNCOBJ_RESET")
    }

    /// Signals timeline `point` from the CPU.
    pub fn signal_point(&self, point: u64) -> Result<()> {
        let handles = [self.handle];
        let points = [point];
        let mut arg = uapi::DrmSyncobjTimelineArray {
            handles: handles.as_ptr() as u64,
            points: points.as_ptr() as u64,
            count_handles: 1,
            flags: 0,
        };
        // SAFETY: both arrays hold one element, alive for the call.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_TIMELINE_SIGNAL", e))?;
        Ok(())
    }

    fn query_flags(&self, flags: u32) -> Result<u64> {
        let handles = [self.handle];
        let mut points = [0u64];
        let mut arg = uapi::DrmSyncobjTimelineArray {
            handles: handles.as_ptr() as u64,
            points: points.as_mut_ptr() as u64,
            count_handles: 1,
            flags,
        };
        // SAFETY: both arrays hold one element, alive for the call; `points` is writable.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_SYNCOBJ_QUERY, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_QUERY", e))?;
        Ok(points[0])
    }

    /// The timeline's current value (last point signaled with all before it).
    pub fn query(&self) -> Result<u64> {
        self.query_flags(0)
    }

    /// The last point submitted (signaled or not).
    pub fn query_last_submitted(&self) -> Result<u64> {
        self.query_flags(uapi::DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
    }

    /// Waits until `point` (0 = binary) signals; points not yet submitted are waited for.
    pub fn wait(&self, point: u64, timeout: Option<Duration>) -> Result<()> {
        let mode = WaitMode { all: true, for_submit: true, available: false };
        self.dev.wait_syncobjs(&[SyncPoint { syncobj: self, point }], mode, timeout).map(|_| ())
    }

    /// Whether `point` (0 = binary) has signaled, without blocking.
    pub fn is_signaled(&self, point: u64) -> Result<bool> {
        match self.wait(point, Some(Duration::ZERO)) {
            Ok(()) => Ok(true),
            Err(Error::Timeout) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Copies the fence of `src` at `src_point` into this syncobj at `dst_point`
    /// (0 = replace, binary).
    pub fn transfer_from(&self, src: &Syncobj, src_point: u64, dst_point: u64) -> Result<()> {
        let mut arg = uapi::DrmSyncobjTransfer {
            src_handle: src.handle,
            dst_handle: self.handle,
            src_point,
            dst_point,
            flags: 0,
            pad: 0,
        };
        // SAFETY: syncobj_transfer carries no user pointers.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_SYNCOBJ_TRANSFER, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_TRANSFER", e))?;
        Ok(())
    }

    /// Exports as an opaque fd (`sync_file = false`) or as a sync_file of the current fence.
    pub fn export(&self, sync_file: bool) -> Result<OwnedFd> {
        let flags =
            if sync_file { uapi::DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE } else { 0 };
        let mut arg = uapi::DrmSyncobjHandle { handle: self.handle, flags, fd: -1, pad: 0 };
        // SAFETY: syncobj_handle carries no user pointers.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_HANDLE_TO_FD", e))?;
        if arg.fd < 0 {
            return Err(Error::ioctl("SYNCOBJ_HANDLE_TO_FD", Errno::EBADF));
        }
        // SAFETY: the kernel just created this descriptor for us; we own it.
        Ok(unsafe { OwnedFd::from_raw_fd(arg.fd) })
    }
}

impl Syncobj {
    /// Replaces this syncobj's fence by the one a sync_file carries.
    pub fn import_sync_file(&self, fd: &OwnedFd) -> Result<()> {
        let mut arg = uapi::DrmSyncobjHandle {
            handle: self.handle,
            flags: uapi::DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
            fd: fd.as_raw_fd(),
            pad: 0,
        };
        // SAFETY: syncobj_handle carries no user pointers.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &mut arg) }
            .map_err(|e| Error::ioctl("SYNCOBJ_FD_TO_HANDLE", e))?;
        Ok(())
    }
}

impl Drop for Syncobj {
    fn drop(&mut self) {
        let mut arg = uapi::DrmSyncobjDestroy { handle: self.handle, pad: 0 };
        // SAFETY: syncobj_destroy carries no user pointers.
        if let Err(e) = unsafe { self.dev.ioctl(uapi::DRM_IOCTL_SYNCOBJ_DESTROY, &mut arg) } {
            log::error!("SYNCOBJ_DESTROY of {} failed: {e}", self.handle);
        }
    }
}
