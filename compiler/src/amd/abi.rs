//! The compute-shader ABI: the one place where the compiler backend and the icd agree on how a
//! dispatch reaches a shader (user SGPRs, system-value registers, descriptor memory, register
//! fields). The icd programs `COMPUTE_*` registers from these items, so the two sides cannot
//! drift apart.
//!
//! * Wave32 only (`COMPUTE_DISPATCH_INITIATOR.CS_W32_EN = 1`).
//! * User SGPRs, always in this order ([`USER_SGPR_COUNT`] of them):
//!   `s[0:1]` address of the descriptor-set table (8 little-endian u64 set base addresses,
//!   index = set number, unused sets 0); `s[2:3]` address of the push block (push constants at
//!   byte 0, up to 256 bytes; dynamic-buffer V#s from byte [`DYNAMIC_DESCRIPTOR_OFFSET`], 16
//!   bytes each in pipeline-layout order); `s[4:5]` address of three u32 workgroup counts.
//! * Shaders that use scratch memory (RSRC2.SCRATCH_EN, a nonzero
//!   [`ShaderMetadata::scratch_bytes_per_lane`]) take two more user SGPRs: `s[6:7]` the 64-bit GPU address of the scratch ring (the
//!   driver's ring BO, sized by `COMPUTE_TMPRING_SIZE`, see [`tmpring_size`]). Only those
//!   shaders pay for the two SGPRs; [`UserSgprs`] answers where everything lands for either
//!   kind, and [`ShaderMetadata::user_sgprs`] says which one a binary is (6 or 8). This follows
//!   RADV/ACO on GFX10.3, which pass the scratch address in user SGPRs only when a shader
//!   needs scratch and combine it with the hardware's wave offset in the prologue.
//! * Workgroup ids follow the user SGPRs (`s6..s8`, or `s8..s10` with scratch; TGID_X/Y/Z_EN =
//!   1); with scratch the SPI then adds the wave's byte offset into the ring (`s9` / `s11`).
//!   The shader sets FLAT_SCRATCH = ring base + wave offset with `s_setreg` (GFX10 has no
//!   FLAT_SCRATCH SGPR pair) and reaches private memory with `scratch_*` instructions.
//! * Local invocation ids in `v0`, `v1`, `v2` (TIDIG_COMP_CNT = 2).
//! * Buffer descriptors are raw-buffer V#s ([`raw_buffer_descriptor`]) with `NUM_RECORDS` = range
//!   in bytes, so out-of-bounds accesses behave as robust buffer access.
//! * Image, sampler and texel-buffer descriptors live in set memory like buffer V#s: element
//!   `k` of a binding at byte `BindingLayout::offset + k * DescriptorKind::descriptor_size()`
//!   of its set. Sampled and storage images: a 32-byte T# (the shader loads it with
//!   `s_load_dwordx8`; 256-byte-aligned base in word 0; TYPE must match the view: 1D 8, 2D 9,
//!   3D 10, CUBE 11 (cube and cube-array *sampled* views; storage cube views may be CUBE or
//!   2D_ARRAY: the shader addresses faces as layers with dim 2D_ARRAY, which the hardware
//!   accepts on a CUBE T#), 1D_ARRAY 12, 2D_ARRAY 13, MSAA 14/15). Samplers: a 16-byte S#.
//!   Combined image/samplers: 64 bytes, T# at byte 0, S# at byte [`COMBINED_SAMPLER_OFFSET`]
//!   (32), bytes 48..64 unused. Uniform and storage texel buffers: a 16-byte typed V# with
//!   STRIDE = texel size, NUM_RECORDS = texel count (OOB_SELECT structured, so out-of-range
//!   indices read 0 and drop writes) and FORMAT the buffer data format; `textureSize` /
//!   `imageSize` of a texel buffer is NUM_RECORDS. Sample counts come from the T#
//!   (LAST_LEVEL = log2 samples for MSAA types), levels and sizes from `image_get_resinfo`.
//!   Immutable samplers are written into set memory by the driver like any other S#.

use std::collections::BTreeMap;

pub mod graphics;

