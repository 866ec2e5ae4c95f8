//! Module-level translation: capabilities, types, constants (specialization included) and
//! global variables. Functions are translated by [`super::function`].

use rustc_hash::FxHashMap as HashMap;

use rspirv::dr::{Instruction, Module as SpvModule, Operand};
use spirv::{Capability, Op, StorageClass};

use super::decorations::Decorations;
use super::operands::{bad, id, lit, lit64, opname, result, result_type};
use crate::error::CompileError;
use crate::ir::{
    self, ImageDim, Member, Mode, Shader, Stage, SysVal, Type, TypeId, ValueType, VarId, Variable,
};

/// A constant value tree (aggregates are trees, leaves are scalars or vectors).
#[derive(Clone, Debug, PartialEq)]
pub enum CTree {
    /// Scalar or vector constant: bit size and components.
    Leaf(u8, Vec<u64>),
    /// Aggregate.
    Node(Vec<CTree>),
    /// Undefined leaf.
    Undef(ValueType),
}

const CAPABILITIES: &[Capability] = &[
    Capability::Shader,
    Capability::Matrix,
    Capability::Int8,
    Capability::Int16,
    Capability::Int64,
    Capability::Float16,
    Capability::Float64,
    Capability::StorageBuffer8BitAccess,
    Capability::UniformAndStorageBuffer8BitAccess,
    Capability::StoragePushConstant8,
    Capability::StorageBuffer16BitAccess,
    Capability::UniformAndStorageBuffer16BitAccess,
    Capability::StoragePushConstant16,
    // 16-bit inputs and outputs in 32-bit components (passes/lower_io.rs `narrow16`).
    Capability::StorageInputOutput16,
    Capability::PhysicalStorageBufferAddresses,
    Capability::VariablePointers,
    Capability::VariablePointersStorageBuffer,
    Capability::Int64Atomics,
    Capability::ImageQuery,
    Capability::Sampled1D,
    Capability::Image1D,
    Capability::SampledBuffer,
    Capability::ImageBuffer,
    Capability::StorageImageExtendedFormats,
    Capability::StorageImageReadWithoutFormat,
    Capability::StorageImageWriteWithoutFormat,
    Capability::DemoteToHelperInvocation,
    Capability::ClipDistance,
    Capability::CullDistance,
    Capability::DrawParameters,
    Capability::MultiView,
    Capability::GroupNonUniform,
    Capability::GroupNonUniformVote,
    Capability::GroupNonUniformArithmetic,
    Capability::GroupNonUniformBallot,
    Capability::GroupNonUniformShuffle,
    Capability::GroupNonUniformShuffleRelative,
    Capability::GroupNonUniformClustered,
    Capability::GroupNonUniformQuad,
    Capability::DerivativeControl,
    Capability::SampledCubeArray,
    Capability::ImageCubeArray,
    Capability::MinLod,
    Capability::ImageGatherExtended,
    Capability::ImageMSArray,
    Capability::StorageImageMultisample,
    Capability::InputAttachment,
    Capability::SampleRateShading,
    Capability::StencilExportEXT,
    Capability::InterpolationFunction,
    Capability::ShaderNonUniform,
    Capability::RuntimeDescriptorArray,
    Capability::SampledImageArrayDynamicIndexing,
    Capability::StorageImageArrayDynamicIndexing,
    Capability::UniformTexelBufferArrayDynamicIndexing,
    Capability::StorageTexelBufferArrayDynamicIndexing,
    Capability::SampledImageArrayNonUniformIndexing,
    Capability::StorageImageArrayNonUniformIndexing,
    Capability::UniformTexelBufferArrayNonUniformIndexing,
    Capability::StorageTexelBufferArrayNonUniformIndexing,
    // SPV_KHR_float_controls: the modes the hardware honours per shader (float_controls.rs).
    Capability::DenormPreserve,
    Capability::DenormFlushToZero,
    Capability::RoundingModeRTE,
    Capability::RoundingModeRTZ,
];

const EXTENSIONS: &[&str] = &[
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_physical_storage_buffer",
    "SPV_EXT_physical_storage_buffer",
    "SPV_KHR_variable_pointers",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_multiview",
    "SPV_EXT_descriptor_indexing",
    "SPV_KHR_float_controls",
    "SPV_EXT_shader_stencil_export",
];

