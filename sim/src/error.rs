//! What can go wrong while the GPU executes a submission. Every variant ends the job and marks
//! its context guilty; none of them may take down the host process.

use crate::kernel::VmFault;

#[derive(Debug, Clone, thiserror::Error)]
pub enum GpuError {
    #[error(transparent)]
    VmFault(#[from] VmFault),
    #[error("malformed PM4 stream at {addr:#x}: {what}")]
    MalformedPm4 { addr: u64, what: String },
    #[error("unsupported PM4 packet {opcode:#04x} (header {header:#010x}) at {addr:#x}")]
    UnsupportedPacket { addr: u64, header: u32, opcode: u32 },
    #[error("unsupported programming: {0}")]
    Unsupported(String),
    /// Strict mode: register state the hardware would misbehave on (a register that does not
    /// exist, a field value out of range, state a draw needs that was never written).
    #[error("invalid register state: {0}")]
    BadState(String),
    #[error("hang: {0}")]
    Hang(String),
    #[error("shader fault at pc {pc:#x}: {what}")]
    Shader { pc: u64, what: String },
}
