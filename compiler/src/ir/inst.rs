//! Ids, value types, variables and the instruction set.
//!
//! Entities are referenced by compact `u32` ids ([`Value`], [`BlockId`], [`FuncId`], [`VarId`])
//! rather than Rust references, so passes can rewrite a function freely without fighting the
//! borrow checker, and printing, hashing and comparing stay cheap.

use super::image::ImageInst;
use super::ops::AluOp;
use super::types::{Mode, TypeId};

/// An SSA value, local to a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A basic block of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A function of the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);

/// A variable: global ones live in [`crate::ir::Shader::vars`], locals in
/// [`crate::ir::Function::locals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);

/// Which variable table a `deref_var` refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarRef {
    /// Shader-level variable.
    Global(VarId),
    /// Function-local temporary.
    Local(VarId),
}

/// The type of an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// Bits × components; booleans are 1 bit.
    Data {
        /// Bit size: 1, 8, 16, 32 or 64.
        bits: u8,
        /// Components: 1 to 16.
        comps: u8,
    },
    /// A deref (pointer) with its pointer type.
    Deref(TypeId),
}

impl ValueType {
    /// Shorthand for a data type.
    pub fn data(bits: u8, comps: u8) -> Self {
        ValueType::Data { bits, comps }
    }

    /// (bits, comps); derefs count as one 64-bit component.
    pub fn shape(self) -> (u8, u8) {
        match self {
            ValueType::Data { bits, comps } => (bits, comps),
            ValueType::Deref(_) => (64, 1),
        }
    }
}

/// Built-in inputs that become system values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SysVal {
    /// gl_GlobalInvocationID.
    GlobalInvocationId,
    /// gl_LocalInvocationID.
    LocalInvocationId,
    /// gl_LocalInvocationIndex.
    LocalInvocationIndex,
    /// gl_WorkGroupID.
    WorkgroupId,
    /// gl_NumWorkGroups.
    NumWorkgroups,
    /// gl_SubgroupSize (32 on RDNA2 wave32).
    SubgroupSize,
    /// gl_SubgroupInvocationID.
    SubgroupInvocationId,
    /// gl_SubgroupID: the wave's index in the workgroup (waves take consecutive runs of 32
    /// local invocation indices).
    SubgroupId,
    /// gl_NumSubgroups: waves per workgroup.
    NumSubgroups,
    /// gl_SubgroupEqMask (`u32x4`; only the first component can be non-zero in wave32).
    SubgroupEqMask,
    /// gl_SubgroupGeMask.
    SubgroupGeMask,
    /// gl_SubgroupGtMask.
    SubgroupGtMask,
    /// gl_SubgroupLeMask.
    SubgroupLeMask,
    /// gl_SubgroupLtMask.
    SubgroupLtMask,
    /// gl_VertexIndex.
    VertexIndex,
    /// gl_InstanceIndex.
    InstanceIndex,
    /// gl_BaseVertex (firstVertex or vertexOffset).
    BaseVertex,
    /// gl_BaseInstance (firstInstance).
    BaseInstance,
    /// gl_DrawIndex.
    DrawIndex,
    /// gl_ViewIndex (the view of a multiview subpass being rendered; 0 outside one).
    ViewIndex,
    /// gl_FragCoord.
    FragCoord,
    /// gl_FrontFacing.
    FrontFacing,
    /// gl_SampleMaskIn (`int[1]`: the samples of the pixel the primitive covers).
    SampleMaskIn,
    /// gl_SampleID (reading it makes the fragment shader run once per sample).
    SampleId,
    /// gl_SamplePosition: the shaded sample's position in the pixel, in [0, 1).
    SamplePosition,
    /// gl_HelperInvocation (lowered to [`InstKind::IsHelper`] at each load: demotion changes it).
    HelperInvocation,
}

