//! `VkPipelineCache`: compiled compute shaders keyed by a hash of everything that determines
//! the machine code (SPIR-V, entry point, specialization constants, resource layout).
//!
//! The blob starts with the header the spec prescribes (`VkPipelineCacheHeaderVersionOne`:
//! size, version, vendor, device, pipelineCacheUUID, where the UUID changes with every driver
//! build), then a Ferrum section with its own magic, entry count and checksum. A blob whose
//! header does not match this device and build, or whose section does not parse or check out,
//! is ignored: the cache starts empty and compilation happens as if there were no cache.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use ferrum_compiler::amd::abi::graphics::ConstantInputs;
use ferrum_compiler::amd::{self, abi, GfxBinary};
use parking_lot::Mutex;

use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::chip::AMD_VENDOR_ID;
use crate::core::physical_device::Adapter;

const HEADER_SIZE: usize = 16 + vk::UUID_SIZE;
const MAGIC: &[u8; 4] = b"FRPC";
/// 2: graphics stages follow the compute entries; 3: graphics stages record their scratch size;
/// 4: pixel shaders record the input components they read; 5: vertex shaders' link
/// information follows the graphics stages.
const FORMAT_VERSION: u32 = 5;

/// What compiling one shader produced.
#[derive(Debug, Clone, PartialEq)]
pub struct CachedShader {
    pub code: Vec<u8>,
    pub metadata: abi::ShaderMetadata,
    pub stats: amd::Stats,
    pub isa_text: String,
}

/// 64-bit FNV-1a, streaming.
#[derive(Clone, Copy)]
pub struct Hasher(u64);

impl Default for Hasher {
    fn default() -> Self {
        Hasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher {
    pub fn bytes(&mut self, data: &[u8]) -> &mut Self {
        for &b in data {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A writer/reader pair for the entry encoding.
pub(super) struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    pub(super) fn take(&mut self, n: usize) -> Option<&[u8]> {
        let (a, b) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = b;
        Some(a)
    }

    pub(super) fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }

    pub(super) fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| u64::from_le_bytes(b.try_into().unwrap()))
    }

    pub(super) fn blob(&mut self) -> Option<Vec<u8>> {
        let n = self.u32()? as usize;
        self.take(n).map(<[u8]>::to_vec)
    }
}

fn encode(s: &CachedShader, out: &mut Vec<u8>) {
    let m = &s.metadata;
    let words = [
        m.rsrc1,
        m.rsrc2,
        m.rsrc3,
        m.workgroup_size[0],
        m.workgroup_size[1],
        m.workgroup_size[2],
        m.vgprs,
        m.sgprs,
        m.lds_bytes,
        m.scratch_bytes_per_lane,
        m.user_sgprs,
    ];
    words.iter().for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    encode_common(&s.code, &s.stats, &s.isa_text, out);
}

/// Statistics, code and disassembly: the part every kind of entry has.
pub(super) fn encode_common(code: &[u8], st: &amd::Stats, isa_text: &str, out: &mut Vec<u8>) {
    let words = [
        st.instructions,
        st.code_size,
        st.vgprs,
        st.sgprs,
        st.spilled_vgprs,
        st.spilled_sgprs,
        st.lds_size,
        st.scratch_size,
    ];
    words.iter().for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    out.extend_from_slice(&st.compile_ms.to_bits().to_le_bytes());
    for blob in [code, isa_text.as_bytes()] {
        out.extend_from_slice(&(blob.len() as u32).to_le_bytes());
        out.extend_from_slice(blob);
    }
}

pub(super) fn decode_common(r: &mut Reader<'_>) -> Option<(Vec<u8>, amd::Stats, String)> {
    let mut w = [0u32; 8];
    for x in &mut w {
        *x = r.u32()?;
    }
    let compile_ms = f64::from_bits(r.u64()?);
    let code = r.blob()?;
    let isa_text = String::from_utf8(r.blob()?).ok()?;
    let stats = amd::Stats {
        instructions: w[0],
        code_size: w[1],
        vgprs: w[2],
        sgprs: w[3],
        spilled_vgprs: w[4],
        spilled_sgprs: w[5],
        lds_size: w[6],
        scratch_size: w[7],
        compile_ms,
    };
    Some((code, stats, isa_text))
}

fn decode(r: &mut Reader<'_>) -> Option<CachedShader> {
    let mut w = [0u32; 11];
    for x in &mut w {
        *x = r.u32()?;
    }
    let (code, stats, isa_text) = decode_common(r)?;
    Some(CachedShader {
        code,
        metadata: abi::ShaderMetadata {
            rsrc1: w[0],
            rsrc2: w[1],
            rsrc3: w[2],
            workgroup_size: [w[3], w[4], w[5]],
            vgprs: w[6],
            sgprs: w[7],
            lds_bytes: w[8],
            scratch_bytes_per_lane: w[9],
            user_sgprs: w[10],
        },
        stats,
        isa_text,
    })
}

type Entries = HashMap<u64, Arc<CachedShader>>;
type GfxEntries = HashMap<u64, Arc<GfxBinary>>;
type Links = HashMap<u64, ConstantInputs>;

/// A `VkPipelineCache`.
#[repr(C)]
pub struct PipelineCache {
    base: ObjectBase,
    header: [u8; HEADER_SIZE],
    entries: Mutex<Entries>,
    /// Compiled graphics stages (`gfx_cache`).
    gfx: Mutex<GfxEntries>,
    /// Vertex shaders' constant outputs (`gfx_cache::link_key`).
    links: Mutex<Links>,
}
vk_object!(PipelineCache, vk::PipelineCache, vk::ObjectType::PIPELINE_CACHE);

impl PipelineCache {
    pub fn new(adapter: &Adapter, initial: &[u8]) -> Self {
        let mut header = [0u8; HEADER_SIZE];
        header[0..4].copy_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
        let version = vk::PipelineCacheHeaderVersion::ONE.as_raw() as u32;
        header[4..8].copy_from_slice(&version.to_le_bytes());
        header[8..12].copy_from_slice(&AMD_VENDOR_ID.to_le_bytes());
        header[12..16].copy_from_slice(&adapter.chip.pci_device_id.to_le_bytes());
        header[16..].copy_from_slice(&adapter.pipeline_cache_uuid());
        let cache = PipelineCache {
            base: ObjectBase::new(vk::ObjectType::PIPELINE_CACHE),
            header,
            entries: Mutex::new(HashMap::new()),
            gfx: Mutex::new(HashMap::new()),
            links: Mutex::new(HashMap::new()),
        };
        if !initial.is_empty() {
            match cache.parse(initial) {
                Some((entries, gfx, links)) => {
                    *cache.entries.lock() = entries;
                    *cache.gfx.lock() = gfx;
                    *cache.links.lock() = links;
                }
                None => log::info!("pipeline cache data ignored: not from this driver or corrupt"),
            }
        }
        cache
    }

