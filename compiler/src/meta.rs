//! Building compute kernels in code, for the driver's internal (meta) operations: copies
//! between images and buffers, clears, blits. Like RADV's meta shaders written with
//! `nir_builder`, a kernel is IR made directly, then lowered, optimized and compiled by the
//! same passes and backend as application shaders ([`compile`]).
//!
//! The builder works at the level after `lower_explicit_io` and `lower_image_handles`:
//! descriptors are `(set, binding)[index]` resource indices, buffers are addressed by byte
//! offset, push constants by byte offset, and image instructions take the descriptor index
//! directly. So a kernel needs no types or variables, and the pipeline layout it is compiled
//! against ([`crate::amd::ResourceLayout`]) says what kind of descriptor each binding holds.
//! Control flow is structured: [`KernelBuilder::if_then`] builds a selection construct.

use crate::amd::{self, Binary, ResourceLayout, ShaderError};
use crate::ir::{
    AluOp, BlockId, Builder, FuncId, Function, ImageInst, ImageOp, ImageShape, ImageSrcs, Inst,
    InstKind, Merge, Shader, Space, Stage, SysVal, Terminator, TypeTable, Value, ValueType,
};

/// Builds one compute kernel.
pub struct KernelBuilder {
    shader: Shader,
    block: BlockId,
}

impl KernelBuilder {
    /// An empty kernel with this workgroup size.
    pub fn new(name: &str, workgroup_size: [u32; 3]) -> Self {
        let shader = Shader {
            stage: Stage::Compute,
            types: TypeTable::default(),
            vars: Vec::new(),
            funcs: vec![Function::new(name)],
            entry: FuncId(0),
            workgroup_size,
            shared_size: 0,
            scratch_size: 0,
            frag_modes: Vec::new(),
            early_fragment_tests: false,
            float_controls: Default::default(),
            constant_data: Vec::new(),
        };
        KernelBuilder { shader, block: BlockId(0) }
    }

