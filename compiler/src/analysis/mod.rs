//! Control-flow analyses shared by passes and the validator.

pub mod cfg;
pub mod divergence;
pub mod dominance;
