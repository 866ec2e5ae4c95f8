//! The depth/stencil block's per-sample arithmetic: DB_DEPTH_CONTROL, DB_STENCIL_CONTROL,
//! DB_STENCILREFMASK(_BF), DB_DEPTH_BOUNDS_MIN/MAX, with the order of tests the Vulkan spec
//! gives (depth bounds, stencil, depth) and the stencil update that follows them.

/// The CompareFrag enum: NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS.
pub fn compare<T: PartialOrd>(func: u32, incoming: T, stored: T) -> bool {
    match func & 7 {
        0 => false,
        1 => incoming < stored,
        2 => incoming == stored,
        3 => incoming <= stored,
        4 => incoming > stored,
        5 => incoming != stored,
        6 => incoming >= stored,
        _ => true,
    }
}

/// One face's stencil state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StencilFace {
    pub func: u32,
    pub fail: u32,
    pub zpass: u32,
    pub zfail: u32,
    /// STENCILTESTVAL: the reference.
    pub test_val: u8,
    pub mask: u8,
    pub write_mask: u8,
    /// STENCILOPVAL: the operand of REPLACE_OP, ADD/SUB and the logic ops.
    pub op_val: u8,
}

impl StencilFace {
    /// Applies a StencilOp to the stored value, honouring the write mask.
    pub fn apply(&self, op: u32, s: u8) -> u8 {
        let v = self.op_val;
        let new = match op & 0xf {
            0 => s,
            1 => 0,
            2 => 0xff,
            3 => self.test_val,
            4 => v,
            5 => s.saturating_add(v),
            6 => s.saturating_sub(v),
            7 => !s,
            8 => s.wrapping_add(v),
            9 => s.wrapping_sub(v),
            10 => s & v,
            11 => s | v,
            12 => s ^ v,
            13 => !(s & v),
            14 => !(s | v),
            _ => !(s ^ v),
        };
        (s & !self.write_mask) | (new & self.write_mask)
    }

    pub fn test(&self, stored: u8) -> bool {
        compare(self.func, self.test_val & self.mask, stored & self.mask)
    }
}

/// The depth/stencil state of a draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthState {
    pub z_enable: bool,
    pub z_write: bool,
    pub zfunc: u32,
    /// DB_DEPTH_BOUNDS_MIN/MAX when DEPTH_BOUNDS_ENABLE.
    pub bounds: Option<(f32, f32)>,
    pub stencil_enable: bool,
    pub front: StencilFace,
    pub back: StencilFace,
}

impl DepthState {
    /// Decodes DB_DEPTH_CONTROL, DB_STENCIL_CONTROL and DB_STENCILREFMASK(_BF).
    pub fn from_regs(
        depth_control: u32,
        stencil_control: u32,
        refmask: u32,
        refmask_bf: u32,
        bounds: (f32, f32),
    ) -> DepthState {
        let bit = |n: u32| depth_control >> n & 1 != 0;
        let face = |func: u32, ops: u32, rm: u32| StencilFace {
            func,
            fail: ops & 0xf,
            zpass: (ops >> 4) & 0xf,
            zfail: (ops >> 8) & 0xf,
            test_val: rm as u8,
            mask: (rm >> 8) as u8,
            write_mask: (rm >> 16) as u8,
            op_val: (rm >> 24) as u8,
        };
        let front = face((depth_control >> 8) & 7, stencil_control, refmask);
        // Without BACKFACE_ENABLE back faces use the front state.
        let back = if bit(7) {
            face((depth_control >> 20) & 7, stencil_control >> 12, refmask_bf)
        } else {
            front
        };
        DepthState {
            z_enable: bit(1),
            z_write: bit(2),
            zfunc: (depth_control >> 4) & 7,
            bounds: bit(3).then_some(bounds),
            stencil_enable: bit(0),
            front,
            back,
        }
    }

    /// Whether anything is read or written at all.
    pub fn active(&self) -> bool {
        self.z_enable || self.stencil_enable || self.bounds.is_some()
    }
}

/// The stored values of one sample, in the surface's representation: depth already converted
/// to the comparison domain (f32 for D32F; the unorm integer as f32 for D16, which is exact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stored {
    pub z: f32,
    pub stencil: u8,
}

/// Result of testing one sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub pass: bool,
    /// New stored values (equal to the old ones when nothing is written).
    pub new: Stored,
}

impl DepthState {
    /// Tests one sample whose incoming depth `z` is already in the stored representation.
    pub fn test(&self, z: f32, old: Stored, front: bool) -> Outcome {
        if let Some((lo, hi)) = self.bounds {
            // Bounds compare the stored depth (as a float in [0, 1] for the caller's format).
            if !(old.z >= lo && old.z <= hi) {
                return Outcome { pass: false, new: old };
            }
        }
        let face = if front { &self.front } else { &self.back };
        let mut new = old;
        if self.stencil_enable && !face.test(old.stencil) {
            new.stencil = face.apply(face.fail, old.stencil);
            return Outcome { pass: false, new };
        }
        let zpass = !self.z_enable || compare(self.zfunc, z, old.z);
        if self.stencil_enable {
            let op = if zpass { face.zpass } else { face.zfail };
            new.stencil = face.apply(op, old.stencil);
        }
        if zpass && self.z_enable && self.z_write {
            new.z = z;
        }
        Outcome { pass: zpass, new }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stencil_ops_wrap_clamp_and_mask() {
        let f = StencilFace { write_mask: 0xff, op_val: 1, test_val: 7, ..Default::default() };
        assert_eq!(f.apply(5, 255), 255);
        assert_eq!(f.apply(8, 255), 0);
        assert_eq!(f.apply(6, 0), 0);
        assert_eq!(f.apply(9, 0), 255);
        assert_eq!(f.apply(3, 0), 7);
        assert_eq!(f.apply(7, 0x0f), 0xf0);
        let m = StencilFace { write_mask: 0x0f, ..f };
        assert_eq!(m.apply(2, 0x00), 0x0f);
    }
}
