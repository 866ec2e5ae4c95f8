//! Index fetch and primitive assembly: the vertex stream of a draw (auto-generated or read
//! from the index buffer, with primitive restart) and the primitives the topology
//! (VGT_PRIMITIVE_TYPE) makes of it.

use ferrum_regs::gfx103::enums::VGT_DI_PRIM_TYPE as pt;

use crate::error::GpuError;
use crate::kernel::AddressSpace;

/// Where a draw's indices come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexSource {
    /// DI_SRC_SEL_AUTO_INDEX: 0..count.
    Auto { count: u32 },
    /// DI_SRC_SEL_DMA: `count` indices at `va`, of which only the first `max` may be read
    /// (later ones read as 0, as VGT_DMA_MAX_SIZE says).
    Dma { va: u64, count: u32, max: u32, size: IndexSize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexSize {
    U8,
    U16,
    U32,
}

impl IndexSize {
    /// VGT_INDEX_TYPE.INDEX_TYPE (VGT_INDEX_16 = 0, VGT_INDEX_32 = 1, VGT_INDEX_8 = 2).
    pub fn from_field(v: u32) -> Option<IndexSize> {
        match v {
            0 => Some(IndexSize::U16),
            1 => Some(IndexSize::U32),
            2 => Some(IndexSize::U8),
            _ => None,
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            IndexSize::U8 => 1,
            IndexSize::U16 => 2,
            IndexSize::U32 => 4,
        }
    }

    fn mask(self) -> u32 {
        match self {
            IndexSize::U8 => 0xff,
            IndexSize::U16 => 0xffff,
            IndexSize::U32 => u32::MAX,
        }
    }
}

/// Primitive restart (GE_MULTI_PRIM_IB_RESET_EN, VGT_MULTI_PRIM_IB_RESET_INDX).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restart {
    pub index: u32,
    /// MATCH_ALL_BITS: compare all 32 bits; otherwise only the index size's bits.
    pub match_all: bool,
}

/// The vertex stream: a vertex id per entry, `None` where a restart index cut it.
pub fn fetch(
    space: &AddressSpace,
    src: IndexSource,
    restart: Option<Restart>,
) -> Result<Vec<Option<u32>>, GpuError> {
    let (va, count, max, size) = match src {
        IndexSource::Auto { count } => return Ok((0..count).map(Some).collect()),
        IndexSource::Dma { va, count, max, size } => (va, count, max, size),
    };
    let readable = count.min(max) as usize;
    let bytes = size.bytes();
    if readable > 0 && va % bytes != 0 {
        return Err(GpuError::BadState(format!(
            "index buffer address {va:#x} not aligned to its {bytes}-byte index size"
        )));
    }
    let mut raw = vec![0u8; readable * bytes as usize];
    if readable > 0 {
        space.read(va, &mut raw)?;
    }
    let index = |i: usize| -> u32 {
        if i >= readable {
            return 0;
        }
        let b = &raw[i * bytes as usize..];
        match size {
            IndexSize::U8 => u32::from(b[0]),
            IndexSize::U16 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            IndexSize::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        }
    };
    Ok((0..count as usize)
        .map(|i| {
            let v = index(i);
            let cut = restart.is_some_and(|r| {
                let reference = if r.match_all { r.index } else { r.index & size.mask() };
                v == reference
            });
            (!cut).then_some(v)
        })
        .collect())
}

/// Topologies the front end assembles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    PointList,
    LineList,
    LineStrip,
    TriList,
    TriStrip,
    TriFan,
}

impl Topology {
    /// VGT_PRIMITIVE_TYPE.PRIM_TYPE.
    pub fn from_prim_type(v: u32) -> Result<Topology, GpuError> {
        Ok(match v {
            pt::DI_PT_POINTLIST => Topology::PointList,
            pt::DI_PT_LINELIST => Topology::LineList,
            pt::DI_PT_LINESTRIP => Topology::LineStrip,
            pt::DI_PT_TRILIST => Topology::TriList,
            pt::DI_PT_TRISTRIP => Topology::TriStrip,
            pt::DI_PT_TRIFAN => Topology::TriFan,
            pt::DI_PT_NONE => {
                return Err(GpuError::BadState("draw with VGT_PRIMITIVE_TYPE = DI_PT_NONE".into()))
            }
            other => {
                return Err(GpuError::Unsupported(format!(
                    "VGT_PRIMITIVE_TYPE {other} (adjacency, rect, quad, polygon and patch topologies are not modelled)"
                )))
            }
        })
    }

    pub fn vertices(self) -> usize {
        match self {
            Topology::PointList => 1,
            Topology::LineList | Topology::LineStrip => 2,
            _ => 3,
        }
    }
}

/// An assembled primitive: positions in the vertex stream (entry indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assembled {
    pub v: [usize; 3],
    /// Index into `v` of the provoking vertex.
    pub provoking: usize,
    /// Primitive id within the instance.
    pub id: u32,
    /// Lines: first segment of a strip (or of a list's line).
    pub strip_start: bool,
}

/// Assembles primitives as Vulkan's topology rules (which the hardware implements) define
/// them; `last` is PA_SU_SC_MODE_CNTL.PROVOKING_VTX_LAST. A restart ends the current strip or
/// fan and drops an incomplete list primitive.
pub fn assemble(topo: Topology, stream: &[Option<u32>], last: bool) -> Vec<Assembled> {
    let mut out = Vec::new();
    let mut id = 0u32;
    let mut run: Vec<usize> = Vec::new();
    let mut flush = |run: &mut Vec<usize>, out: &mut Vec<Assembled>| {
        assemble_run(topo, run, last, &mut id, out);
        run.clear();
    };
    for (i, e) in stream.iter().enumerate() {
        match e {
            Some(_) => run.push(i),
            None => flush(&mut run, &mut out),
        }
    }
    flush(&mut run, &mut out);
    out
}

fn assemble_run(topo: Topology, r: &[usize], last: bool, id: &mut u32, out: &mut Vec<Assembled>) {
    let mut push = |v: [usize; 3], provoking: usize, strip_start: bool| {
        out.push(Assembled { v, provoking, id: *id, strip_start });
        *id += 1;
    };
    let pv = |count: usize| if last { count - 1 } else { 0 };
    match topo {
        Topology::PointList => r.iter().for_each(|&a| push([a, 0, 0], 0, false)),
        Topology::LineList => r.chunks_exact(2).for_each(|c| push([c[0], c[1], 0], pv(2), true)),
        Topology::LineStrip => {
            for (k, w) in r.windows(2).enumerate() {
                push([w[0], w[1], 0], pv(2), k == 0);
            }
        }
        Topology::TriList => r.chunks_exact(3).for_each(|c| push([c[0], c[1], c[2]], pv(3), false)),
        Topology::TriStrip => {
            for i in 0..r.len().saturating_sub(2) {
                // Triangle i is {i, i + 1 + i % 2, i + 2 - i % 2}: odd triangles swap their
                // first two vertices' successors so every triangle keeps the strip's winding.
                let odd = i % 2;
                let v = [r[i], r[i + 1 + odd], r[i + 2 - odd]];
                // Provoking: vertex i (first) or i + 2 (last), wherever it sits in `v`.
                let p = if last { 2 - odd } else { 0 };
                push(v, p, false);
            }
        }
        Topology::TriFan => {
            for i in 0..r.len().saturating_sub(2) {
                // Triangle i is {i + 1, i + 2, 0}; provoking vertex i + 1 (first) or i + 2.
                push([r[i + 1], r[i + 2], r[0]], if last { 1 } else { 0 }, false);
            }
        }
    }
}
