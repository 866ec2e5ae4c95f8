//! Meta operations: transfers and clears as internal compute dispatches.
//!
//! Like RADV's meta shaders (built with `nir_builder`), each kernel is IR constructed in code
//! with [`ferrum_compiler::meta::KernelBuilder`] and compiled by Ferrum's own compiler the first
//! time a device needs it; the program is cached per device ([`MetaCache`]). A meta command
//! embeds its descriptor set (T#/V# words) and push constants in the command stream, records
//! its dispatches through the ordinary compute path, and leaves the application's bound
//! compute state alone (every dispatch programs all the registers it uses).
//!
//! Synchronisation: the rest of the driver treats transfer stages as synchronous on the CP
//! (CP DMA with CP_SYNC, `cmd::barrier`). Meta commands keep that contract: they start by
//! invalidating the shader caches they read through and end with a CS_PARTIAL_FLUSH, so the
//! next command sees their writes in L2 as it would after a DMA.

pub mod blit;
pub mod clear;
pub mod copy;
pub mod pack;
pub mod query;
pub mod resolve;
mod surface;

use std::collections::HashMap;
use std::sync::Arc;

use ferrum_compiler::amd::ResourceLayout;
use ferrum_compiler::ir::Shader;
use ferrum_regs::gfx103::enums::VGT_EVENT_TYPE as ev;
use ferrum_winsys as winsys;
use parking_lot::Mutex;

use crate::cmd::dispatch::{self, ComputeState, Groups};
use crate::cmd::pm4::{self, gcr};
use crate::cmd::stream::CmdStream;
use crate::core::device::DeviceShared;
use crate::error::{VkError, VkResult};
use crate::pipeline::ComputeProgram;

/// Which built-in kernel: the operation and the image dimensionality it addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Store one raw texel (push constants) over a rectangle of layers or slices.
    Clear(surface::Dim),
    /// Move raw texel blocks between images and buffers.
    Copy(copy::Copy),
    /// Sample one image and store the filtered, converted texels into another, encoded as
    /// `FormatInfo::blit_store` plans.
    Blit(surface::Dim, blit::Encode),
    /// Combine the samples (this many) of a multisampled image into a single-sampled one.
    Resolve(u32, resolve::Combine),
    /// Resolve query slots into `vkCmdCopyQueryPoolResults` results.
    Query(query::Layout),
}

impl Kernel {
    fn build(self) -> (Shader, ResourceLayout) {
        match self {
            Kernel::Clear(dim) => clear::kernel(dim),
            Kernel::Copy(c) => copy::kernel(c),
            Kernel::Blit(dim, encode) => blit::kernel(dim, encode),
            Kernel::Resolve(samples, c) => resolve::kernel(samples, c),
            Kernel::Query(l) => query::kernel(l),
        }
    }
}

/// The compiled meta kernels of one device.
#[derive(Default)]
pub struct MetaCache {
    programs: Mutex<HashMap<Kernel, Arc<ComputeProgram>>>,
}

impl MetaCache {
    /// The program for `kernel`, compiled on first use. Compilation happens under the lock:
    /// two threads asking for the same kernel compile it once.
    pub fn program(&self, shared: &DeviceShared, kernel: Kernel) -> VkResult<Arc<ComputeProgram>> {
        let mut map = self.programs.lock();
        if let Some(p) = map.get(&kernel) {
            return Ok(p.clone());
        }
        let (ir, layout) = kernel.build();
        let bin = ferrum_compiler::meta::compile(ir, &layout).map_err(|e| {
            log::error!("meta kernel {kernel:?} failed to compile: {e}");
            VkError::InvalidShader(format!("meta kernel {kernel:?}: {e}"))
        })?;
        let words: Vec<u32> = bin
            .code
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            })
            .collect();
        let program = Arc::new(ComputeProgram::from_parts(shared, &words, bin.metadata)?);
        map.insert(kernel, program.clone());
        Ok(program)
    }
}

/// Invalidates the shader caches a meta kernel reads through (earlier writes by shaders or
/// the host must be visible to it, whatever the application's barrier named as destination).
pub fn begin(s: &mut CmdStream) -> VkResult<()> {
    s.emit(&pm4::acquire_mem(gcr::GLV_INV | gcr::GLK_INV | gcr::GL1_INV))
}

/// Waits for the meta dispatches, so later commands see their results as after a CP DMA.
pub fn end(s: &mut CmdStream) -> VkResult<()> {
    s.emit(&pm4::event_write(pm4::event::CS_PARTIAL_FLUSH, 4))
}

/// One dispatch of `kernel`: set 0's memory holds `set` (descriptor words at the offsets the
/// kernel's layout names), push constants `push`, `groups` workgroups.
pub fn run(
    s: &mut CmdStream,
    kernel: Kernel,
    set: &[u32],
    push: &[u32],
    groups: [u32; 3],
) -> VkResult<()> {
    if groups.contains(&0) {
        return Ok(());
    }
    let shared = s.shared().clone();
    let program = shared.meta.program(&shared, kernel)?;
    let mut st = ComputeState { pipeline: Some(program), ..Default::default() };
    st.sets[0].va = s.embed(set)?;
    for (i, w) in push.iter().enumerate() {
        st.push[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    // Pipeline statistics count the application's work only (RADV suspends queries around
    // its meta operations too).
    let pause = s.stats_query_active;
    if pause {
        s.emit(&pm4::event_write(ev::PIPELINESTAT_STOP, 0))?;
    }
    // Direct dispatches are the same packets on the graphics and compute rings.
    dispatch::dispatch(s, &st, winsys::Ip::Compute, Groups::Direct(groups), [0; 3])?;
    if pause {
        s.emit(&pm4::event_write(ev::PIPELINESTAT_START, 0))?;
    }
    Ok(())
}
