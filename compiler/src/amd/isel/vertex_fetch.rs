//! Vertex shader inputs on the legacy GFX10.3 path ([`crate::amd::abi::graphics`]): the
//! draw parameters from the user SGPRs and vertex attributes fetched through the
//! vertex-input table.
//!
//! Attribute location `l` is a typed (`buffer_load_format_*`) structured load through V# `l`
//! of the table at `s[4:5]`: the driver puts the attribute's format in the V#, so the
//! hardware converts (UNORM, SNORM, USCALED, UINT, SFLOAT, ...) and fills the components the
//! format lacks with (0, 0, 0, 1) through DST_SEL; integer and float inputs load alike. The
//! element index is the vertex index or, for per-instance rates ([`VsKey`]), the base
//! instance plus the instance id divided by the divisor.
//!
//! [`VsKey`]: crate::amd::abi::graphics::VsKey

use ferrum_isa::Opcode;

use super::build::{self, Src};
use super::{pinned, Isel, MVal};
use crate::amd::abi::graphics::{self as g, InputRate};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{MFunc, RegClass, RegRef};
use crate::ir::ops::AluOp;
use crate::ir::{SysVal, Value};

/// The VS's input registers.
#[derive(Clone, Copy, Debug)]
pub struct VsRegs {
    /// `v0`: the vertex id from the VGT (index or auto index from 0).
    vertex_id: RegRef,
    /// `v3`: the instance id from 0.
    instance_id: RegRef,
    /// `s[4:5]`: the vertex-input table address.
    table: RegRef,
    /// `s6`: base vertex.
    base_vertex: RegRef,
    /// `s7`: base instance.
    base_instance: RegRef,
    /// `s8`: draw index.
    draw_index: RegRef,
    /// `s9`: view index.
    view_index: RegRef,
}

impl VsRegs {
    /// Pins the VS's input registers.
    pub fn new(mf: &mut MFunc) -> Self {
        VsRegs {
            vertex_id: pinned(mf, RegClass::V, 1, g::VS_VGPR_VERTEX_INDEX),
            instance_id: pinned(mf, RegClass::V, 1, g::VS_VGPR_INSTANCE_ID),
            table: pinned(mf, RegClass::S, 2, g::VS_SGPR_VERTEX_INPUTS),
            base_vertex: pinned(mf, RegClass::S, 1, g::VS_SGPR_BASE_VERTEX),
            base_instance: pinned(mf, RegClass::S, 1, g::VS_SGPR_BASE_INSTANCE),
            draw_index: pinned(mf, RegClass::S, 1, g::VS_SGPR_DRAW_INDEX),
            view_index: pinned(mf, RegClass::S, 1, g::VS_SGPR_VIEW_INDEX),
        }
    }
}

