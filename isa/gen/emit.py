#!/usr/bin/env python3
"""Turn gen/sweep.json (written by sweep.py) into the checked-in Rust tables in src/tables/."""
import json
import os
import re

import rules

ROOT = os.path.join(os.path.dirname(__file__), "..")
FIELD = {
    "sdst": "Sdst", "ssrc0": "Ssrc0", "ssrc1": "Ssrc1", "simm16": "Simm16", "sdata": "Sdata",
    "sbase": "Sbase", "offset": "Offset", "vdst": "Vdst", "src0": "Src0", "src1": "Src1",
    "src2": "Src2", "vsrc1": "Vsrc1", "vcc_lo": "VccLo", "off": "Off", "literal": "Literal",
    "addr": "Addr", "data0": "Data0", "data1": "Data1", "data": "Data", "vdata": "Vdata",
    "vaddr": "Vaddr", "srsrc": "Srsrc", "soffset": "Soffset", "vsrc": "Vsrc", "attr": "Attr",
    "ssamp": "Ssamp",
}
KIND = {"s": "Kind::Sgpr", "v": "Kind::Vgpr", "special": "Kind::Fixed", "dec": "Kind::Dec",
        "hex": "Kind::Hex", "hwreg": "Kind::Hwreg", "sendmsg": "Kind::Sendmsg",
        "waitcnt": "Kind::Waitcnt", "auto": "Kind::Auto",
        "dec0": "Kind::DecOrNone",
        "attr": "Kind::Attr", "param": "Kind::Param"}
ACCEPT = {"vgpr": "accept::VGPR", "sgpr": "accept::SGPR", "int": "accept::INT",
          "float": "accept::FLOAT", "literal": "accept::LITERAL"}
ENC = {"sop2": "Sop2", "sopk": "Sopk", "sop1": "Sop1", "sopc": "Sopc", "sopp": "Sopp",
       "smem": "Smem", "vop2": "Vop2", "vop1": "Vop1", "vopc": "Vopc", "vop3": "Vop3",
       "vop3p": "Vop3p", "ds": "Ds", "mubuf": "Mubuf", "mtbuf": "Mtbuf", "flat": "Flat",
       "scratch": "Scratch", "global": "Global", "vintrp": "Vintrp", "exp": "Exp",
       "mimg": "Mimg"}
MODBIT = {"abs0": "ABS0", "abs1": "ABS1", "abs2": "ABS2", "neg0": "NEG0", "neg1": "NEG1",
          "neg2": "NEG2", "clamp": "CLAMP", "omod": "OMOD", "opsel0": "OPSEL0",
          "opsel1": "OPSEL1", "opsel2": "OPSEL2", "opsel3": "OPSEL3",
          "sext0": "SEXT0", "sext1": "SEXT1", "sext2": "SEXT2"}


# Decoded by LLVM 14's disassembler but not a gfx10 opcode: its assembler turns the mnemonic
# into MUBUF opcode 0x71 (buffer_gl0_inv), so the text could never round-trip.
NOT_GFX10 = {("mubuf", 0xF1)}


def base_name(mnem):
    return re.sub(r"_e(32|64)$", "", mnem)


def operands(e):
    out, seen = [], set()
    for field, dw, kind in e["operands"]:
        if field in seen and field != "vcc_lo":
            if kind != "hex":
                return None  # two printed operands from one field: not modelled
            field = "literal"
        seen.add(field)
        acc = [ACCEPT[a] for a in e.get("accept", {}).get(field, [])]
        acc += ["accept::HALF"] if field in e.get("half", []) else []
        acc += ["accept::VGPR_FIELD"] if field in e.get("vgpr_field", []) else []
        acc = " | ".join(acc) or "0"
        out.append("Od::new(Field::%s, %d, %s, %s)" % (FIELD[field], dw, KIND[kind], acc))
    return out


