//! Pipeline and dynamic state blocks, one module per block of the Vulkan pipeline.

pub mod blend;
pub mod depth;
pub mod input_assembly;
pub mod multisample;
pub mod rasterization;
pub mod viewport;

use ash::vk;
use ferrum_regs::gfx103::enums::CompareFrag as C;

/// A Vulkan compare op as the DB's CompareFrag (ZFUNC, STENCILFUNC).
pub fn compare_func(op: vk::CompareOp) -> u32 {
    match op {
        vk::CompareOp::NEVER => C::FRAG_NEVER,
        vk::CompareOp::LESS => C::FRAG_LESS,
        vk::CompareOp::EQUAL => C::FRAG_EQUAL,
        vk::CompareOp::LESS_OR_EQUAL => C::FRAG_LEQUAL,
        vk::CompareOp::GREATER => C::FRAG_GREATER,
        vk::CompareOp::NOT_EQUAL => C::FRAG_NOTEQUAL,
        vk::CompareOp::GREATER_OR_EQUAL => C::FRAG_GEQUAL,
        // Valid usage allows nothing else; ALWAYS for ALWAYS and out-of-range values alike.
        _ => C::FRAG_ALWAYS,
    }
}
