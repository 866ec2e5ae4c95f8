//! Execution of one invocation: frames, values, derefs and memory access.

use super::memory::{read_constant, Mem, PSpace, Ptr, Resources};
use super::{InterpError, STEP_LIMIT};
use crate::ir::{
    layout, ops, AluOp, DerefKind, Function, InstKind, Mode, Shader, Space, SysVal, Terminator,
    Type, TypeId, Value, ValueType, VarRef,
};

/// Addresses the interpreter gives to workgroup and private globals (natural layout).
pub struct VarLayout {
    addr: Vec<u64>,
    /// Bytes of workgroup memory the unlowered variables need.
    pub shared_size: u32,
    private_size: u32,
}

impl VarLayout {
    /// Lays out the shader's workgroup and private variables.
    pub fn new(s: &Shader) -> Self {
        let (mut shared, mut private) = (0u32, 0u32);
        let mut addr = Vec::new();
        for v in &s.vars {
            let (size, align) = layout::size_align(&s.types, v.ty);
            let slot = match v.mode {
                Mode::Workgroup => &mut shared,
                Mode::Private => &mut private,
                _ => {
                    addr.push(0);
                    continue;
                }
            };
            *slot = slot.next_multiple_of(align.max(1));
            addr.push(u64::from(*slot));
            *slot += size;
        }
        VarLayout { addr, shared_size: shared, private_size: private }
    }
}

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum IVal {
    /// Components.
    Data(Vec<u64>),
    /// A deref.
    Ptr(Ptr),
}

struct Frame {
    func: usize,
    vals: Vec<Option<IVal>>,
    block: usize,
    ip: usize,
    rets: Vec<Value>,
    locals: Vec<u64>,
    mark: usize,
}

/// Why `run` returned.
pub enum Status {
    /// The invocation finished.
    Done,
    /// It waits at a workgroup barrier.
    Barrier,
    /// It waits at a subgroup operation (not yet executed) for the other lanes of its wave.
    Subgroup,
}

/// One invocation's state.
pub struct Invocation {
    frames: Vec<Frame>,
    private: Vec<u8>,
    scratch: Vec<u8>,
    ids: Ids,
    /// Graphics inputs and outputs (vertex and fragment stages).
    pub(super) io: Option<super::gfx::LaneIo>,
}

/// The ids that define an invocation's system values.
#[derive(Clone, Copy)]
pub(super) struct Ids {
    local: [u32; 3],
    group: [u32; 3],
    groups: [u32; 3],
    /// Local invocation index (graphics: the lane's position in the draw's waves).
    lane: u32,
    /// Vertex and fragment built-ins.
    gfx: super::gfx::GfxSys,
}

pub(super) fn pointee(
    s: &Shader,
    f: &Function,
    v: Value,
) -> Result<(TypeId, Option<u32>), InterpError> {
    if let ValueType::Deref(pt) = f.ty(v) {
        if let Type::Pointer { pointee, stride, .. } = s.types.get(pt) {
            return Ok((*pointee, *stride));
        }
    }
    Err(InterpError::Invalid(format!("%{} is not a deref", v.0)))
}

impl Invocation {
    /// A fresh invocation at the start of the entry point.
    pub fn new(
        s: &Shader,
        l: &VarLayout,
        local: [u32; 3],
        group: [u32; 3],
        groups: [u32; 3],
    ) -> Result<Self, InterpError> {
        let w = s.workgroup_size;
        let lane = local[2] * w[0] * w[1] + local[1] * w[0] + local[0];
        let gfx = super::gfx::GfxSys::default();
        Self::start(s, l, Ids { local, group, groups, lane, gfx }, None)
    }

    /// A fresh vertex or fragment invocation: lane `lane` of the draw's waves.
    pub(super) fn graphics(
        s: &Shader,
        l: &VarLayout,
        lane: u32,
        gfx: super::gfx::GfxSys,
        io: super::gfx::LaneIo,
    ) -> Result<Self, InterpError> {
        let ids = Ids { local: [lane, 0, 0], group: [0; 3], groups: [1; 3], lane, gfx };
        Self::start(s, l, ids, Some(io))
    }

