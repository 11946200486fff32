"""Proton region records placed in a Gluon kernel twill generated (``kernel_gluon.py``): one scope per
graph node and one per wait in the loop of every partition, a chosen subset per run.

The generated source says what each loop statement is: a trailing ``# <node>: stage S, partition P
(group G)`` comment on the ops of a graph node; ``mbarrier.wait`` and ``warpgroup_mma_wait`` are the
waits; a producer's ``mbarrier.expect`` + ``tma.async_copy_global_to_shared`` pair is the TMA load of
its ring. Each maximal run of consecutive statements with one label becomes one region instance:

- ``p<P>:<node>``: the node's ops in partition P (issue only, for an asynchronous wgmma or TMA copy);
- ``p<P>:wait:<what>``: a wait, named by the barrier (``wait:k_ready``, ``wait:twill_turn0``) or by the
  graph nodes whose wgmma it retires (``wait:dot0_qk0+dot2_acc0``);
- ``p<P>:empty``: an empty region before the loop, the cost of one record pair (calibration).

Other statements (register copies, index arithmetic, ``mbarrier.arrive``) stay outside every region;
the loop's period (start to start of a once-per-iteration region) covers them. Proton's language API
(``triton.profiler.language.enter_scope``/``exit_scope``, Gluon semantic) turns each call into a
``proton.record`` op; Proton lowers records only while its instrumentation is on at compile time (on the
GPU ``proton.start(backend="instrumentation")`` turns it on; offline ``profiling.insert.offline_instrumentation``).
"""
from __future__ import annotations

import ast
import dataclasses
import importlib.util
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from profiling.insert import offline_instrumentation
from twill.errors import CompileError, InputError
from twill.util import sole_call

NODE_COMMENT = re.compile(r"#\s*([A-Za-z_][\w.]*): stage (\d+)(?:, partition (\d+) \(group (\d+)\))?\s*$")
PL = "twill_pl"                      # the name the instrumented source imports Proton's language as
IMPORT = f"from triton.profiler import language as {PL}"
RECORD_BYTES = 8                     # one Proton record: a tag word and a clock word
LOOP = "loop"                        # ``p<P>:loop``: a partition's main loop timed whole (a loop run; a recorded tile)
_LOOP_NAME = re.compile(rf"p(\d+):{LOOP}$")


def loop_partition(name: str) -> int | None:
    """The partition whose main loop ``name`` times whole (``p<P>:loop``), else None."""
    m = _LOOP_NAME.match(name)
    return int(m.group(1)) if m else None
H200_SHARED = 232448                 # bytes of shared memory per CTA on sm_90 (the H100/H200 opt-in maximum)


@dataclass(frozen=True)
class Scope:
    """One region name: its partition, what it measures, and where its instances are (1-based lines of
    the first and last statement of each instance in the loop body)."""

    name: str
    partition: int
    kind: str                         # "node" | "wait" | "tma" (a load with no graph node found)
    node: str | None
    spans: tuple[tuple[int, int], ...]
    indent: int

    @property
    def instances(self) -> int:
        return len(self.spans)


@dataclass(frozen=True)
class Partition:
    """A ``gl.warp_specialize`` partition (0: the default one): its function, warps and loop."""

    index: int
    function: str
    num_warps: int
    first_warp: int
    loop_line: int                    # the ``for`` statement's line
    indent: int                       # the ``for`` statement's indentation
    loop_end: int = 0                 # the loop's last line
    body: tuple[int, int] = (0, 0)    # first and last line of one tile's work: the tile loop's body (persistent)
    body_indent: int = 0              # or the function's body
    tiled: bool = False               # a persistent kernel's loop over tiles (``twill_tile``) holds the loop


