//! `link_stages`: specializes lowered vertex and fragment shaders for the pipeline they are
//! linked into, as RADV does when it links a pipeline's stages (the caller runs the cleanups
//! afterwards, so what only fed a removed store or a constant folds away):
//!
//! * [`remove_unread_outputs`]: a VS's `store_output`s to location components the
//!   pipeline's fragment shader never reads ([`fragment_input_reads`]) are deleted. Their
//!   parameter slots then disappear with them (the backend exports exactly the locations
//!   stored), and `SPI_PS_INPUT_CNTL` maps every PS input by location, so the two stages'
//!   packing still agrees. Built-in outputs (position, point size, clip and cull distances)
//!   always stay.
//! * [`zero_view_index`]: without multiview (view mask 0) gl_ViewIndex is 0 (Vulkan: "the
//!   index of the view ... 0 if multiview is not enabled").

use super::Emitter;
use crate::amd::abi::graphics::ConstantInputs;
use crate::ir::{AluOp, InstKind, IoSlot, Shader, SysVal, Value, ValueType};

/// Locations a read mask covers: bit `4 * location + component`.
pub const MASK_LOCATIONS: u32 = 32;

/// The bits of `n` components of `bits` width from component `comp` of `loc`: a 64-bit
/// component takes two, and components past 4 spill into the next locations.
fn component_bits(loc: u32, comp: u8, bits: u8, n: u8) -> u128 {
    let width = if bits == 64 { 2 } else { 1 };
    let first = 4 * loc + u32::from(comp);
    let count = u32::from(n) * width;
    (first..first + count).filter(|&b| b < 4 * MASK_LOCATIONS).fold(0u128, |m, b| m | 1u128 << b)
}

/// The location components a fragment shader reads (bit `4 * location + component`):
/// interpolated loads, flat ones and interpolateAt* included. Every bit is set when the
/// shader reads an input some other way (conservatively: nothing may be removed then).
pub fn fragment_input_reads(s: &Shader) -> u128 {
    let mut mask = 0u128;
    for f in &s.funcs {
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            match &i.kind {
                InstKind::IoLoad { slot: IoSlot::Location(l), comp, output: false, .. } => {
                    let Some(d) = i.dst else { continue };
                    let (bits, n) = f.values[d.0 as usize].shape();
                    mask |= component_bits(*l, *comp, bits, n);
                }
                InstKind::InterpolateAt { .. } => return u128::MAX,
                _ => {}
            }
        }
    }
    mask
}

/// Locations whose output the shader reads back (bit per location), e.g. a dynamically
/// indexed output array's elements that a store keeps.
pub fn read_back_locations(s: &Shader) -> u64 {
    let loads = s.funcs.iter().flat_map(|f| f.blocks.iter().flat_map(|b| &b.insts));
    loads.fold(0u64, |m, i| match i.kind {
        InstKind::IoLoad { slot: IoSlot::Location(l), output: true, .. } if l < 64 => m | 1 << l,
        _ => m,
    })
}

/// The mask bits of the locations in `locations` (bit per location).
pub fn location_bits(locations: u64) -> u128 {
    (0..MASK_LOCATIONS).filter(|l| locations >> l & 1 != 0).fold(0u128, |m, l| m | 0xf << (4 * l))
}

/// Deletes the VS's stores to location components in `unread` (bit `4 * location +
/// component`); a 32-bit store some of whose components are read keeps only those (one
/// scalar store each, so the parameter export enables just them), other widths stay whole.
/// Returns whether anything changed. A read-back of a location whose stores went would read
/// 0: the caller checks that none survives the cleanups ([`read_back_locations`]).
pub fn remove_unread_outputs(s: &mut Shader, unread: u128) -> bool {
    if unread == 0 {
        return false;
    }
    let mut changed = false;
    for f in &mut s.funcs {
        for b in 0..f.blocks.len() {
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut e = Emitter::new(f);
            for inst in insts {
                let InstKind::IoStore { slot: IoSlot::Location(l), comp, value } = inst.kind else {
                    e.out.push(inst);
                    continue;
                };
                let (bits, n) = e.f.ty(value).shape();
                let written = component_bits(l, comp, bits, n);
                if l >= MASK_LOCATIONS || written & unread == 0 {
                    e.out.push(inst);
                } else if written & !unread == 0 {
                    changed = true;
                } else if bits != 32 {
                    e.out.push(inst);
                } else {
                    for k in (0..n).filter(|&k| unread >> (4 * l + u32::from(comp + k)) & 1 == 0) {
                        let ix = e.imm(32, u64::from(k));
                        let c = e.alu(AluOp::ExtractDyn, 32, 1, vec![value, ix]);
                        let kind = InstKind::IoStore {
                            slot: IoSlot::Location(l),
                            comp: comp + k,
                            value: c,
                        };
                        e.emit_void(kind);
                    }
                    changed = true;
                }
            }
            f.blocks[b].insts = e.out;
        }
    }
    changed
}

