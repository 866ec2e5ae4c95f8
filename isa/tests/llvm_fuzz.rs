//! Random words in every encoding family, disassembled by llvm-mc and by us: whatever LLVM
//! decodes we must decode to the same length, and where our encoding of the result is the same
//! words (a canonical encoding), print the same text. This is the completeness check of the
//! tables from the other side: no opcode or form LLVM knows may be missing here.

mod common;

use common::*;
use ferrum_isa::{decode, encode};

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

fn line(words: &[u32]) -> String {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:#04x}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn llvm_decodes_nothing_we_do_not() {
    if !require_llvm() {
        return;
    }
    // FERRUM_FUZZ_SEED / FERRUM_FUZZ_COUNT (at most 60000) explore beyond the fixed CI run
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let mut x = env("FERRUM_FUZZ_SEED").unwrap_or(0x1234_5678_9ABC_DEF1) | 1;
    let count = env("FERRUM_FUZZ_COUNT").unwrap_or(30_000).min(60_000) as usize;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u32
    };
    let mut cands = Vec::new();
    for k in 0..count {
        let (val, mask) = PREFIXES[k % PREFIXES.len()];
        let mut w = [0u32; 5];
        for v in &mut w {
            *v = next();
        }
        w[0] = (w[0] & !mask) | val;
        cands.push(w);
    }
    // five copies of `s_nop <index>` before each candidate keep the byte stream aligned
    let mut text = String::new();
    for (i, w) in cands.iter().enumerate() {
        for _ in 0..COPIES {
            text += &line(&[0xBF80_0000 | i as u32]);
            text.push('\n');
        }
        text += &line(w);
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
    let mut first: Vec<Option<(String, usize)>> = vec![None; cands.len()];
    let mut cur: Option<usize> = None;
    for (t, words) in parse_encodings(&out) {
        // a marker is the next index (or a repeat); a random s_nop candidate is not a marker
        let k = (words[0] & 0xFFFF) as usize;
        let expected = cur.map_or(k == 0, |c| k == c || k == c + 1);
        if words.len() == 1 && words[0] >> 16 == 0xBF80 && expected && t.starts_with("s_nop") {
            cur = Some(k);
            continue;
        }
        if let Some(c) = cur {
            if c < first.len() && first[c].is_none() {
                first[c] = Some((t, words.len()));
            }
        }
    }
    let (mut checked, mut texts, mut failures) = (0, 0, Vec::new());
    for (i, w) in cands.iter().enumerate() {
        let cand_line = i * (COPIES + 1) + COPIES + 1;
        let Some((llvm_text, n)) = first[i].clone().filter(|_| !bad.contains(&cand_line)) else {
            continue;
        };
        // LLVM's disassembler also decodes what its assembler refuses, marking it in the text
        // (`/*invalid immediate*/`, `/* Invalid dpp_ctrl value */`); we refuse those words.
        // buffer_wbinvl1 (MUBUF 0xf1) is decoded by LLVM 14 but assembled by it as 0x71; it
        // is left out of the tables (isa/gen/emit.py, NOT_GFX10).
        if llvm_text.to_ascii_lowercase().contains("invalid") || llvm_text == "buffer_wbinvl1" {
            continue;
        }
        // MIMG forms the assembler has no address count for (e.g. sampling an MSAA dim), and
        // gather4 with both D16 and TFE, where LLVM's disassembler and assembler disagree.
        if w[0] >> 26 == 0x3C {
            let gather_d16_tfe =
                llvm_text.starts_with("image_gather4") && llvm_text.contains("tfe d16");
            if gather_d16_tfe || decode(w).is_err() && llvm_text.contains("MSAA") {
                continue;
            }
        }
        // a VGPR range running past v255: LLVM prints it cut short
        let past_v255 = decode(w).is_ok_and(|(i, _)| {
            i.to_string().split(['[', ']']).any(|r| {
                r.split_once(':').is_some_and(|(_, hi)| hi.parse::<u32>().is_ok_and(|h| h > 255))
            })
        });
        if past_v255 {
            continue;
        }
        checked += 1;
        // LLVM 14 reads a literal dword after a float inline constant in a 16-bit integer
        // VOPC/VOP1/VOP2 source (it prints e.g. `0x4000` for 2.0 and consumes two words);
        // the hardware reads the inline constant and no literal.
        let vop = w[0] >> 31 == 0 && (240..=248).contains(&(w[0] & 0x1FF));
        if vop && n == 2 && decode(w).is_ok_and(|(_, m)| m == 1) {
            continue;
        }
        // NSA image instructions whose NSA field disagrees with the address count are
        // malformed; LLVM's decoder then prints a partial address list. Not compared.
        if w[0] >> 26 == 0x3C
            && decode(w).is_ok_and(|(i, _)| encode(&i).map_or(true, |e| e[0] != w[0]))
        {
            continue;
        }
        match decode(w) {
            Ok((inst, m)) if m == n => {
                // v_fmamk/v_fmaak_f16 with src0 sharing the K literal: LLVM prints src0 as 16 or
                // 32 bits depending on the opcode; not compared
                let shared_k = llvm_text.starts_with("v_fma")
                    && llvm_text.contains("k_f16 ")
                    && w[0] & 0x1FF == 255;
                if encode(&inst).as_deref() == Ok(&w[..n]) && !llvm_text.contains("/*") && !shared_k
                {
                    texts += 1;
                    if inst.to_string() != llvm_text {
                        failures
                            .push(format!("{}: ours `{inst}` llvm `{llvm_text}`", line(&w[..n])));
                    }
                }
            }
            other => failures
                .push(format!("{}: llvm `{llvm_text}` ({n} words), ours {other:?}", line(&w[..n]))),
        }
    }
    eprintln!("{checked} words decoded by LLVM, {texts} canonical ones compared as text");
    assert!(checked > count / 20, "too few decodable candidates: {checked}");
    let total = failures.len();
    failures.truncate(40);
    assert!(failures.is_empty(), "{total} disagreements:\n{}", failures.join("\n"));
}
