//! SPIR-V assembly for one instruction under test: each invocation reads the instruction's
//! operands (as 64-bit words, converted to the operand types) from a buffer, applies the
//! instruction once, and writes the result zero-extended to 64 bits. Operands come from a
//! storage buffer indexed by the invocation (divergent: vector registers) or from a uniform
//! buffer indexed by the workgroup (uniform: scalar registers).
#![allow(dead_code)]

use std::collections::HashMap;

use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
use ferrum_compiler::ir::Stage;

use super::gpu::Gpu;

/// An operand's or result's type: integer or float of `bits`, or a boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int(u8),
    Float(u8),
    Bool,
}

impl Ty {
    fn name(self) -> String {
        match self {
            Ty::Int(b) => format!("%u{b}"),
            Ty::Float(b) => format!("%f{b}"),
            Ty::Bool => "%bool".into(),
        }
    }
    /// Bits of the value (1 for booleans).
    pub fn bits(self) -> u8 {
        match self {
            Ty::Int(b) | Ty::Float(b) => b,
            Ty::Bool => 1,
        }
    }
}

/// How the instruction is written.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    /// A core opcode (`OpIAdd`).
    Core(&'static str),
    /// A GLSL.std.450 instruction (`SSign`).
    Glsl(&'static str),
    /// One member of a core opcode's two-member struct result (`SMulExtended`, member 1: the
    /// high half).
    Member(&'static str, u32),
    /// A core opcode whose result is decorated `FPRoundingMode` (`FConvert`, `RTZ`).
    Rounded(&'static str, &'static str),
}

/// One instruction with its operand and result types.
#[derive(Clone, Debug)]
pub struct OpCase {
    pub form: Form,
    pub result: Ty,
    pub operands: Vec<Ty>,
}

/// Where the operands come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Divergent,
    Uniform,
}

const LOCAL: usize = 64;

/// Converts the 64-bit word `w` to `ty`; returns the instructions and the id.
fn from_word(ty: Ty, w: &str, id: &str) -> (String, String) {
    match ty {
        Ty::Int(64) => (String::new(), w.into()),
        Ty::Int(b) => (format!("{id} = OpUConvert %u{b} {w}\n"), id.into()),
        Ty::Float(64) => (format!("{id} = OpBitcast %f64 {w}\n"), id.into()),
        Ty::Float(b) => {
            (format!("{id}i = OpUConvert %u{b} {w}\n{id} = OpBitcast %f{b} {id}i\n"), id.into())
        }
        Ty::Bool => (format!("{id} = OpINotEqual %bool {w} %c0_64\n"), id.into()),
    }
}

/// Converts a value of `ty` to a 64-bit word.
fn to_word(ty: Ty, v: &str) -> String {
    match ty {
        Ty::Int(64) => format!("%rw = OpCopyObject %u64 {v}\n"),
        Ty::Int(_) => format!("%rw = OpUConvert %u64 {v}\n"),
        Ty::Float(64) => format!("%rw = OpBitcast %u64 {v}\n"),
        Ty::Float(b) => format!("%ri = OpBitcast %u{b} {v}\n%rw = OpUConvert %u64 %ri\n"),
        Ty::Bool => format!("%rw = OpSelect %u64 {v} %c1_64 %c0_64\n"),
    }
}

/// The module for `case` reading its operands from `src`; `n` invocations.
pub fn module(case: &OpCase, src: Source, n: usize) -> String {
    let arity = case.operands.len();
    let mut all: Vec<Ty> = case.operands.clone();
    all.push(case.result);
    let mut caps = String::from("OpCapability Shader\nOpCapability Int64\n");
    let (mut ints, mut floats) = (vec![32u8, 64], Vec::new());
    for t in &all {
        match *t {
            Ty::Int(b) if !ints.contains(&b) => ints.push(b),
            Ty::Float(b) if !floats.contains(&b) => floats.push(b),
            _ => {}
        }
    }
    // Floats travel through integers of their width.
    for &b in &floats {
        if !ints.contains(&b) {
            ints.push(b);
        }
    }
    if ints.contains(&8) {
        caps += "OpCapability Int8\n";
    }
    if ints.contains(&16) {
        caps += "OpCapability Int16\n";
    }
    if floats.contains(&16) {
        caps += "OpCapability Float16\n";
    }
    if floats.contains(&64) {
        caps += "OpCapability Float64\n";
    }
    let glsl = matches!(case.form, Form::Glsl(_));
    let mut s = caps;
    if glsl {
        s += "%glsl = OpExtInstImport \"GLSL.std.450\"\n";
    }
    let (builtin, var) = match src {
        Source::Divergent => ("GlobalInvocationId", "%gid"),
        Source::Uniform => ("WorkgroupId", "%wid"),
    };
    let local = if src == Source::Divergent { LOCAL } else { 1 };
    let (in_stride, in_class, in_len) = match src {
        Source::Divergent => (8, "StorageBuffer", None),
        Source::Uniform => (16, "Uniform", Some(n * arity)),
    };
    let rounding = match case.form {
        Form::Rounded(_, mode) => format!("OpDecorate %r FPRoundingMode {mode}\n"),
        _ => String::new(),
    };
    s += &format!(
        "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" {var}\n\
         OpExecutionMode %main LocalSize {local} 1 1\nOpDecorate {var} BuiltIn {builtin}\n\
         OpDecorate %ain ArrayStride {in_stride}\nOpDecorate %aout ArrayStride 8\n\
         OpMemberDecorate %Sin 0 Offset 0\nOpMemberDecorate %Sout 0 Offset 0\n\
         OpDecorate %Sin Block\nOpDecorate %Sout Block\n\
         OpDecorate %in DescriptorSet 0\nOpDecorate %in Binding 0\n\
         OpDecorate %out DescriptorSet 0\nOpDecorate %out Binding 1\n{rounding}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n"
    );
    for &b in &ints {
        s += &format!("%u{b} = OpTypeInt {b} 0\n");
    }
    for &b in &floats {
        s += &format!("%f{b} = OpTypeFloat {b}\n");
    }
    if matches!(case.form, Form::Member(..)) {
        let rt = case.result.name();
        s += &format!("%rs = OpTypeStruct {rt} {rt}\n");
    }
    let arr = match in_len {
        Some(len) => format!("%nin = OpConstant %u32 {len}\n%ain = OpTypeArray %u64 %nin\n"),
        None => "%ain = OpTypeRuntimeArray %u64\n".into(),
    };
    s += &format!(
        "%v3 = OpTypeVector %u32 3\n%pv3 = OpTypePointer Input %v3\n{var} = OpVariable %pv3 Input\n\
         {arr}%aout = OpTypeRuntimeArray %u64\n%Sin = OpTypeStruct %ain\n%Sout = OpTypeStruct %aout\n\
         %pSin = OpTypePointer {in_class} %Sin\n%pSout = OpTypePointer StorageBuffer %Sout\n\
         %in = OpVariable %pSin {in_class}\n%out = OpVariable %pSout StorageBuffer\n\
         %pin = OpTypePointer {in_class} %u64\n%pout = OpTypePointer StorageBuffer %u64\n\
         %c0 = OpConstant %u32 0\n%c0_64 = OpConstant %u64 0\n%c1_64 = OpConstant %u64 1\n\
         %arity = OpConstant %u32 {arity}\n"
    );
    for j in 0..arity {
        s += &format!("%k{j} = OpConstant %u32 {j}\n");
    }
    s += &format!(
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n%idv = OpLoad %v3 {var}\n\
         %i = OpCompositeExtract %u32 %idv 0\n%base = OpIMul %u32 %i %arity\n"
    );
    let mut args = Vec::new();
    for (j, &t) in case.operands.iter().enumerate() {
        s += &format!(
            "%x{j} = OpIAdd %u32 %base %k{j}\n%p{j} = OpAccessChain %pin %in %c0 %x{j}\n\
             %w{j} = OpLoad %u64 %p{j}\n"
        );
        let (code, id) = from_word(t, &format!("%w{j}"), &format!("%a{j}"));
        s += &code;
        args.push(id);
    }
    let rt = case.result.name();
    s += &match case.form {
        Form::Core(op) | Form::Rounded(op, _) => format!("%r = Op{op} {rt} {}\n", args.join(" ")),
        Form::Glsl(op) => format!("%r = OpExtInst {rt} %glsl {op} {}\n", args.join(" ")),
        Form::Member(op, k) => {
            format!("%rr = Op{op} %rs {}\n%r = OpCompositeExtract {rt} %rr {k}\n", args.join(" "))
        }
    };
    s += &to_word(case.result, "%r");
    s += "%po = OpAccessChain %pout %out %c0 %i\nOpStore %po %rw\nOpReturn\nOpFunctionEnd\n";
    s
}

/// Assembles SPIR-V text with spirv-as.
pub fn assemble(text: &str, tag: &str) -> Vec<u32> {
    // Tests run in parallel threads, and one tag can name different modules (one opcode on
    // several types): a per-call number keeps their files apart.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = std::env::temp_dir()
        .join(format!("ferrum-spvgen-{}-{call}-{tag}.spvasm", std::process::id()));
    std::fs::write(&p, text).unwrap();
    let w = super::spvasm_to_spirv(&p);
    let _ = std::fs::remove_file(&p);
    w
}

/// Results of `case` on `inputs` (one operand list per evaluation) from the interpreter and
/// from the simulator, as 64-bit words; Err if a stage refuses or fails.
pub fn run(
    gpu: &Gpu,
    case: &OpCase,
    src: Source,
    inputs: &[Vec<u64>],
) -> Result<(Vec<u64>, Vec<u64>), String> {
    let arity = case.operands.len();
    let n = inputs.len().next_multiple_of(if src == Source::Divergent { LOCAL } else { 1 });
    let text = module(case, src, n);
    let tag = format!("{:?}-{src:?}", case.form).replace(['(', ')', '"'], "");
    let words = assemble(&text, &tag);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &HashMap::new())
        .map_err(|e| format!("front end: {e}"))?;
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).map_err(|e| format!("backend: {e}"))?;
    let stride = if src == Source::Divergent { 8 } else { 16 };
    let mut data = vec![0u8; n * arity * stride];
    for k in 0..n {
        let ops = &inputs[k.min(inputs.len() - 1)];
        for (j, v) in ops.iter().enumerate() {
            let at = (k * arity + j) * stride;
            data[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
    }
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0u8; n * 8] },
        ],
        ..Default::default()
    };
    let groups = match src {
        Source::Divergent => [(n / LOCAL) as u32, 1, 1],
        Source::Uniform => [n as u32, 1, 1],
    };
    let mut want = res.clone();
    interp::run(&ir, groups, &mut want).map_err(|e| format!("interpreter: {e}"))?;
    let got = gpu.run(&bin, &layout, groups, &res).map_err(|e| format!("{e}\n{}", bin.isa_text))?;
    let words = |r: &Resources| -> Vec<u64> {
        r.buffers[1]
            .data
            .chunks_exact(8)
            .take(inputs.len())
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    Ok((words(&want), words(&got)))
}
