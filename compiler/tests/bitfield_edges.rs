//! Integer sign and the bitfield instructions at every integer width, on the edges of their
//! domains (counts of 0 and of the full width, offset + count = width, INT_MIN, INT_MAX, all
//! ones), with divergent and uniform operands. The expected values are computed here from the
//! SPIR-V and GLSL.std.450 definitions; the interpreter and the simulator must both give them.

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

/// Sign-extends the low `bits` of `v` to 64 bits.
fn sext(v: u64, bits: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    let sh = 64 - bits;
    (((v << sh) as i64) >> sh) as u64
}

/// Base values of a `w`-bit operand: 0, 1, all ones, INT_MIN, INT_MAX, and two patterns.
fn values(w: u32) -> Vec<u64> {
    let m = mask(w);
    vec![0, 1, m, 1 << (w - 1), m >> 1, 0x5a5a_5a5a_a5a5_a5a5 & m, 0x0123_4567_89ab_cdef & m]
}

/// (offset, count) pairs with offset + count <= w, at the edges.
fn fields(w: u64) -> Vec<(u64, u64)> {
    vec![(0, 0), (0, w), (w - 1, 1), (0, 1), (w / 2, w / 2), (1, w - 1), (0, w - 1), (w, 0), (3, 5)]
}

/// SSign: -1, 0 or 1 as a `w`-bit integer.
fn ssign(x: u64, w: u32) -> u64 {
    let s = sext(x, w) as i64;
    (s.signum() as u64) & mask(w)
}

/// OpBitFieldUExtract / OpBitFieldSExtract: bits offset..offset+count of base, zero- or
/// sign-extended from bit count - 1; a zero count gives 0.
fn bfe(base: u64, off: u64, count: u64, signed: bool, w: u32) -> u64 {
    let v = base.checked_shr(off as u32).unwrap_or(0) & mask(count as u32);
    let v = if signed { sext(v, count as u32) } else { v };
    v & mask(w)
}

/// OpBitFieldInsert: base with bits offset..offset+count replaced by insert's low bits.
fn bfi(base: u64, insert: u64, off: u64, count: u64, w: u32) -> u64 {
    let m = mask(count as u32).checked_shl(off as u32).unwrap_or(0);
    ((base & !m) | (insert.checked_shl(off as u32).unwrap_or(0) & m)) & mask(w)
}

const WIDTHS: [u8; 4] = [8, 16, 32, 64];

fn check(gpu: &Gpu, case: &OpCase, inputs: &[Vec<u64>], want: &[u64], fails: &mut Vec<String>) {
    for src in [Source::Divergent, Source::Uniform] {
        match run(gpu, case, src, inputs) {
            Ok((interp, sim)) => {
                for (k, ops) in inputs.iter().enumerate() {
                    if interp[k] != want[k] || sim[k] != want[k] {
                        fails.push(format!(
                            "{:?} {:?} {src:?} {ops:x?}: want {:#x} interpreter {:#x} simulator {:#x}",
                            case.form, case.result, want[k], interp[k], sim[k]
                        ));
                    }
                }
            }
            Err(e) => fails.push(format!("{:?} {:?} {src:?}: {e}", case.form, case.result)),
        }
    }
}

#[test]
fn sign_and_bitfields_at_every_width() {
    let gpu = Gpu::new();
    let mut fails = Vec::new();
    for w in WIDTHS {
        let (t, wb) = (Ty::Int(w), u32::from(w));
        let vals = values(wb);
        // SSign
        let case = OpCase { form: Form::Glsl("SSign"), result: t, operands: vec![t] };
        let inputs: Vec<Vec<u64>> = vals.iter().map(|&v| vec![v]).collect();
        let want: Vec<u64> = vals.iter().map(|&v| ssign(v, wb)).collect();
        check(&gpu, &case, &inputs, &want, &mut fails);
        // Extracts: offset and count as 32-bit integers.
        let u32t = Ty::Int(32);
        for (op, signed) in [("BitFieldUExtract", false), ("BitFieldSExtract", true)] {
            let case = OpCase { form: Form::Core(op), result: t, operands: vec![t, u32t, u32t] };
            let mut inputs = Vec::new();
            let mut want = Vec::new();
            for &v in &vals {
                for (o, c) in fields(u64::from(w)) {
                    inputs.push(vec![v, o, c]);
                    want.push(bfe(v, o, c, signed, wb));
                }
            }
            check(&gpu, &case, &inputs, &want, &mut fails);
        }
        let case = OpCase {
            form: Form::Core("BitFieldInsert"),
            result: t,
            operands: vec![t, t, u32t, u32t],
        };
        let mut inputs = Vec::new();
        let mut want = Vec::new();
        for (i, &v) in vals.iter().enumerate() {
            let ins = vals[(i + 2) % vals.len()];
            for (o, c) in fields(u64::from(w)) {
                inputs.push(vec![v, ins, o, c]);
                want.push(bfi(v, ins, o, c, wb));
            }
        }
        check(&gpu, &case, &inputs, &want, &mut fails);
    }
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

/// The expectations above, spot-checked by hand.
#[test]
fn hand_computed_expectations() {
    assert_eq!(ssign(0x80, 8), 0xff);
    assert_eq!(ssign(0x7fff_ffff, 32), 1);
    assert_eq!(ssign(0, 64), 0);
    assert_eq!(bfe(0xdead_beef, 0, 32, false, 32), 0xdead_beef);
    assert_eq!(bfe(0xdead_beef, 28, 4, true, 32), 0xffff_fffd);
    assert_eq!(bfe(0x8000_0000_0000_0000, 63, 1, true, 64), u64::MAX);
    assert_eq!(bfe(0x1234, 4, 0, true, 16), 0);
    assert_eq!(bfi(0x1111_1111, 0x2222_2222, 0, 32, 32), 0x2222_2222);
    assert_eq!(bfi(0xff, 0, 4, 4, 8), 0x0f);
    assert_eq!(bfi(0, u64::MAX, 1, 63, 64), u64::MAX - 1);
}
