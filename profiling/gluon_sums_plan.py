"""Which regions one sums run may hold: planned from the SASS of each candidate run, compiled offline.

A region's clock reads are ordered against the code around them, and ptxas schedules a register-tight loop
differently around them: in the FA backward's first consumer (240 registers a thread, 11 spill instructions an
iteration without any region) one region alone adds 35-44 (its dS, P and D regions), 8 regions a run up to 57, where
most other regions add none (sm_90 compiles of session 81). So a run's regions are chosen by what ptxas makes of them:
``plan`` splits the regions in two (neighbours apart, ``runs_of``) until each run's innermost loops spill no more than
the loop run's (no region summed) plus ``slack``, then packs the runs that fit back together while they still do. A
region that spills alone gets a run of its own and is reported so (``PlannedRun.fits`` False): its figure is of a
kernel ptxas scheduled otherwise.

The plan is written beside the kernel (``sums_plan.json``, keyed by the source's hash) so the GPU run need not
compile it again: ``twill validate --sums auto`` reads it, or plans where there is none. Needs Triton and ptxas, no GPU.
"""
from __future__ import annotations

import ast
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generator, Mapping, Sequence

from codegen.gluon.sass import loop_spills
from profiling.gluon import KernelScopes, compile_instrumented
from profiling.gluon_sums import ARG, UNION, derived_of, neighbours, runs_of, sums_source, union_name, with_unions
from twill.errors import ProfileError

SLACK = 2           # spill instructions a loop may gain over the loop run's and still count as unperturbed
PLAN = "sums_plan.json"


@dataclass(frozen=True)
class PlannedRun:
    """One run's regions; per partition with regions in it, its innermost loops' spill instructions and whether
    they are within the slack of the loop run's."""

    names: tuple[str, ...]
    spills: dict[int, int]
    fits: bool


Spills = Callable[[tuple[str, ...]], dict[int, int]]
Plan = Generator[tuple[str, ...], int, list[tuple[tuple[str, ...], int]]]


def plan(partition_of: Mapping[str, int], spills: Spills, slack: int = SLACK,
         alternatives: Mapping[str, Sequence[str]] | None = None) -> tuple[dict[int, int], list[PlannedRun]]:
    """The loop run's spills per partition (``spills(())``) and the runs for the regions ``partition_of`` names (in
    its order), each in its partition. Each partition is planned
    alone (ptxas allocates each partition's registers apart: a region moves only its own partition's spills, in the
    FA backward's compiles) and all in step, one compile serving each partition's next question; run j holds every
    partition's j-th group. ``alternatives``: per region, the unions it may be timed in instead (``by_union``).

    >>> names = ("p0:a", "p0:b", "p0:c", "p0:d", "p1:x", "p1:y")
    >>> bad = {"p0:c": 5, "p0:d": 5, "p1:x": 3}
    >>> def cost(run):
    ...     return {p: sum(1 + bad.get(n, 0) for n in run if n[1] == str(p)) // 2 for p in (0, 1)}
    >>> base, runs = plan({n: int(n[1]) for n in names}, cost, slack=1)
    >>> base, [(r.names, r.fits) for r in runs]
    ({0: 0, 1: 0}, [(('p0:a', 'p0:b', 'p1:y'), True), (('p0:c', 'p1:x'), False), (('p0:d',), False)])
    """
    base = spills(())
    parts = sorted(set(partition_of.values()))
    plans = {p: _partition_plan(tuple(n for n, q in partition_of.items() if q == p), base.get(p, 0), slack,
                                alternatives or {}) for p in parts}
    asked: dict[int, tuple[str, ...]] = {}
    done: dict[int, list[tuple[tuple[str, ...], int]]] = {}

    def step(p: int, answer: int | None) -> None:
        try:
            asked[p] = next(plans[p]) if answer is None else plans[p].send(answer)
        except StopIteration as stop:
            done[p] = stop.value
            asked.pop(p, None)
    for p in plans:
        step(p, None)
    while asked:
        got = spills(tuple(n for run in asked.values() for n in run))
        for p in list(asked):
            step(p, got.get(p, 0))
    out = []
    for j in range(max((len(g) for g in done.values()), default=0)):
        parts = {p: g[j] for p, g in sorted(done.items()) if j < len(g)}
        out.append(PlannedRun(tuple(n for run, _ in parts.values() for n in run),
                              {p: s for p, (_, s) in parts.items()},
                              all(s <= base.get(p, 0) + slack for p, (_, s) in parts.items())))
    return base, out