/// First SGPR of the descriptor-set table address (`s[0:1]`).
pub const SGPR_SET_TABLE: u8 = 0;
/// First SGPR of the push block address (`s[2:3]`).
pub const SGPR_PUSH_BLOCK: u8 = 2;
/// First SGPR of the workgroup-count address (`s[4:5]`).
pub const SGPR_NUM_WORKGROUPS: u8 = 4;
/// Number of user SGPRs (RSRC2.USER_SGPR) of a shader without scratch.
pub const USER_SGPR_COUNT: u32 = 6;
/// SGPRs holding the workgroup id x, y, z of a shader without scratch.
pub const SGPR_WORKGROUP_ID: [u8; 3] = [6, 7, 8];
/// First SGPR of the scratch ring address (`s[6:7]`), in shaders that use scratch.
pub const SGPR_SCRATCH_RING: u8 = 6;
/// Scratch wave slots the driver's ring provides (`COMPUTE_TMPRING_SIZE.WAVES`): 32 waves, a
/// full 1024-invocation workgroup, times four so that several groups run at once.
pub const SCRATCH_RING_WAVES: u32 = 128;
/// Scratch ring allocation granule per wave in bytes (`COMPUTE_TMPRING_SIZE.WAVESIZE` unit).
pub const SCRATCH_WAVE_GRANULE: u32 = 1024;

/// Where the system SGPRs of a shader land, with or without scratch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserSgprs {
    /// The shader uses scratch memory.
    pub scratch: bool,
}

impl UserSgprs {
    /// User SGPRs (RSRC2.USER_SGPR).
    pub fn count(self) -> u32 {
        if self.scratch {
            USER_SGPR_COUNT + 2
        } else {
            USER_SGPR_COUNT
        }
    }

    /// SGPRs holding the workgroup id x, y, z (right after the user SGPRs).
    pub fn workgroup_id(self) -> [u8; 3] {
        let first = self.count() as u8;
        [first, first + 1, first + 2]
    }

    /// The SGPR the SPI loads with the wave's byte offset into the scratch ring (after the
    /// workgroup ids), for shaders with scratch.
    pub fn scratch_wave_offset(self) -> Option<u8> {
        self.scratch.then(|| self.workgroup_id()[2] + 1)
    }

    /// SGPRs the hardware initialises (user and system SGPRs).
    pub fn initialised(self) -> u32 {
        self.count() + 3 + u32::from(self.scratch)
    }

    /// The `COMPUTE_USER_DATA_*` values: set-table, push-block and workgroup-count addresses,
    /// then the scratch ring address when the shader uses scratch.
    pub fn user_data(self, set_table: u64, push: u64, counts: u64, scratch_ring: u64) -> Vec<u32> {
        let mut out = Vec::with_capacity(8);
        for a in [set_table, push, counts] {
            out.extend([a as u32, (a >> 32) as u32]);
        }
        if self.scratch {
            out.extend([scratch_ring as u32, (scratch_ring >> 32) as u32]);
        }
        out
    }
}

/// Bytes of scratch ring one wave needs for `bytes_per_lane` of private memory per lane.
pub fn scratch_wave_bytes(bytes_per_lane: u32) -> u32 {
    (bytes_per_lane * WAVE_SIZE).div_ceil(SCRATCH_WAVE_GRANULE) * SCRATCH_WAVE_GRANULE
}

