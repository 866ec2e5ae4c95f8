//! `VkDescriptorPool` and `VkDescriptorSet`: set memory carved out of one GPU buffer per pool.
//!
//! Sets are placed first-fit in the pool's memory; freed ranges are merged with their
//! neighbours. A pool owns its sets, so resetting or destroying it frees them all. The GPU
//! buffer is made when the first set needs it: applications create many pools up front (the
//! conformance suite's max_concurrent case makes 16,384), and a buffer object each is costly.

use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;

use super::layout::SetLayout;
use super::layout::{Kind, Place, COMBINED_SAMPLER_OFFSET};
use crate::core::device::DeviceShared;
use crate::core::gpu_alloc::GpuAlloc;
use crate::core::object::{vk_object, ObjectBase, VkObject};
use crate::error::{VkError, VkResult};

/// A dynamic buffer descriptor as written by the application: applied at bind time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DynamicBuffer {
    pub va: u64,
    pub range: u64,
}

/// A `VkDescriptorSet`.
#[repr(C)]
pub struct DescriptorSet {
    base: ObjectBase,
    pub layout: Arc<SetLayout>,
    /// GPU address of the set memory (0 for a set without memory bindings).
    pub va: u64,
    offset: u64,
    /// The pool's memory (kept alive by the pool, which outlives its sets).
    mem: Option<Arc<GpuAlloc>>,
    /// Host copy of the set memory, so copies and tests need not read GPU memory.
    words: Mutex<Vec<u32>>,
    pub dynamic: Mutex<Vec<DynamicBuffer>>,
}
vk_object!(DescriptorSet, vk::DescriptorSet, vk::ObjectType::DESCRIPTOR_SET);

impl DescriptorSet {
    /// Writes descriptor words at byte `offset` of the set.
    pub fn write(&self, offset: u64, words: &[u32]) {
        let i = (offset / 4) as usize;
        self.words.lock()[i..i + words.len()].copy_from_slice(words);
        if let Some(mem) = &self.mem {
            mem.write_u32s(self.offset + offset, words);
        }
    }

    /// `n` descriptor words at byte `offset` of the set.
    pub fn read_words(&self, offset: u64, n: usize) -> Vec<u32> {
        let i = (offset / 4) as usize;
        self.words.lock()[i..i + n].to_vec()
    }

    /// The descriptor at byte `offset` as the GPU sees it (tests).
    #[cfg(test)]
    pub fn gpu_read(&self, offset: u64) -> [u32; 4] {
        let mem = self.mem.as_ref().expect("set with memory");
        let at = self.offset + offset;
        std::array::from_fn(|i| mem.read_u32(at + 4 * i as u64))
    }

    /// The descriptor at byte `offset` of the set.
    pub fn read(&self, offset: u64) -> [u32; 4] {
        let w = self.words.lock();
        let i = (offset / 4) as usize;
        [w[i], w[i + 1], w[i + 2], w[i + 3]]
    }
}

/// A new set's memory: zeros, with the S# of every immutable sampler in place.
fn initial_words(layout: &SetLayout) -> Vec<u32> {
    let mut words = vec![0u32; (layout.size / 4) as usize];
    for b in layout.bindings.iter().filter(|b| !b.immutable.is_empty()) {
        let Place::Memory(base) = b.place else { continue };
        let within = if b.kind == Kind::CombinedImageSampler { COMBINED_SAMPLER_OFFSET } else { 0 };
        for (e, s) in b.immutable.iter().enumerate() {
            let at = ((base + e as u64 * b.kind.size() + within) / 4) as usize;
            words[at..at + 4].copy_from_slice(s);
        }
    }
    words
}

struct State {
    /// Free byte ranges (offset, size), sorted by offset.
    free: Vec<(u64, u64)>,
    sets: Vec<vk::DescriptorSet>,
}

/// A `VkDescriptorPool`.
#[repr(C)]
pub struct DescriptorPool {
    base: ObjectBase,
    pub flags: vk::DescriptorPoolCreateFlags,
    max_sets: u32,
    shared: Arc<DeviceShared>,
    /// Set memory, made on the first allocation that needs it.
    mem: std::sync::OnceLock<Arc<GpuAlloc>>,
    size: u64,
    state: Mutex<State>,
}
vk_object!(DescriptorPool, vk::DescriptorPool, vk::ObjectType::DESCRIPTOR_POOL);

impl DescriptorPool {
    pub fn new(
        shared: &Arc<DeviceShared>,
        info: &vk::DescriptorPoolCreateInfo<'_>,
    ) -> VkResult<Self> {
        let sizes = crate::api::array(info.p_pool_sizes, info.pool_size_count);
        let mut size = 0u64;
        for s in sizes {
            let kind = super::layout::Kind::from_vk(s.ty)?;
            if !kind.is_dynamic() {
                size += kind.size() * u64::from(s.descriptor_count);
            }
        }
        Ok(DescriptorPool {
            base: ObjectBase::new(vk::ObjectType::DESCRIPTOR_POOL),
            flags: info.flags,
            max_sets: info.max_sets,
            shared: shared.clone(),
            mem: std::sync::OnceLock::new(),
            size,
            state: Mutex::new(State { free: vec![(0, size)], sets: Vec::new() }),
        })
    }

