//! The translator against the interpreter, one instruction at a time: every opcode the JIT
//! emits as host code (and a sample of those it hands to the interpreter) runs on random
//! register state with edge values (0, -1, INT_MIN, NaNs, infinities, denormals) under both
//! engines, and the registers (VGPRs, SGPRs, VCC, EXEC, SCC) after it must be identical.
//! The test also checks that the translator really emitted the instruction as host code.

#[path = "../common/mod.rs"]
mod common;
mod every_op;
mod flushed;
mod lds;
mod loops;

use common::asm::{Asm, Int, Literal, Op, EXEC, NULL, S, V, VCC};
use common::{capture, raw_vsharp, Buffer, Dispatch, Gpu};
use fastrand::Rng;
use ferrum_isa::{encode, Ext, FloatConst, Inst, Opcode, Operand, Special, Vop1, Vop2, Vop3, Vopc};
use ferrum_sim::jit::Engine;
use ferrum_sim::SimConfig;

const EDGES: [u32; 18] = [
    0,
    u32::MAX,
    0x8000_0000,
    0x7fff_ffff,
    1,
    0x7fc0_0000, // qNaN
    0xffc0_0000, // negative qNaN
    0x7f80_0001, // sNaN
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x0080_0000, // smallest normal
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x4f80_0000, // 2^32
    0x00ff_ffff,
    31,
];

fn value(r: &mut Rng) -> u32 {
    match r.u32(..3) {
        0 => EDGES[r.u32(..EDGES.len() as u32) as usize],
        1 => r.u32(..) % 1024,
        _ => r.u32(..),
    }
}

/// Random memory input (the output rows of each workgroup zero) and scalar inputs for a test
/// program; one time in two the scalar the programs use as a mask is all ones.
fn random_inputs(r: &mut Rng) -> (Vec<u32>, Vec<u32>) {
    let input = (0..BYTES * GROUPS / 4)
        .map(|k| if k % (BYTES / 4) >= OUT_ROW * 32 { 0 } else { value(r) })
        .collect();
    let mut scalars: Vec<u32> = (0..SREGS).map(|_| value(r)).collect();
    if r.u32(..2) == 0 {
        scalars[usize::from(SREGS) - 4] = u32::MAX;
    }
    (input, scalars)
}

/// Registers the instruction under test may read and write.
const VREGS: u8 = 10;
const SREG0: u8 = 4;
const SREGS: u8 = 12;
/// Output regions: VGPR rows 0..VREGS at row 10.., scalar state after them.
const OUT_ROW: u32 = 10;
const SCALARS: u32 = SREGS as u32 + 4;

fn vreg(r: &mut Rng) -> Operand {
    V(r.u32(..u32::from(VREGS)) as u8)
}

fn sreg(r: &mut Rng) -> Operand {
    S(SREG0 + r.u32(..u32::from(SREGS)) as u8)
}

fn scalar_src(r: &mut Rng) -> Operand {
    match r.u32(..8) {
        0 => Int(r.u32(..81) as i8 - 16),
        1 => Operand::Float(
            [FloatConst::Half, FloatConst::NegOne, FloatConst::Four][r.u32(..3) as usize],
        ),
        2 => Literal(value(r)),
        3 => VCC,
        4 => EXEC,
        _ => sreg(r),
    }
}

fn src(r: &mut Rng) -> Operand {
    if r.u32(..2) == 0 {
        vreg(r)
    } else {
        scalar_src(r)
    }
}

fn sdst(r: &mut Rng) -> Operand {
    match r.u32(..6) {
        0 => VCC,
        1 => NULL,
        _ => sreg(r),
    }
}

