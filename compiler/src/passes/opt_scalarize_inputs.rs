//! `opt_scalarize_inputs`: a fragment shader's multi-component 32-bit input loads become one
//! load per component and a `vec` of them.
//!
//! `lower_io` loads exactly the components each use reads, so one input is often loaded as
//! `x`, again as `xyz`, and again as `z`; every interpolated component costs two instructions
//! (`v_interp_p1`/`p2`). Split into scalars, `opt_cse` keeps one load per component and
//! `opt_copy_prop` forwards the `vec`'s components to their extracts. Inputs do not change
//! during an invocation, so the loads are pure. Vertex inputs stay whole (one buffer load
//! fetches the vector), and so do other widths (their component numbering is not one per
//! 32-bit lane), and so do loads interpolated at a sample or an offset (selection computes
//! their barycentrics per load).
//!
//! Afterwards every fragment input `IoLoad` of 32-bit data at the input's own or the centroid
//! location reads one component.

use crate::ir::{AluOp, Inst, InstKind, Shader, Stage, ValueType};

/// Splits the input loads of a fragment shader; returns true if anything changed.
pub fn opt_scalarize_inputs(s: &mut Shader) -> bool {
    if s.stage != Stage::Fragment {
        return false;
    }
    let mut changed = false;
    for f in &mut s.funcs {
        for b in 0..f.blocks.len() {
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut out = Vec::with_capacity(insts.len());
            for inst in insts {
                let (InstKind::IoLoad { slot, comp, output: false, at }, Some(d)) =
                    (&inst.kind, inst.dst)
                else {
                    out.push(inst);
                    continue;
                };
                let ValueType::Data { bits: 32, comps } = f.ty(d) else {
                    out.push(inst);
                    continue;
                };
                // Interpolation at a sample or offset computes its barycentrics per load.
                if comps < 2 || at.src().is_some() {
                    out.push(inst);
                    continue;
                }
                let mut parts = Vec::with_capacity(usize::from(comps));
                for i in 0..comps {
                    let v = f.new_value(ValueType::data(32, 1));
                    let kind =
                        InstKind::IoLoad { slot: *slot, comp: comp + i, output: false, at: *at };
                    out.push(Inst { dst: Some(v), kind });
                    parts.push(v);
                }
                out.push(Inst { dst: Some(d), kind: InstKind::Alu(AluOp::Vec, parts) });
                changed = true;
            }
            f.blocks[b].insts = out;
        }
    }
    changed
}
