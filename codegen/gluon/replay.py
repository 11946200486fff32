"""A timed replay of a generated kernel: what its partitions do to each other, with a cost for every op.

The modulo schedule prices the loop as the solver sees it: ops at their starts, units within capacity. The
kernel twill writes adds what the schedule does not price: a partition waits at a turn barrier for the other
consumer's wgmmas, a ``warpgroup_mma_wait`` retires every earlier wgmma of the partition, a ring slot is
released only when every reader arrived. This module runs the generated source itself, as
``protocol.py`` does (plain Python, the Gluon calls replaced by recorders), and records each partition's
sequence of lines and barrier, wgmma and TMA events; the sequences are then replayed together on a small
model of the SM:

- a line tagged with a graph node (``# node: stage s, partition p``) costs that node's cycles, shared
  equally among the node's lines in the partition (``Costs.node``);
- a node on the SM's ALU or MUFU (``Costs.units``, the model's costs) is work on a unit every partition shares at
  equal rates: two consumers' softmaxes at once each take twice as long (``SHARED_UNITS``; session 60: on the 13
  kernels with loop runs, every multi-partition replay it changed came closer, none farther);
- ``warpgroup_mma`` costs the partition ``Costs.issue`` cycles and queues the dot on the tensor core, one
  first-come first-served server that runs it for ``Costs.tensor`` cycles;
- ``warpgroup_mma_wait(n)`` blocks until at most ``n`` of the partition's wgmmas are unfinished (they
  retire in issue order);
- ``mbarrier.wait`` blocks until the phase completes; an arrive costs ``Costs.arrive`` cycles (Gluon 3.6
  lowers it to a 128-thread ``bar.sync`` and one thread's arrive); a TMA copy arrives on its barrier
  ``Costs.load`` cycles after it is issued;
- an atomic call on a line whose node the costs do not price (a reducer partition's rows: the graph's store node is
  the consumers', who store the partials to shared memory) costs ``Costs.atomic`` cycles: the adds of a row of 512 B
  back-pressure the issuing warp (run 208, H100: 46 cycles a row for the FA backward's reducer, 69 for its producer);
- with ``Costs.smem_rate`` (bytes per cycle; 0: not modelled), shared memory is a port of that bandwidth. A
  wgmma reads its operands there while it runs (its shared-memory A tile, and its B tile once per warp group of
  the partition), first: it ends no sooner than they are read at the full rate. Stores from registers and TMA
  copies' landings write there with what the wgmmas leave, in order (``_Sim.write``): a store holds its partition
  until it is written, a copy's barrier completes once its bytes are. On the H200 a 64 x 64 x 16 wgmma with both
  operands in shared memory reads 128 B a clock at the tensor core's rate: the FA backward's small dots leave the
  port little for its stores and copies (run 141: 386 KB an iteration, 3088 cycles at 128 B a clock, for 2560
  cycles of tensor-core work).

Events run in time order: a partition a wait carries past the others' time yields to them first, so the tensor
core and the shared units serve whoever comes first.

The replay's steady period per partition (the median time between two starts of its innermost loop) is the
predicted cycles per iteration of *this kernel*: with the model's costs (``model_costs``) it shows what
the protocol adds to the schedule's II; with the costs measured per node in a Proton profile
(``measured_costs``) it shows how much of the measured time the op costs explain, and the rest is what the
replay does not model. Imports no solver and needs no GPU.
"""
from __future__ import annotations

import heapq
import math
import re
import statistics
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

from codegen.gluon.layouts import GL_DTYPE
from codegen.gluon.protocol import (ANY, Barrier, ProtocolError, Recorder, SharedArray, Slot, TensorValue, Unsimulated,
                                    any_call, device_source, integer_arguments, launch)
from twill.ir.ttgir import type_info

TAG = re.compile(r"#\s*([A-Za-z_]\w*): stage (\d+), partition (\d+)")
LOOP = re.compile(r"^(\s+)for \w+ in range\(")
DEF = re.compile(r"^def (\w+)\(")
ALLOC = re.compile(r"gl\.allocate_shared_memory\(\s*gl\.(\w+),\s*\[([\d,\s]+)\]")
NUM_WARPS = re.compile(r"^NUM_WARPS\s*=\s*(\d+)", re.M)
ASSIGN = re.compile(r"^\s*([A-Za-z_][\w\s,]*?)\s*=(?!=)(.*)$")      # ``x, y = rhs``: the names it reads are the rhs's
NAME = re.compile(r"[A-Za-z_]\w*")
# what an assignment's right side may call and still be dropped by the compiler when no live line reads its names
EFFECT = re.compile(r"atomic|mma|mbarrier|\.store\(|tma|async_copy|fence|barrier|allocate|print|assert")
# a Gluon element type's bytes (``gl.float16``: 2), from the TTGIR types the back end writes them for
ELEMENT_BYTES = {g.removeprefix("gl."): type_info(t).bytes for t, g in GL_DTYPE.items()}
# the units every partition's warps share, each SM sub-partition's ALU and MUFU: a node's cycles there are at the whole
# unit's rate, which two partitions computing at once split (the tensor core is a server of its own)
SHARED_UNITS = ("alu", "sfu")
UNIT_TURN = "unit:"    # ``Replay.blocked``'s kind for a partition's time on a shared unit beyond its own work: it computes


