//! Pipeline barriers, memory barriers and events, as GFX10 cache and wait packets.
//!
//! The recipe follows RADV's GFX10 flush (pm4-gfx103.md §4.7) reduced to what a compute and
//! transfer queue needs: wait for earlier shader work with CS_PARTIAL_FLUSH when the source
//! scope includes shaders, then one ACQUIRE_MEM invalidating (and writing back) the caches the
//! destination accesses read through. CP DMA is synchronous (CP_SYNC on every transfer), so
//! transfers need no wait of their own. Legacy barriers are converted to synchronization2
//! masks first, so there is only one path.

use ash::vk;

use super::pm4::{self, gcr, ReleaseData};
use super::stream::CmdStream;
use crate::core::chain::raw_slice;
use crate::error::VkResult;

/// The union of the stages and accesses of all barriers of one command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dependency {
    pub src_stages: vk::PipelineStageFlags2,
    pub src_access: vk::AccessFlags2,
    pub dst_stages: vk::PipelineStageFlags2,
    pub dst_access: vk::AccessFlags2,
}

impl Dependency {
    /// Adds one barrier's scopes.
    pub fn add(
        &mut self,
        src_stages: vk::PipelineStageFlags2,
        src_access: vk::AccessFlags2,
        dst_stages: vk::PipelineStageFlags2,
        dst_access: vk::AccessFlags2,
    ) {
        self.src_stages |= src_stages;
        self.src_access |= src_access;
        self.dst_stages |= dst_stages;
        self.dst_access |= dst_access;
    }

    /// Adds the barriers of a `VkDependencyInfo`.
    ///
    /// # Safety
    /// `info` must be a valid dependency info (its arrays hold the stated counts).
    pub unsafe fn add_info(&mut self, info: &vk::DependencyInfo<'_>) {
        // SAFETY: forwarded to the caller.
        let (memory, buffers, images) = unsafe {
            (
                raw_slice(info.p_memory_barriers, info.memory_barrier_count),
                raw_slice(info.p_buffer_memory_barriers, info.buffer_memory_barrier_count),
                raw_slice(info.p_image_memory_barriers, info.image_memory_barrier_count),
            )
        };
        for b in memory {
            self.add(b.src_stage_mask, b.src_access_mask, b.dst_stage_mask, b.dst_access_mask);
        }
        for b in buffers {
            self.add(b.src_stage_mask, b.src_access_mask, b.dst_stage_mask, b.dst_access_mask);
        }
        for b in images {
            self.add(b.src_stage_mask, b.src_access_mask, b.dst_stage_mask, b.dst_access_mask);
        }
    }
}

/// Converts legacy (`vkCmdPipelineBarrier`) masks; the low 32 bits mean the same in both.
pub fn stages2(stages: vk::PipelineStageFlags) -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::from_raw(u64::from(stages.as_raw()))
}

pub fn access2(access: vk::AccessFlags) -> vk::AccessFlags2 {
    vk::AccessFlags2::from_raw(u64::from(access.as_raw()))
}

/// Stages whose work needs nothing to drain: they do no GPU work of their own.
fn idle_stages() -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::NONE
        | vk::PipelineStageFlags2::TOP_OF_PIPE
        | vk::PipelineStageFlags2::HOST
}

/// Stages that run on the CP itself, whose transfers finish in order (CP_SYNC).
fn cp_stages() -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::TRANSFER
        | vk::PipelineStageFlags2::COPY
        | vk::PipelineStageFlags2::CLEAR
        | vk::PipelineStageFlags2::DRAW_INDIRECT
}

fn shader_reads() -> vk::AccessFlags2 {
    vk::AccessFlags2::INPUT_ATTACHMENT_READ
        | vk::AccessFlags2::SHADER_READ
        | vk::AccessFlags2::SHADER_STORAGE_READ
        | vk::AccessFlags2::SHADER_SAMPLED_READ
        | vk::AccessFlags2::UNIFORM_READ
        | vk::AccessFlags2::MEMORY_READ
        | vk::AccessFlags2::SHADER_WRITE
        | vk::AccessFlags2::SHADER_STORAGE_WRITE
        | vk::AccessFlags2::MEMORY_WRITE
}

/// The cache operations a dependency needs.
pub fn cache_ops(dep: &Dependency) -> u32 {
    let mut ops = 0;
    // Shader loads go through the vector (GLV), scalar (GLK) and GL1 caches, which do not see
    // writes made elsewhere; invalidate them before shaders read.
    if dep.dst_access.intersects(shader_reads()) {
        ops |= gcr::GLV_INV | gcr::GLK_INV | gcr::GL1_INV;
    }
    // The host reads memory behind L2: write L2 back before host reads.
    if dep.dst_access.intersects(vk::AccessFlags2::HOST_READ | vk::AccessFlags2::MEMORY_READ)
        || dep.dst_stages.contains(vk::PipelineStageFlags2::HOST)
    {
        ops |= gcr::GL2_WB | gcr::GLM_WB | gcr::GLM_INV;
    }
    // Host writes bypass L2: drop stale L2 lines before the GPU reads them.
    if dep.src_access.intersects(vk::AccessFlags2::HOST_WRITE | vk::AccessFlags2::MEMORY_WRITE) {
        ops |= gcr::GL2_INV;
    }
    ops
}

/// Writes by the colour and depth/stencil blocks, which go through their own caches.
fn attachment_writes() -> vk::AccessFlags2 {
    vk::AccessFlags2::COLOR_ATTACHMENT_WRITE
        | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE
        | vk::AccessFlags2::MEMORY_WRITE
}

