//! Control-flow analyses shared by passes and the validator.

pub mod alias;
pub mod bounds;
pub mod cfg;
pub mod divergence;
pub mod dominance;
