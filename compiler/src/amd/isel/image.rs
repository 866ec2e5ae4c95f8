//! Image instruction selection: MIMG for images, typed MUBUF (`buffer_*_format_*`) for texel
//! buffers.
//!
//! Addresses go into one contiguous VGPR range in the order GFX10 MIMG reads them: packed
//! texel offset, LOD bias, depth reference, gradients, coordinates (with the layer, cube face
//! or sample index last), then the LOD or LOD clamp. The opcode is named from the operands
//! (`image_sample_c_d_cl_o` ...) and its address count is checked against the `isa` crate's
//! MIMG table, so a form the hardware does not have is an error, never a wrong encoding.
//! Cube coordinates become face coordinates and a face id with `v_cube*` as ACO does: face
//! s/t = `cubesc / |cubema| + 1.5` (the hardware's [1, 2] face range) and the face id plus
//! 8 × the rounded layer for cube arrays. Array layers of sampling are rounded to even
//! (the hardware truncates).

use ferrum_isa::{Inst, Mimg, Opcode};

use super::build::{self, B};
use super::image_desc::Part;
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef, Slot};
use crate::ir::{
    AluOp, AtomicOp, ImageDim, ImageInst, ImageOp, ImageShape, ImageSrcs, Stage, Value,
};

/// MIMG `dim` field.
fn mimg_dim(shape: ImageShape, sampling: bool) -> u8 {
    match (shape.dim, shape.arrayed, shape.ms) {
        (ImageDim::D1, false, _) => 0,
        (ImageDim::D1, true, _) => 4,
        (ImageDim::D2, false, false) => 1,
        (ImageDim::D2, true, false) => 5,
        (ImageDim::D2, false, true) => 6,
        (ImageDim::D2, true, true) => 7,
        (ImageDim::D3, ..) => 2,
        // Sampling addresses cube faces; loads and stores see the faces as layers.
        (ImageDim::Cube, ..) if sampling => 3,
        (ImageDim::Cube, ..) => 5,
        (ImageDim::Buffer, ..) => 0,
    }
}

fn image_atomic_op(op: AtomicOp) -> Opcode {
    match op {
        AtomicOp::Add => Opcode::IMAGE_ATOMIC_ADD,
        AtomicOp::Imin => Opcode::IMAGE_ATOMIC_SMIN,
        AtomicOp::Umin => Opcode::IMAGE_ATOMIC_UMIN,
        AtomicOp::Imax => Opcode::IMAGE_ATOMIC_SMAX,
        AtomicOp::Umax => Opcode::IMAGE_ATOMIC_UMAX,
        AtomicOp::And => Opcode::IMAGE_ATOMIC_AND,
        AtomicOp::Or => Opcode::IMAGE_ATOMIC_OR,
        AtomicOp::Xor => Opcode::IMAGE_ATOMIC_XOR,
        AtomicOp::Xchg => Opcode::IMAGE_ATOMIC_SWAP,
        AtomicOp::CmpXchg => Opcode::IMAGE_ATOMIC_CMPSWAP,
        AtomicOp::Load => Opcode::IMAGE_LOAD,
        AtomicOp::Store => Opcode::IMAGE_STORE,
    }
}

pub(super) fn buffer_atomic_op(op: AtomicOp) -> Opcode {
    match op {
        AtomicOp::Add => Opcode::BUFFER_ATOMIC_ADD,
        AtomicOp::Imin => Opcode::BUFFER_ATOMIC_SMIN,
        AtomicOp::Umin => Opcode::BUFFER_ATOMIC_UMIN,
        AtomicOp::Imax => Opcode::BUFFER_ATOMIC_SMAX,
        AtomicOp::Umax => Opcode::BUFFER_ATOMIC_UMAX,
        AtomicOp::And => Opcode::BUFFER_ATOMIC_AND,
        AtomicOp::Or => Opcode::BUFFER_ATOMIC_OR,
        AtomicOp::Xor => Opcode::BUFFER_ATOMIC_XOR,
        AtomicOp::Xchg => Opcode::BUFFER_ATOMIC_SWAP,
        AtomicOp::CmpXchg => Opcode::BUFFER_ATOMIC_CMPSWAP,
        AtomicOp::Load => Opcode::BUFFER_LOAD_FORMAT_X,
        AtomicOp::Store => Opcode::BUFFER_STORE_FORMAT_X,
    }
}

