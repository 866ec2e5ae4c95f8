//! A command stream: PM4 written straight into GPU-visible chunks, chained when one fills up.
//!
//! Recording never copies: packets land in write-combined GTT memory the CP reads. When a
//! packet does not fit, the current chunk is padded and ends with an INDIRECT_BUFFER chain
//! packet to a new chunk; the chain's size is patched once the next chunk is finished, so the
//! whole stream is one IB from the kernel's point of view. Chunks are kept across resets and
//! reused by the next recording.
//!
//! A secondary command buffer may need work only the primary that executes it can record
//! (vkCmdClearAttachments and multiview target slices in a scope whose attachment views the
//! secondary does not know): [`CmdStream::defer`] ends the current IB *segment* there and
//! notes the operation; `vkCmdExecuteCommands` calls the segments in order and records each
//! deferred operation between them against its own scope, as a fix-up RADV does in the
//! secondary with a draw through the bound targets.

use std::sync::Arc;

use ash::vk;
use ferrum_winsys as winsys;

use super::pm4;
use crate::core::device::DeviceShared;
use crate::core::gpu_alloc::GpuAlloc;
use crate::error::VkResult;

/// First chunk size; later chunks double up to the maximum.
const FIRST_CHUNK_DW: usize = 4096;
const MAX_CHUNK_DW: usize = 256 * 1024;

struct Chunk {
    mem: GpuAlloc,
    cap_dw: usize,
}

/// Work a secondary command buffer leaves to the primary that executes it, because it needs
/// the attachment views of the scope it continues.
#[derive(Debug, Clone)]
pub enum Deferred {
    /// `vkCmdClearAttachments` with its attachments and rectangles.
    ClearAttachments(Vec<vk::ClearAttachment>, Vec<vk::ClearRect>),
    /// The scope's targets narrowed to the layer of this view (a multiview draw follows).
    ViewTargets(u32),
}

/// One step of executing a stream: an IB to call, or a deferred operation to record.
#[derive(Debug, Clone)]
pub enum Piece {
    Ib(winsys::Ib),
    Deferred(Deferred),
}

/// Where a chain packet's IB_CONTROL dword waits for the next chunk's final size.
#[derive(Clone, Copy)]
struct PendingChain {
    chunk: usize,
    dword: usize,
}

pub struct CmdStream {
    shared: Arc<DeviceShared>,
    chunks: Vec<Chunk>,
    /// Chunk being written and the dwords used in it.
    cur: usize,
    used: usize,
    /// Dwords used by each finished chunk before `cur`.
    finished: Vec<usize>,
    pending: Option<PendingChain>,
    /// Each later segment's first (chunk, dword) and the operation deferred before it
    /// (the first segment starts the stream).
    segments: Vec<((usize, usize), Deferred)>,
    /// A pipeline-statistics query is active: internal (meta) dispatches pause the counters
    /// so that they count only the application's work.
    pub stats_query_active: bool,
    /// What the draws of this stream left in the registers (see [`RegState`]).
    regs: RegState,
    /// The last table embedded per [`CmdStream::embed_again`] slot, and its address.
    embedded: [Option<(Vec<u32>, u64)>; EMBED_SLOTS],
}

/// Slots of [`CmdStream::embed_again`].
pub const EMBED_SLOTS: usize = 3;

/// The register values the last draws wrote, so that a draw skips rewriting unchanged ones
/// (draws record the whole graphics state; most of it is what the previous draw wrote).
///
/// The values are only known while nothing else was recorded since the last draw: any other
/// packet (a clear, a barrier, a query, a dispatch, a call of a secondary's IB) may change
/// registers, so the next draw starts afresh unless the stream is exactly where the last
/// draw left it. Registers are tracked one by one, so overlapping writes stay exact; a draw
/// whose packets make the CP write registers itself (indirect draws write the base vertex
/// and instance) leaves nothing known, and so does a deferral (the primary records work
/// between a secondary's segments).
#[derive(Default)]
struct RegState {
    /// By register byte address (a multiplicative hash: a draw looks up ~80 registers).
    values: rustc_hash::FxHashMap<u32, u32>,
    /// Where the stream stood when the last draw ended, when its values may be trusted.
    at: Option<(usize, usize, usize)>,
    /// A draw is being recorded: its register writes are noted.
    active: bool,
}

impl CmdStream {
    pub fn new(shared: Arc<DeviceShared>) -> Self {
        CmdStream {
            shared,
            chunks: Vec::new(),
            cur: 0,
            used: 0,
            finished: Vec::new(),
            pending: None,
            segments: Vec::new(),
            stats_query_active: false,
            regs: RegState::default(),
            embedded: Default::default(),
        }
    }

    /// The device the stream records for.
    pub fn shared(&self) -> &Arc<DeviceShared> {
        &self.shared
    }

