//! Image and sampler instructions → [`ImageInst`]s whose sources are named by
//! [`crate::ir::ImageArgs`]. The handle stays a `Handle`-mode deref here; the addressing shape
//! is read from its type now, because `lower_image_handles` later replaces the deref with a
//! descriptor index.

use rspirv::dr::{Instruction, Operand};
use spirv::{ImageOperands, Op};

use super::function::{FnCtx, Tree};
use super::module::CTree;
use super::operands::{bad, id, opname};
use crate::error::CompileError;
use crate::ir::{
    AluOp, AtomicOp, ImageInst, ImageOp, ImageShape, ImageSrcs, InstKind, Mode, SysVal, Type,
    Value, ValueType,
};

/// An image instruction's ConstOffset and (gathers) ConstOffsets operands.
type Offsets = (Option<[i32; 3]>, Option<[[i32; 3]; 4]>);

impl FnCtx<'_, '_> {
    /// The addressing shape of handle `h` (an image, sampled image or texel buffer deref).
    pub(super) fn handle_shape(
        &self,
        inst: &Instruction,
        h: Value,
    ) -> Result<ImageShape, CompileError> {
        let ValueType::Deref(pt) = self.f.ty(h) else {
            return Err(bad(inst, "image operand is not a handle"));
        };
        let types = &self.m.shader.types;
        let Type::Pointer { pointee, .. } = types.get(pt) else {
            return Err(bad(inst, "image operand is not a handle"));
        };
        let img = match types.get(*pointee) {
            Type::SampledImage { image } => *image,
            _ => *pointee,
        };
        match types.get(img) {
            Type::Image { dim, arrayed, ms, .. } => {
                Ok(ImageShape { dim: *dim, arrayed: *arrayed, ms: *ms })
            }
            _ => Err(bad(inst, "image operand is not an image")),
        }
    }

    /// Whether handle `h` is a `SubpassData` image (an input attachment).
    fn is_subpass(&self, h: Value) -> bool {
        let types = &self.m.shader.types;
        let ValueType::Deref(pt) = self.f.ty(h) else { return false };
        let Type::Pointer { pointee, .. } = types.get(pt) else { return false };
        matches!(types.get(*pointee), Type::Image { subpass: true, .. })
    }

    /// The texel a `subpassLoad` reads: SPIR-V's coordinate is an offset from the fragment's
    /// integer pixel position (GLSL passes (0, 0)), and the layer is the view index (0 outside
    /// a multiview subpass; layered rendering would need gl_Layer, which no advertised stage
    /// can write). FragCoord is at the pixel centre, or at a sample position inside the pixel
    /// under sample shading, so truncation gives the pixel either way.
    fn subpass_coord(&mut self, offset: Value) -> Value {
        let (f, i) = (ValueType::data(32, 4), ValueType::data(32, 1));
        let frag = self.emit(InstKind::SysVal(SysVal::FragCoord), f);
        let mut c = Vec::with_capacity(3);
        for k in 0..2 {
            let x = self.comp(frag, k);
            let x = self.alu(AluOp::F2i, i, vec![x]);
            let o = self.comp(offset, k);
            c.push(self.alu(AluOp::Iadd, i, vec![x, o]));
        }
        c.push(self.emit(InstKind::SysVal(SysVal::ViewIndex), i));
        self.alu(AluOp::Vec, ValueType::data(32, 3), c)
    }

    /// Reads the optional image operands starting at operand `at` into `s`; returns the
    /// constant offset and the four ConstOffsets of a gather.
    fn image_operands(
        &mut self,
        inst: &Instruction,
        at: usize,
        s: &mut ImageSrcs,
    ) -> Result<Offsets, CompileError> {
        let Some(Operand::ImageOperands(mask)) = inst.operands.get(at) else {
            return Ok((None, None));
        };
        let supported = ImageOperands::BIAS
            | ImageOperands::LOD
            | ImageOperands::GRAD
            | ImageOperands::CONST_OFFSET
            | ImageOperands::OFFSET
            | ImageOperands::CONST_OFFSETS
            | ImageOperands::SAMPLE
            | ImageOperands::MIN_LOD
            | ImageOperands::NON_PRIVATE_TEXEL
            | ImageOperands::VOLATILE_TEXEL
            | ImageOperands::ZERO_EXTEND
            | ImageOperands::SIGN_EXTEND;
        if !(*mask - supported).is_empty() {
            let what = format!("image operands {mask:?}");
            return Err(CompileError::unsupported(opname(inst), what));
        }
        let mut i = at + 1;
        let mut offset = None;
        let mut offsets = None;
        for bit in [
            ImageOperands::BIAS,
            ImageOperands::LOD,
            ImageOperands::GRAD,
            ImageOperands::CONST_OFFSET,
            ImageOperands::OFFSET,
            ImageOperands::CONST_OFFSETS,
            ImageOperands::SAMPLE,
            ImageOperands::MIN_LOD,
        ] {
            if !mask.contains(bit) {
                continue;
            }
            match bit {
                ImageOperands::CONST_OFFSET => offset = Some(self.const_offset(inst, i)?),
                ImageOperands::CONST_OFFSETS => offsets = Some(self.const_offsets(inst, i)?),
                ImageOperands::BIAS => s.bias = Some(self.leaf(inst, i)?),
                ImageOperands::LOD => s.lod = Some(self.leaf(inst, i)?),
                ImageOperands::GRAD => {
                    s.ddx = Some(self.leaf(inst, i)?);
                    i += 1;
                    s.ddy = Some(self.leaf(inst, i)?);
                }
                ImageOperands::OFFSET => s.offset = Some(self.leaf(inst, i)?),
                ImageOperands::SAMPLE => s.sample = Some(self.leaf(inst, i)?),
                _ => s.min_lod = Some(self.leaf(inst, i)?),
            }
            i += 1;
        }
        Ok((offset, offsets))
    }

