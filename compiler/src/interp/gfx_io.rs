//! Shader inputs and outputs of a vertex or fragment invocation, through derefs of `in`/`out`
//! variables (before `lower_io`) and as slot loads and stores (after it): both address a
//! (slot, component) pair, so a shader means the same thing before and after the lowering.
//!
//! Locations follow Vulkan's "Location Assignment": an array element or a matrix column
//! takes the next location(s), a struct member the locations after the previous members; a
//! vector index moves the component. The built-in arrays (clip and cull distances, the sample
//! mask) are components of their one slot. Fragment inputs are interpolated from the
//! primitive's vertices at the position their decoration (or `InterpolateAt*`) names.

use super::exec::{pointee, Ctx, IVal};
use super::gfx::{sample_locations, Inputs, Quad, Triangle};
use super::memory::{Mem, PSpace, Ptr};
use super::InterpError;
use crate::ir::ops;
use crate::ir::{
    BuiltinOut, InstKind, Interp, InterpAt, IoSlot, Mode, Type, TypeId, TypeTable, VarId,
};
use crate::passes::lower_io;

/// Whether `p` points at a shader input or output.
pub(super) fn is_io(p: Ptr) -> bool {
    matches!(p.space, PSpace::Io { .. } | PSpace::IoBlock { .. })
}

fn invalid(what: impl Into<String>) -> InterpError {
    InterpError::Invalid(what.into())
}

/// Locations a value of type `ty` takes: a 64-bit component takes two 32-bit ones, so 64-bit
/// vectors of three or four take two locations.
fn locations(t: &TypeTable, ty: TypeId) -> Result<u32, InterpError> {
    Ok(match t.get(ty) {
        Type::Array { elem, len, .. } => len.saturating_mul(locations(t, *elem)?),
        Type::Matrix { columns, .. } => u32::from(*columns),
        Type::Struct { members, .. } => {
            let mut n = 0u32;
            for m in members {
                n = n.saturating_add(locations(t, m.ty)?);
            }
            n
        }
        _ => match t.value_shape(ty) {
            Some((64, n)) if n > 2 => 2,
            _ => 1,
        },
    })
}

/// The location and 32-bit component of dword `k` of a 64-bit input or output at (`slot`,
/// `comp`): element j takes dwords 2j (low) and 2j + 1 (high), continuing into the next
/// location (Vulkan "Location Assignment": a dvec3 or dvec4 takes two).
fn dword_place(slot: IoSlot, comp: u8, k: u32) -> Result<(IoSlot, u8), InterpError> {
    let IoSlot::Location(l) = slot else {
        return Err(InterpError::Unsupported(format!("64-bit built-in {slot:?}")));
    };
    let c = u32::from(comp) + k;
    Ok((IoSlot::Location(l.saturating_add(c / 4)), (c % 4) as u8))
}