@dataclass(frozen=True)
class Costs:
    """Cycles per op: ``node[n]`` what node n's lines cost the partition issuing them (per iteration, all
    its lines together), ``tensor[n]`` how long dot n occupies the tensor core, ``issue[n]`` what issuing
    it costs its partition, ``load[n]`` the cycles from a TMA copy's issue to its arrival, ``arrive`` one
    mbarrier arrive, ``line`` any other line of a loop (index and phase arithmetic)."""

    node: Mapping[str, float]
    tensor: Mapping[str, float]
    issue: Mapping[str, float]
    load: Mapping[str, float]
    arrive: float = 0.0
    line: float = 0.0
    source: str = "model"
    smem_rate: float = 0.0
    # node -> the unit of ``SHARED_UNITS`` its cycles occupy at the unit's whole rate (the model's costs); none for
    # measured and calibrated costs: timed in the kernel, they hold the other partitions' share of the unit already
    units: Mapping[str, str] = field(default_factory=dict)
    # a pointer load a partition issues itself (``gl.load``): its cycles from issue to its registers' readiness, which
    # its first reader waits out (``ready``), and what its lines cost the partition meanwhile (``issued``; a node not
    # named: its ``node`` cycles); a pointer load a producer copies with cp.async keeps its ``node`` cycles
    ready: Mapping[str, float] = field(default_factory=dict)
    issued: Mapping[str, float] = field(default_factory=dict)
    # a pointer load a partition issues itself: the cycles its bytes take through the SM's global-load path (its
    # reservation of the ``lsu`` unit), which the partitions' own loads share one after another: its registers are
    # ready no sooner than the transfers before it and its own are done (rtp-llm's gate GEMM, session 91: two 32 KB
    # loads an iteration had replayed at 256 cycles, the conversions alone, the schedule's II 2560)
    transfer: Mapping[str, float] = field(default_factory=dict)
    # one atomic call (``gl.atomic_add``) of a line whose node has no cost of its own: a reducer's row, a partition the
    # graph does not hold (its store node is priced in the consumers that store the partials); 0: not modelled
    atomic: float = 0.0

    def nodes(self) -> frozenset[str]:
        """The graph nodes these costs price: the scheduled loop's."""
        return frozenset(self.node) | frozenset(self.tensor) | frozenset(self.issue) | frozenset(self.load)


@dataclass
class Replay:
    """The replay's result: per partition, its name, the times its innermost loop started, the steady
    period (median difference, cycles) and the cycles it spent blocked per kind of wait."""

    names: list[str]
    starts: list[list[float]]
    blocked: list[dict[str, float]] = field(default_factory=list)
    end: float = 0.0
    blocked_at: list[list[dict[str, float]]] = field(default_factory=list)   # per partition: ``blocked`` at each start

    def period(self, p: int) -> float | None:
        d = [b - a for a, b in zip(self.starts[p], self.starts[p][1:])]
        return statistics.median(d) if d else None

    def periods(self) -> dict[str, float | None]:
        return {n: self.period(p) for p, n in enumerate(self.names)}

    def steady_blocked(self, p: int) -> dict[str, float]:
        """Partition p's cycles blocked per iteration by kind of wait: the median over the second half of its
        iterations (the steady state: the first ones wait for the pipeline to fill) of each iteration's
        increment, as ``period`` is the median of its start-to-start gaps (an iteration that spans the gap
        between two tiles, the other loops and the epilogue, counts once, not spread over the others)."""
        snaps = self.blocked_at[p] if p < len(self.blocked_at) else []
        if len(snaps) < 3:
            return {}
        half = snaps[len(snaps) // 2:]
        kinds = {k for s in half for k in s}
        out = {k: statistics.median(b.get(k, 0.0) - a.get(k, 0.0) for a, b in zip(half, half[1:])) for k in kinds}
        period, total = self.period(p), sum(out.values())
        if period is not None and total > period:   # iterations that vary (turns on a shared unit): the medians of
            out = {k: v * period / total for k, v in out.items()}   # the parts can sum past the whole's; scaled to it
        return {k: v for k, v in out.items() if v > 0}

    def iteration(self) -> float:
        """The kernel's cycles per iteration: the slowest partition's period (they run in lock step)."""
        return max((x for x in self.periods().values() if x is not None), default=0.0)


def _tags(text: str) -> dict[int, str]:
    return {i: m.group(1) for i, line in enumerate(text.splitlines(), 1) if (m := TAG.search(line))}


def _loops(text: str, nodes: frozenset[str] = frozenset()) -> dict[str, tuple[int, int]]:
    """Each function's scheduled loop: its header line and its body's last line. Of the function's innermost
    ``for`` loops, the one with the most lines tagged with the scheduled graph's ``nodes``, then with the most
    tagged lines, then the first: a kernel with several loops in sequence tags every loop's ops (online
    softmax's statistics loop, then its output loop), and the scheduled loop is the one whose nodes are the
    graph's (the profiler's rule, ``profiling.gluon._main_loop``)."""
    lines = text.splitlines()
    tags = _tags(text)
    spans: dict[str, list[tuple[int, int]]] = {}
    fn = None
    for i, line in enumerate(lines, 1):
        if (m := DEF.match(line)):
            fn = m.group(1)
        elif fn and (m := LOOP.match(line)):
            depth, end = len(m.group(1)), i
            for j in range(i, len(lines)):
                if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) <= depth:
                    break
                end = j + 1
            spans.setdefault(fn, []).append((i, end))
    out: dict[str, tuple[int, int]] = {}
    for fn, found in spans.items():
        inner = [(a, b) for a, b in found if not any(a < c <= b for c, _ in found)]

        def score(span: tuple[int, int]) -> tuple[int, int, int]:
            tagged = [tags[k] for k in range(span[0] + 1, span[1] + 1) if k in tags]
            return sum(t in nodes for t in tagged), len(tagged), -span[0]
        out[fn] = max(inner, key=score)
    return out


