//! Draws with compiled vertex and pixel shaders on the simulator's legacy graphics pipeline
//! (strict mode): the register state RADV programs for a non-NGG VS → PS draw
//! (pm4-gfx103.md §5.3), with every shader-dependent value taken from the compiler's
//! `abi::graphics` metadata, one linear 32_32_32_32_FLOAT colour target, DRAW_INDEX_AUTO.

use ferrum_compiler::amd::abi::graphics::{self as g, PsMetadata, VsMetadata};
use ferrum_compiler::amd::{GfxBinary, GfxMetadata};
use ferrum_regs::gfx103::{self as r, enums};
use ferrum_sim::SimConfig;
use ferrum_winsys::{
    Bo, BoDesc, BoFlags, CpuMapping, Device, Domain, Ib, Ip, Priority, Submission, VaFlags,
};

pub struct Mem {
    pub bo: Bo,
    pub map: CpuMapping,
    pub va: u64,
}

fn mem(dev: &Device, size: u64) -> Mem {
    let size = size.max(4096).next_multiple_of(4096);
    let desc = BoDesc { size, alignment: 4096, domain: Domain::Gtt, flags: BoFlags::CPU_ACCESS };
    let bo = dev.create_bo(&desc).unwrap();
    let map = bo.map().unwrap();
    let va = dev.alloc_va(bo.size(), 1 << 16).unwrap();
    dev.map_va(&bo, va, 0, bo.size(), VaFlags::READ | VaFlags::WRITE | VaFlags::EXECUTE).unwrap();
    Mem { bo, map, va }
}

fn packet(out: &mut Vec<u32>, op: u32, body: &[u32]) {
    out.push(0xc000_0000 | ((body.len() as u32 - 1) << 16) | (op << 8));
    out.extend_from_slice(body);
}

