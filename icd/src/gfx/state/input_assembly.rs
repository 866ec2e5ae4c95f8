//! Input assembly: the primitive type (VGT_PRIMITIVE_TYPE, a uconfig register) and primitive
//! restart (GE_MULTI_PRIM_IB_RESET_EN, uconfig on GFX10.3; VGT_MULTI_PRIM_IB_RESET_INDX).
//!
//! Facts: VGT_DI_PRIM_TYPE in the register database; RADV (`radv_cmd_buffer.c`) writes the
//! restart enable to the GE register on GFX10.3 and the restart index as the all-ones value
//! of the bound index type, which is Vulkan's restart index.

use ash::vk;
use ferrum_regs::gfx103 as r;
use r::enums::VGT_DI_PRIM_TYPE as P;

use crate::error::VkResult;
use crate::gfx::{refuse, Regs};

/// The VGT primitive type of a topology. Adjacency topologies need the geometryShader
/// feature and patch lists tessellation, neither advertised (and the simulator assembles
/// neither), so they are refused.
pub fn prim_type(t: vk::PrimitiveTopology) -> VkResult<u32> {
    use vk::PrimitiveTopology as T;
    Ok(match t {
        T::POINT_LIST => P::DI_PT_POINTLIST,
        T::LINE_LIST => P::DI_PT_LINELIST,
        T::LINE_STRIP => P::DI_PT_LINESTRIP,
        T::TRIANGLE_LIST => P::DI_PT_TRILIST,
        T::TRIANGLE_STRIP => P::DI_PT_TRISTRIP,
        T::TRIANGLE_FAN => P::DI_PT_TRIFAN,
        T::LINE_LIST_WITH_ADJACENCY
        | T::LINE_STRIP_WITH_ADJACENCY
        | T::TRIANGLE_LIST_WITH_ADJACENCY
        | T::TRIANGLE_STRIP_WITH_ADJACENCY => {
            return Err(refuse("adjacency topologies (geometryShader is not supported)"))
        }
        T::PATCH_LIST => return Err(refuse("patch lists (tessellation is not supported)")),
        _ => return Err(refuse("unknown primitive topology")),
    })
}

/// Whether `t` draws polygons (triangles), the primitives Vulkan applies depth bias to.
pub fn is_polygon(t: vk::PrimitiveTopology) -> bool {
    use vk::PrimitiveTopology as T;
    !matches!(
        t,
        T::POINT_LIST
            | T::LINE_LIST
            | T::LINE_STRIP
            | T::LINE_LIST_WITH_ADJACENCY
            | T::LINE_STRIP_WITH_ADJACENCY
    )
}

/// VGT_PRIMITIVE_TYPE (pipeline or vkCmdSetPrimitiveTopology).
pub fn topology(t: vk::PrimitiveTopology) -> VkResult<Regs> {
    let mut regs = Regs::new();
    regs.push(r::VGT_PRIMITIVE_TYPE, r::VGT_PRIMITIVE_TYPE::PRIM_TYPE.val(prim_type(t)?));
    Ok(regs)
}

/// GE_MULTI_PRIM_IB_RESET_EN (pipeline or vkCmdSetPrimitiveRestartEnable).
pub fn primitive_restart(enable: bool) -> Regs {
    let mut regs = Regs::new();
    regs.push(
        r::GE_MULTI_PRIM_IB_RESET_EN,
        r::GE_MULTI_PRIM_IB_RESET_EN::RESET_EN.val(enable as u32),
    );
    regs
}

/// VGT_MULTI_PRIM_IB_RESET_INDX for the bound index type (vkCmdBindIndexBuffer): the index
/// value that restarts, all ones in the index's width.
pub fn restart_index(index_type: vk::IndexType) -> VkResult<Regs> {
    let value = match index_type {
        vk::IndexType::UINT8_EXT => 0xff,
        vk::IndexType::UINT16 => 0xffff,
        vk::IndexType::UINT32 => 0xffff_ffff,
        _ => return Err(refuse("index type")),
    };
    let mut regs = Regs::new();
    regs.push(r::VGT_MULTI_PRIM_IB_RESET_INDX, value);
    Ok(regs)
}

/// The input-assembly state block.
pub fn input_assembly(info: &vk::PipelineInputAssemblyStateCreateInfo<'_>) -> VkResult<Regs> {
    let mut regs = topology(info.topology)?;
    regs.extend(primitive_restart(info.primitive_restart_enable != 0));
    Ok(regs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topologies_map_to_vgt_prim_types() {
        use vk::PrimitiveTopology as T;
        // VGT_DI_PRIM_TYPE values from gfx103.json, written out here as numbers.
        let cases = [
            (T::POINT_LIST, 1),
            (T::LINE_LIST, 2),
            (T::LINE_STRIP, 3),
            (T::TRIANGLE_LIST, 4),
            (T::TRIANGLE_FAN, 5),
            (T::TRIANGLE_STRIP, 6),
        ];
        for (t, v) in cases {
            assert_eq!(topology(t).unwrap().0, vec![(0x30908, v)], "{t:?}");
        }
        for t in [T::LINE_LIST_WITH_ADJACENCY, T::TRIANGLE_STRIP_WITH_ADJACENCY, T::PATCH_LIST] {
            assert!(matches!(topology(t), Err(crate::error::VkError::FeatureNotPresent(_))));
        }
        assert!(topology(T::from_raw(77)).is_err());
    }

    #[test]
    fn restart_enable_and_index_per_type() {
        let info = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_STRIP)
            .primitive_restart_enable(true);
        assert_eq!(input_assembly(&info).unwrap().0, vec![(0x30908, 6), (0x3092c, 1)]);
        assert_eq!(primitive_restart(false).0, vec![(0x3092c, 0)]);
        let idx = |t| restart_index(t).unwrap().0[0];
        assert_eq!(idx(vk::IndexType::UINT16), (0x2840c, 0xffff));
        assert_eq!(idx(vk::IndexType::UINT32), (0x2840c, u32::MAX));
        assert_eq!(idx(vk::IndexType::UINT8_EXT), (0x2840c, 0xff));
        assert!(restart_index(vk::IndexType::NONE_KHR).is_err());
    }
}
