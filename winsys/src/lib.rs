//! The amdgpu kernel interface: UAPI types, the [`Kernel`] trait and one safe API over it.
//!
//! The driver (icd) uses only the safe API: [`Device`], [`Bo`], [`CpuMapping`], [`Context`],
//! submission and syncobjs. The same code runs on a real render node ([`drm::RenderNode`],
//! found with [`enumerate_amdgpu`]) and on the simulator (`ferrum_sim::open()` returns a
//! `Kernel`). Errors are [`Error`] values; a lost context shows up as
//! [`Error::ContextLost`] from submission and in [`Context::query_state`].
//!
//! ```no_run
//! use std::sync::Arc;
//! use ferrum_winsys::{
//!     BoDesc, BoFlags, Device, Domain, Ib, Ip, Kernel, Priority, Submission, SyncPoint, VaFlags,
//! };
//!
//! fn demo(kernel: Arc<dyn Kernel>) -> ferrum_winsys::Result<()> {
//!     // e.g. `kernel = ferrum_sim::open(Default::default())`, or
//!     // `Device::open_render_node(&ferrum_winsys::enumerate_amdgpu()[0])`.
//!     let dev = Device::from_kernel(kernel)?;
//!     println!("pci id {:#x}, {} MiB VRAM", dev.info().pci_id, dev.info().vram_size >> 20);
//!
//!     let bo = dev.create_bo(&BoDesc {
//!         size: 65536,
//!         alignment: 4096,
//!         domain: Domain::Gtt,
//!         flags: BoFlags::CPU_ACCESS | BoFlags::WRITE_COMBINED,
//!     })?;
//!     let map = bo.map()?;
//!     map.write_u32s(0, &[1, 2, 3])?;
//!
//!     // The driver chooses GPU addresses; the device offers a simple allocator.
//!     let va = dev.alloc_va(bo.size(), 65536)?;
//!     dev.map_va(&bo, va, 0, bo.size(), VaFlags::READ | VaFlags::WRITE)?;
//!
//!     let ctx = dev.create_context(Priority::Normal)?;
//!     assert!(ctx.query_state()?.lost().is_none());
//!
//!     // Submit PM4 written into `bo` at `va` (8 dwords), signal a syncobj, wait on it.
//!     let done = dev.create_syncobj(false)?;
//!     let ibs = [Ib { va, size_dw: 8, flags: 0 }];
//!     let handles = [bo.handle()];
//!     let signals = [SyncPoint { syncobj: &done, point: 0 }];
//!     let sub = Submission { signals: &signals, ..Submission::new(Ip::Compute, &ibs, &handles) };
//!     match ctx.submit(&sub) {
//!         Ok(fence) => assert!(ctx.wait(fence, None)?),
//!         Err(ferrum_winsys::Error::ContextLost(reason)) => eprintln!("device lost: {reason:?}"),
//!         Err(e) => return Err(e),
//!     }
//!     done.wait(0, Some(std::time::Duration::from_secs(1)))?;
//!
//!     dev.unmap_va(&bo, va, 0, bo.size())?;
//!     dev.free_va(va, bo.size());
//!     Ok(())
//! }
//! ```

pub mod bo;
pub mod cs;
pub mod ctx;
pub mod device;
pub mod drm;
pub mod error;
pub mod kernel;
pub mod syncobj;
pub mod time;
pub mod uapi;
pub mod va;

pub use bo::{Bo, BoDesc, BoFlags, CpuMapping, Domain, VaFlags};
pub use cs::{CsFence, Ib, Ip, Submission};
pub use ctx::{Context, ContextState, Priority};
pub use device::{Device, DeviceInfo, FirmwareVersions};
pub use drm::{enumerate_amdgpu, RenderNode};
pub use error::{Error, LostReason, Result};
pub use kernel::{Errno, Kernel};
pub use syncobj::{SyncPoint, Syncobj, WaitMode};
pub use va::VaAllocator;
