//! Thin `extern "system"` entry points, one file per object family.
//!
//! The safety contract of every function here is the Vulkan valid-usage rules of the command
//! it implements, so the individual `# Safety` sections are left out.
//!
//! Each function converts raw pointers and handles into references, calls the safe code in
//! `core`, and writes results back, all inside an `entry::guard` so that errors become
//! `VkResult`s and panics stop here. `pAllocator` is accepted everywhere and not yet honoured:
//! all driver memory comes from the Rust global allocator.

#![allow(clippy::missing_safety_doc)]

pub mod buffer;
pub mod device;
pub mod instance;
pub mod memory;
pub mod out;
pub mod physical_device;
pub mod sync;

use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};

/// The object behind a handle that must not be null.
///
/// # Safety
/// As for [`VkObject::from_handle`].
pub(crate) unsafe fn obj<'a, T: VkObject>(handle: T::Handle) -> VkResult<&'a T> {
    // SAFETY: forwarded to the caller.
    unsafe { T::from_handle(handle) }.ok_or(VkError::InvalidUsage("null handle"))
}

/// A reference from a pointer that must not be null.
///
/// # Safety
/// A non-null `ptr` must point to a valid `T` that outlives the reference.
pub(crate) unsafe fn reference<'a, T>(ptr: *const T) -> VkResult<&'a T> {
    // SAFETY: forwarded to the caller.
    unsafe { ptr.as_ref() }.ok_or(VkError::InvalidUsage("null pointer"))
}

/// A mutable reference from an output pointer that must not be null.
///
/// # Safety
/// A non-null `ptr` must point to writable memory for a `T`.
pub(crate) unsafe fn output<'a, T>(ptr: *mut T) -> VkResult<&'a mut T> {
    // SAFETY: forwarded to the caller.
    unsafe { ptr.as_mut() }.ok_or(VkError::InvalidUsage("null output pointer"))
}