/// The location components a VS stores one 32-bit constant to, on whatever paths store
/// them: every store to the component stores the same constant, and the location is never
/// read back. (A path that does not store leaves the output undefined, so the constant is a
/// right value for it too.) Components of other widths count as not constant, and so do
/// infinities and NaNs: interpolating them computes inf - inf.
pub fn constant_outputs(s: &Shader) -> ConstantInputs {
    let mut out = ConstantInputs::default();
    let mut varying = location_bits(read_back_locations(s));
    for f in &s.funcs {
        let defs = f.def_map();
        let def = |v: Value| defs[v.0 as usize].map(|(b, i)| &f.block(b).insts[i].kind);
        // The 32-bit constant in component `k` of `v`, when it has one.
        let comp_const = |v: Value, k: u8| match def(v) {
            Some(InstKind::Const(c)) => c.get(usize::from(k)).map(|&x| x as u32),
            Some(InstKind::Alu(AluOp::Vec, srcs)) => {
                match srcs.get(usize::from(k)).map(|&c| def(c)) {
                    Some(Some(InstKind::Const(c))) if c.len() == 1 => Some(c[0] as u32),
                    _ => None,
                }
            }
            _ => None,
        };
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            let InstKind::IoStore { slot: IoSlot::Location(l), comp, value } = i.kind else {
                continue;
            };
            let (bits, n) = f.values[value.0 as usize].shape();
            if bits != 32 {
                varying |= component_bits(l, comp, bits, n);
                continue;
            }
            for k in 0..n {
                let bit = component_bits(l, comp + k, 32, 1);
                let finite = |c: u32| c & 0x7f80_0000 != 0x7f80_0000;
                let Some(c) = comp_const(value, k).filter(|&c| finite(c)) else {
                    varying |= bit;
                    continue;
                };
                let at = bit.trailing_zeros() as usize;
                if bit != 0 && out.mask & bit != 0 && out.values[at] != c {
                    varying |= bit;
                } else if bit != 0 {
                    out.mask |= bit;
                    out.values[at] = c;
                }
            }
        }
    }
    out.mask &= !varying;
    for (i, v) in out.values.iter_mut().enumerate() {
        if out.mask >> i & 1 == 0 {
            *v = 0;
        }
    }
    out
}

/// A fragment shader's scalar 32-bit input loads of the components in `consts` become those
/// constants (interpolating a value that is the same at every vertex gives that value
/// exactly). Loads of several components or other widths stay, and so keep their components
/// read. Returns whether anything changed.
pub fn propagate_constant_inputs(s: &mut Shader, consts: &ConstantInputs) -> bool {
    if consts.mask == 0 {
        return false;
    }
    let mut changed = false;
    for f in &mut s.funcs {
        let types = &f.values;
        for i in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
            let InstKind::IoLoad { slot: IoSlot::Location(l), comp, output: false, .. } = i.kind
            else {
                continue;
            };
            let scalar32 = i.dst.is_some_and(|d| {
                matches!(types[d.0 as usize], ValueType::Data { bits: 32, comps: 1 })
            });
            if let (true, Some(c)) = (scalar32, consts.get(l, comp)) {
                i.kind = InstKind::Const(vec![u64::from(c)]);
                changed = true;
            }
        }
    }
    changed
}

/// Replaces every read of gl_ViewIndex by the constant 0 (a pipeline without multiview).
/// Returns whether anything changed.
pub fn zero_view_index(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        let types = &f.values;
        for i in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
            let scalar = i.dst.is_some_and(|d| {
                matches!(types[d.0 as usize], ValueType::Data { bits: 32, comps: 1 })
            });
            if scalar && matches!(i.kind, InstKind::SysVal(SysVal::ViewIndex)) {
                i.kind = InstKind::Const(vec![0]);
                changed = true;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_bits_cover_64_bit_components_across_locations() {
        assert_eq!(component_bits(0, 0, 32, 4), 0xf);
        assert_eq!(component_bits(2, 1, 32, 2), 0b0110 << 8);
        // A dvec3 at location 1 from component 0: six 32-bit halves, locations 1 and 2.
        assert_eq!(component_bits(1, 0, 64, 3), 0x3f << 4);
        // Location 31's last component is the mask's last bit; nothing past it.
        assert_eq!(component_bits(31, 3, 64, 1), 1u128 << 127);
        assert_eq!(component_bits(40, 0, 32, 4), 0);
        assert_eq!(location_bits(1 << 1 | 1 << 31 | 1 << 40), 0xf0 | 0xf << 124);
    }
}