def _partition_plan(names: tuple[str, ...], base: int, slack: int, alternatives: Mapping[str, Sequence[str]]) -> Plan:
    """One partition's groups and their spills: split in two (neighbours apart) until a group spills no more than
    ``base + slack`` or holds one region, then packed first fit: groups within the slack together while they stay
    so, a group over it (a region that spills alone) beside those where the whole stays within the slack, else with
    other such groups while they spill no more than the worst of them alone plus the slack. Yields the group it asks
    about, is sent its spills."""
    memo: dict[tuple[str, ...], int] = {}

    def judge(run: tuple[str, ...]) -> Generator[tuple[str, ...], int, int]:
        if run not in memo:
            memo[run] = yield run
        return memo[run]

    def split(run: tuple[str, ...]) -> Generator[tuple[str, ...], int, list[tuple[tuple[str, ...], int]]]:
        s = yield from judge(run)
        if s <= base + slack or len(run) == 1:
            return [(run, s)]
        out = []
        for half in runs_of(run, -(-len(run) // 2)):
            out += yield from split(half)
        return out

    if not names:
        return []
    leaves = yield from split(names)
    leaves = yield from _by_union(leaves, base + slack, alternatives, judge)
    packed: list[tuple[tuple[str, ...], int, int]] = []     # (regions, spills, what they may spill)
    order = sorted(leaves, key=lambda r: (r[1] > base + slack, -len(r[0]) if r[1] <= base + slack else -r[1]))
    for run, s in order:
        limit = s + slack if s > base + slack else base + slack
        for i, (have, hs, hlimit) in enumerate(packed):
            if _clash(have, run):
                continue            # a union and a region it holds share the one start clock: never in one run
            # a region that spills alone joins regions measured clean only where, beside them, it spills no more than
            # they may: ptxas allocates the loop anew around each set of clocks (the FA backward's D load, 46 spill
            # instructions alone, 8 beside a third of its consumer's regions: the loop run's own)
            fits = hs <= base + slack
            merged = yield from judge(have + run)
            if merged <= (base + slack if fits else max(limit, hlimit)):
                packed[i] = (have + run, merged, hlimit if fits else max(limit, hlimit))
                break
        else:
            packed.append((run, s, limit))
    return [(run, s) for run, s, _ in packed]


def _clash(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether a union (``W&N``) in one group holds a region of the other (their sums would share a start clock)."""
    def parts(names: tuple[str, ...]) -> set[str]:
        return {x for n in names for x in n.split(UNION)}
    return bool(parts(a) & parts(b))


def _by_union(leaves: list[tuple[tuple[str, ...], int]], limit: int, alternatives: Mapping[str, Sequence[str]],
              judge: Callable[[tuple[str, ...]], Generator[tuple[str, ...], int, int]]
              ) -> Generator[tuple[str, ...], int, list[tuple[tuple[str, ...], int]]]:
    """``leaves`` with each region that spills alone over ``limit`` (the worst first) timed instead in the union
    among its ``alternatives`` that spills least, where that is less (``profiling.gluon_sums.with_unions``: its
    figure then by difference). A union's neighbour is timed alone: a region told by difference is no union's
    neighbour, and a neighbour is not told by difference."""
    out = list(leaves)
    derived: set[str] = set()
    needed: set[str] = set()
    for i in sorted(range(len(out)), key=lambda i: -out[i][1]):
        run, s = out[i]
        if s <= limit or len(run) != 1 or run[0] in needed:
            continue
        for alt in alternatives.get(run[0], ()):
            if alt.split(UNION, 1)[1] in derived:
                continue
            sa = yield from judge((alt,))
            if sa < out[i][1]:
                out[i] = ((alt,), sa)
        if out[i][0] != run:
            derived.add(run[0])
            needed.add(out[i][0][0].split(UNION, 1)[1])
    return out


def compiled_spills(source: str, ks: KernelScopes, kernel: Mapping[str, Any], sm: int = 90) -> Spills:
    """Spill instructions in each partition's innermost loops (told apart by their line info) of ``source`` with the
    given regions summed, compiled offline for ``sm`` (``kernel``: gluon.json's ``gluon.kernel``)."""
    with_arg = dict(kernel, signature=dict({ARG: "*i32"}, **kernel["signature"]))

    def spills(names: tuple[str, ...]) -> dict[int, int]:
        text = sums_source(source, ks, names)[0]
        funcs = {f.name: (f.lineno, f.end_lineno or f.lineno) for f in ast.parse(text).body
                 if isinstance(f, ast.FunctionDef)}
        spans = {p.index: funcs[p.function] for p in ks.partitions if p.function in funcs}
        out = {p: 0 for p in spans}
        loops = loop_spills(compile_instrumented(text, with_arg, sm=sm).asm["cubin"])
        told = 0
        for n, lines in loops:
            held = Counter(p for ln in lines for p, (a, b) in spans.items() if a <= ln <= b)
            if held:
                out[held.most_common(1)[0][0]] += n
                told += 1
        if not told:    # no SASS, or no line info: a plan would rest on nothing
            raise ProfileError("cannot plan the sums runs: the compiled kernel's loops were not read", where=ks.kernel,
                               expected="nvdisasm beside Triton's ptxas and line info in the cubin",
                               found=f"{len(loops)} innermost loops, none in a partition's lines")
        return out
    return spills


def source_key(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def write_plan(directory: Path, source: str, base: Mapping[int, int], runs: list[PlannedRun], slack: int) -> Path:
    """``sums_plan.json`` in ``directory``, keyed by the source it was planned for."""
    doc = {"source_sha256": source_key(source), "slack": slack, "loop_run_spills": {str(p): n for p, n in base.items()},
           "runs": [{"regions": list(r.names), "spills": {str(p): n for p, n in r.spills.items()}, "fits": r.fits}
                    for r in runs]}
    path = directory / PLAN
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    tmp.replace(path)
    return path


def read_plan(directory: Path, source: str, names: tuple[str, ...]) -> list[PlannedRun] | None:
    """The plan written beside the kernel, if it was planned for this source and holds exactly ``names``."""
    path = directory / PLAN
    if not path.is_file():
        return None
    doc = json.loads(path.read_text())
    runs = [PlannedRun(tuple(r["regions"]), {int(p): n for p, n in r["spills"].items()}, bool(r["fits"]))
            for r in doc.get("runs", [])]
    measured = sorted(derived_of(n) for r in runs for n in r.names)
    if doc.get("source_sha256") != source_key(source) or measured != sorted(names):
        return None
    return runs


def planned_runs(directory: Path, source: str, ks: KernelScopes, kernel: Mapping[str, Any],
                 say: Callable[[str], None] = print, slack: int = SLACK) -> list[PlannedRun]:
    """The runs for every region of ``ks`` (the kernel in ``directory``, its gaps included): as ``sums_plan.json``
    beside the kernel has them, else planned by compiling and the plan written there."""
    names = ks.names()
    runs = read_plan(directory, source, names)
    if runs is None:
        say(f"{directory.name}: planning the sums runs from their SASS (compiling candidate runs)")
        unions = {n: [union_name(n, o) for o in neighbours(ks, n)] for n in names}
        spills = compiled_spills(source, with_unions(ks, [u for us in unions.values() for u in us]), kernel)
        base, runs = plan({n: ks.by_name[n].partition for n in names}, spills, slack, unions)
        say(f"  wrote {write_plan(directory, source, base, runs, slack)}: {len(runs)} runs, the loop run's spills "
            f"{base}")
    return runs
