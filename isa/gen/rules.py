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
            # integer sources show the NEG bit as sign extension
            if name.startswith("neg") and "sext(" in r[0]:
                name = "sext" + name[3:]
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


# DPP16 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf; DPP8 identity; SDWA all DWORD
DPP16 = 0xFF000000 | 0xE4 << 8
DPP8_ID = sum(k << (8 + 3 * k) for k in range(8))
SDWA_ID = 6 << 8 | 6 << 16 | 6 << 24  # dst_sel, src0_sel, src1_sel = DWORD
# name -> (bit set in the SDWA dword) for the modifiers probed one at a time
SDWA_MODS = {"neg0": 20, "abs0": 21, "sext0": 19, "neg1": 28, "abs1": 29, "sext1": 27,
             "clamp": 13, "omod": 14}


def probe_vop_ext(fam, entries):
    """For VOP1/VOP2/VOPC forms: which of DPP16, DPP8 and SDWA LLVM decodes (e["ext"]), and
    which SDWA source/output modifiers it prints (e["ext_mods"])."""
    def word0(e, code):
        # vdst v10, vsrc1 v30 as in the base sweep; src0 replaced by the extension marker
        w = e["words0"]
        return (w & ~0x1FF) | code
    # selects the family does not have must stay zero (VOP1: no src1; VOPC: sdst, not dst_sel)
    sdwa = {"vop1": 6 << 8 | 6 << 16, "vop2": SDWA_ID, "vopc": 6 << 16 | 6 << 24}[fam]
    cands, keys = [], []
    for e in entries:
        e["ext"], e["ext_mods"] = [], []
        e["words0"] = e["w0"]
        for name, code, ext in (("dpp16", 0xFA, DPP16 | 20), ("dpp8", 0xE9, DPP8_ID | 20),
                                ("sdwa", 0xF9, sdwa | 20)):
            cands.append([word0(e, code), ext])
            keys.append((e, name))
        for m, bit in SDWA_MODS.items():
            cands.append([word0(e, 0xF9), sdwa | 20 | 1 << bit])
            keys.append((e, "mod:" + m))
    res = mc.disassemble(cands)
    # keep only what the assembler turns back into the same words
    again = mc.assemble([r[0] if r else "s_bogus" for r in res])
    res = [r if r is not None and a == c else None for r, a, c in zip(res, again, cands)]
    base_text = {}
    for (e, name), r in zip(keys, res):
        if name == "sdwa" and r is not None:
            base_text[id(e)] = r[0]
    for (e, name), r in zip(keys, res):
        if r is None:
            continue
        if not name.startswith("mod:"):
            suffix = "_sdwa" if name == "sdwa" else "_dpp"
            if r[0].split()[0].endswith(suffix) and ("dpp8:" in r[0]) == (name == "dpp8"):
                e["ext"].append(name)
        elif id(e) in base_text and r[0] != base_text[id(e)] and "sdwa" in r[0].split()[0]:
            e["ext_mods"].append(name[4:])


def sweep_bvh():
    """image_bvh*_intersect_ray: MIMG opcodes without dmask/dim syntax (LLVM fixes dmask 0xf,
    unorm and r128 in the encoding). Address counts without and with A16, from the assembler."""
    out = []
    for code, mnem in ((0xE6, "image_bvh_intersect_ray"), (0xE7, "image_bvh64_intersect_ray")):
        e = {"code": code, "mnemonic": mnem, "text": mnem, "bvh": True, "vdata4": True,
             "operands": [["vdata", 4, "v"], ["vaddr", 1, "v"], ["srsrc", 4, "s"]]}
        counts = []
        for a16 in (False, True):
            texts = ["%s v[4:7], [%s], s[4:7]%s" % (mnem, ", ".join("v%d" % (40 + k)
                     for k in range(n)), " a16" if a16 else "") for n in range(1, 14)]
            ok = [n + 1 for n, r in enumerate(mc.assemble(texts)) if r is not None]
            # LLVM 14 also lets 8 addresses through without A16; the hardware reads 11/12 then
            counts.append(max(ok) if ok else 0)
        e["addr"] = [counts[0]] * 8 + [counts[1]] * 8
        out.append(e)
    return out


def probe_half_literals(fam, entries, build):
    """Sources that are 16 bits wide: LLVM prints only the low half of a literal there
    (e["half"] lists those source fields)."""
    cands, keys = [], []
    for e in entries:
        e["half"] = []
        if any(o[0] == "literal" for o in e["operands"]):
            continue  # v_fmamk/v_fmaak: the literal slot is taken
        for field, dw, kind in e["operands"]:
            if field not in ("src0", "src1", "src2") or kind in ("attr", "param") or dw != 1:
                continue
            words = build(e["code"], dict(e["probe"], **{field: 255}))
            n = {"vop1": 1, "vopc": 1, "vop2": 1, "vop3": 2, "vop3p": 2}[fam]
            cands.append(words[:n] + [0x12345])
            keys.append((e, field))
    for (e, field), r in zip(keys, mc.disassemble(cands)):
        if r is not None and "0x2345" in r[0].split(None, 1)[1].replace(",", " ").split():
            e["half"].append(field)


def probe_vgpr_fields(fam, entries, build):
    """VOP1/VOP2/VOPC sources whose 9-bit field LLVM reads as a bare VGPR number (the low 8
    bits), whatever bit 8 says: e["vgpr_field"] lists them."""
    cands, keys = [], []
    for e in entries:
        e["vgpr_field"] = []
        if any(o[0] == "src0" for o in e["operands"]):
            cands.append(build(e["code"], dict(e["probe"], src0=0x97))[:1])
            keys.append(e)
    for e, r in zip(keys, mc.disassemble(cands)):
        if r is not None and "v151" in r[0].replace(",", " ").split():
            e["vgpr_field"].append("src0")