    fn const_offset(&self, inst: &Instruction, i: usize) -> Result<[i32; 3], CompileError> {
        match self.m.consts.get(&id(inst, i)?) {
            Some(t) => leaf_offset(t).ok_or_else(|| bad(inst, "ConstOffset is not a constant")),
            _ => Err(bad(inst, "ConstOffset is not a constant")),
        }
    }

    /// The ConstOffsets operand: a constant array of four offsets.
    fn const_offsets(&self, inst: &Instruction, i: usize) -> Result<[[i32; 3]; 4], CompileError> {
        let err = || bad(inst, "ConstOffsets is not a constant array of four offsets");
        let Some(CTree::Node(items)) = self.m.consts.get(&id(inst, i)?) else { return Err(err()) };
        if items.len() != 4 {
            return Err(err());
        }
        let mut out = [[0; 3]; 4];
        for (o, t) in out.iter_mut().zip(items) {
            *o = leaf_offset(t).ok_or_else(err)?;
        }
        Ok(out)
    }

    /// textureGatherOffsets: four gathers, one per offset, each contributing its (i0, j0)
    /// texel (the fourth component; Vulkan "Texel Gathering" with ConstOffsets).
    fn gather_offsets(&mut self, ii: &ImageInst, offsets: [[i32; 3]; 4], vt: ValueType) -> Value {
        let (bits, _) = vt.shape();
        let mut texels = Vec::with_capacity(4);
        for o in offsets {
            let mut g = ii.clone();
            g.offset = Some(o);
            let v = self.emit(InstKind::Image(g), vt);
            texels.push(self.comp(v, 3));
        }
        self.alu(AluOp::Vec, ValueType::data(bits, 4), texels)
    }

