//! Random words in every encoding family, disassembled by llvm-mc and by us: whatever LLVM
//! decodes we must decode to the same length, and where our encoding of the result is the same
//! words (a canonical encoding), print the same text. This is the completeness check of the
//! tables from the other side: no opcode or form LLVM knows may be missing here.

mod common;

use common::*;
use ferrum_isa::{decode, encode, DecodeError};

/// Top bits of the first word of each family, so that random words hit them all.
const PREFIXES: [(u32, u32); 17] = [
    (0x8000_0000, 0xC000_0000), // SOP2 (and SOPK, SOP1, SOPC, SOPP below it)
    (0xB000_0000, 0xF000_0000), // SOPK
    (0xBE80_0000, 0xFF80_0000), // SOP1
    (0xBF00_0000, 0xFF80_0000), // SOPC
    (0xBF80_0000, 0xFF80_0000), // SOPP
    (0xF400_0000, 0xFC00_0000), // SMEM
    (0x0000_0000, 0x8000_0000), // VOP2
    (0x7E00_0000, 0xFE00_0000), // VOP1
    (0x7C00_0000, 0xFE00_0000), // VOPC
    (0xD400_0000, 0xFC00_0000), // VOP3
    (0xCC00_0000, 0xFC00_0000), // VOP3P
    (0xC800_0000, 0xFC00_0000), // VINTRP
    (0xD800_0000, 0xFC00_0000), // DS
    (0xE000_0000, 0xF400_0000), // MUBUF / MTBUF
    (0xDC00_0000, 0xFC00_0000), // FLAT
    (0xF000_0000, 0xFC00_0000), // MIMG
    (0xF800_0000, 0xFC00_0000), // EXP
];
const COPIES: usize = 5;

/// Seeded random candidates, one family prefix after the other.
fn candidates(seed: u64, count: usize) -> Vec<[u32; 5]> {
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u32
    };
    (0..count)
        .map(|k| {
            let (val, mask) = PREFIXES[k % PREFIXES.len()];
            let mut w = [0u32; 5];
            for v in &mut w {
                *v = next();
            }
            w[0] = (w[0] & !mask) | val;
            w
        })
        .collect()
}

/// LLVM's text and length for the first instruction of every candidate it decodes. Five
/// copies of `s_nop <index>` before each candidate keep the byte stream aligned. llvm-mc 14
/// crashes on a few words; the run resumes after the candidate it crashed on.
fn llvm_first(cands: &[[u32; 5]]) -> Vec<Option<(String, usize)>> {
    let mut first = vec![None; cands.len()];
    let mut from = 0;
    while from < cands.len() {
        let reached = llvm_run(cands, from, &mut first);
        if reached + 1 < cands.len() {
            eprintln!("llvm-mc stopped at candidate {reached}: {}", hex_line(&cands[reached]));
        }
        from = reached + 1;
    }
    first
}

/// One llvm-mc run over `cands[from..]`; returns the last candidate index it got to.
fn llvm_run(cands: &[[u32; 5]], from: usize, first: &mut [Option<(String, usize)>]) -> usize {
    let mut text = String::new();
    for (i, w) in cands.iter().enumerate().skip(from) {
        for _ in 0..COPIES {
            text += &hex_line(&[0xBF80_0000 | i as u32]);
            text.push('\n');
        }
        text += &hex_line(w);
        text.push('\n');
    }
    let (out, err) = llvm_mc(&["--disassemble", "-show-encoding"], &text).expect("llvm-mc runs");
    let bad: std::collections::HashSet<usize> = err
        .lines()
        .filter(|l| l.contains("warning"))
        .filter_map(|l| {
            let mut p = l.strip_prefix("<stdin>:")?.split(':');
            let line: usize = p.next()?.parse().ok()?;
            (p.next()? == "1").then_some(line)
        })
        .collect();
    let mut cur: Option<usize> = None;
    for (t, words) in parse_encodings(&out) {
        // a marker is the current index or one a little ahead (a candidate's leftover words
        // may have swallowed every copy of the next marker); a random s_nop is not a marker
        let k = (words[0] & 0xFFFF) as usize;
        let expected = cur.map_or(k >= from && k < from + 4, |c| k >= c && k <= c + 4);
        if words.len() == 1 && words[0] >> 16 == 0xBF80 && expected && t.starts_with("s_nop") {
            cur = Some(k);
            continue;
        }
        if let Some(c) = cur.filter(|&c| c < first.len() && first[c].is_none()) {
            first[c] = Some((t, words.len()));
        }
    }
    for (i, f) in first.iter_mut().enumerate().skip(from) {
        if bad.contains(&((i - from) * (COPIES + 1) + COPIES + 1)) {
            *f = None;
        }
    }
    let reached = cur.unwrap_or(from);
    if reached + 1 < cands.len() {
        first[reached] = None; // the word llvm-mc crashed on
    }
    reached
}