fn set(out: &mut Vec<u32>, addr: u32, values: &[u32]) {
    let (op, base) = match addr {
        0xb000..=0xbfff => (0x76, 0xb000),    // SET_SH_REG
        0x28000..=0x2ffff => (0x69, 0x28000), // SET_CONTEXT_REG
        _ => (0x79, 0x30000),                 // SET_UCONFIG_REG
    };
    let mut body = vec![(addr - base) / 4];
    body.extend_from_slice(values);
    packet(out, op, &body);
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// A W x H draw target.
pub const W: u32 = 100;
pub const H: u32 = 100;

/// One vertex-input table entry: a structured V# over the draw's vertex data.
#[derive(Clone, Copy, Debug)]
pub struct VertexInput {
    /// Byte offset of element 0 in [`DrawSetup::data`].
    pub offset: u32,
    /// V# STRIDE.
    pub stride: u32,
    /// V# NUM_RECORDS (elements; OOB_SELECT 1 = structured index check).
    pub num_records: u32,
    /// V# FORMAT (GFX10_FORMAT).
    pub format: u32,
    /// V# DST_SEL_X..W (SQ_SEL: 0 = 0, 1 = 1, 4..7 = X..W).
    pub dst_sel: [u32; 4],
}

impl VertexInput {
    /// The V# for a buffer at `va`.
    fn vsharp(&self, va: u64) -> [u32; 4] {
        let base = va + u64::from(self.offset);
        let sel = self.dst_sel.iter().enumerate().fold(0, |a, (i, &s)| a | s << (3 * i));
        // RESOURCE_LEVEL = 1, OOB_SELECT = 1 (structured), TYPE = 0 (descriptors-gfx103 §1).
        let word3 = sel | self.format << 12 | 1 << 24 | 1 << 28;
        [base as u32, (base >> 32) as u32 & 0xffff | self.stride << 16, self.num_records, word3]
    }
}

/// A non-indexed draw with vertex inputs.
#[derive(Clone, Debug, Default)]
pub struct DrawSetup {
    pub vertices: u32,
    pub instances: u32,
    pub first_vertex: u32,
    pub first_instance: u32,
    /// Vertex buffer contents.
    pub data: Vec<u8>,
    /// Vertex-input table (index = location).
    pub inputs: Vec<VertexInput>,
    /// A linear Z_32_FLOAT depth target cleared to 1.0, test LESS with writes.
    pub depth: bool,
    /// A point list instead of a triangle list.
    pub points: bool,
    /// A combined image/sampler in descriptor set 0.
    pub texture: Option<Texture>,
    /// Samples per pixel (0 or 1: single-sampled). Multisampled draws render to an
    /// R_64KB_X target (the swizzle mode with MSAA layouts), Vulkan's standard sample
    /// locations, centroid priority in sample order.
    pub samples: u32,
    /// Sample shading: one PS invocation per covered sample (DB_EQAA.PS_ITER_SAMPLES, as
    /// minSampleShading 1.0 asks), whatever the shader reads.
    pub sample_shading: bool,
}

/// A single-level 2D linear 32_32_32_32_FLOAT texture and its sampler, written into set 0.
#[derive(Clone, Debug)]
pub struct Texture {
    pub width: u32,
    pub height: u32,
    /// Row-major texels.
    pub texels: Vec<[f32; 4]>,
    /// The S# (descriptors-gfx103.md).
    pub ssharp: [u32; 4],
    /// Byte offset of the binding's descriptor in set 0 (the compiler's layout).
    pub offset: u32,
    /// A one-layer 2D array T# (TYPE 13), as input attachments are described, instead of 2D.
    pub arrayed: bool,
}

impl Texture {
    /// Rows aligned to 256 bytes (16 texels).
    fn pitch(&self) -> u32 {
        self.width.next_multiple_of(16)
    }

    /// T#: BASE_ADDRESS, FORMAT 77 (32_32_32_32_FLOAT), WIDTH/HEIGHT - 1, DST_SEL XYZW,
    /// TYPE 9 (2D) or 13 (2D array, DEPTH = last layer 0), SW_LINEAR, one level
    /// (descriptors-gfx103.md §2).
    fn tsharp(&self, va: u64) -> [u32; 8] {
        let (w, h) = (self.width - 1, self.height - 1);
        let ty = if self.arrayed { 13 } else { 9 };
        let sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
        [
            (va >> 8) as u32,
            (va >> 40) as u32 & 0xff | 77 << 20 | (w & 3) << 30,
            (w >> 2) | h << 14 | 1 << 31,
            sel | ty << 28,
            0,
            4 << 20,
            0,
            0,
        ]
    }

    /// Writes the texels and set 0 (T#, then the S# 32 bytes on); returns the memory.
    fn place(&self, dev: &Device, set0: &Mem) -> Mem {
        let m = mem(dev, u64::from(self.pitch() * self.height * 16));
        for y in 0..self.height {
            let row: Vec<u32> = (0..self.width)
                .flat_map(|x| self.texels[(y * self.width + x) as usize].map(f32::to_bits))
                .collect();
            m.map.write_u32s((y * self.pitch() * 16) as usize, &row).unwrap();
        }
        let at = self.offset as usize;
        set0.map.write_u32s(at, &self.tsharp(m.va)).unwrap();
        set0.map.write_u32s(at + 32, &self.ssharp).unwrap();
        m
    }
}

/// Pitch (elements) of the linear depth target: rows aligned to 256 bytes (addrlib's
/// linear alignment on GFX10).
pub const DEPTH_PITCH: u32 = W.div_ceil(64) * 64;

/// Draws `vertices` x `instances` as a triangle list; returns the colour target's texels
/// (row-major RGBA f32) or the fault.
pub fn draw(
    vs: &GfxBinary,
    ps: &GfxBinary,
    vertices: u32,
    instances: u32,
) -> Result<Vec<[f32; 4]>, String> {
    draw_with(vs, ps, &DrawSetup { vertices, instances, ..Default::default() })
}

/// Draws as `setup` says (DRAW_INDEX_AUTO, so `v0` counts from 0 and the base vertex comes
/// from the user SGPR).
pub fn draw_with(
    vs: &GfxBinary,
    ps: &GfxBinary,
    setup: &DrawSetup,
) -> Result<Vec<[f32; 4]>, String> {
    draw_full(vs, ps, setup).map(|d| d.0)
}

/// Colour texels and, when there is a depth target, its values.
pub type Drawn = (Vec<[f32; 4]>, Option<Vec<f32>>);

/// [`draw_with`], also returning the depth target (row-major W x H) when there is one.
pub fn draw_full(vs: &GfxBinary, ps: &GfxBinary, setup: &DrawSetup) -> Result<Drawn, String> {
    let (samples, depth) = draw_samples(vs, ps, setup)?;
    Ok((samples.into_iter().map(|p| p[0]).collect(), depth))
}

/// Colour texels per pixel (row-major W x H), one per sample, and the depth target.
pub type DrawnSamples = (Vec<Vec<[f32; 4]>>, Option<Vec<f32>>);

/// [`draw_full`] with every sample of every pixel ([`DrawSetup::samples`]).
pub fn draw_samples(
    vs: &GfxBinary,
    ps: &GfxBinary,
    setup: &DrawSetup,
) -> Result<DrawnSamples, String> {
    let (GfxMetadata::Vertex(vm), GfxMetadata::Fragment(pm)) = (&vs.metadata, &ps.metadata) else {
        return Err("need a vertex and a fragment binary".into());
    };
    let kernel = ferrum_sim::open(SimConfig {
        strict: true,
        // Counted, so a loaded host never cuts a legitimate shader short; far beyond what
        // any corpus program runs, and reached in well under the fence waits below.
        wave_budget: 1 << 28,
        threads: 1,
        host_memory_limit: 256 << 20,
        ..Default::default()
    });
    let dev = Device::from_kernel(kernel.clone()).unwrap();
    let vcode = mem(&dev, vs.code.len() as u64);
    vcode.map.write(0, &vs.code).unwrap();
    let pcode = mem(&dev, ps.code.len() as u64);
    pcode.map.write(0, &ps.code).unwrap();
    let pitch = W.div_ceil(16) * 16;
    let samples = setup.samples.max(1);
    let layout = (samples > 1).then(|| msaa_layout(samples)).transpose()?;
    let color = mem(&dev, layout.as_ref().map_or(u64::from(pitch * H * 16), |l| l.size));
    let table = mem(&dev, 4096);
    let set0 = mem(&dev, 4096);
    table.map.write(0, &set0.va.to_le_bytes()).unwrap();
    let tex = setup.texture.as_ref().map(|t| t.place(&dev, &set0));
    let vdata = mem(&dev, setup.data.len() as u64);
    vdata.map.write(0, &setup.data).unwrap();
    let vtable = mem(&dev, 16 * setup.inputs.len() as u64);
    let words: Vec<u32> = setup.inputs.iter().flat_map(|i| i.vsharp(vdata.va)).collect();
    vtable.map.write_u32s(0, &words).unwrap();
    let zbuf = mem(&dev, u64::from(DEPTH_PITCH * H * 4));
    let ones = vec![1f32.to_bits(); (DEPTH_PITCH * H) as usize];
    zbuf.map.write_u32s(0, &ones).unwrap();
    let mut pm4 = Vec::new();
    vs_state(&mut pm4, vm, vcode.va, table.va);
    let prim = if setup.points {
        enums::VGT_DI_PRIM_TYPE::DI_PT_POINTLIST
    } else {
        enums::VGT_DI_PRIM_TYPE::DI_PT_TRILIST
    };
    packet(&mut pm4, 0x7a, &[0x1000_0242, prim]);
    // Vertex-input table, base vertex, base instance, draw index 0, view index 0.
    let draw_params = [
        vtable.va as u32,
        (vtable.va >> 32) as u32,
        setup.first_vertex,
        setup.first_instance,
        0,
        0,
    ];
    set(&mut pm4, r::SPI_SHADER_USER_DATA_VS_0 + 4 * g::VS_USER_DATA_VERTEX_INPUTS, &draw_params);
    ps_state(&mut pm4, vm, pm, pcode.va, table.va, color.va);
    if samples > 1 {
        msaa_state(&mut pm4, samples, setup.sample_shading || pm.per_sample());
    }
    if setup.depth {
        depth_state(&mut pm4, zbuf.va);
    }
    // One scratch ring for both stages, its address after each stage's user SGPRs.
    let (tmpring, ring_bytes) =
        g::gfx_tmpring_size([vm.scratch_bytes_per_lane, pm.scratch_bytes_per_lane]);
    let ring = (ring_bytes > 0).then(|| mem(&dev, ring_bytes));
    if let Some(ring) = &ring {
        set(&mut pm4, r::SPI_TMPRING_SIZE, &[tmpring]);
        let addr = [ring.va as u32, (ring.va >> 32) as u32];
        if let Some(at) = vm.user_sgprs().scratch_ring() {
            set(&mut pm4, r::SPI_SHADER_USER_DATA_VS_0 + 4 * u32::from(at), &addr);
        }
        if let Some(at) = pm.user_sgprs().scratch_ring() {
            set(&mut pm4, r::SPI_SHADER_USER_DATA_PS_0 + 4 * u32::from(at), &addr);
        }
    }
    packet(&mut pm4, 0x2f, &[setup.instances]); // NUM_INSTANCES
    packet(&mut pm4, 0x2d, &[setup.vertices, 2]); // DRAW_INDEX_AUTO, auto-index source
    let ib = mem(&dev, (pm4.len() * 4) as u64);
    ib.map.write_u32s(0, &pm4).unwrap();
    let mut handles: Vec<u32> =
        [&vcode, &pcode, &color, &table, &vdata, &vtable, &zbuf, &ib, &set0]
            .iter()
            .map(|m| m.bo.handle())
            .collect();
    handles.extend(tex.iter().chain(&ring).map(|m| m.bo.handle()));
    let ctx = dev.create_context(Priority::Normal).unwrap();
    let ibs = [Ib { va: ib.va, size_dw: pm4.len() as u32, flags: 0 }];
    let fence = ctx.submit(&Submission::new(Ip::Gfx, &ibs, &handles)).map_err(|e| e.to_string())?;
    match ctx.wait(fence, Some(super::gpu::WALL_CLOCK_LIMIT)) {
        Ok(true) => {}
        other => return Err(format!("draw failed: {other:?}")),
    }
    let mut out = Vec::with_capacity((W * H) as usize);
    match &layout {
        None => {
            let words = color.map.read_u32s(0, (pitch * H * 4) as usize).unwrap();
            for y in 0..H {
                for x in 0..W {
                    let o = ((y * pitch + x) * 4) as usize;
                    out.push(vec![core::array::from_fn(|c| f32::from_bits(words[o + c]))]);
                }
            }
        }
        Some(l) => {
            let words = color.map.read_u32s(0, (l.size / 4) as usize).unwrap();
            for y in 0..H {
                for x in 0..W {
                    let texel = |s| {
                        let o = (l.offset(x, y, 0, 0, s) / 4) as usize;
                        core::array::from_fn(|c| f32::from_bits(words[o + c]))
                    };
                    out.push((0..samples).map(texel).collect());
                }
            }
        }
    }
    let depth = setup.depth.then(|| {
        let z = zbuf.map.read_u32s(0, (DEPTH_PITCH * H) as usize).unwrap();
        (0..H * W).map(|i| f32::from_bits(z[(i / W * DEPTH_PITCH + i % W) as usize])).collect()
    });
    Ok((out, depth))
}

/// A linear Z_32_FLOAT depth target at `va`, depth test LESS with writes.
fn depth_state(out: &mut Vec<u32>, va: u64) {
    use r::DB_DEPTH_CONTROL as D;
    let ctl = D::Z_ENABLE.val(1) | D::Z_WRITE_ENABLE.val(1) | D::ZFUNC.val(1);
    set(out, r::DB_DEPTH_CONTROL, &[ctl]);
    set(out, r::DB_Z_INFO, &[r::DB_Z_INFO::FORMAT.val(3)]);
    set(out, r::DB_STENCIL_INFO, &[0]);
    set(out, r::DB_DEPTH_VIEW, &[0]);
    let size = r::DB_DEPTH_SIZE_XY::X_MAX.val(W - 1) | r::DB_DEPTH_SIZE_XY::Y_MAX.val(H - 1);
    set(out, r::DB_DEPTH_SIZE_XY, &[size]);
    set(out, r::DB_Z_READ_BASE, &[(va >> 8) as u32]);
    set(out, r::DB_Z_WRITE_BASE, &[(va >> 8) as u32]);
    set(out, r::DB_Z_READ_BASE_HI, &[(va >> 40) as u32]);
    set(out, r::DB_Z_WRITE_BASE_HI, &[(va >> 40) as u32]);
}

fn vs_state(out: &mut Vec<u32>, vm: &VsMetadata, code: u64, table: u64) {
    use r::VGT_SHADER_STAGES_EN as S;
    set(out, r::VGT_SHADER_STAGES_EN, &[S::VS_W32_EN.val(1) | S::MAX_PRIMGRP_IN_WAVE.val(2)]);
    set(out, r::VGT_GS_MODE, &[0]);
    set(
        out,
        r::SPI_SHADER_PGM_LO_VS,
        &[(code >> 8) as u32, (code >> 40) as u32, vm.rsrc1, vm.rsrc2],
    );
    // Set table and push block (both unused here: an empty table).
    set(
        out,
        r::SPI_SHADER_USER_DATA_VS_0,
        &[table as u32, (table >> 32) as u32, table as u32, (table >> 32) as u32],
    );
    set(out, r::SPI_SHADER_POS_FORMAT, &[vm.pos_format]);
    set(out, r::SPI_VS_OUT_CONFIG, &[vm.vs_out_config]);
    set(out, r::PA_CL_VS_OUT_CNTL, &[vm.pa_cl_vs_out_cntl]);
    set(out, r::PA_CL_CLIP_CNTL, &[r::PA_CL_CLIP_CNTL::DX_CLIP_SPACE_DEF.val(1)]);
    set(out, r::PA_SU_SC_MODE_CNTL, &[0]);
    set(out, r::PA_CL_VTE_CNTL, &[0x43f]);
    set(out, r::PA_CL_GB_VERT_CLIP_ADJ, &[f(1.0); 4]);
    let (w, h) = (W as f32, H as f32);
    set(
        out,
        r::PA_CL_VPORT_XSCALE,
        &[f(w / 2.0), f(w / 2.0), f(h / 2.0), f(h / 2.0), f(1.0), f(0.0)],
    );
    set(out, r::PA_SU_POINT_SIZE, &[8 << 4 | 8 << 20]);
    set(out, r::PA_SU_POINT_MINMAX, &[0xffff << 16]);
    set(out, r::PA_SU_LINE_CNTL, &[8]);
    set(out, r::PA_CL_UCP_0_X, &[0; 24]);
    set(out, r::GE_INDX_OFFSET, &[0]);
    set(out, r::GE_MIN_VTX_INDX, &[0]);
    set(out, r::GE_MAX_VTX_INDX, &[u32::MAX]);
    set(out, r::GE_MULTI_PRIM_IB_RESET_EN, &[0]);
    set(out, r::VGT_MULTI_PRIM_IB_RESET_INDX, &[u32::MAX]);
    packet(out, 0x7a, &[0x2000_0243, enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_16]);
}

fn ps_state(
    out: &mut Vec<u32>,
    vm: &VsMetadata,
    pm: &PsMetadata,
    code: u64,
    table: u64,
    color: u64,
) {
    let full = W | H << 16;
    set(out, r::PA_SC_SCREEN_SCISSOR_TL, &[0, full]);
    set(out, r::PA_SC_WINDOW_SCISSOR_TL, &[0, full]);
    set(out, r::PA_SC_GENERIC_SCISSOR_TL, &[0, full]);
    set(out, r::PA_SC_VPORT_SCISSOR_0_TL, &[0, full]);
    set(out, r::PA_SC_VPORT_ZMIN_0, &[f(0.0), f(1.0)]);
    set(
        out,
        r::PA_SU_VTX_CNTL,
        &[r::PA_SU_VTX_CNTL::PIX_CENTER.val(1)
            | r::PA_SU_VTX_CNTL::ROUND_MODE.val(2)
            | r::PA_SU_VTX_CNTL::QUANT_MODE.val(5)],
    );
    for reg in [
        r::PA_SC_WINDOW_OFFSET,
        r::PA_SC_MODE_CNTL_0,
        r::PA_SC_AA_CONFIG,
        r::SPI_BARYC_CNTL,
        r::DB_DEPTH_CONTROL,
        r::CB_COLOR0_VIEW,
        r::CB_COLOR0_ATTRIB,
        r::CB_COLOR0_ATTRIB3,
        r::CB_BLEND0_CONTROL,
    ] {
        set(out, reg, &[0]);
    }
    set(out, r::PA_SC_AA_MASK_X0Y0_X1Y0, &[u32::MAX, u32::MAX]);
    set(
        out,
        r::SPI_SHADER_PGM_LO_PS,
        &[(code >> 8) as u32, (code >> 40) as u32, pm.rsrc1, pm.rsrc2],
    );
    set(
        out,
        r::SPI_SHADER_USER_DATA_PS_0,
        // Set table, push block, view index 0.
        &[table as u32, (table >> 32) as u32, table as u32, (table >> 32) as u32, 0],
    );
    set(out, r::SPI_PS_INPUT_ENA, &[pm.input_ena, pm.input_ena]);
    set(out, r::SPI_PS_IN_CONTROL, &[pm.ps_in_control]);
    let cntl = g::ps_input_cntl(vm, pm);
    if !cntl.is_empty() {
        set(out, r::SPI_PS_INPUT_CNTL_0, &cntl);
    }
    set(out, r::DB_SHADER_CONTROL, &[pm.db_shader_control]);
    set(out, r::SPI_SHADER_COL_FORMAT, &[pm.col_format]);
    set(out, r::SPI_SHADER_Z_FORMAT, &[pm.z_format]);
    set(out, r::CB_SHADER_MASK, &[pm.cb_shader_mask]);
    set(out, r::CB_TARGET_MASK, &[0xf]);
    set(
        out,
        r::CB_COLOR_CONTROL,
        &[r::CB_COLOR_CONTROL::MODE.val(1) | r::CB_COLOR_CONTROL::ROP3.val(0xcc)],
    );
    set(out, r::CB_COLOR0_BASE, &[(color >> 8) as u32]);
    set(out, r::CB_COLOR0_BASE_EXT, &[(color >> 40) as u32]);
    use r::CB_COLOR0_INFO as I;
    set(out, r::CB_COLOR0_INFO, &[I::FORMAT.val(14) | I::NUMBER_TYPE.val(7)]);
    use r::CB_COLOR0_ATTRIB2 as A;
    set(out, r::CB_COLOR0_ATTRIB2, &[A::MIP0_WIDTH.val(W - 1) | A::MIP0_HEIGHT.val(H - 1)]);
}

/// The layout of the multisampled 32_32_32_32 colour target, from the simulator's
/// implementation of addrlib's equations (R_64KB_X, the mode RADV and our driver give
/// multisampled colour images).
fn msaa_layout(samples: u32) -> Result<ferrum_sim::tex::surface::Layout, String> {
    use ferrum_sim::tex::surface::{Dim, SurfaceDesc};
    let desc = SurfaceDesc {
        sw_mode: R_64KB_X,
        dim: Dim::D2,
        bpe_log2: 4,
        width: W,
        height: H,
        slices: 1,
        mips: 1,
        samples_log2: samples.trailing_zeros(),
        pitch: None,
        pipe_bank_xor: 0,
    };
    desc.layout().map_err(|e| e.0)
}

/// SW_64KB_R_X (the register database's SwizzleMode enumeration).
const R_64KB_X: u32 = 27;

/// The multisample registers for `samples` (2, 4, 8) as the driver's multisample state
/// programs them (PA_SC_AA_CONFIG, sample locations, DB_EQAA), except the centroid priority:
/// sample order, the choice the interpreter makes (Vulkan lets the centroid be any covered
/// sample); the colour target's sample count and swizzle mode.
fn msaa_state(out: &mut Vec<u32>, samples: u32, per_sample: bool) {
    let log2 = samples.trailing_zeros();
    let offs = g::standard_sample_locations(samples);
    set(out, r::PA_SC_MODE_CNTL_0, &[r::PA_SC_MODE_CNTL_0::MSAA_ENABLE.val(1)]);
    let max_dist = offs.iter().map(|&(x, y)| (x - 8).abs().max((y - 8).abs())).max().unwrap_or(0);
    use r::PA_SC_AA_CONFIG as A;
    let aa = A::MSAA_NUM_SAMPLES.val(log2)
        | A::MAX_SAMPLE_DIST.val(max_dist as u32)
        | A::MSAA_EXPOSED_SAMPLES.val(log2)
        | A::COVERED_CENTROID_IS_CENTER.val(1);
    set(out, r::PA_SC_AA_CONFIG, &[aa]);
    // Signed 1/16-pixel offsets from the centre, S_X in bits 8k..8k+3 and S_Y above, the same
    // for the quad's four pixels.
    let mut words = [0u32; 4];
    for (s, &(x, y)) in offs.iter().enumerate() {
        let (dx, dy) = ((x - 8) as u32 & 0xf, (y - 8) as u32 & 0xf);
        words[s / 4] |= (dx | dy << 4) << (8 * (s % 4));
    }
    for pixel in 0..4u32 {
        set(out, r::PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 16 * pixel, &words);
    }
    let mut prio = [0u32; 2];
    for i in 0..16u32 {
        prio[(i / 8) as usize] |= (i % samples) << (4 * (i % 8));
    }
    set(out, r::PA_SC_CENTROID_PRIORITY_0, &prio);
    let iter = if per_sample { log2 } else { 0 };
    use r::DB_EQAA as E;
    let eqaa = E::MAX_ANCHOR_SAMPLES.val(log2)
        | E::PS_ITER_SAMPLES.val(iter)
        | E::MASK_EXPORT_NUM_SAMPLES.val(log2)
        | E::ALPHA_TO_MASK_NUM_SAMPLES.val(log2)
        | E::HIGH_QUALITY_INTERSECTIONS.val(1)
        | E::INCOHERENT_EQAA_READS.val(1)
        | E::INTERPOLATE_COMP_Z.val(1)
        | E::STATIC_ANCHOR_ASSOCIATIONS.val(1);
    set(out, r::DB_EQAA, &[eqaa]);
    let pos = if per_sample { 2 } else { 0 };
    set(out, r::SPI_BARYC_CNTL, &[r::SPI_BARYC_CNTL::POS_FLOAT_LOCATION.val(pos)]);
    use r::CB_COLOR0_ATTRIB as CA;
    set(out, r::CB_COLOR0_ATTRIB, &[CA::NUM_SAMPLES.val(log2) | CA::NUM_FRAGMENTS.val(log2)]);
    use r::CB_COLOR0_ATTRIB3 as A3;
    let a3 = A3::COLOR_SW_MODE.val(R_64KB_X) | A3::RESOURCE_TYPE.val(1) | A3::RESOURCE_LEVEL.val(1);
    set(out, r::CB_COLOR0_ATTRIB3, &[a3]);
}