/// Module-level state of the translation.
pub struct ModuleCtx<'m> {
    /// The parsed module.
    pub spv: &'m SpvModule,
    /// The shader being built.
    pub shader: Shader,
    /// Decorations.
    pub dec: Decorations,
    /// SPIR-V type id → IR type.
    pub types: HashMap<u32, TypeId>,
    /// SPIR-V constant id → value.
    pub consts: HashMap<u32, CTree>,
    /// SPIR-V global variable id → IR variable.
    pub globals: HashMap<u32, VarId>,
    /// SPIR-V function id → IR function.
    pub funcs: HashMap<u32, ir::FuncId>,
    /// Id of the `GLSL.std.450` import.
    pub glsl_ext: Option<u32>,
    /// Ids of ignored (non-semantic) extended-instruction imports.
    pub ignored_ext: Vec<u32>,
    /// SPIR-V function id → definition.
    pub spv_funcs: HashMap<u32, &'m rspirv::dr::Function>,
    /// OpName names.
    pub names: HashMap<u32, String>,
    /// Private globals with an initializer: (variable id, initializer id), stored at the
    /// start of the entry function (a Private variable is per invocation, so that store is
    /// its initialization).
    pub global_inits: Vec<(u32, u32)>,
}

/// Checks the header, capabilities, extensions and imports.
pub fn check_module(m: &SpvModule) -> Result<(Option<u32>, Vec<u32>), CompileError> {
    for c in &m.capabilities {
        match c.operands.first() {
            Some(Operand::Capability(cap)) if CAPABILITIES.contains(cap) => {}
            Some(Operand::Capability(cap)) => {
                return Err(CompileError::Capability(format!("{cap:?}")))
            }
            _ => return Err(bad(c, "missing capability")),
        }
    }
    for e in &m.extensions {
        match e.operands.first() {
            Some(Operand::LiteralString(s)) if EXTENSIONS.contains(&s.as_str()) => {}
            Some(Operand::LiteralString(s)) => return Err(CompileError::Extension(s.clone())),
            _ => return Err(bad(e, "missing extension name")),
        }
    }
    let mut glsl = None;
    let mut ignored = Vec::new();
    for e in &m.ext_inst_imports {
        match e.operands.first() {
            Some(Operand::LiteralString(s)) if s == "GLSL.std.450" => glsl = Some(result(e)?),
            Some(Operand::LiteralString(s)) if s.starts_with("NonSemantic.") => {
                ignored.push(result(e)?);
            }
            Some(Operand::LiteralString(s)) => {
                return Err(CompileError::unsupported("OpExtInstImport", s.clone()));
            }
            _ => return Err(bad(e, "missing import name")),
        }
    }
    Ok((glsl, ignored))
}

fn stage_model(stage: Stage) -> spirv::ExecutionModel {
    match stage {
        Stage::Compute => spirv::ExecutionModel::GLCompute,
        Stage::Vertex => spirv::ExecutionModel::Vertex,
        Stage::Fragment => spirv::ExecutionModel::Fragment,
    }
}

/// Finds the entry point's function id.
pub fn find_entry(m: &SpvModule, name: &str, stage: Stage) -> Result<u32, CompileError> {
    for ep in &m.entry_points {
        let model = match ep.operands.first() {
            Some(Operand::ExecutionModel(x)) => *x,
            _ => return Err(bad(ep, "missing execution model")),
        };
        let n = match ep.operands.get(2) {
            Some(Operand::LiteralString(s)) => s.as_str(),
            _ => return Err(bad(ep, "missing name")),
        };
        if n == name && model == stage_model(stage) {
            return id(ep, 1);
        }
    }
    Err(CompileError::NoEntryPoint(name.to_string()))
}

impl<'m> ModuleCtx<'m> {
    /// Starts translating `spv` for `stage`.
    pub fn new(spv: &'m SpvModule, stage: Stage) -> Result<Self, CompileError> {
        let (glsl_ext, ignored_ext) = check_module(spv)?;
        let mut names = HashMap::default();
        for n in &spv.debug_names {
            if n.class.opcode == Op::Name {
                if let (Ok(t), Some(Operand::LiteralString(s))) = (id(n, 0), n.operands.get(1)) {
                    names.insert(t, s.clone());
                }
            }
        }
        let mut spv_funcs = HashMap::default();
        for f in &spv.functions {
            let def = f
                .def
                .as_ref()
                .ok_or_else(|| CompileError::Malformed("function without OpFunction".into()))?;
            spv_funcs.insert(result(def)?, f);
        }
        Ok(ModuleCtx {
            spv,
            shader: Shader {
                stage,
                types: ir::TypeTable::default(),
                vars: Vec::new(),
                funcs: Vec::new(),
                entry: ir::FuncId(0),
                workgroup_size: [1, 1, 1],
                shared_size: 0,
                scratch_size: 0,
                frag_modes: Vec::new(),
                early_fragment_tests: false,
                float_controls: Default::default(),
                constant_data: Vec::new(),
            },
            dec: Decorations::collect(spv)?,
            types: HashMap::default(),
            consts: HashMap::default(),
            globals: HashMap::default(),
            funcs: HashMap::default(),
            glsl_ext,
            ignored_ext,
            spv_funcs,
            names,
            global_inits: Vec::new(),
        })
    }

