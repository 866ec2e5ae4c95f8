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
VMEM = ("mubuf", "mtbuf", "flat", "scratch", "global", "mimg")
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
    if fam == "vintrp" or n.startswith("v_interp_"):
        f.append("READS_M0")
    if TRANS.match(n):
        f.append("TRANS")
    seen = []
    for x in f:
        if x not in seen:
            seen.append(x)
    return seen


def classify_imm16(entries, build):
    """Decimal, hex, or LLVM's 'decimal up to 64, hex above' for each 16-bit immediate."""
    probe = [e for e in entries
             if next((o[2] for o in e["operands"] if o[0] == "simm16"), None) in ("dec", "hex")]
    cands = []
    for e in probe:
        for v in (3, 0x41, 0):
            p = dict(e["probe"])
            p["simm16"] = v
            cands.append(build(e["code"], p))
    res = mc.disassemble(cands, marker="vmov")
    for k, e in enumerate(probe):
        small, big, zero = res[3 * k], res[3 * k + 1], res[3 * k + 2]
        if small is None or big is None:
            continue
        hex_small = "0x3" in small[0].split(None, 1)[1].replace(",", " ").split()
        hex_big = "0x41" in big[0]
        kind = "hex" if hex_small else ("auto" if hex_big else "dec")
        if zero is not None and len(zero[0].split()) == 1:
            kind = "dec0"  # s_endpgm: the operand is omitted when zero
        first = next(o for o in e["operands"] if o[0] == "simm16")
        if first[2] in ("dec", "hex"):
            first[2] = kind


SRC_FIELDS = ("ssrc0", "ssrc1", "src0", "src1", "src2", "vsrc1")
# probe name -> replacement text for a 1-dword and a 2-dword operand, and expected extra words
SRC_PROBES = {
    "vgpr": ("v70", "v[70:71]", 0),
    "sgpr": ("s70", "s[70:71]", 0),
    "int": ("-5", "-5", 0),
    "float": ("0.5", "0.5", 0),
    "literal": ("0x1234", "0x1234", 1),
}


def _texts(e, subst):
    """The entry's text with some operands (by index) replaced."""
    import sweep  # split_operands
    mnem, toks, mods = sweep.split_operands(e["text"])
    if len(toks) != len(e["operands"]):
        return None
    t = list(toks)
    for i, o in enumerate(e["operands"]):
        if o[0] == "literal":
            t[i] = "0x1234"  # a constant that also fits 16-bit operands
    for i, v in subst.items():
        t[i] = v
    return mnem + " " + ", ".join(t) + "".join(" " + m for m in mods)


def _reg(kind, dw, n=70):
    p = kind[0]
    return "%s%d" % (p, n) if dw == 1 else "%s[%d:%d]" % (p, n, n + dw - 1)


def probe_source_classes(entries):
    """Which kinds of operand each source accepts, asked of LLVM's *assembler* (the
    disassembler prints whatever bits it finds). Sets e["accept"]: field -> [classes]."""
    from itertools import product
    # 1. a base text the assembler accepts: every source a VGPR or an SGPR
    bases, bkeys = [], []
    for e in entries:
        e["accept"] = {}
        srcs = [i for i, o in enumerate(e["operands"])
                if o[0] in SRC_FIELDS and o[2] not in ("attr", "param")]
        for combo in product(("vgpr", "sgpr"), repeat=len(srcs)):
            subst = {i: _reg(k, e["operands"][i][1], 64 + 4 * n)
                     for n, (i, k) in enumerate(zip(srcs, combo))}
            t = _texts(e, subst)
            if t is not None:
                bases.append(t)
                bkeys.append((e, subst))
    chosen = {}
    for (e, subst), r in zip(bkeys, mc.assemble(bases)):
        if r is not None and id(e) not in chosen:
            chosen[id(e)] = (subst, len(r))
    # 2. each source on its own, on top of that base
    texts, keys = [], []
    for e in entries:
        if id(e) not in chosen:
            continue
        subst, n = chosen[id(e)]
        for i, (field, dw, kind) in enumerate(e["operands"]):
            if field not in SRC_FIELDS or kind in ("attr", "param"):
                continue
            for name, (one, two, extra) in SRC_PROBES.items():
                s2 = dict(subst)
                s2[i] = _reg(name, dw, 80) if name in ("vgpr", "sgpr") else one
                texts.append(_texts(e, s2))
                keys.append((e, field, name, n + extra))
    words = mc.assemble(texts)
    # accepted = assembles without changing length AND disassembles back to the same text
    back = mc.disassemble([w if w is not None else [0xFFFFFFFF] for w in words])
    for (e, field, name, want), t, r, b in zip(keys, texts, words, back):
        same = b is not None and " ".join(b[0].split()) == " ".join(t.split())
        if r is not None and len(r) == want and same:
            e["accept"].setdefault(field, []).append(name)


