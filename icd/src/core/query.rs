//! `VkQueryPool` and `VkEvent`: small words of GPU memory the CP (or the render backends)
//! write and the host or the CP reads.
//!
//! The slot of a query depends on its type ([`QueryKind`]):
//! - timestamp, 16 bytes: the 64-bit timestamp, then a 32-bit availability word written after
//!   it (both by end-of-pipe RELEASE_MEMs, which the CP performs in order);
//! - occlusion, 16 bytes per render backend: each of navi21's 16 RBs writes its 64-bit sample
//!   count with bit 63 set (valid) on ZPASS_DONE, the begin count at +0 and the end count at
//!   +8 of its 16-byte pair. The result is the sum over RBs of end − begin; the query is
//!   available once all 32 words are valid (RADV's layout; no separate availability word, so
//!   a reset only has to zero the slot);
//! - pipeline statistics: SAMPLE_PIPELINESTAT writes the 11 hardware counters (64-bit, GFX10.3
//!   order) at begin (+0) and end (+88); an end-of-pipe write sets the availability word at
//!   +176. Results are end − begin of the counters the pool asked for, in Vulkan's bit order.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;

use crate::core::device::DeviceShared;
use crate::core::gpu_alloc::GpuAlloc;
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// Timestamp slots: the availability word's offset.
pub const AVAILABILITY_OFFSET: u64 = 8;
/// Render backends that each report an occlusion count (navi21: 16).
pub const OCCLUSION_RBS: u64 = 16;
/// Bytes of one pipeline-statistics sample (11 64-bit counters).
pub const STATS_BLOCK: u64 = 11 * 8;
/// The availability word of a pipeline-statistics slot.
pub const STATS_AVAILABILITY: u64 = 2 * STATS_BLOCK;
/// The valid bit every RB sets in its ZPASS_DONE counts.
const ZPASS_VALID: u64 = 1 << 63;

/// Where each Vulkan pipeline statistic (by bit index) lives among the hardware counters:
/// input-assembly vertices and primitives, VS invocations, GS invocations and primitives,
/// clipping invocations and primitives, FS invocations, HS patches, DS invocations, CS
/// invocations (the hardware orders them PS, C prims, C invocations, VS, GS invocations,
/// GS prims, IA prims, IA vertices, HS, DS, CS).
pub const STATS_HW_INDEX: [u32; 11] = [7, 6, 3, 4, 5, 2, 1, 0, 8, 9, 10];

/// What a pool counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    Timestamp,
    Occlusion,
    PipelineStatistics(vk::QueryPipelineStatisticFlags),
}

impl QueryKind {
    /// Bytes of one query's slot (a multiple of 16).
    pub fn slot_bytes(self) -> u64 {
        match self {
            QueryKind::Timestamp => 16,
            QueryKind::Occlusion => 16 * OCCLUSION_RBS,
            QueryKind::PipelineStatistics(_) => STATS_AVAILABILITY + 16,
        }
    }

    /// Values one query reports (before the availability value).
    pub fn values(self) -> u32 {
        match self {
            QueryKind::PipelineStatistics(f) => f.as_raw().count_ones(),
            _ => 1,
        }
    }
}

/// A `VkQueryPool`.
#[repr(C)]
pub struct QueryPool {
    base: ObjectBase,
    shared: Arc<DeviceShared>,
    pub count: u32,
    pub kind: QueryKind,
    mem: GpuAlloc,
}
vk_object!(QueryPool, vk::QueryPool, vk::ObjectType::QUERY_POOL);

impl QueryPool {
    pub fn new(shared: Arc<DeviceShared>, info: &vk::QueryPoolCreateInfo<'_>) -> VkResult<Self> {
        let kind = match info.query_type {
            vk::QueryType::TIMESTAMP => QueryKind::Timestamp,
            vk::QueryType::OCCLUSION => QueryKind::Occlusion,
            vk::QueryType::PIPELINE_STATISTICS => {
                let f = info.pipeline_statistics;
                // VUID-VkQueryPoolCreateInfo-queryType-00792: "pipelineStatistics must be a
                // valid combination of VkQueryPipelineStatisticFlagBits values" (the 11 of
                // Vulkan 1.0; mesh and cluster-culling counters belong to extensions).
                if f.is_empty() || f.as_raw() >> STATS_HW_INDEX.len() != 0 {
                    return Err(VkError::InvalidUsage("pipelineStatistics flags"));
                }
                QueryKind::PipelineStatistics(f)
            }
            t => return Err(VkError::FeatureNotPresent(format!("query type {t:?}"))),
        };
        // VUID-VkQueryPoolCreateInfo-queryCount-02763: "queryCount must be greater than 0".
        if info.query_count == 0 {
            return Err(VkError::InvalidUsage("queryCount 0"));
        }
        let bytes = kind.slot_bytes() * u64::from(info.query_count);
        let mem = GpuAlloc::new(shared.winsys(), bytes)?;
        Ok(QueryPool {
            base: ObjectBase::new(vk::ObjectType::QUERY_POOL),
            shared,
            count: info.query_count,
            kind,
            mem,
        })
    }

    /// GPU address of query `index`'s slot.
    pub fn slot_va(&self, index: u32) -> u64 {
        self.mem.va() + self.kind.slot_bytes() * u64::from(index)
    }

    pub fn check_range(&self, first: u32, count: u32) -> VkResult<()> {
        // VUID-vkGetQueryPoolResults-firstQuery-00813 / 00816: the range lies in the pool.
        if first.checked_add(count).is_none_or(|end| end > self.count) {
            return Err(VkError::InvalidUsage("query range outside the pool"));
        }
        Ok(())
    }

