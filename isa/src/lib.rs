//! RDNA2 (gfx1030) instruction set: tables, encoder, decoder and disassembler.