    fn b(&mut self) -> Builder<'_> {
        Builder::new(&mut self.shader.funcs[0], self.block)
    }

    /// Emits `kind` with a result of `bits × comps`.
    pub fn emit(&mut self, kind: InstKind, bits: u8, comps: u8) -> Value {
        self.b().emit(kind, ValueType::data(bits, comps))
    }

    /// A 32-bit constant.
    pub fn imm(&mut self, v: u32) -> Value {
        self.b().imm32(v)
    }

    /// A 32-bit constant vector.
    pub fn imm_vec(&mut self, v: &[u32]) -> Value {
        self.b().constant(32, v.iter().map(|&x| u64::from(x)).collect())
    }

    /// An ALU operation with a `bits × comps` result.
    pub fn alu(&mut self, op: AluOp, bits: u8, comps: u8, srcs: &[Value]) -> Value {
        self.b().alu(op, bits, comps, srcs.to_vec())
    }

    /// A 32-bit ALU operation shaped like its first source.
    pub fn op(&mut self, op: AluOp, srcs: &[Value]) -> Value {
        let comps = self.shader.funcs[0].ty(srcs[0]).shape().1;
        self.alu(op, 32, comps, srcs)
    }

    /// A boolean comparison of two 32-bit scalars.
    pub fn cmp(&mut self, op: AluOp, a: Value, b: Value) -> Value {
        self.alu(op, 1, 1, &[a, b])
    }

    /// Component `i` of `v`.
    pub fn component(&mut self, v: Value, i: u32) -> Value {
        self.b().channel(v, i)
    }

    /// A vector of 32-bit scalars.
    pub fn vec(&mut self, comps: &[Value]) -> Value {
        self.alu(AluOp::Vec, 32, comps.len() as u8, comps)
    }

    /// The invocation's global id (`u32x3`).
    pub fn global_id(&mut self) -> Value {
        let wg = self.emit(InstKind::SysVal(SysVal::WorkgroupId), 32, 3);
        let local = self.emit(InstKind::SysVal(SysVal::LocalInvocationId), 32, 3);
        let size = self.imm_vec(&self.shader.workgroup_size.clone());
        let base = self.alu(AluOp::Imul, 32, 3, &[wg, size]);
        self.alu(AluOp::Iadd, 32, 3, &[base, local])
    }

    /// `comps` dwords of push constants at byte `offset`.
    pub fn push_constants(&mut self, offset: u32, comps: u8) -> Value {
        let addr = self.imm(offset);
        self.emit(InstKind::MemLoad { space: Space::Push, addr, align: 4 }, 32, comps)
    }

    /// The descriptor index of `(set, binding)[index]` (element 0 without `index`).
    pub fn descriptor(&mut self, set: u32, binding: u32, index: Option<Value>) -> Value {
        let index = match index {
            Some(i) => i,
            None => self.imm(0),
        };
        self.emit(InstKind::ResourceIndex { set, binding, index }, 32, 1)
    }

    fn buffer_addr(&mut self, desc: Value, byte_offset: Value) -> Value {
        self.vec(&[desc, byte_offset])
    }

    /// Loads `comps` dwords from a storage or uniform buffer descriptor at `byte_offset`
    /// (dword aligned).
    pub fn buffer_load(&mut self, desc: Value, byte_offset: Value, comps: u8) -> Value {
        let addr = self.buffer_addr(desc, byte_offset);
        self.emit(InstKind::MemLoad { space: Space::Buffer, addr, align: 4 }, 32, comps)
    }

    /// Stores the 32-bit components of `value` to a storage buffer at `byte_offset`.
    pub fn buffer_store(&mut self, desc: Value, byte_offset: Value, value: Value) {
        let addr = self.buffer_addr(desc, byte_offset);
        self.b().emit_void(InstKind::MemStore { space: Space::Buffer, addr, value, align: 4 });
    }

    fn image(&mut self, op: ImageOp, shape: ImageShape, s: ImageSrcs, comps: u8) -> Value {
        let inst = ImageInst::from_sources(op, shape, &s).expect("every image call has a handle");
        self.emit(InstKind::Image(inst), 32, comps)
    }

    /// Reads the texel at integer `coord` of a storage image (four dwords: f32 bits for float
    /// formats, integers for integer ones).
    pub fn image_read(&mut self, desc: Value, shape: ImageShape, coord: Value) -> Value {
        let s = ImageSrcs { handle: Some(desc), coord: Some(coord), ..Default::default() };
        self.image(ImageOp::Read, shape, s, 4)
    }

    /// Writes four dwords to the texel at integer `coord` of a storage image.
    pub fn image_write(&mut self, desc: Value, shape: ImageShape, coord: Value, texel: Value) {
        let s = ImageSrcs {
            handle: Some(desc),
            coord: Some(coord),
            data: Some(texel),
            ..Default::default()
        };
        let inst = ImageInst::from_sources(ImageOp::Write, shape, &s).expect("has a handle");
        self.b().emit_void(InstKind::Image(inst));
    }

    /// Reads sample `sample` of the texel at integer `coord` of a multisampled storage image
    /// (`shape.ms`), as [`KernelBuilder::image_read`] reads single-sampled ones.
    pub fn image_read_sample(
        &mut self,
        desc: Value,
        shape: ImageShape,
        coord: Value,
        sample: Value,
    ) -> Value {
        let s = ImageSrcs {
            handle: Some(desc),
            coord: Some(coord),
            sample: Some(sample),
            ..Default::default()
        };
        self.image(ImageOp::Read, shape, s, 4)
    }

    /// Writes four dwords to sample `sample` of the texel at integer `coord` of a
    /// multisampled storage image (`shape.ms`).
    pub fn image_write_sample(
        &mut self,
        desc: Value,
        shape: ImageShape,
        coord: Value,
        sample: Value,
        texel: Value,
    ) {
        let s = ImageSrcs {
            handle: Some(desc),
            coord: Some(coord),
            sample: Some(sample),
            data: Some(texel),
            ..Default::default()
        };
        let inst = ImageInst::from_sources(ImageOp::Write, shape, &s).expect("has a handle");
        self.b().emit_void(InstKind::Image(inst));
    }

    /// Fetches sample `sample` of the texel at integer `coord` of a multisampled sampled
    /// image (`shape.ms`): the texel converted by the descriptor's format, as `texelFetch`.
    pub fn image_fetch_sample(
        &mut self,
        desc: Value,
        shape: ImageShape,
        coord: Value,
        sample: Value,
    ) -> Value {
        let s = ImageSrcs {
            handle: Some(desc),
            coord: Some(coord),
            sample: Some(sample),
            ..Default::default()
        };
        self.image(ImageOp::Fetch, shape, s, 4)
    }

    /// Fetches the texel at integer `coord` of level `lod` of a sampled image.
    pub fn image_fetch(
        &mut self,
        desc: Value,
        shape: ImageShape,
        coord: Value,
        lod: Value,
    ) -> Value {
        let s = ImageSrcs {
            handle: Some(desc),
            coord: Some(coord),
            lod: Some(lod),
            ..Default::default()
        };
        self.image(ImageOp::Fetch, shape, s, 4)
    }

    /// Samples at float `coord` and level `lod`; `sampler` is a separate sampler descriptor,
    /// or `None` when `desc` is a combined image/sampler.
    pub fn image_sample_lod(
        &mut self,
        desc: Value,
        sampler: Option<Value>,
        shape: ImageShape,
        coord: Value,
        lod: Value,
    ) -> Value {
        let handle = match sampler {
            Some(smp) => self.vec(&[desc, smp]),
            None => desc,
        };
        let s = ImageSrcs {
            handle: Some(handle),
            coord: Some(coord),
            lod: Some(lod),
            ..Default::default()
        };
        self.image(ImageOp::Sample, shape, s, 4)
    }

    /// Size of level `lod` (width, height, depth or layers as the shape has them).
    pub fn image_size(&mut self, desc: Value, shape: ImageShape, lod: Value) -> Value {
        let s = ImageSrcs { handle: Some(desc), lod: Some(lod), ..Default::default() };
        self.image(ImageOp::Size, shape, s, shape.size_comps())
    }

    /// Runs `body` only where the boolean `cond` is true (a structured selection).
    pub fn if_then(&mut self, cond: Value, body: impl FnOnce(&mut Self)) {
        let f = &mut self.shader.funcs[0];
        let then = f.new_block();
        let merge = f.new_block();
        let head = f.block_mut(self.block);
        head.term = Terminator::CondBranch { cond, then, els: merge };
        head.merge = Some(Merge::Selection(merge));
        self.block = then;
        body(self);
        self.shader.funcs[0].block_mut(self.block).term = Terminator::Branch(merge);
        self.block = merge;
    }

    /// The finished kernel (IR as the front end would produce, ready for
    /// [`crate::pipeline::lower_and_optimize`]).
    pub fn finish(mut self) -> Shader {
        self.shader.funcs[0].block_mut(self.block).term = Terminator::Return(Vec::new());
        self.shader
    }

    /// Appends a raw instruction (for operations the helpers above do not cover).
    pub fn insert(&mut self, inst: Inst) {
        self.b().insert(inst);
    }
}

/// Lowers, optimizes and compiles a built kernel against `layout`.
pub fn compile(kernel: Shader, layout: &ResourceLayout) -> Result<Binary, ShaderError> {
    let ir = crate::pipeline::lower_and_optimize(kernel)?;
    Ok(amd::compile(&ir, layout)?)
}
