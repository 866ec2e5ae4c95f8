//! The query methods against facts from AMD's RDNA2 ISA guide, for a handful of opcodes whose
//! behaviour the backend and the simulator depend on.

use ferrum_isa::query::{Counters, Latency};
use ferrum_isa::tables::Enc;
use ferrum_isa::*;

/// Decodes the first instruction LLVM's assembler produced for a line (words written here by
/// hand from `llvm-mc -show-encoding`, so this test runs without LLVM).
fn inst(words: &[u32]) -> Inst {
    decode(words).expect("decodes").0
}

#[test]
fn scalar_flags() {
    let add = inst(&[0x8004_0201]); // s_add_u32 s4, s1, s2
    assert!(add.writes_scc() && !add.reads_scc() && !add.reads_exec());
    let addc = inst(&[0x8204_0201]); // s_addc_u32 s4, s1, s2
    assert!(addc.reads_scc() && addc.writes_scc());
    let mov = inst(&[0xBE84_0301]); // s_mov_b32 s4, s1
    assert!(!mov.writes_scc());
    let saveexec = inst(&[0xBE84_3C01]); // s_and_saveexec_b32 s4, s1
    assert!(saveexec.reads_exec() && saveexec.writes_exec() && saveexec.writes_scc());
    let cmp = inst(&[0xBF00_0201]); // s_cmp_eq_i32 s1, s2
    assert!(cmp.writes_scc());
    let cselect = inst(&[0x8504_0201]); // s_cselect_b32 s4, s1, s2
    assert!(cselect.reads_scc() && !cselect.writes_scc());
    let movrels = inst(&[0xBE84_2E01]); // s_movrels_b32 s4, s1
    assert!(movrels.reads_m0());
}

#[test]
fn vector_flags() {
    let cmp = inst(&[0x7D84_0501]); // v_cmp_eq_u32_e32 vcc_lo, v1, v2
    assert!(cmp.writes_vcc() && cmp.reads_exec() && !cmp.writes_exec());
    let cmpx = inst(&[0x7DA4_0501]); // v_cmpx_eq_u32_e32 v1, v2
    assert!(cmpx.writes_exec() && !cmpx.writes_vcc());
    let cnd = inst(&[0x0202_0501]); // v_cndmask_b32_e32 v1, v1, v2, vcc_lo
    assert!(cnd.reads_vcc() && !cnd.writes_vcc());
    let rcp = inst(&[0x7E02_5501]); // v_rcp_f32_e32 v1, v1
    assert_eq!(rcp.latency(), Latency::Trans);
    let add = inst(&[0x0602_0501]); // v_add_f32_e32 v1, v1, v2
    assert_eq!(add.latency(), Latency::Valu);
    assert!(!add.is_memory() && !add.is_branch());
}

#[test]
fn branches_and_counters() {
    let branch = inst(&[0xBF82_0003]); // s_branch 3
    assert!(branch.is_branch());
    assert_eq!(branch.branch_offset(), Some(12));
    assert_eq!(inst(&[0xBF82_FFFF]).branch_offset(), Some(-4)); // s_branch 65535: to itself
    assert_eq!(inst(&[0xBF8C_0000]).branch_offset(), None);
    assert_eq!(branch.latency(), Latency::Branch);
    let scc0 = inst(&[0xBF84_0003]); // s_cbranch_scc0 3
    assert!(scc0.is_branch() && scc0.reads_scc());
    let execz = inst(&[0xBF88_0003]); // s_cbranch_execz 3
    assert!(execz.reads_exec());
    let waitcnt = inst(&[0xBF8C_0000]); // s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
    assert!(!waitcnt.is_branch() && waitcnt.counters() == Counters::default());

    let smem = inst(&[0xF400_0802, 0xFA00_0010]); // s_load_dword s32, s[4:5], 0x10
    assert_eq!(smem.counters(), Counters { lgkmcnt: true, ..Counters::default() });
    let load = inst(&[0xDC30_8000, 0x0A7D_0014]); // global_load_dword v10, v[20:21], off
    assert_eq!(load.enc(), Enc::Global);
    assert_eq!(load.counters(), Counters { vmcnt: true, ..Counters::default() });
    let store = inst(&[0xDC70_8000, 0x007D_1E14]); // global_store_dword v[20:21], v30, off
    assert_eq!(store.counters(), Counters { vscnt: true, ..Counters::default() });
    let flat = inst(&[0xDC30_0000, 0x0A7D_0014]); // flat_load_dword v10, v[20:21]
    assert_eq!(flat.counters(), Counters { vmcnt: true, lgkmcnt: true, ..Counters::default() });
    let ds = inst(&[0xD8D8_0000, 0x0A00_0014]); // ds_read_b32 v10, v20
    assert_eq!(ds.counters(), Counters { lgkmcnt: true, ..Counters::default() });
    assert_eq!(ds.latency(), Latency::Lds);
    let vm = Counters { vmcnt: true, ..Counters::default() };
    // image_sample v[10:12], v[20:21], s[8:15], s[16:19] dmask:0x7 dim:SQ_RSRC_IMG_2D
    assert_eq!(inst(&[0xF080_0708, 0x0082_0A14]).counters(), vm);
    // image_bvh_intersect_ray v[4:7], v[9:24], s[4:7]
    assert_eq!(inst(&[0xF198_9F01, 0x0001_0409]).counters(), vm);
    let exp = inst(&[0xF800_080F, 0x0403_0201]); // exp mrt0 v1, v2, v3, v4 done
    assert_eq!(exp.counters(), Counters { expcnt: true, ..Counters::default() });
}

