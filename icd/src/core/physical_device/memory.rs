//! Memory heaps and types, laid out like a discrete RDNA2 card.
//!
//! Three heaps: CPU-invisible VRAM, system memory reachable through the GART (GTT), and the
//! CPU-visible window of VRAM. Four types, in the order applications scan them (the spec asks
//! for "better" types first): device-local, GTT write-combined, visible VRAM, GTT cached. Each
//! type records the amdgpu domain and flags its buffer objects are created with.

use ash::vk;

/// Where an allocation lives, in amdgpu terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    Vram,
    Gtt,
}

/// How a memory type's buffer objects are created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoPlacement {
    pub domain: Domain,
    /// `AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED` / `NO_CPU_ACCESS`.
    pub cpu_access: bool,
    /// `AMDGPU_GEM_CREATE_CPU_GTT_USWC`: write-combined CPU mapping of system memory.
    pub write_combined: bool,
}

/// Sizes the kernel reports for an adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemorySizes {
    pub vram: u64,
    pub visible_vram: u64,
    pub gtt: u64,
}

/// The memory layout advertised for one physical device.
#[derive(Debug, Clone)]
pub struct MemoryLayout {
    pub properties: vk::PhysicalDeviceMemoryProperties,
    pub placements: Vec<BoPlacement>,
}

impl MemoryLayout {
    pub fn discrete(sizes: MemorySizes) -> Self {
        let visible = sizes.visible_vram.min(sizes.vram);
        let heaps = [
            vk::MemoryHeap { size: sizes.vram - visible, flags: vk::MemoryHeapFlags::DEVICE_LOCAL },
            vk::MemoryHeap { size: sizes.gtt, flags: vk::MemoryHeapFlags::empty() },
            vk::MemoryHeap { size: visible, flags: vk::MemoryHeapFlags::DEVICE_LOCAL },
        ];
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let local = vk::MemoryPropertyFlags::DEVICE_LOCAL;
        let types = [
            (
                local,
                0,
                BoPlacement { domain: Domain::Vram, cpu_access: false, write_combined: false },
            ),
            (host, 1, BoPlacement { domain: Domain::Gtt, cpu_access: true, write_combined: true }),
            (
                local | host,
                2,
                BoPlacement { domain: Domain::Vram, cpu_access: true, write_combined: false },
            ),
            (
                host | vk::MemoryPropertyFlags::HOST_CACHED,
                1,
                BoPlacement { domain: Domain::Gtt, cpu_access: true, write_combined: false },
            ),
        ];
        let mut properties = vk::PhysicalDeviceMemoryProperties {
            memory_heap_count: heaps.len() as u32,
            memory_type_count: types.len() as u32,
            ..Default::default()
        };
        properties.memory_heaps[..heaps.len()].copy_from_slice(&heaps);
        let mut placements = Vec::with_capacity(types.len());
        for (i, (flags, heap, placement)) in types.into_iter().enumerate() {
            properties.memory_types[i] = vk::MemoryType { property_flags: flags, heap_index: heap };
            placements.push(placement);
        }
        MemoryLayout { properties, placements }
    }

    /// Bit mask of every memory type (buffers can live in any of them).
    pub fn all_types_mask(&self) -> u32 {
        (1u32 << self.properties.memory_type_count) - 1
    }

    pub fn memory_type(&self, index: u32) -> Option<(vk::MemoryType, BoPlacement)> {
        (index < self.properties.memory_type_count).then(|| {
            (self.properties.memory_types[index as usize], self.placements[index as usize])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_follows_spec_ordering_rules() {
        let l = MemoryLayout::discrete(MemorySizes {
            vram: 16 << 30,
            visible_vram: 256 << 20,
            gtt: 8 << 30,
        });
        let p = &l.properties;
        // "There must be at least one memory type with both HOST_VISIBLE and HOST_COHERENT."
        assert!(p.memory_types[..p.memory_type_count as usize].iter().any(|t| t
            .property_flags
            .contains(
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT
            )));
        // "There must be at least one memory type with DEVICE_LOCAL."
        assert!(p
            .memory_types
            .iter()
            .any(|t| t.property_flags.contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)));
        // "X must be placed at a lower index than Y if X's flags are a strict subset of Y's."
        let n = p.memory_type_count as usize;
        for i in 0..n {
            for j in i + 1..n {
                let (x, y) = (p.memory_types[i].property_flags, p.memory_types[j].property_flags);
                assert!(!(x.contains(y) && x != y), "type {j} must precede type {i}");
            }
        }
        assert_eq!(p.memory_heaps[0].size + p.memory_heaps[2].size, 16 << 30);
        assert_eq!(l.all_types_mask(), 0b1111);
    }
}
