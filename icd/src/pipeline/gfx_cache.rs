//! Graphics stages in the pipeline cache: the key of a compiled vertex or pixel shader and
//! its serialized form.
//!
//! A stage's code depends on its SPIR-V, entry point, specialization, resource layout, stage
//! and the pipeline state in its [`GfxKey`] (input rates, the outputs the fragment shader does
//! not read, export formats, multiview); the key hashes all of them. The metadata structs are
//! destructured field by field, so a field added to them fails to compile here instead of
//! being silently dropped from the cache.
//!
//! A vertex shader's link information is cached too: the pixel shader's key holds the
//! vertex shader's constant outputs, which only its front end finds, so a pipeline whose
//! stages are all cached would otherwise still translate the vertex shader's SPIR-V.

use std::collections::HashMap;
use std::hash::Hash;

use ferrum_compiler::amd::abi::graphics::{
    ConstantInputs, GfxKey, PsMetadata, VsExtras, VsMetadata,
};
use ferrum_compiler::amd::{self, abi, GfxBinary, GfxMetadata};
use ferrum_compiler::ir::Stage;

use super::cache::{Hasher, Reader};

impl std::hash::Hasher for Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.bytes(bytes);
    }

    fn finish(&self) -> u64 {
        Hasher::finish(self)
    }
}

/// The cache key of one graphics stage.
pub fn key(
    words: &[u32],
    entry: &str,
    spec: &HashMap<u32, u64>,
    layout: &abi::ResourceLayout,
    stage: Stage,
    gfx: GfxKey,
) -> u64 {
    let mut h = Hasher::default();
    h.u64(super::compute::cache_key(words, entry, spec, layout));
    h.bytes(b"graphics");
    h.u32(match stage {
        Stage::Vertex => 1,
        _ => 2,
    });
    gfx.hash(&mut h);
    Hasher::finish(&h)
}

/// The key of a vertex shader's link information ([`ConstantInputs`] of its outputs): its
/// SPIR-V, entry point, specialization and layout, as the front end sees them.
pub fn link_key(
    words: &[u32],
    entry: &str,
    spec: &HashMap<u32, u64>,
    layout: &abi::ResourceLayout,
) -> u64 {
    let mut h = Hasher::default();
    h.u64(super::compute::cache_key(words, entry, spec, layout));
    h.bytes(b"vertex outputs");
    Hasher::finish(&h)
}

/// Appends `c`'s serialized form: the mask, then the value of each component in it.
pub(super) fn encode_link(c: &ConstantInputs, out: &mut Vec<u8>) {
    put(out, &std::array::from_fn::<u32, 4, _>(|i| (c.mask >> (32 * i)) as u32));
    let set = (0..128).filter(|&i| c.mask >> i & 1 != 0);
    put(out, &set.map(|i| c.values[i]).collect::<Vec<_>>());
}

pub(super) fn decode_link(r: &mut Reader<'_>) -> Option<ConstantInputs> {
    let mask = words::<4>(r)?.iter().rev().fold(0u128, |m, &w| m << 32 | u128::from(w));
    let mut c = ConstantInputs { mask, ..ConstantInputs::default() };
    for i in (0..128).filter(|&i| mask >> i & 1 != 0) {
        c.values[i] = r.u32()?;
    }
    Some(c)
}

fn put(out: &mut Vec<u8>, words: &[u32]) {
    words.iter().for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
}

fn put_vec(out: &mut Vec<u8>, v: impl ExactSizeIterator<Item = u32>) {
    out.extend_from_slice(&(v.len() as u32).to_le_bytes());
    v.for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
}

fn get_vec(r: &mut Reader<'_>) -> Option<Vec<u32>> {
    let n = r.u32()? as usize;
    (0..n).map(|_| r.u32()).collect()
}

fn words<const N: usize>(r: &mut Reader<'_>) -> Option<[u32; N]> {
    let mut w = [0u32; N];
    for x in &mut w {
        *x = r.u32()?;
    }
    Some(w)
}

