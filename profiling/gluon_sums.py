"""Region *sums* in a Gluon kernel twill generated: each region's cycles added up in a register over the whole run
and stored once per partition when the program ends, in place of Proton's two records an instance.

A Proton record is a clock read, an index into the buffer, a predicate and a store: one region's two records add
about 25 instructions to the FA forward's 457-instruction consumer loop, and ptxas allocates the register-tight
partition differently around them (run 34b: 5.6 % where they almost never run). A sum costs the loop two clock reads
(``mov.u32 %clock``, as Proton reads it) and one add, the running sum and the region's start in uniform registers (the
clock is a scalar: ptxas reads it with ``S2UR``): no memory traffic in any loop, 7 instructions a region in that loop. What it gives up is the trace: a sum is a region's mean cycles per iteration
(``sum / trips``) per partition and program, not each instance's start and end; the critical path read from a trace
hop by hop needs Proton's records.

The sums go to a buffer the launcher adds as the kernel's first argument (``twill_prof``, int32): per program, per
partition, ``layout.slots`` words: the main loop's trips, its cycles whole, then each region's cycles in the order asked
(``layout``). The clocks are the SM's 32-bit ``%clock``: a difference is right modulo 2^32, and a program's sum of one
region stays under 2^31 cycles (about 1.2 s at 1.7 GHz) for any kernel run these profiles time.

Imports no solver and needs no GPU to write the source (``sums_source``); compiling it offline reads its SASS.
"""
from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from profiling.gluon import KernelScopes, Scope
from twill.errors import InputError

ARG = "twill_prof"
CLOCK = 'gl.inline_asm_elementwise("mov.u32 $0, %clock;", "=r", [], dtype=gl.int32, is_pure=False, pack=1)'
# the same 32 bits read from %clock64: ptxas reads it with CS2R (fixed latency, into a register, then R2UR) where it
# reads %clock with S2UR into a uniform register (run 207: a sum closing right after a wgmma's issue, S2UR,
# stretched the FA forward's consumer loop 2492 -> 3206 cycles; which costs less is run 208's question)
CLOCK64 = ('gl.inline_asm_elementwise("{ .reg .u64 t; mov.u64 t, %clock64; cvt.u32.u64 $0, t; }", "=r", [], '
           'dtype=gl.int32, is_pure=False, pack=1)')
CLOCKS = {"clock": CLOCK, "clock64": CLOCK64}
# the program's linear index over the launch grid
PROGRAM = "(gl.program_id(0) + gl.num_programs(0) * (gl.program_id(1) + gl.num_programs(1) * gl.program_id(2)))"
HEAD = 2                 # words before the regions' sums in a partition's slots: trips, the loop's cycles whole


@dataclass(frozen=True)
class SumsLayout:
    """Where each figure lies in the buffer: ``slots`` int32 words per (program, partition), ``regions[p]`` the
    names of partition p's summed regions in slot order (after the ``HEAD`` words)."""

    partitions: int
    slots: int
    regions: dict[int, tuple[str, ...]]

    def words(self, programs: int) -> int:
        return programs * self.partitions * self.slots


