//! The safe object model behind the entry points: instance, physical device, device, memory,
//! queue and synchronisation objects. Nothing here knows about the C calling convention except
//! the handle conversions in `object`.

pub mod buffer;
pub mod build_id;
pub mod chain;
pub mod device;
pub mod gpu_alloc;
pub mod host_memory;
pub mod instance;
pub mod memory;
pub mod object;
pub mod physical_device;
pub mod query;
pub mod queue;
pub mod queue_worker;
pub mod sync;
