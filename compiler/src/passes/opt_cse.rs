//! `opt_cse`: common-subexpression elimination over the dominator tree for pure
//! instructions, push-constant and stage-input loads, derefs included (two identical deref chains are one
//! pointer). Commutative ops are keyed with sorted operands.
//!
//! Afterwards no pure instruction is dominated by an identical one.

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::dominance::Dominance;
use crate::ir::{BlockId, Function, InstKind, Shader, Space, Value, ValueType};

/// Runs CSE on every function; returns true if anything changed.
pub fn opt_cse(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

fn key(kind: &InstKind) -> Option<InstKind> {
    match kind {
        InstKind::Alu(op, srcs) => {
            let mut s = srcs.clone();
            if op.is_commutative() && s.len() == 2 && s[1] < s[0] {
                s.swap(0, 1);
            }
            Some(InstKind::Alu(*op, s))
        }
        InstKind::Const(_)
        | InstKind::Deref { .. }
        | InstKind::ResourceIndex { .. }
        | InstKind::BufferSize { .. }
        | InstKind::SysVal(_)
        | InstKind::ArrayLength { .. } => Some(kind.clone()),
        // Push constants cannot change during a dispatch, nor the constant data ever, nor a
        // stage's inputs during an invocation (outputs read back can).
        InstKind::MemLoad { space: Space::Push | Space::Constant, .. }
        | InstKind::IoLoad { output: false, .. } => Some(kind.clone()),
        _ => None,
    }
}

fn run(f: &mut Function) -> bool {
    let dom = Dominance::new(f);
    let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut table: HashMap<(InstKind, ValueType), Value> = HashMap::default();
    let mut changed = false;
    // (block, None) enters a block; (block, Some(keys)) leaves it and forgets its keys.
    type Step = (BlockId, Option<Vec<(InstKind, ValueType)>>);
    let mut work: Vec<Step> = vec![(BlockId(0), None)];
    while let Some((b, undo)) = work.pop() {
        if let Some(keys) = undo {
            for k in keys {
                table.remove(&k);
            }
            continue;
        }
        let mut added = Vec::new();
        for inst in &mut f.blocks[b.0 as usize].insts {
            // Sources may refer to values already replaced in a dominating block.
            inst.for_each_src_mut(|v| {
                if let Some(r) = map[v.0 as usize] {
                    *v = r;
                }
            });
            let Some(d) = inst.dst else { continue };
            let Some(k) = key(&inst.kind) else { continue };
            let k = (k, f.values[d.0 as usize]);
            match table.get(&k) {
                Some(&prev) => {
                    map[d.0 as usize] = Some(prev);
                    changed = true;
                }
                None => {
                    table.insert(k.clone(), d);
                    added.push(k);
                }
            }
        }
        work.push((b, Some(added)));
        for &c in dom.children[b.0 as usize].iter().rev() {
            work.push((c, None));
        }
    }
    if changed {
        f.rewrite_uses(&map);
    }
    changed
}
