//! Descriptor set layouts, pools, sets and updates for uniform and storage buffers (and their
//! dynamic variants), with descriptors as hardware V# words in GPU memory, laid out as the
//! compute shader ABI describes (see `layout`).

pub mod layout;
pub mod pool;
pub mod ssharp;
pub mod template;
pub mod tsharp;
pub mod update;
pub mod vsharp;

pub use layout::{DescriptorSetLayout, Kind, Place, SetLayout};
pub use pool::{DescriptorPool, DescriptorSet};
pub use template::DescriptorUpdateTemplate;
