//! Facts about the simulated chip, in one table, as the kernel would report them.
//!
//! Values are those of a navi21 (Radeon RX 6900 XT, gfx1030) from public specifications and
//! the amdgpu kernel's reporting conventions; the simulator's behaviour does not depend on
//! most of them, they exist so the driver sees a plausible device.

/// One chip profile.
#[derive(Debug, Clone)]
pub struct Chip {
    pub name: &'static str,
    pub pci_id: u32,
    /// `AMDGPU_FAMILY_*`.
    pub family: u32,
    pub chip_rev: u32,
    /// Mesa/addrlib identify navi21 by external_rev in 0x28..=0x31.
    pub external_rev: u32,
    pub pci_rev: u32,
    pub num_shader_engines: u32,
    pub num_shader_arrays_per_engine: u32,
    pub num_cu_per_sh: u32,
    pub num_rb_pipes: u32,
    pub num_tcc_blocks: u32,
    /// kHz.
    pub gpu_counter_freq: u32,
    /// kHz.
    pub max_engine_clock: u64,
    /// kHz.
    pub max_memory_clock: u64,
    pub vram_type: u32,
    pub vram_bit_width: u32,
    pub vram_size: u64,
    /// Without resizable BAR the CPU sees a 256 MiB window of VRAM.
    pub visible_vram_size: u64,
    pub gtt_size: u64,
    /// GFX IP version reported by HW_IP_INFO.
    pub gfx_ip_version: (u32, u32),
    /// Firmware versions (ME, PFP, MEC) of a current linux-firmware release.
    pub fw_me: u32,
    pub fw_pfp: u32,
    pub fw_mec: u32,
    /// Low GPU VA range handed to userspace.
    pub va_start: u64,
    pub va_end: u64,
    /// High (sign-extended) range.
    pub high_va_start: u64,
    pub high_va_end: u64,
    /// LDS bytes per workgroup processor.
    pub lds_size_per_workgroup: u32,
    /// GB_ADDR_CONFIG (read through AMDGPU_INFO_READ_MMR_REG): pipes, packers and pipe
    /// interleave, which fix the swizzle equations of `_X` surfaces.
    pub gb_addr_config: u32,
}

/// The navi21 profile.
pub const NAVI21: Chip = Chip {
    name: "navi21",
    pci_id: 0x73bf,
    family: 143,
    chip_rev: 0,
    external_rev: 0x28,
    pci_rev: 0xc0,
    num_shader_engines: 4,
    num_shader_arrays_per_engine: 2,
    num_cu_per_sh: 10,
    num_rb_pipes: 16,
    num_tcc_blocks: 16,
    gpu_counter_freq: 100_000,
    max_engine_clock: 2_250_000,
    max_memory_clock: 2_000_000,
    vram_type: 9,
    vram_bit_width: 256,
    vram_size: 16 << 30,
    visible_vram_size: 256 << 20,
    gtt_size: 8 << 30,
    gfx_ip_version: (10, 3),
    fw_me: 0x42,
    fw_pfp: 0x62,
    fw_mec: 0x76,
    va_start: 0x20_0000,
    va_end: 0x8000_0000_0000,
    high_va_start: 0xffff_8000_0000_0000,
    high_va_end: 0xffff_ffff_ffe0_0000,
    lds_size_per_workgroup: 64 * 1024,
    // NUM_PIPES 16, PIPE_INTERLEAVE 256 B, MAX_COMPRESSED_FRAGS 2, NUM_PKRS 16 (the navi21
    // configuration Mesa's addrlib tests use).
    gb_addr_config: crate::tex::surface::GB_ADDR_CONFIG,
};

impl Chip {
    pub fn cu_count(&self) -> u32 {
        self.num_shader_engines * self.num_shader_arrays_per_engine * self.num_cu_per_sh
    }
}
