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
