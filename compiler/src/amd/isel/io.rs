//! Vertex and pixel shader I/O on the legacy GFX10.3 path ([`crate::amd::abi::graphics`]).
//!
//! Every output component the shader stores gets one VGPR for the whole program, zeroed in
//! the prologue and written by each `store_output` under the current EXEC, so stores in
//! divergent control flow keep the other lanes' values (the hardware reads one register per
//! component at the export). Components stored in the entry block (all lanes, once) skip
//! the zeroing. The exports are emitted at the end of the program, after all
//! control flow, when EXEC is the wave's launch mask again: `exp pos0` (`done`) and one
//! `exp paramN` per written location for a VS; `exp mrtN` in the key's format for a PS,
//! the last one with `done vm`.
//!
//! Fragment inputs are interpolated where they are read: `v_interp_p1_f32`/`p2_f32` from
//! the perspective centre barycentrics, or `v_interp_mov_f32 p0` for flat inputs, with M0
//! holding the PRIM_MASK SGPR the SPI loads after the user SGPRs.
//!
//! This file holds the per-shader I/O state and the output stores; `inputs` reads inputs,
//! `live_mask` keeps the lanes that have not been killed or demoted, `exports` and
//! `ps_exports` emit the exports.

mod exports;
mod inputs;
mod live_mask;
mod ps_exports;

use std::collections::BTreeMap;

use ferrum_isa::Opcode;

use super::build::{self, Src};
use super::{pinned, Isel, MVal};
use crate::amd::abi::graphics as g;
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{MFunc, RegClass, RegRef};
use crate::ir::{
    BuiltinOut, ImageArgs, ImageOp, InstKind, Interp, InterpAt, IoSlot, Mode, Shader, Space, Stage,
    SubgroupOp, SysVal, Terminator, Value,
};

/// Graphics-stage inputs and the output registers.
#[derive(Clone, Debug, Default)]
pub struct GfxIo {
    /// PS key (export formats).
    pub key: g::GfxKey,
    /// VS: input registers.
    pub(super) vertex: Option<super::vertex_fetch::VsRegs>,
    /// VS: the V# of each input location read, loaded in the prologue.
    pub(super) input_vsharps: BTreeMap<u32, RegRef>,
    /// VS: the element index of each input rate used, computed in the prologue.
    pub(super) rate_index: std::collections::HashMap<g::InputRate, RegRef>,
    /// PS: I, J barycentrics, PRIM_MASK SGPR, position VGPRs.
    pixel: Option<([RegRef; 2], RegRef, [RegRef; 4])>,
    /// PS: the FRONT_FACE VGPR, when read.
    front_face: Option<RegRef>,
    /// The PS's view-index user SGPR (gl_ViewIndex), pinned when read.
    view_index: Option<RegRef>,
    /// PS: the SAMPLE_COVERAGE VGPR (gl_SampleMaskIn), when read.
    sample_coverage: Option<RegRef>,
    /// PS: the ANCILLARY VGPR (gl_SampleID, gl_SamplePosition), when read.
    ancillary: Option<RegRef>,
    /// PS: the I, J barycentrics read, by SPI_PS_INPUT_ENA bit ([`g::bary_bit`]).
    bary: BTreeMap<u8, [RegRef; 2]>,
    /// PS: the inputs the shader reads ([`g::PsUses`] without the exports).
    ps_uses: g::PsUses,
    /// PS: locations interpolated `noperspective`.
    linear: std::collections::BTreeSet<u32>,
    /// PS: locations interpolated `centroid` or `sample`.
    interp: BTreeMap<u32, Interp>,
    /// PS inputs: (location, flat), attribute index = position.
    pub inputs: Vec<(u32, bool)>,
    /// The PS reads gl_FragCoord.
    pub frag_coord: bool,
    /// The PS reads gl_FrontFacing.
    pub front_facing: bool,
    /// Output component registers by (slot, component).
    pub(super) outputs: BTreeMap<(SlotKey, u8), RegRef>,
    /// The launch EXEC minus the killed lanes, for shaders that end in several places (kill,
    /// early returns): the exports run with it.
    pub(super) live: Option<RegRef>,
    /// The PS kills lanes (DB_SHADER_CONTROL.KILL_ENABLE).
    pub kills: bool,
    /// The PS demotes lanes to helpers: they stay in EXEC (derivatives of their quad stay
    /// defined) but leave `live`, and memory writes run in exact mode as under WQM.
    pub demotes: bool,
    /// The PS runs in whole-quad mode (derivatives, implicit-LOD sampling): EXEC is widened
    /// to whole quads at entry so helper lanes compute, and narrowed to `live` around stores
    /// and atomics (exact mode) and, when lanes were killed or demoted, for the exports.
    pub wqm: bool,
    /// M0 holds PRIM_MASK (set in the prologue).
    m0_set: bool,
    /// VS: length of gl_ClipDistance (gl_CullDistance[j] is distance `clip_len + j`).
    clip_len: u8,
    /// Selection is in the entry block (EXEC = the launch mask, executed once).
    pub in_entry: bool,
    /// Output registers written in the entry block: their prologue zeroing is dead.
    written_in_entry: std::collections::HashSet<RegRef>,
    /// PS: the value of each output component stored only in the entry block
    /// ([`super::export_values`]).
    pub(super) entry_values: BTreeMap<(SlotKey, u8), Src>,
    /// PS: output components stored outside the entry block (or from a read-back).
    pub(super) stored_late: std::collections::HashSet<(SlotKey, u8)>,
    /// PS: the VGPR each export value not already in one was moved into.
    pub(super) export_moves: Vec<(Src, RegRef)>,
}

