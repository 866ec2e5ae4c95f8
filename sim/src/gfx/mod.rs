//! The graphics pipeline of the legacy (non-NGG) path: VS waves, primitive assembly, clipping,
//! culling and the viewport transform (the front end), handing [`prim::PrimBatch`]es to a
//! [`prim::Rasterizer`] (the back end: scan conversion, PS, depth/stencil, colour).

pub mod prim;

pub use prim::{BackEndCounts, Capture, PrimBatch, PrimKind, Rasterizer, SetupPrim, SetupVertex};
