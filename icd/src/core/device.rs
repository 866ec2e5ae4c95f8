//! `VkDevice` and its queues.

use std::sync::Arc;

use ash::vk::{self, Handle};

use crate::core::instance::check_extensions;
use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::{features, Adapter};
use crate::core::sync::FenceEvent;
use crate::error::{VkError, VkResult};

/// Device extensions Ferrum implements: none yet. An extension is listed only once every
/// command and feature it brings works.
pub const DEVICE_EXTENSIONS: &[(&std::ffi::CStr, u32)] = &[];

/// A `VkQueue`.
#[repr(C)]
pub struct Queue {
    base: ObjectBase,
    pub family: u32,
    pub index: u32,
    pub flags: vk::DeviceQueueCreateFlags,
}
vk_object!(Queue, vk::Queue, vk::ObjectType::QUEUE);

/// A `VkDevice`.
#[repr(C)]
pub struct Device {
    base: ObjectBase,
    pub adapter: Arc<Adapter>,
    // Boxed: queue handles are the queues' addresses, which must not move.
    #[allow(clippy::vec_box)]
    queues: Vec<Box<Queue>>,
    pub fence_event: FenceEvent,
}
vk_object!(Device, vk::Device, vk::ObjectType::DEVICE);

/// Validates one `VkDeviceQueueCreateInfo` against the adapter's families.
fn check_queue_info(adapter: &Adapter, q: &vk::DeviceQueueCreateInfo<'_>) -> VkResult<()> {
    let families = adapter.queue_families();
    // VUID-VkDeviceQueueCreateInfo-queueFamilyIndex-00381: "queueFamilyIndex must be less than
    // pQueueFamilyPropertyCount returned by vkGetPhysicalDeviceQueueFamilyProperties".
    let family = families
        .get(q.queue_family_index as usize)
        .ok_or(VkError::InvalidUsage("queueFamilyIndex out of range"))?;
    // VUID-VkDeviceQueueCreateInfo-queueCount-00382: "queueCount must be less than or equal to
    // the queueCount member of the VkQueueFamilyProperties structure".
    if q.queue_count == 0 || q.queue_count > family.queue_count {
        return Err(VkError::InvalidUsage("queueCount out of range"));
    }
    if !q.flags.is_empty() {
        // The only flag, PROTECTED, needs the protectedMemory feature, which is unsupported.
        return Err(VkError::FeatureNotPresent("protected queues".into()));
    }
    Ok(())
}

impl Device {
    /// # Safety
    /// `info` must be a valid `VkDeviceCreateInfo`.
    pub unsafe fn create(
        adapter: Arc<Adapter>,
        info: &vk::DeviceCreateInfo<'_>,
    ) -> VkResult<Box<Self>> {
        // SAFETY: forwarded to the caller.
        unsafe {
            check_extensions(
                info.pp_enabled_extension_names,
                info.enabled_extension_count,
                DEVICE_EXTENSIONS,
            )?;
            features::check_requested(info)?;
        }
        let queue_infos: &[vk::DeviceQueueCreateInfo<'_>] = if info.queue_create_info_count == 0 {
            &[]
        } else {
            // SAFETY: the create info holds `queue_create_info_count` valid entries.
            unsafe {
                std::slice::from_raw_parts(
                    info.p_queue_create_infos,
                    info.queue_create_info_count as usize,
                )
            }
        };
        let mut queues: Vec<Box<Queue>> = Vec::new();
        for q in queue_infos {
            check_queue_info(&adapter, q)?;
            // VUID-VkDeviceCreateInfo-queueFamilyIndex-02802: families must be unique.
            if queues.iter().any(|e| e.family == q.queue_family_index) {
                return Err(VkError::InvalidUsage("queue family requested twice"));
            }
            for index in 0..q.queue_count {
                queues.push(Box::new(Queue {
                    base: ObjectBase::new(vk::ObjectType::QUEUE),
                    family: q.queue_family_index,
                    index,
                    flags: q.flags,
                }));
            }
        }
        Ok(Box::new(Device {
            base: ObjectBase::new(vk::ObjectType::DEVICE),
            adapter,
            queues,
            fence_event: FenceEvent::default(),
        }))
    }

    /// The queue created for `(family, index)` with exactly `flags`; null if there is none.
    pub fn queue(&self, family: u32, index: u32, flags: vk::DeviceQueueCreateFlags) -> vk::Queue {
        self.queues
            .iter()
            .find(|q| q.family == family && q.index == index && q.flags == flags)
            .map_or(vk::Queue::null(), |q| vk::Queue::from_raw(&**q as *const Queue as u64))
    }

    /// Blocks until all work submitted to the device is done. No submission path exists yet,
    /// so no work can be pending.
    pub fn wait_idle(&self) -> VkResult<()> {
        Ok(())
    }
}