/// A random instance of `op` in encoding `enc`.
fn instance(r: &mut Rng, op: Opcode, enc: Enc) -> Inst {
    let vdst = r.u32(..u32::from(VREGS)) as u8;
    match enc {
        Enc::Vop1 => Inst::Vop1(Vop1 { op, vdst: V(vdst), src0: src(r), ext: Ext::None }),
        Enc::Vop2 => Inst::Vop2(Vop2 {
            op,
            vdst,
            src0: src(r),
            vsrc1: r.u32(..u32::from(VREGS)) as u8,
            k: value(r),
            ext: Ext::None,
        }),
        Enc::Vopc => Inst::Vopc(Vopc {
            op,
            src0: src(r),
            vsrc1: r.u32(..u32::from(VREGS)) as u8,
            ext: Ext::None,
        }),
        Enc::Vop3 | Enc::Vop3b | Enc::Vop3c => Inst::Vop3(Vop3 {
            op,
            vdst: if enc == Enc::Vop3c { sdst(r) } else { V(vdst) },
            sdst: if enc == Enc::Vop3b { sdst(r) } else { NULL },
            src: [src(r), src(r), src(r)],
            abs: 0,
            neg: 0,
            opsel: 0,
            clamp: false,
            omod: 0,
        }),
        Enc::Sop1 => {
            Inst::Sop1(ferrum_isa::Sop1 { op, sdst: sreg_or_special(r), ssrc0: scalar_src(r) })
        }
        Enc::Sop2 => Inst::Sop2(ferrum_isa::Sop2 {
            op,
            sdst: sreg_or_special(r),
            ssrc0: scalar_src(r),
            ssrc1: scalar_src(r),
        }),
        Enc::Sopc => {
            Inst::Sopc(ferrum_isa::Sopc { op, ssrc0: scalar_src(r), ssrc1: scalar_src(r) })
        }
        Enc::Sopk => {
            Inst::Sopk(ferrum_isa::Sopk { op, sdst: sreg(r), simm16: value(r) as u16, imm32: 0 })
        }
    }
}

