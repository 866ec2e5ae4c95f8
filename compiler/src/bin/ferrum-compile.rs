//! `ferrum-compile FILE.spv [--entry NAME] [--stage compute|vertex|fragment] [--dump ir|spirv-ir]`:
//! compiles a SPIR-V module offline and prints the IR after lowering and optimization
//! (`ir`, the default) or straight out of the front end (`spirv-ir`).

use std::process::ExitCode;

use ferrum_compiler::ir::{print, Stage};

fn stage_of(words: &[u32]) -> Option<Stage> {
    let m = ferrum_compiler::spirv::load(words).ok()?;
    let ep = m.entry_points.first()?;
    match ep.operands.first() {
        Some(rspirv::dr::Operand::ExecutionModel(spirv::ExecutionModel::Vertex)) => {
            Some(Stage::Vertex)
        }
        Some(rspirv::dr::Operand::ExecutionModel(spirv::ExecutionModel::Fragment)) => {
            Some(Stage::Fragment)
        }
        _ => Some(Stage::Compute),
    }
}

fn run() -> Result<String, String> {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let (mut entry, mut stage, mut dump) = ("main".to_string(), None, "ir".to_string());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--entry" => entry = args.next().ok_or("--entry needs a name")?,
            "--dump" => dump = args.next().ok_or("--dump needs ir or spirv-ir")?,
            "--stage" => {
                stage = Some(match args.next().as_deref() {
                    Some("compute") => Stage::Compute,
                    Some("vertex") => Stage::Vertex,
                    Some("fragment") => Stage::Fragment,
                    _ => return Err("--stage needs compute, vertex or fragment".into()),
                })
            }
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a}")),
        }
    }
    let file = file
        .ok_or("usage: ferrum-compile FILE.spv [--entry NAME] [--stage S] [--dump ir|spirv-ir]")?;
    let bytes = std::fs::read(&file).map_err(|e| format!("{file}: {e}"))?;
    if bytes.len() % 4 != 0 {
        return Err(format!("{file}: size is not a multiple of 4 bytes"));
    }
    let words: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let stage = stage.or_else(|| stage_of(&words)).unwrap_or(Stage::Compute);
    let shader = match dump.as_str() {
        "ir" => ferrum_compiler::compile_to_ir(&words, &entry, stage, &Default::default()),
        "spirv-ir" => ferrum_compiler::spirv::to_ir(&words, &entry, stage, &Default::default()),
        other => return Err(format!("unknown dump {other}")),
    }
    .map_err(|e| format!("{file}: {e}"))?;
    Ok(print::shader_text(&shader))
}

fn main() -> ExitCode {
    match run() {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ferrum-compile: {e}");
            ExitCode::FAILURE
        }
    }
}
