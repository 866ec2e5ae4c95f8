//! The texture unit: descriptors (T#, S#, typed V#), surface addressing, format conversion,
//! filtering, and the MIMG instructions that use them.
//!
//! [`surface`] and [`mod@format`] are pure and shared with the colour and depth back ends.

pub mod equation;
pub mod surface;
#[rustfmt::skip]
pub mod swizzle_table;
pub mod bc;
pub mod bc6h;
pub mod bc7;
pub mod desc;
pub mod format;
pub mod image;
pub mod sample;
