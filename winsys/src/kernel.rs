//! The seam between the driver and a kernel: three calls, exactly what a render node offers.
//!
//! Everything above this trait (BOs, VA, contexts, submission, syncobjs) is written once and
//! talks to a kernel only through `ioctl`/`mmap`/`munmap` with the real request numbers and
//! argument structs from [`crate::uapi`]. The real render node passes them to Linux; the
//! simulator (`ferrum-sim`) decodes them the way amdgpu does. Keeping the seam this low means
//! the simulator exercises the same marshalling code a real GPU would.

use core::ffi::c_void;
use core::fmt;

/// A kernel error number (positive, as in `errno`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Errno(pub i32);

impl Errno {
    pub const EPERM: Errno = Errno(libc::EPERM);
    pub const ENOENT: Errno = Errno(libc::ENOENT);
    pub const EINTR: Errno = Errno(libc::EINTR);
    pub const EAGAIN: Errno = Errno(libc::EAGAIN);
    pub const ENOMEM: Errno = Errno(libc::ENOMEM);
    pub const EFAULT: Errno = Errno(libc::EFAULT);
    pub const EBUSY: Errno = Errno(libc::EBUSY);
    pub const EINVAL: Errno = Errno(libc::EINVAL);
    pub const ENOSPC: Errno = Errno(libc::ENOSPC);
    pub const ENOTTY: Errno = Errno(libc::ENOTTY);
    pub const ENODATA: Errno = Errno(libc::ENODATA);
    pub const ETIME: Errno = Errno(libc::ETIME);
    pub const ECANCELED: Errno = Errno(libc::ECANCELED);
    pub const EOPNOTSUPP: Errno = Errno(libc::EOPNOTSUPP);
    pub const EBADF: Errno = Errno(libc::EBADF);

    /// The calling thread's current `errno`.
    pub fn last() -> Errno {
        Errno(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO))
    }
}

impl fmt::Debug for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Errno({}: {})", self.0, std::io::Error::from_raw_os_error(self.0))
    }
}

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", std::io::Error::from_raw_os_error(self.0))
    }
}

impl std::error::Error for Errno {}

/// An open amdgpu device file, at the level of the system calls made on it.
pub trait Kernel: Send + Sync {
    /// Issues `request` with argument `arg`, returning the ioctl's non-negative result.
    ///
    /// # Safety
    /// `arg` must point to a readable and writable value of the argument type that `request`
    /// names (its size is encoded in the request), and every user pointer inside that value must
    /// be valid for the lengths the value states, for the duration of the call.
    unsafe fn ioctl(&self, request: u64, arg: *mut c_void) -> Result<i32, Errno>;

    /// Maps `len` bytes of the object behind the fake offset that `GEM_MMAP` returned,
    /// shared and read/write, and returns the CPU address.
    fn mmap(&self, offset: u64, len: usize) -> Result<*mut u8, Errno>;

    /// Removes a mapping made by [`Kernel::mmap`].
    ///
    /// # Safety
    /// `ptr`/`len` must be exactly a mapping returned by `mmap` on this kernel, and nothing may
    /// access it afterwards.
    unsafe fn munmap(&self, ptr: *mut u8, len: usize) -> Result<(), Errno>;

    /// A short name for logs ("amdgpu /dev/dri/renderD128", "sim navi21").
    fn describe(&self) -> String;
}