    fn start(
        s: &Shader,
        l: &VarLayout,
        ids: Ids,
        io: Option<super::gfx::LaneIo>,
    ) -> Result<Self, InterpError> {
        let mut inv = Invocation {
            frames: Vec::new(),
            private: vec![0; l.private_size as usize],
            scratch: vec![0; s.scratch_size as usize],
            ids,
            io,
        };
        inv.enter(s, s.entry.0 as usize, &[], Vec::new())?;
        Ok(inv)
    }

    fn enter(
        &mut self,
        s: &Shader,
        func: usize,
        args: &[IVal],
        rets: Vec<Value>,
    ) -> Result<(), InterpError> {
        let f = &s.funcs[func];
        let mark = self.private.len();
        let mut locals = Vec::new();
        for v in &f.locals {
            let (size, align) = layout::size_align(&s.types, v.ty);
            let at = self.private.len().next_multiple_of(align.max(1) as usize);
            self.private.resize(at + size as usize, 0);
            locals.push(at as u64);
        }
        let mut vals = vec![None; f.values.len()];
        if args.len() != f.params.len() {
            return Err(InterpError::Invalid(format!("call to {} with wrong arity", f.name)));
        }
        for (p, a) in f.params.iter().zip(args) {
            vals[p.0 as usize] = Some(a.clone());
        }
        self.frames.push(Frame { func, vals, block: 0, ip: 0, rets, locals, mark });
        Ok(())
    }

    /// Runs until the invocation finishes or reaches a barrier.
    pub fn run(
        &mut self,
        s: &Shader,
        l: &VarLayout,
        shared: &mut Vec<u8>,
        res: &mut Resources,
        steps: &mut u64,
    ) -> Result<Status, InterpError> {
        loop {
            *steps += 1;
            if *steps > STEP_LIMIT {
                return Err(InterpError::StepLimit);
            }
            let Some(fr) = self.frames.last() else { return Ok(Status::Done) };
            let f = &s.funcs[fr.func];
            let block =
                f.blocks.get(fr.block).ok_or_else(|| InterpError::Invalid("bad block".into()))?;
            if fr.ip < block.insts.len() {
                let inst = &block.insts[fr.ip];
                if let Some(fr) = self.frames.last_mut() {
                    fr.ip += 1;
                }
                match &inst.kind {
                    InstKind::Barrier { exec: true, .. } => return Ok(Status::Barrier),
                    InstKind::Subgroup { .. } => {
                        if let Some(fr) = self.frames.last_mut() {
                            fr.ip -= 1;
                        }
                        return Ok(Status::Subgroup);
                    }
                    InstKind::Image(i)
                        if self.io.as_ref().is_some_and(|io| io.waits_for_quad(i)) =>
                    {
                        if let Some(fr) = self.frames.last_mut() {
                            fr.ip -= 1;
                        }
                        return Ok(Status::Subgroup);
                    }
                    // The invocation ends here, as at a `Kill` terminator.
                    InstKind::KillIf(c) => {
                        if self.data(*c)?[0] & 1 == 1 {
                            self.frames.clear();
                            if let Some(io) = &mut self.io {
                                io.killed = true;
                            }
                        }
                    }
                    InstKind::Call { func, args, rets } => {
                        let a: Vec<IVal> =
                            args.iter().map(|v| self.val(*v)).collect::<Result<_, _>>()?;
                        self.enter(s, func.0 as usize, &a, rets.clone())?;
                    }
                    _ => {
                        let fr = self
                            .frames
                            .last()
                            .ok_or_else(|| InterpError::Invalid("no frame".into()))?;
                        let mut mem = Mem {
                            res,
                            shared,
                            private: &mut self.private,
                            scratch: &mut self.scratch,
                            io: self.io.as_mut(),
                        };
                        let ctx = Ctx { s, f, l, fr, ids: self.ids };
                        let r = ctx.exec(&inst.kind, inst.dst, &mut mem)?;
                        if let (Some(d), Some(v)) = (inst.dst, r) {
                            self.set(d, v);
                        }
                    }
                }
                continue;
            }
            match &block.term {
                Terminator::Branch(b) => self.goto(s, *b)?,
                Terminator::CondBranch { cond, then, els } => {
                    let c = self.data(*cond)?[0] & 1 == 1;
                    self.goto(s, if c { *then } else { *els })?;
                }
                Terminator::Switch { sel, default, cases } => {
                    let (bits, _) = f.ty(*sel).shape();
                    let v = self.data(*sel)?[0] & ops::mask(bits);
                    let t =
                        cases.iter().find(|c| c.0 & ops::mask(bits) == v).map_or(*default, |c| c.1);
                    self.goto(s, t)?;
                }
                Terminator::Return(vals) => {
                    let out: Vec<IVal> =
                        vals.iter().map(|v| self.val(*v)).collect::<Result<_, _>>()?;
                    let fr =
                        self.frames.pop().ok_or_else(|| InterpError::Invalid("no frame".into()))?;
                    self.private.truncate(fr.mark);
                    if let Some(caller) = self.frames.last_mut() {
                        for (r, v) in fr.rets.iter().zip(out) {
                            caller.vals[r.0 as usize] = Some(v);
                        }
                    }
                }
                Terminator::Kill => {
                    self.frames.clear();
                    if let Some(io) = &mut self.io {
                        io.killed = true;
                    }
                }
                Terminator::Unreachable => {
                    return Err(InterpError::Invalid("reached unreachable".into()))
                }
            }
        }
    }

