//! `OpGroupNonUniform*`: subgroup operations become [`InstKind::Subgroup`]; the ballot
//! helpers (bit extract, bit count, find LSB/MSB, inverse ballot) are plain ALU on the ballot's
//! first component, since the wave (and so every ballot) is 32 lanes wide.

use rspirv::dr::{Instruction, Operand};
use spirv::{GroupOperation, Op};

use super::function::{FnCtx, Tree};
use super::module::CTree;
use super::operands::{bad, id, opname};
use crate::error::CompileError;
use crate::ir::{AluOp, InstKind, SubgroupOp, SysVal, Type, TypeId, Value, ValueType};

/// SPIR-V `Scope::Subgroup`.
const SCOPE_SUBGROUP: u64 = 3;

fn reduction(op: Op) -> Option<AluOp> {
    Some(match op {
        Op::GroupNonUniformIAdd => AluOp::Iadd,
        Op::GroupNonUniformFAdd => AluOp::Fadd,
        Op::GroupNonUniformIMul => AluOp::Imul,
        Op::GroupNonUniformFMul => AluOp::Fmul,
        Op::GroupNonUniformSMin => AluOp::Imin,
        Op::GroupNonUniformUMin => AluOp::Umin,
        Op::GroupNonUniformFMin => AluOp::Fmin,
        Op::GroupNonUniformSMax => AluOp::Imax,
        Op::GroupNonUniformUMax => AluOp::Umax,
        Op::GroupNonUniformFMax => AluOp::Fmax,
        Op::GroupNonUniformBitwiseAnd | Op::GroupNonUniformLogicalAnd => AluOp::Iand,
        Op::GroupNonUniformBitwiseOr | Op::GroupNonUniformLogicalOr => AluOp::Ior,
        Op::GroupNonUniformBitwiseXor | Op::GroupNonUniformLogicalXor => AluOp::Ixor,
        _ => return None,
    })
}

impl FnCtx<'_, '_> {
    pub(super) fn constant_u64(&self, inst: &Instruction, i: usize) -> Result<u64, CompileError> {
        match self.m.consts.get(&id(inst, i)?) {
            Some(CTree::Leaf(_, c)) if c.len() == 1 => Ok(c[0]),
            _ => Err(bad(inst, &format!("operand {i} is not a scalar constant"))),
        }
    }

    fn group_operation(inst: &Instruction) -> Result<GroupOperation, CompileError> {
        match inst.operands.get(1) {
            Some(Operand::GroupOperation(g)) => Ok(*g),
            _ => Err(bad(inst, "missing group operation")),
        }
    }

    /// `OpDPdx`... `OpFwidthCoarse`: quad differences; `fwidth` is `|ddx| + |ddy|`. The plain
    /// forms may be fine or coarse (Vulkan leaves it to the implementation): coarse, like RADV.
    fn derivative(&mut self, inst: &Instruction) -> Result<Option<Value>, CompileError> {
        let (fine, kind) = match inst.class.opcode {
            Op::DPdx | Op::DPdxCoarse => (false, 0),
            Op::DPdxFine => (true, 0),
            Op::DPdy | Op::DPdyCoarse => (false, 1),
            Op::DPdyFine => (true, 1),
            Op::Fwidth | Op::FwidthCoarse => (false, 2),
            Op::FwidthFine => (true, 2),
            _ => return Ok(None),
        };
        let vt = self.rvt(inst)?;
        let p = self.leaf(inst, 0)?;
        let d = |s: &mut Self, y| s.subgroup(SubgroupOp::Derivative { y, fine }, vec![p], vt);
        if kind < 2 {
            return Ok(Some(d(self, kind == 1)));
        }
        let (dx, dy) = (d(self, false), d(self, true));
        let ax = self.alu(AluOp::Fabs, vt, vec![dx]);
        let ay = self.alu(AluOp::Fabs, vt, vec![dy]);
        Ok(Some(self.alu(AluOp::Fadd, vt, vec![ax, ay])))
    }

    fn subgroup(&mut self, op: SubgroupOp, srcs: Vec<Value>, vt: ValueType) -> Value {
        self.emit(InstKind::Subgroup { op, srcs }, vt)
    }

