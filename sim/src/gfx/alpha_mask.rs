//! Alpha to coverage (DB_ALPHA_TO_MASK): the alpha of the pixel shader's `mrt0` export
//! becomes a sample mask ANDed into the pixel's coverage before the depth test.
//!
//! What is modelled, and why: no public document gives the hardware's exact alpha → mask
//! function, only the register fields: ALPHA_TO_MASK_ENABLE, one 2-bit ALPHA_TO_MASK_OFFSETn
//! per pixel of the 2x2 quad (n = x & 1 | (y & 1) << 1, the order the PA_SC_AA_MASK and
//! sample-location registers use for the quad's pixels) and OFFSET_ROUND. RADV programs the
//! offsets (3, 1, 0, 2) with OFFSET_ROUND = 1 (dithered) and (2, 2, 2, 2) with OFFSET_ROUND = 0
//! (its RADV_DEBUG=noatocdithering), and DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES = the sample count.
//! We read the offset as a rounding threshold in quarters of a sample:
//!
//! `covered samples = floor(clamp(alpha, 0, 1) * N + (offset + OFFSET_ROUND / 2) / 4)`
//!
//! so (2, 2, 2, 2) without OFFSET_ROUND rounds to nearest and RADV's dithered pattern gives the
//! thresholds 7/8, 3/8, 1/8, 5/8 over the quad (mean 1/2, a 2x2 ordered dither). The first
//! `covered` samples in index order are kept. This is what Vulkan asks of the function
//! (§ Multisample Coverage: alpha 0 covers no sample, alpha 1 every sample, and the count
//! never decreases as alpha grows, per pixel; the bits themselves are implementation-
//! dependent), with the threshold < 1 guaranteeing the two ends; it is not claimed to be the
//! hardware's bit-exact dither. NaN alpha counts as 0.

use ferrum_regs::gfx103 as r;

/// The decoded DB_ALPHA_TO_MASK (with the sample count it applies to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlphaToMask {
    /// ALPHA_TO_MASK_OFFSET0..3, by pixel of the quad.
    pub offsets: [u8; 4],
    /// OFFSET_ROUND.
    pub round: bool,
    /// Samples the mask covers (DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES, at most the raster's).
    pub samples: u32,
}

impl AlphaToMask {
    /// `None` when ALPHA_TO_MASK_ENABLE is clear.
    pub fn from_regs(value: u32, eqaa: u32, raster_samples: u32) -> Option<AlphaToMask> {
        use r::DB_ALPHA_TO_MASK as F;
        if !F::ALPHA_TO_MASK_ENABLE.is_set(value) {
            return None;
        }
        let fields = [
            F::ALPHA_TO_MASK_OFFSET0,
            F::ALPHA_TO_MASK_OFFSET1,
            F::ALPHA_TO_MASK_OFFSET2,
            F::ALPHA_TO_MASK_OFFSET3,
        ];
        let n = 1u32 << r::DB_EQAA::ALPHA_TO_MASK_NUM_SAMPLES.get(eqaa).min(4);
        Some(AlphaToMask {
            offsets: fields.map(|f| f.get(value) as u8),
            round: F::OFFSET_ROUND.is_set(value),
            samples: n.min(raster_samples.max(1)),
        })
    }

    /// The sample mask of pixel (x, y) for `alpha`.
    pub fn mask(&self, x: i32, y: i32, alpha: f32) -> u16 {
        let quad_pixel = (x & 1 | (y & 1) << 1) as usize;
        // Quarters of a sample, doubled so OFFSET_ROUND's half step stays an integer.
        let threshold8 = 2 * u32::from(self.offsets[quad_pixel]) + u32::from(self.round);
        let a = if alpha.is_nan() { 0.0 } else { alpha.clamp(0.0, 1.0) } as f64;
        let n = self.samples;
        let count = ((a * f64::from(n) + f64::from(threshold8) / 8.0).floor() as u32).min(n);
        ((1u32 << count) - 1) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn radv(samples: u32) -> AlphaToMask {
        AlphaToMask { offsets: [3, 1, 0, 2], round: true, samples }
    }

    #[test]
    fn ends_are_exact_and_the_count_grows_with_alpha() {
        for n in [1, 2, 4, 8] {
            for dither in [radv(n), AlphaToMask { offsets: [2; 4], round: false, samples: n }] {
                for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1), (7, 3)] {
                    assert_eq!(dither.mask(x, y, 0.0), 0);
                    assert_eq!(dither.mask(x, y, -1.0), 0);
                    assert_eq!(dither.mask(x, y, f32::NAN), 0);
                    assert_eq!(dither.mask(x, y, 1.0), ((1u32 << n) - 1) as u16);
                    assert_eq!(dither.mask(x, y, 7.0), ((1u32 << n) - 1) as u16);
                    let mut last = 0;
                    for k in 0..=1000 {
                        let c = dither.mask(x, y, k as f32 / 1000.0).count_ones();
                        assert!(c >= last, "{n} samples at ({x}, {y}), alpha {k}/1000");
                        last = c;
                    }
                }
            }
        }
    }

    #[test]
    fn hand_computed_counts() {
        // 4 samples, alpha 0.3: 1.2 samples plus the thresholds 7/8, 3/8, 1/8, 5/8 of pixels
        // (0,0), (1,0), (0,1), (1,1): 2, 1, 1, 1 samples.
        let m = radv(4);
        let counts = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| m.mask(x, y, 0.3));
        assert_eq!(counts, [0b11, 0b1, 0b1, 0b1]);
        // Alpha 0.5 on 4 samples is exactly 2 everywhere; on 8 samples 4.
        assert!([(0, 0), (1, 0), (0, 1), (1, 1)].iter().all(|&(x, y)| m.mask(x, y, 0.5) == 0b11));
        assert_eq!(radv(8).mask(1, 1, 0.5), 0xf);
        // Round to nearest without dither: 2 samples, alpha 0.25 → 0.5 → 1 sample; 0.24 → 0.
        let plain = AlphaToMask { offsets: [2; 4], round: false, samples: 2 };
        assert_eq!(plain.mask(0, 0, 0.25), 1);
        assert_eq!(plain.mask(0, 0, 0.24), 0);
        // The registers as RADV writes them.
        let v = r::DB_ALPHA_TO_MASK::ALPHA_TO_MASK_ENABLE.val(1)
            | r::DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET0.val(3)
            | r::DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET1.val(1)
            | r::DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET3.val(2)
            | r::DB_ALPHA_TO_MASK::OFFSET_ROUND.val(1);
        let eqaa = r::DB_EQAA::ALPHA_TO_MASK_NUM_SAMPLES.val(2);
        assert_eq!(AlphaToMask::from_regs(v, eqaa, 4), Some(radv(4)));
        assert_eq!(AlphaToMask::from_regs(v & !1, eqaa, 4), None);
    }
}
