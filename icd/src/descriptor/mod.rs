//! Descriptor set layouts, pools, sets and updates, with descriptors as hardware words in GPU
//! memory laid out as the compute shader ABI describes (see `layout`): raw V#s for uniform and
//! storage buffers (dynamic ones in the push block), typed V#s for texel buffers (`vsharp`),
//! T#s for images (`tsharp`) and S#s for samplers (`ssharp`).

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