    /// IR type of SPIR-V type `spv_id`.
    pub fn ty(&self, spv_id: u32) -> Result<TypeId, CompileError> {
        self.types
            .get(&spv_id)
            .copied()
            .ok_or_else(|| CompileError::invalid("type", format!("%{spv_id} is not a known type")))
    }

    /// Translates all types, constants and global variables in declaration order.
    pub fn translate_globals(
        &mut self,
        spec: &std::collections::HashMap<u32, u64>,
    ) -> Result<(), CompileError> {
        let mut forward: HashMap<u32, TypeId> = HashMap::default();
        for inst in &self.spv.types_global_values {
            match inst.class.opcode {
                Op::TypeForwardPointer => {
                    let t = id(inst, 0)?;
                    let reserved = self.shader.types.reserve();
                    forward.insert(t, reserved);
                    self.types.insert(t, reserved);
                }
                Op::Variable => self.global_var(inst)?,
                Op::Line | Op::NoLine | Op::ExtInst => {}
                op if is_type(op) => {
                    let r = result(inst)?;
                    let t = self.translate_type(inst)?;
                    let t = match (forward.get(&r), inst.class.opcode) {
                        (Some(&reserved), Op::TypePointer) => {
                            let ty = self.shader.types.get(t).clone();
                            self.shader.types.define(reserved, ty);
                            reserved
                        }
                        _ => t,
                    };
                    self.types.insert(r, t);
                }
                _ => {
                    let c = self.translate_constant(inst, spec)?;
                    self.consts.insert(result(inst)?, c);
                }
            }
        }
        Ok(())
    }

    fn translate_type(&mut self, inst: &Instruction) -> Result<TypeId, CompileError> {
        let r = result(inst)?;
        let d = self.dec.of(r);
        let ty = match inst.class.opcode {
            Op::TypeVoid | Op::TypeFunction => Type::Void,
            Op::TypeBool => Type::Bool,
            Op::TypeInt => {
                let bits = lit(inst, 0)?;
                if ![8, 16, 32, 64].contains(&bits) {
                    return Err(bad(inst, "unsupported integer width"));
                }
                Type::Int { bits: bits as u8, signed: lit(inst, 1)? != 0 }
            }
            Op::TypeFloat => {
                let bits = lit(inst, 0)?;
                if ![16, 32, 64].contains(&bits) {
                    return Err(bad(inst, "unsupported float width"));
                }
                Type::Float { bits: bits as u8 }
            }
            Op::TypeVector => {
                let n = lit(inst, 1)?;
                if !(2..=4).contains(&n) {
                    return Err(bad(inst, "vector size"));
                }
                Type::Vector { elem: self.ty(id(inst, 0)?)?, count: n as u8, stride: None }
            }
            Op::TypeMatrix => {
                let n = lit(inst, 1)?;
                if !(2..=4).contains(&n) {
                    return Err(bad(inst, "matrix size"));
                }
                Type::Matrix {
                    column: self.ty(id(inst, 0)?)?,
                    columns: n as u8,
                    stride: None,
                    row_major: false,
                }
            }
            Op::TypeArray => {
                let len = match self.consts.get(&id(inst, 1)?) {
                    Some(CTree::Leaf(_, c)) if c.len() == 1 && c[0] > 0 && c[0] < 1 << 24 => {
                        c[0] as u32
                    }
                    _ => return Err(bad(inst, "array length is not a positive constant")),
                };
                Type::Array { elem: self.ty(id(inst, 0)?)?, len, stride: d.array_stride }
            }
            Op::TypeRuntimeArray => {
                Type::RuntimeArray { elem: self.ty(id(inst, 0)?)?, stride: d.array_stride }
            }
            Op::TypeStruct => return self.struct_type(inst),
            Op::TypePointer => {
                let sc = match inst.operands.first() {
                    Some(Operand::StorageClass(sc)) => *sc,
                    _ => return Err(bad(inst, "missing storage class")),
                };
                let pointee_spv = id(inst, 1)?;
                let pointee = self.ty(pointee_spv)?;
                let mode = self.mode(inst, sc, pointee_spv)?;
                return Ok(self.shader.types.pointer(pointee, mode, d.array_stride));
            }
            Op::TypeImage => self.image_type(inst)?,
            Op::TypeSampler => Type::Sampler,
            Op::TypeSampledImage => Type::SampledImage { image: self.ty(id(inst, 0)?)? },
            _ => return Err(CompileError::unsupported(opname(inst), "type")),
        };
        Ok(self.shader.types.intern(ty))
    }

