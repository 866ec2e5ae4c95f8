//! DRM_IOCTL_AMDGPU_INFO, DRM_IOCTL_VERSION and DRM_IOCTL_GET_CAP.

use std::sync::atomic::Ordering;

use ferrum_winsys::{uapi, Errno};

use super::uaccess::write_prefix;

/// GB_ADDR_CONFIG's dword offset (byte address 0x98F8).
const GB_ADDR_CONFIG_DW: u32 = 0x263e;
use super::FileState;

/// amdgpu DRM interface version the simulator implements (3.x feature level).
pub const DRM_VERSION: (i32, i32, i32) = (3, 42, 0);

impl FileState {
    pub(super) fn version(&self, arg: &mut uapi::DrmVersion) -> Result<i32, Errno> {
        arg.version_major = DRM_VERSION.0;
        arg.version_minor = DRM_VERSION.1;
        arg.version_patchlevel = DRM_VERSION.2;
        // Like the kernel: copy what fits, report the full length.
        for (buf, len, text) in [
            (arg.name, &mut arg.name_len, "amdgpu"),
            (arg.date, &mut arg.date_len, "20150101"),
            (arg.desc, &mut arg.desc_len, "AMD GPU (ferrum simulator)"),
        ] {
            let n = (*len).min(text.len());
            // SAFETY: the caller vouches that `buf` is valid for `*len` bytes.
            unsafe { super::uaccess::write_array(buf as u64, &text.as_bytes()[..n]) }?;
            *len = text.len();
        }
        Ok(0)
    }

    pub(super) fn get_cap(&self, arg: &mut uapi::DrmGetCap) -> Result<i32, Errno> {
        arg.value = match arg.capability {
            uapi::DRM_CAP_SYNCOBJ | uapi::DRM_CAP_SYNCOBJ_TIMELINE => 1,
            _ => return Err(Errno::EINVAL),
        };
        Ok(0)
    }

    pub(super) fn info(&self, arg: &mut uapi::DrmAmdgpuInfo) -> Result<i32, Errno> {
        let ptr = arg.return_pointer;
        let len = arg.return_size as usize;
        // SAFETY: (all arms) the caller vouches for `return_pointer`/`return_size`.
        unsafe {
            match arg.query {
                uapi::AMDGPU_INFO_ACCEL_WORKING => write_prefix(ptr, len, &1u32),
                uapi::AMDGPU_INFO_DEV_INFO => write_prefix(ptr, len, &self.dev_info()),
                uapi::AMDGPU_INFO_MEMORY => write_prefix(ptr, len, &self.memory_info()),
                uapi::AMDGPU_INFO_VRAM_GTT => {
                    let c = &self.chip;
                    let v = uapi::DrmAmdgpuInfoVramGtt {
                        vram_size: c.vram_size,
                        vram_cpu_accessible_size: c.visible_vram_size,
                        gtt_size: c.gtt_size,
                    };
                    write_prefix(ptr, len, &v)
                }
                uapi::AMDGPU_INFO_VRAM_USAGE | uapi::AMDGPU_INFO_VIS_VRAM_USAGE => {
                    write_prefix(ptr, len, &self.accounting.vram.load(Ordering::Relaxed))
                }
                uapi::AMDGPU_INFO_GTT_USAGE => {
                    write_prefix(ptr, len, &self.accounting.gtt.load(Ordering::Relaxed))
                }
                uapi::AMDGPU_INFO_VRAM_LOST_COUNTER => write_prefix(ptr, len, &0u32),
                uapi::AMDGPU_INFO_READ_MMR_REG => {
                    let q = arg.mmr();
                    // Only registers userspace drivers read are answered, one at a time.
                    if q.dword_offset != GB_ADDR_CONFIG_DW || q.count != 1 {
                        return Err(Errno::EINVAL);
                    }
                    write_prefix(ptr, len, &self.chip.gb_addr_config)
                }
                uapi::AMDGPU_INFO_TIMESTAMP => write_prefix(ptr, len, &self.gpu_timestamp()),
                uapi::AMDGPU_INFO_HW_IP_INFO => {
                    let q = arg.hw_ip();
                    write_prefix(ptr, len, &self.hw_ip_info(q.type_, q.ip_instance)?)
                }
                uapi::AMDGPU_INFO_HW_IP_COUNT => {
                    let q = arg.hw_ip();
                    let count = u32::from(self.hw_ip_info(q.type_, 0)?.available_rings != 0);
                    write_prefix(ptr, len, &count)
                }
                uapi::AMDGPU_INFO_FW_VERSION => {
                    let fw = match arg.fw().fw_type {
                        uapi::AMDGPU_INFO_FW_GFX_ME => self.chip.fw_me,
                        uapi::AMDGPU_INFO_FW_GFX_PFP => self.chip.fw_pfp,
                        uapi::AMDGPU_INFO_FW_GFX_MEC => self.chip.fw_mec,
                        _ => return Err(Errno::EINVAL),
                    };
                    write_prefix(ptr, len, &uapi::DrmAmdgpuInfoFirmware { ver: fw, feature: 0 })
                }
                _ => Err(Errno::EINVAL),
            }
        }?;
        Ok(0)
    }

