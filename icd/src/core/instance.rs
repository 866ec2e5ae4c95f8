//! `VkInstance`: the enabled instance extensions and the physical devices found at creation.

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use ash::vk;

use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::{Adapter, PhysicalDevice};
use crate::error::{VkError, VkResult};

/// Instance extensions Ferrum implements, with their spec versions.
pub const INSTANCE_EXTENSIONS: &[(&CStr, u32)] = &[
    (c"VK_KHR_get_physical_device_properties2", 2),
    // Every physical device is a group of one (tests/tests/device_group.rs).
    (c"VK_KHR_device_group_creation", 1),
];

/// Which GPUs to expose (`FERRUM_DEVICE=sim|amdgpu`; unset: real navi21s, else the simulator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceSelection {
    Auto,
    Simulated,
    Amdgpu,
}

impl DeviceSelection {
    pub fn from_env() -> Self {
        match std::env::var("FERRUM_DEVICE").as_deref() {
            Ok("amdgpu") => DeviceSelection::Amdgpu,
            Ok("sim") => DeviceSelection::Simulated,
            Err(_) | Ok("") => DeviceSelection::Auto,
            Ok(other) => {
                log::warn!(
                    "FERRUM_DEVICE={other} is not one of sim|amdgpu; choosing automatically"
                );
                DeviceSelection::Auto
            }
        }
    }

    /// Opens the adapters this selection names. Render nodes of GPUs Ferrum does not support
    /// are skipped, as another driver owns them.
    pub fn open_adapters(self) -> VkResult<Vec<Arc<Adapter>>> {
        let real = || -> Vec<Arc<Adapter>> {
            ferrum_winsys::enumerate_amdgpu()
                .iter()
                .filter_map(|path| match Adapter::open_render_node(path) {
                    Ok(a) => Some(Arc::new(a)),
                    Err(e) => {
                        log::debug!("skipping {}: {e}", path.display());
                        None
                    }
                })
                .collect()
        };
        Ok(match self {
            DeviceSelection::Simulated => vec![Arc::new(Adapter::open_simulated()?)],
            DeviceSelection::Amdgpu => real(),
            DeviceSelection::Auto => {
                let found = real();
                if found.is_empty() {
                    vec![Arc::new(Adapter::open_simulated()?)]
                } else {
                    found
                }
            }
        })
    }
}

/// A `VkInstance`.
#[repr(C)]
pub struct Instance {
    base: ObjectBase,
    pub api_version: u32,
    pub physical_devices: Vec<Box<PhysicalDevice>>,
}
vk_object!(Instance, vk::Instance, vk::ObjectType::INSTANCE);

/// Checks that every name in a C string array is in `supported` and returns the supported
/// names that were asked for (each once), so that an object can answer later which of its
/// extensions are enabled.
///
/// # Safety
/// `names` must point to `count` valid NUL-terminated strings (or be null with `count == 0`).
pub unsafe fn check_extensions(
    names: *const *const c_char,
    count: u32,
    supported: &'static [(&'static CStr, u32)],
) -> VkResult<Vec<&'static CStr>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: guaranteed by the caller.
    let names = unsafe { std::slice::from_raw_parts(names, count as usize) };
    let mut enabled: Vec<&'static CStr> = Vec::with_capacity(names.len());
    for &name in names {
        // SAFETY: each entry is a valid C string.
        let name = unsafe { CStr::from_ptr(name) };
        let Some(&(known, _)) = supported.iter().find(|(s, _)| *s == name) else {
            return Err(VkError::ExtensionNotPresent(name.to_string_lossy().into_owned()));
        };
        if !enabled.contains(&known) {
            enabled.push(known);
        }
    }
    Ok(enabled)
}

impl Instance {
    /// # Safety
    /// `info` must be a valid `VkInstanceCreateInfo`.
    pub unsafe fn create(info: &vk::InstanceCreateInfo<'_>) -> VkResult<Box<Self>> {
        // SAFETY: forwarded to the caller.
        unsafe {
            check_extensions(
                info.pp_enabled_extension_names,
                info.enabled_extension_count,
                INSTANCE_EXTENSIONS,
            )?
        };
        // SAFETY: a non-null pApplicationInfo is valid.
        let app = unsafe { info.p_application_info.as_ref() };
        // "If apiVersion is 0 the implementation must ignore it" — treat as 1.0.
        let api_version =
            app.map(|a| a.api_version).filter(|&v| v != 0).unwrap_or(vk::API_VERSION_1_0);
        let adapters = DeviceSelection::from_env().open_adapters()?;
        let physical_devices = adapters
            .into_iter()
            .enumerate()
            .map(|(i, a)| Box::new(PhysicalDevice::new(a, i as u32)))
            .collect();
        log::debug!("instance created (application API version {api_version:#x})");
        Ok(Box::new(Instance {
            base: ObjectBase::new(vk::ObjectType::INSTANCE),
            api_version,
            physical_devices,
        }))
    }

    pub fn physical_device_handles(&self) -> Vec<vk::PhysicalDevice> {
        self.physical_devices
            .iter()
            .map(|p| {
                use ash::vk::Handle;
                vk::PhysicalDevice::from_raw(&**p as *const PhysicalDevice as u64)
            })
            .collect()
    }
}