fn sreg_or_special(r: &mut Rng) -> Operand {
    match r.u32(..8) {
        0 => VCC,
        1 => Operand::Special(Special::M0),
        2 => NULL,
        _ => sreg(r),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Enc {
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    /// VOP3 with a scalar carry destination.
    Vop3b,
    /// VOP3 compare (scalar destination in VDST).
    Vop3c,
    Sop1,
    Sop2,
    Sopc,
    Sopk,
}

/// The test program: load registers, run `inst` under a random EXEC, store every register.
fn program(inst: Option<&[u32]>) -> Vec<u32> {
    let mut p = Asm::new();
    // Workgroup g works in region g of the buffer: move the V# base (s16 = workgroup id).
    p.sop2(Op::S_MUL_I32, S(17), S(16), Literal(BYTES))
        .sop2(Op::S_ADD_U32, S(0), S(0), S(17))
        .sop2(Op::S_ADDC_U32, S(1), S(1), Int(0))
        .vop2(Op::V_LSHLREV_B32, 10, Int(2), 0);
    for k in 0..VREGS {
        p.vop2(Op::V_ADD_NC_U32, 11, Literal(u32::from(k) * 128), 10).mubuf(
            Op::BUFFER_LOAD_DWORD,
            k,
            11,
            0,
            false,
        );
    }
    p.waitcnt(0, 63)
        .sop1(Op::S_MOV_B32, VCC, S(SREG0 + SREGS - 1))
        .sop1(Op::S_MOV_B32, Operand::Special(Special::M0), S(SREG0 + SREGS - 2))
        .sop1(Op::S_MOV_B32, S(20), EXEC)
        .sopc(Op::S_BITCMP1_B32, S(SREG0 + SREGS - 3), Int(0))
        .sop1(Op::S_MOV_B32, EXEC, S(SREG0 + SREGS - 4));
    if let Some(words) = inst {
        p.words.extend_from_slice(words);
    }
    p.sop1(Op::S_MOV_B32, S(21), EXEC)
        .sop2(Op::S_CSELECT_B32, S(22), Int(1), Int(0))
        .sop1(Op::S_MOV_B32, EXEC, S(20))
        .sop1(Op::S_MOV_B32, S(23), VCC);
    for k in 0..VREGS {
        p.vop2(Op::V_ADD_NC_U32, 11, Literal((OUT_ROW + u32::from(k)) * 128), 10).mubuf(
            Op::BUFFER_STORE_DWORD,
            k,
            11,
            0,
            false,
        );
    }
    let sbase = (OUT_ROW + u32::from(VREGS)) * 128;
    for (j, s) in (SREG0..SREG0 + SREGS).chain(21..24).chain([124]).enumerate() {
        let reg = if s == 124 { Operand::Special(Special::M0) } else { S(s) };
        p.vop1(Op::V_MOV_B32, V(12), reg)
            .vop1(Op::V_MOV_B32, V(11), Literal(sbase + 4 * j as u32))
            .mubuf(Op::BUFFER_STORE_DWORD, 12, 11, 0, false);
    }
    p.endpgm();
    p.finish()
}

const BYTES: u32 = (OUT_ROW + VREGS as u32) * 128 + 4 * SCALARS;
/// Workgroups per dispatch, each on its own random inputs.
const GROUPS: u32 = 8;

struct Engines {
    gpus: [Gpu; 2],
}

impl Engines {
    /// The interpreter and the JIT, one host thread each.
    fn both() -> Engines {
        Engines { gpus: [gpu(Engine::Interp), gpu(Engine::Jit)] }
    }
}

/// The instructions the translator runs as native code, with the encoding to test each in.
fn native_cases() -> Vec<(Opcode, Enc)> {
    cases().into_iter().filter(|c| c.2).map(|(o, enc, _)| (o, enc)).collect()
}

fn gpu(engine: Engine) -> Gpu {
    Gpu::with_config(SimConfig { engine, threads: 1, ..Default::default() })
}

/// Runs `words` on both engines with the same inputs; returns both memories and the number
/// of native instructions the translation had.
fn run(e: &Engines, words: &[u32], input: &[u32], scalars: &[u32]) -> ([Vec<u32>; 2], u64) {
    run_groups(e, words, input, scalars, GROUPS)
}

/// Runs `words` on `g` as `groups` workgroups of one wave with 16 VGPRs, the buffer holding
/// `input` (its V# in s[0:3], `scalars` after it) and the workgroup id in the SGPR after
/// those: the dispatch's outcome and the buffer.
fn dispatch(
    g: &Gpu,
    words: &[u32],
    input: &[u32],
    scalars: &[u32],
    groups: u32,
) -> (ferrum_winsys::Result<bool>, Buffer) {
    let buf = g.buffer(u64::from(BYTES * GROUPS));
    buf.map.write_u32s(0, input).unwrap();
    let prog = g.program(words);
    let mut ud = raw_vsharp(buf.va, BYTES).to_vec();
    ud.extend_from_slice(scalars);
    let d = Dispatch {
        vgprs: 16,
        tgid_x: true,
        groups: [groups, 1, 1],
        ..Dispatch::one_group(prog.va, &ud, [32, 1, 1])
    };
    (g.dispatch(&d, &prog, &[&buf]), buf)
}

/// [`run`] on the first `groups` workgroups.
fn run_groups(
    e: &Engines,
    words: &[u32],
    input: &[u32],
    scalars: &[u32],
    groups: u32,
) -> ([Vec<u32>; 2], u64) {
    let mut out: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut native = 0;
    for (i, g) in e.gpus.iter().enumerate() {
        let before = g.kernel.jit_stats();
        let (ok, buf) = dispatch(g, words, input, scalars, groups);
        let ok = ok.unwrap();
        let after = g.kernel.jit_stats();
        if i == 1 {
            assert_eq!(after.0, before.0 + 1, "the JIT engine did not translate the program");
            native = after.1 - before.1;
        }
        // Two runs that did not finish would otherwise compare equal.
        assert!(ok, "engine {i}: the dispatch did not finish within the wait");
        out[i] = buf.map.read_u32s(0, (BYTES * GROUPS / 4) as usize).unwrap();
    }
    (out, native)
}

fn cases() -> Vec<(Opcode, Enc, bool)> {
    use Enc::*;
    let native =
        |ops: &[Opcode], enc: Enc| ops.iter().map(move |&o| (o, enc, true)).collect::<Vec<_>>();
    let mut v = Vec::new();
    v.extend(native(
        &[
            Op::V_MOV_B32,
            Op::V_NOT_B32,
            Op::V_CVT_F32_U32,
            Op::V_CVT_F32_I32,
            Op::V_CVT_U32_F32,
            Op::V_CVT_I32_F32,
        ],
        Vop1,
    ));
    v.extend(native(
        &[
            Op::V_ADD_NC_U32,
            Op::V_SUB_NC_U32,
            Op::V_SUBREV_NC_U32,
            Op::V_AND_B32,
            Op::V_OR_B32,
            Op::V_XOR_B32,
            Op::V_XNOR_B32,
            Op::V_MUL_U32_U24,
            Op::V_MIN_I32,
            Op::V_MAX_I32,
            Op::V_MIN_U32,
            Op::V_MAX_U32,
            Op::V_ADD_F32,
            Op::V_SUB_F32,
            Op::V_SUBREV_F32,
            Op::V_MUL_F32,
            Op::V_FMAC_F32,
            Op::V_FMAMK_F32,
            Op::V_FMAAK_F32,
            Op::V_CNDMASK_B32,
            Op::V_ADD_CO_CI_U32,
        ],
        Vop2,
    ));
    v.extend(native(
        &[
            Op::V_MUL_LO_U32,
            Op::V_FMA_F32,
            Op::V_MAD_U32_U24,
            Op::V_ADD3_U32,
            Op::V_AND_OR_B32,
            Op::V_OR3_B32,
            Op::V_XAD_U32,
            Op::V_LSHL_ADD_U32,
            Op::V_LSHL_OR_B32,
            Op::V_LSHLREV_B32,
            Op::V_LSHRREV_B32,
            Op::V_ASHRREV_I32,
            Op::V_CNDMASK_B32,
        ],
        Vop3,
    ));
    v.extend(native(&[Op::V_ADD_CO_U32, Op::V_ADD_CO_CI_U32], Vop3b));
    let cmps = [
        Op::V_CMP_EQ_U32,
        Op::V_CMP_NE_U32,
        Op::V_CMP_LT_U32,
        Op::V_CMP_LE_U32,
        Op::V_CMP_GT_U32,
        Op::V_CMP_GE_U32,
        Op::V_CMP_LT_I32,
        Op::V_CMP_LE_I32,
        Op::V_CMP_GT_I32,
        Op::V_CMP_GE_I32,
        Op::V_CMP_EQ_I32,
        Op::V_CMP_NE_I32,
        Op::V_CMP_LT_F32,
        Op::V_CMP_LE_F32,
        Op::V_CMP_GT_F32,
        Op::V_CMP_GE_F32,
        Op::V_CMP_EQ_F32,
        Op::V_CMP_LG_F32,
        Op::V_CMP_NEQ_F32,
        Op::V_CMP_O_F32,
        Op::V_CMP_U_F32,
        Op::V_CMPX_GT_U32,
        Op::V_CMPX_EQ_I32,
        Op::V_CMPX_LT_F32,
    ];
    v.extend(native(&cmps, Vopc));
    v.extend(native(&cmps[..21], Vop3c));
    v.extend(native(&[Op::S_MOV_B32, Op::S_NOT_B32, Op::S_MOV_B64], Sop1));
    v.extend(native(
        &[
            Op::S_AND_SAVEEXEC_B32,
            Op::S_OR_SAVEEXEC_B32,
            Op::S_XOR_SAVEEXEC_B32,
            Op::S_ANDN2_SAVEEXEC_B32,
            Op::S_ORN2_SAVEEXEC_B32,
            Op::S_NAND_SAVEEXEC_B32,
            Op::S_NOR_SAVEEXEC_B32,
            Op::S_XNOR_SAVEEXEC_B32,
            Op::S_ANDN1_SAVEEXEC_B32,
            Op::S_ORN1_SAVEEXEC_B32,
            Op::S_ANDN1_WREXEC_B32,
            Op::S_ANDN2_WREXEC_B32,
        ],
        Sop1,
    ));
    v.extend(native(
        &[
            Op::S_ADD_U32,
            Op::S_SUB_U32,
            Op::S_ADD_I32,
            Op::S_SUB_I32,
            Op::S_ADDC_U32,
            Op::S_MIN_I32,
            Op::S_MIN_U32,
            Op::S_MAX_I32,
            Op::S_MAX_U32,
            Op::S_CSELECT_B32,
            Op::S_AND_B32,
            Op::S_OR_B32,
            Op::S_XOR_B32,
            Op::S_ANDN2_B32,
            Op::S_ORN2_B32,
            Op::S_NAND_B32,
            Op::S_NOR_B32,
            Op::S_XNOR_B32,
            Op::S_LSHL_B32,
            Op::S_LSHR_B32,
            Op::S_ASHR_I32,
            Op::S_MUL_I32,
            Op::S_MUL_HI_U32,
            Op::S_LSHL1_ADD_U32,
            Op::S_LSHL2_ADD_U32,
            Op::S_LSHL3_ADD_U32,
            Op::S_LSHL4_ADD_U32,
        ],
        Sop2,
    ));
    v.extend(native(
        &[
            Op::S_CMP_EQ_U32,
            Op::S_CMP_LG_U32,
            Op::S_CMP_GT_I32,
            Op::S_CMP_GE_I32,
            Op::S_CMP_LT_I32,
            Op::S_CMP_LE_I32,
            Op::S_CMP_GT_U32,
            Op::S_CMP_GE_U32,
            Op::S_CMP_LT_U32,
            Op::S_CMP_LE_U32,
        ],
        Sopc,
    ));
    v.extend(native(&[Op::S_MOVK_I32, Op::S_ADDK_I32, Op::S_MULK_I32], Sopk));
    // Through the interpreter call-out.
    let helper = [
        (Op::V_MIN_F32, Vop2),
        (Op::V_MAX_F32, Vop2),
        (Op::V_RCP_F32, Vop1),
        (Op::V_BFE_U32, Vop3),
        (Op::S_BCNT1_I32_B32, Sop1),
        (Op::S_BFE_U32, Sop2),
    ];
    v.extend(helper.iter().map(|&(o, e)| (o, e, false)));
    v
}

#[test]
fn single_instructions_match_the_interpreter() {
    capture::install();
    let e = Engines::both();
    let mut r = Rng::with_seed(0x1234_5678_9abc_def1);
    let blank: Vec<u32> = vec![0; (BYTES * GROUPS / 4) as usize];
    let scalars = vec![0u32; SREGS as usize];
    let (_, base_native) = run(&e, &program(None), &blank, &scalars);
    let trials = 6;
    let mut mismatches = Vec::new();
    for (op, enc, want_native) in cases() {
        let mut seen_native = false;
        let mut ran = 0;
        for _ in 0..trials * 4 {
            if ran == trials {
                break;
            }
            let inst = instance(&mut r, op, enc);
            let Ok(words) = encode(&inst) else { continue };
            ran += 1;
            let mut input: Vec<u32> = (0..BYTES * GROUPS / 4).map(|_| value(&mut r)).collect();
            for g in 0..GROUPS {
                let at = ((g * BYTES) / 4 + OUT_ROW * 32) as usize;
                input[at..((g + 1) * BYTES / 4) as usize].fill(0);
            }
            let mut scalars: Vec<u32> = (0..SREGS).map(|_| value(&mut r)).collect();
            // EXEC: all lanes half of the time.
            if r.u32(..2) == 0 {
                scalars[usize::from(SREGS) - 4] = u32::MAX;
            }
            let (out, native) = run(&e, &program(Some(&words)), &input, &scalars);
            seen_native |= native == base_native + 1;
            if out[0] != out[1] {
                let at = out[0].iter().zip(&out[1]).position(|(a, b)| a != b).unwrap_or(0);
                mismatches.push(format!(
                    "{inst}: word {at}: interp {:#x} jit {:#x}",
                    out[0].get(at).copied().unwrap_or(0),
                    out[1].get(at).copied().unwrap_or(0)
                ));
            }
        }
        assert!(ran > 0, "{} {enc:?}: no encodable instance", op.name());
        assert_eq!(seen_native, want_native, "{} {enc:?}: native = {seen_native}", op.name());
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

/// The fault report of one dispatch of `words` on `engine`, without the context numbering.
/// `mapped`: s[0:3] is a V# of a mapped buffer (otherwise of unmapped memory).
fn fault_report(engine: Engine, words: &[u32], mapped: bool, vgprs: u32, lds: u32) -> String {
    let g = Gpu::with_config(SimConfig {
        engine,
        threads: 1,
        wave_budget: 1 << 16,
        ..Default::default()
    });
    let prog = g.program(words);
    let buf = g.buffer(4096);
    let ud = raw_vsharp(if mapped { buf.va } else { 0x1_0000_0000 }, 4096);
    let d = Dispatch { vgprs, lds_bytes: lds, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
    capture::clear();
    let r = g.dispatch(&d, &prog, &[&buf]);
    assert!(r.is_err(), "{engine:?}: the program should fault");
    let lines = capture::take();
    let line = lines.iter().find(|l| l.contains("GPU fault")).cloned().unwrap_or_default();
    line.split_once("): ").map_or(line.clone(), |(_, rest)| rest.to_string())
}

#[test]
fn faults_hangs_and_strict_reports_match_the_interpreter() {
    capture::install();
    let _turn = capture::exclusive();
    let mut missing_wait = Asm::new();
    missing_wait
        .vop1(Op::V_MOV_B32, V(1), Int(0))
        .mubuf(Op::BUFFER_LOAD_DWORD, 2, 1, 0, false)
        .vop2(Op::V_ADD_NC_U32, 3, Int(1), 2)
        .endpgm();
    let mut beyond = Asm::new();
    beyond.vop2(Op::V_ADD_NC_U32, 1, Int(1), 0).vop1(Op::V_MOV_B32, V(9), Int(1)).endpgm();
    let mut lds = Asm::new();
    lds.vop2(Op::V_LSHLREV_B32, 1, Int(6), 0).ds(Op::DS_WRITE_B32, 0, 1, 0, 0).endpgm();
    let mut hang = Asm::new();
    let top = hang.label();
    hang.bind(top);
    hang.branch(Op::S_BRANCH, top).endpgm();
    let mut vm = Asm::new();
    vm.vop1(Op::V_MOV_B32, V(1), Int(0)).mubuf(Op::BUFFER_STORE_DWORD, 1, 1, 0, false).endpgm();
    // The loaded register is read only in the second segment of a native loop (after the
    // head's test), whose hazard check is made once at the loop's entry.
    let mut wait_in_loop = Asm::new();
    wait_in_loop
        .vop1(Op::V_MOV_B32, V(1), Int(0))
        .mubuf(Op::BUFFER_LOAD_DWORD, 2, 1, 0, false)
        .sop1(Op::S_MOV_B32, S(5), Int(0));
    let (head, out) = (wait_in_loop.label(), wait_in_loop.label());
    wait_in_loop.bind(head);
    wait_in_loop
        .sopc(Op::S_CMP_LT_U32, S(5), Int(4))
        .branch(Op::S_CBRANCH_SCC0, out)
        .vop2(Op::V_ADD_NC_U32, 3, Int(1), 2)
        .sop2(Op::S_ADD_U32, S(5), S(5), Int(1))
        .branch(Op::S_BRANCH, head);
    wait_in_loop.bind(out);
    wait_in_loop.endpgm();
    // `s_waitcnt vmcnt(1)` retires the older of two loads only: the first add is fine, the
    // second reads the register still outstanding.
    let mut partial_wait = Asm::new();
    partial_wait
        .vop1(Op::V_MOV_B32, V(1), Int(0))
        .mubuf(Op::BUFFER_LOAD_DWORD, 2, 1, 0, false)
        .mubuf(Op::BUFFER_LOAD_DWORD, 3, 1, 0, false)
        .waitcnt(1, 63)
        .vop2(Op::V_ADD_NC_U32, 4, Int(1), 2)
        .vop2(Op::V_ADD_NC_U32, 5, Int(1), 3)
        .endpgm();
    // The translator's direct memory call-outs: their faults are the interpreter's.
    let mut scalar_wait = Asm::new();
    scalar_wait
        .vop1(Op::V_MOV_B32, V(1), Int(0))
        .smem(Op::S_LOAD_DWORDX4, 8, 0, 0)
        .mubuf(Op::BUFFER_LOAD_DWORD, 2, 1, 8, false)
        .endpgm();
    let mut scalar_unmapped = Asm::new();
    scalar_unmapped.smem(Op::S_LOAD_DWORDX2, 8, 0, 0x40).waitcnt(63, 0).endpgm();
    let mut scalar_beyond = Asm::new();
    scalar_beyond.smem(Op::S_LOAD_DWORDX4, 104, 0, 0).waitcnt(63, 0).endpgm();
    let mut wide_beyond = Asm::new();
    wide_beyond
        .vop1(Op::V_MOV_B32, V(1), Int(0))
        .mubuf(Op::BUFFER_LOAD_DWORDX4, 6, 1, 0, false)
        .endpgm();
    let mut image_vsharp = Asm::new();
    image_vsharp
        .vop1(Op::V_MOV_B32, V(1), Int(0))
        .sop1(Op::S_MOV_B32, S(3), Literal(0x8000_0000 | 1 << 24))
        .mubuf(Op::BUFFER_STORE_DWORDX2, 2, 1, 0, false)
        .endpgm();
    let cases = [
        ("missing s_waitcnt", missing_wait.finish(), true, 0),
        ("V# read before its scalar load's wait", scalar_wait.finish(), true, 0),
        ("scalar load from unmapped memory", scalar_unmapped.finish(), false, 0),
        ("scalar load beyond s105", scalar_beyond.finish(), true, 0),
        ("buffer load beyond the VGPR allocation", wide_beyond.finish(), true, 0),
        ("buffer store through an image descriptor", image_vsharp.finish(), true, 0),
        ("s_waitcnt leaving the newer load outstanding", partial_wait.finish(), true, 0),
        ("missing s_waitcnt in a loop", wait_in_loop.finish(), true, 0),
        ("VGPR beyond the allocation", beyond.finish(), true, 0),
        ("LDS beyond the allocation", lds.finish(), true, 512),
        ("runaway wave", hang.finish(), true, 0),
        ("VM fault", vm.finish(), false, 0),
    ];
    for (what, words, mapped, lds) in cases {
        let a = fault_report(Engine::Interp, &words, mapped, 8, lds);
        let b = fault_report(Engine::Jit, &words, mapped, 8, lds);
        assert!(!a.is_empty(), "{what}: no report from the interpreter");
        assert_eq!(a, b, "{what}");
    }
}

/// Strict mode with a load outstanding: instructions whose registers the load does not write
/// stay native (the interpreter's missing-`s_waitcnt` check would pass for them), and the
/// results match the interpreter's. Only the load, the wait and the store call out.
#[test]
fn strict_mode_keeps_unrelated_instructions_native() {
    capture::install();
    const ADDS: u32 = 24;
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 1, Int(2), 0).mubuf(Op::BUFFER_LOAD_DWORD, 5, 1, 0, false).vop1(
        Op::V_MOV_B32,
        V(2),
        Int(1),
    );
    for _ in 0..ADDS {
        p.vop2(Op::V_ADD_NC_U32, 2, Int(3), 2).sop2(Op::S_ADD_U32, S(8), S(8), Int(1));
    }
    p.waitcnt(0, 63).vop2(Op::V_ADD_NC_U32, 2, V(5), 2).mubuf(
        Op::BUFFER_STORE_DWORD,
        2,
        1,
        0,
        false,
    );
    p.endpgm();
    let words = p.finish();
    let input: Vec<u32> = (0..32u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let mut out = Vec::new();
    for engine in [Engine::Interp, Engine::Jit] {
        let g = Gpu::with_config(SimConfig { engine, threads: 1, ..Default::default() });
        let buf = g.buffer(128);
        buf.map.write_u32s(0, &input).unwrap();
        let prog = g.program(&words);
        let ud = raw_vsharp(buf.va, 128);
        let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
        let calls = g.kernel.jit_helper_calls();
        assert!(g.dispatch(&d, &prog, &[&buf]).unwrap(), "{engine:?}: the dispatch failed");
        if engine == Engine::Jit {
            let calls = g.kernel.jit_helper_calls() - calls;
            assert!(calls <= 4, "{calls} interpreter calls: the adds did not stay native");
        }
        out.push(buf.map.read_u32s(0, 32).unwrap());
    }
    let want: Vec<u32> = input.iter().map(|x| x.wrapping_add(1 + 3 * ADDS)).collect();
    assert_eq!(out[0], want, "interpreter");
    assert_eq!(out[1], want, "JIT");
}

/// Random straight-line runs of native instructions: the translator keeps registers in host
/// values across a run (stores them once at its end), so sequences check what single
/// instructions cannot: a value read after an earlier write in the same run, EXEC changed by
/// a `v_cmpx` or a scalar write in the middle of a run, f32 results (already flushed) feeding
/// further f32 operations, carries and compare masks read by later instructions.
#[test]
fn native_sequences_match_the_interpreter() {
    capture::install();
    let e = Engines::both();
    let mut r = Rng::with_seed(0x0dd5_eed5_1234_5678);
    let native = native_cases();
    let mut mismatches = Vec::new();
    for _ in 0..40 {
        let mut words = Vec::new();
        let mut text = Vec::new();
        while text.len() < 12 {
            let (op, enc) = native[r.u32(..native.len() as u32) as usize];
            let inst = instance(&mut r, op, enc);
            let Ok(w) = encode(&inst) else { continue };
            words.extend_from_slice(&w);
            text.push(inst.to_string());
        }
        let (input, scalars) = random_inputs(&mut r);
        let (out, _) = run(&e, &program(Some(&words)), &input, &scalars);
        if out[0] != out[1] {
            let at = out[0].iter().zip(&out[1]).position(|(a, b)| a != b).unwrap_or(0);
            mismatches.push(format!(
                "[{}]: word {at}: interp {:#x} jit {:#x}",
                text.join("; "),
                out[0].get(at).copied().unwrap_or(0),
                out[1].get(at).copied().unwrap_or(0)
            ));
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}