def runs_of(names: tuple[str, ...], per_run: int) -> list[tuple[str, ...]]:
    """The regions dealt into runs of at most ``per_run`` (0: all in one run), in program order, one to each run in
    turn, so that neighbours fall in different runs.

    >>> runs_of(("a", "b", "c", "d", "e"), 2)
    [('a', 'd'), ('b', 'e'), ('c',)]
    """
    if per_run <= 0 or per_run >= len(names):
        return [tuple(names)]
    k = -(-len(names) // per_run)
    return [tuple(names[j::k]) for j in range(k)]


def read_sums(words: Sequence[int], layout: SumsLayout) -> dict[int, dict[str, float]]:
    """Per partition, from the buffer's words: ``trips`` (every program's), ``programs`` (those that ran a trip),
    ``loop`` (the main loop's cycles per iteration) and each region's cycles per iteration, all programs together; a
    partition no program ran a trip of has ``trips`` 0 alone. A word is read unsigned (a 32-bit sum past 2^31).

    >>> read_sums([2, 100, 30, 0, 0, 0, 4, 300, 50, 0, 0, 0], SumsLayout(2, 3, {0: ("p0:a",), 1: ()}))
    {0: {'trips': 6, 'programs': 2, 'loop': 66.66666666666667, 'p0:a': 13.333333333333334}, 1: {'trips': 0}}
    """
    step = layout.partitions * layout.slots
    out: dict[int, dict[str, float]] = {}
    for p, names in layout.regions.items():
        rows = [[w & 0xFFFFFFFF for w in words[i + p * layout.slots: i + (p + 1) * layout.slots]]
                for i in range(0, len(words) - step + 1, step)]
        rows = [r for r in rows if r[0] > 0]
        trips = sum(r[0] for r in rows)
        if not trips:
            out[p] = {"trips": 0}
            continue
        d: dict[str, float] = {"trips": trips, "programs": len(rows), "loop": sum(r[1] for r in rows) / trips}
        for k, n in enumerate(names):
            d[n] = sum(r[HEAD + k] for r in rows) / trips
        out[p] = d
    return out


def with_gaps(source: str, ks: KernelScopes) -> KernelScopes:
    """``ks`` with a region for each run of main-loop statements no region holds (``p<P>:gap:arrive:<barrier>`` where
    the run arrives on a barrier, else ``p<P>:gap:other``), register renames (``a_p1 = a``) left out: what Proton's
    profile leaves "outside every region" (an ``mbarrier.arrive`` is a 128-thread ``bar.sync`` and one thread's
    arrive in Gluon 3.6), timed as cheaply as the rest once it is summed."""
    tree = ast.parse(source)
    lines = source.splitlines()
    extra: list[Scope] = []
    for p in ks.partitions:
        loop = next(st for st in ast.walk(tree) if isinstance(st, ast.For) and st.lineno == p.loop_line)
        covered = {ln for s in ks.scopes if s.partition == p.index for a, b in s.spans for ln in range(a, b + 1)}
        runs: list[list[ast.stmt]] = []
        prev_gap = False
        for st in loop.body:
            rename = isinstance(st, ast.Assign) and isinstance(st.value, ast.Name)
            if st.lineno in covered:
                prev_gap = False
            elif not rename:
                if not prev_gap:
                    runs.append([])
                runs[-1].append(st)
                prev_gap = True
        seen: dict[str, int] = {}
        for run in runs:
            text = "\n".join(lines[st.lineno - 1] for st in run)
            m = re.search(r"mbarrier\.arrive\((\w+)", text)
            name = f"p{p.index}:gap:" + (f"arrive:{m.group(1)}" if m else "other")
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name}#{seen[name]}"
            span = (run[0].lineno, run[-1].end_lineno or run[-1].lineno)
            extra.append(Scope(name, p.index, "gap", None, (span,), run[0].col_offset))
    return dataclasses.replace(ks, scopes=ks.scopes + tuple(extra), by_name={})


UNION = "&"          # "W&N": a region timed over W's statements and its neighbour N's, W's figure then U - N


def neighbours(ks: KernelScopes, name: str) -> list[str]:
    """The regions of ``name``'s partition with a statement right before or after one of its instances (no union
    among them): what a region may be timed together with, and told apart from by difference (``union_name``)."""
    s = ks.by_name[name]
    ends = {a - 1 for a, _ in s.spans} | {b + 1 for _, b in s.spans}
    return [o.name for o in ks.scopes if o.partition == s.partition and o.name != name and UNION not in o.name
            and any(a in ends or b in ends for a, b in o.spans)]


def union_name(name: str, neighbour: str) -> str:
    return f"{name}{UNION}{neighbour}"


def derived_of(name: str) -> str:
    """The region a run's name measures: ``W`` for a union ``W&N`` (by difference), else the name itself."""
    return name.split(UNION, 1)[0]


def with_unions(ks: KernelScopes, names: Iterable[str]) -> KernelScopes:
    """``ks`` with a region for each union ``W&N`` among ``names``: W's and N's instances together, adjacent ones
    merged into one span (two clocks where W's and N's four would have been). Where W's own clocks perturb the loop
    (ptxas spills around them: the FA backward's consumer 1 around a wgmma wait, 23 spill instructions for 1 without
    regions, 7 with the union's: session 84), W is timed as the union less N, N timed in a run of its own."""
    extra = []
    for u in dict.fromkeys(n for n in names if UNION in n and n not in ks.by_name):
        w, n = u.split(UNION, 1)
        if w not in ks.by_name or n not in ks.by_name or ks.by_name[w].partition != ks.by_name[n].partition:
            raise InputError("no such union of regions", where=ks.kernel, expected="two regions of one partition",
                             found=u)
        merged: list[tuple[int, int]] = []
        for a, b in sorted(ks.by_name[w].spans + ks.by_name[n].spans):
            if merged and a <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        s = ks.by_name[w]
        extra.append(Scope(u, s.partition, s.kind, s.node, tuple(merged), min(s.indent, ks.by_name[n].indent)))
    return dataclasses.replace(ks, scopes=ks.scopes + tuple(extra), by_name={}) if extra else ks


def by_difference(regions: dict[str, dict], kind_of: Callable[[str], tuple[str, str | None]]) -> dict[str, dict]:
    """``regions`` (a profile's, name -> its figures) with each union ``W&N`` replaced by W's figure, the union's
    cycles less N's (N measured in a run of its own); ``kind_of(W)``: W's kind and node. A union whose N was not
    measured stays as it is.

    >>> r = {"p1:wait:x&p1:e": {"cycles_per_iteration": 500.0, "run": "sums3"}, "p1:e": {"cycles_per_iteration": 320.0}}
    >>> by_difference(r, lambda w: ("wait", None))["p1:wait:x"]["cycles_per_iteration"]
    180.0
    """
    out = {n: f for n, f in regions.items() if UNION not in n}
    for u, f in regions.items():
        if UNION not in u:
            continue
        w, n = u.split(UNION, 1)
        if n not in regions:
            out[u] = f
            continue
        cycles = round(max(0.0, f["cycles_per_iteration"] - regions[n]["cycles_per_iteration"]), 1)
        kind, node = kind_of(w)
        out[w] = dict(f, kind=kind, node=node, cycles_per_iteration=cycles, net_cycles_per_iteration=cycles,
                      by_difference=f"{u} ({f['cycles_per_iteration']}) - {n} ({regions[n]['cycles_per_iteration']})")
    return out


