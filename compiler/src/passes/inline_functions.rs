//! `inline_functions`: inlines every call into the entry point, pointer parameters included,
//! and drops the other functions.
//!
//! Afterwards the shader has exactly one function and no `call` instructions. A callee with
//! several `return`s feeds its results to the continuation block through φs.

use rustc_hash::FxHashMap as HashMap;

use crate::error::CompileError;
use crate::ir::{BlockId, FuncId, Function, Inst, InstKind, Shader, Terminator, Value, VarId};

/// Most SSA values plus blocks a function may have after inlining.
pub const MAX_SIZE: usize = 1 << 20;

/// Inlines all calls into the entry function (callees first, so each is inlined fully once).
pub fn inline_functions(s: &mut Shader) -> Result<(), CompileError> {
    let mut done: HashMap<u32, Function> = HashMap::default();
    let entry = flatten(s, s.entry, &mut done, &mut Vec::new())?;
    s.funcs = vec![entry];
    s.entry = FuncId(0);
    Ok(())
}

fn flatten(
    s: &Shader,
    fid: FuncId,
    done: &mut HashMap<u32, Function>,
    stack: &mut Vec<u32>,
) -> Result<Function, CompileError> {
    if let Some(f) = done.get(&fid.0) {
        return Ok(f.clone());
    }
    if stack.contains(&fid.0) {
        return Err(CompileError::invalid("OpFunctionCall", "recursion"));
    }
    stack.push(fid.0);
    let mut f = s
        .funcs
        .get(fid.0 as usize)
        .cloned()
        .ok_or_else(|| CompileError::invalid("OpFunctionCall", "unknown function"))?;
    while let Some((b, i)) = find_call(&f) {
        let InstKind::Call { func, .. } = &f.blocks[b].insts[i].kind else {
            unreachable!("find_call returns calls")
        };
        let callee = flatten(s, *func, done, stack)?;
        check_signature(&f, &f.blocks[b].insts[i], &callee)?;
        inline_call(&mut f, b, i, &callee);
        // Nested calls can grow a module exponentially; refuse instead of exhausting memory.
        if f.values.len() + f.blocks.len() > MAX_SIZE {
            return Err(CompileError::unsupported(
                "OpFunctionCall",
                "shader too large after inlining",
            ));
        }
    }
    stack.pop();
    done.insert(fid.0, f.clone());
    Ok(f)
}

/// Arguments, results and every `return` agree with the callee's signature.
fn check_signature(f: &Function, call: &Inst, callee: &Function) -> Result<(), CompileError> {
    let InstKind::Call { args, rets, .. } = &call.kind else { return Ok(()) };
    let arg_types: Vec<_> = args.iter().map(|a| f.ty(*a)).collect();
    let param_types: Vec<_> = callee.params.iter().map(|p| callee.ty(*p)).collect();
    let ret_types: Vec<_> = rets.iter().map(|r| f.ty(*r)).collect();
    let returns_ok = callee.blocks.iter().all(|b| match &b.term {
        Terminator::Return(v) => {
            v.iter().map(|x| callee.ty(*x)).eq(callee.ret_types.iter().copied())
        }
        _ => true,
    });
    if arg_types != param_types || ret_types != callee.ret_types || !returns_ok {
        return Err(CompileError::invalid(
            "OpFunctionCall",
            format!("call of {} does not match its signature", callee.name),
        ));
    }
    Ok(())
}

fn find_call(f: &Function) -> Option<(usize, usize)> {
    for (bi, b) in f.blocks.iter().enumerate() {
        if let Some(i) = b.insts.iter().position(|i| matches!(i.kind, InstKind::Call { .. })) {
            return Some((bi, i));
        }
    }
    None
}

