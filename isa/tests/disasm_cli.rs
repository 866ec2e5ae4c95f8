//! The `ferrum-disasm` command on a binary blob, on hex text and on garbage.

mod common;

use common::samples;
use ferrum_isa::tables::Enc;
use ferrum_isa::{encode, Inst};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum-disasm"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ferrum-disasm");
    child.stdin.take().expect("stdin").write_all(stdin).expect("write stdin");
    child.wait_with_output().expect("ferrum-disasm runs")
}

fn program() -> Vec<Inst> {
    Enc::ALL
        .iter()
        .flat_map(|&e| e.forms().iter().take(5).flat_map(move |f| samples(e, f)))
        .collect()
}

#[test]
fn blob_from_file_lists_every_instruction() {
    let insts = program();
    let mut bytes = Vec::new();
    for i in &insts {
        bytes.extend(encode(i).expect("encodes").iter().flat_map(|w| w.to_le_bytes()));
    }
    let bad_at = bytes.len();
    bytes.extend(0xFFFF_FFFFu32.to_le_bytes()); // undecodable, then decoding continues
    bytes.extend(encode(&insts[0]).expect("encodes").iter().flat_map(|w| w.to_le_bytes()));
    let path = std::env::temp_dir().join(format!("ferrum-disasm-{}.bin", std::process::id()));
    std::fs::write(&path, &bytes).expect("write blob");
    let out = run(&["--plain", path.to_str().expect("utf-8 path")], b"");
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), insts.len() + 2);
    for (line, inst) in lines.iter().zip(&insts) {
        assert_eq!(*line, inst.to_string());
    }
    assert_eq!(lines[insts.len()], ".long 0xffffffff");
    assert_eq!(lines[insts.len() + 1], insts[0].to_string());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("offset {bad_at:#x}: undecodable word 0xffffffff")), "{err}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn hex_words_and_bytes() {
    let out = run(&["--hex"], b"bf810000, 0x7e0202ff 12345678\n");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.starts_with("s_endpgm"), "{text}");
    assert!(text.contains("v_mov_b32_e32 v1, 0x12345678"), "{text}");
    assert!(text.contains("// 000004: 7E0202FF 12345678"), "{text}");
    assert_eq!(out.status.code(), Some(0));
    // s_branch 1 at offset 0 skips one word: it lands at 8
    let out = run(&["--hex"], b"bf820001 bf800000 bf810000");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.lines().next().is_some_and(|l| l.ends_with("BF820001 -> 000008")), "{text}");
    let out = run(&["--hex", "--plain"], b"0x00,0x00,0x81,0xbf");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "s_endpgm\n");
    let out = run(&["--hex"], b"xyz");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn garbage_never_crashes() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let bytes: Vec<u8> = (0..40_003)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let out = run(&[], &bytes);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("trailing byte"));
}