/// Screen-space barycentrics of window position `p` in the triangle (edge functions over
/// the doubled area).
pub(super) fn barycentrics(tri: &Triangle, p: [f64; 2]) -> Result<[f64; 3], InterpError> {
    if tri.point.is_some() {
        return Ok([1.0, 0.0, 0.0]);
    }
    let v = tri.window;
    let cross = |a: [f64; 3], b: [f64; 3], p: [f64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let area = cross(v[0], v[1], [v[2][0], v[2][1]]);
    if area == 0.0 || !area.is_finite() {
        return Err(invalid("degenerate triangle"));
    }
    Ok([cross(v[1], v[2], p) / area, cross(v[2], v[0], p) / area, cross(v[0], v[1], p) / area])
}

impl Ctx<'_> {
    /// The pointer `deref_var` of an input or output variable yields.
    pub(super) fn io_root(&self, v: VarId) -> Result<Ptr, InterpError> {
        let var = &self.s.vars[v.0 as usize];
        let output = var.mode == Mode::Output;
        if !var.members.is_empty() {
            // Each member has its own location ([`Variable::members`]).
            return Ok(Ptr { space: PSpace::IoBlock { var: v.0, output }, addr: 0 });
        }
        if let Some((l, c)) = var.location {
            return Ok(Ptr {
                space: PSpace::Io { slot: IoSlot::Location(l), output },
                addr: c.into(),
            });
        }
        match var.builtin_out.as_slice() {
            [Some(b)] => {
                Ok(Ptr { space: PSpace::Io { slot: IoSlot::Builtin(*b), output }, addr: 0 })
            }
            [] | [None] => Err(invalid(format!("{} has no location or built-in", var.name))),
            _ => Ok(Ptr { space: PSpace::IoBlock { var: v.0, output }, addr: 0 }),
        }
    }

    /// A member (`member`) or element (`idx`) step from `base`, which points at a `pt`.
    pub(super) fn io_deref(
        &self,
        base: Ptr,
        pt: TypeId,
        member: Option<u32>,
        idx: i64,
    ) -> Result<Ptr, InterpError> {
        let t = &self.s.types;
        let io = |slot, output, addr| Ptr { space: PSpace::Io { slot, output }, addr };
        match (base.space, member, t.get(pt)) {
            (PSpace::IoBlock { var, output }, Some(m), _) => {
                let v = &self.s.vars[var as usize];
                if let Some(mi) = v.members.get(m as usize) {
                    let (l, c) = mi.location;
                    return Ok(io(IoSlot::Location(l), output, c.into()));
                }
                let b = v.builtin_out.get(m as usize).copied().flatten();
                let b =
                    b.ok_or_else(|| invalid(format!("member {m} of {} is no built-in", v.name)))?;
                Ok(io(IoSlot::Builtin(b), output, 0))
            }
            (
                PSpace::Io { slot: IoSlot::Location(l), output },
                Some(m),
                Type::Struct { members, .. },
            ) => {
                let mut skip = 0u32;
                for x in members.iter().take(m as usize) {
                    skip = skip.saturating_add(locations(t, x.ty)?);
                }
                Ok(io(IoSlot::Location(l.saturating_add(skip)), output, base.addr))
            }
            (PSpace::Io { slot, output }, None, ty) => {
                let len = match ty {
                    Type::Vector { count, .. } => u32::from(*count),
                    Type::Matrix { columns, .. } => u32::from(*columns),
                    Type::Array { len, .. } => *len,
                    _ => 0,
                };
                let k = u32::try_from(idx).ok().filter(|&k| k < len).ok_or(
                    InterpError::OutOfBounds { space: "shader I/O array", addr: idx as u64 },
                )?;
                match (ty, slot) {
                    (Type::Vector { elem, .. }, _) => {
                        let step = t.value_shape(*elem).map_or(1, |s| u32::from(s.0 / 32).max(1));
                        Ok(io(slot, output, base.addr + u64::from(k * step)))
                    }
                    (Type::Array { .. }, IoSlot::Builtin(_)) => {
                        Ok(io(slot, output, base.addr + u64::from(k)))
                    }
                    (Type::Matrix { .. }, IoSlot::Location(l)) => {
                        Ok(io(IoSlot::Location(l + k), output, base.addr))
                    }
                    (Type::Array { elem, .. }, IoSlot::Location(l)) => {
                        let step = locations(t, *elem)?;
                        Ok(io(IoSlot::Location(l.saturating_add(k * step)), output, base.addr))
                    }
                    _ => Err(invalid("indexing a non-array shader I/O")),
                }
            }
            _ => Err(invalid("bad deref of a shader input or output")),
        }
    }

    /// A load of a scalar or vector `ty` through an I/O pointer.
    pub(super) fn io_load_ptr(
        &self,
        mem: &mut Mem<'_>,
        p: Ptr,
        ty: TypeId,
        at: InterpAt,
    ) -> Result<IVal, InterpError> {
        let PSpace::Io { slot, output } = p.space else {
            return Err(invalid("load of a whole built-in block"));
        };
        let (bits, n) =
            self.s.types.value_shape(ty).ok_or_else(|| invalid("aggregate I/O load"))?;
        let Some(widen) = lower_io::narrow16(&self.s.types, ty) else {
            return self.io_read(mem, slot, p.addr as u8, (bits, n), output, at);
        };
        // A 16-bit value in a 32-bit component, narrowed as `lower_io` narrows it.
        let IVal::Data(w) = self.io_read(mem, slot, p.addr as u8, (32, n), output, at)? else {
            return Err(invalid("aggregate I/O load"));
        };
        let src = ops::Src { bits: 32, comps: &w };
        let op = lower_io::io16_narrow(widen);
        Ok(IVal::Data(ops::eval(op, 16, n, &[src]).map_err(|e| invalid(e.to_string()))?))
    }

    /// A store of a scalar or vector through an I/O pointer.
    pub(super) fn io_store_ptr(
        &self,
        mem: &mut Mem<'_>,
        p: Ptr,
        ty: TypeId,
        v: &IVal,
    ) -> Result<(), InterpError> {
        let (PSpace::Io { slot, output: true }, IVal::Data(c)) = (p.space, v) else {
            return Err(invalid("store to a shader input"));
        };
        let bits = self.s.types.value_shape(ty).map_or(0, |s| s.0);
        let Some(widen) = lower_io::narrow16(&self.s.types, ty) else {
            return self.io_write(mem, slot, p.addr as u8, bits, c);
        };
        // Widened into 32-bit components as `lower_io` widens it.
        let src = ops::Src { bits: 16, comps: c };
        let w = ops::eval(widen, 32, c.len() as u8, &[src]).map_err(|e| invalid(e.to_string()))?;
        self.io_write(mem, slot, p.addr as u8, 32, &w)
    }

    /// `IoLoad`, `IoStore` and `InterpolateAt`.
    pub(super) fn io_inst(
        &self,
        kind: &InstKind,
        shape: (u8, u8),
        mem: &mut Mem<'_>,
    ) -> Result<Option<IVal>, InterpError> {
        match kind {
            InstKind::IoLoad { slot, comp, output, at } => {
                self.io_read(mem, *slot, *comp, shape, *output, *at).map(Some)
            }
            InstKind::IoStore { slot, comp, value } => {
                let bits = self.f.ty(*value).shape().0;
                self.io_write(mem, *slot, *comp, bits, &self.data(*value)?)?;
                Ok(None)
            }
            InstKind::InterpolateAt { ptr, at } => {
                let (ty, _) = pointee(self.s, self.f, *ptr)?;
                let p = self.ptr(*ptr)?;
                self.io_load_ptr(mem, p, ty, *at).map(Some)
            }
            _ => Err(invalid("not an I/O instruction")),
        }
    }

    /// `Demote`, `DemoteIf` and `IsHelper`.
    pub(super) fn helper_op(
        &self,
        kind: &InstKind,
        mem: &mut Mem<'_>,
    ) -> Result<Option<IVal>, InterpError> {
        let io = mem.io.as_deref_mut().filter(|io| matches!(io.inputs, Inputs::Fragment(..)));
        let io = io.ok_or_else(|| invalid("helper invocations outside a fragment shader"))?;
        match kind {
            InstKind::Demote => io.helper = true,
            InstKind::DemoteIf(c) => io.helper |= self.data(*c)?[0] & 1 == 1,
            _ => return Ok(Some(IVal::Data(vec![u64::from(io.helper)]))),
        }
        Ok(None)
    }

    fn io_write(
        &self,
        mem: &mut Mem<'_>,
        slot: IoSlot,
        comp: u8,
        bits: u8,
        c: &[u64],
    ) -> Result<(), InterpError> {
        let fragment = matches!(mem.io.as_deref().map(|io| &io.inputs), Some(Inputs::Fragment(..)));
        let io = mem.io.as_deref_mut().ok_or_else(|| invalid("output store outside graphics"))?;
        match bits {
            32 => {
                for (k, v) in c.iter().enumerate() {
                    io.outputs.insert((slot, comp + k as u8), v & 0xffff_ffff);
                }
            }
            // No colour attachment format has 64-bit channels (as the backend refuses them).
            64 if !fragment => {
                for (k, v) in c.iter().enumerate() {
                    for h in 0..2 {
                        let at = dword_place(slot, comp, 2 * k as u32 + h)?;
                        io.outputs.insert(at, v >> (32 * h) & 0xffff_ffff);
                    }
                }
            }
            _ => return Err(InterpError::Unsupported(format!("{bits}-bit shader outputs"))),
        }
        Ok(())
    }

    fn io_read(
        &self,
        mem: &mut Mem<'_>,
        slot: IoSlot,
        comp: u8,
        (bits, n): (u8, u8),
        output: bool,
        at: InterpAt,
    ) -> Result<IVal, InterpError> {
        let io = mem.io.as_deref().ok_or_else(|| invalid("shader I/O outside graphics"))?;
        if bits == 64 {
            // Fragment inputs must be flat (Vulkan "Fragment Input Interface"): both halves
            // are the provoking vertex's, not interpolated.
            if let (Inputs::Fragment(..), false) = (&io.inputs, output) {
                if !self.decoration(slot)?.0 {
                    return Err(invalid(format!("64-bit fragment input {slot:?} not flat")));
                }
            }
            let mut out = Vec::new();
            for k in 0..u32::from(n) {
                let mut v = 0;
                for h in 0..2 {
                    let (s, c) = dword_place(slot, comp, 2 * k + h)?;
                    let IVal::Data(d) = self.io_read(mem, s, c, (32, 1), output, at)? else {
                        return Err(invalid("aggregate I/O load"));
                    };
                    v |= d[0] << (32 * h);
                }
                out.push(v);
            }
            return Ok(IVal::Data(out));
        }
        if bits != 32 {
            return Err(InterpError::Unsupported(format!("{bits}-bit shader inputs/outputs")));
        }
        let comps = comp..comp + n;
        if output {
            return Ok(IVal::Data(
                comps.map(|c| io.outputs.get(&(slot, c)).copied().unwrap_or(0)).collect(),
            ));
        }
        match (&io.inputs, slot) {
            (Inputs::Vertex(a), IoSlot::Location(l)) => {
                Ok(IVal::Data(comps.map(|c| a.get(&(l, c)).copied().unwrap_or(0)).collect()))
            }
            (Inputs::Fragment(prim, lane), _) => {
                let (tri, quad) = &**prim;
                let p = self.position(tri, quad, *lane, slot, at)?;
                if slot == IoSlot::Builtin(BuiltinOut::PointCoord) {
                    return Ok(IVal::Data(comps.map(|c| point_coord(tri, p, c)).collect()));
                }
                let (flat, linear, _) = self.decoration(slot)?;
                let b = barycentrics(tri, p)?;
                let vals = comps.map(|c| {
                    let v =
                        tri.vertices.each_ref().map(|o| o.get(&(slot, c)).copied().unwrap_or(0));
                    if flat {
                        return v[0];
                    }
                    let f = v.map(|x| f64::from(f32::from_bits(x as u32)));
                    let r = if linear {
                        (0..3).map(|i| b[i] * f[i]).sum::<f64>()
                    } else {
                        let q = [0, 1, 2].map(|i| b[i] / tri.w[i]);
                        (0..3).map(|i| q[i] * f[i]).sum::<f64>() / q.iter().sum::<f64>()
                    };
                    u64::from((r as f32).to_bits())
                });
                Ok(IVal::Data(vals.collect()))
            }
            _ => Err(InterpError::Unsupported(format!("vertex input {slot:?}"))),
        }
    }

    /// (flat, noperspective, interpolation) of the input variable that covers `slot`.
    fn decoration(&self, slot: IoSlot) -> Result<(bool, bool, Interp), InterpError> {
        let IoSlot::Location(l) = slot else { return Ok((false, false, Interp::Center)) };
        for v in self.s.vars.iter().filter(|v| v.mode == Mode::Input) {
            for r in crate::passes::lower_io::slot_ranges(&self.s.types, v) {
                if l >= r.first && l - r.first < r.count {
                    return Ok((r.flat, r.noperspective, r.interp));
                }
            }
        }
        Ok((false, false, Interp::Center))
    }

    /// The window position a fragment input of `lane` is interpolated at.
    fn position(
        &self,
        tri: &Triangle,
        quad: &Quad,
        lane: u8,
        slot: IoSlot,
        at: InterpAt,
    ) -> Result<[f64; 2], InterpError> {
        let locs = sample_locations(tri.samples)?;
        let px =
            [f64::from(quad.x + u32::from(lane & 1)), f64::from(quad.y + u32::from(lane >> 1))];
        let in_pixel = |o: [f64; 2]| [px[0] + o[0], px[1] + o[1]];
        let centre = in_pixel([0.5, 0.5]);
        let sample = |k: u64| {
            let loc =
                locs.get(k as usize).ok_or(InterpError::OutOfBounds { space: "sample", addr: k });
            loc.map(|o| in_pixel(*o))
        };
        // Centroid: the centre when every sample is covered, else the first covered sample.
        let all = (1u32 << locs.len()) - 1;
        let cov = quad.coverage[usize::from(lane)] & all;
        let centroid = if cov == all || cov == 0 {
            Ok(centre)
        } else {
            sample(u64::from(cov.trailing_zeros()))
        };
        match at {
            InterpAt::Default => match self.decoration(slot)?.2 {
                Interp::Center => Ok(centre),
                Interp::Centroid => centroid,
                Interp::Sample => sample(u64::from(quad.sample.unwrap_or(0))),
            },
            InterpAt::Centroid => centroid,
            InterpAt::Sample(v) => sample(self.data(v)?[0] & 0xffff_ffff),
            InterpAt::Offset(v) => {
                let o = self.data(v)?;
                let f = |i: usize| f64::from(f32::from_bits(o.get(i).copied().unwrap_or(0) as u32));
                Ok([centre[0] + f(0), centre[1] + f(1)])
            }
        }
    }
}

/// gl_PointCoord component `c` at window position `p` (0 outside point rasterization).
fn point_coord(tri: &Triangle, p: [f64; 2], c: u8) -> u64 {
    let Some((centre, size)) = tri.point else { return 0 };
    let c = usize::from(c.min(1));
    u64::from(((0.5 + (p[c] - centre[c]) / size) as f32).to_bits())
}
