//! Physical devices: what a GPU is and what Ferrum advertises for it.
//!
//! An [`Adapter`] holds the facts about one GPU (chip profile, memory sizes, queue counts) and
//! is shared (`Arc`) by the `VkPhysicalDevice` and every `VkDevice` created from it, so a
//! device never points back into its instance's storage.

pub mod chip;
pub mod features;
pub mod limits;
pub mod memory;
pub mod properties;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ash::vk;
use ferrum_winsys as winsys;

use self::chip::Chip;
use self::memory::{MemoryLayout, MemorySizes};
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// Which kernel interface backs an adapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdapterKind {
    /// Ferrum's software model of the GPU behind the amdgpu interface.
    Simulated,
    /// A real GPU through its render node.
    Amdgpu(PathBuf),
}

impl AdapterKind {
    pub fn describe(&self) -> &'static str {
        match self {
            AdapterKind::Simulated => "simulated",
            AdapterKind::Amdgpu(_) => "amdgpu",
        }
    }
}

/// Queue family indices, fixed for every adapter.
pub const GRAPHICS_FAMILY: u32 = 0;
pub const COMPUTE_FAMILY: u32 = 1;

/// Queues exposed in the compute-only family. amdgpu schedules compute rings itself; Ferrum
/// exposes a fixed number of queues and maps them onto the kernel's rings at submission time.
const COMPUTE_QUEUES: u32 = 4;

/// One GPU: its winsys device (one kernel file, one GPU VM shared by every `VkDevice` created
/// from it) and the facts derived from what the kernel reports.
#[derive(Debug)]
pub struct Adapter {
    pub kind: AdapterKind,
    pub chip: &'static Chip,
    pub memory: MemoryLayout,
    pub compute_queues: u32,
    pub winsys: winsys::Device,
}

impl Adapter {
    /// Opens a simulated navi21 configured by the `FERRUM_SIM_*` variables
    /// ([`ferrum_sim::SimConfig::from_env`]; fault tests shorten the hang detection with
    /// `FERRUM_SIM_WAVE_BUDGET` so that a deliberate hang costs little).
    pub fn open_simulated() -> VkResult<Self> {
        let dev = ferrum_sim::open_device(ferrum_sim::SimConfig::from_env())
            .map_err(|e| VkError::InitializationFailed(format!("simulator: {e}")))?;
        Self::from_winsys(AdapterKind::Simulated, dev)
    }

    /// Opens a real GPU's render node.
    pub fn open_render_node(path: &Path) -> VkResult<Self> {
        let dev = winsys::Device::open_render_node(path)
            .map_err(|e| VkError::IncompatibleDriver(format!("{}: {e}", path.display())))?;
        Self::from_winsys(AdapterKind::Amdgpu(path.to_path_buf()), dev)
    }

    fn from_winsys(kind: AdapterKind, dev: winsys::Device) -> VkResult<Self> {
        let info = dev.info();
        let chip = chip::chip_by_pci_id(info.pci_id).ok_or_else(|| {
            VkError::IncompatibleDriver(format!("unsupported PCI device {:#x}", info.pci_id))
        })?;
        let sizes = MemorySizes {
            vram: info.vram_size,
            visible_vram: info.vram_cpu_accessible_size,
            gtt: info.gtt_size,
        };
        Ok(Adapter {
            kind,
            chip,
            memory: MemoryLayout::discrete(sizes),
            compute_queues: COMPUTE_QUEUES,
            winsys: dev,
        })
    }

    pub fn queue_families(&self) -> [vk::QueueFamilyProperties; 2] {
        let gfx = vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER;
        let compute = vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER;
        let family = |flags, count| vk::QueueFamilyProperties {
            queue_flags: flags,
            queue_count: count,
            // The GPU counter is 64 bits wide (RELEASE_MEM / COPY_DATA write all of it).
            timestamp_valid_bits: 64,
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