    /// Where the invocation waits: `(function, block, instruction)` per frame, outermost first.
    pub fn location(&self) -> Vec<(usize, usize, usize)> {
        self.frames.iter().map(|f| (f.func, f.block, f.ip)).collect()
    }

    /// The subgroup instruction the invocation waits at.
    pub fn pending<'s>(&self, s: &'s Shader) -> Option<&'s crate::ir::Inst> {
        let fr = self.frames.last()?;
        s.funcs[fr.func].blocks.get(fr.block)?.insts.get(fr.ip)
    }

    /// Component values of `v` in the current frame.
    pub fn components(&self, v: Value) -> Result<Vec<u64>, InterpError> {
        self.data(v)
    }

    /// Completes the pending subgroup instruction with its result.
    pub fn finish_pending(&mut self, dst: Option<Value>, result: Vec<u64>) {
        if let Some(d) = dst {
            self.set(d, IVal::Data(result));
        }
        if let Some(fr) = self.frames.last_mut() {
            fr.ip += 1;
        }
    }

    /// Lane id in the wave.
    pub fn lane_id(&self) -> u32 {
        self.ids.lane % 32
    }

    /// Local invocation index (which wave and lane the invocation is).
    pub fn local_index(&self, _s: &Shader) -> u32 {
        self.ids.lane
    }

    fn goto(&mut self, s: &Shader, target: crate::ir::BlockId) -> Result<(), InterpError> {
        let fr = self.frames.last().ok_or_else(|| InterpError::Invalid("no frame".into()))?;
        let f = &s.funcs[fr.func];
        let pred = crate::ir::BlockId(fr.block as u32);
        let b = f
            .blocks
            .get(target.0 as usize)
            .ok_or_else(|| InterpError::Invalid("bad branch".into()))?;
        let mut assign = Vec::new();
        let mut n = 0;
        for i in &b.insts {
            let InstKind::Phi(srcs) = &i.kind else { break };
            let src = srcs.iter().find(|(p, _)| *p == pred).ok_or_else(|| {
                InterpError::Invalid(format!("phi without source for b{}", pred.0))
            })?;
            assign.push((i.dst, self.val(src.1)?));
            n += 1;
        }
        for (d, v) in assign {
            if let Some(d) = d {
                self.set(d, v);
            }
        }
        let fr = self.frames.last_mut().ok_or_else(|| InterpError::Invalid("no frame".into()))?;
        fr.block = target.0 as usize;
        fr.ip = n;
        Ok(())
    }

    fn set(&mut self, v: Value, x: IVal) {
        if let Some(fr) = self.frames.last_mut() {
            fr.vals[v.0 as usize] = Some(x);
        }
    }

    pub(super) fn val(&self, v: Value) -> Result<IVal, InterpError> {
        self.frames
            .last()
            .and_then(|f| f.vals.get(v.0 as usize).cloned().flatten())
            .ok_or_else(|| InterpError::Invalid(format!("%{} used before definition", v.0)))
    }

    pub(super) fn data(&self, v: Value) -> Result<Vec<u64>, InterpError> {
        match self.val(v)? {
            IVal::Data(d) => Ok(d),
            IVal::Ptr(p) => Ok(vec![p.addr]),
        }
    }
}

