//! Scalar memory: `s_load_*`, `s_buffer_load_*` (V#-bounded), `s_memtime`, cache controls.

use ferrum_isa::tables::Field;
use ferrum_isa::{Opcode as O, Smem};

use super::mem_op::{write_loaded, SmemOp};
use super::wave::{fault, Counter, Wave, R};
use super::Mem;

pub fn exec(w: &mut Wave, i: &Smem, form: &ferrum_isa::tables::Form, mem: &Mem<'_>) -> R<()> {
    let name = i.op.name();
    match i.op {
        O::S_DCACHE_INV | O::S_GL1_INV => return Ok(()),
        O::S_MEMTIME | O::S_MEMREALTIME => {
            let d = Wave::sindex(i.sdata)?;
            w.swrite64(d, (mem.timestamp)())?;
            w.add_pending(Counter::Smem, false, d as u32, 2);
            return Ok(());
        }
        _ => {}
    }
    let count = form.dwords(Field::Sdata) as usize;
    match i.op {
        O::S_LOAD_DWORD
        | O::S_LOAD_DWORDX2
        | O::S_LOAD_DWORDX4
        | O::S_LOAD_DWORDX8
        | O::S_LOAD_DWORDX16 => return SmemOp::from((i, count as u32)).run(w, mem),
        O::S_BUFFER_LOAD_DWORD
        | O::S_BUFFER_LOAD_DWORDX2
        | O::S_BUFFER_LOAD_DWORDX4
        | O::S_BUFFER_LOAD_DWORDX8
        | O::S_BUFFER_LOAD_DWORDX16 => {}
        _ => return fault(format!("unimplemented SMEM {name}")),
    }
    let soffset = if i.soffset == ferrum_isa::Operand::Special(ferrum_isa::Special::Null) {
        0
    } else {
        w.ssrc(i.soffset)?
    };
    let offset = (i.offset as i64).wrapping_add(soffset as i64) as u64;
    // At most 16 dwords (s_buffer_load_dwordx16), in arrays: a scalar load per wave is common.
    if count > 16 {
        return fault(format!("{name} of {count} dwords"));
    }
    let mut buf = [0u32; 16];
    let values = &mut buf[..count];
    let v = w.sread_n::<4>(i.sbase as usize)?;
    let base = v[0] as u64 | ((v[1] & 0xffff) as u64) << 32;
    let stride = (v[1] >> 16) & 0x3fff;
    let limit = if stride == 0 { v[2] as u64 } else { v[2] as u64 * stride as u64 };
    let start = offset & !3;
    for (j, val) in values.iter_mut().enumerate() {
        let off = start + 4 * j as u64;
        // Dwords beyond NUM_RECORDS read as zero.
        if off + 4 <= limit {
            *val = mem.space.read_u32(base.wrapping_add(off))?;
        }
    }
    write_loaded(w, i.sdata, values)
}