    /// Forgets the recorded commands, keeping the chunks for reuse.
    pub fn reset(&mut self) {
        self.cur = 0;
        self.used = 0;
        self.finished.clear();
        self.pending = None;
        self.segments.clear();
        self.stats_query_active = false;
        self.regs = RegState::default();
        self.embedded = Default::default();
    }

    fn position(&self) -> (usize, usize, usize) {
        (self.segments.len(), self.cur, self.used)
    }

    /// A draw's recording starts: the register values of the last draw stay known only if
    /// nothing was recorded since.
    pub fn draw_begin(&mut self) {
        if self.regs.at != Some(self.position()) {
            self.regs.values.clear();
        }
        self.regs.at = None;
        self.regs.active = true;
    }

    /// The draw's recording ended; `known`: the registers hold what it wrote (no packet of
    /// it made the CP write registers itself).
    pub fn draw_end(&mut self, known: bool) {
        self.regs.active = false;
        self.regs.at = known.then(|| self.position());
    }

    /// Whether registers from `addr` (byte address) already hold `values`, as a draw being
    /// recorded wrote them.
    pub fn regs_hold(&self, addr: u32, values: &[u32]) -> bool {
        let held = |(i, v): (usize, &u32)| self.regs.values.get(&(addr + 4 * i as u32)) == Some(v);
        self.regs.active && values.iter().enumerate().all(held)
    }

    /// Notes registers written from `addr` while a draw is being recorded.
    pub fn regs_written(&mut self, addr: u32, values: &[u32]) {
        if self.regs.active {
            for (i, &v) in values.iter().enumerate() {
                self.regs.values.insert(addr + 4 * i as u32, v);
            }
        }
    }

    /// Releases every chunk (`VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT`).
    pub fn release(&mut self) {
        self.reset();
        self.chunks.clear();
    }

    /// Releases the chunks after the one being written (kept for reuse by `reset`).
    pub fn trim(&mut self) {
        self.chunks.truncate(self.cur + 1);
    }

    /// GPU memory chunks held, in use or kept for reuse.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Appends one packet (or several, which then stay in one chunk).
    pub fn emit(&mut self, words: &[u32]) -> VkResult<()> {
        self.reserve(words.len())?;
        let chunk = &self.chunks[self.cur];
        chunk.mem.write_u32s(4 * self.used as u64, words);
        self.used += words.len();
        Ok(())
    }

    /// Appends a packet given as a head and a body slice (e.g. WRITE_DATA and its data).
    pub fn emit2(&mut self, head: &[u32], data: &[u32]) -> VkResult<()> {
        self.reserve(head.len() + data.len())?;
        let chunk = &self.chunks[self.cur];
        chunk.mem.write_u32s(4 * self.used as u64, head);
        chunk.mem.write_u32s(4 * (self.used + head.len()) as u64, data);
        self.used += head.len() + data.len();
        Ok(())
    }

    /// Places `data` in the command stream itself, inside a NOP packet the CP skips, and
    /// returns its GPU address. Per-dispatch tables (set table, push block, group counts) live
    /// here, so they need no allocator and share the command buffer's lifetime.
    pub fn embed(&mut self, data: &[u32]) -> VkResult<u64> {
        self.reserve(1 + data.len())?;
        let va = self.chunks[self.cur].mem.va() + 4 * (self.used as u64 + 1);
        self.emit2(&[pm4::header(pm4::op::NOP, data.len().max(1))], data)?;
        if data.is_empty() {
            self.put(0);
        }
        Ok(va)
    }

    /// [`CmdStream::embed`], or the address of the same table embedded last in `slot` (draws
    /// embed their set table, push block and vertex table; most draws' are the previous
    /// draw's). What a stream embedded stays where it is until the stream is reset.
    pub fn embed_again(&mut self, slot: usize, data: &[u32]) -> VkResult<u64> {
        if let Some((last, va)) = &self.embedded[slot] {
            if last[..] == *data {
                return Ok(*va);
            }
        }
        let va = self.embed(data)?;
        self.embedded[slot] = Some((data.to_vec(), va));
        Ok(va)
    }

    /// Makes room for `n` dwords plus a trailing chain packet in the current chunk.
    fn reserve(&mut self, n: usize) -> VkResult<()> {
        let tail = pm4::IB_ALIGN_DW + pm4::INDIRECT_BUFFER_DW;
        if self.chunks.is_empty() {
            self.ensure_chunk(0, n + tail)?;
        }
        if self.used + n + tail <= self.chunks[self.cur].cap_dw {
            return Ok(());
        }
        let next = self.cur + 1;
        self.ensure_chunk(next, n + tail)?;
        let next_va = self.chunks[next].mem.va();
        // Pad so that the chain packet ends the chunk on an 8-dword boundary.
        while (self.used + pm4::INDIRECT_BUFFER_DW) % pm4::IB_ALIGN_DW != 0 {
            self.put(pm4::NOP_HEADER_ONLY);
        }
        let chain = pm4::indirect_buffer(next_va, 0, true);
        let dword = self.used + 3;
        for w in chain {
            self.put(w);
        }
        self.close_pending();
        self.pending = Some(PendingChain { chunk: self.cur, dword });
        self.finished.push(self.used);
        self.cur = next;
        self.used = 0;
        Ok(())
    }