/// Stages whose work ends in the pixel pipeline (a PS_PARTIAL_FLUSH waits for it).
fn pixel_stages() -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::FRAGMENT_SHADER
        | vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS
        | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS
        | vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT
        | vk::PipelineStageFlags2::ALL_GRAPHICS
        | vk::PipelineStageFlags2::ALL_COMMANDS
        | vk::PipelineStageFlags2::BOTTOM_OF_PIPE
}

/// Emits the waits and cache operations of one barrier command.
pub fn emit_dependency(s: &mut CmdStream, dep: &Dependency) -> VkResult<()> {
    let src = dep.src_stages & !idle_stages();
    if !(src & !cp_stages()).is_empty() {
        s.emit(&pm4::event_write(pm4::event::CS_PARTIAL_FLUSH, 4))?;
    }
    // Attachment writes (a subpass feeding a later one's input attachments, or a feedback
    // loop's self-dependency) sit in the CB/DB caches until flushed, and the pixel work must
    // be done first: flush both and wait for pixel shaders, as RADV does for these barriers.
    // The simulator writes targets straight to memory in draw order, so it does not show a
    // missing flush; the timestamped CB/DB data flush real hardware also wants is not emitted
    // yet (see gfx::resolve::flush_color_targets).
    if src.intersects(pixel_stages()) && dep.src_access.intersects(attachment_writes()) {
        s.emit(&pm4::event_write(pm4::event::FLUSH_AND_INV_CB_META, 0))?;
        s.emit(&pm4::event_write(pm4::event::FLUSH_AND_INV_DB_META, 0))?;
        s.emit(&pm4::event_write(pm4::event::PS_PARTIAL_FLUSH, 4))?;
    }
    let ops = cache_ops(dep);
    if ops != 0 {
        s.emit(&pm4::acquire_mem(ops))?;
    }
    Ok(())
}

/// `vkCmdSetEvent` / `vkCmdResetEvent`: the event word is written once the source stages are
/// done (RELEASE_MEM at the bottom of the pipe), or right away for top-of-pipe only.
pub fn write_event(
    s: &mut CmdStream,
    event_va: u64,
    stages: vk::PipelineStageFlags2,
    value: u32,
) -> VkResult<()> {
    if (stages & !idle_stages()).is_empty() {
        s.emit2(&pm4::write_data_head(event_va, 1), &[value])
    } else {
        s.emit(&pm4::release_mem(event_va, ReleaseData::Value32(value)))
    }
}

/// `vkCmdWaitEvents`: the CP waits for each event word to be set, then the dependency.
pub fn wait_events(s: &mut CmdStream, event_vas: &[u64], dep: &Dependency) -> VkResult<()> {
    for &va in event_vas {
        s.emit(&pm4::wait_mem_equal(va, 1, 0xffff_ffff))?;
    }
    emit_dependency(s, dep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_to_compute_invalidates_shader_caches() {
        let mut d = Dependency::default();
        d.add(
            vk::PipelineStageFlags2::COMPUTE_SHADER,
            vk::AccessFlags2::SHADER_WRITE,
            vk::PipelineStageFlags2::COMPUTE_SHADER,
            vk::AccessFlags2::SHADER_READ,
        );
        assert_eq!(cache_ops(&d), gcr::GLV_INV | gcr::GLK_INV | gcr::GL1_INV);
    }

    #[test]
    fn transfer_to_host_writes_back_l2() {
        let mut d = Dependency::default();
        d.add(
            vk::PipelineStageFlags2::TRANSFER,
            vk::AccessFlags2::TRANSFER_WRITE,
            vk::PipelineStageFlags2::HOST,
            vk::AccessFlags2::HOST_READ,
        );
        assert_eq!(cache_ops(&d) & gcr::GL2_WB, gcr::GL2_WB);
        assert_eq!(cache_ops(&d) & gcr::GLV_INV, 0);
    }

    #[test]
    fn attachment_writes_to_input_reads_flush_cb_db_and_invalidate() {
        let dep = Dependency {
            src_stages: vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
            src_access: vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
            dst_stages: vk::PipelineStageFlags2::FRAGMENT_SHADER,
            dst_access: vk::AccessFlags2::INPUT_ATTACHMENT_READ,
        };
        assert_eq!(cache_ops(&dep), gcr::GLV_INV | gcr::GLK_INV | gcr::GL1_INV);
        let adapter =
            std::sync::Arc::new(crate::core::physical_device::Adapter::open_simulated().unwrap());
        let shared = std::sync::Arc::new(crate::core::device::DeviceShared::new(adapter).unwrap());
        let mut s = CmdStream::new(shared);
        emit_dependency(&mut s, &dep).unwrap();
        let words = s.words().concat();
        for ev in [pm4::event::FLUSH_AND_INV_CB_META, pm4::event::PS_PARTIAL_FLUSH] {
            assert!(
                words
                    .windows(2)
                    .any(|w| w[0] >> 8 & 0xff == pm4::op::EVENT_WRITE && w[1] & 0x3f == ev),
                "event {ev} missing: {words:x?}"
            );
        }
    }

    #[test]
    fn legacy_masks_keep_their_bits() {
        let s = stages2(vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::HOST);
        assert_eq!(s, vk::PipelineStageFlags2::COMPUTE_SHADER | vk::PipelineStageFlags2::HOST);
        let a = access2(vk::AccessFlags::TRANSFER_WRITE);
        assert_eq!(a, vk::AccessFlags2::TRANSFER_WRITE);
    }
}