/// Output slots in export order: position first, then locations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum SlotKey {
    Position,
    Location(u32),
    /// gl_FragDepth.
    Depth,
    /// The misc vector: gl_PointSize (x), gl_Layer (z), gl_ViewportIndex (w).
    Misc,
    /// The clip and cull distances (components 0..8, the CCDIST vectors).
    ClipCull,
}

/// What the exports of a compiled graphics shader need the metadata to say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exported {
    /// VS: locations exported as parameters, in slot order.
    pub params: Vec<u32>,
    /// VS: the misc vector and clip/cull distances written.
    pub extras: g::VsExtras,
    /// PS: components written per colour target.
    pub color: [u8; 8],
    /// PS: interpolated inputs (location, flat) in attribute order.
    pub inputs: Vec<(u32, bool)>,
    /// PS: system values read and built-ins written.
    pub uses: g::PsUses,
}

/// The PS's interpolated inputs: every `Input` variable with a location, one entry per
/// vec4 slot it covers, sorted by location.
fn fragment_inputs(s: &Shader) -> Vec<(u32, bool)> {
    let mut m = BTreeMap::new();
    let distances = builtin_array_len(s, BuiltinOut::ClipDistance)
        + builtin_array_len(s, BuiltinOut::CullDistance);
    for k in 0..distances.min(8).div_ceil(4) {
        m.insert(g::CLIP_DIST_LOCATION + k, false);
    }
    let point_coord = Some(BuiltinOut::PointCoord);
    if s.vars.iter().any(|v| v.mode == Mode::Input && v.builtin_out.first() == Some(&point_coord)) {
        m.insert(g::POINT_COORD_LOCATION, false);
    }
    for r in input_ranges(s) {
        for k in 0..r.count.min(g::MAX_PARAMS) {
            *m.entry(r.first.saturating_add(k)).or_insert(false) |= r.flat;
        }
    }
    m.into_iter().collect()
}

/// Whether `f` takes quad differences: derivatives, or samples whose level comes from the
/// coordinates' derivatives (no explicit level or gradients), or reads its quad's other
/// lanes (Vulkan: a fragment shader that executes OpGroupNonUniformQuadBroadcast or
/// QuadSwap launches the helper invocations those need).
fn needs_helpers(f: &crate::ir::Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| match &i.kind {
        InstKind::Subgroup {
            op: SubgroupOp::Derivative { .. } | SubgroupOp::QuadBroadcast | SubgroupOp::QuadSwap(_),
            ..
        } => true,
        InstKind::Image(im) => {
            matches!(im.op, ImageOp::Sample | ImageOp::QueryLod)
                && !im.args.has(ImageArgs::LOD)
                && !im.args.has(ImageArgs::GRAD)
        }
        // interpolateAtSample/AtOffset move the centre barycentrics along their derivatives.
        InstKind::IoLoad { at: InterpAt::Sample(_) | InterpAt::Offset(_), .. } => true,
        _ => false,
    })
}

/// Whether `f` stores to or does atomics on memory other invocations can see (buffers,
/// global memory, images).
fn writes_memory(f: &crate::ir::Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| match &i.kind {
        InstKind::MemStore { space, .. } | InstKind::MemAtomic { space, .. } => {
            matches!(space, Space::Buffer | Space::Global)
        }
        InstKind::Image(im) => matches!(im.op, ImageOp::Write | ImageOp::Atomic(_)),
        _ => false,
    })
}

