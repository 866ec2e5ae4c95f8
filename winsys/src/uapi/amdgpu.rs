//! amdgpu driver-private ioctls (`amdgpu_drm.h`).
//!
//! Unions that the kernel overwrites with its answer are Rust unions; the small `*_out`
//! accessors read the answer back without each caller writing its own `unsafe`.

use super::{drm_iow, drm_iowr, DRM_COMMAND_BASE};

// ---- GEM -------------------------------------------------------------------------------------

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemCreateIn {
    pub bo_size: u64,
    pub alignment: u64,
    pub domains: u64,
    pub domain_flags: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemCreateOut {
    pub handle: u32,
    pub _pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuGemCreate {
    pub in_: DrmAmdgpuGemCreateIn,
    pub out: DrmAmdgpuGemCreateOut,
}

impl DrmAmdgpuGemCreate {
    pub fn new(in_: DrmAmdgpuGemCreateIn) -> Self {
        Self { in_ }
    }
    pub fn out(&self) -> DrmAmdgpuGemCreateOut {
        // SAFETY: both variants are plain integers; every bit pattern is a valid value.
        unsafe { self.out }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemMmapIn {
    pub handle: u32,
    pub _pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemMmapOut {
    pub addr_ptr: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuGemMmap {
    pub in_: DrmAmdgpuGemMmapIn,
    pub out: DrmAmdgpuGemMmapOut,
}

impl DrmAmdgpuGemMmap {
    pub fn new(in_: DrmAmdgpuGemMmapIn) -> Self {
        Self { in_ }
    }
    pub fn out(&self) -> DrmAmdgpuGemMmapOut {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.out }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemWaitIdleIn {
    pub handle: u32,
    pub flags: u32,
    pub timeout: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemWaitIdleOut {
    pub status: u32,
    pub domain: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuGemWaitIdle {
    pub in_: DrmAmdgpuGemWaitIdleIn,
    pub out: DrmAmdgpuGemWaitIdleOut,
}

impl DrmAmdgpuGemWaitIdle {
    pub fn new(in_: DrmAmdgpuGemWaitIdleIn) -> Self {
        Self { in_ }
    }
    pub fn out(&self) -> DrmAmdgpuGemWaitIdleOut {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.out }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemVa {
    pub handle: u32,
    pub _pad: u32,
    pub operation: u32,
    pub flags: u32,
    pub va_address: u64,
    pub offset_in_bo: u64,
    pub map_size: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuGemOp {
    pub handle: u32,
    pub op: u32,
    pub value: u64,
}

// ---- Contexts --------------------------------------------------------------------------------

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCtxIn {
    pub op: u32,
    pub flags: u32,
    pub ctx_id: u32,
    pub priority: i32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCtxOutAlloc {
    pub ctx_id: u32,
    pub _pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCtxOutState {
    pub flags: u64,
    pub hangs: u32,
    pub reset_status: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCtxOutPstate {
    pub flags: u32,
    pub _pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuCtxOut {
    pub alloc: DrmAmdgpuCtxOutAlloc,
    pub state: DrmAmdgpuCtxOutState,
    pub pstate: DrmAmdgpuCtxOutPstate,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuCtx {
    pub in_: DrmAmdgpuCtxIn,
    pub out: DrmAmdgpuCtxOut,
}

impl DrmAmdgpuCtx {
    pub fn new(in_: DrmAmdgpuCtxIn) -> Self {
        Self { in_ }
    }
    pub fn input(&self) -> DrmAmdgpuCtxIn {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.in_ }
    }
    pub fn out_alloc(&self) -> DrmAmdgpuCtxOutAlloc {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.out.alloc }
    }
    pub fn out_state(&self) -> DrmAmdgpuCtxOutState {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.out.state }
    }
}

pub const AMDGPU_CTX_OP_ALLOC_CTX: u32 = 1;
pub const AMDGPU_CTX_OP_FREE_CTX: u32 = 2;
pub const AMDGPU_CTX_OP_QUERY_STATE: u32 = 3;
pub const AMDGPU_CTX_OP_QUERY_STATE2: u32 = 4;

pub const AMDGPU_CTX_NO_RESET: u32 = 0;
pub const AMDGPU_CTX_GUILTY_RESET: u32 = 1;
pub const AMDGPU_CTX_INNOCENT_RESET: u32 = 2;
pub const AMDGPU_CTX_UNKNOWN_RESET: u32 = 3;

pub const AMDGPU_CTX_QUERY2_FLAGS_RESET: u64 = 1 << 0;
pub const AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST: u64 = 1 << 1;
pub const AMDGPU_CTX_QUERY2_FLAGS_GUILTY: u64 = 1 << 2;

pub const AMDGPU_CTX_PRIORITY_UNSET: i32 = -2048;
pub const AMDGPU_CTX_PRIORITY_VERY_LOW: i32 = -1023;
pub const AMDGPU_CTX_PRIORITY_LOW: i32 = -512;
pub const AMDGPU_CTX_PRIORITY_NORMAL: i32 = 0;
pub const AMDGPU_CTX_PRIORITY_HIGH: i32 = 512;
pub const AMDGPU_CTX_PRIORITY_VERY_HIGH: i32 = 1023;

// ---- BO lists --------------------------------------------------------------------------------

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuBoListIn {
    pub operation: u32,
    pub list_handle: u32,
    pub bo_number: u32,
    pub bo_info_size: u32,
    pub bo_info_ptr: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuBoListEntry {
    pub bo_handle: u32,
    pub bo_priority: u32,
}

// ---- Command submission ----------------------------------------------------------------------

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsChunk {
    pub chunk_id: u32,
    pub length_dw: u32,
    pub chunk_data: u64,
}

/// `chunks` points to an array of `num_chunks` u64 user pointers, each to a
/// [`DrmAmdgpuCsChunk`].
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsIn {
    pub ctx_id: u32,
    pub bo_list_handle: u32,
    pub num_chunks: u32,
    pub flags: u32,
    pub chunks: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsOut {
    pub handle: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuCs {
    pub in_: DrmAmdgpuCsIn,
    pub out: DrmAmdgpuCsOut,
}

impl DrmAmdgpuCs {
    pub fn new(in_: DrmAmdgpuCsIn) -> Self {
        Self { in_ }
    }
    pub fn input(&self) -> DrmAmdgpuCsIn {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.in_ }
    }
    pub fn out(&self) -> DrmAmdgpuCsOut {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.out }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsChunkIb {
    pub _pad: u32,
    pub flags: u32,
    pub va_start: u64,
    pub ib_bytes: u32,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsChunkDep {
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub ctx_id: u32,
    pub handle: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsChunkFence {
    pub handle: u32,
    pub offset: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsChunkSem {
    pub handle: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuCsChunkSyncobj {
    pub handle: u32,
    pub flags: u32,
    pub point: u64,
}

pub const AMDGPU_CHUNK_ID_IB: u32 = 0x01;
pub const AMDGPU_CHUNK_ID_FENCE: u32 = 0x02;
pub const AMDGPU_CHUNK_ID_DEPENDENCIES: u32 = 0x03;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_IN: u32 = 0x04;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_OUT: u32 = 0x05;
pub const AMDGPU_CHUNK_ID_BO_HANDLES: u32 = 0x06;
pub const AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES: u32 = 0x07;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT: u32 = 0x08;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL: u32 = 0x09;

pub const AMDGPU_IB_FLAG_CE: u32 = 1 << 0;
pub const AMDGPU_IB_FLAG_PREAMBLE: u32 = 1 << 1;
pub const AMDGPU_IB_FLAG_PREEMPT: u32 = 1 << 2;
pub const AMDGPU_IB_FLAG_TC_WB_NOT_INVALIDATE: u32 = 1 << 3;
pub const AMDGPU_IB_FLAG_EMIT_MEM_SYNC: u32 = 1 << 6;

pub const AMDGPU_HW_IP_GFX: u32 = 0;
pub const AMDGPU_HW_IP_COMPUTE: u32 = 1;
pub const AMDGPU_HW_IP_DMA: u32 = 2;
pub const AMDGPU_HW_IP_NUM: u32 = 9;

// ---- Waiting ---------------------------------------------------------------------------------

/// `timeout` is an absolute CLOCK_MONOTONIC time in ns; `handle` is a CS sequence number.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuWaitCsIn {
    pub handle: u64,
    pub timeout: u64,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub ctx_id: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuWaitCsOut {
    pub status: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuWaitCs {
    pub in_: DrmAmdgpuWaitCsIn,
    pub out: DrmAmdgpuWaitCsOut,
}

impl DrmAmdgpuWaitCs {
    pub fn new(in_: DrmAmdgpuWaitCsIn) -> Self {
        Self { in_ }
    }
    pub fn input(&self) -> DrmAmdgpuWaitCsIn {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.in_ }
    }
    pub fn out(&self) -> DrmAmdgpuWaitCsOut {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.out }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuFence {
    pub ctx_id: u32,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub seq_no: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuWaitFencesIn {
    pub fences: u64,
    pub fence_count: u32,
    pub wait_all: u32,
    pub timeout_ns: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuWaitFencesOut {
    pub status: u32,
    pub first_signaled: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuWaitFences {
    pub in_: DrmAmdgpuWaitFencesIn,
    pub out: DrmAmdgpuWaitFencesOut,
}

// ---- GEM VA ----------------------------------------------------------------------------------

pub const AMDGPU_VA_OP_MAP: u32 = 1;
pub const AMDGPU_VA_OP_UNMAP: u32 = 2;
pub const AMDGPU_VA_OP_CLEAR: u32 = 3;
pub const AMDGPU_VA_OP_REPLACE: u32 = 4;

pub const AMDGPU_VM_DELAY_UPDATE: u32 = 1 << 0;
pub const AMDGPU_VM_PAGE_READABLE: u32 = 1 << 1;
pub const AMDGPU_VM_PAGE_WRITEABLE: u32 = 1 << 2;
pub const AMDGPU_VM_PAGE_EXECUTABLE: u32 = 1 << 3;
pub const AMDGPU_VM_PAGE_PRT: u32 = 1 << 4;
pub const AMDGPU_VM_MTYPE_MASK: u32 = 0xf << 5;
pub const AMDGPU_VM_MTYPE_DEFAULT: u32 = 0 << 5;
pub const AMDGPU_VM_MTYPE_NC: u32 = 1 << 5;
pub const AMDGPU_VM_MTYPE_WC: u32 = 2 << 5;
pub const AMDGPU_VM_MTYPE_CC: u32 = 3 << 5;
pub const AMDGPU_VM_MTYPE_UC: u32 = 4 << 5;
pub const AMDGPU_VM_MTYPE_RW: u32 = 5 << 5;

pub const AMDGPU_GEM_DOMAIN_CPU: u64 = 0x1;
pub const AMDGPU_GEM_DOMAIN_GTT: u64 = 0x2;
pub const AMDGPU_GEM_DOMAIN_VRAM: u64 = 0x4;
pub const AMDGPU_GEM_DOMAIN_GDS: u64 = 0x8;
pub const AMDGPU_GEM_DOMAIN_GWS: u64 = 0x10;
pub const AMDGPU_GEM_DOMAIN_OA: u64 = 0x20;

pub const AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED: u64 = 1 << 0;
pub const AMDGPU_GEM_CREATE_NO_CPU_ACCESS: u64 = 1 << 1;
pub const AMDGPU_GEM_CREATE_CPU_GTT_USWC: u64 = 1 << 2;
pub const AMDGPU_GEM_CREATE_VRAM_CLEARED: u64 = 1 << 3;
pub const AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS: u64 = 1 << 5;
pub const AMDGPU_GEM_CREATE_VM_ALWAYS_VALID: u64 = 1 << 6;
pub const AMDGPU_GEM_CREATE_EXPLICIT_SYNC: u64 = 1 << 7;

// ---- INFO ------------------------------------------------------------------------------------

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuQueryFw {
    pub fw_type: u32,
    pub ip_instance: u32,
    pub index: u32,
    pub _pad: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuInfoQueryHwIp {
    pub type_: u32,
    pub ip_instance: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuInfoReadMmrReg {
    pub dword_offset: u32,
    pub count: u32,
    pub instance: u32,
    pub flags: u32,
}

/// The query-specific part of [`DrmAmdgpuInfo`].
#[repr(C)]
#[derive(Clone, Copy)]
pub union DrmAmdgpuInfoArgs {
    pub query_hw_ip: DrmAmdgpuInfoQueryHwIp,
    pub read_mmr_reg: DrmAmdgpuInfoReadMmrReg,
    pub query_fw: DrmAmdgpuQueryFw,
}

/// `struct drm_amdgpu_info`: the kernel writes up to `return_size` bytes of the answer to
/// `return_pointer`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DrmAmdgpuInfo {
    pub return_pointer: u64,
    pub return_size: u32,
    pub query: u32,
    pub args: DrmAmdgpuInfoArgs,
}

impl DrmAmdgpuInfo {
    pub fn new(query: u32, return_pointer: u64, return_size: u32) -> Self {
        Self {
            return_pointer,
            return_size,
            query,
            args: DrmAmdgpuInfoArgs { read_mmr_reg: DrmAmdgpuInfoReadMmrReg::default() },
        }
    }
    pub fn hw_ip(&self) -> DrmAmdgpuInfoQueryHwIp {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.args.query_hw_ip }
    }
    pub fn fw(&self) -> DrmAmdgpuQueryFw {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.args.query_fw }
    }
    pub fn mmr(&self) -> DrmAmdgpuInfoReadMmrReg {
        // SAFETY: plain integers; every bit pattern is valid.
        unsafe { self.args.read_mmr_reg }
    }
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuInfoFirmware {
    pub ver: u32,
    pub feature: u32,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuInfoVramGtt {
    pub vram_size: u64,
    pub vram_cpu_accessible_size: u64,
    pub gtt_size: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuHeapInfo {
    pub total_heap_size: u64,
    pub usable_heap_size: u64,
    pub heap_usage: u64,
    pub max_allocation: u64,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuMemoryInfo {
    pub vram: DrmAmdgpuHeapInfo,
    pub cpu_accessible_vram: DrmAmdgpuHeapInfo,
    pub gtt: DrmAmdgpuHeapInfo,
}

#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuInfoHwIp {
    pub hw_ip_version_major: u32,
    pub hw_ip_version_minor: u32,
    pub capabilities_flags: u64,
    pub ib_start_alignment: u32,
    pub ib_size_alignment: u32,
    pub available_rings: u32,
    pub _pad: u32,
}

/// `struct drm_amdgpu_info_device` as in libdrm 2.4.114 (368 bytes). Newer kernels append
/// fields; they copy at most `return_size` bytes, so this shorter form stays valid.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct DrmAmdgpuInfoDevice {
    pub device_id: u32,
    pub chip_rev: u32,
    pub external_rev: u32,
    pub pci_rev: u32,
    pub family: u32,
    pub num_shader_engines: u32,
    pub num_shader_arrays_per_engine: u32,
    pub gpu_counter_freq: u32,
    pub max_engine_clock: u64,
    pub max_memory_clock: u64,
    pub cu_active_number: u32,
    pub cu_ao_mask: u32,
    pub cu_bitmap: [[u32; 4]; 4],
    pub enabled_rb_pipes_mask: u32,
    pub num_rb_pipes: u32,
    pub num_hw_gfx_contexts: u32,
    pub _pad: u32,
    pub ids_flags: u64,
    pub virtual_address_offset: u64,
    pub virtual_address_max: u64,
    pub virtual_address_alignment: u32,
    pub pte_fragment_size: u32,
    pub gart_page_size: u32,
    pub ce_ram_size: u32,
    pub vram_type: u32,
    pub vram_bit_width: u32,
    pub vce_harvest_config: u32,
    pub gc_double_offchip_lds_buf: u32,
    pub prim_buf_gpu_addr: u64,
    pub pos_buf_gpu_addr: u64,
    pub cntl_sb_buf_gpu_addr: u64,
    pub param_buf_gpu_addr: u64,
    pub prim_buf_size: u32,
    pub pos_buf_size: u32,
    pub cntl_sb_buf_size: u32,
    pub param_buf_size: u32,
    pub wave_front_size: u32,
    pub num_shader_visible_vgprs: u32,
    pub num_cu_per_sh: u32,
    pub num_tcc_blocks: u32,
    pub gs_vgt_table_depth: u32,
    pub gs_prim_buffer_depth: u32,
    pub max_gs_waves_per_vgt: u32,
    pub _pad1: u32,
    pub cu_ao_bitmap: [[u32; 4]; 4],
    pub high_va_offset: u64,
    pub high_va_max: u64,
    pub pa_sc_tile_steering_override: u32,
    pub tcc_disabled_mask: u64,
}

pub const AMDGPU_INFO_ACCEL_WORKING: u32 = 0x00;
pub const AMDGPU_INFO_HW_IP_INFO: u32 = 0x02;
pub const AMDGPU_INFO_HW_IP_COUNT: u32 = 0x03;
pub const AMDGPU_INFO_TIMESTAMP: u32 = 0x05;
pub const AMDGPU_INFO_FW_VERSION: u32 = 0x0e;
pub const AMDGPU_INFO_VRAM_USAGE: u32 = 0x10;
pub const AMDGPU_INFO_GTT_USAGE: u32 = 0x11;
pub const AMDGPU_INFO_VRAM_GTT: u32 = 0x14;
pub const AMDGPU_INFO_READ_MMR_REG: u32 = 0x15;
pub const AMDGPU_INFO_DEV_INFO: u32 = 0x16;
pub const AMDGPU_INFO_VIS_VRAM_USAGE: u32 = 0x17;
pub const AMDGPU_INFO_MEMORY: u32 = 0x19;
pub const AMDGPU_INFO_VRAM_LOST_COUNTER: u32 = 0x1f;

pub const AMDGPU_INFO_FW_GFX_ME: u32 = 0x04;
pub const AMDGPU_INFO_FW_GFX_PFP: u32 = 0x05;
pub const AMDGPU_INFO_FW_GFX_CE: u32 = 0x06;
pub const AMDGPU_INFO_FW_GFX_RLC: u32 = 0x07;
pub const AMDGPU_INFO_FW_GFX_MEC: u32 = 0x08;
pub const AMDGPU_INFO_FW_SDMA: u32 = 0x0b;

pub const AMDGPU_IDS_FLAGS_FUSION: u64 = 0x1;
pub const AMDGPU_IDS_FLAGS_PREEMPTION: u64 = 0x2;
pub const AMDGPU_IDS_FLAGS_TMZ: u64 = 0x4;

pub const AMDGPU_FAMILY_NV: u32 = 143;
pub const AMDGPU_VRAM_TYPE_GDDR6: u32 = 9;

// ---- Request numbers -------------------------------------------------------------------------

pub const DRM_AMDGPU_GEM_CREATE: u64 = 0x00;
pub const DRM_AMDGPU_GEM_MMAP: u64 = 0x01;
pub const DRM_AMDGPU_CTX: u64 = 0x02;
pub const DRM_AMDGPU_BO_LIST: u64 = 0x03;
pub const DRM_AMDGPU_CS: u64 = 0x04;
pub const DRM_AMDGPU_INFO: u64 = 0x05;
pub const DRM_AMDGPU_GEM_WAIT_IDLE: u64 = 0x07;
pub const DRM_AMDGPU_GEM_VA: u64 = 0x08;
pub const DRM_AMDGPU_WAIT_CS: u64 = 0x09;
pub const DRM_AMDGPU_GEM_OP: u64 = 0x10;
pub const DRM_AMDGPU_WAIT_FENCES: u64 = 0x12;

pub const DRM_IOCTL_AMDGPU_GEM_CREATE: u64 =
    drm_iowr::<DrmAmdgpuGemCreate>(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_CREATE);
pub const DRM_IOCTL_AMDGPU_GEM_MMAP: u64 =
    drm_iowr::<DrmAmdgpuGemMmap>(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_MMAP);
pub const DRM_IOCTL_AMDGPU_CTX: u64 = drm_iowr::<DrmAmdgpuCtx>(DRM_COMMAND_BASE + DRM_AMDGPU_CTX);
pub const DRM_IOCTL_AMDGPU_BO_LIST: u64 =
    drm_iowr::<DrmAmdgpuBoListIn>(DRM_COMMAND_BASE + DRM_AMDGPU_BO_LIST);
pub const DRM_IOCTL_AMDGPU_CS: u64 = drm_iowr::<DrmAmdgpuCs>(DRM_COMMAND_BASE + DRM_AMDGPU_CS);
pub const DRM_IOCTL_AMDGPU_INFO: u64 = drm_iow::<DrmAmdgpuInfo>(DRM_COMMAND_BASE + DRM_AMDGPU_INFO);
pub const DRM_IOCTL_AMDGPU_GEM_WAIT_IDLE: u64 =
    drm_iowr::<DrmAmdgpuGemWaitIdle>(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_WAIT_IDLE);
pub const DRM_IOCTL_AMDGPU_GEM_VA: u64 =
    drm_iow::<DrmAmdgpuGemVa>(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA);
pub const DRM_IOCTL_AMDGPU_WAIT_CS: u64 =
    drm_iowr::<DrmAmdgpuWaitCs>(DRM_COMMAND_BASE + DRM_AMDGPU_WAIT_CS);
pub const DRM_IOCTL_AMDGPU_GEM_OP: u64 =
    drm_iowr::<DrmAmdgpuGemOp>(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_OP);
pub const DRM_IOCTL_AMDGPU_WAIT_FENCES: u64 =
    drm_iowr::<DrmAmdgpuWaitFences>(DRM_COMMAND_BASE + DRM_AMDGPU_WAIT_FENCES);