#[test]
fn operand_classes_follow_the_table() {
    let op = |name: &str| Opcode::all().find(|o| o.name() == name).expect("opcode");
    let readlane = |lane: Operand| {
        Inst::Vop3(Vop3 {
            op: op("v_readlane_b32"),
            vdst: Operand::Sgpr(4),
            sdst: Operand::UNUSED,
            src: [Operand::Vgpr(1), lane, Operand::UNUSED],
            abs: 0,
            neg: 0,
            opsel: 0,
            clamp: false,
            omod: 0,
        })
    };
    assert!(readlane(Operand::Sgpr(2)).validate().is_ok());
    assert!(readlane(Operand::Special(Special::M0)).validate().is_ok());
    // the lane select must be uniform: a VGPR is rejected (but still encodable)
    assert!(readlane(Operand::Vgpr(2)).validate().is_err());
    assert!(encode(&readlane(Operand::Vgpr(2))).is_ok());
    let movrels = |src0| {
        Inst::Vop1(Vop1 { op: op("v_movrels_b32"), vdst: Operand::Vgpr(1), src0, ext: Ext::None })
    };
    assert!(movrels(Operand::Vgpr(2)).validate().is_ok());
    assert!(movrels(Operand::Sgpr(2)).validate().is_err());
}

#[test]
fn operand_widths() {
    use ferrum_isa::tables::Field;
    let load4 = inst(&[0xDC38_8000, 0x0A7D_0014]); // global_load_dwordx4 v[10:13], v[20:21], off
    assert_eq!((load4.dwords(Field::Vdst), load4.dwords(Field::Addr)), (4, 2));
    let mut saddr = load4;
    if let Inst::Flat(f) = &mut saddr {
        f.saddr = Operand::Sgpr(4);
    }
    assert_eq!(saddr.dwords(Field::Addr), 1);
    // image_sample v[10:12], v[20:21], s[8:15], s[16:19] dmask:0x7 dim:SQ_RSRC_IMG_2D
    let sample = inst(&[0xF080_0708, 0x0082_0A14]);
    assert_eq!((sample.dwords(Field::Vdata), sample.dwords(Field::Vaddr)), (3, 2));
    let atomic = Inst::Flat(Flat {
        op: Opcode::from_name("global_atomic_cmpswap_x2").expect("opcode"),
        seg: Seg::Global,
        vdst: 1,
        addr: 2,
        data: 4,
        saddr: Operand::Special(Special::Null),
        offset: 0,
        glc: true,
        slc: false,
        dlc: false,
    });
    assert_eq!((atomic.dwords(Field::Vdst), atomic.dwords(Field::Data)), (2, 4));
    assert_eq!(atomic.to_string(), "global_atomic_cmpswap_x2 v[1:2], v[2:3], v[4:7], off glc");
}