/// Built-in outputs (kept on output variables for `lower_io`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BuiltinOut {
    /// gl_Position.
    Position,
    /// gl_PointSize.
    PointSize,
    /// gl_FragDepth.
    FragDepth,
    /// gl_FragStencilRefEXT (an int: the stencil reference the depth/stencil test uses for
    /// this fragment instead of the state's).
    FragStencilRef,
    /// gl_ClipDistance (component = array index).
    ClipDistance,
    /// gl_CullDistance (component = array index).
    CullDistance,
    /// gl_SampleMask (component = array index; only element 0 exists with 16 samples or
    /// fewer).
    SampleMask,
    /// gl_Layer.
    Layer,
    /// gl_PointCoord, a fragment input (the rasterizer's sprite coordinates), kept here
    /// like the fragment stage's clip distances so `lower_io` gives it a slot.
    PointCoord,
    /// gl_ViewportIndex.
    ViewportIndex,
    /// Any other built-in block member.
    Other(u32),
}

/// A variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Debug name.
    pub name: String,
    /// Type of the variable's contents (not the pointer).
    pub ty: TypeId,
    /// Memory mode.
    pub mode: Mode,
    /// Descriptor (set, binding).
    pub binding: Option<(u32, u32)>,
    /// Shader I/O (location, component).
    pub location: Option<(u32, u32)>,
    /// Built-in input this variable reads.
    pub sysval: Option<SysVal>,
    /// Built-in output this variable (or its block members) writes.
    pub builtin_out: Vec<Option<BuiltinOut>>,
    /// `Flat` interpolation.
    pub flat: bool,
    /// `NoPerspective` interpolation (screen-space linear).
    pub noperspective: bool,
    /// `Centroid` / `Sample` interpolation.
    pub interp: Interp,
    /// Per member of a struct (or block) input or output: where it lives and how it is
    /// interpolated, so members may carry their own `Location`, `Component` and
    /// interpolation decorations. Empty for other variables.
    pub members: Vec<MemberIo>,
}

/// The interface of one member of a struct input or output, resolved by the front end with
/// the spec's "Location Assignment" rule: a member without a `Location` takes the location
/// after the previous member's last one (the first takes the variable's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemberIo {
    /// (location, component).
    pub location: (u32, u32),
    /// `Flat` (on the member or the variable).
    pub flat: bool,
    /// `NoPerspective` (on the member or the variable).
    pub noperspective: bool,
    /// `Centroid` / `Sample` (the member's, else the variable's).
    pub interp: Interp,
}

impl Variable {
    /// A plain variable.
    pub fn new(name: impl Into<String>, ty: TypeId, mode: Mode) -> Self {
        Variable {
            name: name.into(),
            ty,
            mode,
            binding: None,
            location: None,
            sysval: None,
            builtin_out: Vec::new(),
            flat: false,
            noperspective: false,
            interp: Interp::Center,
            members: Vec::new(),
        }
    }
}

/// One step of a deref chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerefKind {
    /// Root: a variable.
    Var(VarRef),
    /// Struct member by index.
    Member(u32),
    /// Array element, matrix column or vector component by (constant or dynamic) index.
    Index(Value),
    /// Pointer arithmetic by the pointer type's `ArrayStride` (OpPtrAccessChain).
    PtrAsArray(Value),
    /// Reinterpret the parent (a deref or a 64-bit address) as this pointer type.
    Cast,
}

/// Atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Add.
    Add,
    /// Signed min.
    Imin,
    /// Unsigned min.
    Umin,
    /// Signed max.
    Imax,
    /// Unsigned max.
    Umax,
    /// And.
    And,
    /// Or.
    Or,
    /// Xor.
    Xor,
    /// Exchange.
    Xchg,
    /// Compare-exchange: sources (data, comparator).
    CmpXchg,
    /// Atomic load.
    Load,
    /// Atomic store (no result).
    Store,
}

/// Address space of an explicit memory access after `lower_explicit_io`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// Descriptor buffer: address is `u32x2` (resource index, byte offset).
    Buffer,
    /// Buffer device address: address is a `u64`.
    Global,
    /// LDS: address is a `u32` byte offset.
    Shared,
    /// Push constants: address is a `u32` byte offset.
    Push,
    /// Per-invocation scratch for indirectly indexed temporaries: `u32` byte offset.
    Scratch,
    /// The shader's read-only constant data ([`crate::ir::Shader::constant_data`], placed
    /// after the code): `u32` byte offset. Load only.
    Constant,
}