    fn put(&mut self, w: u32) {
        self.chunks[self.cur].mem.write_u32s(4 * self.used as u64, &[w]);
        self.used += 1;
    }

    /// Makes sure chunk `index` exists with room for at least `need` dwords.
    fn ensure_chunk(&mut self, index: usize, need: usize) -> VkResult<()> {
        if self.chunks.get(index).is_some_and(|c| c.cap_dw >= need) {
            return Ok(());
        }
        let grown = FIRST_CHUNK_DW << index.min(6);
        let cap_dw = grown.min(MAX_CHUNK_DW).max(need.next_multiple_of(1024));
        let mem = GpuAlloc::new(self.shared.winsys(), 4 * cap_dw as u64)?;
        let chunk = Chunk { cap_dw: mem.size() as usize / 4, mem };
        if index < self.chunks.len() {
            self.chunks[index] = chunk;
        } else {
            self.chunks.push(chunk);
        }
        Ok(())
    }

    /// Patches the previous chunk's chain packet with the now final size of `cur`.
    fn close_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            let size = self.used as u32;
            let control = pm4::indirect_buffer(0, size, true)[3];
            self.chunks[p.chunk].mem.write_u32s(4 * p.dword as u64, &[control]);
        }
    }

    /// Pads the last chunk and patches the open chain; the stream can then be executed.
    pub fn finish(&mut self) -> VkResult<()> {
        self.end_segment()
    }

    /// Ends the segment being written: pads it to a whole IB (an empty IB is not allowed: at
    /// least one aligned block of NOPs) and patches the open chain.
    fn end_segment(&mut self) -> VkResult<()> {
        if self.chunks.is_empty() {
            self.ensure_chunk(0, FIRST_CHUNK_DW)?;
        }
        if (self.cur, self.used) == self.segment_start(self.segments.len()) {
            self.put(pm4::NOP_HEADER_ONLY);
        }
        while self.used % pm4::IB_ALIGN_DW != 0 {
            self.put(pm4::NOP_HEADER_ONLY);
        }
        self.close_pending();
        Ok(())
    }

    /// Ends the current segment and notes `op` to run before the next one (see the module
    /// documentation); the next segment starts in the same chunk.
    pub fn defer(&mut self, op: Deferred) -> VkResult<()> {
        // The primary records work here that may write any register.
        self.regs.values.clear();
        // Room for the padding, so that the chain packet a later chunk switch writes still
        // fits behind it.
        self.reserve(pm4::IB_ALIGN_DW)?;
        self.end_segment()?;
        self.segments.push(((self.cur, self.used), op));
        Ok(())
    }

    /// Whether operations were deferred (a stream with them can only run through
    /// [`CmdStream::pieces`]).
    pub fn has_deferred(&self) -> bool {
        !self.segments.is_empty()
    }

    /// (chunk, dword) where segment `i` starts.
    fn segment_start(&self, i: usize) -> (usize, usize) {
        if i == 0 {
            (0, 0)
        } else {
            self.segments[i - 1].0
        }
    }

    /// Segment `i` as an IB: it runs from its start to the end of its first chunk, or to the
    /// next segment's start in the same chunk; later chunks are reached by chain packets.
    fn segment_ib(&self, i: usize) -> winsys::Ib {
        let (chunk, start) = self.segment_start(i);
        let end = match self.segments.get(i) {
            Some(&((c, at), _)) if c == chunk => at,
            _ if chunk < self.cur => self.finished[chunk],
            _ => self.used,
        };
        let va = self.chunks[chunk].mem.va() + 4 * start as u64;
        winsys::Ib { va, size_dw: (end - start) as u32, flags: 0 }
    }

    /// The stream as an IB (valid after [`CmdStream::finish`], without deferred operations).
    pub fn ib(&self) -> winsys::Ib {
        debug_assert!(self.segments.is_empty(), "a stream with deferred operations");
        self.segment_ib(0)
    }

    /// The segments' IBs with the deferred operations between them, in execution order
    /// (valid after [`CmdStream::finish`]).
    pub fn pieces(&self) -> Vec<Piece> {
        let mut out = vec![Piece::Ib(self.segment_ib(0))];
        for (i, (_, op)) in self.segments.iter().enumerate() {
            out.push(Piece::Deferred(op.clone()));
            out.push(Piece::Ib(self.segment_ib(i + 1)));
        }
        out
    }

    /// Dwords recorded so far, over all chunks.
    pub fn len_dw(&self) -> usize {
        self.finished.iter().sum::<usize>() + self.used
    }

    /// The recorded words, read back from GPU memory (tests and PM4 dumps).
    pub fn words(&self) -> Vec<Vec<u32>> {
        let mut sizes = self.finished.clone();
        sizes.push(self.used);
        sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| (0..n).map(|d| self.chunks[i].mem.read_u32(4 * d as u64)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::physical_device::Adapter;

    /// The packets an IB executes, following chain packets, without NOP padding.
    fn walk(s: &CmdStream, ib: winsys::Ib) -> Vec<u32> {
        let read = |va: u64| {
            let c = s
                .chunks
                .iter()
                .find(|c| (c.mem.va()..c.mem.va() + c.mem.size()).contains(&va))
                .expect("IB inside a chunk");
            c.mem.read_u32(va - c.mem.va())
        };
        let (mut va, mut size, mut out) = (ib.va, ib.size_dw, Vec::new());
        'ib: loop {
            let mut at = 0;
            while at < size {
                let h = read(va + 4 * u64::from(at));
                if h == pm4::NOP_HEADER_ONLY {
                    at += 1;
                    continue;
                }
                let n = (h >> 16 & 0x3fff) + 1;
                let body: Vec<u32> = (1..=n).map(|k| read(va + 4 * u64::from(at + k))).collect();
                if (h >> 8) & 0xff == pm4::op::INDIRECT_BUFFER && body[2] & (1 << 20) != 0 {
                    va = u64::from(body[0]) | u64::from(body[1]) << 32;
                    size = body[2] & 0xfffff;
                    continue 'ib;
                }
                out.push(h);
                out.extend(body);
                at += 1 + n;
            }
            return out;
        }
    }

    /// A table embedded again with the same content is not copied again; other content, or
    /// the same after a reset (the chunks are rewritten), is.
    #[test]
    fn tables_embedded_again_are_reused_until_a_reset() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter).unwrap());
        let mut s = CmdStream::new(shared);
        let a = s.embed_again(0, &[1, 2, 3]).unwrap();
        let len = s.len_dw();
        s.emit(&[pm4::header(pm4::op::NOP, 1), 0]).unwrap();
        assert_eq!(s.embed_again(0, &[1, 2, 3]).unwrap(), a);
        assert_ne!(s.embed_again(1, &[1, 2, 3]).unwrap(), a, "slots are separate");
        let b = s.embed_again(0, &[1, 2, 4]).unwrap();
        assert_ne!(b, a);
        assert_eq!(s.embed_again(0, &[1, 2, 4]).unwrap(), b);
        assert!(s.len_dw() > len + 2);
        s.reset();
        s.embed_again(0, &[1, 2, 4]).unwrap();
        assert_eq!(s.len_dw(), 4, "embedded again after the reset");
        let words = s.words().concat();
        assert_eq!(words[1..4], [1, 2, 4]);
    }

    /// Segments split at deferred operations run exactly the packets recorded between them,
    /// also when a segment starts mid-chunk and continues in a chained chunk.
    #[test]
    fn deferred_operations_split_the_stream_into_segments() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter).unwrap());
        let mut s = CmdStream::new(shared);
        let packet = |k: u32| [pm4::header(0x79, 2), 0x100, k];
        // Segment lengths in packets: the second crosses the first chunk's end.
        let lengths = [5u32, FIRST_CHUNK_DW as u32 / 3, 0, 7];
        let mut want = Vec::new();
        let mut k = 0;
        for (i, &n) in lengths.iter().enumerate() {
            let mut seg = Vec::new();
            for _ in 0..n {
                s.emit(&packet(k)).unwrap();
                seg.extend(packet(k));
                k += 1;
            }
            want.push(seg);
            if i + 1 < lengths.len() {
                s.defer(Deferred::ViewTargets(i as u32)).unwrap();
            }
        }
        s.finish().unwrap();
        assert!(s.chunks.len() > 1, "the test must cross a chunk boundary");
        let pieces = s.pieces();
        assert_eq!(pieces.len(), 2 * lengths.len() - 1);
        for (i, piece) in pieces.iter().enumerate() {
            match (i % 2, piece) {
                (0, Piece::Ib(ib)) => {
                    assert_eq!(ib.size_dw % pm4::IB_ALIGN_DW as u32, 0);
                    assert!(ib.size_dw > 0, "an empty segment is still a valid IB");
                    assert_eq!(walk(&s, *ib), want[i / 2], "segment {}", i / 2);
                }
                (1, Piece::Deferred(Deferred::ViewTargets(v))) => assert_eq!(*v as usize, i / 2),
                _ => panic!("piece {i} out of order: {piece:?}"),
            }
        }
    }
}
