//! Graphics register state: pure translations from Vulkan pipeline state, dynamic state and
//! attachments to the GFX10.3 context (and a few uconfig) register values that program it.
//!
//! Every function here is pure: it takes `ash::vk` structs or plain values and returns the
//! registers as a [`Regs`] list of `(byte offset, value)` pairs built from the generated
//! `ferrum_regs::gfx103` field table. Command recording decides when to emit them and with
//! which packet: [`ferrum_regs::Space::of`] tells a context register (SET_CONTEXT_REG) from a
//! uconfig one (SET_UCONFIG_REG, e.g. VGT_PRIMITIVE_TYPE and GE_MULTI_PRIM_IB_RESET_EN).
//!
//! State that navi21 could run but the simulator behind Ferrum does not model is refused here
//! with a Vulkan error and a log line (see [`refuse`]), so nothing reaches a draw that the
//! simulator would reject as a device fault.

pub mod state;
pub mod target;

// Objects and recording (gfx-icd): render passes and framebuffers, the one internal "begin
// rendering" description that render passes and dynamic rendering both lower to, graphics
// pipelines (which keep their state as `state` register lists and `dynamic` values) and draws.
pub mod clear_attachments;
pub mod draw;
pub mod dynamic;
pub mod input_attachment;
pub mod multiview;
pub mod pipeline;
pub mod render_pass;
pub mod rendering;
pub mod resolve;

use crate::error::VkError;

/// Register writes: `(byte offset, value)` in the order produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Regs(pub Vec<(u32, u32)>);

impl Regs {
    pub fn new() -> Regs {
        Regs(Vec::new())
    }

    pub fn push(&mut self, offset: u32, value: u32) {
        self.0.push((offset, value));
    }

    /// Appends another list.
    pub fn extend(&mut self, other: Regs) {
        self.0.extend(other.0);
    }

    /// The value last written to `offset`, if any.
    pub fn get(&self, offset: u32) -> Option<u32> {
        self.0.iter().rev().find(|r| r.0 == offset).map(|r| r.1)
    }

    pub fn iter(&self) -> impl Iterator<Item = &(u32, u32)> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for Regs {
    type Item = (u32, u32);
    type IntoIter = std::vec::IntoIter<(u32, u32)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Refuses state Ferrum cannot run (the simulator does not model it, or it needs a feature
/// Ferrum does not advertise): a log line for the developer, `VK_ERROR_FEATURE_NOT_PRESENT`
/// for the application, or VK_ERROR_UNKNOWN from pipeline creation, which may not return
/// the former ([`VkError::in_pipeline_creation`]).
pub fn refuse(what: &str) -> VkError {
    log::warn!("graphics state refused: {what}");
    VkError::FeatureNotPresent(what.to_string())
}

/// The bits of an `f32` (register fields that hold IEEE floats).
pub(crate) fn fui(v: f32) -> u32 {
    v.to_bits()
}

#[cfg(test)]
#[path = "sim_check_tests.rs"]
mod sim_check_tests;