    /// A struct with member layout from `Offset`, `MatrixStride` and `RowMajor`.
    fn struct_type(&mut self, inst: &Instruction) -> Result<TypeId, CompileError> {
        let r = result(inst)?;
        let d = self.dec.of(r);
        let mut members = Vec::new();
        for i in 0..inst.operands.len() {
            let md = self.dec.member(r, i as u32);
            let mt = self.ty(id(inst, i)?)?;
            let mt = if md.matrix_stride.is_some() || md.row_major {
                self.shader.types.with_matrix_layout(mt, md.matrix_stride, md.row_major)
            } else {
                mt
            };
            members.push(Member { ty: mt, offset: md.offset });
        }
        let block = d.block || d.buffer_block;
        Ok(self.shader.types.intern(Type::Struct { members, block }))
    }

    /// An image type.
    fn image_type(&mut self, inst: &Instruction) -> Result<Type, CompileError> {
        let dim = match inst.operands.get(1) {
            Some(Operand::Dim(spirv::Dim::Dim1D)) => ImageDim::D1,
            Some(Operand::Dim(spirv::Dim::Dim2D)) => ImageDim::D2,
            Some(Operand::Dim(spirv::Dim::Dim3D)) => ImageDim::D3,
            Some(Operand::Dim(spirv::Dim::DimCube)) => ImageDim::Cube,
            Some(Operand::Dim(spirv::Dim::DimBuffer)) => ImageDim::Buffer,
            Some(Operand::Dim(spirv::Dim::DimSubpassData)) => {
                // An input attachment reads layer `view index` of its view (Vulkan's
                // "Fragment Input Attachment" rules), so it is addressed as a 2D array whatever
                // the declaration's Arrayed (which SPIR-V requires to be 0).
                return Ok(Type::Image {
                    dim: ImageDim::D2,
                    arrayed: true,
                    ms: lit(inst, 4)? == 1,
                    storage: false,
                    subpass: true,
                    sampled_ty: self.ty(id(inst, 0)?)?,
                });
            }
            _ => return Err(CompileError::unsupported("OpTypeImage", "image dimension")),
        };
        Ok(Type::Image {
            dim,
            arrayed: lit(inst, 3)? == 1,
            ms: lit(inst, 4)? == 1,
            storage: lit(inst, 5)? == 2,
            subpass: false,
            sampled_ty: self.ty(id(inst, 0)?)?,
        })
    }

    fn mode(
        &self,
        inst: &Instruction,
        sc: StorageClass,
        pointee: u32,
    ) -> Result<Mode, CompileError> {
        Ok(match sc {
            StorageClass::Function => Mode::Function,
            StorageClass::Private => Mode::Private,
            StorageClass::Input => Mode::Input,
            StorageClass::Output => Mode::Output,
            StorageClass::PushConstant => Mode::PushConstant,
            StorageClass::Uniform => {
                if self.dec.of(pointee).buffer_block {
                    Mode::Storage
                } else {
                    Mode::Uniform
                }
            }
            StorageClass::StorageBuffer => Mode::Storage,
            StorageClass::Workgroup => Mode::Workgroup,
            StorageClass::PhysicalStorageBuffer => Mode::Global,
            StorageClass::UniformConstant | StorageClass::Image => Mode::Handle,
            _ => {
                return Err(CompileError::unsupported(
                    opname(inst),
                    format!("storage class {sc:?}"),
                ))
            }
        })
    }

