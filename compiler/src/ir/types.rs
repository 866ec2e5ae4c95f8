//! Interned types that carry their memory layout.
//!
//! Layout is part of a type's identity: a `mat4` with `MatrixStride 16, RowMajor` and an
//! undecorated `mat4` intern to different [`TypeId`]s. A deref chain can therefore only change
//! layout through an explicit `cast`, which keeps alias reasoning and whole-struct copies between
//! layouts honest. `None` strides/offsets mean "no explicit layout": such types are laid out
//! with the natural (scalar-aligned) layout of [`super::layout`].

use rustc_hash::FxHashMap as HashMap;

/// Index into a shader's [`TypeTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Where a pointer points: decides which lowering pass owns its derefs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Function-local temporary.
    Function,
    /// Per-invocation global.
    Private,
    /// Shader input (location-based).
    Input,
    /// Shader output (location-based).
    Output,
    /// Push-constant block.
    PushConstant,
    /// Uniform buffer (UBO).
    Uniform,
    /// Storage buffer (SSBO).
    Storage,
    /// Workgroup-shared memory (LDS).
    Workgroup,
    /// Buffer-device-address memory (64-bit global pointers).
    Global,
    /// Image, sampler or combined handle.
    Handle,
    /// Built-in input such as `gl_GlobalInvocationID`.
    SystemValue,
}

impl Mode {
    /// Modes whose derefs `lower_explicit_io` turns into byte-offset memory intrinsics.
    pub fn is_explicit_io(self) -> bool {
        matches!(
            self,
            Mode::PushConstant | Mode::Uniform | Mode::Storage | Mode::Workgroup | Mode::Global
        )
    }

    /// Short printable name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Function => "function",
            Mode::Private => "private",
            Mode::Input => "in",
            Mode::Output => "out",
            Mode::PushConstant => "push",
            Mode::Uniform => "ubo",
            Mode::Storage => "ssbo",
            Mode::Workgroup => "shared",
            Mode::Global => "global",
            Mode::Handle => "handle",
            Mode::SystemValue => "sysval",
        }
    }
}

/// Image dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube.
    Cube,
    /// Texel buffer.
    Buffer,
}

/// A struct member with its optional byte offset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    /// Member type (already carrying matrix stride/row-major from member decorations).
    pub ty: TypeId,
    /// `Offset` decoration, if any.
    pub offset: Option<u32>,
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// No value.
    Void,
    /// Boolean (1-bit value; 32 bits in memory).
    Bool,
    /// Integer of `bits` width; signedness only matters for printing.
    Int { bits: u8, signed: bool },
    /// IEEE float of `bits` width.
    Float { bits: u8 },
    /// Vector; `stride` is set only for the column of a row-major matrix (a strided gather).
    Vector { elem: TypeId, count: u8, stride: Option<u32> },
    /// Column-major sequence of `columns` column vectors.
    Matrix { column: TypeId, columns: u8, stride: Option<u32>, row_major: bool },
    /// Fixed-size array.
    Array { elem: TypeId, len: u32, stride: Option<u32> },
    /// Runtime-sized array (last member of a storage block).
    RuntimeArray { elem: TypeId, stride: Option<u32> },
    /// Struct; `block` marks an interface block.
    Struct { members: Vec<Member>, block: bool },
    /// Pointer with the mode of its pointee and its `ArrayStride` for `ptr_as_array`.
    Pointer { pointee: TypeId, mode: Mode, stride: Option<u32> },
    /// Image handle. `subpass` marks a SPIR-V `SubpassData` image (an input attachment): it is
    /// addressed as a 2D array (`arrayed`) whose coordinates the front end derives from the
    /// fragment's position and view index, and it takes an input-attachment descriptor.
    Image {
        dim: ImageDim,
        arrayed: bool,
        ms: bool,
        storage: bool,
        subpass: bool,
        sampled_ty: TypeId,
    },
    /// Sampler handle.
    Sampler,
    /// Combined image/sampler handle.
    SampledImage { image: TypeId },
}

/// The interning table: one [`TypeId`] per distinct (layout-including) type.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: Vec<Type>,
    map: HashMap<Type, TypeId>,
}

impl TypeTable {
    /// Interns `ty`.
    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.map.get(&ty) {
            return id;
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.map.insert(ty, id);
        id
    }

    /// Reserves an id for a recursive type (buffer references to structs containing
    /// themselves); it must be given its definition with [`TypeTable::define`].
    pub fn reserve(&mut self) -> TypeId {
        let id = TypeId(self.types.len() as u32);
        self.types.push(Type::Void);
        id
    }

    /// Defines a reserved id; later interning of the same type returns it.
    pub fn define(&mut self, id: TypeId, ty: Type) {
        self.types[id.0 as usize] = ty.clone();
        self.map.insert(ty, id);
    }

