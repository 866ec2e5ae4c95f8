//! `opt_memory_forward`: block-local load/store forwarding and dead-store elimination on
//! derefs, driven by [`crate::analysis::alias`].
//!
//! A load that must alias an earlier store or load in the same block, with nothing in between
//! that may write the location, takes the known value. A store that a later must-alias store
//! in the same block overwrites, with nothing in between that may read the location, is
//! removed. Barriers and calls end all knowledge of shared memory (other invocations may
//! write it); atomics count as both a read and a write. Afterwards no such redundant load or
//! store remains within a block.

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::alias::{alias, paths, Alias, Path};
use crate::ir::{Function, InstKind, Shader, Value, ValueType};

/// Forwards loads and removes dead stores in every function; returns true if anything changed.
pub fn opt_memory_forward(s: &mut Shader) -> bool {
    let mut changed = false;
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        changed |= run(s, &mut f);
        s.funcs[fi] = f;
    }
    changed
}

struct Known {
    ptr: Value,
    value: Value,
}

fn run(s: &Shader, f: &mut Function) -> bool {
    let paths = paths(s, f);
    let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    for bi in 0..f.blocks.len() {
        let mut known: Vec<Known> = Vec::new();
        // Stores not yet read: (instruction index, pointer).
        let mut pending: Vec<(usize, Value)> = Vec::new();
        let mut dead: Vec<usize> = Vec::new();
        let path = |v: &Value| paths.get(v);
        let rel = |a: &Value, b: &Value| match (path(a), path(b)) {
            (Some(x), Some(y)) => {
                let r = alias(s, f, x, y);
                // Must-alias also needs the same view of the bytes.
                if r == Alias::Must && f.ty(*a) != f.ty(*b) {
                    Alias::May
                } else {
                    r
                }
            }
            _ => Alias::May,
        };
        for (ii, inst) in f.blocks[bi].insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Load { ptr } => {
                    let Some(d) = inst.dst else { continue };
                    if let Some(k) = known.iter().find(|k| rel(&k.ptr, ptr) == Alias::Must) {
                        if f.ty(k.value) == f.ty(d) {
                            map[d.0 as usize] = Some(k.value);
                            changed = true;
                            continue;
                        }
                    }
                    pending.retain(|(_, p)| rel(p, ptr) == Alias::No);
                    if path(ptr).is_some() {
                        known.push(Known { ptr: *ptr, value: d });
                    }
                }
                InstKind::Store { ptr, value } => {
                    if let Some(pos) = pending.iter().position(|(_, p)| rel(p, ptr) == Alias::Must)
                    {
                        dead.push(pending[pos].0);
                        pending.remove(pos);
                    }
                    known.retain(|k| rel(&k.ptr, ptr) == Alias::No);
                    if path(ptr).is_some() {
                        known.push(Known { ptr: *ptr, value: *value });
                        pending.push((ii, *ptr));
                    }
                }
                InstKind::Atomic { ptr, .. } => {
                    known.retain(|k| rel(&k.ptr, ptr) == Alias::No);
                    pending.retain(|(_, p)| rel(p, ptr) == Alias::No);
                }
                InstKind::Barrier { .. }
                | InstKind::Call { .. }
                | InstKind::Image(_)
                | InstKind::Demote
                | InstKind::KillIf(_)
                | InstKind::DemoteIf(_) => {
                    known.clear();
                    pending.clear();
                }
                InstKind::ArrayLength { .. } => {}
                _ => {
                    // Anything else reading memory through a deref ends what we know about it.
                    let mut touches = false;
                    inst.for_each_src(|v| touches |= matches!(f.ty(v), ValueType::Deref(_)));
                    if touches {
                        known.clear();
                        pending.clear();
                    }
                }
            }
        }
        if !dead.is_empty() {
            changed = true;
            let mut i = 0;
            f.blocks[bi].insts.retain(|_| {
                i += 1;
                !dead.contains(&(i - 1))
            });
        }
    }
    if changed {
        f.rewrite_uses(&map);
    }
    changed
}

/// Paths are recomputed per call; exposed for tests that want to inspect them.
pub fn deref_paths(s: &Shader, f: &Function) -> HashMap<Value, Path> {
    paths(s, f)
}