    /// Carves out `size` bytes, first fit.
    fn take(free: &mut Vec<(u64, u64)>, size: u64) -> Option<u64> {
        if size == 0 {
            return Some(0);
        }
        let i = free.iter().position(|&(_, s)| s >= size)?;
        let (offset, s) = free[i];
        if s == size {
            free.remove(i);
        } else {
            free[i] = (offset + size, s - size);
        }
        Some(offset)
    }

    fn give_back(free: &mut Vec<(u64, u64)>, offset: u64, size: u64) {
        if size == 0 {
            return;
        }
        let i = free.partition_point(|&(o, _)| o < offset);
        free.insert(i, (offset, size));
        // Merge with the next, then with the previous range.
        if i + 1 < free.len() && free[i].0 + free[i].1 == free[i + 1].0 {
            free[i].1 += free[i + 1].1;
            free.remove(i + 1);
        }
        if i > 0 && free[i - 1].0 + free[i - 1].1 == free[i].0 {
            free[i - 1].1 += free[i].1;
            free.remove(i);
        }
    }

    /// `vkAllocateDescriptorSets` of one set.
    pub fn allocate(&self, layout: &Arc<SetLayout>) -> VkResult<vk::DescriptorSet> {
        let mut st = self.state.lock();
        if st.sets.len() as u32 >= self.max_sets {
            return Err(VkError::OutOfPoolMemory);
        }
        let Some(offset) = Self::take(&mut st.free, layout.size) else {
            let total_free: u64 = st.free.iter().map(|&(_, s)| s).sum();
            return Err(if total_free >= layout.size {
                VkError::FragmentedPool
            } else {
                VkError::OutOfPoolMemory
            });
        };
        let mem = match layout.size {
            0 => None,
            _ => match self.memory() {
                Ok(mem) => Some(mem),
                Err(e) => {
                    Self::give_back(&mut st.free, offset, layout.size);
                    return Err(e);
                }
            },
        };
        let va = mem.as_ref().map_or(0, |m| m.va() + offset);
        let words = initial_words(layout);
        if let Some(mem) = &mem {
            mem.write_u32s(offset, &words);
        }
        let set = DescriptorSet {
            base: ObjectBase::new(vk::ObjectType::DESCRIPTOR_SET),
            layout: layout.clone(),
            va,
            offset,
            mem,
            words: Mutex::new(words),
            dynamic: Mutex::new(vec![DynamicBuffer::default(); layout.dynamic_count as usize]),
        };
        // Sets live in their pool's host memory (Vulkan: pooled objects use the pool's
        // allocator).
        let handle = match set.into_handle_in(self.base.host()) {
            Ok(handle) => handle,
            Err(e) => {
                Self::give_back(&mut st.free, offset, layout.size);
                return Err(e);
            }
        };
        st.sets.push(handle);
        Ok(handle)
    }

    /// The pool's set memory, made on first use (called with the state locked, so once).
    fn memory(&self) -> VkResult<Arc<GpuAlloc>> {
        if let Some(mem) = self.mem.get() {
            return Ok(mem.clone());
        }
        let mem = Arc::new(GpuAlloc::new(self.shared.winsys(), self.size)?);
        Ok(self.mem.get_or_init(|| mem).clone())
    }

    /// `vkFreeDescriptorSets` of one set; handles not from this pool are ignored.
    pub fn free(&self, handle: vk::DescriptorSet) {
        let mut st = self.state.lock();
        let Some(i) = st.sets.iter().position(|&h| h == handle) else { return };
        st.sets.swap_remove(i);
        // SAFETY: the handle was created by `allocate` and just left the list: destroyed once.
        if let Some(set) = unsafe { DescriptorSet::take_handle(handle) } {
            Self::give_back(&mut st.free, set.offset, set.layout.size);
        }
    }

    /// `vkResetDescriptorPool`.
    pub fn reset(&self) {
        let mut st = self.state.lock();
        for h in st.sets.drain(..) {
            // SAFETY: every listed handle is a live set of this pool, destroyed once here.
            drop(unsafe { DescriptorSet::take_handle(h) });
        }
        st.free = vec![(0, self.size)];
    }
}

impl Drop for DescriptorPool {
    fn drop(&mut self) {
        self.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fit_with_merging() {
        let mut free = vec![(0, 160)];
        let a = DescriptorPool::take(&mut free, 32).unwrap();
        let b = DescriptorPool::take(&mut free, 64).unwrap();
        let c = DescriptorPool::take(&mut free, 64).unwrap();
        assert_eq!((a, b, c), (0, 32, 96));
        assert!(DescriptorPool::take(&mut free, 16).is_none());
        DescriptorPool::give_back(&mut free, a, 32);
        DescriptorPool::give_back(&mut free, c, 64);
        assert!(DescriptorPool::take(&mut free, 96).is_none(), "fragmented");
        DescriptorPool::give_back(&mut free, b, 64);
        assert_eq!(free, [(0, 160)]);
    }
}
