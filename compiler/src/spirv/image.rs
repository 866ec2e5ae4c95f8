//! Image and sampler instructions. They are represented in the IR so every module parses and
//! prints; lowering them to hardware comes with the graphics work.

use rspirv::dr::{Instruction, Operand};
use spirv::{ImageOperands, Op};

use super::function::{FnCtx, Tree};
use super::module::CTree;
use super::operands::{bad, id, opname};
use crate::error::CompileError;
use crate::ir::{ImageInst, ImageOp, InstKind, Mode, Type, Value, ValueType};

impl FnCtx<'_, '_> {
    fn image_operands(
        &mut self,
        inst: &Instruction,
        at: usize,
        srcs: &mut Vec<Value>,
    ) -> Result<Option<[i32; 3]>, CompileError> {
        let Some(Operand::ImageOperands(mask)) = inst.operands.get(at) else { return Ok(None) };
        let mut i = at + 1;
        let mut offset = None;
        let supported = ImageOperands::BIAS
            | ImageOperands::LOD
            | ImageOperands::GRAD
            | ImageOperands::CONST_OFFSET
            | ImageOperands::SAMPLE;
        if !(*mask - supported).is_empty() {
            return Err(CompileError::unsupported(
                opname(inst),
                format!("image operands {mask:?}"),
            ));
        }
        for bit in [
            ImageOperands::BIAS,
            ImageOperands::LOD,
            ImageOperands::GRAD,
            ImageOperands::CONST_OFFSET,
            ImageOperands::SAMPLE,
        ] {
            if !mask.contains(bit) {
                continue;
            }
            if bit == ImageOperands::CONST_OFFSET {
                match self.m.consts.get(&id(inst, i)?) {
                    Some(CTree::Leaf(b, c)) => {
                        let mut o = [0i32; 3];
                        for (k, v) in c.iter().take(3).enumerate() {
                            o[k] = crate::ir::ops::sext(*v, *b) as i32;
                        }
                        offset = Some(o);
                    }
                    _ => return Err(bad(inst, "ConstOffset is not a constant")),
                }
            } else {
                srcs.push(self.leaf(inst, i)?);
                if bit == ImageOperands::GRAD {
                    i += 1;
                    srcs.push(self.leaf(inst, i)?);
                }
            }
            i += 1;
        }
        Ok(offset)
    }

    /// Translates image instructions; `false` if `inst` is not one.
    pub fn image_inst(&mut self, inst: &Instruction) -> Result<bool, CompileError> {
        let op = inst.class.opcode;
        let (iop, nfixed) = match op {
            Op::SampledImage => (ImageOp::Combine, 2),
            Op::ImageSampleImplicitLod | Op::ImageSampleExplicitLod => {
                let lod = matches!(inst.operands.get(2), Some(Operand::ImageOperands(m)) if m.intersects(ImageOperands::LOD | ImageOperands::GRAD));
                let grad = matches!(inst.operands.get(2), Some(Operand::ImageOperands(m)) if m.contains(ImageOperands::GRAD));
                (
                    if grad {
                        ImageOp::SampleGrad
                    } else if lod {
                        ImageOp::SampleLod
                    } else {
                        ImageOp::Sample
                    },
                    2,
                )
            }
            Op::ImageSampleDrefImplicitLod | Op::ImageSampleDrefExplicitLod => {
                (ImageOp::SampleDref, 3)
            }
            Op::ImageFetch => (ImageOp::Fetch, 2),
            Op::ImageGather => (ImageOp::Gather, 3),
            Op::ImageRead => (ImageOp::Read, 2),
            Op::ImageWrite => (ImageOp::Write, 3),
            Op::ImageQuerySize => (ImageOp::Size, 1),
            Op::ImageQuerySizeLod => (ImageOp::Size, 2),
            Op::ImageQueryLevels => (ImageOp::Levels, 1),
            Op::ImageQuerySamples => (ImageOp::Samples, 1),
            Op::Image => {
                // The image half of a combined handle: a cast of the handle deref.
                let h = self.leaf(inst, 0)?;
                let rt = self.rtype(inst)?;
                let pt = self.m.shader.types.pointer(rt, Mode::Handle, None);
                let v = self.emit(
                    InstKind::Deref { kind: crate::ir::DerefKind::Cast, parent: Some(h) },
                    ValueType::Deref(pt),
                );
                self.set(inst, Tree::Leaf(v))?;
                return Ok(true);
            }
            Op::ImageTexelPointer => {
                let (img, coord, sample) =
                    (self.leaf(inst, 0)?, self.leaf(inst, 1)?, self.leaf(inst, 2)?);
                self.texel_ptrs.insert(super::operands::result(inst)?, (img, coord, sample));
                return Ok(true);
            }
            _ => return Ok(false),
        };
        let mut srcs = Vec::new();
        for i in 0..nfixed {
            srcs.push(self.leaf(inst, i)?);
        }
        let offset = self.image_operands(inst, nfixed, &mut srcs)?;
        let kind = InstKind::Image(ImageInst { op: iop, srcs, offset });
        if op == Op::ImageWrite {
            self.emit_void(kind);
            return Ok(true);
        }
        let rt = self.rtype(inst)?;
        let vt = match self.m.shader.types.get(rt) {
            Type::SampledImage { .. } => {
                ValueType::Deref(self.m.shader.types.pointer(rt, Mode::Handle, None))
            }
            _ => self.rvt(inst)?,
        };
        let v = self.emit(kind, vt);
        self.set(inst, Tree::Leaf(v))?;
        Ok(true)
    }
}
