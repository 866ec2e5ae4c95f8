//! Name -> function tables and the C-boundary wrappers.
//!
//! The loader finds every command through `vk_icdGetInstanceProcAddr`,
//! `vkGetDeviceProcAddr` or `vk_icdGetPhysicalDeviceProcAddr`; each consults one static table
//! in which every command is listed once with its dispatch level. Unknown names give null.

mod guard;
mod table;

use std::ffi::{c_char, CStr};

use ash::vk::{self, Handle};

use crate::core::device::Device;
use crate::core::object::VkObject;
use crate::version::device_api_version;

pub use guard::{guard, guard_status, guard_value, guard_void};
pub use table::{Level, Provider, ENTRIES};

fn lookup(p_name: *const c_char, accept: impl Fn(Level) -> bool) -> vk::PFN_vkVoidFunction {
    if p_name.is_null() {
        return None;
    }
    // SAFETY: callers pass a valid NUL-terminated name (checked non-null above).
    let name = unsafe { CStr::from_ptr(p_name) };
    let found = ENTRIES.iter().find(|e| e.name == name && accept(e.level)).map(|e| e.func);
    if found.is_none() {
        log::trace!("no entry point {}", name.to_string_lossy());
    }
    found
}

/// `vk_icdGetInstanceProcAddr` / `vkGetInstanceProcAddr`: with a null instance only global
/// commands, otherwise every command Ferrum has.
///
/// # Safety
/// `p_name` must be null or a valid C string.
pub unsafe fn instance_proc_addr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    lookup(p_name, |level| level == Level::Global || !instance.is_null())
}

/// `vkGetDeviceProcAddr`: device-level commands only, as the spec requires since 1.2.193; a
/// core command only if the device's API version includes it, and an extension's name of a
/// command only if `device` enabled that extension (the spec's table for
/// `vkGetDeviceProcAddr`: "requested core version device-level dispatchable command",
/// "enabled extension device-level dispatchable command", any other case NULL). Core
/// commands of versions between the application's `apiVersion` and the device's are
/// answered, which the spec allows without VK_KHR_maintenance5.
///
/// # Safety
/// `p_name` must be null or a valid C string; `device` null or a live device.
pub unsafe fn device_proc_addr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    if device.is_null() || p_name.is_null() {
        return None;
    }
    // SAFETY: a live device (the caller's contract).
    let device = unsafe { <Device as VkObject>::from_handle(device) }?;
    // SAFETY: a valid NUL-terminated name (checked non-null above).
    let name = unsafe { CStr::from_ptr(p_name) };
    let entry = ENTRIES.iter().find(|e| e.name == name && e.level == Level::Device);
    match entry.map(|e| (e, e.provider)) {
        Some((e, Provider::Core(version))) if version <= device_api_version() => Some(e.func),
        Some((e, Provider::Extension(ext))) if device.has_extension(ext) => Some(e.func),
        Some((_, Provider::Core(_))) => {
            log::trace!("{} is core in a newer version than the device's", name.to_string_lossy());
            None
        }
        Some((_, Provider::Extension(ext))) => {
            log::trace!(
                "{} needs {}, which the device did not enable",
                name.to_string_lossy(),
                ext.to_string_lossy()
            );
            None
        }
        None => {
            log::trace!("no device entry point {}", name.to_string_lossy());
            None
        }
    }
}

/// `vk_icdGetPhysicalDeviceProcAddr`: commands dispatched on a physical device.
///
/// # Safety
/// `p_name` must be null or a valid C string.
pub unsafe fn physical_device_proc_addr(p_name: *const c_char) -> vk::PFN_vkVoidFunction {
    lookup(p_name, |level| level == Level::PhysicalDevice)
}
