//! Ferrum: a Vulkan driver for AMD RDNA2 GPUs.
//!
//! This file holds only the three symbols the Vulkan loader looks up in the shared library;
//! everything else is reached through the tables in `entry`.

pub mod api;
pub mod cmd;
pub mod core;
pub mod debug;
pub mod descriptor;
pub mod entry;
pub mod error;
pub mod format;
pub mod gfx;
pub mod image;
pub mod meta;
pub mod pipeline;
pub mod version;

use std::ffi::c_char;

use ash::vk;

/// Loader interface versions Ferrum speaks. 5 is the first in which the loader honours the
/// application's API version; 7 lets the loader query these functions through
/// `vk_icdGetInstanceProcAddr`, which the table provides.
const MIN_LOADER_INTERFACE: u32 = 5;
const MAX_LOADER_INTERFACE: u32 = 7;

/// Agrees on the loader-ICD interface version: the highest both sides support.
///
/// # Safety
/// `p_supported_version` must be a valid pointer holding the loader's highest version.
#[no_mangle]
pub unsafe extern "system" fn vk_icdNegotiateLoaderICDInterfaceVersion(
    p_supported_version: *mut u32,
) -> vk::Result {
    entry::guard("vk_icdNegotiateLoaderICDInterfaceVersion", || {
        debug::init_logging();
        // SAFETY: the loader passes a valid pointer.
        let version = unsafe { api::output(p_supported_version)? };
        if *version < MIN_LOADER_INTERFACE {
            return Err(error::VkError::IncompatibleDriver(format!(
                "loader interface {version} < 5"
            )));
        }
        *version = (*version).min(MAX_LOADER_INTERFACE);
        log::trace!("loader interface version {}", *version);
        Ok(())
    })
}

/// The loader's first lookup of any command.
///
/// # Safety
/// `p_name` must be null or a valid C string; `instance` null or a live Ferrum instance.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetInstanceProcAddr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    entry::guard_value("vk_icdGetInstanceProcAddr", None, || {
        debug::init_logging();
        // SAFETY: forwarded to the caller.
        unsafe { entry::instance_proc_addr(instance, p_name) }
    })
}

/// Lookup of commands dispatched on a physical device, including ones the loader itself does
/// not know.
///
/// # Safety
/// `p_name` must be null or a valid C string.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetPhysicalDeviceProcAddr(
    _instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    entry::guard_value("vk_icdGetPhysicalDeviceProcAddr", None, || {
        // SAFETY: forwarded to the caller.
        unsafe { entry::physical_device_proc_addr(p_name) }
    })
}

/// Every Rust allocation of the driver (compiler, simulator, objects) goes through mimalloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