/// `COMPUTE_TMPRING_SIZE` for a ring of `waves` slots of `wave_bytes` each (WAVES bits 11:0,
/// WAVESIZE bits 24:12 in 1 KiB units).
pub fn tmpring_size(waves: u32, wave_bytes: u32) -> u32 {
    (waves & 0xfff) | ((wave_bytes / SCRATCH_WAVE_GRANULE) & 0x1fff) << 12
}
/// VGPRs holding the local invocation id x, y, z.
pub const VGPR_LOCAL_ID: [u8; 3] = [0, 1, 2];
/// Number of descriptor sets in the set table.
pub const MAX_SETS: u32 = 8;
/// Maximum push-constant bytes.
pub const MAX_PUSH_BYTES: u32 = 256;
/// Byte offset of the dynamic-buffer descriptors in the push block.
pub const DYNAMIC_DESCRIPTOR_OFFSET: u32 = 256;
/// Size of a buffer descriptor (V#) in bytes.
pub const BUFFER_DESCRIPTOR_SIZE: u32 = 16;
/// Size of an image descriptor (T#) in bytes.
pub const IMAGE_DESCRIPTOR_SIZE: u32 = 32;
/// Size of a sampler descriptor (S#) in bytes.
pub const SAMPLER_DESCRIPTOR_SIZE: u32 = 16;
/// Array stride of combined image/sampler descriptors: T#, S#, 16 unused bytes (a power of
/// two, so an index becomes a byte offset with one shift).
pub const COMBINED_DESCRIPTOR_SIZE: u32 = 64;
/// Byte offset of the S# within a combined image/sampler descriptor.
pub const COMBINED_SAMPLER_OFFSET: u32 = 32;
/// Wave size.
pub const WAVE_SIZE: u32 = 32;
/// LDS allocation granule in bytes (RSRC2.LDS_SIZE unit on gfx10.3).
pub const LDS_GRANULE: u32 = 512;
/// VGPR allocation granule in wave32 (RSRC1.VGPRS unit).
pub const VGPR_GRANULE: u32 = 8;
/// SGPRs addressable by a compute wave on gfx10.3 (s0..s105).
pub const MAX_SGPRS: u32 = 106;
/// VGPRs addressable by a wave32 lane.
pub const MAX_VGPRS: u32 = 256;

/// `COMPUTE_PGM_RSRC1` fields we set.
pub mod rsrc1 {
    /// VGPRS granule count minus one, bits 5:0.
    pub const VGPRS_SHIFT: u32 = 0;
    /// FLOAT_MODE, bits 19:12.
    pub const FLOAT_MODE_SHIFT: u32 = 12;
    /// Round to nearest even, f32 and f16/f64 denormals preserved (0xF0: both denorm fields 3).
    pub const FLOAT_MODE_DEFAULT: u32 = 0xF0;
    /// FLOAT_MODE's FP_ROUND f32 field (bits 1:0 of the mode; 3 = toward zero) and FP_DENORM
    /// f32 field (bits 5:4; 0 = flush inputs and outputs, 3 = allow both), from the RDNA2
    /// ISA guide's MODE register.
    pub const FP_ROUND_32_MASK: u32 = 0x03;
    pub const FP_ROUND_32_TOWARD_ZERO: u32 = 0x03;
    pub const FP_DENORM_32_MASK: u32 = 0x30;
    /// DX10_CLAMP, bit 21.
    pub const DX10_CLAMP: u32 = 1 << 21;
    /// IEEE_MODE, bit 23.
    pub const IEEE_MODE: u32 = 1 << 23;
    /// MEM_ORDERED, bit 30.
    pub const MEM_ORDERED: u32 = 1 << 30;
    /// FWD_PROGRESS, bit 31.
    pub const FWD_PROGRESS: u32 = 1 << 31;
}

/// `COMPUTE_PGM_RSRC2` fields we set.
pub mod rsrc2 {
    /// SCRATCH_EN, bit 0.
    pub const SCRATCH_EN: u32 = 1;
    /// USER_SGPR, bits 5:1.
    pub const USER_SGPR_SHIFT: u32 = 1;
    /// TGID_X_EN, TGID_Y_EN, TGID_Z_EN: bits 7, 8, 9.
    pub const TGID_XYZ_EN: u32 = 7 << 7;
    /// TIDIG_COMP_CNT, bits 12:11.
    pub const TIDIG_COMP_CNT_SHIFT: u32 = 11;
    /// LDS_SIZE granules, bits 23:15.
    pub const LDS_SIZE_SHIFT: u32 = 15;
}

/// `COMPUTE_DISPATCH_INITIATOR.CS_W32_EN`.
pub const DISPATCH_INITIATOR_CS_W32_EN: u32 = 1 << 15;

