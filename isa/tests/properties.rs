//! decode(encode(x)) == x over random valid instructions, and decoding arbitrary words never
//! panics.

mod common;

use common::samples;
use ferrum_isa::tables::{Enc, Field, Form, Kind, MimgInfo};
use ferrum_isa::*;
use proptest::prelude::*;

/// A random source operand.
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

/// Random bits of a u64, `mask` wide, from bit `shift`.
fn r(bits: u64, shift: u32, mask: u64) -> u8 {
    ((bits >> shift) & mask) as u8
}

fn flag(bits: u64, n: u32) -> bool {
    bits >> n & 1 != 0
}

/// Sources of one instruction share one literal value (GFX10 has one literal dword).
fn one_literal(srcs: [Operand; 3]) -> [Operand; 3] {
    let lit = srcs.iter().find_map(|o| if let Operand::Literal(v) = o { Some(*v) } else { None });
    srcs.map(|o| match (o, lit) {
        (Operand::Literal(_), Some(v)) => Operand::Literal(v),
        _ => o,
    })
}

fn randomize_scalar(inst: &mut Inst, f: &Form, s: [Operand; 3], bits: u64) {
    let scalar =
        |o: Operand, alt: u8| if matches!(o, Operand::Vgpr(_)) { Operand::Sgpr(alt) } else { o };
    match inst {
        Inst::Sop2(x) => {
            let s = one_literal([scalar(s[0], 1), scalar(s[1], 2), Operand::UNUSED]);
            x.ssrc0 = s[0];
            x.ssrc1 = s[1];
        }
        Inst::Sopp(x) if f.operand(Field::Simm16).is_some() => x.simm16 = bits as u16,
        Inst::Sopk(x) => x.simm16 = bits as u16,
        Inst::Smem(x) if f.operand(Field::Sbase).is_some() => {
            x.offset = ((bits as i32) << 11) >> 11;
            x.glc = flag(bits, 40);
        }
        _ => {}
    }
}

fn randomize_valu(inst: &mut Inst, f: &Form, s: [Operand; 3], bits: u64) {
    match inst {
        Inst::Vop1(x) if f.operand(Field::Src0).is_some() && x.ext == Ext::None => x.src0 = s[0],
        Inst::Vop2(x) if f.operand(Field::Literal).is_none() && x.ext == Ext::None => {
            x.src0 = s[0];
            x.vsrc1 = r(bits, 0, 255);
            x.vdst = r(bits, 8, 255);
        }
        Inst::Vop3(x) => {
            let n = [Field::Src0, Field::Src1, Field::Src2]
                .iter()
                .filter(|&&fl| {
                    f.operand(fl).is_some_and(|o| o.kind != Kind::Attr && o.kind != Kind::Param)
                })
                .count();
            let s = one_literal(s);
            x.src[..n].copy_from_slice(&s[..n]);
            x.neg = r(bits, 0, 7);
            x.clamp = flag(bits, 3);
            x.omod = r(bits, 4, 3);
            if f.operand(Field::Sdst).is_none() {
                x.abs = r(bits, 6, 7);
                x.opsel = r(bits, 9, 15);
            }
            if f.operand(Field::Vdst).map(|o| o.kind) == Some(Kind::Vgpr) {
                x.vdst = Operand::Vgpr(r(bits, 16, 255));
            }
        }
        Inst::Vintrp(x) => {
            x.attr = r(bits, 0, 63);
            x.chan = r(bits, 6, 3);
            x.vdst = r(bits, 8, 255);
            if f.operand(Field::Vsrc).map(|o| o.kind) != Some(Kind::Param) {
                x.vsrc = r(bits, 16, 255);
            }
        }
        Inst::Exp(x) => {
            x.target = r(bits, 0, 63);
            x.en = r(bits, 6, 15);
            x.src = [r(bits, 10, 255), r(bits, 18, 255), r(bits, 26, 255), r(bits, 34, 255)];
            x.compr = flag(bits, 42);
            x.done = flag(bits, 43);
            x.vm = flag(bits, 44);
        }
        _ => {}
    }
}

fn randomize_memory(inst: &mut Inst, f: &Form, bits: u64) -> Option<()> {
    match inst {
        Inst::Ds(x) => {
            x.offset0 = r(bits, 0, 255);
            x.offset1 = r(bits, 8, 255);
            x.gds = flag(bits, 16);
        }
        Inst::Mubuf(x) | Inst::Mtbuf(x) => {
            x.offset = (bits & 0xFFF) as u16;
            x.glc = flag(bits, 12);
            x.slc = flag(bits, 13);
            x.dlc = flag(bits, 14);
            x.tfe = flag(bits, 15);
            x.idxen = flag(bits, 16);
            x.offen = flag(bits, 17);
            x.vaddr = if x.idxen || x.offen { r(bits, 20, 255) } else { 0 };
        }
        Inst::Mimg(x) => randomize_mimg(x, f, bits)?,
        _ => {}
    }
    if let Inst::Mtbuf(x) = inst {
        x.format = r(bits, 24, 127);
    }
    Some(())
}

fn randomize_mimg(x: &mut Mimg, f: &Form, bits: u64) -> Option<()> {
    let info = MimgInfo::get(f.code)?;
    x.dim = r(bits, 0, 7);
    x.a16 = flag(bits, 3);
    let n = info.addr_count(x.dim, x.a16) as usize;
    if n == 0 {
        return None;
    }
    x.nsa = flag(bits, 4) && n > 1;
    x.vaddr = [0; 13];
    for k in 0..if x.nsa { n } else { 1 } {
        x.vaddr[k] = (bits >> (k * 5)) as u8;
    }
    x.dmask = r(bits, 8, 15);
    x.glc = flag(bits, 12);
    x.slc = flag(bits, 13);
    x.dlc = flag(bits, 14);
    x.tfe = flag(bits, 15);
    x.lwe = flag(bits, 16);
    x.d16 = flag(bits, 17);
    x.unorm = flag(bits, 18);
    x.r128 = flag(bits, 19);
    x.vdata = r(bits, 20, 255);
    x.srsrc = r(bits, 28, 31) * 4;
    Some(())
}

/// Random instructions: a table form, one of its known-good samples, then random fields
/// within the encodable ranges.
fn inst() -> impl Strategy<Value = Inst> {
    let forms: Vec<(Enc, usize)> =
        Enc::ALL.iter().flat_map(|&e| (0..e.forms().len()).map(move |i| (e, i))).collect();
    (prop::sample::select(forms), operand(), operand(), operand(), any::<u64>(), 0usize..8)
        .prop_filter_map("unencodable combination", |((enc, i), a, b, c, bits, pick)| {
            let f = &enc.forms()[i];
            let all = samples(enc, f);
            let mut inst = *all.get(pick % all.len().max(1))?;
            randomize_scalar(&mut inst, f, [a, b, c], bits);
            randomize_valu(&mut inst, f, [a, b, c], bits);
            randomize_memory(&mut inst, f, bits)?;
            encode(&inst).ok().map(|_| inst)
        })
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
        let words = [next(), next(), next(), next(), next()];
        if let Ok((inst, n)) = decode(&words) {
            decoded += 1;
            assert!((1..=5).contains(&n));
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