def main():
    data = json.load(open(os.path.join(ROOT, "gen", "sweep.json")))
    # EXP has no opcode field: one form, its operands printed by hand (AMD RDNA2 ISA, ch. 12)
    data["exp"] = [{"code": 0, "mnemonic": "exp", "operands": [], "text": "exp"}]
    names = []
    index = {}
    per_fam = {}
    skipped = []
    for fam in ENC:
        rows = []
        for e in data[fam]:
            if (fam, e["code"]) in NOT_GFX10:
                continue
            ods = operands(e)
            if ods is None:
                skipped.append(e["text"])
                continue
            name = base_name(e["mnemonic"])
            mnemonic = e["mnemonic"]
            if fam == "vop3" and not e["operands"] and not mnemonic.endswith("_e64"):
                # LLVM prints `v_nop` for both encodings; `v_nop_e64` is what re-assembles to VOP3
                mnemonic += "_e64"
            if name not in index:
                index[name] = len(names)
                names.append((name, fam))
            mods = ""
            if fam == "vop3":
                m = data["vop3_mods"][str(e["code"])]
                mods = " | ".join("mods::" + MODBIT[x] for x in m)
            if fam in ("vop1", "vop2", "vopc"):
                ext = [x.upper() for x in e.get("ext", [])]
                ext += [MODBIT[x] if x in MODBIT else x.upper() for x in e.get("ext_mods", [])]
                mods = " | ".join("mods::" + x for x in ext)
            if fam in ("mubuf", "flat", "global", "scratch") and e["probe"].get("glc"):
                mods = "mods::RTN_ONLY"  # an atomic that only exists in its returning form
            if fam == "smem":
                mods = " | ".join("mods::" + x.upper() for x in e.get("cache", []))
            flags = rules.form_flags(fam, e)
            rows.append("    Form { op: Opcode::%s, code: 0x%x, mnemonic: %s, operands: &[%s], "
                        "mods: %s, flags: %s },"
                        % (name.upper(), e["code"], json.dumps(mnemonic), ", ".join(ods),
                           mods or "0", " | ".join("flags::" + f for f in flags) or "0"))
        per_fam[fam] = rows
    tdir = os.path.join(ROOT, "src", "tables")
    os.makedirs(tdir, exist_ok=True)
    hdr = "// @generated by isa/gen/emit.py from an llvm-mc sweep (gen/sweep.py); do not edit.\n"
    for fam, rows in per_fam.items():
        with open(os.path.join(tdir, fam + ".rs"), "w") as fh:
            fh.write("//! %s opcode table: every opcode LLVM 14 decodes for gfx1030.\n" % ENC[fam])
            fh.write(hdr)
            fh.write("#[allow(unused_imports)]\nuse super::{accept, flags, mods, Field, Form, Kind, Od};\n"
                     "use crate::opcode::Opcode;\n\n")
            fh.write("/// Forms sorted by hardware opcode.\n")
            fh.write("pub(crate) static FORMS: &[Form] = &[\n%s\n];\n" % "\n".join(rows))
    with open(os.path.join(ROOT, "src", "opcode_list.rs"), "w") as fh:
        fh.write("//! The list of every opcode, one per instruction name.\n")
        fh.write(hdr)
        fh.write("use super::Opcode;\n\n#[allow(missing_docs)]\nimpl Opcode {\n")
        for i, (n, fam) in enumerate(names):
            fh.write("    pub const %s: Opcode = Opcode(%d);\n" % (n.upper(), i))
        fh.write("}\n\n/// Names indexed by `Opcode.0`.\npub(crate) static NAMES: &[&str] = &[\n")
        for n, fam in names:
            fh.write("    %s,\n" % json.dumps(n))
        fh.write("];\n")
    with open(os.path.join(tdir, "mtbuf_format.rs"), "w") as fh:
        fh.write("//! MTBUF `format:` names LLVM prints, by 7-bit format value (gfx10 unified).\n")
        fh.write(hdr)
        fh.write("\n/// `None` where LLVM prints the number.\n")
        fh.write("pub(crate) static NAMES: [Option<&str>; 128] = [\n")
        for n in data["mtbuf_formats"]:
            fh.write("    %s,\n" % ("Some(%s)" % json.dumps(n) if n and n.startswith("[") else "None"))
        fh.write("];\n")
    with open(os.path.join(tdir, "mimg_addr.rs"), "w") as fh:
        fh.write("//! MIMG address counts: VGPRs per (dim, A16) for every image opcode, from the\n")
        fh.write("//! assembler's NSA check, and which opcodes always return four registers.\n")
        fh.write(hdr)
        fh.write("use super::MimgInfo;\n\n/// Sorted by hardware opcode.\n")
        fh.write("pub(crate) static INFO: &[MimgInfo] = &[\n")
        for e in data["mimg"]:
            if "addr" in e:
                fh.write("    MimgInfo { code: 0x%x, addr: %s, gather4: %s, bvh: %s },\n"
                         % (e["code"], e["addr"], "true" if e["vdata4"] else "false",
                            "true" if e.get("bvh") else "false"))
        fh.write("];\n")
    print("opcodes", len(names), "skipped", skipped)


if __name__ == "__main__":
    main()
