//! The graphics pipeline of the legacy (non-NGG) path: VS waves, primitive assembly, clipping,
//! culling and the viewport transform (the front end), handing [`prim::PrimBatch`]es to a
//! [`prim::Rasterizer`] (the back end: scan conversion, PS, depth/stencil, colour).
//!
//! Back end:
//! * [`raster`]: snapping, edge functions, fill rule, scissors, MSAA coverage, 2x2 quads.
//! * [`ps`], [`ps_inputs`]: pixel-shader waves, their input VGPRs and parameter LDS.
//! * [`depth`]: depth, depth-bounds and stencil tests and updates.
//! * [`blend`]: blend equations and logic operations.
//! * [`color_format`]: colour-buffer formats and their conversions.
//! * [`targets`], [`surface`]: colour and depth surfaces.
//! * [`backend`]: the draw loop ([`backend::BackEnd`] implements [`prim::Rasterizer`]).

pub mod addr;
pub mod backend;
pub mod blend;
pub mod color_format;
pub mod depth;
pub mod lines;
pub mod prim;
pub mod ps;
pub mod ps_inputs;
pub mod raster;
pub mod state;
pub mod surface;
pub mod targets;

pub use prim::{BackEndCounts, Capture, PrimBatch, PrimKind, Rasterizer, SetupPrim, SetupVertex};
