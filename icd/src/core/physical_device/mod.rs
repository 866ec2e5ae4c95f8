//! Physical devices: what a GPU is and what Ferrum advertises for it.
//!
//! An [`Adapter`] holds the facts about one GPU (chip profile, memory sizes, queue counts) and
//! is shared (`Arc`) by the `VkPhysicalDevice` and every `VkDevice` created from it, so a
//! device never points back into its instance's storage.

pub mod chip;
pub mod features;
pub mod formats;
pub mod limits;
pub mod memory;
pub mod properties;

use std::sync::Arc;

use ash::vk;

use self::chip::Chip;
use self::memory::{MemoryLayout, MemorySizes};
use crate::core::object::{vk_object, ObjectBase};

/// Which kernel interface backs an adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdapterKind {
    /// Ferrum's software model of the GPU behind the amdgpu interface.
    Simulated,
}

impl AdapterKind {
    pub fn describe(self) -> &'static str {
        match self {
            AdapterKind::Simulated => "simulated",
        }
    }
}

/// Queue family indices, fixed for every adapter.
pub const GRAPHICS_FAMILY: u32 = 0;
pub const COMPUTE_FAMILY: u32 = 1;

/// One GPU.
#[derive(Debug)]
pub struct Adapter {
    pub kind: AdapterKind,
    pub chip: &'static Chip,
    pub memory: MemoryLayout,
    /// Hardware compute rings exposed as queues of the compute-only family.
    pub compute_queues: u32,
}

impl Adapter {
    /// The simulated navi21 with the memory of a 16 GiB card without resizable BAR.
    pub fn simulated() -> Self {
        Adapter {
            kind: AdapterKind::Simulated,
            chip: &chip::NAVI21,
            memory: MemoryLayout::discrete(MemorySizes {
                vram: 16 << 30,
                visible_vram: 256 << 20,
                gtt: 8 << 30,
            }),
            compute_queues: 4,
        }
    }

    pub fn queue_families(&self) -> [vk::QueueFamilyProperties; 2] {
        let gfx = vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER;
        let compute = vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER;
        let family = |flags, count| vk::QueueFamilyProperties {
            queue_flags: flags,
            queue_count: count,
            // Timestamp queries are not implemented.
            timestamp_valid_bits: 0,
            min_image_transfer_granularity: vk::Extent3D { width: 1, height: 1, depth: 1 },
        };
        [family(gfx, 1), family(compute, self.compute_queues)]
    }
}

/// A `VkPhysicalDevice`.
#[repr(C)]
pub struct PhysicalDevice {
    base: ObjectBase,
    pub adapter: Arc<Adapter>,
    /// Position in the instance's list of physical devices.
    pub index: u32,
}
vk_object!(PhysicalDevice, vk::PhysicalDevice, vk::ObjectType::PHYSICAL_DEVICE);

impl PhysicalDevice {
    pub fn new(adapter: Arc<Adapter>, index: u32) -> Self {
        PhysicalDevice { base: ObjectBase::new(vk::ObjectType::PHYSICAL_DEVICE), adapter, index }
    }
}
