//! SPV_KHR_float_controls execution modes: which ones the backend honours.
//!
//! GFX10.3's FLOAT_MODE (RSRC1 bits 19:12) has one rounding and one denormal field for f32 and
//! one pair shared by f16 and f64. The defaults Ferrum runs with are round to nearest even and
//! denormals preserved at every width, so `RoundingModeRTE` and `DenormPreserve` are honoured
//! at every width as they are. `DenormFlushToZero` and `RoundingModeRTZ` are honoured for f32
//! only: for f16/f64 they would change the shared field (VkPhysicalDeviceFloatControls-
//! Properties reports TYPE_32_ONLY independence) and the simulator models only nearest-even
//! rounding there. `SignedZeroInfNanPreserve` is not advertised. Anything else is refused
//! with a CompileError naming the mode.

use crate::error::CompileError;
use crate::ir::FloatControls;
use spirv::ExecutionMode as M;

/// Applies one execution mode with its target width to `fc`.
pub fn apply(fc: &mut FloatControls, mode: M, width: u32) -> Result<(), CompileError> {
    let refuse = || {
        Err(CompileError::unsupported(
            "OpExecutionMode",
            format!("{mode:?} for {width}-bit floats (not advertised)"),
        ))
    };
    if !matches!(width, 16 | 32 | 64) {
        return Err(CompileError::invalid("OpExecutionMode", format!("{mode:?} width {width}")));
    }
    match (mode, width) {
        (M::DenormPreserve | M::RoundingModeRTE, _) => {}
        (M::DenormFlushToZero, 32) => fc.flush_denorms_32 = true,
        (M::RoundingModeRTZ, 32) => fc.round_toward_zero_32 = true,
        _ => return refuse(),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_modes_are_recorded_and_other_widths_refused() {
        let mut fc = FloatControls::default();
        apply(&mut fc, M::DenormPreserve, 16).unwrap();
        apply(&mut fc, M::RoundingModeRTE, 64).unwrap();
        assert_eq!(fc, FloatControls::default(), "the defaults need nothing");
        apply(&mut fc, M::DenormFlushToZero, 32).unwrap();
        apply(&mut fc, M::RoundingModeRTZ, 32).unwrap();
        assert!(fc.flush_denorms_32 && fc.round_toward_zero_32);
        assert!(apply(&mut fc, M::DenormFlushToZero, 16).is_err());
        assert!(apply(&mut fc, M::RoundingModeRTZ, 64).is_err());
        assert!(apply(&mut fc, M::SignedZeroInfNanPreserve, 32).is_err());
        assert!(apply(&mut fc, M::DenormPreserve, 8).is_err());
    }
}
