//! `VkShaderModule`: the SPIR-V words, kept for compilation at pipeline creation.
//!
//! `vkCreateShaderModule` has no error code for bad SPIR-V, so the header is checked here and
//! the verdict kept: a module with a broken header fails pipeline creation with an error
//! instead of reaching the compiler (which must not crash on anything either).

use ash::vk;

use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

const SPIRV_MAGIC: u32 = 0x0723_0203;
/// Magic, version, generator, bound, schema.
const HEADER_WORDS: usize = 5;

/// What the header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpirvHeader {
    pub major: u32,
    pub minor: u32,
    pub bound: u32,
}

/// Checks the module header (SPIR-V spec §2.3 "Physical Layout").
pub fn check_header(words: &[u32]) -> Result<SpirvHeader, String> {
    if words.len() < HEADER_WORDS {
        return Err(format!("{} words is shorter than the SPIR-V header", words.len()));
    }
    if words[0] != SPIRV_MAGIC {
        return Err(format!("bad magic number {:#010x}", words[0]));
    }
    let (major, minor) = ((words[1] >> 16) & 0xff, (words[1] >> 8) & 0xff);
    // Vulkan 1.0 consumes SPIR-V 1.0; later versions up to 1.6 exist.
    if major != 1 || minor > 6 || words[1] & 0xff00_00ff != 0 {
        return Err(format!("unsupported SPIR-V version word {:#010x}", words[1]));
    }
    if words[3] == 0 {
        return Err("id bound 0".into());
    }
    if words[4] != 0 {
        return Err(format!("reserved schema word {:#x}", words[4]));
    }
    Ok(SpirvHeader { major, minor, bound: words[3] })
}

/// A `VkShaderModule`.
#[repr(C)]
pub struct ShaderModule {
    base: ObjectBase,
    pub words: Vec<u32>,
    pub header: Result<SpirvHeader, String>,
}
vk_object!(ShaderModule, vk::ShaderModule, vk::ObjectType::SHADER_MODULE);

impl ShaderModule {
    pub fn new(info: &vk::ShaderModuleCreateInfo<'_>) -> VkResult<Self> {
        // VUID-VkShaderModuleCreateInfo-codeSize-08735: "codeSize must be a multiple of 4"
        // (and greater than 0).
        if info.code_size == 0 || info.code_size % 4 != 0 || info.p_code.is_null() {
            return Err(VkError::InvalidUsage("codeSize must be a non-zero multiple of 4"));
        }
        let words = crate::api::array(info.p_code, (info.code_size / 4) as u32).to_vec();
        let header = check_header(&words);
        if let Err(e) = &header {
            log::warn!("shader module with invalid SPIR-V ({e}); pipelines using it will fail");
        }
        Ok(ShaderModule { base: ObjectBase::new(vk::ObjectType::SHADER_MODULE), words, header })
    }

    /// The words, if the header was valid (pipeline creation calls this).
    pub fn spirv(&self) -> VkResult<&[u32]> {
        match &self.header {
            Ok(_) => Ok(&self.words),
            Err(e) => Err(VkError::InvalidShader(e.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_checks() {
        let good = [SPIRV_MAGIC, 0x0001_0000, 0, 10, 0];
        assert_eq!(check_header(&good), Ok(SpirvHeader { major: 1, minor: 0, bound: 10 }));
        assert!(check_header(&good[..4]).is_err());
        assert!(check_header(&[0x0203_0723, 0x0001_0000, 0, 10, 0]).is_err(), "byte-swapped");
        assert!(check_header(&[SPIRV_MAGIC, 0x0002_0000, 0, 10, 0]).is_err());
        assert!(check_header(&[SPIRV_MAGIC, 0x0001_0000, 0, 0, 0]).is_err());
        assert!(check_header(&[SPIRV_MAGIC, 0x0001_0600, 0, 1, 0]).is_ok());
    }
}
