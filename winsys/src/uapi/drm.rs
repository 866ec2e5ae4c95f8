//! Generic DRM core ioctls: version, capabilities, GEM close, PRIME and sync objects.

use super::{drm_iow, drm_iowr};

/// `struct drm_version`: driver name/date/description are copied into caller buffers.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DrmVersion {
    pub version_major: i32,
    pub version_minor: i32,
    pub version_patchlevel: i32,
    pub name_len: usize,
    pub name: *mut u8,
    pub date_len: usize,
    pub date: *mut u8,
    pub desc_len: usize,
    pub desc: *mut u8,
}

impl Default for DrmVersion {
    fn default() -> Self {
        Self {
            version_major: 0,
            version_minor: 0,
            version_patchlevel: 0,
            name_len: 0,
            name: core::ptr::null_mut(),
            date_len: 0,
            date: core::ptr::null_mut(),
            desc_len: 0,
            desc: core::ptr::null_mut(),
        }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmGetCap {
    pub capability: u64,
    pub value: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmGemClose {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmPrimeHandle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjCreate {
    pub handle: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjDestroy {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjHandle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjTransfer {
    pub src_handle: u32,
    pub dst_handle: u32,
    pub src_point: u64,
    pub dst_point: u64,
    pub flags: u32,
    pub pad: u32,
}

/// `struct drm_syncobj_wait`; `handles` points to `count_handles` u32 handles and the
/// timeout is an absolute CLOCK_MONOTONIC time in nanoseconds.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjWait {
    pub handles: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

/// `struct drm_syncobj_timeline_wait`; `points` points to one u64 point per handle.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjTimelineWait {
    pub handles: u64,
    pub points: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjArray {
    pub handles: u64,
    pub count_handles: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmSyncobjTimelineArray {
    pub handles: u64,
    pub points: u64,
    pub count_handles: u32,
    pub flags: u32,
}

pub const DRM_IOCTL_VERSION: u64 = drm_iowr::<DrmVersion>(0x00);
pub const DRM_IOCTL_GEM_CLOSE: u64 = drm_iow::<DrmGemClose>(0x09);
pub const DRM_IOCTL_GET_CAP: u64 = drm_iowr::<DrmGetCap>(0x0c);
pub const DRM_IOCTL_PRIME_HANDLE_TO_FD: u64 = drm_iowr::<DrmPrimeHandle>(0x2d);
pub const DRM_IOCTL_PRIME_FD_TO_HANDLE: u64 = drm_iowr::<DrmPrimeHandle>(0x2e);
pub const DRM_IOCTL_SYNCOBJ_CREATE: u64 = drm_iowr::<DrmSyncobjCreate>(0xbf);
pub const DRM_IOCTL_SYNCOBJ_DESTROY: u64 = drm_iowr::<DrmSyncobjDestroy>(0xc0);
pub const DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD: u64 = drm_iowr::<DrmSyncobjHandle>(0xc1);
pub const DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE: u64 = drm_iowr::<DrmSyncobjHandle>(0xc2);
pub const DRM_IOCTL_SYNCOBJ_WAIT: u64 = drm_iowr::<DrmSyncobjWait>(0xc3);
pub const DRM_IOCTL_SYNCOBJ_RESET: u64 = drm_iowr::<DrmSyncobjArray>(0xc4);
pub const DRM_IOCTL_SYNCOBJ_SIGNAL: u64 = drm_iowr::<DrmSyncobjArray>(0xc5);
pub const DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT: u64 = drm_iowr::<DrmSyncobjTimelineWait>(0xca);
pub const DRM_IOCTL_SYNCOBJ_QUERY: u64 = drm_iowr::<DrmSyncobjTimelineArray>(0xcb);
pub const DRM_IOCTL_SYNCOBJ_TRANSFER: u64 = drm_iowr::<DrmSyncobjTransfer>(0xcc);
pub const DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL: u64 = drm_iowr::<DrmSyncobjTimelineArray>(0xcd);

pub const DRM_CAP_SYNCOBJ: u64 = 0x13;
pub const DRM_CAP_SYNCOBJ_TIMELINE: u64 = 0x14;

pub const DRM_CLOEXEC: u32 = libc::O_CLOEXEC as u32;
pub const DRM_RDWR: u32 = libc::O_RDWR as u32;

pub const DRM_SYNCOBJ_CREATE_SIGNALED: u32 = 1 << 0;
pub const DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE: u32 = 1 << 0;
pub const DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE: u32 = 1 << 0;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL: u32 = 1 << 0;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT: u32 = 1 << 1;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE: u32 = 1 << 2;
pub const DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED: u32 = 1 << 0;
