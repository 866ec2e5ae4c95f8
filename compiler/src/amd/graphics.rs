//! Vertex and pixel shaders for the legacy GFX10.3 path: the same selection, allocation and
//! encoding as compute ([`super::compile`]), with the stage's inputs and exports
//! ([`super::isel::io`]) and register values from [`super::abi::graphics`].

use std::time::Instant;

use super::abi::graphics::{ConstantInputs, GfxKey, GfxSgprs, PsMetadata, VsMetadata};
use super::error::{unsupported, BackendError};
use super::{emit, hazards, regalloc, regalloc_check, spill, waitcnt, ResourceLayout, Stats};
use crate::ir::{Shader, Stage};

/// Register values of a graphics stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GfxMetadata {
    /// A hardware VS.
    Vertex(VsMetadata),
    /// A PS.
    Fragment(PsMetadata),
}

/// A compiled vertex or pixel shader.
#[derive(Clone, Debug)]
pub struct GfxBinary {
    /// Machine code (place at a 256-byte aligned address).
    pub code: Vec<u8>,
    /// Register values.
    pub metadata: GfxMetadata,
    /// Statistics.
    pub stats: Stats,
    /// Disassembly in LLVM syntax.
    pub isa_text: String,
}

/// Compiles lowered IR (from [`crate::compile_to_ir`]) of a vertex or fragment shader; `key`
/// gives a VS's input rates ([`super::abi::graphics::VsKey`]) and a PS's colour export formats
/// ([`super::abi::graphics::PsKey`]); either converts into a [`GfxKey`].
pub fn compile_graphics(
    shader: &Shader,
    layout: &ResourceLayout,
    key: impl Into<GfxKey>,
) -> Result<GfxBinary, BackendError> {
    let t0 = Instant::now();
    let key: GfxKey = key.into();
    if !matches!(shader.stage, Stage::Vertex | Stage::Fragment) {
        return Err(unsupported(format!("{:?} shaders on the graphics path", shader.stage)));
    }
    let linked = link(shader, &key)?;
    let shader = linked.as_ref().unwrap_or(shader);
    let spill::Allocated { mut mf, alloc, spilled_vgprs, spilled_sgprs } =
        spill::select_and_allocate_keyed(shader, layout, key)?;
    if shader.shared_size > 0 {
        return Err(unsupported("LDS memory in a vertex or pixel shader"));
    }
    // As for compute, a nonzero size selects the scratch ABI whenever the code expects it.
    let scratch = if mf.scratch_inputs { mf.scratch_bytes.max(4) } else { 0 };
    let pixel = shader.stage == Stage::Fragment;
    let user = GfxSgprs { pixel, scratch: scratch > 0 };
    if alloc.sgprs > u32::from(emit::LONG_BRANCH_SGPR) {
        return Err(BackendError::OutOfRegisters("scalar"));
    }
    regalloc_check::check_when_validating(&mf, &alloc)?;
    waitcnt::insert_waits(&mut mf, &alloc);
    regalloc::rewrite(&mut mf, &alloc);
    emit::drop_branches_to_next(&mut mf);
    hazards::fix_hazards(&mut mf);
    let code = emit::emit(&mf)?;
    let bytes: Vec<u8> = code.words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bytes = emit::with_constant_data(bytes, &shader.constant_data);
    // User SGPRs (the PS's PRIM_MASK, the scratch wave offset) hold inputs whether or not
    // the program reads them.
    let sgprs = alloc.sgprs.max(user.initialised());
    let exported = std::mem::take(&mut mf.gfx);
    let (metadata, vgprs) = if shader.stage == Stage::Vertex {
        let mut m = VsMetadata::new(alloc.vgprs, sgprs, exported.params, exported.extras)
            .with_scratch(scratch);
        m.rsrc1 = super::abi::with_float_mode(m.rsrc1, shader.float_controls);
        let v = m.vgprs;
        (GfxMetadata::Vertex(m), v)
    } else {
        let mut m = PsMetadata::new(
            alloc.vgprs,
            sgprs,
            exported.uses,
            exported.inputs,
            exported.color,
            &key.ps,
        )
        .with_scratch(scratch);
        m.rsrc1 = super::abi::with_float_mode(m.rsrc1, shader.float_controls);
        m.input_reads = crate::passes::link_stages::fragment_input_reads(shader);
        let v = m.vgprs;
        (GfxMetadata::Fragment(m), v)
    };
    let stats = Stats {
        instructions: code.instructions,
        code_size: bytes.len() as u32,
        vgprs,
        sgprs,
        spilled_vgprs,
        spilled_sgprs,
        lds_size: 0,
        scratch_size: scratch,
        compile_ms: t0.elapsed().as_secs_f64() * 1000.0,
    };
    let isa_text = emit::listing(&code.words);
    if crate::debug::DebugFlags::get().shaders {
        let stage = format!("{:?}", shader.stage).to_lowercase();
        eprintln!("=== {} ({stage})\n{isa_text}; {}", shader.entry_fn().name, stats.to_json());
    }
    Ok(GfxBinary { code: bytes, metadata, stats, isa_text })
}

/// `shader` specialized for the pipeline state in `key` that lets code go
/// ([`crate::pipeline::link_graphics`]: outputs the fragment shader does not read, the view
/// index without multiview), or `None` when nothing changes.
fn link(shader: &Shader, key: &GfxKey) -> Result<Option<Shader>, BackendError> {
    let vertex = shader.stage == Stage::Vertex;
    let unread = if vertex { key.vs.unread_outputs } else { 0 };
    let consts = if vertex { ConstantInputs::default() } else { key.ps.constant_inputs };
    if unread == 0 && consts.mask == 0 && !key.single_view {
        return Ok(None);
    }
    let mut s = shader.clone();
    let changed = crate::pipeline::link_graphics(&mut s, unread, &consts, key.single_view)
        .map_err(|e| unsupported(format!("linking the stages: {e}")))?;
    Ok(changed.then_some(s))
}