@dataclass(frozen=True)
class KernelScopes:
    """Every region a generated kernel offers, in program order per partition."""

    kernel: str
    num_warps: int
    partitions: tuple[Partition, ...]
    scopes: tuple[Scope, ...]
    total_warps: int = 0
    by_name: dict[str, Scope] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_name.update({s.name: s for s in self.scopes})
        if len(self.by_name) != len(self.scopes):
            raise InputError("two regions share a name", where=self.kernel, expected="unique region names",
                             found=", ".join(s.name for s in self.scopes))

    def names(self, partition: int | None = None) -> tuple[str, ...]:
        return tuple(s.name for s in self.scopes if partition is None or s.partition == partition)

    def partition(self, index: int) -> Partition:
        return next(p for p in self.partitions if p.index == index)

    def sampled(self, names: Iterable[str]) -> tuple[int, ...]:
        """The partitions a set of regions (or of main loops, ``loop_names``) lies in, in order."""
        return tuple(sorted({loop_partition(n) if loop_partition(n) is not None else self.by_name[n].partition
                             for n in names}))

    def loop_names(self) -> tuple[str, ...]:
        """A loop run's regions: each partition's main loop as a whole (``p<P>:loop``), nothing inside it."""
        return tuple(f"p{p.index}:{LOOP}" for p in self.partitions)

    def with_warps(self, first: Mapping[int, int]) -> KernelScopes:
        """The same regions with the partitions' first warps as given (read from the compiled kernel)."""
        parts = tuple(dataclasses.replace(p, first_warp=first.get(p.index, p.first_warp)) for p in self.partitions)
        return dataclasses.replace(self, partitions=parts, by_name={})

    def sampling(self, names: Iterable[str]) -> str:
        """Proton's ``sampling_options``: the first warp of each partition with a region in ``names``
        (one warp per partition records; its warp group's other warps run the same code unrecorded)."""
        return ",".join(str(self.partition(p).first_warp) for p in self.sampled(names))


