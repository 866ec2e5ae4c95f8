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

use std::collections::BTreeMap;

use ferrum_isa::{Exp, Inst, Opcode, Operand, Special, Vintrp};
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as EX;

use super::build::{self, Src, B};
use super::{pinned, Isel, MVal};
use crate::amd::abi::graphics as g;
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{MFunc, RegClass, RegRef, Slot};
use crate::ir::{
    AluOp, BuiltinOut, ImageArgs, ImageOp, InstKind, Interp, InterpAt, IoSlot, Mode, Shader, Space,
    Stage, SubgroupOp, SysVal, Terminator, Value,
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

/// One export: target, EN, source registers, `compr`.
type ExpArgs = (u8, u8, [Option<RegRef>; 4], bool);

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
/// coordinates' derivatives (no explicit level or gradients).
fn needs_helpers(f: &crate::ir::Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| match &i.kind {
        InstKind::Subgroup { op: SubgroupOp::Derivative { .. }, .. } => true,
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

    /// `store_output`: each component of `value` into its output register.
    pub(super) fn select_io_store(
        &mut self,
        slot: IoSlot,
        comp: u8,
        value: Value,
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(value);
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit shader outputs")));
        }
        let (key, base) = self.gfx.slot_key(slot)?;
        let fragment = self.shader.stage == Stage::Fragment;
        let vertex_only = matches!(key, SlotKey::Position | SlotKey::Misc | SlotKey::ClipCull);
        if (fragment && vertex_only) || (!fragment && key == SlotKey::Depth) {
            return Err(unsupported(format!("{:?} output {slot:?}", self.shader.stage)));
        }
        if slot == IoSlot::Builtin(BuiltinOut::SampleMask) && comp + n > 1 {
            return Err(unsupported("gl_SampleMask beyond element 0 (more than 32 samples)"));
        }
        for i in 0..n {
            let c = base + comp + i;
            if c >= slot_width(key) {
                return Err(unsupported(format!("output component {c} of {slot:?}")));
            }
            let r = self.output_reg(key, c);
            if self.gfx.in_entry {
                self.gfx.written_in_entry.insert(r);
            }
            let v = self.comp(value, usize::from(i))?;
            let s = self.src(v)?;
            if fragment {
                self.note_output_store(key, c, s);
            }
            self.emit(build::vop1(Opcode::V_MOV_B32, r, s));
        }
        Ok(())
    }

    /// `load_input` (fragment inputs) or a read-back of an output.
    pub(super) fn select_io_load(
        &mut self,
        d: Value,
        slot: IoSlot,
        comp: u8,
        output: bool,
        at: InterpAt,
    ) -> Result<(), BackendError> {
        let (bits, n) = self.shape(d);
        if let (64, Some(_), IoSlot::Location(loc), false) = (bits, self.gfx.vertex, slot, output) {
            return self.select_vertex_input64(d, loc, comp);
        }
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit shader inputs/outputs")));
        }
        let mut out = Vec::new();
        if output {
            let (key, base) = self.gfx.slot_key(slot)?;
            for c in base + comp..base + comp + n {
                out.push(MVal::Reg(self.output_reg(key, c.min(slot_width(key) - 1)), RegClass::V));
            }
            self.set(d, out);
            return Ok(());
        }
        if let (Some(_), IoSlot::Location(loc)) = (self.gfx.vertex, slot) {
            return self.select_vertex_input(d, loc, comp);
        }
        let (Some((bary, prim_mask, _)), Some((loc, comp))) =
            (self.gfx.pixel, self.input_place(slot, comp))
        else {
            return Err(unsupported(format!("shader input {slot:?}")));
        };
        let Some(attr) = self.gfx.inputs.iter().position(|i| i.0 == loc) else {
            return Err(unsupported(format!("input location {loc} without a variable")));
        };
        let flat = self.gfx.inputs[attr].1;
        let bary = match self.gfx.bary.get(&self.gfx.bary_bit_of(loc, at)) {
            Some(&pair) if !flat => self.moved_bary(pair, at)?,
            _ => bary,
        };
        if comp + n > 4 {
            return Err(unsupported(format!("input components {comp}..{} of {slot:?}", comp + n)));
        }
        if !self.gfx.m0_set {
            // Nothing else the backend selects writes M0, so once at the start is enough.
            let m0 = Operand::Special(Special::M0);
            let mov = build::sop1_fixed(Opcode::S_MOV_B32, m0, Src::R(prim_mask, RegClass::S));
            self.emit_prologue(mov);
            self.gfx.m0_set = true;
        }
        for c in comp..comp + n {
            let r = self.vreg(RegClass::V, 1);
            let vintrp = |op, vsrc| {
                Inst::Vintrp(Vintrp { op, vdst: 0, vsrc, attr: attr as u8, chan: c.min(3) })
            };
            if flat {
                let mi = B::new(vintrp(Opcode::V_INTERP_MOV_F32, 2)).def(Slot::Vdst, r, 1);
                self.emit(mi.done());
            } else {
                let p1 = B::new(vintrp(Opcode::V_INTERP_P1_F32, 0))
                    .use_(Slot::Vsrc1, bary[0], 1)
                    .def(Slot::Vdst, r, 1);
                self.emit(p1.done());
                let p2 = B::new(vintrp(Opcode::V_INTERP_P2_F32, 0))
                    .use_(Slot::Vsrc1, bary[1], 1)
                    .use_(Slot::Vdst, r, 1)
                    .def(Slot::Vdst, r, 1);
                self.emit(p2.done());
            }
            out.push(MVal::Reg(r, RegClass::V));
        }
        self.set(d, out);
        Ok(())
    }

    /// interpolateAtSample/AtOffset: the centre barycentrics `ij` moved by the offset along
    /// their screen derivatives (as ACO does: I' = I + dI/dx * dx + dI/dy * dy, exact for
    /// `noperspective` inputs, first order for perspective ones); other loads use `ij`.
    fn moved_bary(&mut self, ij: [RegRef; 2], at: InterpAt) -> Result<[RegRef; 2], BackendError> {
        let (dx, dy) = match at {
            InterpAt::Offset(o) => (self.comp(o, 0)?, self.comp(o, 1)?),
            InterpAt::Sample(s) => {
                let s = self.comp(s, 0)?;
                let [x, y] = self.sample_position(s)?;
                let half = MVal::Const(u64::from((-0.5f32).to_bits()));
                (self.alu_comp(AluOp::Fadd, 32, 32, &[x, half], false)?, {
                    self.alu_comp(AluOp::Fadd, 32, 32, &[y, half], false)?
                })
            }
            _ => return Ok(ij),
        };
        let mut out = ij;
        for (k, r) in ij.iter().enumerate() {
            let v = MVal::Reg(*r, RegClass::V);
            let ddx = self.derivative(v, 32, false, true)?;
            let ddy = self.derivative(v, 32, true, true)?;
            let a = self.alu_comp(AluOp::Ffma, 32, 32, &[ddx, dx, v], false)?;
            let b = self.alu_comp(AluOp::Ffma, 32, 32, &[ddy, dy, a], false)?;
            out[k] = self.in_vgpr(b, 1)?;
        }
        Ok(out)
    }

    /// The standard position (x, y in [0, 1)) of sample `s` for the key's sample count: a
    /// 4-bit field per sample of a constant ([`g::STANDARD_SAMPLE_LOCATIONS`] in 1/16 pixel).
    fn sample_position(&mut self, s: MVal) -> Result<[MVal; 2], BackendError> {
        let locs = g::standard_sample_locations(self.gfx.key.ps.samples);
        let pack = |f: fn(&(i32, i32)) -> i32| {
            locs.iter().enumerate().fold(0u64, |w, (i, l)| w | ((f(l) as u64) & 0xf) << (4 * i))
        };
        let shift = self.alu_comp(AluOp::Ishl, 32, 32, &[s, MVal::Const(2)], false)?;
        let sixteenth = MVal::Const(u64::from((1.0f32 / 16.0).to_bits()));
        let mut out = [MVal::Const(0); 2];
        for (k, table) in [pack(|l| l.0), pack(|l| l.1)].into_iter().enumerate() {
            let args = [MVal::Const(table), shift, MVal::Const(4)];
            let n = self.alu_comp(AluOp::Ubfe, 32, 32, &args, false)?;
            let f = self.alu_comp(AluOp::U2f, 32, 32, &[n], false)?;
            out[k] = self.alu_comp(AluOp::Fmul, 32, 32, &[f, sixteenth], false)?;
        }
        Ok(out)
    }

    /// gl_SampleID: ANCILLARY bits 8..11.
    fn sample_id(&mut self) -> Option<MVal> {
        let anc = MVal::Reg(self.gfx.ancillary?, RegClass::V);
        let args = [anc, MVal::Const(8), MVal::Const(4)];
        self.alu_comp(AluOp::Ubfe, 32, 32, &args, false).ok()
    }

    /// The PS input location and first component of `slot`: clip/cull distance `d` (cull
    /// distances after the clip distances) is component `d % 4` of parameter
    /// [`g::CLIP_DIST_LOCATION`]` + d / 4`.
    fn input_place(&self, slot: IoSlot, comp: u8) -> Option<(u32, u8)> {
        let d = match slot {
            IoSlot::Location(l) => return Some((l, comp)),
            IoSlot::Builtin(BuiltinOut::ClipDistance) => comp,
            IoSlot::Builtin(BuiltinOut::CullDistance) => self.gfx.clip_len + comp,
            IoSlot::Builtin(BuiltinOut::PointCoord) => {
                return Some((g::POINT_COORD_LOCATION, comp));
            }
            IoSlot::Builtin(_) => return None,
        };
        Some((g::CLIP_DIST_LOCATION + u32::from(d / 4), d % 4))
    }

    /// Pixel shader system values: fragment coordinate, front facing, sample mask, view
    /// index.
    pub(super) fn select_gfx_sysval(&mut self, sv: SysVal) -> Option<Vec<MVal>> {
        let v = |r| MVal::Reg(r, RegClass::V);
        match (sv, self.gfx.pixel) {
            (SysVal::FragCoord, Some((_, _, pos))) => {
                // POS_W_FLOAT is the interpolated clip w; gl_FragCoord.w is its reciprocal.
                let w = self.vreg(RegClass::V, 1);
                self.emit(build::vop1(Opcode::V_RCP_F32, w, Src::R(pos[3], RegClass::V)));
                Some(vec![v(pos[0]), v(pos[1]), v(pos[2]), v(w)])
            }
            (SysVal::SampleMaskIn, Some(_)) => Some(vec![v(self.gfx.sample_coverage?)]),
            (SysVal::SampleId, Some(_)) => Some(vec![self.sample_id()?]),
            (SysVal::SamplePosition, Some(_)) => {
                let id = self.sample_id()?;
                Some(self.sample_position(id).ok()?.to_vec())
            }
            (SysVal::ViewIndex, Some(_)) => {
                Some(vec![MVal::Reg(self.gfx.view_index?, RegClass::S)])
            }
            (SysVal::FrontFacing, Some(_)) => {
                let ff = self.gfx.front_face?;
                let m = self.vreg(RegClass::S, 1);
                self.emit(build::vcmp(
                    Opcode::V_CMP_NE_U32,
                    m,
                    Src::I(0),
                    Src::R(ff, RegClass::V),
                    1,
                ));
                Some(vec![MVal::Reg(m, RegClass::S)])
            }
            _ => None,
        }
    }

    /// The launch mask, saved in the prologue for shaders that end in several places.
    pub(super) fn save_live_mask(&mut self) {
        if let Some(live) = self.gfx.live {
            self.emit_prologue(build::sop1(Opcode::S_MOV_B32, live, build::EXEC, 1));
        }
        if self.gfx.wqm {
            // The wave starts with only the covered pixels in EXEC; helpers join here.
            let exec = Operand::Special(Special::ExecLo);
            self.emit_prologue(build::sop1_fixed(Opcode::S_WQM_B32, exec, build::EXEC));
        }
    }

    /// Whether `kind` writes memory other invocations can see: helper lanes must not.
    pub(super) fn needs_exact(&self, kind: &InstKind) -> bool {
        let visible = |s: &Space| matches!(s, Space::Buffer | Space::Global);
        (self.gfx.wqm || self.gfx.demotes)
            && match kind {
                InstKind::MemStore { space, .. } | InstKind::MemAtomic { space, .. } => {
                    visible(space)
                }
                InstKind::Image(im) => matches!(im.op, ImageOp::Write | ImageOp::Atomic(_)),
                _ => false,
            }
    }

    /// Exact mode: EXEC narrowed to the live lanes; returns the whole-quad EXEC to restore.
    pub(super) fn enter_exact(&mut self) -> RegRef {
        let live = self.gfx.live.expect("whole-quad mode and demotion keep the live mask");
        let saved = self.vreg(RegClass::S, 1);
        self.emit(build::sop1(Opcode::S_MOV_B32, saved, build::EXEC, 1));
        let exec = Operand::Special(Special::ExecLo);
        let l = Src::R(live, RegClass::S);
        let mut and = build::sop2(Opcode::S_AND_B32, None, build::EXEC, l, 1);
        if let ferrum_isa::Inst::Sop2(i) = &mut and.inst {
            i.sdst = exec;
        }
        self.emit(and);
        saved
    }

    /// Back to whole-quad mode after [`Self::enter_exact`].
    pub(super) fn leave_exact(&mut self, saved: RegRef) {
        let exec = Operand::Special(Special::ExecLo);
        self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(saved, RegClass::S)));
    }

    /// `OpKill`: the active lanes leave the live mask (and end, as at a return).
    pub(super) fn select_kill(&mut self) -> Result<(), BackendError> {
        let Some(live) = self.gfx.live.filter(|_| self.shader.stage == Stage::Fragment) else {
            return Err(unsupported("OpKill outside a fragment shader"));
        };
        let l = Src::R(live, RegClass::S);
        self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(live), l, build::EXEC, 1));
        Ok(())
    }

    /// `OpDemoteToHelperInvocation`: the active lanes leave the live mask but keep running
    /// (as ACO does: the exact mask loses them, whole-quad EXEC keeps them for derivatives);
    /// memory writes and the exports only see `live`.
    pub(super) fn select_demote(&mut self) -> Result<(), BackendError> {
        let Some(live) = self.gfx.live.filter(|_| self.gfx.demotes) else {
            return Err(unsupported("OpDemoteToHelperInvocation outside a fragment shader"));
        };
        let l = Src::R(live, RegClass::S);
        self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(live), l, build::EXEC, 1));
        Ok(())
    }

    /// `OpIsHelperInvocationEXT` / gl_HelperInvocation: active lanes outside the live mask
    /// (whole-quad helpers and demoted lanes).
    pub(super) fn select_is_helper(&mut self, d: Value) -> Result<(), BackendError> {
        if self.shader.stage != Stage::Fragment {
            return Err(unsupported("gl_HelperInvocation outside a fragment shader"));
        }
        let m = self.vreg(RegClass::S, 1);
        match self.gfx.live {
            Some(live) => {
                let l = Src::R(live, RegClass::S);
                self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(m), build::EXEC, l, 1));
                self.set(d, vec![MVal::Reg(m, RegClass::S)]);
            }
            // No helpers run and nothing demotes: every lane is live.
            None => self.set(d, vec![MVal::Const(0)]),
        }
        Ok(())
    }

    /// The exports, at the end of the program.
    pub(super) fn emit_exports(&mut self) -> Result<Exported, BackendError> {
        if let Some(live) = self.gfx.live {
            let exec = Operand::Special(Special::ExecLo);
            self.emit(build::sop1_fixed(Opcode::S_MOV_B32, exec, Src::R(live, RegClass::S)));
        }
        let full = std::mem::take(&mut self.gfx.written_in_entry);
        self.mf.blocks[0].insts.retain(|mi| {
            let zeroing = mi.inst.op() == Opcode::V_MOV_B32 && mi.uses.is_empty();
            !(zeroing && mi.defs.len() == 1 && full.contains(&mi.defs[0].reg))
        });
        match self.shader.stage {
            Stage::Vertex => self.vs_exports(),
            Stage::Fragment => self.ps_exports(),
            _ => Ok(Exported::default()),
        }
    }

    fn exp(&mut self, target: u8, en: u8, src: [Option<RegRef>; 4], compr: bool) -> usize {
        let mut b =
            B::new(Inst::Exp(Exp { target, en, src: [0; 4], compr, done: false, vm: false }));
        for (k, r) in src.iter().enumerate() {
            if let Some(r) = r {
                b = b.use_(Slot::ExpSrc(k as u8), *r, 1);
            }
        }
        self.emit(b.done());
        self.mf.blocks[self.cur].insts.len() - 1
    }

    fn set_done(&mut self, at: usize, vm: bool) {
        if let Inst::Exp(e) = &mut self.mf.blocks[self.cur].insts[at].inst {
            e.done = true;
            e.vm = vm;
        }
    }

    /// Registers and enable mask of output slot `key`.
    fn slot_regs(&self, key: SlotKey) -> (u8, [Option<RegRef>; 4]) {
        let regs: [Option<RegRef>; 4] =
            std::array::from_fn(|c| self.gfx.outputs.get(&(key, c as u8)).copied());
        let en = (0..4).filter(|&c| regs[c].is_some()).fold(0u8, |m, c| m | 1 << c);
        (en, regs)
    }

    fn vs_exports(&mut self) -> Result<Exported, BackendError> {
        // Position needs all four components (SPI_SHADER_POS_FORMAT 4COMP).
        let pos: [Option<RegRef>; 4] =
            std::array::from_fn(|c| Some(self.output_reg(SlotKey::Position, c as u8)));
        let mut at = self.exp(g::EXP_POS0, 0xf, pos, false);
        let written = |io: &GfxIo, key, c: u8| io.outputs.contains_key(&(key, c));
        let bits = |io: &GfxIo, r: std::ops::Range<u8>| {
            r.filter(|&c| written(io, SlotKey::ClipCull, c)).fold(0u8, |m, c| m | 1 << c)
        };
        let extras = g::VsExtras {
            point_size: written(&self.gfx, SlotKey::Misc, 0),
            layer: written(&self.gfx, SlotKey::Misc, 2),
            viewport_index: written(&self.gfx, SlotKey::Misc, 3),
            clip_mask: bits(&self.gfx, 0..self.gfx.clip_len),
            cull_mask: bits(&self.gfx, self.gfx.clip_len..8),
        };
        let mut target = g::EXP_POS0 + 1;
        // 4COMP exports need all four components: unwritten ones (the edge flag in the misc
        // vector's y, distances past the last) are 0.
        let mut vectors = Vec::new();
        if extras.misc() {
            vectors.push((SlotKey::Misc, 0));
        }
        for v in 0..extras.ccdist_vectors() as u8 {
            vectors.push((SlotKey::ClipCull, 4 * v));
        }
        for (key, first) in vectors {
            let regs: [Option<RegRef>; 4] =
                std::array::from_fn(|c| Some(self.output_reg(key, first + c as u8)));
            at = self.exp(target, 0xf, regs, false);
            target += 1;
        }
        self.set_done(at, false);
        let locations: Vec<u32> = self
            .gfx
            .outputs
            .keys()
            .filter_map(|k| match k.0 {
                SlotKey::Location(l) => Some(l),
                SlotKey::Position | SlotKey::Depth | SlotKey::Misc | SlotKey::ClipCull => None,
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for (slot, &loc) in locations.iter().enumerate() {
            let (en, regs) = self.slot_regs(SlotKey::Location(loc));
            self.exp(g::EXP_PARAM0 + slot as u8, en, regs, false);
        }
        // The distances again as parameters, for a fragment shader that reads them.
        let mut params = locations;
        for v in 0..extras.ccdist_vectors() as u8 {
            let slot = params.len() as u8;
            if u32::from(slot) >= g::MAX_PARAMS {
                return Err(unsupported("more than 32 parameters with the clip distances"));
            }
            let regs: [Option<RegRef>; 4] =
                std::array::from_fn(|c| Some(self.output_reg(SlotKey::ClipCull, 4 * v + c as u8)));
            self.exp(g::EXP_PARAM0 + slot, 0xf, regs, false);
            params.push(g::CLIP_DIST_LOCATION + u32::from(v));
        }
        Ok(Exported { params, extras, ..Default::default() })
    }

    fn ps_exports(&mut self) -> Result<Exported, BackendError> {
        let beyond = |k: &&(SlotKey, u8)| matches!(k.0, SlotKey::Location(l) if l > 7);
        if let Some((k, _)) = self.gfx.outputs.keys().find(beyond) {
            return Err(unsupported(format!("fragment output {k:?} beyond 8 colour targets")));
        }
        let mut color = [0u8; 8];
        let key = self.gfx.key.ps;
        // Alpha to coverage reads the shader's alpha: taken before alpha to one replaces it.
        let mrtz_alpha = if key.alpha_to_coverage_via_mrtz {
            self.export_src(SlotKey::Location(0), 3)
        } else {
            None
        };
        // Conversions first, so no register an export reads is overwritten after it.
        let mut exports = Vec::new();
        for t in 0..8u8 {
            let mut srcs: [Option<Src>; 4] =
                std::array::from_fn(|c| self.export_src(SlotKey::Location(u32::from(t)), c as u8));
            let mut en = (0..4).filter(|&c| srcs[c].is_some()).fold(0u8, |m, c| m | 1 << c);
            let fmt = key.color_formats[usize::from(t)];
            if en == 0 || fmt == EX::SPI_SHADER_ZERO {
                continue;
            }
            if key.alpha_to_one >> t & 1 != 0 {
                srcs[3] = Some(Src::I(1f32.to_bits()));
                en |= 8;
            }
            color[usize::from(t)] = en;
            exports.push(self.mrt(g::EXP_MRT0 + t, fmt, en, srcs)?);
        }
        // Depth first (as ACO orders them); it ends the program when there is no colour.
        let frag_depth = self.gfx.outputs.contains_key(&(SlotKey::Depth, 0));
        let stencil = self.gfx.outputs.contains_key(&(SlotKey::Depth, 1));
        let sample_mask = self.gfx.outputs.contains_key(&(SlotKey::Depth, 2));
        if frag_depth || stencil || sample_mask || mrtz_alpha.is_some() {
            let vgpr = |io: &mut Self, s: Option<Src>| s.map(|s| io.export_vgpr(s));
            let depth = vgpr(self, self.export_src(SlotKey::Depth, 0));
            let stencil_ref = vgpr(self, self.export_src(SlotKey::Depth, 1));
            let mask = vgpr(self, self.export_src(SlotKey::Depth, 2));
            let alpha = vgpr(self, mrtz_alpha);
            let en = u8::from(frag_depth) | u8::from(stencil) << 1 | u8::from(sample_mask) << 2;
            let en = en | u8::from(mrtz_alpha.is_some()) << 3;
            exports.insert(0, (g::EXP_MRTZ, en, [depth, stencil_ref, mask, alpha], false));
        }
        if exports.is_empty() {
            exports.push((g::EXP_NULL, 0, [None; 4], false));
        }
        let mut at = 0;
        for (target, en, regs, compr) in exports {
            at = self.exp(target, en, regs, compr);
        }
        self.set_done(at, true);
        Ok(Exported {
            color,
            inputs: self.gfx.inputs.clone(),
            uses: g::PsUses {
                kills: self.gfx.kills || self.gfx.demotes,
                frag_depth,
                stencil,
                sample_mask,
                mrtz_alpha: mrtz_alpha.is_some(),
                ..self.gfx.ps_uses
            },
            ..Default::default()
        })
    }

    /// The export of one colour target in `fmt` (SPI_SHADER_EX_FORMAT) reading `srcs`,
    /// converting 16-bit formats into packed registers: (target, EN, sources, `compr`).
    fn mrt(
        &mut self,
        target: u8,
        fmt: u32,
        en: u8,
        srcs: [Option<Src>; 4],
    ) -> Result<ExpArgs, BackendError> {
        let pack = match fmt {
            EX::SPI_SHADER_32_R
            | EX::SPI_SHADER_32_GR
            | EX::SPI_SHADER_32_AR
            | EX::SPI_SHADER_32_ABGR => {
                let mask = match fmt {
                    EX::SPI_SHADER_32_R => 1,
                    EX::SPI_SHADER_32_GR => 3,
                    EX::SPI_SHADER_32_AR => 9,
                    _ => 0xf,
                };
                let en = en & mask;
                let regs = std::array::from_fn(|c| {
                    srcs[c].filter(|_| en >> c & 1 != 0).map(|s| self.export_vgpr(s))
                });
                return Ok((target, en, regs, false));
            }
            EX::SPI_SHADER_FP16_ABGR => Opcode::V_CVT_PKRTZ_F16_F32,
            EX::SPI_SHADER_UNORM16_ABGR => Opcode::V_CVT_PKNORM_U16_F32,
            EX::SPI_SHADER_SNORM16_ABGR => Opcode::V_CVT_PKNORM_I16_F32,
            EX::SPI_SHADER_UINT16_ABGR => Opcode::V_CVT_PK_U16_U32,
            EX::SPI_SHADER_SINT16_ABGR => Opcode::V_CVT_PK_I16_I32,
            f => return Err(unsupported(format!("colour export format {f}"))),
        };
        let mut packed = [None; 4];
        let mut pen = 0u8;
        for h in 0..2 {
            if en >> (2 * h) & 3 == 0 {
                continue;
            }
            // An unwritten half of a written pair packs 0 (its value is undefined).
            let (a, b) = (srcs[2 * h].unwrap_or(Src::I(0)), srcs[2 * h + 1].unwrap_or(Src::I(0)));
            packed[h] = Some(self.export_pair(pack, a, b));
            pen |= 3 << (2 * h);
        }
        Ok((target, pen, packed, true))
    }
}