/// Where a fragment input is interpolated by default (its decoration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Interp {
    /// The pixel centre.
    #[default]
    Center,
    /// `Centroid`: a covered sample position (the centre when all are covered).
    Centroid,
    /// `Sample`: the sample an invocation shades (it makes the shader run per sample).
    Sample,
}

/// Where one load of a fragment input is interpolated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InterpAt {
    /// The input's own [`Interp`].
    #[default]
    Default,
    /// `InterpolateAtCentroid`.
    Centroid,
    /// `InterpolateAtSample`: at the standard position of this sample index.
    Sample(Value),
    /// `InterpolateAtOffset`: at the pixel centre plus this `vec2` offset in pixels.
    Offset(Value),
}

impl InterpAt {
    /// The value operand, if any.
    pub fn src(&self) -> Option<Value> {
        match self {
            InterpAt::Sample(v) | InterpAt::Offset(v) => Some(*v),
            _ => None,
        }
    }

    fn src_mut(&mut self) -> Option<&mut Value> {
        match self {
            InterpAt::Sample(v) | InterpAt::Offset(v) => Some(v),
            _ => None,
        }
    }
}

/// A shader input/output slot after `lower_io`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IoSlot {
    /// A vec4 slot at this location.
    Location(u32),
    /// A built-in output (position, point size, frag depth, ...).
    Builtin(BuiltinOut),
}

/// Subgroup (wave) operations. The subgroup is a wave of 32 invocations, grouped by local
/// invocation index; every operation acts on the lanes that execute it together (the active
/// lanes), so moving one across control flow changes its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupOp {
    /// `()` → bool: true in the lowest active lane only.
    Elect,
    /// `(bool)` → bool: true if true in every active lane.
    All,
    /// `(bool)` → bool: true if true in any active lane.
    Any,
    /// `(x)` → bool: true if `x` is the same in every active lane.
    AllEqual,
    /// `(bool)` → `u32x4`: bit per active lane where the operand is true.
    Ballot,
    /// `(x)` → `x` of the lowest active lane.
    BroadcastFirst,
    /// `(x, lane)` → `x` of `lane` (uniform `lane`, which must be active).
    Broadcast,
    /// `(x, lane)` → `x` of `lane` (any active `lane`; divergent).
    Shuffle,
    /// `(x, mask)` → `x` of lane `id ^ mask`.
    ShuffleXor,
    /// `(x, delta)` → `x` of lane `id - delta`.
    ShuffleUp,
    /// `(x, delta)` → `x` of lane `id + delta`.
    ShuffleDown,
    /// `(x)` → the op folded over the active lanes (inactive ones contribute the identity).
    Reduce(AluOp),
    /// `(x)` → the op folded over active lanes with id ≤ own id.
    InclusiveScan(AluOp),
    /// `(x)` → the op folded over active lanes with id < own id (identity in the first).
    ExclusiveScan(AluOp),
    /// `(x)` → the op folded over the active lanes of the aligned cluster of this size.
    ClusteredReduce(AluOp, u8),
    /// `(x, lane)` → `x` of lane `lane` (constant 0..3) of the quad.
    QuadBroadcast,
    /// `(x)` → `x` of the quad lane `id ^ k` (1 horizontal, 2 vertical, 3 diagonal).
    QuadSwap(u8),
    /// `(x: float)` → the screen-space derivative of `x` (SPIR-V `OpDPdx`... `OpFwidth*` are
    /// built on it), from the 2x2 quad of fragment invocations: lane bit 0 is x, bit 1 is y.
    /// `fine`: each row (column) of the quad takes its own difference; coarse: the whole quad
    /// takes the difference along its first row (column). Needs every lane of the quad active
    /// (helper invocations included), so the backend runs fragment shaders in whole-quad mode.
    Derivative {
        /// d/dy rather than d/dx.
        y: bool,
        /// Per row/column rather than once per quad.
        fine: bool,
    },
}