impl Isel<'_> {
    fn vs_regs(&self) -> Result<VsRegs, BackendError> {
        self.gfx.vertex.ok_or_else(|| unsupported("vertex inputs outside a vertex shader"))
    }

    /// `a + s` for a VGPR `a` and an SGPR `s`, in the current block.
    fn add_vs(&mut self, a: RegRef, s: RegRef) -> RegRef {
        let r = self.vreg(RegClass::V, 1);
        let (sa, va) = (Src::R(s, RegClass::S), Src::R(a, RegClass::V));
        self.emit(build::vop2(Opcode::V_ADD_NC_U32, r, sa, va));
        r
    }

    /// The element index of `rate`, computed once in the prologue (which runs with every
    /// launched lane and dominates all uses).
    fn rate_index(&mut self, rate: InputRate) -> Result<RegRef, BackendError> {
        if let Some(&r) = self.gfx.rate_index.get(&rate) {
            return Ok(r);
        }
        let vs = self.vs_regs()?;
        let cur = std::mem::replace(&mut self.cur, 0);
        let r = match rate {
            InputRate::Vertex => Ok(self.add_vs(vs.vertex_id, vs.base_vertex)),
            InputRate::Instance { divisor: 0 } => {
                self.in_vgpr(MVal::Reg(vs.base_instance, RegClass::S), 1)
            }
            InputRate::Instance { divisor: 1 } => Ok(self.add_vs(vs.instance_id, vs.base_instance)),
            InputRate::Instance { divisor } => {
                let iid = MVal::Reg(vs.instance_id, RegClass::V);
                self.udiv_const(AluOp::Udiv, iid, divisor, u64::from(u32::MAX), false)
                    .and_then(|q| self.in_vgpr(q, 1))
                    .map(|q| self.add_vs(q, vs.base_instance))
            }
        };
        self.cur = cur;
        let r = r?;
        self.gfx.rate_index.insert(rate, r);
        Ok(r)
    }

    /// Vertex shader system values: gl_VertexIndex = v0 + s6, gl_InstanceIndex = v3 + s7,
    /// gl_BaseVertex, gl_BaseInstance, gl_DrawIndex, gl_ViewIndex.
    pub(super) fn select_vs_sysval(&mut self, sv: SysVal) -> Option<Vec<MVal>> {
        let vs = self.gfx.vertex?;
        let s = |r| Some(vec![MVal::Reg(r, RegClass::S)]);
        match sv {
            SysVal::VertexIndex => {
                self.rate_index(InputRate::Vertex).ok().map(|r| vec![MVal::Reg(r, RegClass::V)])
            }
            SysVal::InstanceIndex => {
                let rate = InputRate::Instance { divisor: 1 };
                self.rate_index(rate).ok().map(|r| vec![MVal::Reg(r, RegClass::V)])
            }
            SysVal::BaseVertex => s(vs.base_vertex),
            SysVal::BaseInstance => s(vs.base_instance),
            SysVal::DrawIndex => s(vs.draw_index),
            SysVal::ViewIndex => s(vs.view_index),
            _ => None,
        }
    }

    /// The V# of input location `loc`, loaded once in the prologue.
    fn vertex_input_vsharp(&mut self, loc: u32) -> Result<RegRef, BackendError> {
        if let Some(&r) = self.gfx.input_vsharps.get(&loc) {
            return Ok(r);
        }
        let vs = self.vs_regs()?;
        let r = self.vreg(RegClass::S, 4);
        let off = build::SmemOff::Imm(loc * g::VERTEX_INPUT_DESCRIPTOR_SIZE);
        self.emit_prologue(build::smem_load(Opcode::S_LOAD_DWORDX4, r, 4, vs.table, 2, off));
        self.gfx.input_vsharps.insert(loc, r);
        Ok(r)
    }

    /// `load_input` of a vertex attribute: components `comp..comp + n` of location `loc`.
    pub(super) fn select_vertex_input(
        &mut self,
        d: Value,
        loc: u32,
        comp: u8,
    ) -> Result<(), BackendError> {
        let n = self.shape(d).1;
        let end = comp + n;
        if end > 4 {
            return Err(unsupported("a vertex input beyond its vec4 slot"));
        }
        let r = self.fetch_location(loc, end)?;
        let out = (comp..end).map(|c| MVal::Reg(r.at(c), RegClass::V)).collect();
        self.set(d, out);
        Ok(())
    }

    /// `load_input` of a 64-bit vertex attribute (`n` elements from 32-bit component
    /// `comp`): element k is the 32-bit channels comp + 2k (low) and comp + 2k + 1 (high),
    /// continuing into the next location (Vulkan's "Vertex Input Interface": a dvec3 or
    /// dvec4 takes two). The driver describes a 64-bit format as 32-bit UINT channels, two
    /// per component, the part past 16 bytes at the next location, as RADV does.
    pub(super) fn select_vertex_input64(
        &mut self,
        d: Value,
        loc: u32,
        comp: u8,
    ) -> Result<(), BackendError> {
        let n = u32::from(self.shape(d).1);
        let end = u32::from(comp) + 2 * n;
        if end > 8 {
            return Err(unsupported("a 64-bit vertex input beyond two locations"));
        }
        let first = u32::from(comp) / 4;
        let mut regs = Vec::new();
        for l in first..end.div_ceil(4) {
            let chans = (end - 4 * l).min(4) as u8;
            regs.push(self.fetch_location(loc + l, chans)?);
        }
        let chan =
            |c: u32| MVal::Reg(regs[(c / 4 - first) as usize].at((c % 4) as u8), RegClass::V);
        let mut out = Vec::new();
        for k in 0..n {
            let c = u32::from(comp) + 2 * k;
            out.push(self.pair(chan(c), chan(c + 1))?);
        }
        self.set(d, out);
        Ok(())
    }

    /// Channels `0..end` of location `loc`, fetched through its V# with its format.
    fn fetch_location(&mut self, loc: u32, end: u8) -> Result<RegRef, BackendError> {
        if loc as usize >= g::MAX_VERTEX_INPUTS {
            return Err(unsupported(format!("vertex input location {loc}")));
        }
        let vsharp = self.vertex_input_vsharp(loc)?;
        let idx = self.rate_index(self.gfx.key.vs.rates[loc as usize])?;
        let op = [
            Opcode::BUFFER_LOAD_FORMAT_X,
            Opcode::BUFFER_LOAD_FORMAT_XY,
            Opcode::BUFFER_LOAD_FORMAT_XYZ,
            Opcode::BUFFER_LOAD_FORMAT_XYZW,
        ][usize::from(end - 1)];
        let r = self.vreg(RegClass::V, end);
        self.emit(super::image_sample::typed_buffer(op, idx, vsharp, None, Some((r, end)), false));
        Ok(r)
    }
}