    fn global_var(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let r = result(inst)?;
        let pty = self.ty(result_type(inst)?)?;
        let Type::Pointer { pointee, mode, .. } = self.shader.types.get(pty).clone() else {
            return Err(bad(inst, "variable type is not a pointer"));
        };
        if inst.operands.len() > 1 {
            if mode != Mode::Private {
                return Err(CompileError::unsupported(
                    opname(inst),
                    format!("initializers of {mode:?} variables"),
                ));
            }
            self.global_inits.push((r, id(inst, 1)?));
        }
        let d = self.dec.of(r);
        let base =
            self.names.get(&r).filter(|n| !n.is_empty()).cloned().unwrap_or_else(|| "var".into());
        // Printed names must be unique; add the index only when needed.
        let name = if base == "var" || self.shader.vars.iter().any(|v| v.name == base) {
            format!("{base}{}", self.shader.vars.len())
        } else {
            base
        };
        let mut v = Variable::new(name, pointee, mode);
        if let (Some(s), Some(b)) = (d.set, d.binding) {
            v.binding = Some((s, b));
        } else if d.binding.is_some() {
            v.binding = Some((0, d.binding.unwrap_or(0)));
        }
        v.location = dual_source_location(d.location, d.index)
            .map_err(|why| CompileError::unsupported(opname(inst), why))?
            .map(|l| (l, d.component.unwrap_or(0)));
        v.flat = d.flat;
        v.noperspective = d.noperspective;
        v.interp = d.interp;
        if let Some(b) = d.builtin {
            use spirv::BuiltIn::{ClipDistance, CullDistance, PointCoord};
            match mode {
                // The fragment stage's clip and cull distances are interpolated inputs (the
                // VS exports them as parameters too); `builtin_out` names their slot.
                Mode::Input if matches!(b, ClipDistance | CullDistance | PointCoord) => {
                    v.builtin_out = vec![Some(builtin_out(b))]
                }
                Mode::Input => {
                    v.sysval = Some(sysval(b).ok_or_else(|| {
                        CompileError::unsupported(opname(inst), format!("built-in {b:?}"))
                    })?);
                    v.mode = Mode::SystemValue;
                }
                _ => v.builtin_out = vec![Some(builtin_out(b))],
            }
        }
        if let Some(spv_struct) = self.pointee_spv(inst) {
            let n = match self.shader.types.get(pointee) {
                Type::Struct { members, .. } => members.len(),
                _ => 0,
            };
            let outs: Vec<_> = (0..n)
                .map(|i| self.dec.member(spv_struct, i as u32).builtin.map(builtin_out))
                .collect();
            if outs.iter().any(|o| o.is_some()) {
                if mode == Mode::Input {
                    return Err(CompileError::unsupported(opname(inst), "built-in input blocks"));
                }
                v.builtin_out = outs;
            } else if matches!(mode, Mode::Input | Mode::Output) && n > 0 {
                v.members = self
                    .member_io(spv_struct, &v)
                    .map_err(|why| CompileError::unsupported(opname(inst), why))?;
            }
        }
        let idx = VarId(self.shader.vars.len() as u32);
        self.shader.vars.push(v);
        self.globals.insert(r, idx);
        Ok(())
    }

    /// The members' interfaces of struct input/output `v` (SPIR-V struct `spv_struct`) by
    /// "Location Assignment": an explicit member `Location` (and `Component`) wins, else
    /// the location after the previous member's. Empty when the first member has neither
    /// its own location nor the variable's (then nothing reaches the interface).
    fn member_io(&self, spv_struct: u32, v: &Variable) -> Result<Vec<ir::MemberIo>, String> {
        let Type::Struct { members, .. } = self.shader.types.get(v.ty) else {
            return Ok(Vec::new());
        };
        let mut next = v.location;
        let mut out = Vec::with_capacity(members.len());
        for (i, m) in members.iter().enumerate() {
            let d = self.dec.member(spv_struct, i as u32);
            let location = match (d.location, next) {
                (Some(l), _) => (l, d.component.unwrap_or(0)),
                (None, Some(l)) => l,
                (None, None) if i == 0 => return Ok(Vec::new()),
                (None, None) => return Err(format!("member {i} of a block without a location")),
            };
            let n = crate::passes::lower_io::slots(&self.shader.types, m.ty);
            next = Some((location.0.saturating_add(n), 0));
            let interp = if d.interp == ir::Interp::Center { v.interp } else { d.interp };
            out.push(ir::MemberIo {
                location,
                flat: d.flat || v.flat,
                noperspective: d.noperspective || v.noperspective,
                interp,
            });
        }
        Ok(out)
    }