    /// The result values of query `index`, `None` while it is not available.
    fn read(&self, index: u32) -> Option<Vec<u64>> {
        let off = self.kind.slot_bytes() * u64::from(index);
        let at = |o: u64| self.mem.read_u64(off + o);
        match self.kind {
            QueryKind::Timestamp => {
                (self.mem.read_u32(off + AVAILABILITY_OFFSET) != 0).then(|| vec![at(0)])
            }
            QueryKind::Occlusion => {
                let mut sum = 0u64;
                for rb in 0..OCCLUSION_RBS {
                    let (begin, end) = (at(16 * rb), at(16 * rb + 8));
                    if begin & end & ZPASS_VALID == 0 {
                        return None;
                    }
                    sum = sum.wrapping_add((end & !ZPASS_VALID).wrapping_sub(begin & !ZPASS_VALID));
                }
                Some(vec![sum])
            }
            QueryKind::PipelineStatistics(flags) => {
                if self.mem.read_u32(off + STATS_AVAILABILITY) == 0 {
                    return None;
                }
                let stat = |hw: u32| {
                    let o = 8 * u64::from(hw);
                    at(STATS_BLOCK + o).wrapping_sub(at(o))
                };
                Some(
                    STATS_HW_INDEX
                        .iter()
                        .enumerate()
                        .filter(|(bit, _)| flags.as_raw() >> bit & 1 != 0)
                        .map(|(_, &hw)| stat(hw))
                        .collect(),
                )
            }
        }
    }

    /// `vkGetQueryPoolResults`.
    pub fn results(
        &self,
        first: u32,
        count: u32,
        data: &mut [u8],
        stride: u64,
        flags: vk::QueryResultFlags,
    ) -> VkResult<vk::Result> {
        self.check_range(first, count)?;
        self.shared.check_lost()?;
        let wide = flags.contains(vk::QueryResultFlags::TYPE_64);
        let avail = flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY);
        let item = if wide { 8 } else { 4 };
        let n = self.kind.values() as usize;
        let need = (n + usize::from(avail)) as u64 * item;
        if count > 0 && stride * u64::from(count - 1) + need > data.len() as u64 {
            return Err(VkError::InvalidUsage("query results do not fit in dataSize"));
        }
        let mut all_ready = true;
        for i in 0..count {
            let values = if flags.contains(vk::QueryResultFlags::WAIT) {
                Some(self.wait_available(first + i)?)
            } else {
                self.read(first + i)
            };
            all_ready &= values.is_some();
            let at = (stride * u64::from(i)) as usize;
            let mut put = |k: usize, v: u64| {
                let o = at + k * item as usize;
                if wide {
                    data[o..o + 8].copy_from_slice(&v.to_le_bytes());
                } else {
                    data[o..o + 4].copy_from_slice(&(v as u32).to_le_bytes());
                }
            };
            // "If VK_QUERY_RESULT_PARTIAL_BIT is set ... an intermediate result value between
            // zero and the final result value": 0 is the intermediate value written (the GPU
            // copy writes the same).
            match &values {
                Some(v) => v.iter().enumerate().for_each(|(k, &v)| put(k, v)),
                None if flags.contains(vk::QueryResultFlags::PARTIAL) => {
                    (0..n).for_each(|k| put(k, 0))
                }
                None => {}
            }
            if avail {
                put(n, u64::from(values.is_some()));
            }
        }
        Ok(if all_ready { vk::Result::SUCCESS } else { vk::Result::NOT_READY })
    }

    fn wait_available(&self, index: u32) -> VkResult<Vec<u64>> {
        let start = Instant::now();
        loop {
            if let Some(v) = self.read(index) {
                return Ok(v);
            }
            self.shared.refresh_lost()?;
            // Polling: the value lands in memory the kernel knows nothing about. Back off to
            // keep a long wait cheap.
            let nap = if start.elapsed() < Duration::from_millis(2) { 10 } else { 200 };
            std::thread::sleep(Duration::from_micros(nap));
        }
    }

    /// `vkResetQueryPool` from the host: every slot word zero (no valid count, not available).
    pub fn host_reset(&self, first: u32, count: u32) -> VkResult<()> {
        self.check_range(first, count)?;
        let words = (self.kind.slot_bytes() / 4) as usize;
        let zeros = vec![0u32; words];
        for i in first..first + count {
            self.mem.write_u32s(self.kind.slot_bytes() * u64::from(i), &zeros);
        }
        Ok(())
    }
}

/// A `VkEvent`: one dword, 1 = set, 0 = reset.
#[repr(C)]
pub struct Event {
    base: ObjectBase,
    shared: Arc<DeviceShared>,
    mem: GpuAlloc,
}
vk_object!(Event, vk::Event, vk::ObjectType::EVENT);

impl Event {
    pub fn new(shared: Arc<DeviceShared>) -> VkResult<Self> {
        let mem = GpuAlloc::new(shared.winsys(), 8)?;
        Ok(Event { base: ObjectBase::new(vk::ObjectType::EVENT), shared, mem })
    }

    pub fn va(&self) -> u64 {
        self.mem.va()
    }

    /// `vkGetEventStatus`.
    pub fn is_set(&self) -> VkResult<bool> {
        self.shared.check_lost()?;
        Ok(self.mem.read_u32(0) == 1)
    }

    /// `vkSetEvent` / `vkResetEvent`.
    pub fn set(&self, value: bool) {
        self.mem.write_u32s(0, &[u32::from(value)]);
    }
}
