//! Driver errors as values.
//!
//! Internal functions return `Result<T, VkError>`; only the entry wrappers in `entry` turn an
//! error into a `VkResult`. Each variant maps to exactly one Vulkan error code, so a reader of an
//! internal function sees which code an application will get without chasing conversions.

use ash::vk;
use thiserror::Error;

/// An error reported to the application as a negative `VkResult`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VkError {
    #[error("out of host memory")]
    OutOfHostMemory,
    #[error("out of device memory")]
    OutOfDeviceMemory,
    #[error("initialization failed: {0}")]
    InitializationFailed(String),
    #[error("memory map failed: {0}")]
    MemoryMapFailed(String),
    #[error("extension not present: {0}")]
    ExtensionNotPresent(String),
    #[error("layer not present: {0}")]
    LayerNotPresent(String),
    #[error("feature not present: {0}")]
    FeatureNotPresent(String),
    #[error("incompatible driver: {0}")]
    IncompatibleDriver(String),
    #[error("format not supported")]
    FormatNotSupported,
    /// Bad SPIR-V found when a pipeline is created. Vulkan 1.0 has no dedicated code; the
    /// spec lets pipeline creation fail with an unknown error for invalid shaders.
    #[error("invalid shader: {0}")]
    InvalidShader(String),
    #[error("descriptor pool exhausted")]
    OutOfPoolMemory,
    #[error("descriptor pool too fragmented")]
    FragmentedPool,
    #[error("device lost: {0}")]
    DeviceLost(String),
    /// VK_EXT_pipeline_creation_cache_control: the pipeline asked not to be compiled and is
    /// not in the cache. A (positive) success code, reported through the error path because
    /// the pipeline is not created.
    #[error("pipeline compile required")]
    PipelineCompileRequired,
    /// Invalid API usage that the driver detects cheaply. Valid usage is the application's
    /// duty, but failing loudly beats corrupting state.
    #[error("invalid usage: {0}")]
    InvalidUsage(&'static str),
    /// A Vulkan command whose feature Ferrum does not implement yet, reached although nothing
    /// advertised makes it valid to call.
    #[error("not implemented yet: {0}")]
    NotImplemented(&'static str),
    /// A refusal (what would be [`VkError::FeatureNotPresent`] elsewhere) from a command whose
    /// error codes do not include VK_ERROR_FEATURE_NOT_PRESENT: pipeline creation may return
    /// only OUT_OF_HOST/DEVICE_MEMORY, INVALID_SHADER_NV and VK_ERROR_UNKNOWN, which the spec
    /// lets any command return for an implementation failure.
    #[error("not supported: {0}")]
    Unsupported(String),
}

impl VkError {
    /// The `VkResult` an application sees for this error.
    pub fn result(&self) -> vk::Result {
        match self {
            VkError::OutOfHostMemory => vk::Result::ERROR_OUT_OF_HOST_MEMORY,
            VkError::OutOfDeviceMemory => vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
            VkError::InitializationFailed(_) => vk::Result::ERROR_INITIALIZATION_FAILED,
            VkError::MemoryMapFailed(_) => vk::Result::ERROR_MEMORY_MAP_FAILED,
            VkError::ExtensionNotPresent(_) => vk::Result::ERROR_EXTENSION_NOT_PRESENT,
            VkError::LayerNotPresent(_) => vk::Result::ERROR_LAYER_NOT_PRESENT,
            VkError::FeatureNotPresent(_) => vk::Result::ERROR_FEATURE_NOT_PRESENT,
            VkError::IncompatibleDriver(_) => vk::Result::ERROR_INCOMPATIBLE_DRIVER,
            VkError::FormatNotSupported => vk::Result::ERROR_FORMAT_NOT_SUPPORTED,
            VkError::InvalidShader(_) => vk::Result::ERROR_UNKNOWN,
            VkError::OutOfPoolMemory => vk::Result::ERROR_OUT_OF_POOL_MEMORY,
            VkError::FragmentedPool => vk::Result::ERROR_FRAGMENTED_POOL,
            VkError::DeviceLost(_) => vk::Result::ERROR_DEVICE_LOST,
            VkError::PipelineCompileRequired => vk::Result::PIPELINE_COMPILE_REQUIRED,
            // There is no dedicated code for a detected misuse; VK_ERROR_UNKNOWN is what the
            // spec offers for "something went wrong that no other code describes".
            VkError::InvalidUsage(_) => vk::Result::ERROR_UNKNOWN,
            VkError::NotImplemented(_) => vk::Result::ERROR_UNKNOWN,
            VkError::Unsupported(_) => vk::Result::ERROR_UNKNOWN,
        }
    }

    /// This error as vkCreateGraphicsPipelines and vkCreateComputePipelines may report it:
    /// refusals become [`VkError::Unsupported`] (VK_ERROR_UNKNOWN); every other variant
    /// already maps to a code those commands may return (or is a detected misuse, also
    /// VK_ERROR_UNKNOWN). A shader the compiler cannot compile is
    /// [`VkError::InvalidShader`], VK_ERROR_UNKNOWN on both.
    pub fn in_pipeline_creation(self) -> VkError {
        match self {
            VkError::FeatureNotPresent(what) => VkError::Unsupported(what),
            VkError::FormatNotSupported => VkError::Unsupported("format".into()),
            other => other,
        }
    }
}

/// Result type of every internal driver function.
pub type VkResult<T> = Result<T, VkError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_creation_reports_only_its_codes() {
        let legal = [
            vk::Result::ERROR_OUT_OF_HOST_MEMORY,
            vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
            vk::Result::ERROR_UNKNOWN,
            vk::Result::PIPELINE_COMPILE_REQUIRED,
        ];
        let errors = [
            VkError::FeatureNotPresent("x".into()),
            VkError::FormatNotSupported,
            VkError::InvalidShader("x".into()),
            VkError::OutOfHostMemory,
            VkError::OutOfDeviceMemory,
            VkError::PipelineCompileRequired,
            VkError::InvalidUsage("x"),
        ];
        for e in errors {
            let r = e.clone().in_pipeline_creation().result();
            assert!(legal.contains(&r), "{e:?} → {r:?}");
        }
    }
}
