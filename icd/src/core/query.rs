//! `VkQueryPool` (timestamps) and `VkEvent`: small words of GPU memory the CP writes and the
//! host or the CP reads.
//!
//! A query slot is 16 bytes: the 64-bit timestamp, then a 32-bit availability word written
//! after it (both by end-of-pipe RELEASE_MEMs, which the CP performs in order).

use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;

use crate::core::device::DeviceShared;
use crate::core::gpu_alloc::GpuAlloc;
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

pub const QUERY_SLOT_BYTES: u64 = 16;
pub const AVAILABILITY_OFFSET: u64 = 8;

/// A `VkQueryPool`.
#[repr(C)]
pub struct QueryPool {
    base: ObjectBase,
    shared: Arc<DeviceShared>,
    pub count: u32,
    mem: GpuAlloc,
}
vk_object!(QueryPool, vk::QueryPool, vk::ObjectType::QUERY_POOL);

impl QueryPool {
    pub fn new(shared: Arc<DeviceShared>, info: &vk::QueryPoolCreateInfo<'_>) -> VkResult<Self> {
        if info.query_type != vk::QueryType::TIMESTAMP {
            return Err(VkError::FeatureNotPresent(format!("query type {:?}", info.query_type)));
        }
        // VUID-VkQueryPoolCreateInfo-queryCount-02763: "queryCount must be greater than 0".
        if info.query_count == 0 {
            return Err(VkError::InvalidUsage("queryCount 0"));
        }
        let mem = GpuAlloc::new(shared.winsys(), QUERY_SLOT_BYTES * u64::from(info.query_count))?;
        Ok(QueryPool {
            base: ObjectBase::new(vk::ObjectType::QUERY_POOL),
            shared,
            count: info.query_count,
            mem,
        })
    }

    /// GPU address of query `index`'s slot.
    pub fn slot_va(&self, index: u32) -> u64 {
        self.mem.va() + QUERY_SLOT_BYTES * u64::from(index)
    }

    pub fn check_range(&self, first: u32, count: u32) -> VkResult<()> {
        // VUID-vkGetQueryPoolResults-firstQuery-00813 / 00816: the range lies in the pool.
        if first.checked_add(count).is_none_or(|end| end > self.count) {
            return Err(VkError::InvalidUsage("query range outside the pool"));
        }
        Ok(())
    }

    fn read(&self, index: u32) -> Option<u64> {
        let off = QUERY_SLOT_BYTES * u64::from(index);
        (self.mem.read_u32(off + AVAILABILITY_OFFSET) != 0).then(|| self.mem.read_u64(off))
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
        let need = if avail { 2 * item } else { item };
        if count > 0 && (stride * u64::from(count - 1) + need) as usize > data.len() {
            return Err(VkError::InvalidUsage("query results do not fit in dataSize"));
        }
        let mut all_ready = true;
        for i in 0..count {
            let value = if flags.contains(vk::QueryResultFlags::WAIT) {
                Some(self.wait_available(first + i)?)
            } else {
                self.read(first + i)
            };
            all_ready &= value.is_some();
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
            // zero and the final result value"; a timestamp has none, so 0 is written.
            match value {
                Some(v) => put(0, v),
                None if flags.contains(vk::QueryResultFlags::PARTIAL) => put(0, 0),
                None => {}
            }
            if avail {
                put(1, u64::from(value.is_some()));
            }
        }
        Ok(if all_ready { vk::Result::SUCCESS } else { vk::Result::NOT_READY })
    }

    fn wait_available(&self, index: u32) -> VkResult<u64> {
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

    /// `vkResetQueryPool` from the host.
    pub fn host_reset(&self, first: u32, count: u32) -> VkResult<()> {
        self.check_range(first, count)?;
        for i in first..first + count {
            self.mem.write_u32s(QUERY_SLOT_BYTES * u64::from(i), &[0; 4]);
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
