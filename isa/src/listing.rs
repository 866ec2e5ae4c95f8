//! Walking a buffer of instruction words: what a disassembler, the compiler's `--dump isa`
//! and the simulator's pre-decoder all need. Undecodable words are reported and skipped one
//! word at a time, as LLVM's disassembler does.

use crate::decode::decode;
use crate::error::DecodeError;
use crate::inst::Inst;

/// One entry of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Byte offset of the first word.
    pub offset: usize,
    /// The words this entry covers (one word for an undecodable entry).
    pub words: &'a [u32],
    /// The instruction, or why the first word does not decode.
    pub inst: Result<Inst, DecodeError>,
}

/// Iterator over the instructions of `words`.
pub struct Listing<'a> {
    words: &'a [u32],
    at: usize,
}

/// Lists the instructions in `words`.
pub fn listing(words: &[u32]) -> Listing<'_> {
    Listing { words, at: 0 }
}

impl<'a> Iterator for Listing<'a> {
    type Item = Entry<'a>;

    fn next(&mut self) -> Option<Entry<'a>> {
        let rest = self.words.get(self.at..).filter(|r| !r.is_empty())?;
        let (inst, n) = match decode(rest) {
            Ok((inst, n)) => (Ok(inst), n),
            Err(e) => (Err(e), 1),
        };
        let entry = Entry { offset: self.at * 4, words: &rest[..n], inst };
        self.at += n;
        Some(entry)
    }
}