/// One MIMG instruction before its descriptors are known.
pub(super) struct MimgPlan {
    pub op: Opcode,
    pub dim: u8,
    pub dmask: u8,
    /// Address dwords (already in the final order).
    pub addr: Vec<MVal>,
    /// Data read (stores, atomics): register and dwords.
    pub data_in: Option<(RegRef, u8)>,
    /// Data written (loads, samples, atomics with return): register and dwords.
    pub data_out: Option<(RegRef, u8)>,
    pub glc: bool,
    pub sampler: bool,
}

impl Isel<'_> {
    /// Values of `v` as 32-bit components (error for other widths).
    fn comps32(&self, v: Value) -> Result<Vec<MVal>, BackendError> {
        if self.shape(v).0 != 32 {
            return Err(unsupported("image operands other than 32-bit"));
        }
        self.get(v)
    }

    fn valu(&mut self, op: AluOp, a: &[MVal]) -> Result<MVal, BackendError> {
        self.alu_comp(op, 32, 32, a, false)
    }

    /// Resource ids of the image and sampler halves of a handle.
    fn handle_ids(&self, h: Value) -> Result<(u32, u32), BackendError> {
        let c = self.get(h)?;
        let id = |m: MVal| match m {
            MVal::Res(id) => Ok(id),
            _ => Err(unsupported("an image handle that is not a descriptor (variable handles)")),
        };
        let img = id(c[0])?;
        Ok((img, c.get(1).map_or(Ok(img), |&m| id(m))?))
    }

    /// Selects an image instruction.
    pub(super) fn select_image(
        &mut self,
        im: &ImageInst,
        dst: Option<Value>,
    ) -> Result<(), BackendError> {
        let s = im.sources();
        let h = s.handle.ok_or_else(|| unsupported("image instruction without a handle"))?;
        if im.op == ImageOp::Combine {
            return Err(unsupported("image/sampler combination survived lowering"));
        }
        if let Some(d) = dst {
            if self.shape(d).0 != 32 {
                return Err(unsupported("image results other than 32-bit (d16)"));
            }
        }
        let (img, smp) = self.handle_ids(h)?;
        if im.shape.dim == ImageDim::Buffer {
            return self.select_texel_buffer(im, &s, img, dst);
        }
        let comps = dst.map_or(0, |d| self.shape(d).1);
        if im.op == ImageOp::Samples {
            return self.select_samples(img, dst);
        }
        let plan = self.plan_mimg(im, &s, comps)?;
        let reqs: Vec<(u32, Part)> = if plan.sampler {
            vec![(img, Part::Image), (smp, Part::Sampler)]
        } else {
            vec![(img, Part::Image)]
        };
        let addr = self.addr_vgprs(&plan.addr)?;
        let n_addr = plan.addr.len() as u8;
        self.with_descriptors(&reqs, &mut |isel, d| {
            isel.emit_mimg(&plan, addr, n_addr, d[0], d.get(1).copied());
            Ok(())
        })?;
        let Some(d) = dst else { return Ok(()) };
        let (out, n) = plan.data_out.ok_or_else(|| unsupported("image result"))?;
        let mut res: Vec<MVal> = (0..n).map(|i| MVal::Reg(out.at(i), RegClass::V)).collect();
        if im.op == ImageOp::Size && im.shape.dim == ImageDim::Cube && im.shape.arrayed {
            // The hardware reports faces; Vulkan counts cubes.
            let six = self.valu(AluOp::UmulHigh, &[res[2], MVal::Const(0xaaaa_aaab)])?;
            res[2] = self.valu(AluOp::Ushr, &[six, MVal::Const(2)])?;
        }
        res.truncate(usize::from(comps));
        while res.len() < usize::from(comps) {
            res.push(MVal::Const(0));
        }
        self.set(d, res);
        Ok(())
    }

    /// Copies address dwords into one contiguous VGPR range.
    fn addr_vgprs(&mut self, addr: &[MVal]) -> Result<RegRef, BackendError> {
        let r = self.vreg(RegClass::V, addr.len().max(1) as u8);
        for (i, &a) in addr.iter().enumerate() {
            let s = self.src(a)?;
            self.emit(build::vop1(Opcode::V_MOV_B32, r.at(i as u8), s));
        }
        Ok(r)
    }

    fn emit_mimg(
        &mut self,
        p: &MimgPlan,
        addr: RegRef,
        n_addr: u8,
        t: RegRef,
        smp: Option<RegRef>,
    ) {
        let mut m = Mimg::new(p.op, 0, 0, 0, 0, p.dmask, p.dim);
        m.glc = p.glc;
        let mut b = B::new(Inst::Mimg(m)).use_(Slot::Vaddr, addr, n_addr).use_(Slot::Srsrc, t, 8);
        if let Some(s) = smp.filter(|_| p.sampler) {
            b = b.use_(Slot::Ssamp, s, 4);
        }
        if let Some((r, n)) = p.data_in {
            b = b.use_(Slot::Vdata, r, n);
        }
        if let Some((r, n)) = p.data_out {
            b = b.def(Slot::Vdata, r, n);
        }
        self.emit(b.done());
    }

    /// Integer coordinates of a load, store or atomic (with a fetch's offset added and the
    /// sample index last for multisampled images).
    fn int_coords(&mut self, im: &ImageInst, s: &ImageSrcs) -> Result<Vec<MVal>, BackendError> {
        let c = s.coord.ok_or_else(|| unsupported("image access without coordinates"))?;
        let mut xs = self.comps32(c)?;
        xs.truncate(usize::from(im.shape.coords()));
        let space = usize::from(im.shape.space_coords()).min(xs.len());
        if let Some(o) = im.offset {
            for (k, x) in xs.iter_mut().enumerate().take(space) {
                *x = self.valu(AluOp::Iadd, &[*x, MVal::Const(o[k] as u32 as u64)])?;
            }
        } else if let Some(ov) = s.offset {
            let o = self.comps32(ov)?;
            for (k, x) in xs.iter_mut().enumerate().take(space) {
                *x = self.valu(AluOp::Iadd, &[*x, o[k.min(o.len() - 1)]])?;
            }
        }
        if let Some(smp) = s.sample {
            xs.push(self.comps32(smp)?[0]);
        }
        Ok(xs)
    }

    /// The instruction, its addresses and data for everything but queries of samples.
    fn plan_mimg(
        &mut self,
        im: &ImageInst,
        s: &ImageSrcs,
        comps: u8,
    ) -> Result<MimgPlan, BackendError> {
        let out = |isel: &mut Self, n: u8| Some((isel.vreg(RegClass::V, n.max(1)), n.max(1)));
        let mask = |n: u8| ((1u16 << n.clamp(1, 4)) - 1) as u8;
        let sampling = matches!(im.op, ImageOp::Sample | ImageOp::Gather | ImageOp::QueryLod);
        let dim = mimg_dim(im.shape, sampling);
        let mut p = MimgPlan {
            op: Opcode::IMAGE_LOAD,
            dim,
            dmask: mask(comps),
            addr: Vec::new(),
            data_in: None,
            data_out: None,
            glc: false,
            sampler: sampling,
        };
        match im.op {
            ImageOp::Read | ImageOp::Fetch => {
                p.addr = self.int_coords(im, s)?;
                let lod = s.lod.map(|l| self.comp(l, 0)).transpose()?;
                if let Some(l) = lod.filter(|l| *l != MVal::Const(0)) {
                    p.op = Opcode::IMAGE_LOAD_MIP;
                    p.addr.push(l);
                }
                p.data_out = out(self, comps);
            }
            ImageOp::Write => {
                p.op = Opcode::IMAGE_STORE;
                p.addr = self.int_coords(im, s)?;
                let data = s.data.ok_or_else(|| unsupported("image store without data"))?;
                let d = self.comps32(data)?;
                let r = self.addr_vgprs(&d)?;
                p.dmask = mask(d.len() as u8);
                p.data_in = Some((r, d.len() as u8));
            }
            ImageOp::Atomic(op) => {
                p.op = image_atomic_op(op);
                p.addr = self.int_coords(im, s)?;
                let mut d = match s.data {
                    Some(v) => vec![self.comps32(v)?[0]],
                    None => Vec::new(),
                };
                if let Some(c) = s.cmp {
                    d.push(self.comps32(c)?[0]);
                }
                let n = d.len() as u8;
                p.dmask = mask(n);
                if n > 0 {
                    let r = self.addr_vgprs(&d)?;
                    p.data_in = Some((r, n));
                    if op != AtomicOp::Store {
                        p.data_out = Some((r, 1));
                        p.glc = true;
                    }
                } else {
                    p.data_out = out(self, 1);
                    p.glc = true;
                }
                if op == AtomicOp::CmpXchg {
                    // The data register pair is the result's too: the old value lands in its first dword.
                    p.dmask = 0x3;
                }
            }
            ImageOp::Size | ImageOp::Levels => {
                p.op = Opcode::IMAGE_GET_RESINFO;
                let lod = s.lod.map(|l| self.comp(l, 0)).transpose()?.unwrap_or(MVal::Const(0));
                p.addr = vec![lod];
                p.dim = mimg_dim(im.shape, true);
                p.dmask = match (im.op, im.shape.dim, im.shape.arrayed) {
                    (ImageOp::Levels, ..) => 0x8,
                    // 1D images are 2D to the hardware: the layer count is in z.
                    (_, ImageDim::D1, true) => 0x5,
                    _ => mask(im.shape.size_comps()),
                };
                p.data_out = out(self, p.dmask.count_ones() as u8);
            }
            ImageOp::Sample | ImageOp::Gather => self.plan_sample(im, s, comps, &mut p)?,
            ImageOp::QueryLod => {
                // `image_get_lod` takes the sample's coordinates and derives the level from
                // their quad differences (whole-quad mode, `GfxIo::wqm`): x the level the
                // sampler would access (clamped, relative to the base level), y the
                // computed level, as OpImageQueryLod wants.
                if self.shader.stage != Stage::Fragment {
                    return Err(unsupported("level-of-detail queries outside fragment shaders"));
                }
                let c = s.coord.ok_or_else(|| unsupported("a query without coordinates"))?;
                // The query's coordinates have no array layer (a level does not depend on
                // it): the non-array coordinates, then layer 0 where the array shape takes
                // one (cube arrays fold the layer into the face coordinate).
                let mut flat = im.clone();
                flat.shape.arrayed = false;
                p.op = Opcode::IMAGE_GET_LOD;
                p.addr = self.sample_coords(&flat, c)?;
                if im.shape.arrayed && im.shape.dim != ImageDim::Cube {
                    p.addr.push(MVal::Const(0));
                }
                p.dmask = 0x3;
                p.data_out = out(self, 2);
            }
            _ => return Err(unsupported(format!("image op {:?}", im.op))),
        }
        self.check_addr_count(&p)?;
        Ok(p)
    }

    fn check_addr_count(&self, p: &MimgPlan) -> Result<(), BackendError> {
        let want = ferrum_isa::tables::Enc::Mimg
            .form_of(p.op)
            .and_then(|f| ferrum_isa::tables::MimgInfo::get(f.code))
            .map_or(0, |m| m.addr_count(p.dim, false));
        if want != p.addr.len() as u8 {
            return Err(unsupported(format!(
                "{} with dim {} takes {want} addresses, not {}",
                p.op.name(),
                p.dim,
                p.addr.len()
            )));
        }
        Ok(())
    }
}