def warp_starts(num_warps: int, worker_warps: list[int]) -> tuple[list[int], int]:
    """First warp of each worker partition and the kernel's total warps, as Triton 3.6's
    ``AllocateWarpGroups`` assigns them: the workers are padded to whole warp groups with idle
    partitions of power-of-two sizes, then placed after the default warps, largest first (ties in
    order: LLVM's sort of so few elements is an insertion sort).

    Examples
    --------
    >>> warp_starts(4, [4, 1])     # fa3: consumer 1 at warp 4; padding [2, 1] at 8 and 11; producer at 10
    ([4, 10], 12)
    >>> warp_starts(8, [1])
    ([10], 12)
    """
    total = sum(worker_warps)
    pad, left = [], -(-total // 4) * 4 - total
    while left > 0:
        p = 1 << (left.bit_length() - 1)
        pad.append(p)
        left -= p
    sizes = list(worker_warps) + pad
    starts = [0] * len(sizes)
    at = num_warps
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        starts[i] = at
        at += sizes[i]
    return starts[:len(worker_warps)], num_warps + total + sum(pad)


def partition_warps_from_llir(llir: str, num_warps: int) -> dict[int, int]:
    """The first warp of each worker partition read back from the LLVM IR of a compiled kernel: the
    default warps write each worker warp's partition index into shared memory before the switch (what
    ``warp_starts`` predicts; this is the check). Empty when the pattern is not found."""
    stores = re.findall(r"store i8 (\d+), ptr addrspace\(3\) getelementptr \(i8, ptr addrspace\(3\) "
                        r"@global_smem, i32 (\d+)\)", llir)
    run: list[tuple[int, int]] = []
    for v, a in stores:
        if run and int(a) != run[-1][1] + 1:
            if len(run) > 1:
                break
            run = []
        run.append((int(v), int(a)))
    if len(run) < 2:
        return {}
    base = run[0][1]
    out: dict[int, int] = {}
    for v, a in run:
        out.setdefault(v + 1, num_warps + a - base)
    return out


def _const(tree: ast.Module, name: str) -> Any:
    for st in tree.body:
        if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
            return ast.literal_eval(st.value)
    return None


def _call_name(node: ast.AST) -> str:
    """``mbarrier.wait`` for a call of ``mbarrier.wait(...)``; ``''`` for anything else."""
    if isinstance(node, ast.Expr):
        node = node.value
    if isinstance(node, ast.Assign):
        node = node.value
    if not isinstance(node, ast.Call):
        return ""
    f = node.func
    if isinstance(f, ast.Attribute):
        return (f.value.id + "." if isinstance(f.value, ast.Name) else "") + f.attr
    return f.id if isinstance(f, ast.Name) else ""


def _partition_functions(tree: ast.Module, kernel: str) -> tuple[list[str], list[int], str]:
    """The partition functions in ``gl.warp_specialize`` order, the workers' warps, and the kernel
    function; a kernel with no ``gl.warp_specialize`` is one partition: the module's function it calls (a
    generated kernel with no producer), else itself."""
    funcs = {fn.name: fn for fn in tree.body if isinstance(fn, ast.FunctionDef)}
    for fn in funcs.values():
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and _call_name(node).endswith("warp_specialize"):
                parts = [e.elts[0].id for e in node.args[0].elts]             # type: ignore[attr-defined]
                return parts, list(ast.literal_eval(node.args[1])), fn.name
    return [sole_call(tree, kernel) or kernel], [], kernel


def _main_loop(fn: ast.FunctionDef, lines: list[str], nodes: tuple[str, ...] = ()) -> ast.For:
    """The partition's loop: the ``for ... in range(...)`` with the most node comments of the scheduled graph
    (``nodes``; then of any graph), at the top level or, in a persistent kernel, in the loop over tiles
    (``twill_tile``, itself never the one), or in an ``if`` there (a loop that may run no iteration is guarded).
    A kernel with several loops (causal attention's blocks before the diagonal, then the diagonal's) comments
    every loop's ops: the scheduled loop is the one whose nodes are the graph's."""
    outer = [s for s in fn.body if isinstance(s, ast.For) and isinstance(s.target, ast.Name)
             and s.target.id == "twill_tile"]
    body = list(outer[0].body if outer else fn.body)
    body += [s for st in body if isinstance(st, ast.If) for s in st.body + st.orelse]
    loops = [s for s in body if isinstance(s, ast.For) and _call_name(s.iter) == "range"]
    if not loops:
        raise InputError("partition has no loop", where=fn.name, expected="a top-level for ... in range(...)",
                         found="none")

    def score(lp: ast.For) -> tuple[int, int]:
        named = [_node_comment(s, lines) for s in lp.body]
        return sum(n is not None and n in nodes for n in named), sum(n is not None for n in named)
    return max(loops, key=score)


def scopes_of(source: str, nodes: Iterable[str] = (), kernel: str = "twill_kernel") -> KernelScopes:
    """The regions of a generated Gluon kernel's source. ``nodes`` are the graph's node ids (``gluon.json``
    ``warp``'s keys): a producer's TMA loads carry no comment and are matched to ``tma_load<k>_<name>``
    nodes by their ring's name; with none, they are named ``tma:<ring>``.

    Examples
    --------
    >>> ks = scopes_of(Path("bench/results/gluon/gemm/kernel_gluon.py").read_text())   # doctest: +SKIP
    >>> ks.names()                                                                      # doctest: +SKIP
    ('p0:wait:a_23_ready', 'p0:wait:b_ready', 'p0:dot0_acc', ...)
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    num_warps = int(_const(tree, "NUM_WARPS") or 4)
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    parts, worker_warps, kname = _partition_functions(tree, kernel)
    starts, total = warp_starts(num_warps, worker_warps)
    partitions, scopes = [], []
    for i, name in enumerate(parts):
        if name not in funcs:
            raise InputError("partition function not found", where=name, expected="a @gluon.jit function",
                             found="none")
        loop = _main_loop(funcs[name], lines, tuple(nodes))
        warps = num_warps if i == 0 else worker_warps[i - 1]
        tile, body = _tile_body(funcs[name])
        partitions.append(Partition(i, name, warps, 0 if i == 0 else starts[i - 1], loop.lineno, loop.col_offset,
                                    loop.end_lineno or loop.lineno, (body[0].lineno, body[-1].end_lineno or 0),
                                    body[0].col_offset, tile))
        scopes.extend(_loop_scopes(loop, lines, i, tuple(nodes)))
    return KernelScopes(kname, num_warps, tuple(partitions), tuple(scopes), total if worker_warps else num_warps)


def _tile_body(fn: ast.FunctionDef) -> tuple[bool, list[ast.stmt]]:
    """The statements of one tile's work: the body of a persistent partition's loop over tiles (``twill_tile``),
    else the function's body after its docstring."""
    for st in fn.body:
        if isinstance(st, ast.For) and isinstance(st.target, ast.Name) and st.target.id == "twill_tile":
            return True, list(st.body)
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
        body = body[1:]
    return False, body


def _loop_scopes(loop: ast.For, lines: list[str], part: int, nodes: tuple[str, ...]) -> list[Scope]:
    """The regions of one partition's loop body, in program order."""
    owner = _value_owners(loop.body, lines)
    labels = [_label(st, lines, owner, nodes) for st in loop.body]
    runs: list[tuple[tuple[str, str | None, str], int, int]] = []
    for st, lab in zip(loop.body, labels):
        if lab is not None and runs and runs[-1][0] == lab and runs[-1][2] == st.lineno - 1:
            runs[-1] = (lab, runs[-1][1], st.end_lineno)                          # type: ignore[assignment]
        elif lab is not None:
            runs.append((lab, st.lineno, st.end_lineno))                          # type: ignore[arg-type]
    spans: dict[str, list[tuple[int, int]]] = {}
    info: dict[str, tuple[str, str | None]] = {}
    for (kind, node, label), first, last in runs:
        name = f"p{part}:{label}"
        if kind == "wait" and name in spans:      # a second wait on the same thing: its own region
            k = 2
            while f"{name}#{k}" in spans:
                k += 1
            name = f"{name}#{k}"
        spans.setdefault(name, []).append((first, last))
        info[name] = (kind, node)
    indent = loop.body[0].col_offset
    return [Scope(n, part, info[n][0], info[n][1], tuple(sp), indent) for n, sp in spans.items()]


def _node_comment(st: ast.stmt, lines: list[str]) -> str | None:
    for ln in range(st.end_lineno or st.lineno, st.lineno - 1, -1):
        m = NODE_COMMENT.search(lines[ln - 1])
        if m:
            return m.group(1)
    return None


def _targets(st: ast.stmt) -> list[str]:
    if not isinstance(st, ast.Assign):
        return []
    out: list[str] = []
    for t in st.targets:
        out.extend(e.id for e in (t.elts if isinstance(t, ast.Tuple) else [t]) if isinstance(e, ast.Name))
    return out


def _base(var: str) -> str:
    """A value's name without the ``_p<k>`` suffix of its copies carried across iterations."""
    return re.sub(r"(_p\d+)+$", "", var)


def _value_owners(body: list[ast.stmt], lines: list[str]) -> dict[str, tuple[str, ...]]:
    """Value name -> the graph nodes that produce it: a commented statement's targets, and through a
    ``warpgroup_mma_wait`` its results (two passes: values carried from the previous iteration)."""
    owner: dict[str, tuple[str, ...]] = {}
    for _ in range(2):
        for st in body:
            node = _node_comment(st, lines)
            if node is not None and _call_name(st) != "warpgroup_mma_wait":
                for t in _targets(st):
                    owner[_base(t)] = (node,)
            elif _call_name(st) == "warpgroup_mma_wait":
                got = _wait_nodes(st, owner)
                for t in _targets(st):
                    owner[_base(t)] = got
    return owner


def _wait_nodes(st: ast.stmt, owner: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    call = st.value if isinstance(st, (ast.Assign, ast.Expr)) else None
    deps: list[str] = []
    for kw in getattr(call, "keywords", []):
        if kw.arg == "deps" and isinstance(kw.value, (ast.Tuple, ast.List)):
            deps = [e.id for e in kw.value.elts if isinstance(e, ast.Name)]
    out: list[str] = []
    for d in deps:
        for n in owner.get(_base(d), ()):
            if n not in out:
                out.append(n)
    return tuple(out)


def _ring(call: ast.Call, arg: int, suffix: str) -> str:
    """The ring a TMA statement uses: ``k`` for ``k_buf.index(...)`` / ``k_ready.index(...)``."""
    a = call.args[arg] if call.args else None
    if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute):
        a = a.func.value
    name = a.id if isinstance(a, ast.Name) else ""
    return name[:-len(suffix)] if name.endswith(suffix) else name


def _tma_node(ring: str, nodes: tuple[str, ...]) -> str | None:
    """The ``tma_load<k>_<name>`` node whose name is the ring's, or the ring's name's first part."""
    best = None
    for n in nodes:
        m = re.fullmatch(r"tma_load\d+_(\w+?)", n)
        if m and (ring == m.group(1) or ring.startswith(m.group(1) + "_")):
            if best is None or len(m.group(1)) > len(best[1]):
                best = (n, m.group(1))
    return best[0] if best else None


def _label(st: ast.stmt, lines: list[str], owner: dict[str, tuple[str, ...]],
           nodes: tuple[str, ...]) -> tuple[str, str | None, str] | None:
    """(kind, node, label) of one loop statement; None for one that no region times."""
    name = _call_name(st)
    call = st.value if isinstance(st, (ast.Expr, ast.Assign)) else None
    if name == "mbarrier.wait" and isinstance(call, ast.Call):
        bar = call.args[0]
        what = ast.unparse(bar.func.value) if isinstance(bar, ast.Call) and isinstance(bar.func, ast.Attribute) \
            else ast.unparse(bar)
        if isinstance(bar, ast.Call) and bar.args and isinstance(bar.args[0], ast.Constant):
            what += str(bar.args[0].value)
        return ("wait", None, f"wait:{what}")
    if name == "warpgroup_mma_wait":
        got = _wait_nodes(st, owner)
        depth = ast.unparse(call.args[0]) if isinstance(call, ast.Call) and call.args else "?"
        return ("wait", None, "wait:" + ("+".join(got) if got else f"wgmma{depth}"))
    node = _node_comment(st, lines)
    if node is not None:
        return ("node", node, node)
    if name in ("mbarrier.expect", "tma.async_copy_global_to_shared") and isinstance(call, ast.Call):
        ring = _ring(call, 0, "_ready") if name == "mbarrier.expect" else _ring(call, -1, "_buf")
        found = _tma_node(ring, nodes)
        return ("node", found, found) if found else ("tma", None, f"tma:{ring}")
    return None


def instrument(source: str, ks: KernelScopes, names: Iterable[str] | None = None, calibrate: bool = True,
               every: int = 1) -> str:
    """``source`` with ``enter_scope``/``exit_scope`` around every instance of the regions ``names``
    (all when None), and, with ``calibrate``, an empty region ``p<P>:empty`` before the loop of each
    partition recorded. With ``every`` = 1 the text is otherwise unchanged: line for line, the generated kernel.

    With ``every`` = K > 1 only one tile in K is recorded: each recorded partition's work on a tile (a persistent
    kernel's tile loop body, else the function's body) is written twice, under ``if <tile sampled>:`` with the
    records and under ``else:`` without them, so the other tiles run the plain kernel's code (records placed in
    it, even behind a branch, would cut its blocks where ptxas schedules). A tile is sampled where its index in its
    program's tiles plus the program's id is a multiple of K: every program records one tile in K (the kernel's
    time grows by about 1/K of what the records cost a tile), and where a program has one tile, one program in K
    records. Both copies time their main loop (``p<P>:loop``, ``p<P>:plain_loop``), so a trace holds the recorded
    and the plain loops' durations of the same run (``profiling.gluon_trace``). Measured on the H200 (run 34): the
    GEMM's runs fell from up to 1.05x the plain kernel to 0.994-1.003x; the FA forward's did not fall with K (a
    consumer's records cost it 5.6 % where they almost never run, K = 10^6: ptxas compiles a partition with records
    differently, whether they run or not), so ``every`` = 1 stays the default.

    Examples
    --------
    >>> text = instrument(src, ks, ["p0:dot0_acc"])                       # doctest: +SKIP
    >>> [ln.strip() for ln in text.splitlines() if "twill_pl." in ln][:2]  # doctest: +SKIP
    ['twill_pl.enter_scope("p0:empty")', 'twill_pl.exit_scope("p0:empty")']
    """
    want = list(ks.names()) if names is None else list(dict.fromkeys(names))
    loops = [n for n in want if n in ks.loop_names()]
    unknown = [n for n in want if n not in ks.by_name and n not in loops]
    if unknown:
        raise InputError("no such region", where=ks.kernel, expected="one of " + ", ".join(ks.names() + ks.loop_names()),
                         found=", ".join(unknown))
    if loops and (every > 1 or len(loops) < len(want)):
        raise InputError("a loop run times whole loops only", where=ks.kernel, expected="p<P>:loop names alone, "
                         "every tile recorded", found=", ".join(want) + f" (one tile in {every})")
    before, after = _records(ks, [n for n in want if n not in loops], calibrate)
    for n in loops:
        before, after = _loop_records(ks.partition(loop_partition(n) or 0), before, after, LOOP)
    lines = source.splitlines()
    tree = ast.parse(source)
    first_import = next(st.lineno for st in tree.body if isinstance(st, (ast.Import, ast.ImportFrom)))
    before.setdefault(first_import, []).insert(0, IMPORT)
    if every <= 1:
        return "\n".join(_emit(lines, before, after, 1, len(lines))) + "\n"
    copies = {}
    for p in ks.sampled(want):
        part = ks.partition(p)
        _no_return(tree, part)
        copies[part.body[0]] = (part, _loop_records(part, before, after, "loop"),
                                _loop_records(part, {}, {}, "plain_loop"), _private(tree, part, lines))
    out: list[str] = []
    i = 1
    while i <= len(lines):
        if i not in copies:
            out.extend(_emit(lines, before, after, i, i))
            i += 1
            continue
        part, (ib, ia), (pb, pa), private = copies[i]
        pad, first, last = " " * part.body_indent, part.body[0], part.body[1]
        out.append(f"{pad}if {_sampled(part, every)}:   # twill: a recorded tile (one in {every})")
        out.extend("    " + ln if ln else ln for ln in _emit(private, ib, ia, first, last))
        out.append(f"{pad}else:   # twill: a plain tile, its loop timed")
        out.extend("    " + ln if ln else ln for ln in _emit(lines, pb, pa, first, last))
        i = last + 1
    return "\n".join(out) + "\n"


def _records(ks: KernelScopes, want: list[str], calibrate: bool) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Lines to insert before and after each source line: the regions' records and the calibration regions."""
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    for n in want:
        s = ks.by_name[n]
        for first, last in s.spans:
            before.setdefault(first, []).append(" " * s.indent + f'{PL}.enter_scope("{n}")')
            after.setdefault(last, []).insert(0, " " * s.indent + f'{PL}.exit_scope("{n}")')
    if calibrate:
        for p in ks.sampled(want):
            part = ks.partition(p)
            pad = " " * part.indent
            before.setdefault(part.loop_line, []).insert(0, pad + f'{PL}.enter_scope("p{p}:empty")')
            before[part.loop_line].insert(1, pad + f'{PL}.exit_scope("p{p}:empty")')
    return before, after


def _loop_records(part: Partition, before: Mapping[int, list[str]], after: Mapping[int, list[str]], name: str
                  ) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """``before``/``after`` with the partition's main loop timed as ``p<P>:<name>`` (outermost at its lines). The
    two copies' loops have names of their own: Proton 3.6 pairs a scope's records by name over the lowered CFG,
    where one name in both branches of an ``if`` inside the tile loop reads as a scope never closed."""
    b = {k: list(v) for k, v in before.items()}
    a = {k: list(v) for k, v in after.items()}
    pad = " " * part.indent
    b.setdefault(part.loop_line, []).append(pad + f'{PL}.enter_scope("p{part.index}:{name}")')
    a.setdefault(part.loop_end, []).append(pad + f'{PL}.exit_scope("p{part.index}:{name}")')
    return b, a


def _emit(lines: list[str], before: Mapping[int, list[str]], after: Mapping[int, list[str]], first: int,
          last: int) -> list[str]:
    out: list[str] = []
    for i in range(first, last + 1):
        out.extend(before.get(i, []))
        out.append(lines[i - 1])
        out.extend(after.get(i, []))
    return out


def _sampled(part: Partition, every: int) -> str:
    """The condition under which a tile is recorded: its index among its program's tiles plus the program's id
    (a persistent loop ``range(program_id, tiles, num_programs)``), a multiple of ``every``."""
    if part.tiled:
        return f"(twill_tile // gl.num_programs(0) + gl.program_id(0)) % {every} == 0"
    return f"(gl.program_id(0) + gl.program_id(1) + gl.program_id(2)) % {every} == 0"


def _private(tree: ast.Module, part: Partition, lines: list[str]) -> list[str]:
    """``lines`` with the names that the recorded copy of a tile's work assigns, and that are not defined before it,
    suffixed ``_twr``. Triton's front end yields from an ``if`` every name both branches assign, used after it or
    not; yielded, a value of the tile's work (an offset, a tile of the accumulator) would stay live to the end of
    the plain copy as well, and cost it registers (the FA backward's plain loops spilled twice as much)."""
    fn = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == part.function)
    first, last = part.body
    stmts = [st for st in ast.walk(fn) if isinstance(st, ast.stmt) and first <= st.lineno and
             (st.end_lineno or st.lineno) <= last]
    before = {a.arg for a in fn.args.args} | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                                               and isinstance(n.ctx, ast.Store) and n.lineno < first}
    assigned = {n.id for st in stmts for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    mine = assigned - before
    out = list(lines)
    spots = sorted({(n.lineno, n.col_offset, n.end_col_offset) for st in stmts for n in ast.walk(st)
                    if isinstance(n, ast.Name) and n.id in mine}, reverse=True)
    for ln, a, b in spots:
        text = out[ln - 1]
        out[ln - 1] = text[:b] + "_twr" + text[b:]
    return out


def _no_return(tree: ast.Module, part: Partition) -> None:
    fn = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == part.function)
    if any(isinstance(n, ast.Return) for n in ast.walk(fn)):
        raise InputError("cannot sample tiles of a partition that returns", where=part.function,
                         expected="a partition function without return", found="return")


