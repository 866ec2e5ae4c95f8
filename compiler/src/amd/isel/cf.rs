//! Control flow: block layout, lane masks, φ copies and loop back-jumps (see the module docs
//! of [`super`] for the scheme).

use ferrum_isa::{Inst, Opcode, Operand, Sop2, Special};

use super::build::{self, Src, EXEC};
use super::cf_plan::{Entry, Shape};
use super::layout_order::{block_order, Loop};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{MBlock, RegClass, RegRef};
use crate::analysis::dominance::Dominance;
use crate::ir::{BlockId, InstKind, Terminator, Value};

const EXEC_LO: Operand = Operand::Special(Special::ExecLo);

/// Machine-block numbering of the layout.
struct Plan {
    shape: Shape,
    pre: Vec<usize>,
    /// Head block; the body is the machine block after it, then two blocks for the φ copies
    /// of a terminator emitted as jumps.
    main: Vec<usize>,
    /// Machine block after the body (where a skipped block continues).
    next: Vec<usize>,
    /// Loop latch-check blocks: (header, machine block), emitted after the loop's last block.
    latches: Vec<Vec<(BlockId, usize)>>,
    /// Machine block after the first side of a uniform split, jumping to the join.
    trailer: Vec<Option<(usize, BlockId)>>,
    end: usize,
    mask: Vec<Option<RegRef>>,
    /// Masks written whole by the one predecessor (no zeroing, no OR, no re-arming): that
    /// predecessor's skip also skips the block, so a stale value is never read.
    assigned: Vec<bool>,
    /// EXEC saved at a region head whose join restores it.
    saved: Vec<Option<RegRef>>,
    /// Blocks inside a loop (their masks are re-armed on every iteration).
    in_loop: Vec<bool>,
    /// Headers of uniform loops (back edges jump past their pre-blocks).
    uniform_header: Vec<bool>,
}

