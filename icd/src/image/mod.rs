//! Images: surface layout and (later) the `VkImage` object.

pub mod layout;