impl SubgroupOp {
    /// Printed name.
    pub fn name(self) -> String {
        match self {
            SubgroupOp::Reduce(op) => format!("reduce_{}", op.name()),
            SubgroupOp::InclusiveScan(op) => format!("inclusive_scan_{}", op.name()),
            SubgroupOp::ExclusiveScan(op) => format!("exclusive_scan_{}", op.name()),
            SubgroupOp::ClusteredReduce(op, n) => format!("clustered{n}_reduce_{}", op.name()),
            SubgroupOp::QuadSwap(k) => format!("quad_swap{k}"),
            SubgroupOp::Derivative { y, fine } => {
                format!("dd{}_{}", if y { "y" } else { "x" }, if fine { "fine" } else { "coarse" })
            }
            other => format!("{other:?}").to_lowercase(),
        }
    }

    /// True if every active lane gets the same result.
    pub fn is_uniform(self) -> bool {
        matches!(
            self,
            SubgroupOp::All
                | SubgroupOp::Any
                | SubgroupOp::AllEqual
                | SubgroupOp::Ballot
                | SubgroupOp::BroadcastFirst
                | SubgroupOp::Broadcast
                | SubgroupOp::Reduce(_)
        )
    }
}

/// The instruction set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// A constant: one bit pattern per component.
    Const(Vec<u64>),
    /// An undefined value.
    Undef,
    /// ALU operation.
    Alu(AluOp, Vec<Value>),
    /// φ: one source per predecessor block.
    Phi(Vec<(BlockId, Value)>),
    /// A deref step; `parent` is `None` only for [`DerefKind::Var`].
    Deref {
        /// Kind of step.
        kind: DerefKind,
        /// Parent deref (or 64-bit address for a cast).
        parent: Option<Value>,
    },
    /// Load through a deref.
    Load {
        /// The deref.
        ptr: Value,
    },
    /// Store through a deref.
    Store {
        /// The deref.
        ptr: Value,
        /// Stored value.
        value: Value,
    },
    /// Atomic through a deref.
    Atomic {
        /// Operation.
        op: AtomicOp,
        /// The deref.
        ptr: Value,
        /// Data sources.
        srcs: Vec<Value>,
    },
    /// Element count of the runtime array that is member `member` of the struct `ptr` points at.
    ArrayLength {
        /// Deref of the buffer block.
        ptr: Value,
        /// Member index of the runtime array.
        member: u32,
    },
    /// Explicit load from an address.
    MemLoad {
        /// Address space.
        space: Space,
        /// Address (format depends on space).
        addr: Value,
        /// Known alignment in bytes.
        align: u32,
    },
    /// Explicit store to an address.
    MemStore {
        /// Address space.
        space: Space,
        /// Address.
        addr: Value,
        /// Stored value.
        value: Value,
        /// Known alignment in bytes.
        align: u32,
    },
    /// Explicit atomic at an address.
    MemAtomic {
        /// Address space.
        space: Space,
        /// Operation.
        op: AtomicOp,
        /// Address.
        addr: Value,
        /// Data sources.
        srcs: Vec<Value>,
    },
    /// Index of descriptor `(set, binding)[index]`, the first half of a buffer address.
    ResourceIndex {
        /// Descriptor set.
        set: u32,
        /// Binding.
        binding: u32,
        /// Array element.
        index: Value,
    },
    /// Size in bytes of the buffer behind a resource index.
    BufferSize {
        /// Resource index.
        index: Value,
    },
    /// Read components of an input (or previously written output) slot.
    IoLoad {
        /// Slot.
        slot: IoSlot,
        /// First component within the vec4 slot.
        comp: u8,
        /// Reads back an output rather than an input.
        output: bool,
        /// Where a fragment input is interpolated.
        at: InterpAt,
    },
    /// `InterpolateAt*` of a fragment input through a deref (before `lower_io`).
    InterpolateAt {
        /// The input (or an element of it).
        ptr: Value,
        /// Where.
        at: InterpAt,
    },
    /// Write components of an output slot: exactly the components of `value`, starting at
    /// `comp` (the write mask is implied and never covers unwritten components).
    IoStore {
        /// Slot.
        slot: IoSlot,
        /// First component within the vec4 slot.
        comp: u8,
        /// Written value.
        value: Value,
    },
    /// Read a system value directly (after `lower_system_values`).
    SysVal(SysVal),
    /// Workgroup barrier (`exec`) and/or memory barrier.
    Barrier {
        /// Control barrier: all invocations of the workgroup wait.
        exec: bool,
        /// Memory whose accesses are ordered around it.
        memory: BarrierMemory,
    },
    /// Image operation.
    Image(ImageInst),
    /// Subgroup operation over the active lanes of the wave.
    Subgroup {
        /// The operation.
        op: SubgroupOp,
        /// Sources (see [`SubgroupOp`]).
        srcs: Vec<Value>,
    },
    /// Demote the fragment to a helper invocation: it keeps running (for its quad's
    /// derivatives) but writes no memory and no colour, depth or sample mask.
    Demote,
    /// Ends the invocation as `OpKill`/`OpTerminateInvocation` do when the boolean is true;
    /// the other invocations go on. `opt_kill_if` makes it from a conditional branch to a
    /// block that only kills, so the code after it stays in the same block.
    KillIf(Value),
    /// `Demote` when the boolean is true (from `if (c) demote;`, by `opt_kill_if`).
    DemoteIf(Value),
    /// Whether this invocation is a helper (a whole-quad lane that covers no sample, or one
    /// demoted so far): a boolean that changes at every `Demote`, so it is neither CSE'd nor
    /// moved.
    IsHelper,
    /// Call: results in `rets`.
    Call {
        /// Callee.
        func: FuncId,
        /// Arguments.
        args: Vec<Value>,
        /// Result values (aggregates are flattened).
        rets: Vec<Value>,
    },
}