def sweep_mtbuf_formats():
    """The symbolic names LLVM prints for each 7-bit MTBUF format value (gfx10 unified)."""
    cands = [[0xE8000000 | 1 << 12 | 4 << 16 | f << 19, 20 | 10 << 8 | 2 << 16 | 0x80 << 24]
             for f in range(128)]
    out = []
    for f, r in enumerate(mc.disassemble(cands)):
        text = r[0] if r else ""
        m = re.search(r"format:(\[[A-Z0-9_,]+\]|\d+)", text)
        out.append(m.group(1) if m else None)
    return out


def _vaddr_count(text):
    """Address VGPRs printed by LLVM: `v[20:23]` -> 4, `[v20, v4, v5]` -> 3."""
    import sweep
    _, toks, _ = sweep.split_operands(text)
    if len(toks) < 2:
        return None
    t = toks[1]
    if t.startswith("["):
        return len(t.strip("[]").split(","))
    m = re.match(r"^v(?:(\d+)|\[(\d+):(\d+)\])$", t)
    if not m:
        return None
    return 1 if m.group(1) else int(m.group(3)) - int(m.group(2)) + 1


DIMS = ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"]


def sweep_mimg_addr(entries, build):
    """Per MIMG opcode: the exact address VGPR count for each dim (0..7), without and with A16
    (e["addr"], 16 numbers, 0 = no such form), asked of the assembler with NSA address lists of
    every length (the disassembler prints whatever the NSA dwords hold); and whether vdata is
    always four registers (e["vdata4"], gather4)."""
    import sweep
    texts, keys = [], []
    for e in entries:
        mnem, toks, _ = sweep.split_operands(e["text"])
        if not any(o[0] == "vaddr" for o in e["operands"]):
            continue
        e["addr"] = [0] * 16
        for a16 in (0, 1):
            for dim in range(8):
                for n in range(1, 14):
                    # atomics want dmask 0x1/0x3, gather4 a single channel with 4 registers
                    for dmask, vdata in ((0xF, "v[10:13]"), (0x1, "v10"), (0x3, "v[10:11]"),
                                         (0x1, "v[10:13]")):
                        t = list(toks)
                        t[0] = vdata
                        t[1] = "[" + ", ".join("v%d" % (40 + k) for k in range(n)) + "]"
                        texts.append("%s %s dmask:0x%x dim:SQ_RSRC_IMG_%s%s" % (
                            mnem, ", ".join(t), dmask, DIMS[dim], " a16" if a16 else ""))
                        keys.append((e, a16 * 8 + dim, n))
    for (e, slot, n), r in zip(keys, mc.assemble(texts)):
        if r is not None and e["addr"][slot] == 0:
            e["addr"][slot] = n
    cands, probe = [], []
    for e in entries:
        if "addr" in e:
            cands.append(build(e["code"], dict(e["probe"], dmask=1)))
            probe.append(e)
    for e, r in zip(probe, mc.disassemble(cands)):
        _, toks, _ = sweep.split_operands(r[0]) if r else ("", [""], [])
        e["vdata4"] = toks[0] == "v[10:13]"


def probe_smem_cache_bits(entries, build):
    """For SMEM: whether LLVM prints (and so accepts) GLC and DLC on each opcode."""
    cands, keys = [], []
    for e in entries:
        for name, bit in (("glc", 16), ("dlc", 14)):
            words = build(e["code"], e["probe"])
            words[0] |= 1 << bit
            cands.append(words)
            keys.append((e, name))
    for (e, name), r in zip(keys, mc.disassemble(cands)):
        e.setdefault("cache", [])
        if r is not None and name in r[0].split():
            e["cache"].append(name)