/// The location ranges of the PS's input variables (struct members each their own).
fn input_ranges(s: &Shader) -> impl Iterator<Item = crate::passes::lower_io::SlotRange> + '_ {
    s.vars
        .iter()
        .filter(|v| v.mode == Mode::Input)
        .flat_map(|v| crate::passes::lower_io::slot_ranges(&s.types, v))
}

/// Locations of the PS's `centroid` and `sample` (not flat) inputs.
fn interp_inputs(s: &Shader) -> BTreeMap<u32, Interp> {
    let mut m = BTreeMap::new();
    for r in input_ranges(s).filter(|r| !r.flat && r.interp != Interp::Center) {
        let n = r.count.min(g::MAX_PARAMS);
        m.extend((0..n).map(|k| (r.first.saturating_add(k), r.interp)));
    }
    m
}

/// Locations of the PS's `noperspective` (and not flat) inputs.
fn linear_inputs(s: &Shader) -> std::collections::BTreeSet<u32> {
    let mut set = std::collections::BTreeSet::new();
    for r in input_ranges(s).filter(|r| r.noperspective && !r.flat) {
        let n = r.count.min(g::MAX_PARAMS);
        set.extend((0..n).map(|k| r.first.saturating_add(k)));
    }
    set
}

/// Whether `shader` reads system value `sv`: through a built-in variable, or directly (the
/// front end derives an input attachment's coordinate from FragCoord and ViewIndex).
fn reads_sysval(shader: &Shader, sv: SysVal) -> bool {
    shader.vars.iter().any(|v| v.sysval == Some(sv))
        || shader
            .funcs
            .iter()
            .flat_map(|f| &f.blocks)
            .flat_map(|b| &b.insts)
            .any(|i| matches!(i.kind, crate::ir::InstKind::SysVal(s) if s == sv))
}

impl GfxIo {
    /// The pinned input registers of `shader`'s stage.
    pub fn new(shader: &Shader, mf: &mut MFunc, key: g::GfxKey, scratch: bool) -> Self {
        let mut io = GfxIo { key, ..Default::default() };
        match shader.stage {
            Stage::Vertex => {
                io.vertex = Some(super::vertex_fetch::VsRegs::new(mf));
                io.clip_len = builtin_array_len(shader, BuiltinOut::ClipDistance).min(8) as u8;
            }
            Stage::Fragment => {
                io.inputs = fragment_inputs(shader);
                io.clip_len = builtin_array_len(shader, BuiltinOut::ClipDistance).min(8) as u8;
                let reads = |sv| reads_sysval(shader, sv);
                io.frag_coord = reads(SysVal::FragCoord);
                io.front_facing = reads(SysVal::FrontFacing);
                io.view_index = reads(SysVal::ViewIndex)
                    .then(|| pinned(mf, RegClass::S, 1, g::PS_SGPR_VIEW_INDEX));
                io.linear = linear_inputs(shader);
                io.interp = interp_inputs(shader);
                let uses = g::PsUses {
                    frag_coord: io.frag_coord,
                    front_face: io.front_facing,
                    bary: io.bary_bits(shader.entry_fn()),
                    ancillary: reads(SysVal::SampleId) || reads(SysVal::SamplePosition),
                    sample_coverage: reads(SysVal::SampleMaskIn),
                    writes_memory: writes_memory(shader.entry_fn()),
                    early_tests: shader.early_fragment_tests,
                    ..Default::default()
                };
                io.ps_uses = uses;
                io.sample_coverage = uses
                    .sample_coverage
                    .then(|| pinned(mf, RegClass::V, 1, uses.sample_coverage_vgpr()));
                io.ancillary =
                    uses.ancillary.then(|| pinned(mf, RegClass::V, 1, uses.ancillary_vgpr()));
                for bit in (0..7).filter(|b| g::PsUses::input_ena(&uses) >> b & 1 != 0) {
                    let pair = uses.bary_vgprs(bit).map(|r| pinned(mf, RegClass::V, 1, r));
                    io.bary.insert(bit, pair);
                }
                io.front_face =
                    io.front_facing.then(|| pinned(mf, RegClass::V, 1, uses.front_face_vgpr()));
                let pos = if io.frag_coord {
                    uses.pos_vgprs().map(|r| pinned(mf, RegClass::V, 1, r))
                } else {
                    [mf.vreg(RegClass::V, 1); 4]
                };
                io.pixel = Some((
                    io.bary[&g::bary_bit(false, Interp::Center)],
                    pinned(mf, RegClass::S, 1, g::GfxSgprs { pixel: true, scratch }.prim_mask()),
                    pos,
                ));
            }
            _ => {}
        }
        let f = shader.entry_fn();
        let ends =
            f.blocks.iter().filter(|b| matches!(b.term, Terminator::Return(_) | Terminator::Kill));
        let kill_terms = f.blocks.iter().any(|b| matches!(b.term, Terminator::Kill));
        io.kills = kill_terms
            || f.blocks
                .iter()
                .flat_map(|b| &b.insts)
                .any(|i| matches!(i.kind, InstKind::KillIf(_)));
        io.wqm = shader.stage == Stage::Fragment && needs_helpers(f);
        io.demotes = shader.stage == Stage::Fragment
            && f.blocks
                .iter()
                .flat_map(|b| &b.insts)
                .any(|i| matches!(i.kind, InstKind::Demote | InstKind::DemoteIf(_)));
        // Whole-quad mode alone needs the launch mask only where helper lanes must not act
        // (memory writes) or are asked about: the exports may run with the helpers in EXEC,
        // as ACO's do, since the hardware's valid mask is EXEC and the pixels' coverage.
        let helpers_matter = io.wqm
            && (writes_memory(f)
                || f.blocks.iter().flat_map(|b| &b.insts).any(|i| i.kind == InstKind::IsHelper));
        // A `KillIf` takes its lanes out of EXEC for good (see `kill_if`): only kills that end
        // a block need the launch mask kept aside.
        let exact = kill_terms || io.demotes || helpers_matter;
        if shader.stage != Stage::Compute && (exact || ends.count() > 1) {
            io.live = Some(mf.vreg(RegClass::S, 1));
        }
        io
    }
}