    /// Translates subgroup instructions; `false` if `inst` is not one.
    pub fn subgroup_inst(&mut self, inst: &Instruction) -> Result<bool, CompileError> {
        let o = inst.class.opcode;
        if let Some(r) = self.derivative(inst)? {
            self.set(inst, Tree::Leaf(r))?;
            return Ok(true);
        }
        if !format!("{o:?}").starts_with("GroupNonUniform") {
            return Ok(false);
        }
        if self.constant_u64(inst, 0)? != SCOPE_SUBGROUP {
            return Err(CompileError::unsupported(opname(inst), "scope other than Subgroup"));
        }
        let vt = self.rvt(inst)?;
        let b = ValueType::data(1, 1);
        let r = match o {
            Op::GroupNonUniformElect => self.subgroup(SubgroupOp::Elect, vec![], b),
            Op::GroupNonUniformAllEqual if self.operand_is_float(inst, 1) => {
                let v = self.leaf(inst, 1)?;
                self.float_all_equal(v)
            }
            Op::GroupNonUniformAll | Op::GroupNonUniformAny | Op::GroupNonUniformAllEqual => {
                let s = match o {
                    Op::GroupNonUniformAll => SubgroupOp::All,
                    Op::GroupNonUniformAny => SubgroupOp::Any,
                    _ => SubgroupOp::AllEqual,
                };
                let v = self.leaf(inst, 1)?;
                self.subgroup(s, vec![v], b)
            }
            Op::GroupNonUniformBallot => {
                let v = self.leaf(inst, 1)?;
                self.subgroup(SubgroupOp::Ballot, vec![v], vt)
            }
            Op::GroupNonUniformBroadcastFirst => {
                let v = self.leaf(inst, 1)?;
                self.subgroup(SubgroupOp::BroadcastFirst, vec![v], vt)
            }
            Op::GroupNonUniformBroadcast
            | Op::GroupNonUniformShuffle
            | Op::GroupNonUniformShuffleXor
            | Op::GroupNonUniformShuffleUp
            | Op::GroupNonUniformShuffleDown
            | Op::GroupNonUniformQuadBroadcast => {
                let s = match o {
                    Op::GroupNonUniformBroadcast => SubgroupOp::Broadcast,
                    Op::GroupNonUniformShuffle => SubgroupOp::Shuffle,
                    Op::GroupNonUniformShuffleXor => SubgroupOp::ShuffleXor,
                    Op::GroupNonUniformShuffleUp => SubgroupOp::ShuffleUp,
                    Op::GroupNonUniformShuffleDown => SubgroupOp::ShuffleDown,
                    _ => SubgroupOp::QuadBroadcast,
                };
                let (v, lane) = (self.leaf(inst, 1)?, self.leaf(inst, 2)?);
                let lane = self.lane_u32(lane);
                self.subgroup(s, vec![v, lane], vt)
            }
            Op::GroupNonUniformQuadSwap => {
                let dir = self.constant_u64(inst, 2)?;
                if dir > 2 {
                    return Err(bad(inst, "quad swap direction out of range"));
                }
                let v = self.leaf(inst, 1)?;
                self.subgroup(SubgroupOp::QuadSwap(dir as u8 + 1), vec![v], vt)
            }
            Op::GroupNonUniformInverseBallot | Op::GroupNonUniformBallotBitExtract => {
                let v = self.leaf(inst, 1)?;
                let lane = if o == Op::GroupNonUniformInverseBallot {
                    self.emit(
                        InstKind::SysVal(SysVal::SubgroupInvocationId),
                        ValueType::data(32, 1),
                    )
                } else {
                    let l = self.leaf(inst, 2)?;
                    self.lane_u32(l)
                };
                self.ballot_bit(v, lane)
            }
            Op::GroupNonUniformBallotBitCount => self.ballot_bit_count(inst)?,
            Op::GroupNonUniformBallotFindLSB | Op::GroupNonUniformBallotFindMSB => {
                let v = self.leaf(inst, 1)?;
                let x = self.comp(v, 0);
                let a = if o == Op::GroupNonUniformBallotFindLSB {
                    AluOp::FindLsb
                } else {
                    AluOp::UfindMsb
                };
                self.alu(a, ValueType::data(32, 1), vec![x])
            }
            _ => self.subgroup_arith(inst, vt)?,
        };
        self.set(inst, Tree::Leaf(r))?;
        Ok(true)
    }

    /// Whether operand `i` (as [`FnCtx::leaf`] counts) has a float scalar or vector type,
    /// found from the result type of the instruction defining it.
    fn operand_is_float(&self, inst: &Instruction, i: usize) -> bool {
        let Some(Operand::IdRef(v)) = inst.operands.get(i) else { return false };
        let spv = self.m.spv;
        let body = spv.functions.iter().flat_map(|f| {
            f.parameters.iter().chain(f.blocks.iter().flat_map(|b| b.instructions.iter()))
        });
        let ty = spv
            .types_global_values
            .iter()
            .chain(body)
            .find(|d| d.result_id == Some(*v))
            .and_then(|d| d.result_type);
        let types = &self.m.shader.types;
        let is_float = |t: TypeId| matches!(types.get(t), Type::Float { .. });
        match ty.and_then(|t| self.m.types.get(&t)) {
            Some(&t) => match types.get(t) {
                Type::Vector { elem, .. } => is_float(*elem),
                _ => is_float(t),
            },
            None => false,
        }
    }

