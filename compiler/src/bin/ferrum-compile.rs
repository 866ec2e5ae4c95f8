//! `ferrum-compile FILE.spv [--entry NAME] [--stage comp|compute|vertex|fragment]
//! [--dump isa|ir|spirv-ir] [--stats json]`: compiles a SPIR-V module offline, like AMD's Radeon
//! GPU Analyzer. For compute shaders by default (or with `--dump isa`) it prints the RDNA2
//! disassembly in LLVM syntax (reassemblable with `llvm-mc -arch=amdgcn -mcpu=gfx1030`) and a
//! statistics comment; `--dump ir` (the default for other stages) prints the IR after lowering
//! and optimization, `--dump spirv-ir` straight out of the front end. `--stats json` ends the output with one JSON object of statistics.
//! Any failure is one line on stderr and exit status 1.

use std::process::ExitCode;

use ferrum_compiler::amd;
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

struct Args {
    file: String,
    entry: String,
    stage: Option<Stage>,
    dump: Option<String>,
    stats_json: bool,
    /// Vertex input rates (`--instance-rate LOC[:DIVISOR]`; other locations per vertex).
    vs_key: amd::abi::graphics::VsKey,
}

const USAGE: &str = "usage: ferrum-compile FILE.spv [--entry NAME] [--stage comp|vertex|fragment] \
                     [--dump isa|ir|spirv-ir] [--stats json] \
                     [--instance-rate LOCATION[:DIVISOR]]...";

/// `LOCATION[:DIVISOR]` of `--instance-rate` (divisor 1 when left out).
fn instance_rate(arg: Option<&str>) -> Result<(usize, u32), String> {
    let bad = || "--instance-rate needs LOCATION[:DIVISOR] (location below 32)".to_string();
    let arg = arg.ok_or_else(bad)?;
    let (loc, div) = arg.split_once(':').unwrap_or((arg, "1"));
    let loc: usize = loc.parse().map_err(|_| bad())?;
    let div: u32 = div.parse().map_err(|_| bad())?;
    if loc >= amd::abi::graphics::MAX_VERTEX_INPUTS {
        return Err(bad());
    }
    Ok((loc, div))
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let (mut entry, mut stage, mut dump) = ("main".to_string(), None, None);
    let mut stats_json = false;
    let mut vs_key = amd::abi::graphics::VsKey::default();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--entry" => entry = args.next().ok_or("--entry needs a name")?,
            "--dump" => dump = Some(args.next().ok_or("--dump needs isa, ir or spirv-ir")?),
            "--stats" => match args.next().as_deref() {
                Some("json") => stats_json = true,
                _ => return Err("--stats needs json".into()),
            },
            "--stage" => {
                stage = Some(match args.next().as_deref() {
                    Some("comp" | "compute") => Stage::Compute,
                    Some("vert" | "vertex") => Stage::Vertex,
                    Some("frag" | "fragment") => Stage::Fragment,
                    _ => return Err("--stage needs comp, vertex or fragment".into()),
                })
            }
            "--instance-rate" => {
                let (loc, divisor) = instance_rate(args.next().as_deref())?;
                vs_key.rates[loc] = amd::abi::graphics::InputRate::Instance { divisor };
            }
            _ if file.is_none() && !a.starts_with("--") => file = Some(a),
            _ => return Err(format!("unexpected argument {a}")),
        }
    }
    Ok(Args { file: file.ok_or(USAGE)?, entry, stage, dump, stats_json, vs_key })
}

fn run() -> Result<String, String> {
    let args = parse_args()?;
    let file = &args.file;
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    if bytes.len() % 4 != 0 {
        return Err(format!("{file}: size is not a multiple of 4 bytes"));
    }
    let words: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let stage = args.stage.or_else(|| stage_of(&words)).unwrap_or(Stage::Compute);
    let spec = Default::default();
    let fail = |e: &dyn std::fmt::Display| format!("{file}: {e}");
    // Graphics stages show their IR by default (the backend has no image support yet);
    // `--dump isa` compiles them with 32-bit colour exports and prints their registers.
    let dump = args
        .dump
        .clone()
        .unwrap_or_else(|| if stage == Stage::Compute { "isa" } else { "ir" }.to_string());
    match dump.as_str() {
        "spirv-ir" => {
            let s = ferrum_compiler::spirv::to_ir(&words, &args.entry, stage, &spec)
                .map_err(|e| fail(&e))?;
            Ok(print::shader_text(&s))
        }
        "ir" => {
            let s = ferrum_compiler::compile_to_ir(&words, &args.entry, stage, &spec)
                .map_err(|e| fail(&e))?;
            Ok(print::shader_text(&s))
        }
        "isa" => {
            let s = ferrum_compiler::compile_to_ir(&words, &args.entry, stage, &spec)
                .map_err(|e| fail(&e))?;
            let layout = amd::default_layout(&s);
            let (text, stats, regs) = if stage == Stage::Compute {
                let bin = amd::compile(&s, &layout).map_err(|e| fail(&e))?;
                (bin.isa_text, bin.stats, String::new())
            } else {
                let key = amd::abi::graphics::GfxKey { vs: args.vs_key, ..Default::default() };
                let bin = amd::compile_graphics(&s, &layout, key).map_err(|e| fail(&e))?;
                (bin.isa_text, bin.stats, format!("; {:x?}\n", bin.metadata))
            };
            let st = &stats;
            let mut out = text;
            out.push_str(&regs);
            out.push_str(&format!(
                "; instructions: {}, code size: {} bytes, vgprs: {}, sgprs: {}, lds: {} bytes, \
                 scratch: {} bytes, compile: {:.3} ms\n",
                st.instructions,
                st.code_size,
                st.vgprs,
                st.sgprs,
                st.lds_size,
                st.scratch_size,
                st.compile_ms
            ));
            if args.stats_json {
                out.push_str(&st.to_json());
                out.push('\n');
            }
            Ok(out)
        }
        other => Err(format!("unknown dump {other} (isa, ir or spirv-ir)")),
    }
}

fn main() -> ExitCode {
    // A panic is a compiler bug, but the user still gets one line and status 1.
    std::panic::set_hook(Box::new(|_| {}));
    match std::panic::catch_unwind(run) {
        Ok(Ok(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => {
            eprintln!("ferrum-compile: {e}");
            ExitCode::FAILURE
        }
        Err(p) => {
            let what = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            eprintln!("ferrum-compile: internal compiler error: {what}");
            ExitCode::FAILURE
        }
    }
}
