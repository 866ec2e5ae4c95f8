//! Opcode identities: one per instruction name, independent of the encoding that carries it
//! (`v_add_f32` is the same [`Opcode`] in its VOP2 and VOP3 forms), so the simulator keys its
//! semantics and the compiler its selection on one id.

use std::collections::HashMap;
use std::sync::OnceLock;

#[path = "opcode_list.rs"]
mod list;

/// An instruction name; constants such as `Opcode::V_ADD_F32` are generated from the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opcode(pub u16);

impl Opcode {
    /// The LLVM name without encoding suffix (`v_add_f32`).
    pub fn name(self) -> &'static str {
        list::NAMES.get(self.0 as usize).copied().unwrap_or("<invalid>")
    }

    /// The opcode with LLVM name `name` (without `_e32`/`_e64`/`_dpp`/`_sdwa`).
    pub fn from_name(name: &str) -> Option<Opcode> {
        static BY_NAME: OnceLock<HashMap<&'static str, Opcode>> = OnceLock::new();
        let map = BY_NAME.get_or_init(|| Opcode::all().map(|o| (o.name(), o)).collect());
        map.get(name).copied()
    }

    /// Every opcode in the tables.
    pub fn all() -> impl Iterator<Item = Opcode> {
        (0..list::NAMES.len() as u16).map(Opcode)
    }
}
