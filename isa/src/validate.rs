//! Operand-class checks against the tables: what LLVM's assembler accepts for each source
//! (for instance `v_readlane_b32` wants an SGPR or constant lane select, `v_movrels_b32` a VGPR).
//! The encoder itself does not enforce these, because the decoder must accept (and re-encode)
//! whatever words the hardware would run; the compiler calls [`Inst::validate`] on what it
//! emits.

use crate::error::EncodeError;
use crate::inst::Inst;
use crate::operand::Operand;
use crate::tables::{accept, Field, Kind};

fn class(o: Operand) -> u8 {
    match o {
        Operand::Vgpr(_) => accept::VGPR,
        Operand::Sgpr(_) | Operand::Ttmp(_) | Operand::Special(_) => accept::SGPR,
        Operand::Int(_) => accept::INT,
        Operand::Float(_) => accept::FLOAT,
        Operand::Literal(_) => accept::LITERAL,
        Operand::Attr { .. } | Operand::InterpParam(_) => 0,
    }
}

impl Inst {
    /// The general source operands as (field, operand) pairs.
    pub fn sources(&self) -> Vec<(Field, Operand)> {
        match self {
            Inst::Sop2(i) => vec![(Field::Ssrc0, i.ssrc0), (Field::Ssrc1, i.ssrc1)],
            Inst::Sop1(i) => vec![(Field::Ssrc0, i.ssrc0)],
            Inst::Sopc(i) => vec![(Field::Ssrc0, i.ssrc0), (Field::Ssrc1, i.ssrc1)],
            Inst::Vop1(i) => vec![(Field::Src0, i.src0)],
            Inst::Vop2(i) => vec![(Field::Src0, i.src0), (Field::Vsrc1, Operand::Vgpr(i.vsrc1))],
            Inst::Vopc(i) => vec![(Field::Src0, i.src0), (Field::Vsrc1, Operand::Vgpr(i.vsrc1))],
            Inst::Vop3(i) => {
                vec![(Field::Src0, i.src[0]), (Field::Src1, i.src[1]), (Field::Src2, i.src[2])]
            }
            Inst::Vop3p(i) => {
                vec![(Field::Src0, i.src[0]), (Field::Src1, i.src[1]), (Field::Src2, i.src[2])]
            }
            _ => Vec::new(),
        }
    }

    /// Checks that every source is of a class the form accepts.
    pub fn validate(&self) -> Result<(), EncodeError> {
        let Some(form) = self.form() else {
            return Err(EncodeError::NoForm { op: self.op().name(), enc: self.enc() });
        };
        for (field, operand) in self.sources() {
            let Some(od) = form.operand(field) else { continue };
            let special = matches!(od.kind, Kind::Attr | Kind::Param);
            let is_special = matches!(operand, Operand::Attr { .. } | Operand::InterpParam(_));
            // (HALF and VGPR_FIELD describe the operand, they are not classes)
            let classes = od.accept
                & (accept::VGPR | accept::SGPR | accept::INT | accept::FLOAT | accept::LITERAL);
            if special != is_special || (classes != 0 && classes & class(operand) == 0) {
                return Err(EncodeError::BadOperand { operand, field });
            }
        }
        Ok(())
    }
}