/// Kind of a descriptor binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescriptorKind {
    /// Uniform buffer in set memory.
    UniformBuffer,
    /// Storage buffer in set memory.
    StorageBuffer,
    /// Dynamic uniform buffer (V# in the push block).
    UniformBufferDynamic,
    /// Dynamic storage buffer (V# in the push block).
    StorageBufferDynamic,
    /// Sampled image: a T# ([`IMAGE_DESCRIPTOR_SIZE`] bytes).
    SampledImage,
    /// Storage image: a T#.
    StorageImage,
    /// Input attachment: a T# of a 2D-array (or 2D-array MSAA) type covering the view's
    /// layers, because a `subpassLoad` always addresses (x, y, layer).
    InputAttachment,
    /// Sampler: an S# ([`SAMPLER_DESCRIPTOR_SIZE`] bytes).
    Sampler,
    /// Combined image and sampler: T# at byte 0, S# at byte [`COMBINED_SAMPLER_OFFSET`],
    /// [`COMBINED_DESCRIPTOR_SIZE`] bytes per element.
    CombinedImageSampler,
    /// Uniform texel buffer: a typed V# (STRIDE = texel size, NUM_RECORDS = texel count).
    UniformTexelBuffer,
    /// Storage texel buffer: a typed V# like the uniform one.
    StorageTexelBuffer,
}

impl DescriptorKind {
    /// True for the dynamic variants, whose V#s live in the push block.
    pub fn is_dynamic(self) -> bool {
        matches!(self, DescriptorKind::UniformBufferDynamic | DescriptorKind::StorageBufferDynamic)
    }

    /// Bytes one array element of this kind takes in set memory (the array stride).
    pub fn descriptor_size(self) -> u32 {
        match self {
            DescriptorKind::SampledImage
            | DescriptorKind::StorageImage
            | DescriptorKind::InputAttachment => IMAGE_DESCRIPTOR_SIZE,
            DescriptorKind::Sampler => SAMPLER_DESCRIPTOR_SIZE,
            DescriptorKind::CombinedImageSampler => COMBINED_DESCRIPTOR_SIZE,
            _ => BUFFER_DESCRIPTOR_SIZE,
        }
    }

    /// True for uniform buffers (read-only, so scalar loads through the scalar cache are safe).
    pub fn is_uniform(self) -> bool {
        matches!(self, DescriptorKind::UniformBuffer | DescriptorKind::UniformBufferDynamic)
    }
}

/// Where one binding's descriptors live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BindingLayout {
    /// Descriptor kind.
    pub kind: DescriptorKind,
    /// Byte offset in the set's memory, or for dynamic kinds the index of the first element in
    /// the push block's dynamic-descriptor array.
    pub offset: u32,
    /// Array size (1 for plain bindings).
    pub array_size: u32,
}

impl BindingLayout {
    /// Byte offset of element 0's V#, relative to the base the kind names: set memory for
    /// plain bindings, the push block for dynamic ones.
    pub fn descriptor_offset(&self) -> u32 {
        if self.kind.is_dynamic() {
            DYNAMIC_DESCRIPTOR_OFFSET + self.offset * BUFFER_DESCRIPTOR_SIZE
        } else {
            self.offset
        }
    }
}

/// The pipeline layout as the compiler needs it: every `(set, binding)` the shader may use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceLayout {
    /// Bindings by (set, binding).
    pub bindings: BTreeMap<(u32, u32), BindingLayout>,
}

impl ResourceLayout {
    /// The binding, if declared.
    pub fn get(&self, set: u32, binding: u32) -> Option<&BindingLayout> {
        self.bindings.get(&(set, binding))
    }

    /// The layout an icd would build for these bindings with no dynamic buffers: each set's
    /// bindings in increasing binding order, array elements consecutive, each
    /// [`DescriptorKind::descriptor_size`] bytes.
    /// Tools and tests use it when no pipeline layout is given.
    pub fn packed(bindings: &[((u32, u32), DescriptorKind, u32)]) -> Self {
        let mut sorted = bindings.to_vec();
        sorted.sort_by_key(|b| b.0);
        let mut next = BTreeMap::<u32, u32>::new();
        let mut dynamic = 0;
        let mut out = ResourceLayout::default();
        for ((set, binding), kind, array_size) in sorted {
            let offset = if kind.is_dynamic() {
                dynamic += array_size;
                dynamic - array_size
            } else {
                let at = next.entry(set).or_insert(0);
                *at += array_size * kind.descriptor_size();
                *at - array_size * kind.descriptor_size()
            };
            out.bindings.insert((set, binding), BindingLayout { kind, offset, array_size });
        }
        out
    }
}

