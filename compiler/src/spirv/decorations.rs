//! Decorations collected per id and per struct member before types are translated.

use rustc_hash::FxHashMap as HashMap;

use rspirv::dr::{Instruction, Module, Operand};
use spirv::{BuiltIn, Decoration};

use super::operands::{bad, id, lit};
use crate::error::CompileError;

/// Decorations of one id or one struct member.
#[derive(Clone, Debug, Default)]
pub struct Decor {
    /// `Offset`.
    pub offset: Option<u32>,
    /// `ArrayStride`.
    pub array_stride: Option<u32>,
    /// `MatrixStride`.
    pub matrix_stride: Option<u32>,
    /// `RowMajor`.
    pub row_major: bool,
    /// `Block`.
    pub block: bool,
    /// `BufferBlock`.
    pub buffer_block: bool,
    /// `BuiltIn`.
    pub builtin: Option<BuiltIn>,
    /// `DescriptorSet`.
    pub set: Option<u32>,
    /// `Binding`.
    pub binding: Option<u32>,
    /// `Location`.
    pub location: Option<u32>,
    /// `Component`.
    pub component: Option<u32>,
    /// `Index` (the dual-source blending index of a fragment output).
    pub index: Option<u32>,
    /// `SpecId`.
    pub spec_id: Option<u32>,
    /// `Flat`.
    pub flat: bool,
    /// `NoPerspective`.
    pub noperspective: bool,
    /// `Centroid` / `Sample`.
    pub interp: crate::ir::Interp,
    /// `NoContraction`: the result's products and sums are rounded one by one.
    pub no_contraction: bool,
    /// `FPRoundingMode` of a conversion's result.
    pub fp_rounding: Option<spirv::FPRoundingMode>,
}

/// All decorations of a module.
#[derive(Clone, Debug, Default)]
pub struct Decorations {
    /// Per id.
    pub ids: HashMap<u32, Decor>,
    /// Per (struct id, member).
    pub members: HashMap<(u32, u32), Decor>,
}

impl Decorations {
    /// Collects `OpDecorate` and `OpMemberDecorate`, and the decorations of decoration groups
    /// (`OpGroupDecorate`/`OpGroupMemberDecorate`) on each of their targets.
    pub fn collect(m: &Module) -> Result<Self, CompileError> {
        let mut d = Decorations::default();
        // Each id's OpDecorate instructions, for the groups among them.
        let mut by_target: HashMap<u32, Vec<&Instruction>> = HashMap::default();
        for inst in &m.annotations {
            match inst.class.opcode {
                spirv::Op::Decorate | spirv::Op::DecorateId => {
                    let t = id(inst, 0)?;
                    apply(d.ids.entry(t).or_default(), inst, 1)?;
                    by_target.entry(t).or_default().push(inst);
                }
                spirv::Op::MemberDecorate => {
                    let t = id(inst, 0)?;
                    let mi = lit(inst, 1)?;
                    apply(d.members.entry((t, mi)).or_default(), inst, 2)?;
                }
                _ => {}
            }
        }
        for inst in &m.annotations {
            let group = match inst.class.opcode {
                spirv::Op::GroupDecorate | spirv::Op::GroupMemberDecorate => id(inst, 0)?,
                _ => continue,
            };
            let decorations = by_target.get(&group).map_or(&[][..], Vec::as_slice);
            if inst.class.opcode == spirv::Op::GroupDecorate {
                for i in 1..inst.operands.len() {
                    let slot = d.ids.entry(id(inst, i)?).or_default();
                    for dec in decorations {
                        apply(slot, dec, 1)?;
                    }
                }
            } else {
                for i in (1..inst.operands.len()).step_by(2) {
                    let key = (id(inst, i)?, lit(inst, i + 1)?);
                    let slot = d.members.entry(key).or_default();
                    for dec in decorations {
                        apply(slot, dec, 1)?;
                    }
                }
            }
        }
        Ok(d)
    }

    /// Decorations of `id` (empty if none).
    pub fn of(&self, id: u32) -> Decor {
        self.ids.get(&id).cloned().unwrap_or_default()
    }

    /// Decorations of member `m` of struct `id`.
    pub fn member(&self, id: u32, m: u32) -> Decor {
        self.members.get(&(id, m)).cloned().unwrap_or_default()
    }
}

/// Records on `slot` the decoration that operand `rest` of `inst` names (with its arguments).
fn apply(slot: &mut Decor, inst: &Instruction, rest: usize) -> Result<(), CompileError> {
    let Some(Operand::Decoration(dec)) = inst.operands.get(rest) else {
        return Err(bad(inst, "missing decoration"));
    };
    let arg = || lit(inst, rest + 1);
    match dec {
        Decoration::Offset => slot.offset = Some(arg()?),
        Decoration::ArrayStride => slot.array_stride = Some(arg()?),
        Decoration::MatrixStride => slot.matrix_stride = Some(arg()?),
        Decoration::RowMajor => slot.row_major = true,
        Decoration::ColMajor => slot.row_major = false,
        Decoration::Block => slot.block = true,
        Decoration::BufferBlock => slot.buffer_block = true,
        Decoration::DescriptorSet => slot.set = Some(arg()?),
        Decoration::Binding => slot.binding = Some(arg()?),
        Decoration::Location => slot.location = Some(arg()?),
        Decoration::Component => slot.component = Some(arg()?),
        Decoration::Index => slot.index = Some(arg()?),
        Decoration::SpecId => slot.spec_id = Some(arg()?),
        Decoration::Flat => slot.flat = true,
        Decoration::NoPerspective => slot.noperspective = true,
        Decoration::NoContraction => slot.no_contraction = true,
        Decoration::Centroid => slot.interp = crate::ir::Interp::Centroid,
        Decoration::Sample => slot.interp = crate::ir::Interp::Sample,
        Decoration::FPRoundingMode => match inst.operands.get(rest + 1) {
            Some(Operand::FPRoundingMode(m)) => slot.fp_rounding = Some(*m),
            _ => return Err(bad(inst, "FPRoundingMode without a mode")),
        },
        Decoration::BuiltIn => match inst.operands.get(rest + 1) {
            Some(Operand::BuiltIn(b)) => slot.builtin = Some(*b),
            _ => return Err(bad(inst, "BuiltIn without a built-in")),
        },
        _ => {}
    }
    Ok(())
}
