//! Thin `extern "system"` entry points, one file per object family.
//!
//! The safety contract of every function here is the Vulkan valid-usage rules of the command
//! it implements, so the individual `# Safety` sections are left out.
//!
//! Each function converts raw pointers and handles into references, calls the safe code in
//! `core`, and writes results back, all inside an `entry::guard` so that errors become
//! `VkResult`s and panics stop here. Each object's own storage comes from `pAllocator` (or its
//! device's callbacks) through [`child_host`] and `VkObject::into_handle_in`.

#![allow(clippy::missing_safety_doc)]

pub mod buffer;
pub mod command_pool;
pub mod commands;
pub mod compute;
pub mod descriptor;
pub mod device;
pub mod device_address;
pub mod device_group;
pub mod dynamic_state;
pub mod executable;
pub mod graphics;
pub mod graphics_pending;
pub mod image;
pub mod instance;
pub mod memory;
pub mod multi_draw;
pub mod out;
pub mod physical_device;
pub mod pipeline;
pub mod query;
pub mod queue;
pub mod sync;
pub mod transfer;
pub mod transfer2;
pub mod ycbcr;

use ash::vk;

use crate::core::device::Device;
use crate::core::host_memory::HostMemory;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};

/// Where a new child of `device` lives: `pAllocator`'s callbacks, else the device's.
///
/// # Safety
/// `device` must be a live device and `p_allocator` null or valid callbacks (valid usage).
pub(crate) unsafe fn child_host(
    device: vk::Device,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) -> VkResult<HostMemory> {
    // SAFETY: forwarded to the caller.
    let device = unsafe { obj::<Device>(device)? };
    // SAFETY: forwarded to the caller.
    Ok(unsafe { HostMemory::from_ptr(p_allocator, device.base().host()) })
}

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

/// A Vulkan array argument (pointer + count) as a slice; empty for a zero count.
///
/// Functions in this module run under the Vulkan valid-usage contract of their command (see
/// the module documentation), which guarantees that an array argument holds `count` valid
/// elements for the duration of the call; this is where that guarantee is relied upon.
pub(crate) fn array<'a, T>(ptr: *const T, count: u32) -> &'a [T] {
    // SAFETY: the valid-usage contract described above.
    unsafe { crate::core::chain::raw_slice(ptr, count) }
}

/// A mutable reference from an output pointer that must not be null.
///
/// # Safety
/// A non-null `ptr` must point to writable memory for a `T`.
pub(crate) unsafe fn output<'a, T>(ptr: *mut T) -> VkResult<&'a mut T> {
    // SAFETY: forwarded to the caller.
    unsafe { ptr.as_mut() }.ok_or(VkError::InvalidUsage("null output pointer"))
}

#[cfg(test)]
mod tests {
    use ash::vk::{self, Handle};

    use crate::core::device::DeviceShared;
    use crate::core::object::VkObject;
    use crate::core::physical_device::Adapter;
    use crate::core::sync::Fence;

    /// A handle of the wrong type is caught by the tag check (debug builds) and reported as an
    /// error at the C boundary; the object it names is left intact.
    #[test]
    #[cfg(debug_assertions)]
    fn wrong_handle_type_is_an_error_not_a_crash() {
        let adapter = std::sync::Arc::new(Adapter::open_simulated().unwrap());
        let shared = std::sync::Arc::new(DeviceShared::new(adapter).unwrap());
        let fence = Box::new(Fence::new(shared, true).unwrap()).into_handle();
        let as_buffer = vk::Buffer::from_raw(fence.as_raw());
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let mut req = vk::MemoryRequirements::default();
        // SAFETY: deliberately misused handle; the driver must catch it.
        unsafe {
            super::buffer::destroy_buffer(vk::Device::null(), as_buffer, std::ptr::null());
            super::buffer::get_buffer_memory_requirements(vk::Device::null(), as_buffer, &mut req);
        }
        std::panic::set_hook(prev);
        // SAFETY: the fence is still alive and is destroyed exactly once here.
        let fence = unsafe { Fence::take_handle(fence) }.expect("fence survived");
        assert!(fence.is_signaled().unwrap());
    }
}
