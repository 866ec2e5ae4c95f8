//! The Ferrum IR: typed SSA with deref instructions and layout-carrying interned types.

pub mod builder;
pub mod function;
pub mod image;
pub mod inst;
pub mod layout;
pub mod layout_rules;
pub mod ops;
pub mod print;
pub mod types;
pub mod validate;

pub use builder::Builder;
pub use function::*;
pub use image::*;
pub use inst::*;
pub use ops::AluOp;
pub use types::{ImageDim, Member, Mode, Type, TypeId, TypeTable};
