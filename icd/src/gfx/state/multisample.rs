//! Multisample state: sample count (PA_SC_AA_CONFIG, PA_SC_MODE_CNTL_0.MSAA_ENABLE, DB_EQAA),
//! the sample mask (PA_SC_AA_MASK_*), Vulkan's standard sample locations
//! (PA_SC_AA_SAMPLE_LOCS_*, PA_SC_CENTROID_PRIORITY_*) and sample shading (PS_ITER_SAMPLES).
//!
//! Facts: the Vulkan spec's standard sample locations table; the register database; RADV
//! (`radv_pipeline_graphics.c`, `radv_cmd_buffer.c`) for the programming: sample offsets in
//! signed 1/16 pixel from the pixel centre, the same pattern for all four pixels of the 2x2
//! quad; centroid priority lists samples nearest the centre first; MAX_SAMPLE_DIST is the
//! largest offset component.
//!
//! Sample shading: Vulkan asks for at least ceil(minSampleShading * samples) invocations; the
//! simulator runs one per pixel or one per sample, so any request above one becomes one per
//! sample (allowed: the count is a minimum). Alpha to one is the pixel shader's: its exports
//! carry 1.0 as alpha (the compiler's `PsKey::alpha_to_one`, from the pipeline's key).
//!
//! Alpha to coverage (core Vulkan, no feature bit): DB_ALPHA_TO_MASK as RADV programs it by
//! default, ALPHA_TO_MASK_ENABLE with the dithered per-pixel offsets (3, 1, 0, 2) and
//! OFFSET_ROUND; DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES = the sample count. The shader must then
//! export `mrt0`'s alpha even when location 0 has no attachment or a format without alpha
//! ([`alpha_export_format`], as RADV's need_src_alpha). What the simulator makes of the
//! offsets (a Vulkan-valid model, not a documented hardware dither) is in its
//! `gfx::alpha_mask`.

use ash::vk;
use ferrum_regs::gfx103 as r;

use crate::error::VkResult;
use crate::gfx::{refuse, Regs};

/// Vulkan's standard sample locations in 1/16 pixel from the top-left corner for `samples`
/// (1, 2, 4, 8): the compiler ABI's table, which the pixel shader also reads.
pub fn sample_offsets(samples: u32) -> &'static [(i32, i32)] {
    ferrum_compiler::amd::abi::graphics::standard_sample_locations(samples)
}

fn log2_samples(samples: vk::SampleCountFlags) -> VkResult<u32> {
    match samples.as_raw() {
        1 => Ok(0),
        2 => Ok(1),
        4 => Ok(2),
        8 => Ok(3),
        _ => Err(refuse("sample counts other than 1, 2, 4 and 8")),
    }
}

/// The multisample values the registers depend on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Multisample {
    /// log2 of rasterizationSamples.
    pub log2: u32,
    /// Whether the pixel shader runs once per sample.
    pub per_sample: bool,
    /// The first word of pSampleMask (all ones when absent).
    pub mask: u32,
    /// alphaToCoverageEnable.
    pub alpha_to_coverage: bool,
}

impl Multisample {
    /// The state `info` asks for; `shader_per_sample`: the pixel shader itself needs one
    /// invocation per sample (`PsMetadata::per_sample`: it reads gl_SampleID or
    /// gl_SamplePosition or has `sample` inputs, which Vulkan treats as sample shading with
    /// minSampleShading 1.0).
    pub fn from_info(
        info: &vk::PipelineMultisampleStateCreateInfo<'_>,
        shader_per_sample: bool,
    ) -> VkResult<Multisample> {
        let log2 = log2_samples(info.rasterization_samples)?;
        // At least ceil(minSampleShading * samples) invocations per pixel.
        let wanted = (info.min_sample_shading * (1u32 << log2) as f32).ceil();
        let per_sample = (info.sample_shading_enable != 0 && wanted > 1.0) || shader_per_sample;
        let mask = if info.p_sample_mask.is_null() {
            u32::MAX
        } else {
            // SAFETY: valid usage: pSampleMask holds ceil(samples / 32) words.
            unsafe { *info.p_sample_mask }
        };
        let alpha_to_coverage = info.alpha_to_coverage_enable != 0;
        Ok(Multisample { log2, per_sample, mask, alpha_to_coverage })
    }

    /// log2 of PS_ITER_SAMPLES. When above 0 gl_FragCoord is placed at the sample too
    /// ([`Multisample::baryc_cntl`]). RADV also sets PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE, a
    /// register the driver does not program yet (the simulator does not read it).
    pub fn ps_iter_log2(&self) -> u32 {
        if self.per_sample {
            self.log2
        } else {
            0
        }
    }
}

impl Multisample {
    /// SPI_BARYC_CNTL: POS_FLOAT_LOCATION at the sample (2) when the shader runs per sample,
    /// else the pixel centre (0); FRONT_FACE_ALL_BITS 0 (FRONT_FACE is 1 or 0).
    pub fn baryc_cntl(&self) -> u32 {
        r::SPI_BARYC_CNTL::POS_FLOAT_LOCATION.val(if self.ps_iter_log2() > 0 { 2 } else { 0 })
    }
}

/// PA_SC_MODE_CNTL_0: MSAA on for more than one sample, viewport scissors always on (see
/// `viewport::scissors`), alternate RBs per tile as GFX9+ drivers set it.
pub fn mode_cntl_0(log2: u32) -> u32 {
    use r::PA_SC_MODE_CNTL_0 as F;
    F::MSAA_ENABLE.val((log2 > 0) as u32)
        | F::VPORT_SCISSOR_ENABLE.val(1)
        | F::ALTERNATE_RBS_PER_TILE.val(1)
}

