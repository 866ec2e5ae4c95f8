//! decode(encode(x)) == x over random valid instructions, and decoding arbitrary words never
//! panics.

mod common;

use common::samples;
use ferrum_isa::tables::{Enc, Field, Kind};
use ferrum_isa::*;
use proptest::prelude::*;

/// A random scalar source for the scalar families.
fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        (0u8..=105).prop_map(Operand::Sgpr),
        (0u8..=255).prop_map(Operand::Vgpr),
        (-16i8..=64).prop_map(Operand::Int),
        any::<u32>().prop_map(Operand::Literal),
        Just(Operand::Special(Special::VccLo)),
        Just(Operand::Special(Special::ExecHi)),
        Just(Operand::Float(FloatConst::InvTwoPi)),
    ]
}

/// Random instructions: a table form, then random fields within the encodable ranges.
fn inst() -> impl Strategy<Value = Inst> {
    let forms: Vec<(Enc, usize)> =
        Enc::ALL.iter().flat_map(|&e| (0..e.forms().len()).map(move |i| (e, i))).collect();
    (prop::sample::select(forms), operand(), operand(), operand(), any::<u64>()).prop_filter_map(
        "unencodable combination",
        |((enc, i), a, b, c, bits)| {
            let f = &enc.forms()[i];
            // Start from a known-good sample of this form and randomise its fields.
            let mut inst = *samples(enc, f).first()?;
            let r = |sh: u32, m: u64| ((bits >> sh) & m) as u8;
            let vgpr_only = |o: Operand| matches!(o, Operand::Vgpr(_));
            match &mut inst {
                Inst::Sop2(x) => {
                    x.ssrc0 = if vgpr_only(a) { Operand::Sgpr(1) } else { a };
                    x.ssrc1 = if vgpr_only(b) {
                        Operand::Sgpr(2)
                    } else if let (Operand::Literal(_), Operand::Literal(_)) = (x.ssrc0, b) {
                        x.ssrc0
                    } else {
                        b
                    };
                }
                Inst::Vop1(x) if f.operand(Field::Src0).is_some() => x.src0 = a,
                Inst::Vop2(x) if f.operand(Field::Literal).is_none() => {
                    x.src0 = a;
                    x.vsrc1 = r(0, 255);
                    x.vdst = r(8, 255);
                }
                Inst::Vop3(x) => {
                    let n = [Field::Src0, Field::Src1, Field::Src2]
                        .iter()
                        .filter(|&&s| f.operand(s).is_some())
                        .count();
                    let lit = [a, b, c].iter().find_map(|o| {
                        if let Operand::Literal(v) = o {
                            Some(*v)
                        } else {
                            None
                        }
                    });
                    for (k, o) in [a, b, c].into_iter().enumerate().take(n) {
                        x.src[k] = match (o, lit) {
                            (Operand::Literal(_), Some(v)) => Operand::Literal(v),
                            _ => o,
                        };
                    }
                    x.neg = r(0, 7);
                    x.clamp = bits >> 3 & 1 != 0;
                    x.omod = r(4, 3);
                    if f.operand(Field::Sdst).is_none() {
                        x.abs = r(6, 7);
                        x.opsel = r(9, 15);
                    }
                    if f.operand(Field::Vdst).map(|o| o.kind) == Some(Kind::Vgpr) {
                        x.vdst = Operand::Vgpr(r(16, 255));
                    }
                }
                Inst::Ds(x) => {
                    x.offset0 = r(0, 255);
                    x.offset1 = r(8, 255);
                    x.gds = bits >> 16 & 1 != 0;
                }
                Inst::Mubuf(x) | Inst::Mtbuf(x) => {
                    x.offset = (bits & 0xFFF) as u16;
                    x.glc = bits >> 12 & 1 != 0;
                    x.slc = bits >> 13 & 1 != 0;
                    x.dlc = bits >> 14 & 1 != 0;
                    x.tfe = bits >> 15 & 1 != 0;
                    x.idxen = bits >> 16 & 1 != 0;
                    x.offen = bits >> 17 & 1 != 0;
                    x.vaddr = if x.idxen || x.offen { r(20, 255) } else { 0 };
                    if matches!(inst, Inst::Mtbuf(_)) {
                        if let Inst::Mtbuf(y) = &mut inst {
                            y.format = r(24, 127)
                        }
                    }
                }
                Inst::Smem(x) if f.operand(Field::Sbase).is_some() => {
                    x.offset = ((bits as i32) << 11) >> 11;
                    x.glc = bits >> 40 & 1 != 0;
                }
                Inst::Mimg(x) => {
                    let info = ferrum_isa::tables::MimgInfo::get(f.code)?;
                    x.dim = r(0, 7);
                    x.a16 = bits >> 3 & 1 != 0;
                    let n = info.addr_count(x.dim, x.a16) as usize;
                    if n == 0 {
                        return None;
                    }
                    x.nsa = bits >> 4 & 1 != 0 && n > 1;
                    x.vaddr = [0; 13];
                    for k in 0..if x.nsa { n } else { 1 } {
                        x.vaddr[k] = (bits >> (k * 5)) as u8;
                    }
                    x.dmask = r(8, 15);
                    x.glc = bits >> 12 & 1 != 0;
                    x.slc = bits >> 13 & 1 != 0;
                    x.dlc = bits >> 14 & 1 != 0;
                    x.tfe = bits >> 15 & 1 != 0;
                    x.lwe = bits >> 16 & 1 != 0;
                    x.d16 = bits >> 17 & 1 != 0;
                    x.unorm = bits >> 18 & 1 != 0;
                    x.r128 = bits >> 19 & 1 != 0;
                    x.vdata = r(20, 255);
                    x.srsrc = r(28, 31) * 4;
                }
                Inst::Exp(x) => {
                    x.target = r(0, 63);
                    x.en = r(6, 15);
                    x.src = [r(10, 255), r(18, 255), r(26, 255), r(34, 255)];
                    x.compr = bits >> 42 & 1 != 0;
                    x.done = bits >> 43 & 1 != 0;
                    x.vm = bits >> 44 & 1 != 0;
                }
                Inst::Vintrp(x) => {
                    x.attr = r(0, 63);
                    x.chan = r(6, 3);
                    x.vdst = r(8, 255);
                    if f.operand(Field::Vsrc).map(|o| o.kind) != Some(Kind::Param) {
                        x.vsrc = r(16, 255);
                    }
                }
                Inst::Sopp(x) if f.operand(Field::Simm16).is_some() => x.simm16 = bits as u16,
                Inst::Sopk(x) => x.simm16 = bits as u16,
                _ => {}
            }
            encode(&inst).ok().map(|_| inst)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn decode_inverts_encode(inst in inst()) {
        let words = encode(&inst).expect("filtered to encodable");
        let (back, n) = decode(&words).expect("own words decode");
        prop_assert_eq!(n, words.len());
        prop_assert_eq!(back, inst);
    }
}

/// A fixed-seed xorshift stream of words: decoding (and printing) must never panic, and a
/// successful decode re-encodes to something that decodes to the same instruction.
#[test]
fn decoding_arbitrary_words_never_panics() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u32
    };
    let mut decoded = 0;
    for _ in 0..100_000 {
        let words = [next(), next(), next()];
        if let Ok((inst, n)) = decode(&words) {
            decoded += 1;
            assert!((1..=3).contains(&n));
            let _ = inst.to_string();
            let again = encode(&inst).expect("decoded instructions encode");
            assert_eq!(decode(&again).expect("re-decodes").0, inst);
        }
        for len in 0..3 {
            let _ = decode(&words[..len]);
        }
    }
    assert!(decoded > 10_000, "only {decoded} of 100000 random words decoded");
}