impl Ids {
    fn sysval(&self, s: &Shader, sv: SysVal) -> Result<Vec<u64>, InterpError> {
        let w = s.workgroup_size;
        let l = self.local;
        let idx = l[2] * w[0] * w[1] + l[1] * w[0] + l[0];
        let v3 = |a: [u32; 3]| a.iter().map(|&x| u64::from(x)).collect();
        Ok(match sv {
            SysVal::LocalInvocationId => v3(l),
            SysVal::WorkgroupId => v3(self.group),
            SysVal::NumWorkgroups => v3(self.groups),
            SysVal::GlobalInvocationId => {
                (0..3).map(|i| u64::from(self.group[i] * w[i] + l[i])).collect()
            }
            SysVal::LocalInvocationIndex => vec![u64::from(idx)],
            SysVal::SubgroupSize => vec![32],
            SysVal::SubgroupInvocationId => vec![u64::from(idx % 32)],
            SysVal::SubgroupId => vec![u64::from(idx / 32)],
            SysVal::NumSubgroups => vec![u64::from((w[0] * w[1] * w[2]).div_ceil(32))],
            SysVal::SubgroupEqMask
            | SysVal::SubgroupGeMask
            | SysVal::SubgroupGtMask
            | SysVal::SubgroupLeMask
            | SysVal::SubgroupLtMask => {
                let id = u64::from(idx % 32);
                let ge = (0xffff_ffffu64 << id) & 0xffff_ffff;
                let gt = (0xffff_fffeu64 << id) & 0xffff_ffff;
                let m = match sv {
                    SysVal::SubgroupEqMask => 1 << id,
                    SysVal::SubgroupGeMask => ge,
                    SysVal::SubgroupGtMask => gt,
                    SysVal::SubgroupLeMask => !gt & 0xffff_ffff,
                    _ => !ge & 0xffff_ffff,
                };
                vec![m, 0, 0, 0]
            }
            other => {
                return self.gfx.get(other).ok_or_else(|| {
                    InterpError::Unsupported(format!("system value {other:?} in this stage"))
                })
            }
        })
    }
}

pub(super) struct Ctx<'a> {
    pub(super) s: &'a Shader,
    pub(super) f: &'a Function,
    l: &'a VarLayout,
    fr: &'a Frame,
    pub(super) ids: Ids,
}