def records_per_warp(ks: KernelScopes, names: Iterable[str], iterations: int, calibrate: bool = True,
                     every: int = 1) -> int:
    """The most records one sampled warp writes in a CTA's tile: two per region instance per iteration, two
    for the calibration region, two for the main loop of a tile-sampled run (``instrument(every=K)``; Proton's
    buffer must hold them all, or it drops the first ones)."""
    per: dict[int, int] = {}
    for n in names:
        if loop_partition(n) is not None:          # a loop run: two records a tile
            per[loop_partition(n)] = per.get(loop_partition(n), 0) + 2
            continue
        s = ks.by_name[n]
        per[s.partition] = per.get(s.partition, 0) + 2 * s.instances * iterations
    return max(per.values(), default=0) + (2 if calibrate else 0) + (2 if every > 1 else 0)


def shared_records_per_warp(max_shared: int, shared_used: int, segments: int) -> int:
    """Records each sampled warp's segment of Proton's shared buffer holds (Triton 3.6's
    ``ConvertProtonToProtonGPU``: the shared memory left over, split among the sampled warps, rounded
    to a power of two and halved).

    Examples
    --------
    >>> shared_records_per_warp(232448, 213260, 2)     # the GEMM: 19 KB left, two warps sampled
    1024
    """
    left = (max_shared - (-(-shared_used // RECORD_BYTES) * RECORD_BYTES)) // max(1, segments)
    return ((1 << left.bit_length()) // 2) // RECORD_BYTES if left > 0 else 0


def buffer_for(ks: KernelScopes, names: Iterable[str], iterations: int, capacity: Any,
               shared: bool = True, every: int = 1) -> tuple[str, int]:
    """Proton's ``(buffer_type, buffer_size)`` for a run: with ``shared``, its shared buffer when it holds
    every record of a sampled warp (``capacity(sampled partitions)`` records); else a global buffer that
    does (a power of two bytes per sampled warp, as Proton requires). Compiled for sm_90, the shared
    buffer's bookkeeping costs registers in every partition: the FA forward's consumers (240 registers,
    ~234 needed) then spill 4-8 values per iteration in their wgmma loops whichever partition records,
    where with the global buffer they spill none (``bench/gluon_profile.py --buffer``).

    Examples
    --------
    >>> buffer_for(ks, ks.names(), 32, lambda n: 2048)       # doctest: +SKIP
    ('shared', 0)
    """
    names = list(names)
    n = len(ks.sampled(names))
    want = records_per_warp(ks, names, iterations, every=every)
    if shared and want <= capacity(n):
        return "shared", 0
    return "global", n * (1 << max(10, (want * RECORD_BYTES - 1).bit_length()))


def plan_runs(ks: KernelScopes, names: Iterable[str] | None, per_run: int, iterations: int,
              capacity: Any) -> list[tuple[str, ...]]:
    """Disjoint subsets of the regions, one per run, each at most ``per_run`` regions and each within
    ``capacity(number of sampled partitions)`` records per warp. Regions are dealt out in program order,
    one to each run in turn, so that no run times two neighbours (their records would sit back to back)
    and each run spreads over the partitions.

    Examples
    --------
    >>> plan_runs(ks, None, 4, 32, lambda n: 2048)            # doctest: +SKIP
    [('p0:wait:k_ready', 'p0:sfu0_p0', ...), ...]
    """
    order = list(ks.names()) if names is None else [n for n in ks.names() if n in set(names)]
    if not order:
        return []
    k = -(-len(order) // max(1, per_run))
    while True:
        runs = [tuple(order[j::k]) for j in range(k)]
        if all(records_per_warp(ks, r, iterations) <= capacity(len(ks.sampled(r))) for r in runs):
            return runs
        if k >= len(order):
            raise InputError("a region alone overflows Proton's buffer", where=ks.kernel,
                             expected=f"at most {capacity(1)} records per warp",
                             found=f"{max(records_per_warp(ks, (n,), iterations) for n in order)}",
                             hint="trace a smaller problem (fewer loop iterations) or use a global buffer")
        k += 1


def load_source(source: str, directory: str, stem: str) -> Any:
    """``source`` written to ``directory``/``stem``.py and imported (Gluon reads a kernel's source from its file)."""
    path = Path(directory) / f"{stem}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(stem, path)
    mod = importlib.util.module_from_spec(spec)                       # type: ignore[arg-type]
    sys.modules[stem] = mod
    spec.loader.exec_module(mod)                                      # type: ignore[union-attr]
    return mod


def compile_instrumented(source: str, kernel: Mapping[str, Any], sm: int = 90, max_shared: int = H200_SHARED,
                         sampling: str = "0", buffer_type: str = "shared", buffer_size: int = 0) -> Any:
    """Compile an (instrumented) generated kernel without a GPU, Proton's lowering on: the
    ``CompiledKernel``. ``kernel`` is ``gluon.json``'s ``gluon.kernel`` (name, signature, warps,
    registers). A CompileError line when Triton rejects it."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    sig = dict(kernel["signature"])
    attrs = {(list(sig).index(n),): [["tt.divisibility", 16]] for n in kernel.get("divisible", [])}
    with tempfile.TemporaryDirectory(prefix="twill-gluon-prof-") as tmp:
        stem = f"twill_gluon_prof_{abs(hash(source)):x}"
        try:
            mod = load_source(source, tmp, stem)
            src = GluonASTSource(fn=getattr(mod, kernel["kernel"]), signature=sig, constexprs={}, attrs=attrs)
            with offline_instrumentation(max_shared, sampling=sampling, buffer_type=buffer_type,
                                         buffer_size=buffer_size):
                opts = {"num_warps": kernel["num_warps"], "maxnreg": kernel["maxnreg"],
                        "instrumentation_mode": triton.knobs.compilation.instrumentation_mode}
                return triton.compile(src, target=GPUTarget("cuda", sm, 32), options=opts)
        except Exception as e:   # noqa: BLE001 - Triton's errors come in many types: one line
            msg = str(e).strip().splitlines()
            raise CompileError(f"instrumented Gluon kernel does not compile: {msg[-1] if msg else type(e).__name__}",
                               where=kernel.get("kernel", "kernel_gluon.py")) from None
        finally:
            sys.modules.pop(stem, None)