/// An instruction and the value it defines.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// Defined value.
    pub dst: Option<Value>,
    /// Operation.
    pub kind: InstKind,
}

impl Inst {
    /// Calls `f` on every source value.
    pub fn for_each_src(&self, mut f: impl FnMut(Value)) {
        match &self.kind {
            InstKind::Const(_) | InstKind::Undef | InstKind::SysVal(_) => {}
            InstKind::IoLoad { at, .. } => at.src().into_iter().for_each(f),
            InstKind::InterpolateAt { ptr, at } => {
                f(*ptr);
                at.src().into_iter().for_each(f);
            }
            InstKind::Barrier { .. } | InstKind::Demote | InstKind::IsHelper => {}
            InstKind::IoStore { value, .. }
            | InstKind::KillIf(value)
            | InstKind::DemoteIf(value) => f(*value),
            InstKind::Alu(_, s) => s.iter().for_each(|v| f(*v)),
            InstKind::Atomic { ptr, srcs, .. } => {
                f(*ptr);
                srcs.iter().for_each(|v| f(*v));
            }
            InstKind::Phi(s) => s.iter().for_each(|(_, v)| f(*v)),
            InstKind::Deref { kind, parent } => {
                if let Some(p) = parent {
                    f(*p);
                }
                if let DerefKind::Index(i) | DerefKind::PtrAsArray(i) = kind {
                    f(*i);
                }
            }
            InstKind::Load { ptr } | InstKind::ArrayLength { ptr, .. } => f(*ptr),
            InstKind::Store { ptr, value } => {
                f(*ptr);
                f(*value);
            }
            InstKind::MemLoad { addr, .. } => f(*addr),
            InstKind::MemStore { addr, value, .. } => {
                f(*addr);
                f(*value);
            }
            InstKind::MemAtomic { addr, srcs, .. } => {
                f(*addr);
                srcs.iter().for_each(|v| f(*v));
            }
            InstKind::ResourceIndex { index, .. } | InstKind::BufferSize { index } => f(*index),
            InstKind::Image(i) => i.srcs.iter().for_each(|v| f(*v)),
            InstKind::Subgroup { srcs, .. } => srcs.iter().for_each(|v| f(*v)),
            InstKind::Call { args, .. } => args.iter().for_each(|v| f(*v)),
        }
    }

