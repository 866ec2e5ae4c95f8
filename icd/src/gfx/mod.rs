//! Graphics: render passes and framebuffers, the one internal "begin rendering" description
//! that render passes and dynamic rendering both lower to, graphics pipelines, and the
//! recording of draws.
//!
//! `color_target` is the minimal render-target register translation the draw path uses until
//! the full one (`target`, `state`) lands.

pub mod color_target;
pub mod draw;
pub mod pipeline;
pub mod render_pass;
pub mod rendering;
