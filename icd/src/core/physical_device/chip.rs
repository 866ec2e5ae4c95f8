//! Chip profiles: the facts that identify a GPU model, kept in one table.

/// A GPU model Ferrum supports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chip {
    /// Marketing-neutral family name, as the amdgpu kernel driver calls it.
    pub family: &'static str,
    /// LLVM processor name of the shader ISA.
    pub gfx: &'static str,
    /// PCI device id (vendor is always AMD, 0x1002).
    pub pci_device_id: u32,
}

/// PCI vendor id of AMD/ATI.
pub const AMD_VENDOR_ID: u32 = 0x1002;

/// navi21 (Radeon RX 6800/6900 series), the first chip profile.
pub const NAVI21: Chip = Chip { family: "NAVI21", gfx: "gfx1030", pci_device_id: 0x73BF };

/// All chips Ferrum knows, looked up by PCI device id when a real GPU is found.
pub const CHIPS: &[Chip] = &[NAVI21];

/// The chip profile for a PCI device id.
pub fn chip_by_pci_id(id: u32) -> Option<&'static Chip> {
    CHIPS.iter().find(|c| c.pci_device_id == id)
}
