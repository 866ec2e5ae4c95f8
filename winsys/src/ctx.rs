//! GPU contexts: the unit the kernel blames and cancels when the GPU hangs or faults.

use crate::device::Device;
use crate::error::{Error, LostReason, Result};
use crate::uapi;

/// Scheduling priority of a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Priority {
    Low,
    #[default]
    Normal,
    /// Needs CAP_SYS_NICE on a real kernel.
    High,
}

/// The reset state of a context (`AMDGPU_CTX_OP_QUERY_STATE2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContextState {
    /// A GPU reset happened since the context was created.
    pub reset: bool,
    /// This context caused it.
    pub guilty: bool,
    /// VRAM contents were lost in the reset.
    pub vram_lost: bool,
}

impl ContextState {
    /// Whether the context can no longer be used; the Vulkan device is lost.
    pub fn lost(&self) -> Option<LostReason> {
        match (self.reset, self.guilty) {
            (_, true) => Some(LostReason::Guilty),
            (true, false) => Some(LostReason::Innocent),
            (false, false) if self.vram_lost => Some(LostReason::Unknown),
            _ => None,
        }
    }
}

/// A kernel GPU context; freed when dropped.
#[derive(Debug)]
pub struct Context {
    dev: Device,
    id: u32,
}

impl Device {
    pub fn create_context(&self, priority: Priority) -> Result<Context> {
        let priority = match priority {
            Priority::Low => uapi::AMDGPU_CTX_PRIORITY_LOW,
            Priority::Normal => uapi::AMDGPU_CTX_PRIORITY_NORMAL,
            Priority::High => uapi::AMDGPU_CTX_PRIORITY_HIGH,
        };
        let mut arg = uapi::DrmAmdgpuCtx::new(uapi::DrmAmdgpuCtxIn {
            op: uapi::AMDGPU_CTX_OP_ALLOC_CTX,
            priority,
            ..Default::default()
        });
        // SAFETY: the ctx ioctl carries no user pointers.
        unsafe { self.ioctl(uapi::DRM_IOCTL_AMDGPU_CTX, &mut arg) }
            .map_err(|errno| Error::ioctl("AMDGPU_CTX alloc", errno))?;
        Ok(Context { dev: self.clone(), id: arg.out_alloc().ctx_id })
    }
}

impl Context {
    pub fn id(&self) -> u32 {
        self.id
    }

    pub fn device(&self) -> &Device {
        &self.dev
    }

    /// Asks the kernel whether this context was hit by a reset.
    pub fn query_state(&self) -> Result<ContextState> {
        let mut arg = uapi::DrmAmdgpuCtx::new(uapi::DrmAmdgpuCtxIn {
            op: uapi::AMDGPU_CTX_OP_QUERY_STATE2,
            ctx_id: self.id,
            ..Default::default()
        });
        // SAFETY: the ctx ioctl carries no user pointers.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_AMDGPU_CTX, &mut arg) }
            .map_err(|errno| Error::ioctl("AMDGPU_CTX query", errno))?;
        let flags = arg.out_state().flags;
        Ok(ContextState {
            reset: flags & uapi::AMDGPU_CTX_QUERY2_FLAGS_RESET != 0,
            guilty: flags & uapi::AMDGPU_CTX_QUERY2_FLAGS_GUILTY != 0,
            vram_lost: flags & uapi::AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST != 0,
        })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let mut arg = uapi::DrmAmdgpuCtx::new(uapi::DrmAmdgpuCtxIn {
            op: uapi::AMDGPU_CTX_OP_FREE_CTX,
            ctx_id: self.id,
            ..Default::default()
        });
        // SAFETY: the ctx ioctl carries no user pointers.
        if let Err(errno) = unsafe { self.dev.ioctl(uapi::DRM_IOCTL_AMDGPU_CTX, &mut arg) } {
            log::error!("AMDGPU_CTX free of {} failed: {errno}", self.id);
        }
    }
}