fn inline_call(f: &mut Function, b: usize, i: usize, callee: &Function) {
    let call = f.blocks[b].insts[i].clone();
    let InstKind::Call { args, rets, .. } = call.kind else { return };
    // Split the calling block: the continuation gets the rest and the terminator.
    let post = f.new_block();
    let tail: Vec<Inst> = f.blocks[b].insts.drain(i..).skip(1).collect();
    let term = std::mem::replace(&mut f.blocks[b].term, Terminator::Unreachable);
    let merge = f.blocks[b].merge.take();
    for s in term.succs() {
        for inst in &mut f.blocks[s.0 as usize].insts {
            if let InstKind::Phi(srcs) = &mut inst.kind {
                srcs.iter_mut().filter(|(p, _)| p.0 as usize == b).for_each(|(p, _)| *p = post);
            }
        }
    }
    {
        let pb = f.block_mut(post);
        pb.insts = tail;
        pb.term = term;
        pb.merge = merge;
    }
    let (entry, returns) = copy_callee(f, callee, &args, post);
    f.blocks[b].term = Terminator::Branch(entry);
    // Results: direct replacement for a single return, φs otherwise.
    if returns.len() == 1 {
        let mut map = vec![None; f.values.len()];
        for (r, v) in rets.iter().zip(&returns[0].1) {
            map[r.0 as usize] = Some(*v);
        }
        f.rewrite_uses(&map);
    } else {
        let phis: Vec<Inst> = rets
            .iter()
            .enumerate()
            .map(|(k, r)| Inst {
                dst: Some(*r),
                kind: InstKind::Phi(returns.iter().map(|(rb, vals)| (*rb, vals[k])).collect()),
            })
            .collect();
        let pb = f.block_mut(post);
        pb.insts.splice(0..0, phis);
    }
}

/// Copies `callee` into `f` with fresh values, blocks and locals, parameters replaced by
/// `args` and returns turned into branches to `post`. Returns the copied entry block and the
/// (block, values) of every former return.
fn copy_callee(
    f: &mut Function,
    callee: &Function,
    args: &[Value],
    post: BlockId,
) -> (BlockId, Vec<(BlockId, Vec<Value>)>) {
    // Copy the callee with fresh values, blocks and locals.
    let mut vmap: Vec<Option<Value>> = vec![None; callee.values.len()];
    for (p, a) in callee.params.iter().zip(args) {
        vmap[p.0 as usize] = Some(*a);
    }
    for (v, ty) in callee.values.iter().enumerate() {
        if vmap[v].is_none() {
            vmap[v] = Some(f.new_value(*ty));
        }
    }
    let bmap: Vec<BlockId> = (0..callee.blocks.len()).map(|_| f.new_block()).collect();
    let local_base = f.locals.len() as u32;
    f.locals.extend(callee.locals.iter().cloned());
    let mv = |v: &mut Value| *v = vmap[v.0 as usize].unwrap_or(*v);
    let mut returns = Vec::new();
    for (cb, block) in callee.blocks.iter().enumerate() {
        let mut nb = block.clone();
        for inst in &mut nb.insts {
            inst.for_each_src_mut(mv);
            if let Some(d) = &mut inst.dst {
                mv(d);
            }
            match &mut inst.kind {
                InstKind::Phi(srcs) => srcs.iter_mut().for_each(|(p, _)| *p = bmap[p.0 as usize]),
                InstKind::Call { rets, .. } => rets.iter_mut().for_each(mv),
                InstKind::Deref {
                    kind: crate::ir::DerefKind::Var(crate::ir::VarRef::Local(l)),
                    ..
                } => {
                    *l = VarId(l.0 + local_base);
                }
                _ => {}
            }
        }
        for v in nb.term.srcs_mut() {
            mv(v);
        }
        map_succs(&mut nb.term, &bmap);
        nb.merge = nb.merge.map(|m| match m {
            crate::ir::Merge::Selection(x) => crate::ir::Merge::Selection(bmap[x.0 as usize]),
            crate::ir::Merge::Loop { merge, cont } => crate::ir::Merge::Loop {
                merge: bmap[merge.0 as usize],
                cont: bmap[cont.0 as usize],
            },
        });
        if let Terminator::Return(vals) = &nb.term {
            returns.push((bmap[cb], vals.clone()));
            nb.term = Terminator::Branch(post);
        }
        f.blocks[bmap[cb].0 as usize] = nb;
    }
    (bmap[0], returns)
}

/// Renames every successor of `t` through `bmap` at once. (Renaming one successor after
/// another renames a block twice when a callee block's new id is another successor's old id:
/// `br c ? b2 : b4` with b2 -> b4 and b4 -> b6 became `br c ? b6 : b6`.)
fn map_succs(t: &mut Terminator, bmap: &[BlockId]) {
    let m = |b: &mut BlockId| *b = bmap[b.0 as usize];
    match t {
        Terminator::Branch(b) => m(b),
        Terminator::CondBranch { then, els, .. } => {
            m(then);
            m(els);
        }
        Terminator::Switch { default, cases, .. } => {
            m(default);
            cases.iter_mut().for_each(|c| m(&mut c.1));
        }
        _ => {}
    }
}