    fn pointee_spv(&self, var: &Instruction) -> Option<u32> {
        let pt = var.result_type?;
        let def = self.spv.types_global_values.iter().find(|i| i.result_id == Some(pt))?;
        id(def, 1).ok()
    }

    /// The zero value of type `t` as a constant tree.
    pub fn null(&self, t: TypeId) -> Result<CTree, CompileError> {
        self.fill(t, &|vt| match vt {
            ValueType::Data { bits, comps } => CTree::Leaf(bits, vec![0; usize::from(comps)]),
            ValueType::Deref(_) => CTree::Leaf(64, vec![0]),
        })
    }

    /// The undefined value of type `t`.
    pub fn undef(&self, t: TypeId) -> Result<CTree, CompileError> {
        // A runtime array has no elements a value could hold (it is only ever reached through
        // memory), so its undefined value is empty.
        // Neither does a sampler or image handle: a shader may declare one undefined (unused,
        // as dEQP's opundef.sampler does); any use of it fails where a handle is needed.
        if matches!(
            self.shader.types.get(t),
            Type::RuntimeArray { .. }
                | Type::Sampler
                | Type::Image { .. }
                | Type::SampledImage { .. }
        ) {
            return Ok(CTree::Node(Vec::new()));
        }
        self.fill(t, &CTree::Undef)
    }

    fn fill(&self, t: TypeId, leaf: &dyn Fn(ValueType) -> CTree) -> Result<CTree, CompileError> {
        if let Some(vt) = leaf_type(&self.shader.types, t) {
            return Ok(leaf(vt));
        }
        if super::function::leaf_count(&self.shader.types, t) > super::function::MAX_TREE_LEAVES {
            return Err(CompileError::unsupported("OpConstantNull", "constant too large"));
        }
        let n = match self.shader.types.get(t) {
            Type::Struct { members, .. } => members.len() as u32,
            Type::Array { len, .. } => *len,
            Type::Matrix { columns, .. } => u32::from(*columns),
            _ => return Err(CompileError::invalid("constant", "type has no constant value")),
        };
        let mut kids = Vec::new();
        for i in 0..n {
            let c = self.child_ro(t, i)?;
            kids.push(self.fill(c, leaf)?);
        }
        Ok(CTree::Node(kids))
    }

    fn child_ro(&self, t: TypeId, i: u32) -> Result<TypeId, CompileError> {
        match self.shader.types.get(t) {
            Type::Struct { members, .. } => members
                .get(i as usize)
                .map(|m| m.ty)
                .ok_or_else(|| CompileError::invalid("constant", "bad member")),
            Type::Array { elem, .. } => Ok(*elem),
            Type::Matrix { column, .. } => Ok(*column),
            _ => Err(CompileError::invalid("constant", "not a composite")),
        }
    }