impl Isel<'_> {
    pub(super) fn select_function(&mut self) -> Result<(), BackendError> {
        let f = self.f;
        let dom = Dominance::new(f);
        let (order, loops) = block_order(f, &dom);
        let shape = self.cf_shape(&order, &loops, &dom);
        let plan = self.plan(shape, &loops, &dom);
        self.mf.blocks = vec![MBlock::default(); plan.end + 1];
        self.init_scratch()?;
        self.save_live_mask();
        self.init_masks(&plan, &loops, &dom);
        for (i, &b) in plan.shape.order.iter().enumerate() {
            let bi = b.0 as usize;
            self.cur = plan.main[bi];
            match plan.shape.entry[bi] {
                Entry::Mask if i > 0 => {
                    let m = plan.mask[bi].expect("a masked block has a mask");
                    self.emit(build::sop1_fixed(
                        Opcode::S_MOV_B32,
                        EXEC_LO,
                        Src::R(m, RegClass::S),
                    ));
                    if plan.in_loop[bi] && !plan.assigned[bi] {
                        // Ready for the lanes of the next iteration.
                        self.emit(build::sop1(Opcode::S_MOV_B32, m, Src::I(0), 1));
                    }
                    self.branch(Opcode::S_CBRANCH_EXECZ, plan.next[bi]);
                }
                Entry::Restore => {
                    let j = plan.shape.owner[bi].expect("a restoring join has a region head");
                    let sv = plan.saved[j.0 as usize].expect("the region head saved EXEC");
                    self.emit(build::sop1_fixed(
                        Opcode::S_MOV_B32,
                        EXEC_LO,
                        Src::R(sv, RegClass::S),
                    ));
                }
                _ => {}
            }
            self.cur = plan.main[bi] + 1;
            self.gfx.in_entry = i == 0 || (top_level(f, &dom, b) && !plan.in_loop[bi]);
            self.select_insts(&f.block(b).insts)?;
            if let Some(sv) = plan.saved[bi] {
                self.emit(build::sop1(Opcode::S_MOV_B32, sv, EXEC, 1));
            }
            if plan.shape.jumps[bi] {
                self.jump_term(b, &plan)?;
            } else {
                self.select_term(b, &plan)?;
            }
            for &(h, mb) in &plan.latches[bi] {
                self.cur = mb;
                let m = plan.mask[h.0 as usize].expect("loop header has a mask");
                self.emit(build::sopc(Opcode::S_CMP_LG_U32, Src::R(m, RegClass::S), Src::I(0)));
                self.branch(Opcode::S_CBRANCH_SCC1, plan.main[h.0 as usize]);
            }
            if let Some((mb, j)) = plan.trailer[bi] {
                self.cur = mb;
                self.branch(Opcode::S_BRANCH, plan.pre[j.0 as usize]);
            }
        }
        self.cur = plan.end;
        self.mf.gfx = self.emit_exports()?;
        self.emit(build::sopp(Opcode::S_ENDPGM, 0));
        crate::amd::opt_exec::drop_overwritten_exec(&mut self.mf);
        Ok(())
    }

    /// A branch to machine block `target`.
    fn branch(&mut self, op: Opcode, target: usize) {
        let mut br = build::sopp(op, 0);
        br.target = Some(target);
        self.emit(br);
    }

    fn plan(&mut self, shape: Shape, loops: &[Loop], dom: &Dominance) -> Plan {
        let n = self.f.blocks.len();
        let order = shape.order.clone();
        let (mut pre, mut main, mut next) = (vec![0; n], vec![0; n], vec![0; n]);
        let mut latches = vec![Vec::new(); n];
        let mut trailer = vec![None; n];
        let mut ends_first = vec![None; n];
        for &d in &order {
            if let (Some(sp), Some(j)) = (&shape.split[d.0 as usize], shape.join[d.0 as usize]) {
                for e in &sp.ends {
                    ends_first[e.0 as usize] = Some(j);
                }
            }
        }
        let mut mb = 1; // block 0 is the prologue
        for (i, &b) in order.iter().enumerate() {
            // pre (mask initialisation), head (EXEC, skip branch), body, a φ-copy block per
            // target of a terminator emitted as jumps.
            pre[b.0 as usize] = mb;
            main[b.0 as usize] = mb + 1;
            mb += 3 + jump_targets(&self.f.block(b).term).len().max(2);
            next[b.0 as usize] = mb;
            // Loops whose last block (in layout) is b, innermost first.
            let mut ending: Vec<&Loop> = loops
                .iter()
                .enumerate()
                .filter(|(li, l)| !shape.uniform_loop[*li] && l.body[b.0 as usize])
                .map(|(_, l)| l)
                .filter(|l| order[i + 1..].iter().all(|x| !l.body[x.0 as usize]))
                .collect();
            ending.sort_by_key(|l| l.body.iter().filter(|x| **x).count());
            for l in ending {
                latches[b.0 as usize].push((l.header, mb));
                mb += 1;
            }
            if let Some(j) = ends_first[b.0 as usize] {
                trailer[b.0 as usize] = Some((mb, j));
                mb += 1;
            }
        }
        let mut uniform_header = vec![false; n];
        for (li, l) in loops.iter().enumerate() {
            if shape.uniform_loop[li] {
                uniform_header[l.header.0 as usize] = true;
            }
        }
        let loop_exit = &shape.loop_exit;
        // The stretch after each block that it dominates within its own loops: when the block
        // runs with no lanes, none of that stretch has any in this iteration.
        let in_loops =
            |x: BlockId| -> Vec<bool> { loops.iter().map(|l| l.body[x.0 as usize]).collect() };
        let dom_end: Vec<usize> = (0..order.len())
            .map(|i| {
                let (d, ld) = (order[i], in_loops(order[i]));
                let mut q = i;
                while let Some(&x) = order.get(q + 1) {
                    let lx = in_loops(x);
                    if !dom.dominates(d, x) || ld.iter().zip(&lx).any(|(a, b)| *a && !*b) {
                        break;
                    }
                    q += 1;
                }
                q
            })
            .collect();
        // A skipped block also skips what falls through from it, the rest of a region it
        // heads and the join, a uniform loop it enters with its exit block, and what it
        // dominates.
        for i in (0..order.len()).rev() {
            let b = order[i];
            if let Some(&after) = order.get(i + 1) {
                if shape.entry[after.0 as usize] == Entry::Falls {
                    next[b.0 as usize] = next[after.0 as usize];
                }
            }
            if let Some(j) = shape.join[b.0 as usize] {
                next[b.0 as usize] = if shape.owner[j.0 as usize] == Some(b) {
                    next[j.0 as usize]
                } else {
                    pre[j.0 as usize]
                };
            }
            if let Some(y) = loop_exit[b.0 as usize] {
                next[b.0 as usize] = next[y.0 as usize];
            }
            if dom_end[i] > i {
                let last = order[dom_end[i]];
                next[b.0 as usize] = next[b.0 as usize].max(next[last.0 as usize]);
            }
        }
        let cfg = dom.cfg();
        let mut assigned = vec![false; n];
        for (i, &t) in order.iter().enumerate().skip(1) {
            let [d] = cfg.preds[t.0 as usize][..] else { continue };
            let two_way = match self.f.block(d).term {
                Terminator::Branch(_) => true,
                Terminator::CondBranch { then, els, .. } => then != els,
                _ => false,
            };
            let pd = shape.pos[d.0 as usize];
            assigned[t.0 as usize] = shape.entry[t.0 as usize] == Entry::Mask
                && two_way
                && !shape.jumps[d.0 as usize]
                && pd < i
                && i <= dom_end[pd];
        }
        let mut in_loop = vec![false; n];
        for (x, flag) in in_loop.iter_mut().enumerate() {
            *flag = loops.iter().any(|l| l.body[x]);
        }
        let mut mask = vec![None; n];
        let mut saved = vec![None; n];
        for (i, &b) in order.iter().enumerate() {
            if i > 0 && shape.entry[b.0 as usize] == Entry::Mask {
                mask[b.0 as usize] = Some(self.vreg(RegClass::S, 1));
            }
            if shape.entry[b.0 as usize] == Entry::Restore {
                let d = shape.owner[b.0 as usize].expect("a restoring join has a region head");
                saved[d.0 as usize] = Some(self.vreg(RegClass::S, 1));
            }
        }
        Plan {
            shape,
            pre,
            main,
            next,
            latches,
            trailer,
            end: mb,
            mask,
            assigned,
            saved,
            in_loop,
            uniform_header,
        }
    }

    /// Zeroes each mask before the first contribution to it can happen: at the start of its
    /// first predecessor in layout, hoisted out of loops that contain that predecessor but
    /// not the block (their exits accumulate over iterations), and out of the stretch a
    /// skipped block jumps over.
    fn init_masks(&mut self, plan: &Plan, loops: &[Loop], dom: &Dominance) {
        let cfg = dom.cfg();
        let (order, pos) = (&plan.shape.order, &plan.shape.pos);
        for &b in order {
            let Some(m) = plan.mask[b.0 as usize] else { continue };
            if plan.assigned[b.0 as usize] {
                continue;
            }
            let Some(&p1) = cfg.preds[b.0 as usize]
                .iter()
                .filter(|p| cfg.reachable(**p))
                .min_by_key(|p| pos[p.0 as usize])
            else {
                continue;
            };
            let first = if pos[p1.0 as usize] < pos[b.0 as usize] { p1 } else { b };
            let mut at = first;
            for l in loops {
                if l.body[first.0 as usize]
                    && !l.body[b.0 as usize]
                    && pos[l.header.0 as usize] < pos[at.0 as usize]
                {
                    at = l.header;
                }
            }
            while let Some(&k) = order[..pos[at.0 as usize]].iter().find(|k| {
                plan.shape.entry[k.0 as usize] == Entry::Mask
                    && plan.next[k.0 as usize] > plan.pre[at.0 as usize]
            }) {
                at = k;
            }
            self.cur = plan.pre[at.0 as usize];
            self.emit(build::sop1(Opcode::S_MOV_B32, m, Src::I(0), 1));
        }
    }

    /// Lane mask of a boolean value as an operand.
    fn bool_src(&self, c: MVal) -> Src {
        match c {
            MVal::Const(0) => Src::I(0),
            MVal::Const(_) => Src::I(u32::MAX),
            MVal::Reg(r, class) => Src::R(r, class),
            MVal::Res(_) => Src::I(0),
        }
    }

    fn select_term(&mut self, b: BlockId, plan: &Plan) -> Result<(), BackendError> {
        let term = self.f.block(b).term.clone();
        match term {
            Terminator::Branch(t) => self.edge(b, t, None, plan),
            Terminator::CondBranch { cond, then, els } => {
                let c = self.comp(cond, 0)?;
                match c {
                    MVal::Const(x) => {
                        let (t, other) = if x & 1 != 0 { (then, els) } else { (els, then) };
                        if let (true, Some(m)) =
                            (plan.assigned[other.0 as usize], plan.mask[other.0 as usize])
                        {
                            self.emit(build::sop1(Opcode::S_MOV_B32, m, Src::I(0), 1));
                        }
                        self.edge(b, t, None, plan)
                    }
                    _ => {
                        let cs = self.bool_src(c);
                        let lanes = |isel: &mut Self, t: BlockId| match plan.mask[t.0 as usize] {
                            Some(m) if plan.assigned[t.0 as usize] => m,
                            _ => isel.vreg(RegClass::S, 1),
                        };
                        let tt = lanes(self, then);
                        self.emit(build::sop2(Opcode::S_AND_B32, Some(tt), EXEC, cs, 1));
                        let te = lanes(self, els);
                        self.emit(build::sop2(Opcode::S_ANDN2_B32, Some(te), EXEC, cs, 1));
                        self.edge(b, then, Some(tt), plan)?;
                        self.edge(b, els, Some(te), plan)
                    }
                }
            }
            Terminator::Switch { sel, default, cases } => {
                let s = self.comp(sel, 0)?;
                let seen = self.vreg(RegClass::S, 1);
                self.emit(build::sop1(Opcode::S_MOV_B32, seen, Src::I(0), 1));
                for (lit, target) in cases {
                    let m = self.eq_mask(s, lit as u32)?;
                    let t = self.vreg(RegClass::S, 1);
                    self.emit(build::sop2(
                        Opcode::S_AND_B32,
                        Some(t),
                        EXEC,
                        Src::R(m, RegClass::S),
                        1,
                    ));
                    self.emit(build::sop2(
                        Opcode::S_ANDN2_B32,
                        Some(t),
                        Src::R(t, RegClass::S),
                        Src::R(seen, RegClass::S),
                        1,
                    ));
                    self.emit(build::sop2(
                        Opcode::S_OR_B32,
                        Some(seen),
                        Src::R(seen, RegClass::S),
                        Src::R(t, RegClass::S),
                        1,
                    ));
                    self.edge(b, target, Some(t), plan)?;
                }
                let t = self.vreg(RegClass::S, 1);
                self.emit(build::sop2(
                    Opcode::S_ANDN2_B32,
                    Some(t),
                    EXEC,
                    Src::R(seen, RegClass::S),
                    1,
                ));
                self.edge(b, default, Some(t), plan)
            }
            Terminator::Return(v) if v.is_empty() => Ok(()),
            Terminator::Unreachable => Ok(()),
            Terminator::Kill => self.select_kill(),
            other => Err(unsupported(format!("terminator {other:?} in compute"))),
        }
    }

    /// Lane mask of `s == lit`.
    fn eq_mask(&mut self, s: MVal, lit: u32) -> Result<RegRef, BackendError> {
        let m = self.vreg(RegClass::S, 1);
        match s {
            MVal::Reg(r, RegClass::V) => self.emit(build::vcmp(
                Opcode::V_CMP_EQ_U32,
                m,
                Src::I(lit),
                Src::R(r, RegClass::V),
                1,
            )),
            other => {
                let a = self.src(other)?;
                self.emit(build::sopc(Opcode::S_CMP_EQ_U32, a, Src::I(lit)));
                self.emit(build::sop2(
                    Opcode::S_CSELECT_B32,
                    Some(m),
                    Src::I(u32::MAX),
                    Src::I(0),
                    1,
                ));
            }
        }
        Ok(m)
    }

    /// The φs of `to` and their sources on the edge from `from`.
    fn edge_phis(&self, from: BlockId, to: BlockId) -> Vec<(Value, Value)> {
        self.f
            .block(to)
            .insts
            .iter()
            .filter_map(|i| match &i.kind {
                InstKind::Phi(srcs) => {
                    let d = i.dst?;
                    srcs.iter().find(|(p, _)| *p == from).map(|(_, v)| (d, *v))
                }
                _ => None,
            })
            .collect()
    }

    /// The edge `from -> to` taken by lanes `lanes` (all of EXEC when `None`): φ copies under
    /// those lanes, then the lanes join `to`'s mask.
    fn edge(
        &mut self,
        from: BlockId,
        to: BlockId,
        lanes: Option<RegRef>,
        plan: &Plan,
    ) -> Result<(), BackendError> {
        let phis = self.edge_phis(from, to);
        if !phis.is_empty() {
            let saved = match lanes {
                Some(t) => {
                    let s = self.vreg(RegClass::S, 1);
                    self.emit(build::sop1(Opcode::S_MOV_B32, s, EXEC, 1));
                    self.emit(build::sop1_fixed(
                        Opcode::S_MOV_B32,
                        EXEC_LO,
                        Src::R(t, RegClass::S),
                    ));
                    Some(s)
                }
                None => None,
            };
            // With no lane subset the whole EXEC, never empty while a block runs, takes it.
            self.phi_copies(&phis, lanes.is_some())?;
            if let Some(s) = saved {
                self.emit(build::sop1_fixed(Opcode::S_MOV_B32, EXEC_LO, Src::R(s, RegClass::S)));
            }
        }
        match (plan.mask[to.0 as usize], lanes) {
            // The lanes were computed straight into the mask.
            (Some(m), Some(t)) if plan.assigned[to.0 as usize] && m == t => {}
            (Some(m), None) if plan.assigned[to.0 as usize] => {
                self.emit(build::sop1(Opcode::S_MOV_B32, m, EXEC, 1));
            }
            (Some(m), l) => {
                let l = l.map_or(EXEC, |t| Src::R(t, RegClass::S));
                self.emit(build::sop2(Opcode::S_OR_B32, Some(m), Src::R(m, RegClass::S), l, 1));
            }
            (None, _) => {}
        }
        Ok(())
    }

    /// A uniform switch: one compare and branch per case, then the default; an edge with φ
    /// copies goes through its own block.
    fn jump_switch(
        &mut self,
        b: BlockId,
        sel: Value,
        default: BlockId,
        cases: &[(u64, BlockId)],
        plan: &Plan,
    ) -> Result<(), BackendError> {
        let first_copies = plan.main[b.0 as usize] + 2;
        let targets = jump_targets(&self.f.block(b).term);
        let mut dest = Vec::new();
        for (x, &t) in targets.iter().enumerate() {
            let phis = self.edge_phis(b, t);
            dest.push(if phis.is_empty() {
                self.jump_target(b, t, plan)
            } else {
                let at = self.cur;
                self.cur = first_copies + x;
                self.phi_copies(&phis, false)?;
                let target = self.jump_target(b, t, plan);
                self.branch(Opcode::S_BRANCH, target);
                self.cur = at;
                first_copies + x
            });
        }
        let dest_of = |t: BlockId| dest[targets.iter().position(|x| *x == t).unwrap_or(0)];
        let s = match self.comp(sel, 0)? {
            MVal::Const(v) => {
                let t = cases.iter().find(|c| c.0 == v).map_or(default, |c| c.1);
                self.branch(Opcode::S_BRANCH, dest_of(t));
                return Ok(());
            }
            MVal::Reg(r, RegClass::V) => {
                let t = self.vreg(RegClass::S, 1);
                self.emit(build::readfirstlane(t, r));
                Src::R(t, RegClass::S)
            }
            other => self.src(other)?,
        };
        for &(lit, t) in cases {
            self.emit(build::sopc(Opcode::S_CMP_EQ_U32, s, Src::I(lit as u32)));
            self.branch(Opcode::S_CBRANCH_SCC1, dest_of(t));
        }
        self.branch(Opcode::S_BRANCH, dest_of(default));
        Ok(())
    }

    /// True if SCC already says whether the boolean `c` is set: it was just materialised from
    /// SCC by the block's last instruction (which dead-code removal drops if nothing else
    /// reads it).
    fn scc_holds(&self, c: Src) -> bool {
        let Src::R(r, RegClass::S) = c else { return false };
        let Some(last) = self.mf.blocks[self.cur].insts.last() else { return false };
        let from_scc = matches!(
            last.inst,
            Inst::Sop2(Sop2 {
                op: Opcode::S_CSELECT_B32,
                ssrc0: Operand::Int(-1),
                ssrc1: Operand::Int(0),
                ..
            })
        );
        from_scc && last.defs.first().is_some_and(|d| d.reg == r)
    }

    /// Where a jump along `from -> to` lands: a uniform loop's back edge skips the header's
    /// pre-block (its mask initialisations happen once, before the loop).
    fn jump_target(&self, from: BlockId, to: BlockId, plan: &Plan) -> usize {
        if plan.shape.returns[to.0 as usize] {
            return plan.end;
        }
        let pos = &plan.shape.pos;
        if plan.uniform_header[to.0 as usize] && pos[from.0 as usize] >= pos[to.0 as usize] {
            plan.main[to.0 as usize]
        } else {
            plan.pre[to.0 as usize]
        }
    }

    /// A terminator whose successors all run with this block's EXEC, taken by the whole wave
    /// one way: scalar compare and jumps, the φ copies of each edge on its own path.
    fn jump_term(&mut self, b: BlockId, plan: &Plan) -> Result<(), BackendError> {
        let bi = b.0 as usize;
        let (copies_a, copies_b) = (plan.main[bi] + 2, plan.main[bi] + 3);
        let (then, els, c) = match self.f.block(b).term.clone() {
            Terminator::Branch(t) => (t, None, None),
            Terminator::CondBranch { cond, then, els } => match self.comp(cond, 0)? {
                MVal::Const(x) => (if x & 1 != 0 { then } else { els }, None, None),
                c => (then, Some(els), Some(c)),
            },
            Terminator::Switch { sel, default, cases } => {
                return self.jump_switch(b, sel, default, &cases, plan);
            }
            other => return Err(unsupported(format!("jump terminator {other:?}"))),
        };
        let then_phis = self.edge_phis(b, then);
        let Some(els) = els else {
            self.phi_copies(&then_phis, false)?;
            let target = self.jump_target(b, then, plan);
            self.branch(Opcode::S_BRANCH, target);
            return Ok(());
        };
        let els_phis = self.edge_phis(b, els);
        if let Some(c) = c {
            let cs = self.bool_src(c);
            if !self.scc_holds(cs) {
                self.emit(build::sopc(Opcode::S_CMP_LG_U32, cs, Src::I(0)));
            }
        }
        // A side without copies is branched to directly (the one not laid out next, if
        // both qualify); the copies of a side run on its own path, after the branch.
        let pos = &plan.shape.pos;
        let then_next = pos[then.0 as usize] == pos[b.0 as usize] + 1;
        let direct_els = els_phis.is_empty() && (then_next || !then_phis.is_empty());
        let mut sides = Vec::new();
        if direct_els {
            self.branch(Opcode::S_CBRANCH_SCC0, self.jump_target(b, els, plan));
            sides.push((then, then_phis, copies_a));
        } else if then_phis.is_empty() {
            self.branch(Opcode::S_CBRANCH_SCC1, self.jump_target(b, then, plan));
            sides.push((els, els_phis, copies_a));
        } else {
            self.branch(Opcode::S_CBRANCH_SCC0, copies_b);
            sides.push((then, then_phis, copies_a));
            sides.push((els, els_phis, copies_b));
        }
        for (t, phis, mb) in sides {
            self.cur = mb;
            self.phi_copies(&phis, false)?;
            let target = self.jump_target(b, t, plan);
            self.branch(Opcode::S_BRANCH, target);
        }
        Ok(())
    }

    /// The φ destination registers (created on first use, one per component).
    pub(super) fn phi_regs(&mut self, d: Value) -> Vec<MVal> {
        if let Ok(v) = self.get(d) {
            return v;
        }
        let (bits, n) = self.shape(d);
        let class = if bits == 1 || !self.is_div(d) { RegClass::S } else { RegClass::V };
        let dw = Self::dwords(bits);
        let v: Vec<MVal> = (0..n).map(|_| MVal::Reg(self.vreg(class, dw), class)).collect();
        self.set(d, v.clone());
        v
    }

    /// Parallel copies into φ registers with EXEC = the edge's lanes. Sources that are φs of
    /// the same block are read into temporaries first so the copies act in parallel.
    fn phi_copies(&mut self, phis: &[(Value, Value)], guard: bool) -> Result<(), BackendError> {
        let mut srcs = Vec::new();
        for &(d, s) in phis {
            let dregs = self.phi_regs(d);
            let is_phi_dst = phis.iter().any(|&(x, _)| x == s);
            let sv = if is_phi_dst {
                // Snapshot (a φ reading another φ of the same block: swap-like cycles).
                let cur = self.phi_regs(s);
                let (bits, _) = self.shape(s);
                let mut out = Vec::new();
                for c in cur {
                    out.push(self.copy_val(c, bits)?);
                }
                out
            } else {
                self.get(s)?
            };
            srcs.push((d, dregs, sv));
        }
        for (d, dregs, sv) in srcs {
            let (bits, _) = self.shape(d);
            let uniform = !self.is_div(d);
            for (i, dr) in dregs.iter().enumerate() {
                let MVal::Reg(r, class) = *dr else { continue };
                let s = if sv.len() == 1 { sv[0] } else { sv[i] };
                self.copy_into(r, class, s, bits, uniform, guard)?;
            }
        }
        Ok(())
    }

    fn copy_val(&mut self, c: MVal, bits: u8) -> Result<MVal, BackendError> {
        let MVal::Reg(r, class) = c else { return Ok(c) };
        let dw = Self::dwords(bits);
        let t = self.vreg(class, dw);
        for i in 0..dw {
            match class {
                RegClass::S => {
                    self.emit(build::sop1(Opcode::S_MOV_B32, t.at(i), Src::R(r.at(i), class), 1))
                }
                RegClass::V => {
                    self.emit(build::vop1(Opcode::V_MOV_B32, t.at(i), Src::R(r.at(i), class)))
                }
            }
        }
        Ok(MVal::Reg(t, class))
    }

    /// One φ component copy under the current EXEC.
    fn copy_into(
        &mut self,
        r: RegRef,
        class: RegClass,
        s: MVal,
        bits: u8,
        uniform: bool,
        guard: bool,
    ) -> Result<(), BackendError> {
        let dw = Self::dwords(bits);
        match class {
            RegClass::V => {
                for i in 0..dw {
                    let src = match s {
                        MVal::Const(c) => Src::I((c >> (32 * u32::from(i))) as u32),
                        MVal::Reg(sr, sc) => Src::R(sr.at(i), sc),
                        MVal::Res(id) => Src::I(super::RES_CODE | id),
                    };
                    self.emit(build::vop1(Opcode::V_MOV_B32, r.at(i), src));
                }
            }
            RegClass::S if bits == 1 && !uniform => {
                // Divergent mask: replace only the bits of the lanes taking this edge.
                let src = self.bool_src(s);
                let t = self.vreg(RegClass::S, 1);
                self.emit(build::sop2(
                    Opcode::S_ANDN2_B32,
                    Some(r),
                    Src::R(r, RegClass::S),
                    EXEC,
                    1,
                ));
                self.emit(build::sop2(Opcode::S_AND_B32, Some(t), src, EXEC, 1));
                self.emit(build::sop2(
                    Opcode::S_OR_B32,
                    Some(r),
                    Src::R(r, RegClass::S),
                    Src::R(t, RegClass::S),
                    1,
                ));
            }
            RegClass::S => {
                // Uniform: only copy if some lane takes the edge (known when the edge is
                // taken by the whole EXEC).
                if guard {
                    self.emit(build::sopc(Opcode::S_CMP_LG_U32, EXEC, Src::I(0)));
                }
                for i in 0..dw {
                    let src = match s {
                        MVal::Const(c) if bits == 1 => {
                            Src::I(if c & 1 != 0 { u32::MAX } else { 0 })
                        }
                        MVal::Const(c) => Src::I((c >> (32 * u32::from(i))) as u32),
                        MVal::Reg(sr, RegClass::S) => Src::R(sr.at(i), RegClass::S),
                        MVal::Reg(sr, RegClass::V) => {
                            // Uniform data computed by the vector unit.
                            let t = self.vreg(RegClass::S, 1);
                            self.emit(build::readfirstlane(t, sr.at(i)));
                            if guard {
                                self.emit(build::sopc(Opcode::S_CMP_LG_U32, EXEC, Src::I(0)));
                            }
                            Src::R(t, RegClass::S)
                        }
                        MVal::Res(id) => Src::I(super::RES_CODE | id),
                    };
                    if guard {
                        self.emit(build::sop2(
                            Opcode::S_CSELECT_B32,
                            Some(r.at(i)),
                            src,
                            Src::R(r.at(i), RegClass::S),
                            1,
                        ));
                    } else {
                        self.emit(build::sop1(Opcode::S_MOV_B32, r.at(i), src, 1));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Distinct targets of a terminator, in order (cases, then the default, for a switch).
fn jump_targets(term: &Terminator) -> Vec<BlockId> {
    let all = match term {
        Terminator::Switch { default, cases, .. } => {
            let mut v: Vec<BlockId> = cases.iter().map(|c| c.1).collect();
            v.push(*default);
            v
        }
        other => other.succs(),
    };
    let mut out: Vec<BlockId> = Vec::new();
    for t in all {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Whether every invocation that returns runs `b` (it dominates every `return`): outside
/// loops, such a block runs once with all of them in EXEC, as the entry block does, so a
/// store there is on every path to the exports.
fn top_level(f: &crate::ir::Function, dom: &Dominance, b: BlockId) -> bool {
    let mut returns =
        f.blocks.iter().enumerate().filter(|(_, k)| matches!(k.term, Terminator::Return(_)));
    let mut any = false;
    let all = returns.all(|(r, _)| {
        any = true;
        dom.dominates(b, BlockId(r as u32))
    });
    any && all
}
