//! The device: one open kernel (render node or simulator) plus what was learned about it.
//!
//! `Device` is a cheap clone (an `Arc`); BOs, contexts and syncobjs keep a clone so that the
//! device file stays open as long as anything created from it exists, as with a real fd.

use core::ffi::c_void;
use std::path::Path;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::drm::RenderNode;
use crate::error::{Error, Result};
use crate::kernel::{Errno, Kernel};
use crate::uapi;
use crate::va::VaAllocator;

/// Firmware versions the driver may gate packet features on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FirmwareVersions {
    pub me: u32,
    pub pfp: u32,
    pub mec: u32,
}

/// Facts about the GPU, from the INFO ioctl.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// PCI device id (0x73BF for a navi21 RX 6800/6900).
    pub pci_id: u32,
    /// `AMDGPU_FAMILY_*` (143 = NV, covering navi1x and navi2x).
    pub family: u32,
    pub chip_rev: u32,
    pub external_rev: u32,
    pub num_shader_engines: u32,
    pub num_shader_arrays_per_engine: u32,
    pub num_cu_per_sh: u32,
    pub cu_active_number: u32,
    pub num_rb_pipes: u32,
    pub num_tcc_blocks: u32,
    /// Timestamp counter frequency in kHz.
    pub gpu_counter_freq_khz: u32,
    pub max_engine_clock_khz: u64,
    pub max_memory_clock_khz: u64,
    pub vram_type: u32,
    pub vram_bit_width: u32,
    pub vram_size: u64,
    pub vram_cpu_accessible_size: u64,
    pub gtt_size: u64,
    /// Largest single allocation the kernel allows in VRAM / GTT.
    pub vram_max_allocation: u64,
    pub gtt_max_allocation: u64,
    /// The low GPU VA range userspace may use, `[va_start, va_end)`.
    pub va_start: u64,
    pub va_end: u64,
    /// The high (sign-extended) range, `[high_va_start, high_va_end)`.
    pub high_va_start: u64,
    pub high_va_end: u64,
    pub va_alignment: u64,
    /// IB start/size alignment in bytes for the compute and gfx rings.
    pub ib_alignment: u64,
    pub firmware: FirmwareVersions,
    /// DRM interface version (amdgpu: major 3, minor = feature level).
    pub drm_major: i32,
    pub drm_minor: i32,
    pub has_timeline_syncobj: bool,
    /// The raw DEV_INFO answer, for fields not lifted above.
    pub raw: uapi::DrmAmdgpuInfoDevice,
}

impl DeviceInfo {
    /// Whether this is a navi21 (Sienna Cichlid), by its external revision range.
    pub fn is_navi21(&self) -> bool {
        self.family == uapi::AMDGPU_FAMILY_NV && (0x28..0x32).contains(&self.external_rev)
    }
}

pub(crate) struct DeviceInner {
    pub(crate) kernel: Arc<dyn Kernel>,
    pub(crate) info: DeviceInfo,
    pub(crate) va: Mutex<VaAllocator>,
}

/// An open GPU. See the crate docs for an example.
#[derive(Clone)]
pub struct Device(pub(crate) Arc<DeviceInner>);

impl core::fmt::Debug for Device {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Device").field("kernel", &self.0.kernel.describe()).finish()
    }
}

impl Device {
    /// Opens a render node and checks it is an amdgpu device.
    pub fn open_render_node(path: &Path) -> Result<Device> {
        Device::from_kernel(Arc::new(RenderNode::open(path)?))
    }

    /// Wraps any kernel (the simulator passes itself here) and queries the device.
    pub fn from_kernel(kernel: Arc<dyn Kernel>) -> Result<Device> {
        let info = query_info(&*kernel)?;
        let va = VaAllocator::new(info.va_start, info.va_end);
        Ok(Device(Arc::new(DeviceInner { kernel, info, va: Mutex::new(va) })))
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.0.info
    }

    /// The kernel behind this device, for callers that need a raw ioctl.
    pub fn kernel(&self) -> &Arc<dyn Kernel> {
        &self.0.kernel
    }

    /// Issues one ioctl with a typed argument.
    ///
    /// # Safety
    /// `request` must name an ioctl whose argument type is `T`, and user pointers inside `arg`
    /// must be valid for the lengths it states.
    pub(crate) unsafe fn ioctl<T>(&self, request: u64, arg: &mut T) -> Result<i32, Errno> {
        debug_assert_eq!(uapi::ioctl_size(request), core::mem::size_of::<T>());
        // SAFETY: forwarded from the caller.
        unsafe { self.0.kernel.ioctl(request, (arg as *mut T).cast::<c_void>()) }
    }

    /// The GPU timestamp counter (ticks of `gpu_counter_freq_khz`).
    pub fn timestamp(&self) -> Result<u64> {
        let mut ts = 0u64;
        info_query(&*self.0.kernel, uapi::AMDGPU_INFO_TIMESTAMP, &mut ts, |_| {})?;
        Ok(ts)
    }

    /// Bytes currently allocated in (VRAM, GTT), for memory-budget reporting.
    pub fn memory_usage(&self) -> Result<(u64, u64)> {
        let (mut vram, mut gtt) = (0u64, 0u64);
        info_query(&*self.0.kernel, uapi::AMDGPU_INFO_VRAM_USAGE, &mut vram, |_| {})?;
        info_query(&*self.0.kernel, uapi::AMDGPU_INFO_GTT_USAGE, &mut gtt, |_| {})?;
        Ok((vram, gtt))
    }