impl Ctx<'_> {
    pub(super) fn val(&self, v: Value) -> Result<IVal, InterpError> {
        self.fr
            .vals
            .get(v.0 as usize)
            .cloned()
            .flatten()
            .ok_or_else(|| InterpError::Invalid(format!("%{} used before definition", v.0)))
    }

    pub(super) fn data(&self, v: Value) -> Result<Vec<u64>, InterpError> {
        match self.val(v)? {
            IVal::Data(d) => Ok(d),
            IVal::Ptr(_) => Err(InterpError::Invalid(format!("%{} is a pointer", v.0))),
        }
    }

    pub(super) fn ptr(&self, v: Value) -> Result<Ptr, InterpError> {
        match self.val(v)? {
            IVal::Ptr(p) => Ok(p),
            IVal::Data(_) => Err(InterpError::Invalid(format!("%{} is not a pointer", v.0))),
        }
    }

    fn exec(
        &self,
        kind: &InstKind,
        dst: Option<Value>,
        mem: &mut Mem<'_>,
    ) -> Result<Option<IVal>, InterpError> {
        let shape = dst.map(|d| self.f.ty(d).shape()).unwrap_or((32, 1));
        Ok(Some(match kind {
            InstKind::Const(c) => IVal::Data(c.clone()),
            InstKind::Undef => IVal::Data(vec![0; usize::from(shape.1)]),
            InstKind::Alu(op, srcs) => self.alu(*op, shape, srcs)?,
            InstKind::Phi(_) => {
                return Err(InterpError::Invalid("phi in the middle of a block".into()))
            }
            InstKind::Deref { kind: DerefKind::Cast, parent: Some(p) }
                if matches!(self.val(*p)?, IVal::Data(_))
                    && dst.and_then(|d| self.s.deref_mode(self.f, d)) == Some(Mode::Handle) =>
            {
                // The image half of a combined (image, sampler) pair.
                IVal::Data(self.data(*p)?[..1].to_vec())
            }
            InstKind::Deref { kind, parent } => IVal::Ptr(self.deref(*kind, *parent, mem)?),
            InstKind::Load { ptr } => {
                let (t, _) = pointee(self.s, self.f, *ptr)?;
                self.load(mem, self.ptr(*ptr)?, t)?
            }
            InstKind::Store { ptr, value } => {
                let (t, _) = pointee(self.s, self.f, *ptr)?;
                self.store(mem, self.ptr(*ptr)?, t, &self.val(*value)?)?;
                return Ok(None);
            }
            InstKind::Atomic { op, ptr, srcs } => {
                let p = self.ptr(*ptr)?;
                let bits = srcs.first().map_or(shape.0, |v| self.f.ty(*v).shape().0);
                return self.atomic(mem, p, *op, bits, srcs);
            }
            InstKind::ArrayLength { ptr, member } => {
                let (t, _) = pointee(self.s, self.f, *ptr)?;
                let p = self.ptr(*ptr)?;
                let PSpace::Buffer(h) = p.space else {
                    return Err(InterpError::Unsupported(
                        "array length outside a descriptor buffer".into(),
                    ));
                };
                let off = layout::member_offset(&self.s.types, t, *member) as u64 + p.addr;
                let Type::Struct { members, .. } = self.s.types.get(t) else {
                    return Err(InterpError::Invalid("array length of a non-struct".into()));
                };
                let stride = members
                    .get(*member as usize)
                    .map_or(1, |m| layout::array_stride(&self.s.types, m.ty))
                    .max(1) as u64;
                IVal::Data(vec![mem.buffer_size(h)?.saturating_sub(off) / stride])
            }
            InstKind::MemLoad { .. } | InstKind::MemStore { .. } | InstKind::MemAtomic { .. } => {
                return self.exec_mem(kind, shape, mem);
            }
            InstKind::ResourceIndex { set, binding, index } => IVal::Data(vec![u64::from(
                mem.res.find(*set, *binding, self.data(*index)?[0] as u32)?,
            )]),
            InstKind::BufferSize { index } => {
                IVal::Data(vec![mem.buffer_size(self.data(*index)?[0] as u32)?])
            }
            InstKind::SysVal(sv) => IVal::Data(self.ids.sysval(self.s, *sv)?),
            InstKind::Barrier { .. } => return Ok(None),
            InstKind::Demote | InstKind::DemoteIf(_) | InstKind::IsHelper => {
                return self.helper_op(kind, mem)
            }
            InstKind::Subgroup { .. } => {
                return Err(InterpError::Invalid("subgroup op outside its wave".into()))
            }
            InstKind::Image(i) => return self.image(i, dst, mem),
            InstKind::IoLoad { .. } | InstKind::IoStore { .. } | InstKind::InterpolateAt { .. } => {
                return self.io_inst(kind, shape, mem)
            }
            InstKind::Call { .. } | InstKind::KillIf(_) => {
                return Err(InterpError::Invalid("control op dispatched as plain op".into()))
            }
        }))
    }

    /// Explicit memory instructions (after `lower_explicit_io`).
    fn exec_mem(
        &self,
        kind: &InstKind,
        shape: (u8, u8),
        mem: &mut Mem<'_>,
    ) -> Result<Option<IVal>, InterpError> {
        Ok(Some(match kind {
            InstKind::MemLoad { space, addr, .. } => {
                let p = self.addr(*space, *addr)?;
                let size = usize::from(shape.0 / 8);
                let mut out = Vec::new();
                for i in 0..u64::from(shape.1) {
                    let at = Ptr { addr: p.addr + i * size as u64, ..p };
                    out.push(if *space == Space::Constant {
                        read_constant(&self.s.constant_data, at.addr, size)?
                    } else {
                        mem.read(at, size)?
                    });
                }
                IVal::Data(out)
            }
            InstKind::MemStore { space, addr, value, .. } => {
                let p = self.addr(*space, *addr)?;
                let (bits, _) = self.f.ty(*value).shape();
                let size = usize::from(bits / 8);
                for (i, c) in self.data(*value)?.iter().enumerate() {
                    mem.write(Ptr { addr: p.addr + (i * size) as u64, ..p }, size, *c)?;
                }
                return Ok(None);
            }
            InstKind::MemAtomic { space, op, addr, srcs } => {
                let p = self.addr(*space, *addr)?;
                let bits = srcs.first().map_or(shape.0, |v| self.f.ty(*v).shape().0);
                return self.atomic(mem, p, *op, bits, srcs);
            }
            _ => return Err(InterpError::Invalid("not a memory instruction".into())),
        }))
    }

    fn alu(&self, op: AluOp, (bits, comps): (u8, u8), srcs: &[Value]) -> Result<IVal, InterpError> {
        if matches!(op, AluOp::Bcsel | AluOp::Mov | AluOp::Bitcast) {
            if let Some(IVal::Ptr(p)) = srcs.last().map(|v| self.val(*v)).transpose()? {
                return match op {
                    AluOp::Mov => self.val(srcs[0]),
                    AluOp::Bitcast => Ok(IVal::Data(vec![p.addr])),
                    _ => {
                        let c = self.data(srcs[0])?[0] & 1 == 1;
                        self.val(if c { srcs[1] } else { srcs[2] })
                    }
                };
            }
        }
        let vals: Vec<(u8, Vec<u64>)> = srcs
            .iter()
            .map(|v| Ok((self.f.ty(*v).shape().0, self.data(*v)?)))
            .collect::<Result<_, InterpError>>()?;
        let refs: Vec<ops::Src<'_>> =
            vals.iter().map(|(b, c)| ops::Src { bits: *b, comps: c }).collect();
        ops::eval(op, bits, comps, &refs)
            .map(IVal::Data)
            .map_err(|e| InterpError::Invalid(e.to_string()))
    }

    fn addr(&self, space: Space, addr: Value) -> Result<Ptr, InterpError> {
        let a = self.data(addr)?;
        Ok(match space {
            Space::Buffer => {
                Ptr { space: PSpace::Buffer(a[0] as u32), addr: a.get(1).copied().unwrap_or(0) }
            }
            Space::Global => Ptr { space: PSpace::Global, addr: a[0] },
            Space::Shared => Ptr { space: PSpace::Shared, addr: a[0] },
            Space::Push => Ptr { space: PSpace::Push, addr: a[0] },
            Space::Scratch => Ptr { space: PSpace::Scratch, addr: a[0] },
            Space::Constant => Ptr { space: PSpace::Constant, addr: a[0] },
        })
    }

    /// The pointer a global variable's `deref_var` yields.
    fn global_root(&self, v: crate::ir::VarId, mem: &mut Mem<'_>) -> Result<Ptr, InterpError> {
        let t = &self.s.types;
        let var = &self.s.vars[v.0 as usize];
        let addr = self.l.addr[v.0 as usize];
        let space = match var.mode {
            Mode::Uniform | Mode::Storage => {
                let (set, b) = var
                    .binding
                    .ok_or_else(|| InterpError::Invalid(format!("{} has no binding", var.name)))?;
                match t.get(var.ty) {
                    Type::Array { .. } | Type::RuntimeArray { .. } => PSpace::DescArray(set, b),
                    _ => PSpace::Buffer(mem.res.find(set, b, 0)?),
                }
            }
            Mode::PushConstant => PSpace::Push,
            Mode::Workgroup => PSpace::Shared,
            Mode::Private | Mode::Function => PSpace::Private,
            Mode::SystemValue => PSpace::SysVal(
                var.sysval.ok_or_else(|| InterpError::Invalid("sysval without kind".into()))?,
            ),
            Mode::Handle => {
                let (set, b) = var
                    .binding
                    .ok_or_else(|| InterpError::Invalid(format!("{} has no binding", var.name)))?;
                PSpace::Handle(set, b)
            }
            Mode::Input | Mode::Output => return self.io_root(v),
            Mode::Global => {
                return Err(InterpError::Unsupported(format!("{} variables", var.mode.name())))
            }
        };
        Ok(Ptr { space, addr })
    }

    fn deref(
        &self,
        kind: DerefKind,
        parent: Option<Value>,
        mem: &mut Mem<'_>,
    ) -> Result<Ptr, InterpError> {
        let t = &self.s.types;
        match kind {
            DerefKind::Var(VarRef::Local(v)) => {
                let addr = *self
                    .fr
                    .locals
                    .get(v.0 as usize)
                    .ok_or_else(|| InterpError::Invalid("bad local".into()))?;
                Ok(Ptr { space: PSpace::Private, addr })
            }
            DerefKind::Var(VarRef::Global(v)) => self.global_root(v, mem),
            DerefKind::Member(m) => {
                let p =
                    parent.ok_or_else(|| InterpError::Invalid("deref without parent".into()))?;
                let (pt, _) = pointee(self.s, self.f, p)?;
                let base = self.ptr(p)?;
                if super::gfx_io::is_io(base) {
                    return self.io_deref(base, pt, Some(m), 0);
                }
                Ok(Ptr { addr: base.addr + u64::from(layout::member_offset(t, pt, m)), ..base })
            }
            DerefKind::Index(i) => {
                let p =
                    parent.ok_or_else(|| InterpError::Invalid("deref without parent".into()))?;
                let (pt, _) = pointee(self.s, self.f, p)?;
                let base = self.ptr(p)?;
                let idx = ops::sext(self.data(i)?[0], self.f.ty(i).shape().0);
                if super::gfx_io::is_io(base) {
                    return self.io_deref(base, pt, None, idx);
                }
                if let PSpace::Handle(..) = base.space {
                    let n = super::image_exec::flat_len(self.s, pt);
                    return Ok(Ptr {
                        addr: base.addr.wrapping_add((idx as u64).wrapping_mul(n)),
                        ..base
                    });
                }
                if let PSpace::DescArray(set, b) = base.space {
                    return Ok(Ptr {
                        space: PSpace::Buffer(mem.res.find(set, b, idx as u32)?),
                        addr: 0,
                    });
                }
                let stride = i64::from(layout::child_stride(t, pt));
                Ok(Ptr { addr: base.addr.wrapping_add((idx * stride) as u64), ..base })
            }
            DerefKind::PtrAsArray(i) => {
                let p =
                    parent.ok_or_else(|| InterpError::Invalid("deref without parent".into()))?;
                let ValueType::Deref(ptr_ty) = self.f.ty(p) else {
                    return Err(InterpError::Invalid("not a deref".into()));
                };
                let base = self.ptr(p)?;
                let idx = ops::sext(self.data(i)?[0], self.f.ty(i).shape().0);
                let stride = i64::from(layout::array_stride(t, ptr_ty));
                Ok(Ptr { addr: base.addr.wrapping_add((idx * stride) as u64), ..base })
            }
            DerefKind::Cast => {
                let p = parent.ok_or_else(|| InterpError::Invalid("cast without parent".into()))?;
                match self.val(p)? {
                    IVal::Ptr(x) => Ok(x),
                    IVal::Data(a) => Ok(Ptr { space: PSpace::Global, addr: a[0] }),
                }
            }
        }
    }

    fn load(&self, mem: &mut Mem<'_>, p: Ptr, ty: TypeId) -> Result<IVal, InterpError> {
        let t = &self.s.types;
        if super::gfx_io::is_io(p) {
            return self.io_load_ptr(mem, p, ty, crate::ir::InterpAt::Default);
        }
        if p.space == PSpace::SysVal(crate::ir::SysVal::HelperInvocation) {
            return Ok(IVal::Data(vec![u64::from(mem.is_helper())]));
        }
        if let PSpace::SysVal(sv) = p.space {
            let v = self.ids.sysval(self.s, sv)?;
            let first = (p.addr / 4) as usize;
            let n = t.value_shape(ty).map_or(1, |s| usize::from(s.1));
            return Ok(IVal::Data(
                v.get(first..first + n)
                    .ok_or(InterpError::OutOfBounds { space: "sysval", addr: p.addr })?
                    .to_vec(),
            ));
        }
        match t.get(ty) {
            Type::Pointer { .. } => {
                Ok(IVal::Ptr(Ptr { space: PSpace::Global, addr: mem.read(p, 8)? }))
            }
            Type::Vector { elem, count, .. } => {
                let stride = u64::from(layout::array_stride(t, ty));
                let mut out = Vec::new();
                for i in 0..u64::from(*count) {
                    out.push(self.scalar(mem, Ptr { addr: p.addr + i * stride, ..p }, *elem)?);
                }
                Ok(IVal::Data(out))
            }
            _ => Ok(IVal::Data(vec![self.scalar(mem, p, ty)?])),
        }
    }

    fn scalar(&self, mem: &mut Mem<'_>, p: Ptr, ty: TypeId) -> Result<u64, InterpError> {
        let size = layout::scalar_size(&self.s.types, ty) as usize;
        if size == 0 {
            return Err(InterpError::Invalid("load of a non-scalar".into()));
        }
        let v = mem.read(p, size)?;
        Ok(if matches!(self.s.types.get(ty), Type::Bool) { u64::from(v != 0) } else { v })
    }

    fn store(&self, mem: &mut Mem<'_>, p: Ptr, ty: TypeId, v: &IVal) -> Result<(), InterpError> {
        let t = &self.s.types;
        if super::gfx_io::is_io(p) {
            return self.io_store_ptr(mem, p, ty, v);
        }
        match (t.get(ty), v) {
            (Type::Pointer { .. }, IVal::Ptr(x)) => mem.write(p, 8, x.addr),
            (Type::Vector { elem, .. }, IVal::Data(c)) => {
                let stride = u64::from(layout::array_stride(t, ty));
                let size = layout::scalar_size(t, *elem) as usize;
                for (i, x) in c.iter().enumerate() {
                    mem.write(Ptr { addr: p.addr + i as u64 * stride, ..p }, size, *x)?;
                }
                Ok(())
            }
            (_, IVal::Data(c)) => mem.write(p, layout::scalar_size(t, ty) as usize, c[0]),
            _ => Err(InterpError::Invalid("store of a pointer into non-pointer memory".into())),
        }
    }

    fn atomic(
        &self,
        mem: &mut Mem<'_>,
        p: Ptr,
        op: crate::ir::AtomicOp,
        bits: u8,
        srcs: &[Value],
    ) -> Result<Option<IVal>, InterpError> {
        let size = usize::from(bits / 8);
        let d: Vec<u64> =
            srcs.iter().map(|v| self.data(*v).map(|x| x[0])).collect::<Result<_, _>>()?;
        let old = mem.read(p, size)?;
        let new = ops::atomic(op, bits, old, &d);
        if op != crate::ir::AtomicOp::Load {
            mem.write(p, size, new)?;
        }
        Ok(if op == crate::ir::AtomicOp::Store { None } else { Some(IVal::Data(vec![old])) })
    }
}