def _var(name: str) -> str:
    return "twill_s_" + re.sub(r"\W", "_", name)


def sums_source(source: str, ks: KernelScopes, names: Iterable[str] | None = None,
                clock: str = "clock") -> tuple[str, SumsLayout]:
    """``source`` with the regions ``names`` (all when None) summed in registers and each partition's main loop
    timed whole and counted, the sums stored by the partition's first thread when it returns; the buffer's layout.
    ``clock``: which register the clock is read from (``CLOCKS``).
    Every partition gets the ``twill_prof`` parameter first; ``launch`` passes the module's ``TWILL_PROF``."""
    want = list(ks.names()) if names is None else list(dict.fromkeys(names))
    unknown = [n for n in want if n not in ks.by_name]
    if unknown:
        raise InputError("no such region", where=ks.kernel, expected="one of " + ", ".join(ks.names()),
                         found=", ".join(unknown))
    read = CLOCKS[clock]
    regions = {p.index: tuple(n for n in want if ks.by_name[n].partition == p.index) for p in ks.partitions}
    layout = SumsLayout(len(ks.partitions), HEAD + max((len(r) for r in regions.values()), default=0), regions)
    lines = source.splitlines()
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    for n in want:
        s, v = ks.by_name[n], _var(n)
        for first, last in s.spans:
            before.setdefault(first, []).append(" " * s.indent + f"twill_c0 = {read}")
            after.setdefault(last, []).insert(0, " " * s.indent + f"{v} = {v} + ({read} - twill_c0)")
    tree = ast.parse(source)
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for p in ks.partitions:
        fn = funcs[p.function]
        pad, lpad = " " * fn.body[0].col_offset, " " * p.indent
        inits = [f"{_var(n)} = 0" for n in ("loop", "trips") + regions[p.index]]
        before.setdefault(fn.body[0].lineno, [])[:0] = [pad + i for i in inits]
        before.setdefault(p.loop_line, []).append(lpad + f"twill_l0 = {read}")
        after.setdefault(p.loop_end, []).append(lpad + f"{_var('loop')} = {_var('loop')} + ({read} - twill_l0)")
        # the trips: one per iteration of the main loop, counted in its body's first line's block
        body_first = next(st for st in ast.walk(fn) if isinstance(st, ast.For) and st.lineno == p.loop_line).body[0]
        before.setdefault(body_first.lineno, []).insert(0, " " * body_first.col_offset
                                                         + f"{_var('trips')} = {_var('trips')} + 1")
        base = f"{ARG} + ({PROGRAM} * {layout.partitions} + {p.index}) * {layout.slots}"
        stores = [f"gl.store({base} + {k}, {_var(n)})" for k, n in enumerate(("trips", "loop") + regions[p.index])]
        after.setdefault(fn.end_lineno or fn.lineno, []).extend(pad + s for s in stores)
    out: list[str] = []
    for i, ln in enumerate(lines, 1):
        out.extend(before.get(i, []))
        out.append(ln)
        out.extend(after.get(i, []))
    text = "\n".join(out) + "\n"
    return _with_argument(text, [p.function for p in ks.partitions], ks.kernel), layout


def _with_argument(text: str, functions: list[str], kernel: str) -> str:
    """``twill_prof`` as the first parameter of the kernel and its partitions, passed to each partition by
    ``warp_specialize`` and by the launcher (``RUNTIME`` and the bound arguments)."""
    for f in functions + [kernel]:
        text, n = re.subn(rf"^def {f}\(", f"def {f}({ARG}, ", text, count=1, flags=re.M)
        if n != 1:
            raise InputError("a partition's definition not found", where=kernel, expected=f"def {f}(", found="none")
    for f in functions:
        text = re.sub(rf"\({f}, \(", f"({f}, ({ARG}, ", text)
    text, n = re.subn(r"^RUNTIME = \[", f"RUNTIME = ['{ARG}', ", text, count=1, flags=re.M)
    if n != 1:
        raise InputError("the launcher's RUNTIME list not found", where=kernel, expected="RUNTIME = [...]",
                         found="none")
    text, n = re.subn(r"^(    bound = dict\(zip\(ARGUMENTS, args\)\))$", rf"\1\n    bound['{ARG}'] = TWILL_PROF",
                      text, count=1, flags=re.M)
    if n != 1:
        raise InputError("the launcher's bound arguments not found", where=kernel,
                         expected="bound = dict(zip(ARGUMENTS, args))", found="none")
    return text + "\nTWILL_PROF = None   # the sums' int32 buffer, set by the profiler before a launch\n"