/// Appends `b`'s serialized form.
pub(super) fn encode(b: &GfxBinary, out: &mut Vec<u8>) {
    match &b.metadata {
        GfxMetadata::Vertex(m) => {
            let VsMetadata {
                rsrc1,
                rsrc2,
                vs_out_config,
                pos_format,
                pa_cl_vs_out_cntl,
                param_locations,
                extras,
                vgprs,
                sgprs,
                scratch_bytes_per_lane,
            } = m;
            let VsExtras { point_size, layer, viewport_index, clip_mask, cull_mask } = *extras;
            put(out, &[0, *rsrc1, *rsrc2, *vs_out_config, *pos_format, *pa_cl_vs_out_cntl]);
            put(out, &[*vgprs, *sgprs, point_size.into(), layer.into(), viewport_index.into()]);
            put(out, &[clip_mask.into(), cull_mask.into(), *scratch_bytes_per_lane]);
            put_vec(out, param_locations.iter().copied());
        }
        GfxMetadata::Fragment(m) => {
            let PsMetadata {
                rsrc1,
                rsrc2,
                input_ena,
                ps_in_control,
                col_format,
                z_format,
                cb_shader_mask,
                db_shader_control,
                input_locations,
                input_reads,
                input_flat,
                vgprs,
                sgprs,
                scratch_bytes_per_lane,
            } = m;
            put(out, &[1, *rsrc1, *rsrc2, *input_ena, *ps_in_control, *col_format, *z_format]);
            put(
                out,
                &[*cb_shader_mask, *db_shader_control, *vgprs, *sgprs, *scratch_bytes_per_lane],
            );
            put_vec(out, input_locations.iter().copied());
            put_vec(out, input_flat.iter().map(|&f| u32::from(f)));
            put(out, &std::array::from_fn::<u32, 4, _>(|i| (input_reads >> (32 * i)) as u32));
        }
    }
    super::cache::encode_common(&b.code, &b.stats, &b.isa_text, out);
}

/// Reads one serialized stage.
pub(super) fn decode(r: &mut Reader<'_>) -> Option<GfxBinary> {
    let metadata = match r.u32()? {
        0 => {
            let [rsrc1, rsrc2, vs_out_config, pos_format, pa_cl_vs_out_cntl] = words(r)?;
            let [vgprs, sgprs, point_size, layer, viewport_index, clip, cull, scratch] = words(r)?;
            let extras = VsExtras {
                point_size: point_size != 0,
                layer: layer != 0,
                viewport_index: viewport_index != 0,
                clip_mask: u8::try_from(clip).ok()?,
                cull_mask: u8::try_from(cull).ok()?,
            };
            GfxMetadata::Vertex(VsMetadata {
                rsrc1,
                rsrc2,
                vs_out_config,
                pos_format,
                pa_cl_vs_out_cntl,
                param_locations: get_vec(r)?,
                extras,
                vgprs,
                sgprs,
                scratch_bytes_per_lane: scratch,
            })
        }
        1 => {
            let [rsrc1, rsrc2, input_ena, ps_in_control, col_format, z_format] = words(r)?;
            let [cb_shader_mask, db_shader_control, vgprs, sgprs, scratch] = words(r)?;
            let input_locations = get_vec(r)?;
            let input_flat = get_vec(r)?.into_iter().map(|f| f != 0).collect();
            let reads: [u32; 4] = words(r)?;
            let input_reads = (0..4).fold(0u128, |m, i| m | u128::from(reads[i]) << (32 * i));
            GfxMetadata::Fragment(PsMetadata {
                rsrc1,
                rsrc2,
                input_ena,
                ps_in_control,
                col_format,
                z_format,
                cb_shader_mask,
                db_shader_control,
                input_locations,
                input_reads,
                input_flat,
                vgprs,
                sgprs,
                scratch_bytes_per_lane: scratch,
            })
        }
        _ => return None,
    };
    let (code, stats, isa_text): (Vec<u8>, amd::Stats, String) = super::cache::decode_common(r)?;
    Some(GfxBinary { code, metadata, stats, isa_text })
}