class _Tile:
    """Shared memory a wgmma reads or a store writes, for the port (``Costs.smem_rate``): an allocation used whole,
    a slice of one, or either transposed; its ``nbytes``."""

    def __init__(self, nbytes: int, dims: list[int], log: "_Events") -> None:
        self.nbytes, self.dims, self.log = nbytes, dims, log

    def permute(self, *a: Any) -> "_Tile":
        return self

    def slice(self, start: Any, size: int, dim: int = 0) -> "_Tile":
        dims = list(self.dims)
        whole = dims[dim] if 0 <= dim < len(dims) and dims[dim] else 1
        dims[dim] = size
        return _Tile(self.nbytes * int(size) // whole, dims, self.log)

    def store(self, *a: Any, **k: Any) -> None:
        self.log.events.append(("smem", self.nbytes))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return any_call


def nbytes(x: Any) -> int:
    """The shared-memory bytes an operand or a copy's target names (0: registers, or not known)."""
    if isinstance(x, _Tile):
        return x.nbytes
    if isinstance(x, Slot):
        return int(x.array.__dict__.get("slot_bytes", 0))
    if isinstance(x, SharedArray):
        return int(x.__dict__.get("whole_bytes", 0))
    return 0


class _Tee(list):
    """The recorder's own events (a ring slot's stores among them), each store also given to the replay."""

    def __init__(self, log: "_Events") -> None:
        super().__init__()
        self.log = log

    def append(self, e: Any) -> None:
        super().append(e)
        if e[0] == "write" and isinstance(e[1], Slot):
            self.log.events.append(("smem", nbytes(e[1])))


def dead_lines(lines: list[str]) -> set[int]:
    """The lines (1-based) of ``lines`` the compiler drops as dead code: assignments without side effects whose names
    no live line reads (the generator's unrolled copies leave some: ``m = gl.load(p)`` read only by a
    ``convert_layout`` nothing reads). Names are matched as text over the whole source, so a name read anywhere keeps
    every assignment to it live: what this calls dead is dead."""
    pure: dict[int, tuple[set[str], set[str]]] = {}
    live: set[str] = set()
    for i, raw in enumerate(lines, 1):
        code = raw.split("#")[0]
        m = ASSIGN.match(code)
        if m and not EFFECT.search(m.group(2)) and not code.lstrip().startswith(("def ", "for ", "if ", "while ")):
            pure[i] = (set(NAME.findall(m.group(1))), set(NAME.findall(m.group(2))))
        else:
            live |= set(NAME.findall(code))
    grew = True
    while grew:
        grew = False
        for i, (defs, reads) in list(pure.items()):
            if defs & live:
                live |= reads
                del pure[i]
                grew = True
    return set(pure)


class _Loaded(TensorValue):
    """A pointer load's value (``gl.load``'s result) in the replay: ``n`` names it in the ("ld", n) event of its load
    and the ("use", n) event of the first line that reads it (under any name: the pipeline's ``x_p1 = x`` moves it)."""

    def __init__(self, n: int) -> None:
        self.n, self.used = n, False


class _Events:
    """The recorder of one partition's events at a time (``events``, replaced per partition): the
    namespace overrides that log barrier, TMA and wgmma calls, and the line tracer. ``groups``: the warp groups of
    the partition running (each reads a wgmma's B tile)."""

    def __init__(self, mbarrier: type) -> None:
        self.events: list[tuple] = []
        self.groups = 1
        self.lines: list[str] = []               # the device source the tracer's line numbers refer to
        self.read_at: dict[int, tuple[str, ...]] = {}
        self.dead: set[int] = set()              # lines the compiler drops (``dead_lines``): their reads wait for nothing
        self.loads = 0
        self.line = 0                            # the line running
        log = self

        class Mbarrier(mbarrier):            # type: ignore[misc, valid-type]
            @staticmethod
            def arrive(bar: Barrier, pred: Any = True, count: int = 1) -> None:
                if pred:         # every thread at once (a tile copied through registers): timed as cp.async's arrivals
                    log.events.append(("arrive", bar) if count == 1 else ("copy", bar, "threads"))

            @staticmethod
            def wait(bar: Barrier, parity: int, *a: Any, **k: Any) -> None:
                if not isinstance(parity, int):
                    raise Unsimulated("a barrier parity computed from a tensor value")
                log.events.append(("wait", bar, parity & 1))

        class Tma:
            @staticmethod
            def async_copy_global_to_shared(desc: Any, coord: Any, bar: Barrier, buf: Any, pred: Any = True) -> None:
                if pred:
                    log.events.append(("copy", bar, "tma", nbytes(buf)))

            async_load = async_copy_global_to_shared     # its name from Triton 3.7 on (``codegen.gluon.api``)

            def __getattr__(self, name: str) -> Any:
                return any_call

        class AsyncCopy:
            @staticmethod
            def mbarrier_arrive(bar: Barrier, increment_count: bool = True) -> None:
                log.events.append(("copy", bar, "threads"))   # every thread's arrival, once its copies land

            def __getattr__(self, name: str) -> Any:
                return any_call

        self.overrides = {"mbarrier": Mbarrier, "tma": Tma(), "async_copy": AsyncCopy(), "warpgroup_mma": self.mma,
                          "warpgroup_mma_wait": self.mma_wait}

    def mma(self, *a: Any, **k: Any) -> Any:
        """A wgmma, with the shared-memory bytes it reads: its A tile where that is in shared memory, its B tile once
        per warp group."""
        self.events.append(("mma", (nbytes(a[0]) if a else 0) + (nbytes(a[1]) * self.groups if len(a) > 1 else 0)))
        return ANY

    def sized(self, arr: Any, lines: list[str], line: int) -> Any:
        """An allocation (``Recorder.allocated``) given its bytes (per slot and whole) from its source line, and
        views that the port counts."""
        m = ALLOC.search(lines[line - 1]) if isinstance(arr, SharedArray) and 0 < line <= len(lines) else None
        if m is None:
            return arr
        dims = [int(x) for x in m.group(2).replace(" ", "").split(",") if x]
        elem = ELEMENT_BYTES.get(m.group(1), 0)
        arr.whole_bytes, arr.slot_bytes = math.prod(dims) * elem, math.prod(dims[1:]) * elem
        tile = _Tile(arr.whole_bytes, dims, self)
        arr.permute, arr.slice, arr.store = tile.permute, tile.slice, tile.store
        return arr

    def mma_wait(self, n: int, deps: tuple[Any, ...] = ()) -> Any:
        self.events.append(("mma_wait", int(n)))
        return ANY if len(deps) == 1 else tuple(ANY for _ in deps)

    def load(self, *a: Any, **k: Any) -> _Loaded:
        """``gl.load``: a value whose first reader waits for it (``Costs.ready``); read on its own line where the line
        does more than name it (``buf.store(gl.load(p))``: a tile copied through registers)."""
        self.loads += 1
        v = _Loaded(self.loads)
        self.events.append(("ld", v.n))
        code = self.lines[self.line - 1].split("#")[0] if 0 < self.line <= len(self.lines) else ""
        m = ASSIGN.match(code)
        if self.line not in self.dead and not (m and re.fullmatch(r"gl\.load\([^()]*(\([^()]*\)[^()]*)*\)",
                                                                      m.group(2).strip())):
            v.used = True
            self.events.append(("use", v.n))
        return v

    def atomic(self, *a: Any, **k: Any) -> Any:
        """``gl.atomic_add`` (any atomic): one ("atomic",) event, what the partition issues to L2."""
        self.events.append(("atomic",))
        return ANY

    def reads(self, n: int) -> tuple[str, ...]:
        """The names line ``n`` reads: an assignment's right side (none where it only moves a value: ``x_p1 = x``),
        else the whole line; comments left out."""
        if n not in self.read_at:
            code = self.lines[n - 1].split("#")[0] if 0 < n <= len(self.lines) else ""
            m = ASSIGN.match(code)
            rhs = m.group(2) if m else code
            self.read_at[n] = () if m and NAME.fullmatch(rhs.strip()) else tuple(sorted(set(NAME.findall(rhs))))
        return self.read_at[n]

    def tracer(self, frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != "<kernel_gluon>":
            return None
        if event == "line":
            self.line = frame.f_lineno
            names = self.reads(frame.f_lineno)
            if names and self.loads and frame.f_lineno not in self.dead:
                local = frame.f_locals
                for x in names:
                    v = local.get(x)
                    if isinstance(v, _Loaded) and not v.used:
                        v.used = True
                        self.events.append(("use", v.n))
            self.events.append(("line", frame.f_lineno))
        return self.tracer

    def run(self, fn: Any, args: Any) -> list[tuple]:
        """``fn(*args)`` traced: the events it produced."""
        self.events = []
        old = sys.gettrace()
        sys.settrace(self.tracer)
        try:
            fn(*args)
        finally:
            sys.settrace(old)
        return self.events


def record(source: str, scalars: dict[str, int]) -> tuple[list[list[tuple]], list[Barrier], list[str], str]:
    """Each partition's events in order: ("line", n), ("wait", bar, parity), ("arrive", bar), ("atomic",),
    ("copy", bar, "tma", bytes) (a TMA copy arriving on bar; ("copy", bar, "threads"): a cp.async producer's threads),
    ("mma", bytes) (bytes: what it reads from shared memory), ("mma_wait", n), ("smem", bytes) (a store to shared
    memory); every barrier; the partitions'
    names; the device source the line numbers refer to."""
    text = device_source(source)
    rec = Recorder()
    ns = rec.namespace()
    log = _Events(ns["mbarrier"])
    ns.update(log.overrides)
    log.lines = text.splitlines()
    log.dead = dead_lines(log.lines)

    class Gl(type(ns["gl"])):                # type: ignore[misc]
        load = staticmethod(log.load)
        atomic_add = atomic_max = atomic_min = atomic_and = atomic_or = atomic_xor = atomic_xchg = atomic_cas = \
            staticmethod(log.atomic)
    ns["gl"] = Gl()
    allocated = rec.allocated
    rec.allocated = lambda shape, layout, line: log.sized(allocated(shape, layout, line), rec.lines, line)  # type: ignore
    bars = launch(text, ns, rec, scalars)
    rec.events = _Tee(log)
    m = NUM_WARPS.search(source)
    warps = [int(m.group(1)) if m else 4] + list(rec.warps[1:])
    out = []
    for p, (fn, a) in enumerate(rec.partitions):
        log.groups = max(1, (warps[p] if p < len(warps) else 4) // 4)
        out.append(log.run(fn, a))
    return out, bars, [fn.__name__ for fn, _ in rec.partitions], text


def replay(source: str, signature: dict[str, str], costs: Costs, iterations: int = 24) -> Replay:
    """Run the kernel's partitions together for ``iterations`` loop trips per tile (three tiles in one
    program for a persistent kernel, as the protocol check does); raise ``ProtocolError`` on a deadlock.
    A loop whose trip count follows the tile's program id (causal attention's blocks before the diagonal run
    0, 1, 2 trips in tiles 0, 1, 2) would leave the replay's period the gaps between tiles: where the first
    partition's loop starts fewer than ``iterations`` times, the program runs ``iterations`` tiles along axis 0."""
    scalars = integer_arguments(signature, source)(iterations)
    traces, bars, names, text = record(source, scalars)
    head = _loops(text, costs.nodes()).get(names[0], (0, 0))[0] if names else 0
    if "twill_g0" in scalars and sum(e == ("line", head) for e in traces[0]) < iterations:
        scalars["twill_g0"] = type(scalars["twill_g0"])(iterations)
        traces, bars, names, text = record(source, scalars)
    return _Sim(traces, bars, names, text, costs).run()


def atomic_calls(source: str, signature: dict[str, str], nodes: frozenset[str],
                 iterations: int = 24) -> dict[tuple[int, str], float]:
    """(partition, node) -> the atomic calls per trip of the partition's scheduled loop (``_loops``) of the node's
    lines in that loop, for the nodes not among ``nodes`` (the graph's): what ``Costs.atomic`` prices (a reducer's rows;
    a producer's adds some iterations behind its loads count over every trip, as a profile's region does)."""
    traces, _, names, text = record(source, integer_arguments(signature, source)(iterations))
    tags, loops = _tags(text), _loops(text, nodes)
    out: dict[tuple[int, str], float] = {}
    for p, ev in enumerate(traces):
        head, end = loops.get(names[p], (0, -1))
        lines = [e[1] for e in ev if e[0] == "line"]
        starts = sum(1 for a, b in zip(lines, lines[1:]) if a == head and head < b <= end)   # not the exits' tests
        counts: dict[str, int] = {}
        line = 0
        for e in ev:
            if e[0] == "line":
                line = e[1]
            elif e[0] == "atomic" and head <= line <= end and tags.get(line) not in nodes | {None}:
                counts[tags[line]] = counts.get(tags[line], 0) + 1
        out.update({(p, n): c / starts for n, c in counts.items() if starts})
    return out


class _Unit:
    """A unit of the SM that every partition's warps share (``SHARED_UNITS``): the jobs on it progress at equal rates
    (processor sharing). ``jobs``: each job's cycles left on the unit alone; ``at``: when they were counted."""

    def __init__(self) -> None:
        self.jobs: dict[int, float] = {}
        self.at = 0.0
        self.version = 0

    def advance(self, t: float) -> None:
        if self.jobs and t > self.at:
            d = (t - self.at) / len(self.jobs)
            for k in self.jobs:
                self.jobs[k] -= d
        self.at = max(self.at, t)

    def next_done(self) -> float | None:
        return self.at + min(self.jobs.values()) * len(self.jobs) if self.jobs else None


class _Sim:
    """The replay's state: per partition its position, time, wgmmas in flight and loop starts; per barrier
    its phases' completion times and waiters; the tensor core's next free cycle; the shared units' jobs; the event
    heap, run in time order."""

    def __init__(self, traces: list[list[tuple]], bars: list[Barrier], names: list[str], text: str,
                 costs: Costs) -> None:
        self.traces, self.names, self.costs = traces, names, costs
        self.tags = _tags(text)
        loops = _loops(text, costs.nodes())
        # a node's cost is per iteration: shared among its lines in the partition's loop (all its lines
        # when it has none there: a prologue or drain op)
        span = [loops.get(n, (0, -1)) for n in names]
        self.lines_of: dict[tuple[int, str], int] = {}
        for p, ev in enumerate(traces):
            seen = {e[1] for e in ev if e[0] == "line" and e[1] in self.tags}
            inside = {ln for ln in seen if span[p][0] <= ln <= span[p][1]}
            for ln in inside or seen:
                self.lines_of[(p, self.tags[ln])] = self.lines_of.get((p, self.tags[ln]), 0) + 1
            for ln in seen - inside:
                self.lines_of.setdefault((p, self.tags[ln]), sum(1 for x in seen if self.tags[x] == self.tags[ln]))
        self.loop_line = [s[0] or None for s in span]
        # per partition, the pointer loads it issues itself (a line of the node, then its ``gl.load``)
        self.issues_loads: list[set[str]] = []
        self.loads_of: dict[tuple[int, str], int] = {}    # a node's ``gl.load`` lines: its transfer shared among them
        for p, ev in enumerate(traces):
            own, last, at = set(), None, {}
            for e in ev:
                if e[0] == "line":
                    last, line = self.tags.get(e[1]), e[1]
                elif e[0] == "ld" and last is not None:
                    own.add(last)
                    at.setdefault(last, set()).add(line)
            self.issues_loads.append(own & set(costs.ready))
            for node, lines in at.items():
                inside = {ln for ln in lines if span[p][0] <= ln <= span[p][1]}
                self.loads_of[(p, node)] = len(inside or lines)
        self.lsu_free = 0.0          # when the partitions' own pointer loads issued so far have their bytes
        self.ready: dict[int, float] = {}       # a ``gl.load``'s value: when its registers are ready
        for b in bars:
            b.phase, b.arrived = 0, []
        self.done_at: dict[int, list[float]] = {id(b): [] for b in bars}
        self.waiters: dict[int, list[int]] = {id(b): [] for b in bars}
        n = len(traces)
        self.pos, self.now = [0] * n, [0.0] * n
        self.inflight: list[list[float]] = [[] for _ in range(n)]
        self.starts: list[list[float]] = [[] for _ in range(n)]
        self.blocked: list[dict[str, float]] = [{} for _ in range(n)]
        self.blocked_at: list[list[dict[str, float]]] = [[] for _ in range(n)]
        self.last_node: list[str | None] = [None] * n
        self.tc_free = 0.0
        self.reads: list[tuple[float, float, float]] = []     # the wgmmas' operand reads: start, end, bytes a cycle
        self.write_free = 0.0                                 # when the port has written every store and copy so far
        self.read_lo = 0                                      # the first read not over by ``write_free``
        self.heap: list[tuple[float, int, str, Any]] = []
        self.seq = 0
        self.clock = 0.0                                      # the time of the event being run
        self.units = {u: _Unit() for u in SHARED_UNITS}
        self.job_start: dict[int, tuple[float, float]] = {}   # a partition on a shared unit: its start, its cycles alone

    def push(self, t: float, kind: str, what: Any) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (t, self.seq, kind, what))

    def arrive(self, b: Barrier, t: float, who: str) -> None:
        b.arrived.append(who)
        if len(b.arrived) == b.count:
            b.phase += 1
            b.arrived = []
            self.done_at[id(b)].append(t)
            for q in self.waiters[id(b)]:
                self.push(t, "part", q)
            self.waiters[id(b)] = []

    def block(self, p: int, kind: str, until: float) -> None:
        if until > self.now[p]:
            self.blocked[p][kind] = self.blocked[p].get(kind, 0.0) + until - self.now[p]
            self.now[p] = until

    def run(self) -> Replay:
        for p in range(len(self.traces)):
            self.push(0.0, "part", p)
        while self.heap:
            t, _, kind, what = heapq.heappop(self.heap)
            self.clock = t
            if kind == "copy":
                self.arrive(what, t, "tma")
                continue
            if kind == "copies":                 # cp.async: the producer's threads all arrive together
                for _ in range(what.count - len(what.arrived)):
                    self.arrive(what, t, "cp.async")
                continue
            if kind == "unit":
                self.unit_done(t, *what)
                continue
            if not self._parked(what):     # a partition woken at a barrier's arrival is charged the wait by block()
                self.now[what] = max(self.now[what], t)
            self.advance(what)
        stuck = [self.names[p] for p, ev in enumerate(self.traces) if self.pos[p] < len(ev)]
        if stuck:
            raise ProtocolError("deadlock in the replay: " + ", ".join(stuck) + " never resume")
        return Replay(self.names, self.starts, self.blocked, max(self.now, default=0.0), self.blocked_at)

    def _parked(self, p: int) -> bool:
        ev = self.traces[p]
        return self.pos[p] < len(ev) and ev[self.pos[p]][0] == "wait"

    def advance(self, p: int) -> None:
        """Partition p runs on until it blocks on a barrier, queues on a shared unit or spends cycles (then it queues
        again)."""
        ev = self.traces[p]
        while self.pos[p] < len(ev):
            if self.now[p] > self.clock:     # a wait took it past the others' time: they catch up first (in time order,
                self.push(self.now[p], "part", p)    # the tensor core and the units serve whoever comes first)
                return
            e = ev[self.pos[p]]
            if e[0] == "wait":
                b = e[1]
                if not b.passes(e[2]):
                    if p not in self.waiters[id(b)]:
                        self.waiters[id(b)].append(p)
                    return
                # passing, the phase it needed is the last completed one (an older one would fail the parity)
                self.block(p, "wait:" + b.name.split("[")[0], self.done_at[id(b)][-1] if self.done_at[id(b)] else 0.0)
                self.pos[p] += 1
                continue
            self.pos[p] += 1
            cost = self.cost(p, e)
            if cost is None:                                # on a shared unit: its end resumes it
                return
            if cost:
                self.now[p] += cost
                self.push(self.now[p], "part", p)           # the others catch up to this time first
                return

    def write(self, t: float, nbytes: float) -> float:
        """When ``nbytes`` written to shared memory from time ``t`` are done: after the writes before them, at the port's
        rate less what the wgmmas reserved so far read at each moment."""
        rate, at, left = self.costs.smem_rate, max(t, self.write_free), float(nbytes)
        while self.read_lo < len(self.reads) and self.reads[self.read_lo][1] <= self.write_free:
            self.read_lo += 1                            # reads over before every write so far: none to come needs them
        for a, b, r in self.reads[self.read_lo:]:
            if b <= at:
                continue
            if a > at:                                   # the port idle until this read
                if left <= (a - at) * rate:
                    break
                left -= (a - at) * rate
                at = a
            spare = rate - r
            if spare > 0 and left <= (b - at) * spare:
                at += left / spare
                left = 0.0
                break
            left -= max(0.0, (b - at) * spare)
            at = b
        self.write_free = at + left / rate
        return self.write_free

    def on_unit(self, p: int, unit: str, cycles: float) -> None:
        """Partition p starts ``cycles`` of work on a shared unit (``cycles``: its time on the unit alone)."""
        u = self.units[unit]
        u.advance(self.now[p])
        u.jobs[p] = cycles
        self.job_start[p] = (self.now[p], cycles)
        self._next(unit)

    def _next(self, unit: str) -> None:
        u = self.units[unit]
        u.version += 1
        if (t := u.next_done()) is not None:
            self.push(t, "unit", (unit, u.version))

    def unit_done(self, t: float, unit: str, version: int) -> None:
        """The shared unit's earliest job ends at t (an event a later start left behind is void); the partitions
        whose work is done resume, charged ``unit:<unit>`` for the time the others' work took from theirs."""
        u = self.units[unit]
        if version != u.version:
            return
        u.advance(t)
        least = min(u.jobs.values())                     # the job this event was for ends (rounding leaves it a sliver)
        for p in [k for k, left in u.jobs.items() if left <= max(least, 0.0) + 1e-9]:
            del u.jobs[p]
            start, alone = self.job_start.pop(p)
            self.now[p] = t
            if t - start > alone:
                kind = UNIT_TURN + unit
                self.blocked[p][kind] = self.blocked[p].get(kind, 0.0) + t - start - alone
            self.push(t, "part", p)
        self._next(unit)

    def cost(self, p: int, e: tuple) -> float | None:
        """What event e costs partition p, applying its effect on the barriers, the tensor core and the shared
        units (None: p waits for a unit to do the work)."""
        c = self.costs
        if e[0] == "line":
            if e[1] == self.loop_line[p]:
                self.starts[p].append(self.now[p])
                self.blocked_at[p].append(dict(self.blocked[p]))
            node = self.last_node[p] = self.tags.get(e[1])
            if node is None:
                return c.line
            cycles = (c.issued.get(node, 0.0) if node in self.issues_loads[p] else c.node.get(node, 0.0)) \
                / max(1, self.lines_of.get((p, node), 1))
            if cycles and c.units.get(node) in self.units:
                self.on_unit(p, c.units[node], cycles)
                return None
            return cycles
        if e[0] == "ld":
            node = self.last_node[p] or ""
            ready = self.now[p] + c.ready.get(node, 0.0)
            if c.transfer.get(node):
                self.lsu_free = max(self.now[p], self.lsu_free) + c.transfer[node] / self.loads_of.get((p, node), 1)
                ready = max(ready, self.lsu_free)
            self.ready[e[1]] = ready
            return 0.0
        if e[0] == "atomic":      # a node the costs price holds its atomics' cost; an untagged line is none's
            node = self.last_node[p]
            return c.atomic if node is not None and node not in c.node and node not in c.tensor else 0.0
        if e[0] == "use":
            self.block(p, "load", self.ready.get(e[1], 0.0))
            return 0.0
        if e[0] == "arrive":
            self.arrive(e[1], self.now[p] + c.arrive, self.names[p])
            return c.arrive
        if e[0] == "copy":
            land = self.now[p] + c.load.get(self.last_node[p] or "", 0.0)
            if e[2:3] == ("tma",) and c.smem_rate and e[3]:      # its bytes written as they arrive, the last at ``land``
                land = max(land, self.write(land - e[3] / c.smem_rate, e[3]))
            self.push(land, "copies" if e[2:3] == ("threads",) else "copy", e[1])
        elif e[0] == "smem":
            if c.smem_rate and e[1]:
                return self.write(self.now[p], e[1]) - self.now[p]
        elif e[0] == "mma":
            node = self.last_node[p] or ""
            start = max(self.now[p] + c.issue.get(node, 0.0), self.tc_free)
            end = start + c.tensor.get(node, 0.0)
            if c.smem_rate and len(e) > 1 and e[1]:
                end = max(end, start + e[1] / c.smem_rate)
                self.reads.append((start, end, e[1] / (end - start)))
            self.tc_free = end
            self.inflight[p].append(self.tc_free)
            return c.issue.get(node, 0.0)
        elif e[0] == "mma_wait":
            while len(self.inflight[p]) > e[1]:
                self.block(p, "wgmma", self.inflight[p].pop(0))
        return 0.0


def model_costs(graph: Mapping[str, Any], unit: float, issue: float, smem_rate: float = 0.0,
                load_wait: float = 1.0, atomic: float = 0.0) -> Costs:
    """The costs the solver used (``graph``: the schedule's normalised graph as gluon.json holds it, its
    cycles in units of ``unit`` cycles): every node its cycles; a dot its cycles on the tensor core and
    ``issue`` cycles (the machine file's measured wgmma issue) to its partition; a TMA load its latency;
    a pointer load its cycles (its latency) times ``load_wait`` until its first reader may run (the machine file's
    ``pointer_load_wait``); shared memory a port of ``smem_rate`` bytes a cycle (0: not modelled); an atomic call
    of a partition the graph does not hold ``atomic`` cycles (0: not modelled)."""
    node, tensor, iss, load, units, ready, issued, transfer = {}, {}, {}, {}, {}, {}, {}, {}
    for n in graph["nodes"]:
        cyc = float(n.get("cycles") or 0) * unit
        attrs = dict(n.get("attrs") or {})
        if n["kind"] == "dot":
            tensor[n["id"]], iss[n["id"]] = cyc, issue
        elif n["kind"] == "tma_load":
            load[n["id"]] = float(attrs.get("latency_cycles") or 0)
        else:
            node[n["id"]] = cyc
            if n.get("unit"):
                units[n["id"]] = str(n["unit"])
            if n["kind"] == "load":       # issued by the partition that reads it: its cycles are its latency (a
                lat = cyc or float(attrs.get("latency_cycles") or 0)     # streaming one's, kept aside: its latency)
                ready[n["id"]], issued[n["id"]] = lat * load_wait, 0.0
                transfer[n["id"]] = sum(float(r["length"]) for r in n.get("rrt") or () if r.get("unit") == "lsu") * unit
    return Costs(node, tensor, iss, load, source="model", smem_rate=smem_rate, units=units, ready=ready,
                 issued=issued, atomic=atomic, transfer=transfer)


def measured_costs(graph: Mapping[str, Any], unit: float, profile: Mapping[str, Any], arrive: float = 0.0,
                   line: float = 0.0) -> Costs:
    """The model's costs with every node a Proton profile timed replaced by its measured cycles per
    iteration (the combined subset runs' net cycles: record cost subtracted): a dot's region is its issue,
    a TMA load's region its issue on the producer (its latency stays the model's)."""
    base = model_costs(graph, unit, 0.0)
    node, issue, issued = dict(base.node), dict(base.issue), dict(base.issued)
    for key, r in (profile.get("combined") or {}).get("regions", {}).items():
        n = r.get("node")
        if n is None:
            continue
        v = float(r["net_cycles_per_iteration"])
        (issue if n in base.tensor else node)[n] = v
        if n in issued:
            issued[n] = v
    return Costs(node, base.tensor, issue, base.load, arrive, line, source="measured", ready=base.ready, issued=issued)
