"""Modifier probing and implicit-register rules for the table generator."""
import re

import mc

# name -> (word index, bit) of each VOP3 modifier bit that is probed on its own.
VOP3_MOD_BITS = {
    "abs0": (0, 8), "abs1": (0, 9), "abs2": (0, 10),
    "opsel0": (0, 11), "opsel1": (0, 12), "opsel2": (0, 13), "opsel3": (0, 14),
    "clamp": (0, 15), "omod": (1, 27),
    "neg0": (1, 29), "neg1": (1, 30), "neg2": (1, 31),
}


def probe_vop3_modifiers(entries, build):
    """For every VOP3 opcode, the modifier bits LLVM accepts (a list of names)."""
    cands, keys = [], []
    for e in entries:
        for name, (w, bit) in VOP3_MOD_BITS.items():
            if "sdst" in e["probe"] and name[:3] in ("abs", "ops"):
                continue
            words = build(e["code"], e["probe"])
            words[w] |= 1 << bit
            cands.append(words)
            keys.append((e["code"], name, e["text"]))
    res = mc.disassemble(cands)
    out = {}
    for (code, name, text), r in zip(keys, res):
        out.setdefault(code, [])
        # accepted and visible in the text: a bit LLVM decodes but does not print would not
        # survive a round trip through the assembler
        if r is not None and r[0].split()[0] == text.split()[0] and r[0] != text:
            out[code].append(name)
    return out

VALU = ("vop1", "vop2", "vopc", "vop3", "vop3p")
VMEM = ("mubuf", "mtbuf", "flat", "scratch", "global")
SCC_WRITERS = re.compile(
    r"^s_(add|sub|addc|subb|min|max|and|or|xor|andn2|orn2|nand|nor|xnor|andn1|orn1|lshl|lshr"
    r"|ashr|bfe|absdiff|lshl\d_add|not|wqm|bcnt[01]|quadmask|abs|cmp|bitcmp[01]|cmpk|addk)"
    r"(_|$)")
TRANS = re.compile(r"^v_(rcp|rsq|sqrt|log|exp|sin|cos)_")


def form_flags(fam, e):
    """Implicit register reads and writes of one form, from AMD's RDNA2 ISA guide."""
    n = e["mnemonic"]
    f = []
    if fam in VALU or fam in VMEM or fam == "ds":
        f.append("READS_EXEC")
    if n.startswith("v_cmpx_"):
        f.append("WRITES_EXEC")
    if "saveexec" in n or "wrexec" in n:
        f += ["READS_EXEC", "WRITES_EXEC"] if "READS_EXEC" not in f else ["WRITES_EXEC"]
    if n in ("s_cbranch_execz", "s_cbranch_execnz"):
        f.append("READS_EXEC")
    ops = [o[0] for o in e["operands"]]
    if fam in ("vop2", "vopc") and "vcc_lo" in ops:
        if fam == "vopc" or n.startswith(("v_add_co_ci", "v_sub_co_ci", "v_subrev_co_ci")):
            f.append("WRITES_VCC")
        if fam == "vop2":
            f.append("READS_VCC")
    if n.startswith("v_div_fmas") or n in ("s_cbranch_vccz", "s_cbranch_vccnz"):
        f.append("READS_VCC")
    if fam.startswith("so") and SCC_WRITERS.match(n) and "saveexec" not in n[:0]:
        f.append("WRITES_SCC")
    if re.match(r"^s_(cselect|cmov|cmovk|addc|subb|cbranch_scc)", n):
        f.append("READS_SCC")
    if "saveexec" in n or "wrexec" in n:
        f.append("WRITES_SCC") if "WRITES_SCC" not in f else None
    if re.match(r"^(s_movrel|v_movrel|v_swaprel|s_sendmsg|ds_gws|ds_ordered|ds_.*addtid"
                r"|s_ttracedata$)", n):
        f.append("READS_M0")
    if TRANS.match(n):
        f.append("TRANS")
    seen = []
    for x in f:
        if x not in seen:
            seen.append(x)
    return seen