    fn translate_constant(
        &mut self,
        inst: &Instruction,
        spec: &std::collections::HashMap<u32, u64>,
    ) -> Result<CTree, CompileError> {
        let r = result(inst)?;
        let t = self.ty(result_type(inst)?)?;
        let spec_val = self.dec.of(r).spec_id.and_then(|s| spec.get(&s).copied());
        let bits = leaf_type(&self.shader.types, t).map_or(32, |v| v.shape().0);
        Ok(match inst.class.opcode {
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let v = matches!(inst.class.opcode, Op::ConstantTrue | Op::SpecConstantTrue);
                CTree::Leaf(1, vec![spec_val.map_or(u64::from(v), |s| u64::from(s != 0))])
            }
            Op::Constant | Op::SpecConstant => {
                let v = match spec_val {
                    Some(s) => s,
                    None => lit64(inst, 0)?,
                };
                CTree::Leaf(bits, vec![v & ir::ops::mask(bits)])
            }
            Op::ConstantComposite | Op::SpecConstantComposite => {
                let mut parts = Vec::new();
                for i in 0..inst.operands.len() {
                    let c = id(inst, i)?;
                    parts.push(
                        self.consts
                            .get(&c)
                            .cloned()
                            .ok_or_else(|| bad(inst, "unknown constituent"))?,
                    );
                }
                if leaf_type(&self.shader.types, t).is_some() {
                    let mut comps = Vec::new();
                    for p in parts {
                        match p {
                            CTree::Leaf(_, c) => comps.extend(c),
                            _ => return Err(bad(inst, "vector of non-scalars")),
                        }
                    }
                    CTree::Leaf(bits, comps)
                } else {
                    CTree::Node(parts)
                }
            }
            Op::ConstantNull => self.null(t)?,
            Op::Undef => self.undef(t)?,
            Op::SpecConstantOp => super::spec_op::eval(self, inst, t)?,
            _ => return Err(CompileError::unsupported(opname(inst), "global instruction")),
        })
    }

    /// Applies the entry point's float-control execution modes; before the globals are
    /// translated, because specialization-constant operations fold under them.
    pub fn float_controls(&mut self, entry: u32) -> Result<(), CompileError> {
        for em in &self.spv.execution_modes {
            if id(em, 0)? != entry {
                continue;
            }
            if let Some(Operand::ExecutionMode(
                mode @ (spirv::ExecutionMode::DenormPreserve
                | spirv::ExecutionMode::DenormFlushToZero
                | spirv::ExecutionMode::RoundingModeRTE
                | spirv::ExecutionMode::RoundingModeRTZ
                | spirv::ExecutionMode::SignedZeroInfNanPreserve),
            )) = em.operands.get(1)
            {
                let width = lit(em, 2)?;
                super::float_controls::apply(&mut self.shader.float_controls, *mode, width)?;
            }
        }
        Ok(())
    }

    /// Applies the entry point's execution modes.
    pub fn execution_modes(&mut self, entry: u32) -> Result<(), CompileError> {
        for em in &self.spv.execution_modes {
            if id(em, 0)? != entry {
                continue;
            }
            let Some(Operand::ExecutionMode(mode)) = em.operands.get(1) else {
                return Err(bad(em, "missing execution mode"));
            };
            match mode {
                spirv::ExecutionMode::LocalSize => {
                    self.shader.workgroup_size = [lit(em, 2)?, lit(em, 3)?, lit(em, 4)?];
                }
                spirv::ExecutionMode::LocalSizeId => {
                    for i in 0..3 {
                        match self.consts.get(&id(em, 2 + i)?) {
                            Some(CTree::Leaf(_, c)) => self.shader.workgroup_size[i] = c[0] as u32,
                            _ => return Err(bad(em, "LocalSizeId operand is not a constant")),
                        }
                    }
                }
                // Applied before the constants are translated ([`Self::float_controls`]).
                spirv::ExecutionMode::DenormPreserve
                | spirv::ExecutionMode::DenormFlushToZero
                | spirv::ExecutionMode::RoundingModeRTE
                | spirv::ExecutionMode::RoundingModeRTZ
                | spirv::ExecutionMode::SignedZeroInfNanPreserve => {}
                spirv::ExecutionMode::EarlyFragmentTests => self.shader.early_fragment_tests = true,
                other => self.shader.frag_modes.push(format!("{other:?}")),
            }
        }
        // A constant decorated WorkgroupSize overrides the execution mode.
        for (cid, c) in &self.consts {
            if self.dec.of(*cid).builtin == Some(spirv::BuiltIn::WorkgroupSize) {
                if let CTree::Leaf(_, v) = c {
                    if v.len() == 3 {
                        self.shader.workgroup_size = [v[0] as u32, v[1] as u32, v[2] as u32];
                    }
                }
            }
        }
        let [x, y, z] = self.shader.workgroup_size;
        // The device's maxComputeWorkGroupSize (1024 in every dimension, as COMPUTE_NUM_THREAD_*
        // allow) and maxComputeWorkGroupInvocations (1024).
        if x == 0 || y == 0 || z == 0 || x > 1024 || y > 1024 || z > 1024 || x * y * z > 1024 {
            return Err(CompileError::invalid("OpExecutionMode", "workgroup size out of range"));
        }
        Ok(())
    }
}

fn is_type(op: Op) -> bool {
    matches!(
        op,
        Op::TypeVoid
            | Op::TypeBool
            | Op::TypeInt
            | Op::TypeFloat
            | Op::TypeVector
            | Op::TypeMatrix
            | Op::TypeArray
            | Op::TypeRuntimeArray
            | Op::TypeStruct
            | Op::TypePointer
            | Op::TypeFunction
            | Op::TypeImage
            | Op::TypeSampler
            | Op::TypeSampledImage
            | Op::TypeOpaque
            | Op::TypeEvent
    )
}

