//! Shared test helpers: representative instructions for every form, and batched llvm-mc.

#![allow(dead_code)]

mod mem;
mod samples;
mod vector;

#[allow(unused_imports)] // not every test binary uses every helper
pub use samples::samples;

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs llvm-mc; None when it is not installed.
pub fn llvm_mc(args: &[&str], input: &str) -> Option<(String, String)> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", "-mcpu=gfx1030"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    Some((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Fails loudly (or skips loudly with FERRUM_ALLOW_NO_LLVM=1) when llvm-mc is missing.
pub fn require_llvm() -> bool {
    if llvm_mc(&["--version"], "").is_some() {
        return true;
    }
    eprintln!("*** llvm-mc NOT FOUND: the ISA encodings cannot be checked against LLVM ***");
    if std::env::var("FERRUM_ALLOW_NO_LLVM").as_deref() == Ok("1") {
        eprintln!("*** FERRUM_ALLOW_NO_LLVM=1: skipping ***");
        return false;
    }
    panic!("llvm-mc is required (install Debian package `llvm`), or set FERRUM_ALLOW_NO_LLVM=1");
}

/// Machine words as llvm-mc's `--disassemble` input: little-endian bytes, comma-separated.
pub fn hex_line(words: &[u32]) -> String {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:#04x}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses `text ; encoding: [0x..,..]` lines.
pub fn parse_encodings(stdout: &str) -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    for l in stdout.lines() {
        let Some((text, enc)) = l.split_once("; encoding:") else { continue };
        let bytes: Vec<u8> = enc
            .trim()
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        let words =
            bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32)).collect();
        out.push((text.trim().to_string(), words));
    }
    out
}

/// Lines of `stderr` that report errors, as 1-based input line numbers.
pub fn error_lines(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter(|l| l.contains("error") || l.contains("warning"))
        .filter_map(|l| l.strip_prefix("<stdin>:")?.split(':').next()?.parse().ok())
        .collect()
}
