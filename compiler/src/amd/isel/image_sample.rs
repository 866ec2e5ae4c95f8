//! Sampling and gathers (address layout and opcode choice), sample-count queries and texel
//! buffers.

use ferrum_isa::Opcode;

use super::build::{self, Src};
use super::image::MimgPlan;
use super::image_desc::Part;
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef, Slot};
use crate::ir::{AluOp, ImageDim, ImageInst, ImageOp, ImageSrcs, Stage, Value};

/// 1.5f: added to cube face coordinates to reach the hardware's [1, 2] range.
const ONE_HALF_PLUS_ONE: u64 = 0x3fc0_0000;
/// 8.0f: the face-id stride of a layer in cube-array coordinates.
const EIGHT: u64 = 0x4100_0000;

/// A cube direction decomposed by the v_cube* instructions.
struct CubeFace {
    /// Twice the major-axis component (signed).
    ma: MVal,
    /// Face coordinates before the division by |ma|.
    sc: MVal,
    tc: MVal,
    /// 1 / |ma|.
    inv: MVal,
    /// The face (0..5).
    face: MVal,
    /// The face, plus 8 × layer for cube arrays.
    id: MVal,
}

impl Isel<'_> {
    /// Packs a texel offset into the MIMG offset dword: 6-bit fields at bits 0, 8 and 16.
    fn packed_offset(
        &mut self,
        im: &ImageInst,
        s: &ImageSrcs,
    ) -> Result<Option<MVal>, BackendError> {
        let n = usize::from(im.shape.space_coords());
        if let Some(o) = im.offset {
            let mut w = 0u32;
            for (k, v) in o.iter().enumerate().take(n) {
                w |= ((*v as u32) & 0x3f) << (8 * k);
            }
            return Ok(Some(MVal::Const(u64::from(w))));
        }
        let Some(ov) = s.offset else { return Ok(None) };
        let o = self.get(ov)?;
        let mut acc = MVal::Const(0);
        for (k, &c) in o.iter().enumerate().take(n) {
            let f = self.alu_comp(AluOp::Iand, 32, 32, &[c, MVal::Const(0x3f)], false)?;
            let sh = self.alu_comp(AluOp::Ishl, 32, 32, &[f, MVal::Const(8 * k as u64)], false)?;
            acc = self.alu_comp(AluOp::Ior, 32, 32, &[acc, sh], false)?;
        }
        Ok(Some(acc))
    }

    /// Coordinates of a sample or gather: cube directions become face coordinates and id,
    /// array layers are rounded to even.
    pub(super) fn sample_coords(
        &mut self,
        im: &ImageInst,
        c: Value,
    ) -> Result<Vec<MVal>, BackendError> {
        let mut xs = self.get(c)?;
        xs.truncate(usize::from(im.shape.coords()));
        if im.shape.dim != ImageDim::Cube {
            if im.shape.arrayed {
                let l = xs.len() - 1;
                xs[l] = self.alu_comp(AluOp::FroundEven, 32, 32, &[xs[l]], false)?;
            }
            return Ok(xs);
        }
        let f = self.cube_face_coords(im, &xs)?;
        let k = MVal::Const(ONE_HALF_PLUS_ONE);
        let fs = self.alu_comp(AluOp::Ffma, 32, 32, &[f.sc, f.inv, k], false)?;
        let ft = self.alu_comp(AluOp::Ffma, 32, 32, &[f.tc, f.inv, k], false)?;
        Ok(vec![fs, ft, f.id])
    }

    /// The v_cube* decomposition of a cube direction (`xs`: x, y, z and, for cube arrays,
    /// the layer, folded into the face id as `8 × layer + face`).
    fn cube_face_coords(&mut self, im: &ImageInst, xs: &[MVal]) -> Result<CubeFace, BackendError> {
        let v: Vec<Src> = xs[..3]
            .iter()
            .map(|&m| self.in_vgpr(m, 1).map(|r| Src::R(r, RegClass::V)))
            .collect::<Result<_, _>>()?;
        let cube = |isel: &mut Self, op: Opcode| {
            let d = isel.vreg(RegClass::V, 1);
            isel.emit(build::vop3(op, Some(d), None, &v, 0));
            MVal::Reg(d, RegClass::V)
        };
        let ma = cube(self, Opcode::V_CUBEMA_F32);
        let sc = cube(self, Opcode::V_CUBESC_F32);
        let tc = cube(self, Opcode::V_CUBETC_F32);
        let face = cube(self, Opcode::V_CUBEID_F32);
        let abs = self.alu_comp(AluOp::Fabs, 32, 32, &[ma], false)?;
        let inv = self.vreg(RegClass::V, 1);
        let abs_src = self.src(abs)?;
        self.emit(build::vop1(Opcode::V_RCP_F32, inv, abs_src));
        let inv = MVal::Reg(inv, RegClass::V);
        let mut id = face;
        if im.shape.arrayed {
            let layer = self.alu_comp(AluOp::FroundEven, 32, 32, &[xs[3]], false)?;
            id = self.alu_comp(AluOp::Ffma, 32, 32, &[layer, MVal::Const(EIGHT), id], false)?;
        }
        Ok(CubeFace { ma, sc, tc, inv, face, id })
    }

    /// A gradient of the cube direction turned into the gradient of the face coordinates
    /// the hardware takes (one unit per face, like the coordinates after `1 / |ma|`), on
    /// the face the direction selects (Vulkan "Cube Map Derivative Transformation"): with
    /// s = sc / |ma|, ds = (dsc − s · d|ma|) / |ma|, and the same for t. `ma` is twice the
    /// major-axis component (v_cubema), so d|ma| = 2 · sign(ma) · d(major).
    fn cube_gradient(&mut self, f: &CubeFace, g: &[MVal]) -> Result<[MVal; 2], BackendError> {
        let fc = |v: f32| MVal::Const(u64::from(v.to_bits()));
        let is_x = self.compare(AluOp::Flt, 32, &[f.face, fc(2.0)], false)?;
        let is_z = self.compare(AluOp::Fge, 32, &[f.face, fc(4.0)], false)?;
        let pos = self.compare(AluOp::Fge, 32, &[f.ma, fc(0.0)], false)?;
        let sign = self.select(&[pos, fc(1.0), fc(-1.0)], false)?;
        let neg_sign = self.alu_comp(AluOp::Fneg, 32, 32, &[sign], false)?;
        // sc is −z (+X), z (−X), x (±Y, +Z), −x (−Z); tc is z (+Y), −z (−Y), −y otherwise.
        let sc_sign = self.select(&[is_z, sign, fc(1.0)], false)?;
        let sc_sign = self.select(&[is_x, neg_sign, sc_sign], false)?;
        let sc_src = self.select(&[is_x, g[2], g[0]], false)?;
        let dsc = self.alu_comp(AluOp::Fmul, 32, 32, &[sc_src, sc_sign], false)?;
        let not_y = self.bool_op(AluOp::Ior, &[is_x, is_z])?;
        let neg_y = self.alu_comp(AluOp::Fneg, 32, 32, &[g[1]], false)?;
        let dz_signed = self.alu_comp(AluOp::Fmul, 32, 32, &[g[2], sign], false)?;
        let dtc = self.select(&[not_y, neg_y, dz_signed], false)?;
        let major = self.select(&[is_z, g[2], g[1]], false)?;
        let major = self.select(&[is_x, g[0], major], false)?;
        let two_sign = self.alu_comp(AluOp::Fmul, 32, 32, &[sign, fc(2.0)], false)?;
        let dma = self.alu_comp(AluOp::Fmul, 32, 32, &[major, two_sign], false)?;
        let mut out = [MVal::Const(0); 2];
        for (o, (d, c)) in out.iter_mut().zip([(dsc, f.sc), (dtc, f.tc)]) {
            let s = self.alu_comp(AluOp::Fmul, 32, 32, &[c, f.inv], false)?;
            let s_dma = self.alu_comp(AluOp::Fmul, 32, 32, &[s, dma], false)?;
            let num = self.alu_comp(AluOp::Fsub, 32, 32, &[d, s_dma], false)?;
            *o = self.alu_comp(AluOp::Fmul, 32, 32, &[num, f.inv], false)?;
        }
        Ok(out)
    }

    /// Sample and gather: opcode from the operands, addresses in MIMG order.
    pub(super) fn plan_sample(
        &mut self,
        im: &ImageInst,
        s: &ImageSrcs,
        comps: u8,
        p: &mut MimgPlan,
    ) -> Result<(), BackendError> {
        let c = s.coord.ok_or_else(|| unsupported("sampling without coordinates"))?;
        if self.shape(c).0 != 32 {
            return Err(unsupported("16-bit coordinates"));
        }
        let cube = im.shape.dim == ImageDim::Cube;
        let mut addr = Vec::new();
        let offset = self.packed_offset(im, s)?;
        addr.extend(offset);
        let one = |isel: &Self, v: Option<Value>| v.map(|v| isel.comp(v, 0)).transpose();
        let bias = one(self, s.bias)?;
        addr.extend(bias);
        let dref = one(self, s.dref)?;
        addr.extend(dref);
        let n = usize::from(im.shape.space_coords());
        match (s.ddx, s.ddy) {
            (Some(dx), Some(dy)) if cube => {
                // Face coordinates first: the gradients are taken on the selected face.
                let mut xs = self.get(c)?;
                xs.truncate(usize::from(im.shape.coords()));
                let f = self.cube_face_coords(im, &xs)?;
                for g in [dx, dy] {
                    let v = self.get(g)?;
                    let v: Vec<MVal> = (0..3).map(|k| v[k.min(v.len() - 1)]).collect();
                    addr.extend(self.cube_gradient(&f, &v)?);
                }
                let k = MVal::Const(ONE_HALF_PLUS_ONE);
                let fs = self.alu_comp(AluOp::Ffma, 32, 32, &[f.sc, f.inv, k], false)?;
                let ft = self.alu_comp(AluOp::Ffma, 32, 32, &[f.tc, f.inv, k], false)?;
                addr.extend([fs, ft, f.id]);
            }
            (Some(dx), Some(dy)) => {
                for g in [dx, dy] {
                    let v = self.get(g)?;
                    addr.extend((0..n).map(|k| v[k.min(v.len() - 1)]));
                }
                addr.extend(self.sample_coords(im, c)?);
            }
            _ => addr.extend(self.sample_coords(im, c)?),
        }
        let mut lod = one(self, s.lod)?;
        let mut clamp = one(self, s.min_lod)?;
        if let (Some(l), Some(m)) = (lod, clamp) {
            // No `_l_cl` form: clamp the explicit level in the ALU.
            lod = Some(self.alu_comp(AluOp::Fmax, 32, 32, &[l, m], false)?);
            clamp = None;
        }
        let level = match (lod, s.ddx.is_some(), bias.is_some()) {
            (Some(MVal::Const(0)), ..) => "_lz",
            (Some(_), ..) => "_l",
            (None, true, _) => "_d",
            (None, false, true) => "_b",
            (None, false, false) if im.op == ImageOp::Gather => "_lz",
            // The level from the coordinates' quad differences: the PS runs in whole-quad
            // mode for it (`GfxIo::wqm`).
            (None, false, false) if self.shader.stage == Stage::Fragment => "",
            (None, false, false) => {
                return Err(unsupported("implicit level of detail outside fragment shaders"))
            }
        };
        if level == "_l" {
            addr.extend(lod);
        }
        addr.extend(clamp);
        let name = format!(
            "image_{}{}{}{}{}",
            if im.op == ImageOp::Gather { "gather4" } else { "sample" },
            if dref.is_some() { "_c" } else { "" },
            level,
            if clamp.is_some() { "_cl" } else { "" },
            if offset.is_some() { "_o" } else { "" },
        );
        p.op =
            Opcode::from_name(&name).ok_or_else(|| unsupported(format!("no {name} on gfx10")))?;
        p.addr = addr;
        if im.op == ImageOp::Gather {
            p.dmask = match (dref, s.component.map(|v| self.comp(v, 0)).transpose()?) {
                (Some(_), _) | (None, None) => 1,
                (None, Some(MVal::Const(k))) if k < 4 => 1 << k,
                _ => return Err(unsupported("a gather component that is not a constant")),
            };
            p.data_out = Some((self.vreg(RegClass::V, 4), 4));
        } else {
            let n = comps.clamp(1, 4);
            p.dmask = ((1u16 << n) - 1) as u8;
            p.data_out = Some((self.vreg(RegClass::V, n), n));
        }
        Ok(())
    }

    /// Sample count of a (multisampled) image from its T#: `1 << LAST_LEVEL` (dword 3 bits
    /// 19:16) for the MSAA types (TYPE, bits 31:28, 14 or 15), else 1.
    pub(super) fn select_samples(
        &mut self,
        img: u32,
        dst: Option<Value>,
    ) -> Result<(), BackendError> {
        let Some(d) = dst else { return Ok(()) };
        let out = self.vreg(RegClass::V, 1);
        self.with_descriptors(&[(img, Part::Image)], &mut |isel, t| {
            let w3 = Src::R(t[0].at(3), RegClass::S);
            let last = isel.vreg(RegClass::S, 1);
            isel.emit(build::sop2(Opcode::S_BFE_U32, Some(last), w3, Src::I(4 << 16 | 16), 1));
            let n = isel.vreg(RegClass::S, 1);
            isel.emit(build::sop2(
                Opcode::S_LSHL_B32,
                Some(n),
                Src::I(1),
                Src::R(last, RegClass::S),
                1,
            ));
            let ty = isel.vreg(RegClass::S, 1);
            isel.emit(build::sop2(Opcode::S_LSHR_B32, Some(ty), w3, Src::I(28), 1));
            isel.emit(build::sopc(Opcode::S_CMP_GE_U32, Src::R(ty, RegClass::S), Src::I(14)));
            let r = isel.vreg(RegClass::S, 1);
            isel.emit(build::sop2(
                Opcode::S_CSELECT_B32,
                Some(r),
                Src::R(n, RegClass::S),
                Src::I(1),
                1,
            ));
            isel.emit(build::vop1(Opcode::V_MOV_B32, out, Src::R(r, RegClass::S)));
            Ok(())
        })?;
        self.set(d, vec![MVal::Reg(out, RegClass::V)]);
        Ok(())
    }

    /// Texel buffers: typed MUBUF with the element index in a VGPR (`idxen`); sizes are the
    /// V#'s NUM_RECORDS (element count).
    pub(super) fn select_texel_buffer(
        &mut self,
        im: &ImageInst,
        s: &ImageSrcs,
        buf: u32,
        dst: Option<Value>,
    ) -> Result<(), BackendError> {
        let comps = dst.map_or(0, |d| self.shape(d).1);
        let reqs = [(buf, Part::Buffer)];
        if im.op == ImageOp::Size {
            let d = dst.ok_or_else(|| unsupported("size without result"))?;
            let out = self.vreg(RegClass::V, 1);
            self.with_descriptors(&reqs, &mut |isel, v| {
                isel.emit(build::vop1(Opcode::V_MOV_B32, out, Src::R(v[0].at(2), RegClass::S)));
                Ok(())
            })?;
            self.set(d, vec![MVal::Reg(out, RegClass::V)]);
            return Ok(());
        }
        let c = s.coord.ok_or_else(|| unsupported("texel buffer access without an index"))?;
        let idx = self.comp(c, 0)?;
        let idx = self.in_vgpr(idx, 1)?;
        let (op, data_in, data_out, glc) = match im.op {
            ImageOp::Fetch | ImageOp::Read => {
                let n = comps.clamp(1, 4);
                let op = [
                    Opcode::BUFFER_LOAD_FORMAT_X,
                    Opcode::BUFFER_LOAD_FORMAT_XY,
                    Opcode::BUFFER_LOAD_FORMAT_XYZ,
                    Opcode::BUFFER_LOAD_FORMAT_XYZW,
                ][usize::from(n - 1)];
                (op, None, Some((self.vreg(RegClass::V, n), n)), false)
            }
            ImageOp::Write => {
                let v = self.get(s.data.ok_or_else(|| unsupported("store without data"))?)?;
                let n = v.len().clamp(1, 4) as u8;
                let r = self.vreg(RegClass::V, n);
                for (i, &x) in v.iter().take(4).enumerate() {
                    let sx = self.src(x)?;
                    self.emit(build::vop1(Opcode::V_MOV_B32, r.at(i as u8), sx));
                }
                let op = [
                    Opcode::BUFFER_STORE_FORMAT_X,
                    Opcode::BUFFER_STORE_FORMAT_XY,
                    Opcode::BUFFER_STORE_FORMAT_XYZ,
                    Opcode::BUFFER_STORE_FORMAT_XYZW,
                ][usize::from(n - 1)];
                (op, Some((r, n)), None, false)
            }
            ImageOp::Atomic(aop) => {
                let mut d = Vec::new();
                if let Some(v) = s.data {
                    d.push(self.comp(v, 0)?);
                }
                if let Some(v) = s.cmp {
                    d.push(self.comp(v, 0)?);
                }
                let n = d.len().max(1) as u8;
                let r = self.vreg(RegClass::V, n);
                for (i, &x) in d.iter().enumerate() {
                    let sx = self.src(x)?;
                    self.emit(build::vop1(Opcode::V_MOV_B32, r.at(i as u8), sx));
                }
                let op = super::image::buffer_atomic_op(aop);
                let ret = dst.is_some();
                let input = (!d.is_empty()).then_some((r, n));
                (op, input, ret.then_some((r, 1)), ret)
            }
            other => return Err(unsupported(format!("{other:?} on a texel buffer"))),
        };
        self.with_descriptors(&reqs, &mut |isel, v| {
            isel.emit(typed_buffer(op, idx, v[0], data_in, data_out, glc));
            Ok(())
        })?;
        if let (Some(d), Some((r, n))) = (dst, data_out) {
            let mut res: Vec<MVal> = (0..n).map(|i| MVal::Reg(r.at(i), RegClass::V)).collect();
            res.resize(usize::from(comps), MVal::Const(0));
            self.set(d, res);
        }
        Ok(())
    }
}

/// A MUBUF access with the element index in `idx` (`idxen`) and no offsets.
pub(super) fn typed_buffer(
    op: Opcode,
    idx: RegRef,
    vsharp: RegRef,
    data_in: Option<(RegRef, u8)>,
    data_out: Option<(RegRef, u8)>,
    glc: bool,
) -> crate::amd::mir::MInst {
    let inst = ferrum_isa::Inst::Mubuf(ferrum_isa::Buffer {
        op,
        vdata: 0,
        vaddr: 0,
        srsrc: 0,
        soffset: ferrum_isa::Operand::Int(0),
        offset: 0,
        offen: false,
        idxen: true,
        glc,
        slc: false,
        dlc: false,
        lds: false,
        tfe: false,
        format: 0,
    });
    let mut b = build::B::new(inst).use_(Slot::Vaddr, idx, 1).use_(Slot::Srsrc, vsharp, 4);
    if let Some((r, n)) = data_in {
        b = b.use_(Slot::Vdata, r, n);
    }
    if let Some((r, n)) = data_out {
        b = b.def(Slot::Vdata, r, n);
    }
    b.done()
}
