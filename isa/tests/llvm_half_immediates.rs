//! Immediates on 16-bit operands against llvm-mc: a literal that `llvm-mc` assembles into an
//! inline constant (the f16 float constants on half-precision operands, -16..=64 on every
//! 16-bit operand) is folded by `Inst::fold_half_immediates` into exactly the words LLVM
//! produces, and the folded instruction's text round-trips through the assembler and the
//! disassembler. Operands that are not 16 bits wide keep their literal.

mod common;

use common::*;
use ferrum_isa::*;

/// One instruction per (opcode, source position), the source under test holding `v`; 32-bit
/// sources only with values that are no 32-bit inline constant either.
fn shapes(v: u32) -> Vec<Inst> {
    let lit = Operand::Literal(v);
    let (v1, v2, v3) = (Operand::Vgpr(1), Operand::Vgpr(2), Operand::Vgpr(3));
    let vop3 = |op, src| Inst::Vop3(Vop3::new(op, Operand::Vgpr(0), src));
    let cmp3 = |op, src| {
        let mut i = Vop3::new(op, Operand::Sgpr(4), src);
        i.vdst = Operand::Sgpr(4);
        Inst::Vop3(i)
    };
    let mut out = vec![
        Inst::Vop2(Vop2::new(Opcode::V_ADD_F16, 0, lit, 1)),
        Inst::Vop2(Vop2::new(Opcode::V_SUBREV_F16, 0, lit, 1)),
        Inst::Vop1(Vop1::new(Opcode::V_CVT_F32_F16, Operand::Vgpr(0), lit)),
        Inst::Vop1(Vop1::new(Opcode::V_SQRT_F16, Operand::Vgpr(0), lit)),
        Inst::Vop1(Vop1::new(Opcode::V_CVT_F16_I16, Operand::Vgpr(0), lit)),
        Inst::Vopc(Vopc::new(Opcode::V_CMP_LT_F16, lit, 1)),
        cmp3(Opcode::V_CMP_GE_F16, [v1, lit, v3]),
        cmp3(Opcode::V_CMP_CLASS_F16, [lit, v1, v3]),
        vop3(Opcode::V_FMA_F16, [lit, v1, v2]),
        vop3(Opcode::V_FMA_F16, [v1, lit, v2]),
        vop3(Opcode::V_FMA_F16, [v1, v2, lit]),
        vop3(Opcode::V_MUL_F16, [v2, lit, v3]),
        vop3(Opcode::V_ADD_NC_U16, [lit, v1, v3]),
        vop3(Opcode::V_MED3_I16, [v1, v2, lit]),
    ];
    if v > 64 {
        // 32-bit operands (the class mask, the exponent, f32 sources): literals stay.
        out.extend([
            cmp3(Opcode::V_CMP_CLASS_F16, [v1, lit, v3]),
            vop3(Opcode::V_LDEXP_F16, [v1, lit, v3]),
            Inst::Vop2(Vop2::new(Opcode::V_ADD_F32, 0, lit, 1)),
            Inst::Vop1(Vop1::new(Opcode::V_CVT_F16_F32, Operand::Vgpr(0), lit)),
        ]);
    }
    out
}

/// 16-bit values around every inline constant, plus a sweep of the rest.
fn values() -> Vec<u32> {
    let mut v: Vec<u32> = (-20i32..=70).map(|i| i as u16 as u32).collect();
    for b in [0x3800u32, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118] {
        v.extend([b - 1, b, b + 1]);
    }
    v.extend((0..=0xffff).step_by(509));
    v
}

#[test]
fn folded_half_immediates_are_what_llvm_assembles() {
    if !require_llvm() {
        return;
    }
    let mut raw = Vec::new();
    let mut folded = Vec::new();
    for v in values() {
        for inst in shapes(v) {
            let mut f = inst;
            f.fold_half_immediates();
            f.validate().unwrap_or_else(|e| panic!("{f}: {e}"));
            raw.push(inst);
            folded.push((f, encode(&f).unwrap()));
        }
    }
    let mut failures = Vec::new();

    // The unfolded text (a literal) assembles to the folded words.
    let text: String = raw.iter().map(|i| i.to_string() + "\n").collect();
    let (out, err) = llvm_mc(&["-show-encoding"], &text).expect("llvm-mc runs");
    assert!(error_lines(&err).is_empty(), "{}", err.lines().take(6).collect::<Vec<_>>().join("\n"));
    let llvm = parse_encodings(&out);
    assert_eq!(llvm.len(), raw.len());
    for ((inst, (f, words)), (_, lw)) in raw.iter().zip(&folded).zip(&llvm) {
        if lw != words {
            failures.push(format!(
                "`{inst}`: llvm {} ours (folded to `{f}`) {}",
                hex_line(lw),
                hex_line(words)
            ));
        }
    }

    // The folded words disassemble to the folded text.
    let bytes: String = folded.iter().map(|(_, w)| hex_line(w) + "\n").collect();
    let (out, err) = llvm_mc(&["--disassemble", "-show-encoding"], &bytes).expect("llvm-mc runs");
    assert!(error_lines(&err).is_empty(), "{}", err.lines().take(6).collect::<Vec<_>>().join("\n"));
    let dis = parse_encodings(&out);
    assert_eq!(dis.len(), folded.len());
    for ((f, _), (lt, _)) in folded.iter().zip(&dis) {
        if *lt != f.to_string() {
            failures.push(format!("text: ours `{f}` llvm `{lt}`"));
        }
    }
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn only_sixteen_bit_sources_fold() {
    let mut add32 = Inst::Vop2(Vop2::new(Opcode::V_ADD_F32, 0, Operand::Literal(0x3800), 1));
    assert!(!add32.fold_half_immediates());
    let mut add16 = Inst::Vop2(Vop2::new(Opcode::V_ADD_F16, 0, Operand::Literal(0x3800), 1));
    assert!(add16.fold_half_immediates());
    assert_eq!(add16.to_string(), "v_add_f16_e32 v0, 0.5, v1");
    let mut int16 = Inst::Vop3(Vop3::new(
        Opcode::V_ADD_NC_U16,
        Operand::Vgpr(0),
        [Operand::Literal(0x3800), Operand::Vgpr(1), Operand::UNUSED],
    ));
    assert!(!int16.fold_half_immediates(), "no float constants on integer operands");
    let mut neg = Inst::Vop3(Vop3::new(
        Opcode::V_ADD_NC_U16,
        Operand::Vgpr(0),
        [Operand::Literal(0xfff0), Operand::Vgpr(1), Operand::UNUSED],
    ));
    assert!(neg.fold_half_immediates());
    assert_eq!(neg.to_string(), "v_add_nc_u16 v0, -16, v1");
    let mut hi = Vop3::new(
        Opcode::V_FMA_F16,
        Operand::Vgpr(0),
        [Operand::Literal(0x3800), Operand::Vgpr(1), Operand::Vgpr(2)],
    );
    hi.opsel = 1;
    assert!(!Inst::Vop3(hi).fold_half_immediates(), "op_sel reads the literal's high half");
    for c in [FloatConst::Half, FloatConst::NegFour, FloatConst::InvTwoPi] {
        assert_eq!(half_operand(half_float_bits(c), true), Operand::Float(c));
        assert_eq!(
            half_operand(half_float_bits(c), false),
            Operand::Literal(half_float_bits(c).into())
        );
    }
}
