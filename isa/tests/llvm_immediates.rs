//! Symbolic 16-bit immediates (s_waitcnt, hwreg, sendmsg, ds_swizzle, SOPP numbers, MTBUF
//! formats) printed exactly as llvm-mc prints them, over every value or a dense stride.

mod common;

use common::*;
use ferrum_isa::tables::Enc;
use ferrum_isa::*;

fn check(insts: Vec<Inst>) {
    let bytes: String = insts
        .iter()
        .map(|i| {
            let w = encode(i).expect("encodes");
            w.iter()
                .flat_map(|w| w.to_le_bytes())
                .map(|b| format!("{b:#04x}"))
                .collect::<Vec<_>>()
                .join(",")
                + "\n"
        })
        .collect();
    let (out, err) = llvm_mc(&["--disassemble", "-show-encoding"], &bytes).expect("llvm-mc runs");
    assert!(error_lines(&err).is_empty(), "{}", err.lines().take(4).collect::<Vec<_>>().join("\n"));
    let dis = parse_encodings(&out);
    assert_eq!(dis.len(), insts.len());
    let bad: Vec<_> = insts
        .iter()
        .zip(&dis)
        .filter(|(i, (t, _))| &i.to_string() != t)
        .map(|(i, (t, _))| format!("ours `{i}` llvm `{t}`"))
        .take(20)
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn sopp(name: &str, values: impl Iterator<Item = u16>) -> Vec<Inst> {
    let op = Opcode::all().find(|o| o.name() == name).expect("opcode");
    values.map(|simm16| Inst::Sopp(Sopp { op, simm16 })).collect()
}

#[test]
fn waitcnt_sendmsg_and_numbers() {
    if !require_llvm() {
        return;
    }
    // bit 7 and bits above the counters are not printed by LLVM; cover the meaningful bits
    let mut v = sopp("s_waitcnt", (0..=0xFFFFu16).filter(|x| x & 0x80 == 0).step_by(7));
    v.extend(sopp("s_sendmsg", 0..0x800));
    v.extend(sopp("s_setprio", 0..200));
    v.extend(sopp("s_inst_prefetch", 0..20));
    v.extend(sopp("s_branch", (0..=0xFFFFu16).step_by(251)));
    check(v);
}

#[test]
fn hwreg_and_swizzle() {
    if !require_llvm() {
        return;
    }
    let op = Opcode::all().find(|o| o.name() == "s_getreg_b32").expect("opcode");
    let mut v: Vec<Inst> = (0..=0xFFFFu16)
        .step_by(3)
        .map(|simm16| Inst::Sopk(Sopk { op, sdst: Operand::Sgpr(4), simm16, imm32: 0 }))
        .collect();
    let op = Opcode::all().find(|o| o.name() == "ds_swizzle_b32").expect("opcode");
    v.extend((0..=0xFFFFu16).map(|off| {
        Inst::Ds(Ds {
            op,
            vdst: 1,
            addr: 2,
            data0: 0,
            data1: 0,
            offset0: off as u8,
            offset1: (off >> 8) as u8,
            gds: false,
        })
    }));
    check(v);
}

#[test]
fn mtbuf_formats() {
    if !require_llvm() {
        return;
    }
    let form = Enc::Mtbuf.forms().first().expect("mtbuf table");
    check(
        (0..128)
            .map(|format| {
                Inst::Mtbuf(Buffer {
                    op: form.op,
                    vdata: 1,
                    vaddr: 2,
                    srsrc: 4,
                    soffset: Operand::Int(0),
                    offset: 0,
                    offen: true,
                    idxen: false,
                    glc: false,
                    slc: false,
                    dlc: false,
                    lds: false,
                    tfe: false,
                    format,
                })
            })
            .collect(),
    );
}

/// Every instruction carrying a literal of its own (`s_setreg_imm32_b32`, the `k` of
/// `v_fmamk`/`v_fmaak` and friends) over inline-constant, edge and ordinary values.
#[test]
fn instruction_literals() {
    if !require_llvm() {
        return;
    }
    let values = [
        0u32,
        1,
        10,
        64,
        65,
        0xffff_ffff,
        0xffff_fff0,
        0xffff_ffef,
        0x3f80_0000,
        0xbf00_0000,
        0x3e22_f983,
        0x4080_0000,
        0x8000_0000,
        0x7fff_ffff,
        0x1_2345,
        0x3c00,
        0x4900,
    ];
    let mut v = Vec::new();
    for enc in [Enc::Sopk, Enc::Vop2] {
        for form in enc.forms().iter().filter(|f| f.operand(tables::Field::Literal).is_some()) {
            for &k in &values {
                v.push(match enc {
                    // hwreg(HW_REG_MODE), the whole register
                    Enc::Sopk => Inst::Sopk(Sopk {
                        op: form.op,
                        sdst: Operand::Sgpr(0),
                        simm16: 1 | 31 << 11,
                        imm32: k,
                    }),
                    _ => Inst::Vop2(Vop2 {
                        op: form.op,
                        vdst: 0,
                        src0: Operand::Vgpr(1),
                        vsrc1: 2,
                        k,
                        ext: Ext::None,
                    }),
                });
            }
        }
    }
    assert!(v.len() >= 5 * values.len(), "{} instructions", v.len());
    check(v);
}