/// The four dwords of a raw-buffer V# for `size` bytes at `addr` (stride 0, DST_SEL XYZW,
/// FORMAT 32_FLOAT, OOB_SELECT raw, RESOURCE_LEVEL 1), as descriptors-gfx103.md describes.
pub fn raw_buffer_descriptor(addr: u64, size: u32) -> [u32; 4] {
    let dst_sel = 4 | (5 << 3) | (6 << 6) | (7 << 9);
    let format_32_float = 22 << 12;
    let resource_level = 1 << 24;
    let oob_raw = 3 << 28;
    [
        addr as u32,
        (addr >> 32) as u32 & 0xffff,
        size,
        dst_sel | format_32_float | resource_level | oob_raw,
    ]
}

/// Register values and sizes of a compiled compute shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderMetadata {
    /// `COMPUTE_PGM_RSRC1`.
    pub rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`.
    pub rsrc2: u32,
    /// `COMPUTE_PGM_RSRC3`.
    pub rsrc3: u32,
    /// Workgroup size (`COMPUTE_NUM_THREAD_X/Y/Z`).
    pub workgroup_size: [u32; 3],
    /// VGPRs used per lane (before granule rounding).
    pub vgprs: u32,
    /// SGPRs used (before rounding).
    pub sgprs: u32,
    /// LDS bytes per workgroup.
    pub lds_bytes: u32,
    /// Scratch bytes per lane.
    pub scratch_bytes_per_lane: u32,
    /// User SGPRs the shader expects ([`UserSgprs::count`]: 8 with scratch, else 6).
    pub user_sgprs: u32,
}

/// The FLOAT_MODE byte (RSRC1 bits 19:12 of every stage) for a shader's float controls.
pub fn float_mode(fc: crate::ir::FloatControls) -> u32 {
    let mut mode = rsrc1::FLOAT_MODE_DEFAULT;
    if fc.round_toward_zero_32 {
        mode = mode & !rsrc1::FP_ROUND_32_MASK | rsrc1::FP_ROUND_32_TOWARD_ZERO;
    }
    if fc.flush_denorms_32 {
        mode &= !rsrc1::FP_DENORM_32_MASK;
    }
    mode
}

/// `rsrc1` (of any stage) with its FLOAT_MODE field replaced by the shader's.
pub fn with_float_mode(rsrc1: u32, fc: crate::ir::FloatControls) -> u32 {
    rsrc1 & !(0xff << rsrc1::FLOAT_MODE_SHIFT) | float_mode(fc) << rsrc1::FLOAT_MODE_SHIFT
}

impl ShaderMetadata {
    /// Computes the register values for a shader with these resource needs.
    pub fn new(workgroup_size: [u32; 3], vgprs: u32, sgprs: u32, lds: u32, scratch: u32) -> Self {
        // At least one granule, and local ids arrive in v0..v2.
        let vgprs = vgprs.max(3);
        let vgpr_granules = vgprs.div_ceil(VGPR_GRANULE).max(1);
        let rsrc1 = ((vgpr_granules - 1) << rsrc1::VGPRS_SHIFT)
            | (rsrc1::FLOAT_MODE_DEFAULT << rsrc1::FLOAT_MODE_SHIFT)
            | rsrc1::DX10_CLAMP
            | rsrc1::IEEE_MODE
            | rsrc1::MEM_ORDERED;
        let lds_granules = lds.div_ceil(LDS_GRANULE);
        let user = UserSgprs { scratch: scratch > 0 };
        let rsrc2 = (user.count() << rsrc2::USER_SGPR_SHIFT)
            | rsrc2::TGID_XYZ_EN
            | (2 << rsrc2::TIDIG_COMP_CNT_SHIFT)
            | (lds_granules << rsrc2::LDS_SIZE_SHIFT)
            | if scratch > 0 { rsrc2::SCRATCH_EN } else { 0 };
        ShaderMetadata {
            rsrc1,
            rsrc2,
            rsrc3: 0,
            workgroup_size,
            vgprs,
            sgprs,
            lds_bytes: lds,
            scratch_bytes_per_lane: scratch,
            user_sgprs: user.count(),
        }
    }

    /// The user-SGPR layout this shader expects.
    pub fn user_layout(&self) -> UserSgprs {
        UserSgprs { scratch: self.scratch_bytes_per_lane > 0 }
    }

    /// `COMPUTE_TMPRING_SIZE` for a ring of [`SCRATCH_RING_WAVES`] slots big enough for this
    /// shader (0 without scratch).
    pub fn tmpring_size(&self) -> u32 {
        if self.scratch_bytes_per_lane == 0 {
            return 0;
        }
        tmpring_size(SCRATCH_RING_WAVES, scratch_wave_bytes(self.scratch_bytes_per_lane))
    }

    /// Bytes of the scratch ring this shader needs (0 without scratch).
    pub fn scratch_ring_bytes(&self) -> u64 {
        u64::from(SCRATCH_RING_WAVES) * u64::from(scratch_wave_bytes(self.scratch_bytes_per_lane))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_controls_select_the_f32_mode_fields_only() {
        use crate::ir::FloatControls;
        let m = ShaderMetadata::new([64, 1, 1], 20, 30, 0, 0);
        let mode = |fc| with_float_mode(m.rsrc1, fc) >> 12 & 0xff;
        assert_eq!(mode(FloatControls::default()), 0xf0, "RNE, all denormals kept");
        let ftz = FloatControls { flush_denorms_32: true, ..Default::default() };
        assert_eq!(mode(ftz), 0xc0, "FP_DENORM f32 = 0 (flush in and out), f16/f64 kept");
        let rtz = FloatControls { round_toward_zero_32: true, ..Default::default() };
        assert_eq!(mode(rtz), 0xf3, "FP_ROUND f32 = 3 (toward zero), f16/f64 nearest even");
        let both = FloatControls { flush_denorms_32: true, round_toward_zero_32: true };
        assert_eq!(with_float_mode(m.rsrc1, both) & !(0xff << 12), m.rsrc1 & !(0xff << 12));
    }

    #[test]
    fn rsrc_fields_land_where_the_register_database_puts_them() {
        let m = ShaderMetadata::new([64, 1, 1], 20, 30, 1000, 0);
        assert_eq!(m.rsrc1 & 0x3f, 2, "20 VGPRs = 3 granules of 8");
        assert_eq!(m.rsrc2 >> 1 & 0x1f, 6);
        assert_eq!(m.rsrc2 >> 7 & 7, 7);
        assert_eq!(m.rsrc2 >> 11 & 3, 2);
        assert_eq!(m.rsrc2 >> 15 & 0x1ff, 2, "1000 bytes = 2 granules of 512");
        assert_eq!(m.rsrc2 & 1, 0);
    }

    #[test]
    fn scratch_shaders_take_the_ring_address_before_the_workgroup_ids() {
        let m = ShaderMetadata::new([64, 1, 1], 20, 30, 0, 400);
        assert_eq!(m.rsrc2 & 1, 1, "SCRATCH_EN");
        assert_eq!(m.rsrc2 >> 1 & 0x1f, 8);
        let u = m.user_layout();
        assert_eq!(u.workgroup_id(), [8, 9, 10]);
        assert_eq!(u.scratch_wave_offset(), Some(11));
        assert_eq!(u.user_data(1, 2, 3, 0x1_0000_0004)[6..], [4, 1]);
        // 400 bytes x 32 lanes = 12.5 KiB -> 13 granules of 1 KiB.
        assert_eq!(m.tmpring_size(), SCRATCH_RING_WAVES | 13 << 12);
        let plain = ShaderMetadata::new([64, 1, 1], 20, 30, 0, 0).user_layout();
        assert_eq!((plain.workgroup_id(), plain.scratch_wave_offset()), ([6, 7, 8], None));
        assert_eq!(plain.user_data(1, 2, 3, 9).len(), 6);
    }

    #[test]
    fn packed_layout_assigns_consecutive_descriptors() {
        let l = ResourceLayout::packed(&[
            ((0, 2), DescriptorKind::StorageBuffer, 1),
            ((0, 0), DescriptorKind::UniformBuffer, 3),
            ((1, 0), DescriptorKind::StorageBufferDynamic, 2),
            ((1, 1), DescriptorKind::UniformBufferDynamic, 1),
        ]);
        assert_eq!(l.get(0, 0).unwrap().offset, 0);
        assert_eq!(l.get(0, 2).unwrap().offset, 48);
        assert_eq!(l.get(1, 0).unwrap().descriptor_offset(), 256);
        assert_eq!(l.get(1, 1).unwrap().descriptor_offset(), 256 + 32);
    }
}
