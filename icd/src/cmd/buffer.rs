//! `VkCommandBuffer`: the recording state machine around a [`CmdStream`].
//!
//! Recording commands return nothing to the application, so a failure while recording (out
//! of memory, a detected misuse) is kept and reported by `vkEndCommandBuffer`, as the spec
//! prescribes.

use std::sync::Arc;

use ash::vk;
use ferrum_winsys as winsys;
use parking_lot::Mutex;

use super::dispatch::ComputeState;
use super::stream::{CmdStream, Piece};
use crate::core::device::DeviceShared;
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// The command buffer lifecycle of the spec (pending is not tracked: it is the application's
/// duty not to touch a pending command buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Initial,
    Recording,
    Executable,
    Invalid,
}

struct Inner {
    state: State,
    stream: CmdStream,
    compute: ComputeState,
    graphics: crate::gfx::draw::GraphicsState,
    one_time: bool,
    error: Option<VkError>,
}

/// A `VkCommandBuffer`.
#[repr(C)]
pub struct CommandBuffer {
    base: ObjectBase,
    pub pool: vk::CommandPool,
    pub level: vk::CommandBufferLevel,
    /// The ring its pool's queue family submits to (some packets differ per ring).
    pub ip: winsys::Ip,
    inner: Mutex<Inner>,
}
vk_object!(CommandBuffer, vk::CommandBuffer, vk::ObjectType::COMMAND_BUFFER);

impl CommandBuffer {
    pub fn new(
        shared: Arc<DeviceShared>,
        pool: vk::CommandPool,
        level: vk::CommandBufferLevel,
        ip: winsys::Ip,
    ) -> Self {
        CommandBuffer {
            base: ObjectBase::new(vk::ObjectType::COMMAND_BUFFER),
            pool,
            level,
            ip,
            inner: Mutex::new(Inner {
                state: State::Initial,
                stream: CmdStream::new(shared),
                compute: ComputeState::default(),
                graphics: Default::default(),
                one_time: false,
                error: None,
            }),
        }
    }

    pub fn state(&self) -> State {
        self.inner.lock().state
    }