    fn parse(&self, data: &[u8]) -> Option<(Entries, GfxEntries, Links)> {
        if data.get(..HEADER_SIZE)? != self.header {
            return None;
        }
        let mut r = Reader(&data[HEADER_SIZE..]);
        if r.take(4)? != MAGIC || r.u32()? != FORMAT_VERSION {
            return None;
        }
        let count = r.u32()?;
        let checksum = r.u64()?;
        if Hasher::default().bytes(r.0).finish() != checksum {
            return None;
        }
        let mut out = HashMap::new();
        for _ in 0..count {
            let key = r.u64()?;
            out.insert(key, Arc::new(decode(&mut r)?));
        }
        let mut gfx = HashMap::new();
        for _ in 0..r.u32()? {
            let key = r.u64()?;
            gfx.insert(key, Arc::new(super::gfx_cache::decode(&mut r)?));
        }
        let mut links = HashMap::new();
        for _ in 0..r.u32()? {
            let key = r.u64()?;
            links.insert(key, super::gfx_cache::decode_link(&mut r)?);
        }
        r.0.is_empty().then_some((out, gfx, links))
    }

    /// The blob `vkGetPipelineCacheData` returns.
    pub fn serialize(&self) -> Vec<u8> {
        let entries = self.entries.lock();
        let mut keys: Vec<_> = entries.keys().copied().collect();
        keys.sort_unstable();
        let mut body = Vec::new();
        for k in &keys {
            body.extend_from_slice(&k.to_le_bytes());
            encode(&entries[k], &mut body);
        }
        let gfx = self.gfx.lock();
        let mut gfx_keys: Vec<_> = gfx.keys().copied().collect();
        gfx_keys.sort_unstable();
        body.extend_from_slice(&(gfx_keys.len() as u32).to_le_bytes());
        for k in &gfx_keys {
            body.extend_from_slice(&k.to_le_bytes());
            super::gfx_cache::encode(&gfx[k], &mut body);
        }
        let links = self.links.lock();
        let mut link_keys: Vec<_> = links.keys().copied().collect();
        link_keys.sort_unstable();
        body.extend_from_slice(&(link_keys.len() as u32).to_le_bytes());
        for k in &link_keys {
            body.extend_from_slice(&k.to_le_bytes());
            super::gfx_cache::encode_link(&links[k], &mut body);
        }
        let mut out = self.header.to_vec();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&Hasher::default().bytes(&body).finish().to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    pub fn get(&self, key: u64) -> Option<Arc<CachedShader>> {
        self.entries.lock().get(&key).cloned()
    }

    pub fn insert(&self, key: u64, shader: Arc<CachedShader>) {
        self.entries.lock().insert(key, shader);
    }

    pub fn get_gfx(&self, key: u64) -> Option<Arc<GfxBinary>> {
        self.gfx.lock().get(&key).cloned()
    }

    pub fn insert_gfx(&self, key: u64, stage: Arc<GfxBinary>) {
        self.gfx.lock().insert(key, stage);
    }

    pub fn get_link(&self, key: u64) -> Option<ConstantInputs> {
        self.links.lock().get(&key).copied()
    }

    pub fn insert_link(&self, key: u64, outputs: ConstantInputs) {
        self.links.lock().insert(key, outputs);
    }

    /// `vkMergePipelineCaches`: adds `other`'s entries.
    pub fn merge(&self, other: &PipelineCache) {
        if std::ptr::eq(self, other) {
            return;
        }
        let theirs: Vec<_> = other.entries.lock().iter().map(|(k, v)| (*k, v.clone())).collect();
        self.entries.lock().extend(theirs);
        let theirs: Vec<_> = other.gfx.lock().iter().map(|(k, v)| (*k, v.clone())).collect();
        self.gfx.lock().extend(theirs);
        let theirs: Vec<_> = other.links.lock().iter().map(|(k, v)| (*k, *v)).collect();
        self.links.lock().extend(theirs);
    }

    pub fn len(&self) -> usize {
        self.entries.lock().len() + self.gfx.lock().len() + self.links.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shader() -> CachedShader {
        CachedShader {
            code: vec![1, 2, 3, 4, 5],
            metadata: abi::ShaderMetadata::new([32, 1, 1], 10, 20, 512, 0),
            stats: amd::Stats { instructions: 7, compile_ms: 1.5, ..Default::default() },
            isa_text: "s_endpgm".into(),
        }
    }

    #[test]
    fn round_trip_and_corruption_is_ignored() {
        let adapter = Adapter::open_simulated().unwrap();
        let cache = PipelineCache::new(&adapter, &[]);
        cache.insert(42, Arc::new(shader()));
        let mut outputs = ConstantInputs { mask: 1 | 1 << 77 | 1 << 127, ..Default::default() };
        (outputs.values[0], outputs.values[77], outputs.values[127]) = (0x3f80_0000, 0, u32::MAX);
        cache.insert_link(7, outputs);
        cache.insert_link(8, ConstantInputs::default());
        let blob = cache.serialize();
        let back = PipelineCache::new(&adapter, &blob);
        assert_eq!(back.get(42).as_deref(), Some(&shader()));
        assert_eq!(back.get_link(7), Some(outputs));
        assert_eq!(back.get_link(8), Some(ConstantInputs::default()));
        assert_eq!(back.len(), 3);
        // Any flipped byte after the header fails the checksum or the parse.
        for at in [HEADER_SIZE + 1, HEADER_SIZE + 20, blob.len() - 1] {
            let mut bad = blob.clone();
            bad[at] ^= 0x40;
            assert!(PipelineCache::new(&adapter, &bad).is_empty(), "byte {at}");
        }
        // A header from another device or build is not trusted.
        let mut other = blob.clone();
        other[20] ^= 1;
        assert!(PipelineCache::new(&adapter, &other).is_empty());
        assert!(PipelineCache::new(&adapter, &blob[..blob.len() - 3]).is_empty());
        assert!(PipelineCache::new(&adapter, b"garbage").is_empty());
    }
}
