//! The graphics back end: scan conversion, pixel-shader waves, depth/stencil and colour.
//!
//! * [`raster`]: snapping, edge functions, fill rule, scissors, MSAA coverage, 2x2 quads.
//! * [`depth`]: depth, depth-bounds and stencil tests and updates.
//! * [`blend`]: blend equations and logic operations.
//! * [`color_format`]: colour-buffer formats and their conversions.

pub mod addr;
pub mod backend;
pub mod blend;
pub mod color_format;
pub mod depth;
pub mod ps;
pub mod ps_inputs;
pub mod raster;
pub mod state;
pub mod surface;
pub mod targets;