    /// `vkBeginCommandBuffer` (an implicit reset when it was recorded before).
    pub fn begin(&self, flags: vk::CommandBufferUsageFlags) -> VkResult<()> {
        let mut inner = self.inner.lock();
        // VUID-vkBeginCommandBuffer-commandBuffer-00049: "commandBuffer must not be in the
        // recording or pending state".
        if inner.state == State::Recording {
            return Err(VkError::InvalidUsage("vkBeginCommandBuffer while recording"));
        }
        inner.stream.reset();
        inner.compute.reset();
        inner.graphics = Default::default();
        inner.error = None;
        inner.one_time = flags.contains(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        inner.state = State::Recording;
        Ok(())
    }

    /// `vkEndCommandBuffer`: reports the first error met while recording.
    pub fn end(&self) -> VkResult<()> {
        let mut inner = self.inner.lock();
        // VUID-vkEndCommandBuffer-commandBuffer-00059: "commandBuffer must be in the recording
        // state".
        if inner.state != State::Recording {
            return Err(VkError::InvalidUsage("vkEndCommandBuffer outside recording"));
        }
        let result = match inner.error.take() {
            Some(e) => Err(e),
            None => inner.stream.finish(),
        };
        inner.state = if result.is_ok() { State::Executable } else { State::Invalid };
        if crate::debug::flags().pm4 && result.is_ok() {
            for (i, chunk) in inner.stream.words().iter().enumerate() {
                eprintln!("ferrum: PM4 chunk {i} ({} dwords): {chunk:08x?}", chunk.len());
            }
        }
        result
    }

    /// `vkResetCommandBuffer`; `release` drops the GPU memory too.
    pub fn reset(&self, release: bool) {
        let mut inner = self.inner.lock();
        if release {
            inner.stream.release();
        } else {
            inner.stream.reset();
        }
        inner.error = None;
        inner.state = State::Initial;
    }

    /// `vkTrimCommandPool` for this buffer: GPU memory its commands do not use goes back to
    /// the system; the recorded commands and the state are untouched.
    pub fn trim(&self) {
        let mut inner = self.inner.lock();
        // Only a buffer in the initial state cannot be pending on the GPU.
        match inner.state {
            State::Initial => inner.stream.release(),
            _ => inner.stream.trim(),
        }
    }

    /// GPU memory chunks the buffer holds.
    pub fn chunk_count(&self) -> usize {
        self.inner.lock().stream.chunk_count()
    }

    /// Records commands; the first failure is kept for `vkEndCommandBuffer`.
    pub fn record(&self, f: impl FnOnce(&mut CmdStream) -> VkResult<()>) {
        let mut inner = self.inner.lock();
        if inner.state != State::Recording {
            log::warn!("command recorded outside the recording state; ignored");
            return;
        }
        if inner.error.is_some() {
            return;
        }
        if let Err(e) = f(&mut inner.stream) {
            inner.error = Some(e);
        }
    }

    /// Records commands that read or change the compute state.
    pub fn record_compute(
        &self,
        f: impl FnOnce(&mut CmdStream, &mut ComputeState) -> VkResult<()>,
    ) {
        let mut inner = self.inner.lock();
        if inner.state != State::Recording {
            log::warn!("command recorded outside the recording state; ignored");
            return;
        }
        if inner.error.is_some() {
            return;
        }
        let Inner { stream, compute, .. } = &mut *inner;
        if let Err(e) = f(stream, compute) {
            inner.error = Some(e);
        }
    }

    /// Records commands that read or change the graphics state (and the push constants and
    /// compute state they share the command buffer with).
    pub fn record_graphics(
        &self,
        f: impl FnOnce(
            &mut CmdStream,
            &mut ComputeState,
            &mut crate::gfx::draw::GraphicsState,
        ) -> VkResult<()>,
    ) {
        let mut inner = self.inner.lock();
        if inner.state != State::Recording {
            log::warn!("command recorded outside the recording state; ignored");
            return;
        }
        if inner.error.is_some() {
            return;
        }
        let Inner { stream, compute, graphics, .. } = &mut *inner;
        if let Err(e) = f(stream, compute, graphics) {
            inner.error = Some(e);
        }
    }

    /// The IB to submit (a primary). A one-time-submit buffer becomes invalid: it may not run
    /// again without being recorded anew.
    pub fn submit_ib(&self) -> VkResult<Option<winsys::Ib>> {
        let inner = self.take_executable()?;
        // Only secondaries continuing a scope without its views defer work.
        if inner.stream.has_deferred() {
            return Err(VkError::InvalidUsage("a primary with work deferred to a primary"));
        }
        Ok(Some(inner.stream.ib()))
    }

    /// What a primary executing this secondary calls and records, in order: its IB segments
    /// and the operations deferred between them (`cmd::stream`).
    pub fn pieces(&self) -> VkResult<Vec<Piece>> {
        Ok(self.take_executable()?.stream.pieces())
    }

    /// The locked state of an executable buffer about to run (a one-time-submit buffer
    /// becomes invalid).
    fn take_executable(&self) -> VkResult<parking_lot::MutexGuard<'_, Inner>> {
        let mut inner = self.inner.lock();
        // VUID-VkSubmitInfo-pCommandBuffers-00072 (via 00070) and
        // VUID-vkCmdExecuteCommands-pCommandBuffers-00089: each element must be in the
        // pending or executable state.
        if inner.state != State::Executable {
            return Err(VkError::InvalidUsage("command buffer is not executable"));
        }
        if inner.one_time {
            inner.state = State::Invalid;
        }
        Ok(inner)
    }

    /// Dwords recorded so far (tests).
    pub fn recorded_dwords(&self) -> usize {
        self.inner.lock().stream.len_dw()
    }
}
