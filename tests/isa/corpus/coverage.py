#!/usr/bin/env python3
"""Regenerate COVERAGE.txt for the R600 IR corpus in this directory.

For each cpu (cypress, barts, cayman) every .ll file meant for that cpu is
compiled with `llc-14 -march=r600 -mcpu=CPU -show-mc-encoding` and the
distinct instruction mnemonics are counted.  The mnemonic is the first word
of an instruction line (CF lines, ALU lines, fetch lines); for "MEM_RAT" /
"MEM_RAT_CACHELESS" the RAT instruction name is appended, "MUL NON-IEEE" is
kept whole and a trailing "*" (last-in-group marker glued to LDS_CMPST) is
dropped.  Literal-constant lines and "ALU/Fetch clause starting at" markers
are skipped.  A second section lists encoding-level forms that share a
mnemonic (EXPORT kinds, RAT write masks / end-of-program bit, kcache lock
modes and banks, LDS opcode field -- LDS_CMPST is printed for the returning
LDS_CMPST_RET opcode 0x30).

Files named *_cayman_only.ll are compiled only for cayman, *_evergreen_only.ll
only for cypress and barts.

Usage: python3 coverage.py [--llc llc-14] [--out COVERAGE.txt]
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

CPUS = ["cypress", "barts", "cayman"]
EXPORT_INST = {83: "EXPORT", 84: "EXPORT_DONE", 0x40: "MEM_STREAM0",
               0x41: "MEM_STREAM1", 0x42: "MEM_STREAM2", 0x43: "MEM_STREAM3"}
EXPORT_TYPE = {0: "PIXEL", 1: "POS", 2: "PARAM", 3: "TYPE3"}


def files_for(cpu, here):
    out = []
    for f in sorted(glob.glob(os.path.join(here, "*.ll"))):
        b = os.path.basename(f)
        if b.endswith("_cayman_only.ll") and cpu != "cayman":
            continue
        if b.endswith("_evergreen_only.ll") and cpu == "cayman":
            continue
        out.append(f)
    return out


def parse(text, mn, forms):
    for line in text.splitlines():
        if "; encoding:" not in line:
            continue
        asm, enc = line.split("; encoding:", 1)
        s = asm.strip()
        if not s or s.startswith("ALU clause starting") or \
                s.startswith("Fetch clause starting"):
            continue
        if re.match(r"^(-?[0-9]|@)", s):      # literal pair line
            continue
        w = s.split()
        m = w[0].rstrip("*")
        if m in ("MEM_RAT", "MEM_RAT_CACHELESS") and len(w) > 1:
            m = m + " " + w[1]
        if m == "MUL" and len(w) > 1 and w[1] == "NON-IEEE":
            m = "MUL NON-IEEE"
        mn[m] += 1
        b = [int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{2})", enc)]
        if len(b) >= 8:
            w0 = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
            w1 = b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24
            if m == "EXPORT":
                inst = (w1 >> 22) & 0xff
                name = EXPORT_INST.get(inst, "cf_inst=%d" % inst)
                if inst in (83, 84):
                    name += " type=" + EXPORT_TYPE[(w0 >> 13) & 3]
                forms["EXPORT: " + name] += 1
            elif m.startswith("MEM_RAT"):
                mask = (w1 >> 12) & 0xf
                eop = (w1 >> 21) & 1
                forms["%s comp_mask=0x%x eop=%d" % (m, mask, eop)] += 1
            elif m.startswith("LDS_"):
                forms["%s lds_op=0x%02x" % (m, (w1 >> 21) & 0x3f)] += 1
            elif m in ("ALU", "ALU_PUSH_BEFORE", "ALU_POP_AFTER"):
                kc0 = (w0 >> 22) & 0xf
                kc1 = (w0 >> 26) & 0xf
                mode0 = (w0 >> 30) & 3
                mode1 = w1 & 3
                forms["%s kcache0_mode=%d kcache1_mode=%d" % (m, mode0, mode1)] += 1
                if mode0:
                    forms["kcache bank used: CB%d" % kc0] += 1
                if mode1:
                    forms["kcache bank used: CB%d" % kc1] += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llc", default="llc-14")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "COVERAGE.txt"))
    args = ap.parse_args()
    report = []
    report.append("R600 corpus coverage: distinct mnemonics printed by "
                  "`%s -march=r600 -mcpu=CPU -show-mc-encoding`" % args.llc)
    report.append("(regenerate with: python3 tests/isa/corpus/coverage.py)")
    report.append("")
    summary = []
    for cpu in CPUS:
        mn = collections.Counter()
        forms = collections.Counter()
        fl = files_for(cpu, here)
        for f in fl:
            r = subprocess.run([args.llc, "-march=r600", "-mcpu=" + cpu,
                                "-show-mc-encoding", f, "-o", "-"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.stderr.write("llc failed for %s on %s:\n%s\n" %
                                 (os.path.basename(f), cpu, r.stderr[:2000]))
                sys.exit(1)
            parse(r.stdout, mn, forms)
        summary.append("%-8s %d distinct mnemonics (%d files)" %
                       (cpu, len(mn), len(fl)))
        report.append("=" * 72)
        report.append("cpu %s: %d distinct mnemonics over %d files" %
                      (cpu, len(mn), len(fl)))
        report.append("=" * 72)
        for k in sorted(mn):
            report.append("  %-36s %6d" % (k, mn[k]))
        report.append("")
        report.append("  encoding-level forms (%s):" % cpu)
        for k in sorted(forms):
            report.append("    %-52s %6d" % (k, forms[k]))
        report.append("")
    report[3:3] = summary + [""]
    with open(args.out, "w") as fh:
        fh.write("\n".join(report) + "\n")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