impl GfxIo {
    /// The barycentric pair (SPI_PS_INPUT_ENA bit) a load of input location `loc` reads:
    /// the location's interpolation, or the centroid for interpolateAtCentroid, or the
    /// centre that interpolateAtSample/AtOffset start from.
    fn bary_bit_of(&self, loc: u32, at: InterpAt) -> u8 {
        let linear = self.linear.contains(&loc);
        let default = self.interp.get(&loc).copied().unwrap_or_default();
        g::bary_bit(
            linear,
            match at {
                InterpAt::Default => default,
                InterpAt::Centroid => Interp::Centroid,
                InterpAt::Sample(_) | InterpAt::Offset(_) => Interp::Center,
            },
        )
    }

    /// The barycentric inputs the fragment shader's input loads read (PERSP_CENTER is
    /// always enabled besides them).
    fn bary_bits(&self, f: &crate::ir::Function) -> u8 {
        let mut bits = 0u8;
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::IoLoad { slot: IoSlot::Location(l), output: false, at, .. } = i.kind {
                if !self.inputs.iter().any(|&(loc, flat)| loc == l && flat) {
                    bits |= 1 << self.bary_bit_of(l, at);
                }
            }
        }
        bits
    }
}

/// Length of the output array built-in `b` (0 when the shader has none).
fn builtin_array_len(s: &Shader, b: BuiltinOut) -> u32 {
    let len = |t| match s.types.get(t) {
        crate::ir::Type::Array { len, .. } => *len,
        _ => 1,
    };
    for v in s.vars.iter().filter(|v| matches!(v.mode, Mode::Output | Mode::Input)) {
        for (i, o) in v.builtin_out.iter().enumerate() {
            if *o != Some(b) {
                continue;
            }
            if v.builtin_out.len() == 1 {
                return len(v.ty);
            }
            if let crate::ir::Type::Struct { members, .. } = s.types.get(v.ty) {
                return members.get(i).map_or(1, |m| len(m.ty));
            }
        }
    }
    0
}