    /// Reserves `size` bytes of GPU VA, aligned to at least the device's VA alignment.
    pub fn alloc_va(&self, size: u64, align: u64) -> Result<u64> {
        let align = align.max(self.0.info.va_alignment).max(1);
        self.0.va.lock().alloc(size, align).ok_or(Error::VaExhausted)
    }

    /// Returns a range obtained from [`Device::alloc_va`].
    pub fn free_va(&self, va: u64, size: u64) {
        self.0.va.lock().free(va, size);
    }
}

/// Runs one INFO query that writes a `T`.
fn info_query<T>(
    kernel: &dyn Kernel,
    query: u32,
    out: &mut T,
    args: impl FnOnce(&mut uapi::DrmAmdgpuInfo),
) -> Result<()> {
    let mut info =
        uapi::DrmAmdgpuInfo::new(query, (out as *mut T) as u64, core::mem::size_of::<T>() as u32);
    args(&mut info);
    // SAFETY: `info` is a drm_amdgpu_info whose return pointer is `out`, valid for
    // `return_size` = size_of::<T>() bytes.
    unsafe { kernel.ioctl(uapi::DRM_IOCTL_AMDGPU_INFO, (&raw mut info).cast()) }
        .map_err(|errno| Error::ioctl("AMDGPU_INFO", errno))?;
    Ok(())
}

fn query_info(kernel: &dyn Kernel) -> Result<DeviceInfo> {
    let mut version = uapi::DrmVersion::default();
    // SAFETY: a drm_version with all buffer lengths 0 carries no user pointers.
    unsafe { kernel.ioctl(uapi::DRM_IOCTL_VERSION, (&raw mut version).cast()) }
        .map_err(|errno| Error::ioctl("DRM_IOCTL_VERSION", errno))?;
    if version.version_major != 3 || version.version_minor < 27 {
        return Err(Error::KernelTooOld {
            major: version.version_major,
            minor: version.version_minor,
        });
    }

    let mut dev = uapi::DrmAmdgpuInfoDevice::default();
    info_query(kernel, uapi::AMDGPU_INFO_DEV_INFO, &mut dev, |_| {})?;
    let mut mem = uapi::DrmAmdgpuMemoryInfo::default();
    info_query(kernel, uapi::AMDGPU_INFO_MEMORY, &mut mem, |_| {})?;

    let mut ib_alignment = 256u64;
    for ip in [uapi::AMDGPU_HW_IP_GFX, uapi::AMDGPU_HW_IP_COMPUTE] {
        let mut hw = uapi::DrmAmdgpuInfoHwIp::default();
        info_query(kernel, uapi::AMDGPU_INFO_HW_IP_INFO, &mut hw, |q| {
            q.args.query_hw_ip = uapi::DrmAmdgpuInfoQueryHwIp { type_: ip, ip_instance: 0 };
        })?;
        ib_alignment =
            ib_alignment.max(u64::from(hw.ib_start_alignment)).max(u64::from(hw.ib_size_alignment));
    }

    let mut firmware = FirmwareVersions::default();
    for (fw_type, slot) in [
        (uapi::AMDGPU_INFO_FW_GFX_ME, &mut firmware.me),
        (uapi::AMDGPU_INFO_FW_GFX_PFP, &mut firmware.pfp),
        (uapi::AMDGPU_INFO_FW_GFX_MEC, &mut firmware.mec),
    ] {
        let mut fw = uapi::DrmAmdgpuInfoFirmware::default();
        info_query(kernel, uapi::AMDGPU_INFO_FW_VERSION, &mut fw, |q| {
            q.args.query_fw = uapi::DrmAmdgpuQueryFw { fw_type, ..Default::default() };
        })?;
        *slot = fw.ver;
    }

    let mut cap = uapi::DrmGetCap { capability: uapi::DRM_CAP_SYNCOBJ_TIMELINE, value: 0 };
    // SAFETY: drm_get_cap has no user pointers.
    let has_timeline_syncobj =
        unsafe { kernel.ioctl(uapi::DRM_IOCTL_GET_CAP, (&raw mut cap).cast()) }.is_ok()
            && cap.value != 0;

    Ok(DeviceInfo {
        pci_id: dev.device_id,
        family: dev.family,
        chip_rev: dev.chip_rev,
        external_rev: dev.external_rev,
        num_shader_engines: dev.num_shader_engines,
        num_shader_arrays_per_engine: dev.num_shader_arrays_per_engine,
        num_cu_per_sh: dev.num_cu_per_sh,
        cu_active_number: dev.cu_active_number,
        num_rb_pipes: dev.num_rb_pipes,
        num_tcc_blocks: dev.num_tcc_blocks,
        gpu_counter_freq_khz: dev.gpu_counter_freq,
        max_engine_clock_khz: dev.max_engine_clock,
        max_memory_clock_khz: dev.max_memory_clock,
        vram_type: dev.vram_type,
        vram_bit_width: dev.vram_bit_width,
        vram_size: mem.vram.total_heap_size,
        vram_cpu_accessible_size: mem.cpu_accessible_vram.total_heap_size,
        gtt_size: mem.gtt.total_heap_size,
        vram_max_allocation: mem.vram.max_allocation,
        gtt_max_allocation: mem.gtt.max_allocation,
        va_start: dev.virtual_address_offset,
        va_end: dev.virtual_address_max,
        high_va_start: dev.high_va_offset,
        high_va_end: dev.high_va_max,
        va_alignment: u64::from(dev.virtual_address_alignment).max(4096),
        ib_alignment,
        firmware,
        drm_major: version.version_major,
        drm_minor: version.version_minor,
        has_timeline_syncobj,
        raw: dev,
    })
}
