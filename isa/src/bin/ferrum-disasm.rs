//! `ferrum-disasm [--hex] [--plain] [FILE]`: disassemble RDNA2 (gfx1030) machine code.
//!
//! Input is raw little-endian bytes from FILE or stdin, or with `--hex` text: tokens separated
//! by whitespace or commas, each `0x`-prefixed or bare hex; if every token has at most two
//! digits they are bytes (llvm-mc's format), otherwise 32-bit words. Output is one instruction
//! per line in LLVM syntax, followed (unless `--plain`) by a `//` comment with the byte offset,
//! the words and, for branches, the target offset. Undecodable words are printed as `.long`
//! and reported on stderr with their offset, then skipped; the exit status is then 1.

use ferrum_isa::listing;
use std::io::{self, Read, Write};
use std::process::ExitCode;

struct Options {
    hex: bool,
    plain: bool,
    path: Option<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options { hex: false, plain: false, path: None };
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--hex" => o.hex = true,
            "--plain" => o.plain = true,
            "-h" | "--help" => return Err(String::new()),
            _ if a.starts_with('-') && a != "-" => return Err(format!("unknown option {a}")),
            _ if o.path.is_some() => return Err("more than one input file".into()),
            _ => o.path = Some(a),
        }
    }
    Ok(o)
}

fn read_input(path: Option<&str>) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    match path {
        Some(p) if p != "-" => buf = std::fs::read(p)?,
        _ => {
            io::stdin().read_to_end(&mut buf)?;
        }
    }
    Ok(buf)
}

/// Parses hex text into little-endian bytes.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_start_matches("0x").trim_start_matches("0X"))
        .collect();
    let bytes_only = tokens.iter().all(|t| t.len() <= 2);
    let mut out = Vec::new();
    for t in tokens {
        let v = u32::from_str_radix(t, 16).map_err(|_| format!("not a hex number: {t}"))?;
        if bytes_only {
            out.push(v as u8);
        } else if t.len() > 8 {
            return Err(format!("hex word longer than 32 bits: {t}"));
        } else {
            out.extend(v.to_le_bytes());
        }
    }
    Ok(out)
}

fn run(o: &Options) -> Result<bool, String> {
    let raw = read_input(o.path.as_deref()).map_err(|e| format!("cannot read input: {e}"))?;
    let bytes = if o.hex { parse_hex(&String::from_utf8_lossy(&raw))? } else { raw };
    let words: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut clean = true;
    for e in listing(&words) {
        let text = match &e.inst {
            Ok(inst) => inst.to_string(),
            Err(err) => {
                clean = false;
                eprintln!("offset {:#x}: undecodable word {:#010x}: {err}", e.offset, e.words[0]);
                format!(".long {:#010x}", e.words[0])
            }
        };
        let res = if o.plain {
            writeln!(out, "{text}")
        } else {
            let hex: Vec<String> = e.words.iter().map(|w| format!("{w:08X}")).collect();
            // PC-relative branches: where they land, in the same byte offsets
            let next = (e.offset + 4 * e.words.len()) as i64;
            let target = match e.inst.as_ref().ok().and_then(|i| i.branch_offset()) {
                Some(d) => format!(" -> {:06X}", next + d),
                None => String::new(),
            };
            writeln!(out, "{text:<56} // {:06X}: {}{target}", e.offset, hex.join(" "))
        };
        res.map_err(|e| format!("cannot write output: {e}"))?;
    }
    let tail = bytes.len() % 4;
    if tail != 0 {
        clean = false;
        eprintln!("offset {:#x}: {tail} trailing byte(s) do not form a word", bytes.len() - tail);
    }
    out.flush().map_err(|e| format!("cannot write output: {e}"))?;
    Ok(clean)
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("ferrum-disasm: {msg}");
            }
            eprintln!("usage: ferrum-disasm [--hex] [--plain] [FILE|-]");
            return ExitCode::from(2);
        }
    };
    match run(&opts) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(msg) => {
            eprintln!("ferrum-disasm: {msg}");
            ExitCode::from(2)
        }
    }
}