impl GfxIo {
    /// The output slot of `slot` and the component its component 0 lands in.
    fn slot_key(&self, slot: IoSlot) -> Result<(SlotKey, u8), BackendError> {
        Ok(match slot {
            IoSlot::Location(l) if l < g::MAX_PARAMS => (SlotKey::Location(l), 0),
            IoSlot::Builtin(BuiltinOut::Position) => (SlotKey::Position, 0),
            IoSlot::Builtin(BuiltinOut::FragDepth) => (SlotKey::Depth, 0),
            // mrtz: depth in x, the stencil reference in y (Z_FORMAT 32_GR or 32_ABGR), the
            // sample mask in z (32_ABGR).
            IoSlot::Builtin(BuiltinOut::FragStencilRef) => (SlotKey::Depth, 1),
            IoSlot::Builtin(BuiltinOut::SampleMask) => (SlotKey::Depth, 2),
            IoSlot::Builtin(BuiltinOut::PointSize) => (SlotKey::Misc, 0),
            IoSlot::Builtin(BuiltinOut::Layer) => (SlotKey::Misc, 2),
            IoSlot::Builtin(BuiltinOut::ViewportIndex) => (SlotKey::Misc, 3),
            IoSlot::Builtin(BuiltinOut::ClipDistance) => (SlotKey::ClipCull, 0),
            IoSlot::Builtin(BuiltinOut::CullDistance) => (SlotKey::ClipCull, self.clip_len),
            other => return Err(unsupported(format!("shader output {other:?}"))),
        })
    }
}

/// Components an output slot has.
fn slot_width(key: SlotKey) -> u8 {
    if key == SlotKey::ClipCull {
        8
    } else {
        4
    }
}

impl Isel<'_> {
    /// The register of output component (`key`, `c`), zeroed in the prologue when new.
    fn output_reg(&mut self, key: SlotKey, c: u8) -> RegRef {
        if let Some(&r) = self.gfx.outputs.get(&(key, c)) {
            return r;
        }
        let r = self.vreg(RegClass::V, 1);
        self.emit_prologue(build::vop1(Opcode::V_MOV_B32, r, Src::I(0)));
        self.gfx.outputs.insert((key, c), r);
        r
    }

    /// `store_output`: each component of `value` into its output register; a 64-bit element
    /// into two ([`dword_place`]).
    pub(super) fn select_io_store(
        &mut self,
        slot: IoSlot,
        comp: u8,
        value: Value,
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(value);
        if slot == IoSlot::Builtin(BuiltinOut::SampleMask) && comp + n > 1 {
            return Err(unsupported("gl_SampleMask beyond element 0 (more than 32 samples)"));
        }
        let fragment = self.shader.stage == Stage::Fragment;
        for i in 0..n {
            let v = self.comp(value, usize::from(i))?;
            match bits {
                32 => self.store_dword(slot, comp + i, v)?,
                // No colour attachment format has 64-bit channels.
                64 if !fragment => {
                    let (lo, hi) = super::alu_int::split(v);
                    for (h, half) in [lo, hi].into_iter().enumerate() {
                        let (s, c) = dword_place(slot, comp, 2 * u32::from(i) + h as u32)?;
                        self.store_dword(s, c, half)?;
                    }
                }
                _ => {
                    return Err(unsupported(format!("{bits}-bit {:?} outputs", self.shader.stage)))
                }
            }
        }
        Ok(())
    }

    /// One 32-bit component `comp` of output `slot`.
    fn store_dword(&mut self, slot: IoSlot, comp: u8, v: MVal) -> Result<(), BackendError> {
        let (key, base) = self.gfx.slot_key(slot)?;
        let fragment = self.shader.stage == Stage::Fragment;
        let vertex_only = matches!(key, SlotKey::Position | SlotKey::Misc | SlotKey::ClipCull);
        if (fragment && vertex_only) || (!fragment && key == SlotKey::Depth) {
            return Err(unsupported(format!("{:?} output {slot:?}", self.shader.stage)));
        }
        let c = base + comp;
        if c >= slot_width(key) {
            return Err(unsupported(format!("output component {c} of {slot:?}")));
        }
        let r = self.output_reg(key, c);
        if self.gfx.in_entry {
            self.gfx.written_in_entry.insert(r);
        }
        let s = self.src(v)?;
        if fragment {
            self.note_output_store(key, c, s);
        }
        self.emit(build::vop1(Opcode::V_MOV_B32, r, s));
        Ok(())
    }
}

/// The location and 32-bit component of dword `k` of a 64-bit input or output at (`slot`,
/// `comp`): element j takes dwords 2j (low) and 2j + 1 (high), counted on into the next
/// location as `lower_io` places them (a dvec3 or dvec4 takes two; Vulkan "Location
/// Assignment").
fn dword_place(slot: IoSlot, comp: u8, k: u32) -> Result<(IoSlot, u8), BackendError> {
    let IoSlot::Location(l) = slot else {
        return Err(unsupported(format!("64-bit built-in {slot:?}")));
    };
    let c = u32::from(comp) + k;
    Ok((IoSlot::Location(l.saturating_add(c / 4)), (c % 4) as u8))
}