    /// The operation, the operand index of the image operands, and the fixed sources.
    fn image_fixed(
        &mut self,
        inst: &Instruction,
        s: &mut ImageSrcs,
    ) -> Result<Option<(ImageOp, usize)>, CompileError> {
        let op = inst.class.opcode;
        let fixed = |cx: &mut Self, s: &mut ImageSrcs, n: usize| -> Result<(), CompileError> {
            s.handle = Some(cx.leaf(inst, 0)?);
            if n > 1 {
                s.coord = Some(cx.leaf(inst, 1)?);
            }
            Ok(())
        };
        let r = match op {
            Op::ImageSampleImplicitLod
            | Op::ImageSampleExplicitLod
            | Op::ImageSampleProjImplicitLod
            | Op::ImageSampleProjExplicitLod => {
                fixed(self, s, 2)?;
                (ImageOp::Sample, 2)
            }
            Op::ImageSampleDrefImplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjDrefImplicitLod
            | Op::ImageSampleProjDrefExplicitLod => {
                fixed(self, s, 2)?;
                s.dref = Some(self.leaf(inst, 2)?);
                (ImageOp::Sample, 3)
            }
            Op::ImageGather => {
                fixed(self, s, 2)?;
                s.component = Some(self.leaf(inst, 2)?);
                (ImageOp::Gather, 3)
            }
            Op::ImageDrefGather => {
                fixed(self, s, 2)?;
                s.dref = Some(self.leaf(inst, 2)?);
                (ImageOp::Gather, 3)
            }
            Op::ImageFetch => {
                fixed(self, s, 2)?;
                (ImageOp::Fetch, 2)
            }
            Op::ImageRead => {
                fixed(self, s, 2)?;
                (ImageOp::Read, 2)
            }
            Op::ImageWrite => {
                fixed(self, s, 2)?;
                s.data = Some(self.leaf(inst, 2)?);
                (ImageOp::Write, 3)
            }
            Op::ImageQuerySize => {
                fixed(self, s, 1)?;
                (ImageOp::Size, 1)
            }
            Op::ImageQuerySizeLod => {
                fixed(self, s, 1)?;
                s.lod = Some(self.leaf(inst, 1)?);
                (ImageOp::Size, 2)
            }
            Op::ImageQueryLevels => {
                fixed(self, s, 1)?;
                (ImageOp::Levels, 1)
            }
            Op::ImageQuerySamples => {
                fixed(self, s, 1)?;
                (ImageOp::Samples, 1)
            }
            Op::ImageQueryLod => {
                fixed(self, s, 2)?;
                (ImageOp::QueryLod, 2)
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// The projection of a projective sample (Vulkan "Projection Operation"): the
    /// coordinate's components before q, and the depth reference, divided by q (the
    /// component after the image's space coordinates).
    fn project(
        &mut self,
        inst: &Instruction,
        shape: ImageShape,
        s: &mut ImageSrcs,
    ) -> Result<(), CompileError> {
        let c = s.coord.ok_or_else(|| bad(inst, "coordinate"))?;
        let n = u32::from(shape.space_coords());
        let (bits, comps) = self.f.ty(c).shape();
        if shape.arrayed || shape.ms || u32::from(comps) <= n {
            return Err(bad(inst, "projective coordinate"));
        }
        let q = self.comp(c, n);
        let xs: Vec<Value> = (0..n).map(|k| self.comp(c, k)).collect();
        let f1 = ValueType::data(bits, 1);
        let mut div: Vec<Value> =
            xs.into_iter().map(|x| self.alu(AluOp::Fdiv, f1, vec![x, q])).collect();
        s.coord = Some(if div.len() == 1 {
            div.remove(0)
        } else {
            self.alu(AluOp::Vec, ValueType::data(bits, n as u8), div)
        });
        if let Some(d) = s.dref {
            s.dref = Some(self.alu(AluOp::Fdiv, self.f.ty(d), vec![d, q]));
        }
        Ok(())
    }

    /// Translates image instructions; `false` if `inst` is not one.
    pub fn image_inst(&mut self, inst: &Instruction) -> Result<bool, CompileError> {
        match inst.class.opcode {
            Op::SampledImage => {
                let (img, smp) = (self.leaf(inst, 0)?, self.leaf(inst, 1)?);
                let shape = self.handle_shape(inst, img)?;
                let s = ImageSrcs { handle: Some(img), data: Some(smp), ..Default::default() };
                let kind = InstKind::Image(
                    ImageInst::from_sources(ImageOp::Combine, shape, &s)
                        .ok_or_else(|| bad(inst, "sampled image"))?,
                );
                let rt = self.rtype(inst)?;
                let vt = ValueType::Deref(self.m.shader.types.pointer(rt, Mode::Handle, None));
                let v = self.emit(kind, vt);
                self.set(inst, Tree::Leaf(v))?;
                return Ok(true);
            }
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
            _ => {}
        }
        let mut s = ImageSrcs::default();
        let Some((iop, at)) = self.image_fixed(inst, &mut s)? else { return Ok(false) };
        let (offset, offsets) = self.image_operands(inst, at, &mut s)?;
        let h = s.handle.ok_or_else(|| bad(inst, "image"))?;
        let shape = self.handle_shape(inst, h)?;
        if is_projective(inst.class.opcode) {
            self.project(inst, shape, &mut s)?;
        }
        if !shape.ms {
            s.sample = None;
        }
        if self.is_subpass(h) {
            if iop != ImageOp::Read {
                return Err(bad(inst, "a SubpassData image is only read"));
            }
            let offset = s.coord.ok_or_else(|| bad(inst, "subpass read without a coordinate"))?;
            s.coord = Some(self.subpass_coord(offset));
        }
        let mut ii = ImageInst::from_sources(iop, shape, &s).ok_or_else(|| bad(inst, "image"))?;
        ii.offset = offset;
        if iop == ImageOp::Write {
            self.emit_void(InstKind::Image(ii));
            return Ok(true);
        }
        let vt = self.rvt(inst)?;
        let v = match offsets {
            Some(o) if iop == ImageOp::Gather => self.gather_offsets(&ii, o, vt),
            Some(_) => return Err(bad(inst, "ConstOffsets outside a gather")),
            None => self.emit(InstKind::Image(ii), vt),
        };
        self.set(inst, Tree::Leaf(v))?;
        Ok(true)
    }

    /// The image atomic behind a texel pointer: `srcs` are the data sources (value and, for
    /// compare-exchange, comparator).
    pub(super) fn texel_atomic(
        &self,
        inst: &Instruction,
        op: AtomicOp,
        (img, coord, sample): (Value, Value, Value),
        srcs: &[Value],
    ) -> Result<ImageInst, CompileError> {
        let shape = self.handle_shape(inst, img)?;
        let s = ImageSrcs {
            handle: Some(img),
            coord: Some(coord),
            sample: shape.ms.then_some(sample),
            data: srcs.first().copied(),
            cmp: srcs.get(1).copied(),
            ..Default::default()
        };
        ImageInst::from_sources(ImageOp::Atomic(op), shape, &s)
            .ok_or_else(|| bad(inst, "texel pointer"))
    }
}

/// The projective sampling instructions.
fn is_projective(op: Op) -> bool {
    matches!(
        op,
        Op::ImageSampleProjImplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefImplicitLod
            | Op::ImageSampleProjDrefExplicitLod
    )
}

/// An offset from a constant scalar or vector (sign-extended components).
fn leaf_offset(t: &CTree) -> Option<[i32; 3]> {
    let CTree::Leaf(b, c) = t else { return None };
    let mut o = [0i32; 3];
    for (k, v) in c.iter().take(3).enumerate() {
        o[k] = crate::ir::ops::sext(*v, *b) as i32;
    }
    Some(o)
}