    /// The type behind `id`.
    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id.0 as usize]
    }

    /// Number of types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// True when no type is interned.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// Convenience constructors.
    pub fn uint(&mut self, bits: u8) -> TypeId {
        self.intern(Type::Int { bits, signed: false })
    }

    /// `bool`.
    pub fn bool(&mut self) -> TypeId {
        self.intern(Type::Bool)
    }

    /// Unstrided vector.
    pub fn vector(&mut self, elem: TypeId, count: u8) -> TypeId {
        self.intern(Type::Vector { elem, count, stride: None })
    }

    /// Pointer to `pointee` in `mode`.
    pub fn pointer(&mut self, pointee: TypeId, mode: Mode, stride: Option<u32>) -> TypeId {
        self.intern(Type::Pointer { pointee, mode, stride })
    }

    /// (bit size, component count) of a scalar or vector type; bool is 1 bit; pointers are
    /// reported as 64-bit scalars (their size in memory).
    pub fn value_shape(&self, id: TypeId) -> Option<(u8, u8)> {
        match self.get(id) {
            Type::Bool => Some((1, 1)),
            Type::Int { bits, .. } | Type::Float { bits } => Some((*bits, 1)),
            Type::Vector { elem, count, .. } => self.value_shape(*elem).map(|(b, _)| (b, *count)),
            Type::Pointer { .. } => Some((64, 1)),
            _ => None,
        }
    }

    /// Element/member type reached by indexing `id` with constant `i` (deref result type).
    pub fn child(&mut self, id: TypeId, i: u32) -> Option<TypeId> {
        match self.get(id).clone() {
            Type::Struct { members, .. } => members.get(i as usize).map(|m| m.ty),
            Type::Array { elem, .. } | Type::RuntimeArray { elem, .. } => Some(elem),
            Type::Vector { elem, .. } => Some(elem),
            Type::Matrix { column, stride, row_major, .. } => {
                let Some(stride) = stride.filter(|_| row_major) else { return Some(column) };
                let Type::Vector { elem, count, .. } = *self.get(column) else { return None };
                Some(self.intern(Type::Vector { elem, count, stride: Some(stride) }))
            }
            _ => None,
        }
    }

    /// The same type with the matrix layout of a struct member applied to the matrix found
    /// under any number of array levels (SPIR-V puts it on the member, we put it on the type).
    pub fn with_matrix_layout(
        &mut self,
        id: TypeId,
        stride: Option<u32>,
        row_major: bool,
    ) -> TypeId {
        match self.get(id).clone() {
            Type::Matrix { column, columns, .. } => {
                self.intern(Type::Matrix { column, columns, stride, row_major })
            }
            Type::Array { elem, len, stride: s } => {
                let elem = self.with_matrix_layout(elem, stride, row_major);
                self.intern(Type::Array { elem, len, stride: s })
            }
            Type::RuntimeArray { elem, stride: s } => {
                let elem = self.with_matrix_layout(elem, stride, row_major);
                self.intern(Type::RuntimeArray { elem, stride: s })
            }
            _ => id,
        }
    }

    /// Printable name of a type.
    pub fn name(&self, id: TypeId) -> String {
        self.name_at(id, 0)
    }

    /// Name with a nesting guard: pointer types may refer to themselves.
    fn name_at(&self, id: TypeId, depth: u32) -> String {
        if depth > 16 {
            return format!("T{}", id.0);
        }
        let name = |t: TypeId| self.name_at(t, depth + 1);
        match self.get(id) {
            Type::Void => "void".into(),
            Type::Bool => "bool".into(),
            Type::Int { bits, signed } => format!("{}{bits}", if *signed { "i" } else { "u" }),
            Type::Float { bits } => format!("f{bits}"),
            Type::Vector { elem, count, stride } => match stride {
                Some(s) => format!("{}x{count}/stride{s}", name(*elem)),
                None => format!("{}x{count}", name(*elem)),
            },
            Type::Matrix { column, columns, stride, row_major } => {
                let mut s = format!("mat{columns}<{}>", name(*column));
                if let Some(st) = stride {
                    s += &format!(" stride{st}");
                }
                if *row_major {
                    s += " row_major";
                }
                format!("({s})")
            }
            Type::Array { elem, len, stride } => match stride {
                Some(s) => format!("{}[{len}]/stride{s}", name(*elem)),
                None => format!("{}[{len}]", name(*elem)),
            },
            Type::RuntimeArray { elem, stride } => match stride {
                Some(s) => format!("{}[]/stride{s}", name(*elem)),
                None => format!("{}[]", name(*elem)),
            },
            Type::Struct { .. } => format!("T{}", id.0),
            Type::Pointer { pointee, mode, stride } => {
                let p = match self.get(*pointee) {
                    Type::Struct { .. } => format!("T{}", pointee.0),
                    _ => name(*pointee),
                };
                match stride {
                    Some(s) => format!("{}*{p}/stride{s}", mode.name()),
                    None => format!("{}*{p}", mode.name()),
                }
            }
            Type::Image { dim, arrayed, ms, storage, subpass, .. } => format!(
                "image{dim:?}{}{}{}{}",
                if *arrayed { "Array" } else { "" },
                if *ms { "MS" } else { "" },
                if *storage { "Storage" } else { "" },
                if *subpass { "Subpass" } else { "" }
            ),
            Type::Sampler => "sampler".into(),
            Type::SampledImage { image } => format!("sampled<{}>", name(*image)),
        }
    }

    /// Multi-line description of every struct type, for the IR printer's header.
    pub fn struct_decls(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, t) in self.types.iter().enumerate() {
            if let Type::Struct { members, block } = t {
                let ms: Vec<String> = members
                    .iter()
                    .map(|m| match m.offset {
                        Some(o) => format!("@{o} {}", self.name(m.ty)),
                        None => self.name(m.ty),
                    })
                    .collect();
                let b = if *block { "block " } else { "" };
                out.push(format!("T{i} = {b}struct {{ {} }}", ms.join(", ")));
            }
        }
        out
    }
}