/// The SSA value type of values of IR type `t`, if they are not aggregates.
pub fn leaf_type(types: &ir::TypeTable, t: TypeId) -> Option<ValueType> {
    match types.get(t) {
        Type::Pointer { .. } => Some(ValueType::Deref(t)),
        Type::Image { .. } | Type::Sampler | Type::SampledImage { .. } => None,
        _ => types.value_shape(t).map(|(b, c)| ValueType::data(b, c)),
    }
}

/// The location a fragment output is exported at: `Index` 1 (dual-source blending's second
/// colour, only at location 0 since maxFragmentDualSrcAttachments is 1) takes location 1, the
/// MRT1 export the colour backend reads as the blend's second source when target 0 uses SRC1
/// factors (as ACO/RADV export it). Index 0 (or none) keeps the location.
fn dual_source_location(
    location: Option<u32>,
    index: Option<u32>,
) -> Result<Option<u32>, &'static str> {
    match (location, index.unwrap_or(0)) {
        (l, 0) => Ok(l),
        (Some(0), 1) => Ok(Some(1)),
        _ => Err("an Index other than 0, or Index 1 at a location other than 0"),
    }
}

fn sysval(b: spirv::BuiltIn) -> Option<SysVal> {
    use spirv::BuiltIn as B;
    Some(match b {
        B::GlobalInvocationId => SysVal::GlobalInvocationId,
        B::LocalInvocationId => SysVal::LocalInvocationId,
        B::LocalInvocationIndex => SysVal::LocalInvocationIndex,
        B::WorkgroupId => SysVal::WorkgroupId,
        B::NumWorkgroups => SysVal::NumWorkgroups,
        B::SubgroupSize => SysVal::SubgroupSize,
        B::SubgroupLocalInvocationId => SysVal::SubgroupInvocationId,
        B::SubgroupId => SysVal::SubgroupId,
        B::NumSubgroups => SysVal::NumSubgroups,
        B::SubgroupEqMask => SysVal::SubgroupEqMask,
        B::SubgroupGeMask => SysVal::SubgroupGeMask,
        B::SubgroupGtMask => SysVal::SubgroupGtMask,
        B::SubgroupLeMask => SysVal::SubgroupLeMask,
        B::SubgroupLtMask => SysVal::SubgroupLtMask,
        B::VertexIndex => SysVal::VertexIndex,
        B::InstanceIndex => SysVal::InstanceIndex,
        B::BaseVertex => SysVal::BaseVertex,
        B::BaseInstance => SysVal::BaseInstance,
        B::DrawIndex => SysVal::DrawIndex,
        B::ViewIndex => SysVal::ViewIndex,
        B::FragCoord => SysVal::FragCoord,
        B::FrontFacing => SysVal::FrontFacing,
        B::HelperInvocation => SysVal::HelperInvocation,
        B::SampleMask => SysVal::SampleMaskIn,
        B::SampleId => SysVal::SampleId,
        B::SamplePosition => SysVal::SamplePosition,
        _ => return None,
    })
}

fn builtin_out(b: spirv::BuiltIn) -> ir::BuiltinOut {
    match b {
        spirv::BuiltIn::Position => ir::BuiltinOut::Position,
        spirv::BuiltIn::PointSize => ir::BuiltinOut::PointSize,
        spirv::BuiltIn::FragDepth => ir::BuiltinOut::FragDepth,
        spirv::BuiltIn::FragStencilRefEXT => ir::BuiltinOut::FragStencilRef,
        spirv::BuiltIn::ClipDistance => ir::BuiltinOut::ClipDistance,
        spirv::BuiltIn::CullDistance => ir::BuiltinOut::CullDistance,
        spirv::BuiltIn::Layer => ir::BuiltinOut::Layer,
        spirv::BuiltIn::SampleMask => ir::BuiltinOut::SampleMask,
        spirv::BuiltIn::PointCoord => ir::BuiltinOut::PointCoord,
        spirv::BuiltIn::ViewportIndex => ir::BuiltinOut::ViewportIndex,
        other => ir::BuiltinOut::Other(other as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::dual_source_location;

    #[test]
    fn dual_source_index_one_takes_location_one() {
        assert_eq!(dual_source_location(Some(0), Some(1)), Ok(Some(1)));
        assert_eq!(dual_source_location(Some(0), Some(0)), Ok(Some(0)));
        assert_eq!(dual_source_location(Some(3), None), Ok(Some(3)));
        assert_eq!(dual_source_location(None, None), Ok(None));
        assert!(dual_source_location(Some(1), Some(1)).is_err());
        assert!(dual_source_location(Some(0), Some(2)).is_err());
    }
}
