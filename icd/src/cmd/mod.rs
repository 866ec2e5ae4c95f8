//! Command recording: PM4 packets, command streams in GPU memory, command pools and buffers,
//! and the commands themselves (dispatches, copies, barriers, events, queries).
//!
//! `pm4` builds packets as plain arrays; `stream` places them in chained GPU-visible chunks;
//! `buffer` and `pool` are the Vulkan objects; `dispatch` (compute state and the shader ABI),
//! `copy`, `copy_image`, `barrier` and `query` turn Vulkan commands into packets. Nothing here
//! submits: that is `core::queue`. Image layout transitions in barriers need no packets beyond
//! the memory dependency: Ferrum's images carry no compression metadata (DCC, HTILE) whose
//! state a layout names.

pub mod barrier;
pub mod buffer;
pub mod copy;
pub mod copy_image;
pub mod dispatch;
pub mod pm4;
pub mod pool;
pub mod query;
pub mod stream;

pub use buffer::{CommandBuffer, State};
pub use pool::CommandPool;