    /// All-equal on floats is an ordered-equal compare (SPIR-V): `-0` equals `+0` and a NaN
    /// equals nothing, so it is each lane's `Feq` with the first active lane's value, voted.
    fn float_all_equal(&mut self, v: Value) -> Value {
        let (bits, n) = self.f.ty(v).shape();
        let b = ValueType::data(1, 1);
        let first = self.subgroup(SubgroupOp::BroadcastFirst, vec![v], ValueType::data(bits, n));
        let eq = self.alu(AluOp::Feq, ValueType::data(1, n), vec![v, first]);
        let mut all = self.comp(eq, 0);
        for i in 1..n {
            let c = self.comp(eq, u32::from(i));
            all = self.alu(AluOp::Iand, b, vec![all, c]);
        }
        self.subgroup(SubgroupOp::All, vec![all], b)
    }

    fn lane_u32(&mut self, v: Value) -> Value {
        match self.f.ty(v).shape() {
            (32, 1) => v,
            _ => self.alu(AluOp::I2i, ValueType::data(32, 1), vec![v]),
        }
    }

    /// `(ballot.x >> (lane & 31)) & 1` as a boolean.
    fn ballot_bit(&mut self, ballot: Value, lane: Value) -> Value {
        let u = ValueType::data(32, 1);
        let x = self.comp(ballot, 0);
        let k31 = self.imm(32, 31);
        let sh = self.alu(AluOp::Iand, u, vec![lane, k31]);
        let bit = self.alu(AluOp::Ushr, u, vec![x, sh]);
        let one = self.imm(32, 1);
        let m = self.alu(AluOp::Iand, u, vec![bit, one]);
        let zero = self.imm(32, 0);
        self.alu(AluOp::Ine, ValueType::data(1, 1), vec![m, zero])
    }

    fn ballot_bit_count(&mut self, inst: &Instruction) -> Result<Value, CompileError> {
        let u = ValueType::data(32, 1);
        let v = self.leaf(inst, 2)?;
        let x = self.comp(v, 0);
        let keep = match Self::group_operation(inst)? {
            GroupOperation::Reduce => None,
            // Lanes ≤ id: ~(0xffff_fffe << id); lanes < id: ~(0xffff_ffff << id).
            GroupOperation::InclusiveScan => Some(0xffff_fffe),
            GroupOperation::ExclusiveScan => Some(0xffff_ffff),
            g => return Err(CompileError::unsupported(opname(inst), format!("{g:?}"))),
        };
        let x = match keep {
            None => x,
            Some(k) => {
                let id = self.emit(InstKind::SysVal(SysVal::SubgroupInvocationId), u);
                let k = self.imm(32, k);
                let s = self.alu(AluOp::Ishl, u, vec![k, id]);
                let m = self.alu(AluOp::Inot, u, vec![s]);
                self.alu(AluOp::Iand, u, vec![x, m])
            }
        };
        Ok(self.alu(AluOp::BitCount, u, vec![x]))
    }

    fn subgroup_arith(&mut self, inst: &Instruction, vt: ValueType) -> Result<Value, CompileError> {
        let o = inst.class.opcode;
        let Some(a) = reduction(o) else {
            return Err(CompileError::unsupported(opname(inst), "not implemented"));
        };
        let v = self.leaf(inst, 2)?;
        let s = match Self::group_operation(inst)? {
            GroupOperation::Reduce => SubgroupOp::Reduce(a),
            GroupOperation::InclusiveScan => SubgroupOp::InclusiveScan(a),
            GroupOperation::ExclusiveScan => SubgroupOp::ExclusiveScan(a),
            GroupOperation::ClusteredReduce => {
                let n = self.constant_u64(inst, 3)?;
                if !n.is_power_of_two() {
                    return Err(bad(inst, "cluster size must be a power of two"));
                }
                // "If ClusterSize is greater than the size of the group, executing this
                // instruction results in undefined behavior": such a cluster is valid SPIR-V
                // (shaders written for any subgroup size guard it with gl_SubgroupSize), so
                // it compiles, as the whole wave.
                if n >= 32 {
                    SubgroupOp::Reduce(a)
                } else {
                    SubgroupOp::ClusteredReduce(a, n as u8)
                }
            }
            g => return Err(CompileError::unsupported(opname(inst), format!("{g:?}"))),
        };
        Ok(self.subgroup(s, vec![v], vt))
    }
}