    /// Calls `f` on every source value, mutably (the one accessor generic passes use).
    pub fn for_each_src_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match &mut self.kind {
            InstKind::Const(_) | InstKind::Undef | InstKind::SysVal(_) => {}
            InstKind::IoLoad { at, .. } => at.src_mut().into_iter().for_each(f),
            InstKind::InterpolateAt { ptr, at } => {
                f(ptr);
                at.src_mut().into_iter().for_each(f);
            }
            InstKind::IoStore { value, .. }
            | InstKind::KillIf(value)
            | InstKind::DemoteIf(value) => f(value),
            InstKind::Barrier { .. } | InstKind::Demote | InstKind::IsHelper => {}
            InstKind::Alu(_, s) => s.iter_mut().for_each(f),
            InstKind::Atomic { ptr, srcs, .. } => {
                f(ptr);
                srcs.iter_mut().for_each(f);
            }
            InstKind::Phi(s) => s.iter_mut().for_each(|(_, v)| f(v)),
            InstKind::Deref { kind, parent } => {
                if let Some(p) = parent {
                    f(p);
                }
                if let DerefKind::Index(i) | DerefKind::PtrAsArray(i) = kind {
                    f(i);
                }
            }
            InstKind::Load { ptr } | InstKind::ArrayLength { ptr, .. } => f(ptr),
            InstKind::Store { ptr, value } => {
                f(ptr);
                f(value);
            }
            InstKind::MemLoad { addr, .. } => f(addr),
            InstKind::MemStore { addr, value, .. } => {
                f(addr);
                f(value);
            }
            InstKind::MemAtomic { addr, srcs, .. } => {
                f(addr);
                srcs.iter_mut().for_each(f);
            }
            InstKind::ResourceIndex { index, .. } | InstKind::BufferSize { index } => f(index),
            InstKind::Image(i) => i.srcs.iter_mut().for_each(f),
            InstKind::Subgroup { srcs, .. } => srcs.iter_mut().for_each(f),
            InstKind::Call { args, .. } => args.iter_mut().for_each(f),
        }
    }

    /// Values this instruction defines.
    pub fn defs(&self) -> Vec<Value> {
        match &self.kind {
            InstKind::Call { rets, .. } => rets.clone(),
            _ => self.dst.into_iter().collect(),
        }
    }

    /// True when removing the instruction (if its results are unused) changes nothing.
    pub fn is_pure(&self) -> bool {
        matches!(
            self.kind,
            InstKind::Const(_)
                | InstKind::Undef
                | InstKind::Alu(..)
                | InstKind::Phi(_)
                | InstKind::Deref { .. }
                | InstKind::ResourceIndex { .. }
                | InstKind::BufferSize { .. }
                | InstKind::SysVal(_)
                | InstKind::ArrayLength { .. }
                | InstKind::Subgroup { .. }
        ) || matches!(&self.kind, InstKind::Image(i) if !i.has_side_effects())
    }
}

/// The memory a barrier orders (from SPIR-V's memory semantics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BarrierMemory {
    /// Workgroup (shared) memory.
    pub workgroup: bool,
    /// Buffer, image and other device memory.
    pub device: bool,
}

impl BarrierMemory {
    /// Everything.
    pub const ALL: Self = Self { workgroup: true, device: true };

    /// From a SPIR-V `MemorySemantics` mask: storage classes named, or all of memory when the
    /// mask orders something without naming where (acquire/release bits alone).
    pub fn from_semantics(mask: u32) -> Self {
        const WORKGROUP: u32 = 0x100;
        const DEVICE: u32 = 0x40 | 0x200 | 0x800 | 0x1000 | 0x2000;
        const ORDERING: u32 = 0x2 | 0x4 | 0x8 | 0x10;
        let named = Self { workgroup: mask & WORKGROUP != 0, device: mask & DEVICE != 0 };
        if !named.workgroup && !named.device && mask & ORDERING != 0 {
            Self::ALL
        } else {
            named
        }
    }
}
