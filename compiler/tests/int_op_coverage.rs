//! Every integer instruction of the front end's tables (core arithmetic, bit, shift and
//! compare opcodes, the GLSL.std.450 integer functions, width conversions) on every integer
//! width it accepts (8, 16, 32, 64 bits), with edge-value operands (0, 1, all ones, INT_MIN,
//! INT_MAX, patterns; shift counts 0, 1, width/2, width-1), divergent and uniform: the backend
//! compiles each one and the simulator gives the interpreter's results.

mod common;

use common::gpu::Gpu;
use common::spvgen::{run, Form, OpCase, Source, Ty};

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn values(w: u32) -> Vec<u64> {
    let m = mask(w);
    vec![0, 1, m, 1 << (w - 1), m >> 1, 0x5a5a_5a5a_a5a5_a5a5 & m, 3]
}

const UNARY: &[Form] = &[
    Form::Core("SNegate"),
    Form::Core("Not"),
    Form::Core("BitCount"),
    Form::Core("BitReverse"),
    Form::Glsl("SAbs"),
    Form::Glsl("SSign"),
    Form::Glsl("FindILsb"),
    Form::Glsl("FindSMsb"),
    Form::Glsl("FindUMsb"),
];

const BINARY: &[Form] = &[
    Form::Core("IAdd"),
    Form::Core("ISub"),
    Form::Core("IMul"),
    Form::Core("UDiv"),
    Form::Core("SDiv"),
    Form::Core("UMod"),
    Form::Core("SRem"),
    Form::Core("SMod"),
    Form::Core("BitwiseAnd"),
    Form::Core("BitwiseOr"),
    Form::Core("BitwiseXor"),
    Form::Glsl("UMin"),
    Form::Glsl("SMin"),
    Form::Glsl("UMax"),
    Form::Glsl("SMax"),
];

const SHIFTS: &[Form] = &[
    Form::Core("ShiftLeftLogical"),
    Form::Core("ShiftRightLogical"),
    Form::Core("ShiftRightArithmetic"),
];

const COMPARES: &[Form] = &[
    Form::Core("IEqual"),
    Form::Core("INotEqual"),
    Form::Core("ULessThan"),
    Form::Core("UGreaterThan"),
    Form::Core("ULessThanEqual"),
    Form::Core("UGreaterThanEqual"),
    Form::Core("SLessThan"),
    Form::Core("SGreaterThan"),
    Form::Core("SLessThanEqual"),
    Form::Core("SGreaterThanEqual"),
];

const WIDTHS: [u8; 4] = [8, 16, 32, 64];

fn check(gpu: &Gpu, case: &OpCase, inputs: &[Vec<u64>], fails: &mut Vec<String>) {
    for src in [Source::Divergent, Source::Uniform] {
        match run(gpu, case, src, inputs) {
            Ok((interp, sim)) => {
                if let Some(k) = (0..inputs.len()).find(|&k| interp[k] != sim[k]) {
                    fails.push(format!(
                        "{:?} {:?}<-{:?} {src:?} {:x?}: interpreter {:#x} simulator {:#x}",
                        case.form, case.result, case.operands, inputs[k], interp[k], sim[k]
                    ));
                }
            }
            Err(e) => fails.push(format!(
                "{:?} {:?}<-{:?} {src:?}: {}",
                case.form,
                case.result,
                case.operands,
                e.lines().next().unwrap_or("")
            )),
        }
    }
}

fn pairs(a: &[u64], b: &[u64]) -> Vec<Vec<u64>> {
    a.iter().flat_map(|&x| b.iter().map(move |&y| vec![x, y])).collect()
}

#[test]
fn integer_instructions_at_every_width() {
    let gpu = Gpu::new();
    let mut fails = Vec::new();
    for w in WIDTHS {
        let (t, wb) = (Ty::Int(w), u32::from(w));
        let vals = values(wb);
        let unary: Vec<Vec<u64>> = vals.iter().map(|&v| vec![v]).collect();
        for &form in UNARY {
            check(&gpu, &OpCase { form, result: t, operands: vec![t] }, &unary, &mut fails);
        }
        for &form in BINARY {
            let case = OpCase { form, result: t, operands: vec![t, t] };
            check(&gpu, &case, &pairs(&vals, &vals), &mut fails);
        }
        let counts = [0, 1, u64::from(w / 2), u64::from(w) - 1];
        for &form in SHIFTS {
            let case = OpCase { form, result: t, operands: vec![t, t] };
            check(&gpu, &case, &pairs(&vals, &counts), &mut fails);
        }
        for &form in COMPARES {
            let case = OpCase { form, result: Ty::Bool, operands: vec![t, t] };
            check(&gpu, &case, &pairs(&vals, &vals), &mut fails);
        }
        for form in [Form::Glsl("UClamp"), Form::Glsl("SClamp")] {
            let case = OpCase { form, result: t, operands: vec![t, t, t] };
            let inputs: Vec<Vec<u64>> =
                pairs(&vals, &vals).into_iter().map(|p| vec![p[0], vals[1], p[1]]).collect();
            check(&gpu, &case, &inputs, &mut fails);
        }
        for to in WIDTHS.into_iter().filter(|&d| d != w) {
            for op in ["UConvert", "SConvert"] {
                let case = OpCase { form: Form::Core(op), result: Ty::Int(to), operands: vec![t] };
                check(&gpu, &case, &unary, &mut fails);
            }
        }
    }
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

/// Float to integer conversions into every width from f32 and f64: in range, at the narrow
/// types' limits and past them (saturated), ±0, NaN.
#[test]
fn float_to_integer_at_every_width() {
    let gpu = Gpu::new();
    let mut fails = Vec::new();
    let reals =
        [0.0f64, -0.0, 1.5, -1.5, 127.9, -128.9, 255.5, 65535.0, -32768.5, 3e9, -3e9, f64::NAN];
    for fb in [32u8, 64] {
        let inputs: Vec<Vec<u64>> = reals
            .iter()
            .map(|&r| vec![if fb == 32 { u64::from((r as f32).to_bits()) } else { r.to_bits() }])
            .collect();
        for w in [8u8, 16, 32] {
            for op in ["ConvertFToS", "ConvertFToU"] {
                let case = OpCase {
                    form: Form::Core(op),
                    result: Ty::Int(w),
                    operands: vec![Ty::Float(fb)],
                };
                check(&gpu, &case, &inputs, &mut fails);
            }
        }
    }
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}