#[test]
fn register_accesses() {
    use ferrum_isa::tables::Field;
    let regs = |i: &Inst| {
        i.reg_accesses()
            .iter()
            .map(|a| (a.field, a.operand, a.dwords, a.def, a.read))
            .collect::<Vec<_>>()
    };
    // s_and_b64 s[20:21], s[32:33], vcc
    let and = inst(&[0x8794_6A20]);
    assert_eq!(
        regs(&and),
        [
            (Field::Sdst, Operand::Sgpr(20), 2, true, false),
            (Field::Ssrc0, Operand::Sgpr(32), 2, false, true),
            (Field::Ssrc1, Operand::Special(Special::VccLo), 2, false, true),
        ]
    );
    // global_store_dword v[20:21], v30, off: reads the address pair and the data
    let store = inst(&[0xDC70_8000, 0x007D_1E14]);
    assert_eq!(
        regs(&store),
        [
            (Field::Addr, Operand::Vgpr(20), 2, false, true),
            (Field::Data, Operand::Vgpr(30), 1, false, true)
        ]
    );
    // s_cmpk_eq_i32 s20, 0x1234 only reads s20
    let cmpk = inst(&[0xB194_1234]);
    assert_eq!(regs(&cmpk), [(Field::Sdst, Operand::Sgpr(20), 1, false, true)]);
    // image_sample v[10:12], v[20:21], s[8:15], s[16:19] dmask:0x7 dim:SQ_RSRC_IMG_2D
    let sample = inst(&[0xF080_0708, 0x0082_0A14]);
    assert_eq!(
        regs(&sample),
        [
            (Field::Vdata, Operand::Vgpr(10), 3, true, false),
            (Field::Srsrc, Operand::Sgpr(8), 8, false, true),
            (Field::Ssamp, Operand::Sgpr(16), 4, false, true),
            (Field::Vaddr, Operand::Vgpr(20), 2, false, true),
        ]
    );
}

#[test]
fn constructors_encode_like_llvm_text() {
    let op = |n: &str| Opcode::from_name(n).expect("opcode");
    let cases: Vec<(Inst, &str)> = vec![
        (
            Vop3::new(
                op("v_fma_f32"),
                Operand::Vgpr(1),
                [Operand::Vgpr(2), Operand::Sgpr(3), Operand::Float(FloatConst::Half)],
            )
            .into(),
            "v_fma_f32 v1, v2, s3, 0.5",
        ),
        (
            Vop3p::new(
                op("v_pk_add_f16"),
                1,
                [Operand::Vgpr(2), Operand::Vgpr(3), Operand::UNUSED],
            )
            .into(),
            "v_pk_add_f16 v1, v2, v3",
        ),
        (
            Vop3p::new(
                op("v_fma_mix_f32"),
                1,
                [Operand::Vgpr(2), Operand::Vgpr(3), Operand::Vgpr(4)],
            )
            .into(),
            "v_fma_mix_f32 v1, v2, v3, v4",
        ),
        (
            Smem::new(op("s_load_dwordx4"), Operand::Sgpr(8), 2, 0x10).into(),
            "s_load_dwordx4 s[8:11], s[2:3], 0x10",
        ),
        (Ds::new(op("ds_write_b32"), 0, 1, 2, 0, 64).into(), "ds_write_b32 v1, v2 offset:64"),
        (
            Flat::new(
                op("global_load_dword"),
                Seg::Global,
                1,
                2,
                0,
                Operand::Special(Special::Null),
                8,
            )
            .into(),
            "global_load_dword v1, v[2:3], off offset:8",
        ),
        (
            Mimg::new(op("image_sample"), 0, 4, 8, 16, 0xf, 1).into(),
            "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        ),
        (
            Inst::Mubuf(Buffer::new(op("buffer_load_dword"), 1, Some(2), 4, Operand::Int(0), 16)),
            "buffer_load_dword v1, v2, s[4:7], 0 offen offset:16",
        ),
        (
            Inst::Mtbuf(Buffer::new(op("tbuffer_load_format_x"), 1, None, 4, Operand::Sgpr(1), 0)),
            "tbuffer_load_format_x v1, off, s[4:7], s1",
        ),
    ];
    for (inst, text) in cases {
        assert_eq!(inst.to_string(), text);
        let words = encode(&inst).expect("encodes");
        assert_eq!(decode(&words).expect("decodes").0, inst);
    }
}

#[test]
fn symbolic_immediates_pack() {
    use ferrum_isa::imm::{sendmsg_imm, Hwreg, Waitcnt};
    let op = |n: &str| Opcode::from_name(n).expect("opcode");
    let wait = Waitcnt { vmcnt: 0, ..Waitcnt::NONE };
    assert_eq!(Waitcnt::from_imm(wait.to_imm()), wait);
    let i = Inst::Sopp(Sopp { op: op("s_waitcnt"), simm16: wait.to_imm() });
    assert_eq!(i.to_string(), "s_waitcnt vmcnt(0)");
    let mode = Hwreg { id: 1, offset: 4, width: 4 };
    assert_eq!(Hwreg::from_imm(mode.to_imm()), mode);
    let i = Inst::Sopk(Sopk {
        op: op("s_setreg_b32"),
        sdst: Operand::Sgpr(2),
        simm16: mode.to_imm(),
        imm32: 0,
    });
    assert_eq!(i.to_string(), "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s2");
    let i = Inst::Sopp(Sopp { op: op("s_sendmsg"), simm16: sendmsg_imm(2, 2, 1) });
    assert_eq!(i.to_string(), "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)");
}