/// Words where LLVM 14 itself is inconsistent or decodes what it would not assemble.
fn llvm_quirk(w: &[u32; 5], llvm_text: &str, n: usize) -> bool {
    // `/*invalid immediate*/`, `/* Invalid dpp_ctrl value */`: decoded, but not instructions;
    // buffer_wbinvl1 (MUBUF 0xf1) is assembled by LLVM as 0x71 and left out of the tables
    // (LLVM's comments, `/* ... */`, always mark something it would not assemble)
    let lower = llvm_text.to_ascii_lowercase();
    if lower.contains("invalid") || lower.contains("/*") || llvm_text == "buffer_wbinvl1" {
        return true;
    }
    let ours = decode(w);
    if w[0] >> 26 == 0x3C {
        // MIMG: forms the assembler has no address count for (sampling an MSAA dim), gather4
        // with D16 and TFE (disassembler and assembler disagree), and malformed NSA fields
        let gather_d16_tfe = llvm_text.starts_with("image_gather4")
            && llvm_text.contains(" tfe")
            && llvm_text.ends_with(" d16");
        let bad_nsa = ours.as_ref().is_ok_and(|(i, _)| encode(i).map_or(true, |e| e[0] != w[0]));
        // (UnknownEncoding: the table has no address count for this opcode and dim)
        let no_addr = matches!(ours, Err(DecodeError::UnknownEncoding(_)));
        // atomics only have dmask 0x1, 0x3 (and 0xf for cmpswap); LLVM prints others oddly
        let dmask = w[0] >> 8 & 15;
        let odd_atomic = llvm_text.starts_with("image_atomic") && ![1, 3, 15].contains(&dmask);
        if gather_d16_tfe || bad_nsa || no_addr || odd_atomic {
            return true;
        }
    }
    // a VGPR range running past v255: LLVM prints it cut short
    let past_v255 = ours.as_ref().is_ok_and(|(i, _)| {
        i.to_string().split(['[', ']']).any(|r| {
            r.split_once(':').is_some_and(|(_, hi)| hi.parse::<u32>().is_ok_and(|h| h > 255))
        })
    });
    // a float inline constant in a 16-bit integer source: LLVM prints it as a literal and
    // consumes one more word; the hardware reads the inline constant
    let float_as_literal = ours
        .is_ok_and(|(i, m)| n == m + 1 && i.to_string().contains('.') && llvm_text.contains("0x"));
    past_v255 || float_as_literal
}

#[test]
fn llvm_decodes_nothing_we_do_not() {
    if !require_llvm() {
        return;
    }
    // FERRUM_FUZZ_SEED / FERRUM_FUZZ_COUNT (at most 60000) explore beyond the fixed CI run
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let seed = env("FERRUM_FUZZ_SEED").unwrap_or(0x1234_5678_9ABC_DEF1);
    let count = env("FERRUM_FUZZ_COUNT").unwrap_or(12_000).min(60_000) as usize;
    let cands = candidates(seed, count);
    let (mut checked, mut texts, mut failures) = (0, 0, Vec::new());
    for (w, first) in cands.iter().zip(llvm_first(&cands)) {
        let Some((llvm_text, n)) = first else { continue };
        if llvm_quirk(w, &llvm_text, n) {
            continue;
        }
        checked += 1;
        match decode(w) {
            Ok((inst, m)) if m == n => {
                // v_fmamk/v_fmaak_f16 with src0 sharing the K literal: LLVM prints src0 as 16
                // or 32 bits depending on the opcode; not compared as text
                let shared_k = llvm_text.starts_with("v_fma")
                    && llvm_text.contains("k_f16 ")
                    && w[0] & 0x1FF == 255;
                if encode(&inst).as_deref() == Ok(&w[..n]) && !shared_k {
                    texts += 1;
                    if inst.to_string() != llvm_text {
                        failures.push(format!(
                            "{}: ours `{inst}` llvm `{llvm_text}`",
                            hex_line(&w[..n])
                        ));
                    }
                }
            }
            other => failures.push(format!(
                "{}: llvm `{llvm_text}` ({n} words), ours {other:?}",
                hex_line(&w[..n])
            )),
        }
    }
    eprintln!("{checked} words decoded by LLVM, {texts} canonical ones compared as text");
    assert!(checked > count / 20, "too few decodable candidates: {checked}");
    let total = failures.len();
    failures.truncate(40);
    assert!(failures.is_empty(), "{total} disagreements:\n{}", failures.join("\n"));
}