/// PA_SC_AA_CONFIG for 2^log2 samples.
pub fn aa_config(log2: u32) -> u32 {
    use r::PA_SC_AA_CONFIG as F;
    if log2 == 0 {
        return 0;
    }
    let max_dist = sample_offsets(1 << log2)
        .iter()
        .map(|&(x, y)| (x - 8).abs().max((y - 8).abs()))
        .max()
        .unwrap_or(0);
    F::MSAA_NUM_SAMPLES.val(log2)
        | F::MAX_SAMPLE_DIST.val(max_dist as u32)
        | F::MSAA_EXPOSED_SAMPLES.val(log2)
        | F::COVERED_CENTROID_IS_CENTER.val(1)
}

/// DB_EQAA: one anchor, mask-export and alpha-to-mask sample per coverage sample (no mixed
/// depth/colour sample counts), the shader iterations, and the fixed bits RADV sets.
pub fn db_eqaa(log2: u32, ps_iter_log2: u32) -> u32 {
    use r::DB_EQAA as F;
    F::MAX_ANCHOR_SAMPLES.val(log2)
        | F::PS_ITER_SAMPLES.val(ps_iter_log2)
        | F::MASK_EXPORT_NUM_SAMPLES.val(log2)
        | F::ALPHA_TO_MASK_NUM_SAMPLES.val(log2)
        | F::HIGH_QUALITY_INTERSECTIONS.val(1)
        | F::INCOHERENT_EQAA_READS.val(1)
        | F::INTERPOLATE_COMP_Z.val(1)
        | F::STATIC_ANCHOR_ASSOCIATIONS.val(1)
}

/// DB_ALPHA_TO_MASK: RADV's dithered offsets, enabled for alpha to coverage.
pub fn db_alpha_to_mask(enable: bool) -> u32 {
    use r::DB_ALPHA_TO_MASK as F;
    F::ALPHA_TO_MASK_ENABLE.val(enable as u32)
        | F::ALPHA_TO_MASK_OFFSET0.val(3)
        | F::ALPHA_TO_MASK_OFFSET1.val(1)
        | F::ALPHA_TO_MASK_OFFSET2.val(0)
        | F::ALPHA_TO_MASK_OFFSET3.val(2)
        | F::OFFSET_ROUND.val(1)
}

/// The `mrt0` export format with alpha to coverage: the alpha must reach the DB, so a
/// location without attachment (ZERO) or a format dropping alpha exports it too.
pub fn alpha_export_format(fmt: u32) -> u32 {
    crate::format::cb::with_alpha(fmt)
}

/// PA_SC_AA_MASK_X0Y0_X1Y0 and _X0Y1_X1Y1: the sample mask (pipeline or vkCmdSetSampleMaskEXT)
/// for each pixel of the 2x2 quad, limited to the samples that exist.
pub fn sample_mask(log2: u32, mask: u32) -> Regs {
    let m = mask & ((1u64 << (1u32 << log2.min(4))) - 1) as u32;
    let both = m | m << 16;
    let mut regs = Regs::new();
    regs.push(r::PA_SC_AA_MASK_X0Y0_X1Y0, both);
    regs.push(r::PA_SC_AA_MASK_X0Y1_X1Y1, both);
    regs
}

/// The sample locations and centroid priority for 2^log2 samples (nothing for one sample,
/// where the pixel centre is used).
pub fn sample_locations(log2: u32) -> Regs {
    let mut regs = Regs::new();
    if log2 == 0 {
        return regs;
    }
    let offs = sample_offsets(1 << log2);
    // 4 registers per pixel, 4 samples each: S_X in bits 8k..8k+3, S_Y in 8k+4..8k+7.
    let mut words = [0u32; 4];
    for (s, &(x, y)) in offs.iter().enumerate() {
        let (dx, dy) = ((x - 8) as u32 & 0xf, (y - 8) as u32 & 0xf);
        words[s / 4] |= (dx | dy << 4) << (8 * (s % 4));
    }
    for pixel in 0..4u32 {
        for (k, w) in words.iter().enumerate() {
            regs.push(r::PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 16 * pixel + 4 * k as u32, *w);
        }
    }
    // Nearest the centre first; equal distances keep index order.
    let mut order: Vec<u32> = (0..offs.len() as u32).collect();
    order.sort_by_key(|&i| {
        let (x, y) = offs[i as usize];
        (x - 8).pow(2) + (y - 8).pow(2)
    });
    let mut prio = [0u32; 2];
    for i in 0..16usize {
        prio[i / 8] |= order[i % order.len()] << (4 * (i % 8));
    }
    regs.push(r::PA_SC_CENTROID_PRIORITY_0, prio[0]);
    regs.push(r::PA_SC_CENTROID_PRIORITY_1, prio[1]);
    regs
}

/// The multisample state block (`shader_per_sample`: see [`Multisample::from_info`]).
pub fn multisample(
    info: &vk::PipelineMultisampleStateCreateInfo<'_>,
    shader_per_sample: bool,
) -> VkResult<Regs> {
    let m = Multisample::from_info(info, shader_per_sample)?;
    let mut regs = Regs::new();
    regs.push(r::PA_SC_MODE_CNTL_0, mode_cntl_0(m.log2));
    regs.push(r::PA_SC_AA_CONFIG, aa_config(m.log2));
    regs.push(r::DB_EQAA, db_eqaa(m.log2, m.ps_iter_log2()));
    regs.push(r::DB_ALPHA_TO_MASK, db_alpha_to_mask(m.alpha_to_coverage));
    regs.extend(sample_mask(m.log2, m.mask));
    regs.extend(sample_locations(m.log2));
    Ok(regs)
}

#[cfg(test)]
#[path = "multisample_tests.rs"]
mod tests;