    /// The timestamp counter runs at `gpu_counter_freq` kHz from device-file creation.
    pub(crate) fn gpu_timestamp(&self) -> u64 {
        let ns = self.created.elapsed().as_nanos() as u64;
        ns / 1_000_000 * u64::from(self.chip.gpu_counter_freq)
            + (ns % 1_000_000) * u64::from(self.chip.gpu_counter_freq) / 1_000_000
    }

    fn hw_ip_info(&self, ip: u32, instance: u32) -> Result<uapi::DrmAmdgpuInfoHwIp, Errno> {
        if instance != 0 || ip >= uapi::AMDGPU_HW_IP_NUM {
            return Err(Errno::EINVAL);
        }
        // Only the graphics and compute command processors are modelled.
        let rings = match ip {
            uapi::AMDGPU_HW_IP_GFX => 0x1,
            uapi::AMDGPU_HW_IP_COMPUTE => 0xf,
            _ => 0,
        };
        Ok(uapi::DrmAmdgpuInfoHwIp {
            hw_ip_version_major: self.chip.gfx_ip_version.0,
            hw_ip_version_minor: self.chip.gfx_ip_version.1,
            capabilities_flags: 0,
            ib_start_alignment: 32,
            ib_size_alignment: 32,
            available_rings: rings,
            _pad: 0,
        })
    }

    fn dev_info(&self) -> uapi::DrmAmdgpuInfoDevice {
        let c = &self.chip;
        let mut cu_bitmap = [[0u32; 4]; 4];
        for se in cu_bitmap.iter_mut().take(c.num_shader_engines as usize) {
            for sa in se.iter_mut().take(c.num_shader_arrays_per_engine as usize) {
                *sa = (1 << c.num_cu_per_sh) - 1;
            }
        }
        uapi::DrmAmdgpuInfoDevice {
            device_id: c.pci_id,
            chip_rev: c.chip_rev,
            external_rev: c.external_rev,
            pci_rev: c.pci_rev,
            family: c.family,
            num_shader_engines: c.num_shader_engines,
            num_shader_arrays_per_engine: c.num_shader_arrays_per_engine,
            gpu_counter_freq: c.gpu_counter_freq,
            max_engine_clock: c.max_engine_clock,
            max_memory_clock: c.max_memory_clock,
            cu_active_number: c.cu_count(),
            cu_ao_mask: 0,
            cu_bitmap,
            enabled_rb_pipes_mask: (1 << c.num_rb_pipes) - 1,
            num_rb_pipes: c.num_rb_pipes,
            num_hw_gfx_contexts: 8,
            ids_flags: uapi::AMDGPU_IDS_FLAGS_PREEMPTION,
            virtual_address_offset: c.va_start,
            virtual_address_max: c.va_end,
            virtual_address_alignment: 4096,
            pte_fragment_size: 2 << 20,
            gart_page_size: 4096,
            vram_type: c.vram_type,
            vram_bit_width: c.vram_bit_width,
            wave_front_size: 64,
            num_shader_visible_vgprs: 1024,
            num_cu_per_sh: c.num_cu_per_sh,
            num_tcc_blocks: c.num_tcc_blocks,
            gs_vgt_table_depth: 32,
            gs_prim_buffer_depth: 1792,
            max_gs_waves_per_vgt: 32,
            high_va_offset: c.high_va_start,
            high_va_max: c.high_va_end,
            ..Default::default()
        }
    }

    fn memory_info(&self) -> uapi::DrmAmdgpuMemoryInfo {
        let c = &self.chip;
        let vram_used = self.accounting.vram.load(Ordering::Relaxed);
        let gtt_used = self.accounting.gtt.load(Ordering::Relaxed);
        let heap = |total: u64, used: u64| uapi::DrmAmdgpuHeapInfo {
            total_heap_size: total,
            usable_heap_size: total,
            heap_usage: used.min(total),
            max_allocation: total * 3 / 4,
        };
        uapi::DrmAmdgpuMemoryInfo {
            vram: heap(c.vram_size, vram_used),
            cpu_accessible_vram: heap(c.visible_vram_size, 0),
            gtt: heap(c.gtt_size, gtt_used),
        }
    }
}
