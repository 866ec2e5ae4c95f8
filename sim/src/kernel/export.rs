//! Sharing syncobjs through file descriptors (opaque syncobj fds and sync_file fds).
//!
//! The simulator has no kernel objects to hand out, so an exported object is represented by a
//! fresh `memfd` (a real descriptor the application can dup, pass or close) whose inode keys a
//! process-wide table. Importing looks the inode up; the table keeps exported objects alive,
//! as the open file would in the kernel.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use ferrum_winsys::{uapi, Errno};
use parking_lot::Mutex;

use super::fence::{Fence, Notifier};
use super::syncobj::Syncobj;
use super::FileState;

enum Exported {
    Syncobj(Arc<Syncobj>),
    SyncFile(Arc<Fence>),
}

static EXPORTS: LazyLock<Mutex<HashMap<u64, Exported>>> = LazyLock::new(Mutex::default);

/// The wake-up channel shared by every simulated device, so that a fence signaled on one
/// device wakes waiters that imported it on another.
pub fn global_notifier() -> Arc<Notifier> {
    static NOTIFIER: LazyLock<Arc<Notifier>> = LazyLock::new(Arc::default);
    NOTIFIER.clone()
}

fn inode(fd: i32) -> Result<u64, Errno> {
    // SAFETY: `stat` is plain data; fstat only writes it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is a valid stat buffer; an invalid fd is reported as EBADF.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(Errno::EBADF);
    }
    Ok(st.st_ino)
}

fn new_fd(what: Exported, cloexec: bool) -> Result<i32, Errno> {
    let flags = if cloexec { libc::MFD_CLOEXEC } else { 0 };
    // SAFETY: the name is a NUL-terminated string literal.
    let fd = unsafe { libc::memfd_create(c"ferrum-sim-syncobj".as_ptr(), flags) };
    if fd < 0 {
        return Err(Errno::last());
    }
    match inode(fd) {
        Ok(ino) => {
            EXPORTS.lock().insert(ino, what);
            Ok(fd)
        }
        Err(e) => {
            // SAFETY: we own `fd` and nothing else refers to it.
            unsafe { libc::close(fd) };
            Err(e)
        }
    }
}

impl FileState {
    pub(super) fn syncobj_handle_to_fd(
        &self,
        arg: &mut uapi::DrmSyncobjHandle,
    ) -> Result<i32, Errno> {
        let obj = self.syncobj(arg.handle)?;
        let what = if arg.flags & uapi::DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE != 0 {
            Exported::SyncFile(obj.fence_for(&self.notifier, 0).ok_or(Errno::EINVAL)?)
        } else if arg.flags == 0 {
            Exported::Syncobj(obj)
        } else {
            return Err(Errno::EINVAL);
        };
        arg.fd = new_fd(what, true)?;
        Ok(0)
    }

    pub(super) fn syncobj_fd_to_handle(
        &self,
        arg: &mut uapi::DrmSyncobjHandle,
    ) -> Result<i32, Errno> {
        let ino = inode(arg.fd)?;
        let exports = EXPORTS.lock();
        match (exports.get(&ino), arg.flags) {
            (Some(Exported::Syncobj(obj)), 0) => {
                arg.handle = self.insert_syncobj(obj.clone());
                Ok(0)
            }
            (
                Some(Exported::SyncFile(fence)),
                uapi::DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
            ) => {
                let fence = fence.clone();
                drop(exports);
                self.syncobj(arg.handle)?.replace(Some(fence));
                self.notifier.notify();
                Ok(0)
            }
            _ => Err(Errno::EINVAL),
        }
    }
}
