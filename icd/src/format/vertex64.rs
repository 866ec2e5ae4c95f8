//! 64-bit vertex formats (`R64…_UINT/SINT/SFLOAT`). The fetch hardware has no 64-bit
//! channel, so an attribute of one is read as 32-bit UINT dwords, two per component and at
//! most four per location; the vertex shader pairs them (the compiler's `lower_io` gives a
//! dvec3/dvec4 input two locations, as Vulkan's location assignment does).

use ash::vk;

/// Components of 64-bit vertex format `f`, or None for every other format.
pub fn components(f: vk::Format) -> Option<u32> {
    use vk::Format as F;
    match f {
        F::R64_UINT | F::R64_SINT | F::R64_SFLOAT => Some(1),
        F::R64G64_UINT | F::R64G64_SINT | F::R64G64_SFLOAT => Some(2),
        F::R64G64B64_UINT | F::R64G64B64_SINT | F::R64G64B64_SFLOAT => Some(3),
        F::R64G64B64A64_UINT | F::R64G64B64A64_SINT | F::R64G64B64A64_SFLOAT => Some(4),
        _ => None,
    }
}

/// One 32-bit fetch of a 64-bit attribute: the location after the attribute's own, the byte
/// offset after the attribute's own, and the format read there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub location: u32,
    pub offset: u32,
    pub format: vk::Format,
}

/// The fetches that read an attribute of format `f` (empty for a format that is not 64-bit).
pub fn parts(f: vk::Format) -> Vec<Part> {
    let Some(n) = components(f) else { return Vec::new() };
    let dwords = |comps: u32| match comps {
        1 => vk::Format::R32G32_UINT,
        _ => vk::Format::R32G32B32A32_UINT,
    };
    let mut out = vec![Part { location: 0, offset: 0, format: dwords(n.min(2)) }];
    if n > 2 {
        out.push(Part { location: 1, offset: 16, format: dwords(n - 2) });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vk::Format as F;

    #[test]
    fn each_component_takes_two_dwords_and_a_location_holds_four() {
        let p = |location, offset, format| Part { location, offset, format };
        assert_eq!(parts(F::R64_SFLOAT), [p(0, 0, F::R32G32_UINT)]);
        assert_eq!(parts(F::R64G64_SINT), [p(0, 0, F::R32G32B32A32_UINT)]);
        assert_eq!(
            parts(F::R64G64B64_UINT),
            [p(0, 0, F::R32G32B32A32_UINT), p(1, 16, F::R32G32_UINT)]
        );
        assert_eq!(
            parts(F::R64G64B64A64_SFLOAT),
            [p(0, 0, F::R32G32B32A32_UINT), p(1, 16, F::R32G32B32A32_UINT)]
        );
        assert!(parts(F::R32G32B32A32_SFLOAT).is_empty());
        assert_eq!(components(F::R32G32_UINT), None);
    }
}
