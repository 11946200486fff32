"""The generated kernel's barrier protocol, checked without a GPU.

A generated kernel's control flow does not depend on what its barriers hold: each partition's sequence
of barrier operations (inits, arrives, expects with their TMA copies, waits with their parity) is fixed
by the loop's trip count. So the source is executed as plain Python with the Gluon calls replaced by
recorders, once per partition, giving each partition's trace; the traces are then run together under
mbarrier semantics (a phase completes when ``count`` arrivals are in; ``wait(bar, p)`` passes once the
phase of parity ``p`` has completed). The check fails when the partitions deadlock (each one waiting on
a phase no one will complete: the hang a wrong ring release or turn order gives on the GPU), when a
barrier ends with arrivals of an incomplete phase (a release without its load), or when one partition
arrives twice in one phase of a barrier others share (a buffer released early: a race, not a hang).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from twill.util import sole_call


def trip_counts(stages: int, least: int | None = None) -> tuple[int, ...]:
    """Loop trip counts simulated for a pipeline of ``stages``: the fewest it runs (``least``; by default the
    bodies its prologue fills), every count below the pipelined loop's (``stages - 1``), one and two more,
    and a long loop (every ring slot reused with both parities)."""
    full = max(1, stages - 1)
    least = full if least is None else least
    return tuple(sorted({*range(least, full), full, full + 1, full + 2, full + 7}))


class Unsimulated(Exception):
    """The source's control flow depends on data (a tensor in a condition or a loop bound), or its loops run more
    iterations than one simulation runs (``ITERATION_CAP``)."""


class TensorValue:
    """Any tensor, layout or descriptor: every operation gives another; a condition on it is data-dependent."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return ANY

    def __call__(self, *a: Any, **k: Any) -> "TensorValue":
        return ANY

    def __getitem__(self, k: Any) -> "TensorValue":
        return ANY

    def __bool__(self) -> bool:
        raise Unsimulated("a condition on a tensor value")

    def __index__(self) -> int:
        raise Unsimulated("a loop bound or index computed from a tensor value")

    def __iter__(self) -> Any:
        raise Unsimulated("a tensor unpacked")

    def split(self, *a: Any) -> tuple["TensorValue", "TensorValue"]:
        """``x.split()`` or ``gl.split(x)``: the two halves of the last dimension (a row reduction's tree,
        ``ops.reduce``; ``tl.split`` in the kernel)."""
        return ANY, ANY

    def _op(self, *a: Any) -> "TensorValue":
        return ANY

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _op
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __neg__ = __and__ = __rand__ = _op
    __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = __invert__ = __lt__ = __le__ = _op
    __rlshift__ = __rrshift__ = __rpow__ = __pos__ = __abs__ = __matmul__ = __rmatmul__ = _op   # ``1 << y_rem``
    __gt__ = __ge__ = __eq__ = __ne__ = _op
    __hash__ = object.__hash__


ANY = TensorValue()


def any_call(*a: Any, **k: Any) -> TensorValue:
    return ANY


class _Int(int):
    """An integer argument or index: arithmetic on it stays an integer (loop bounds, ring slots, phases);
    what only a tensor has (``.to``, a layout) gives a tensor."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return ANY


def _int_op(name: str) -> Callable[..., Any]:
    base = getattr(int, name)

    def op(self: int, *a: Any) -> Any:
        try:
            r = base(self, *a)
        except ZeroDivisionError:   # a launch with no work (0 iterations) divides by 0 in a grouped tile order;
            return _Int(0)          # the GPU does not trap, and no barrier depends on that index
        return _Int(r) if type(r) is int else r
    return op


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__floordiv__",
              "__rfloordiv__", "__mod__", "__rmod__", "__and__", "__rand__", "__xor__", "__rxor__", "__or__",
              "__ror__", "__neg__", "__lshift__", "__rshift__"):
    setattr(_Int, _name, _int_op(_name))
MBARRIER = "mbarrier layout"


def _scalar(f: Callable[[int, int], int]) -> Callable[..., Any]:
    """A Gluon function on two integers computed (a loop bound), on tensors a tensor."""
    return lambda a, b, *r, **k: f(a, b) if isinstance(a, int) and isinstance(b, int) else ANY


@dataclass(eq=False)
class Barrier:
    """One mbarrier (a slot of an allocated barrier array)."""

    name: str
    count: int = 1
    phase: int = 0                   # phases completed
    arrived: list[str] = field(default_factory=list)   # partitions arrived in the current phase

    def passes(self, parity: int) -> bool:
        return (self.phase & 1) != parity


class BarrierArray:
    """An allocated array of barriers."""

    def __init__(self, n: int) -> None:
        self.n, self.slots = n, {}
        self.name = "?"

    def index(self, i: Any) -> Any:
        if not isinstance(i, int):
            raise Unsimulated("a barrier index computed from a tensor value")
        if not 0 <= i < self.n:
            raise ProtocolError(f"{self.name}.index({i}) outside its {self.n} slots")
        return self.slots.setdefault(i, Barrier(f"{self.name}[{i}]"))

    def __getattr__(self, name: str) -> Any:
        return any_call


class SharedArray:
    """An allocated array of shared buffers: its slots (``Slot``), whose copies, stores and loads are recorded for
    the check of a consumer's own cp.async copies (``copy_problems``)."""

    def __init__(self, n: int, rec: "Recorder") -> None:
        self.n, self.rec, self.name = n, rec, "?"
        self.copy_target = False        # the source copies into it with cp.async (where the launch allows)

    def index(self, i: Any) -> Any:
        if not isinstance(i, int):
            return ANY
        if not 0 <= i < self.n:
            raise ProtocolError(f"{self.name}.index({i}) outside its {self.n} slots")
        return Slot(self, i)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return any_call


class Slot(TensorValue):
    """One buffer of a ``SharedArray``: a load or store of it recorded; anything else a value."""

    def __init__(self, array: SharedArray, i: int) -> None:
        self.array, self.i = array, i

    def load(self, *a: Any, **k: Any) -> Any:
        self.array.rec.events.append(("read", self, 0))
        return ANY

    def store(self, *a: Any, **k: Any) -> None:
        self.array.rec.events.append(("write", self, 0))

    def permute(self, *a: Any) -> "Slot":
        """A transposed view: the same slot, for a wgmma that reads it (``mma`` events)."""
        return self

    @property
    def key(self) -> tuple[int, int]:
        return id(self.array), self.i

    def __str__(self) -> str:
        return f"{self.array.name}.index({self.i})"


class ProtocolError(Exception):
    """The barrier protocol is wrong: a deadlock, an unbalanced phase, a slot out of range."""


Event = tuple[str, Barrier, int]     # ("arrive" | "wait", barrier, parity) or ("threads", barrier, thread count)


class Recorder:
    """The Gluon names the source uses, recording one partition's barrier events."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.partitions: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self.locals: dict[str, Any] = {}
        self.lines: list[str] = []            # the simulated source's lines
        self.copy_targets: set[str] = set()   # the buffers it copies into with cp.async (through registers without)
        self.warps: list[int] = []        # each partition's warps (the default partition's left 0)
        self.trips: int | None = None     # the simulated trip count, for a loop whose bound is data
        self.flat = False                 # the source's scheduled loop is a flattened nest (``twill.ir.flatten``)
        self.iterations = 0               # loop iterations run so far, every partition's (``_counted``)

    def namespace(self) -> dict[str, Any]:
        rec = self

        class Mbarrier:
            MBarrierLayout = staticmethod(lambda: MBARRIER)

            @staticmethod
            def init(bar: Barrier, count: int) -> None:
                bar.count = count

            @staticmethod
            def expect(bar: Barrier, nbytes: Any) -> None:
                pass                 # the copy that follows completes the transaction: its arrival

            @staticmethod
            def arrive(bar: Barrier, pred: Any = True, count: int = 1) -> None:
                if pred:
                    rec.events.append(("arrive", bar, 0) if count == 1 else ("threads", bar, count))

            @staticmethod
            def wait(bar: Barrier, parity: int, *a: Any, **k: Any) -> None:
                if not isinstance(parity, int):
                    raise Unsimulated("a barrier parity computed from a tensor value")
                rec.events.append(("wait", bar, parity & 1))

        class Tma:
            @staticmethod
            def async_copy_global_to_shared(desc: Any, coord: Any, bar: Barrier, buf: Any, pred: Any = True) -> None:
                if pred:
                    rec.events.append(("arrive", bar, 0))

            async_load = async_copy_global_to_shared     # its name from Triton 3.7 on (``codegen.gluon.api``)

            def __getattr__(self, name: str) -> Any:
                return any_call

        class Gl(TensorValue):
            constexpr = staticmethod(lambda x=None: x)
            static_range = staticmethod(range)
            program_id = staticmethod(lambda axis: _Int(0))
            num_programs = staticmethod(lambda axis: 1)
            maximum = staticmethod(_scalar(max))
            minimum = staticmethod(_scalar(min))
            cdiv = staticmethod(_scalar(lambda a, b: -(-a // b)))
            reduce = staticmethod(lambda inputs, axis, fn: tuple(ANY for _ in inputs))   # one result per input
            # an integer's bits read as unsigned (codegen.gluon.ops' unsigned ops): a loop bound's stays its value;
            # a conversion (a scalar's, written gl.cast so that an argument specialised to 1 has one) is ``.to``'s
            # an i64 loop's trip count held in int32 (``kernel.int32_count``) keeps its value
            int32 = "int32"
            cast = staticmethod(lambda x, *a, bitcast=False, **k:
                                x if isinstance(x, int) and (bitcast or (a and isinstance(a[0], str)
                                                                         and a[0] == "int32")) else ANY)
            associative_scan = staticmethod(lambda inputs, axis, fn, reverse=False:
                                            tuple(ANY for _ in inputs) if isinstance(inputs, tuple) else ANY)

            @staticmethod
            def allocate_shared_memory(dtype: Any, shape: Any, layout: Any = None, value: Any = None) -> Any:
                import sys
                return rec.allocated(shape, layout, sys._getframe(1).f_lineno)

            @staticmethod
            def thread_barrier() -> None:
                rec.events.append(("sync", None, 0))

            barrier = thread_barrier     # its name in Triton 3.9 (``codegen.gluon.api``)

            @staticmethod
            def warp_specialize(parts: Any, *a: Any, **k: Any) -> None:
                import sys
                rec.locals = dict(sys._getframe(1).f_locals)
                rec.partitions = [(fn, tuple(args)) for fn, args in parts]
                rec.warps = [0] + [int(w) for w in (a[0] if a else [])]     # the default partition's: unused

        class Gluon:
            jit = staticmethod(lambda f=None, **k: f if f is not None else (lambda g: g))

        return {"gluon": Gluon, "gl": Gl(), "mbarrier": Mbarrier, "tma": Tma(), "warpgroup_mma": self.mma,
                "async_copy": _async_copy(rec), "libdevice": _Library(), "mma_v2": any_call, "tl": ANY,
                "warpgroup_mma_wait": self.mma_wait, "fence_async_shared": lambda: rec.events.append(("fence", None, 0)),
                "__name__": "twill_protocol", "range": self.range}

    def range(self, *a: Any) -> Any:
        """``range`` in the simulation; a loop whose bounds are data (a trip count loaded from memory: jagged offsets,
        a CSR row's range) runs the simulated trip count ``self.trips``, as ``twill_n`` does: its counter an integer
        from an integer start, else data (a barrier slot computed from it then stops the simulation)."""
        lo, hi, step = (0, a[0], 1) if len(a) == 1 else (a[0], a[1], a[2] if len(a) > 2 else 1)
        if self.trips is not None and isinstance(step, int) and any(isinstance(v, TensorValue) for v in (lo, hi)):
            if isinstance(lo, int):
                return self._counted(map(_Int, range(lo, lo + self.trips * step, step)))
            return self._counted(iter([ANY] * self.trips))
        return self._counted(map(_Int, range(*a)))

    def _counted(self, it: Iterator[Any]) -> Iterator[Any]:
        """``it``, its iterations counted over the whole simulation: past ``ITERATION_CAP`` (a nest kept around the
        scheduled loop whose outer loops run their bounds as set, each a multiple of the tile: a conv's filter loops,
        15 minutes and 6.7 GB before it was capped) it stops, the protocol not simulated."""
        for x in it:
            self.iterations += 1
            if self.iterations > ITERATION_CAP:
                raise Unsimulated(f"its loops run more than {ITERATION_CAP} iterations at the simulated sizes")
            yield x

    def trip_count(self, n: Any) -> Any:
        """A scheduled loop's ``twill_n``: as computed where it is an integer, else (from loaded values) the simulated
        trip count, so the pipelined loop and its barriers run, not only the branch for no iteration; the simulated
        count too where the loop is a flattened nest's (``twill.ir.flatten``) and the integer more than ``TRIP_CAP``
        times it (the product of two counts, each set to the simulated one: RoIAlign's 1176 x 1176 trips)."""
        if self.trips is not None and (isinstance(n, TensorValue) or self.flat and isinstance(n, int)
                                       and n > TRIP_CAP * max(1, self.trips)):
            return _Int(self.trips)
        return n

    def allocated(self, shape: Any, layout: Any, line: int) -> Any:
        """``gl.allocate_shared_memory`` at source line ``line``: barriers, or an array of slots named as the line
        assigns it (an allocation in a partition, before its loop, is no local of the kernel's)."""
        if layout is MBARRIER:
            return BarrierArray(shape[0] if shape else 1)
        if not (shape and isinstance(shape[0], int)):
            return ANY
        arr = SharedArray(shape[0], self)
        m = re.match(r"\s*(\w+) = gl\.allocate_shared_memory", self.lines[line - 1] if line <= len(self.lines) else "")
        arr.name = m.group(1) if m else "?"
        arr.copy_target = arr.name in self.copy_targets
        return arr

    def mma(self, a: Any, b: Any, *args: Any, **k: Any) -> Any:
        """A wgmma: the slots it reads (a consumer's own copies, ``AsyncTile.alloc``) held until a wait retires it."""
        self.events.append(("mma", [x for x in (a, b) if isinstance(x, Slot)], 0))
        return ANY

    def mma_wait(self, n: int, deps: tuple[Any, ...] = ()) -> Any:
        self.events.append(("mma_wait", None, int(n)))
        return ANY if len(deps) == 1 else tuple(ANY for _ in deps)


def _async_copy(rec: "Recorder") -> Any:
    """``async_copy`` in the simulation: a consumer's own copies, commit groups and waits recorded (``copy_problems``);
    a producer's thread arrivals once its copies land (``mbarrier_arrive``) as barrier events."""

    class AsyncCopy:
        @staticmethod
        def async_copy_global_to_shared(buf: Any, *a: Any, **k: Any) -> None:
            if isinstance(buf, Slot):      # a producer's arrival once its copies land is recorded below
                rec.events.append(("copy", buf, 0))

        async_load = async_copy_global_to_shared     # its name from Triton 3.7 on (``codegen.gluon.api``)

        @staticmethod
        def commit_group() -> None:
            rec.events.append(("commit", None, 0))

        @staticmethod
        def wait_group(n: int) -> None:
            rec.events.append(("wait_group", None, int(n)))

        @staticmethod
        def mbarrier_arrive(bar: Barrier, increment_count: bool = True) -> None:
            if increment_count:
                raise Unsimulated("a cp.async arrival that increments the barrier's count")
            rec.events.append(("threads", bar, 0))     # every thread of the partition arrives once (0: all)

        def __getattr__(self, name: str) -> Any:
            return any_call

    return AsyncCopy()


class _Library:
    """libdevice in the simulation: every function gives a value."""

    def __getattr__(self, name: str) -> Any:
        return any_call


def device_source(source: str) -> str:
    """The device part of a generated file: no imports (the recorder provides the names), no host side."""
    head = source.split("# -- host side", 1)[0]
    return re.sub(r"^(from triton[^\n]*(\n[ \t]+[^\n]*)*|import triton[^\n]*)", "", head, flags=re.M)


def launch(text: str, ns: dict[str, Any], rec: Recorder, scalars: dict[str, int]) -> list[Barrier]:
    """Run the device source ``text`` with the recorder's names ``ns`` up to its ``warp_specialize`` (the
    partitions are recorded in ``rec``, not run): every barrier it allocated, named."""
    ns[EITHER], ns[TILE_GUARD], ns[TRIP_COUNT] = _either, _FirstTileRuns(), rec.trip_count
    rec.trips = scalars.get(TRIPS)
    rec.flat = "twill_flat" in text
    code = _branches_taken(text)
    rec.lines = text.splitlines()          # the AST keeps the text's line numbers
    rec.copy_targets = set(re.findall(r"async_(?:copy_global_to_shared|load)\((\w+)\.index\(", text))
    exec(compile(code, "<kernel_gluon>", "exec"), ns)
    kernel = ns["twill_kernel"]
    args = [scalars.get(p, ANY) for p in kernel.__code__.co_varnames[:kernel.__code__.co_argcount]]
    single = _one_partition(text)
    if single is not None:          # one partition, called by the kernel itself (no producer): recorded, not run
        fn = ns[single]

        def one(*a: Any) -> None:
            import sys
            rec.locals, rec.partitions, rec.warps = dict(sys._getframe(1).f_locals), [(fn, a)], [0]
        ns[single] = one
    kernel(*args)
    if single is not None:
        ns[single] = fn
    bars: list[Barrier] = []
    for name, v in rec.locals.items():
        if isinstance(v, SharedArray):
            v.name = name
        if isinstance(v, BarrierArray):
            v.name = name
            for i, b in v.slots.items():
                b.name = f"{name}[{i}]"
                bars.append(b)
    return bars


EITHER = "twill_either"
TILE_GUARD = "twill_tile_guard"
ITERATION_CAP = 200_000            # loop iterations one simulation runs at most (``Recorder._counted``)
TRIP_CAP = 16                      # a scheduled loop's count simulated as asked above this many times it
TRIP_COUNT = "twill_trip_count"     # wraps each ``twill_n = ...`` of the source (``_branches_taken``)
TRIPS = "twill_trips"               # the simulated trip count among the scalars (``integer_arguments``)
# a wgmma wait is no event of the protocol (the simulation does not run the tensor core): an epilogue's branch that
# waits for the accumulator it stores (``partition._branch_wait``) is barrier-free
_BARRIER_NAMES = {"mbarrier", "tma", "async_copy", "warpgroup_mma", "fence_async_shared"}


def _either(cond: Any) -> bool:
    """An ``if`` holding no barrier operation: taken where its condition is known (an integer), not taken where
    it is data (a loaded label, a runtime flag compared in a tensor): the barriers run the same either way."""
    return False if isinstance(cond, TensorValue) else bool(cond)


class _FirstTileRuns:
    """A persistent kernel's early return taken per tile (``kernel.tile_guards``: ``if cond: <its branch> else:
    <the tile's work>``) in the simulation: not taken in a partition's first tile, whatever the program ids make of its
    condition (FLA's ``if i_i <= i_j`` holds for every tile of the simulation's program, which then ran no loop), and
    as its condition says in the next ones (a skipped tile's phases, carried to the next, are checked too). Each
    partition's guard has a line of its own, evaluated once a tile: every partition skips the same tiles."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def __call__(self, cond: Any) -> bool:
        import sys
        line = sys._getframe(1).f_lineno
        if line not in self.seen:
            self.seen.add(line)
            return False
        return _either(cond)


def _branches_taken(text: str) -> Any:
    """``text`` parsed, each ``if`` with no barrier operation inside it (the code the back end writes as it runs:
    an early return, a branch on a runtime flag, ``plain``) deciding by ``_either``: the protocol is the same
    on both sides, so a condition on data no longer stops the simulation. An early return (such an ``if`` ending
    in ``return``) is never taken, whatever its condition: the simulated program is one that runs the loop, not
    one the launch's program ids send home before any partition starts (FLA's ``if i_i <= i_j: return`` holds for
    program 0, and the simulation checked no partition at all)."""
    tree = ast.parse(text)

    def barrier_free(node: ast.AST) -> bool:
        for n in ast.walk(node):
            base = n.func if isinstance(n, ast.Call) else None
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in _BARRIER_NAMES:
                return False
        return True
    guards: set[int] = set()

    def tile_guards(body: list[ast.stmt]) -> None:      # the guards in a tile loop, each in the one before's else
        for g in body:
            if isinstance(g, ast.If) and g.orelse and all(barrier_free(b) for b in g.body):
                g.test = ast.Call(ast.Name(TILE_GUARD, ast.Load()), [g.test], [])
                guards.add(id(g))
                tile_guards(g.orelse)
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == "twill_tile":
            tile_guards(node.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["twill_n"]:
            node.value = ast.Call(ast.Name(TRIP_COUNT, ast.Load()), [node.value], [])
        # a flattened nest's count (``twill.ir.flatten``), from which every partition's loop bound, ``twill_n`` and
        # ring base advance derive: simulated as asked where it is the product of two simulated counts
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                re.fullmatch(r"twill_flat\d+_n_?", getattr(node.targets[0], "id", "") or ""):
            node.value = ast.Call(ast.Name(TRIP_COUNT, ast.Load()), [node.value], [])
    for node in ast.walk(tree):
        if (isinstance(node, ast.If) and id(node) not in guards
                and all(barrier_free(b) for b in node.body + node.orelse)):
            returns = isinstance(node.body[-1], ast.Return) and not node.orelse
            node.test = ast.Constant(False) if returns else ast.Call(ast.Name(EITHER, ast.Load()), [node.test], [])
    return ast.fix_missing_locations(tree)


def _one_partition(text: str) -> str | None:
    """The partition function a kernel with no ``gl.warp_specialize`` runs: the one module function its
    ``twill_kernel`` calls as a statement (the rule ``profiling.gluon`` reads partitions by); None otherwise."""
    tree = ast.parse(text)
    kernel = next((f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "twill_kernel"), None)
    if kernel is None or any(isinstance(n, ast.Attribute) and n.attr == "warp_specialize" for n in ast.walk(kernel)):
        return None
    return sole_call(tree, "twill_kernel")


def traces(source: str, scalars: dict[str, int]) -> tuple[list[list[Event]], list[Barrier], list[str]]:
    """Each partition's barrier events (``scalars``: the kernel's integer arguments), every barrier, and
    the partitions' names."""
    rec = Recorder()
    ns = rec.namespace()
    bars = launch(device_source(source), ns, rec, scalars)
    out = []
    for p, (fn, a) in enumerate(rec.partitions):
        rec.events = []
        fn(*a)
        threads = 32 * (rec.warps[p] if p < len(rec.warps) else 0)
        out.append([(kind, bar, threads if kind == "threads" and parity == 0 else parity)
                    for kind, bar, parity in rec.events])
    return out, bars, [fn.__name__ for fn, _ in rec.partitions]


def orders(n: int) -> list[list[int]]:
    """The partition orders ``run`` tries: each partition first once, forwards and backwards. One greedy order
    is one interleaving; a wait that passes on the wrong phase (a parity off by one reads a buffer before it is
    written) shows only in an order where its partition runs ahead of the others."""
    fwd = [[(s + i) % n for i in range(n)] for s in range(n)]
    return fwd + [o[::-1] for o in fwd]


def run(trace: list[list[Event]], names: list[str], bars: list[Barrier], order: list[int] | None = None) -> None:
    """Run the partitions' traces together, each as far as it can in turn in ``order`` (default: as listed);
    raise ``ProtocolError`` on a deadlock or an unbalanced phase."""
    pos = [0] * len(trace)
    for b in bars:
        b.phase, b.arrived = 0, []
    moved = True
    while moved:
        moved = False
        for p in (order if order is not None else range(len(trace))):
            ev = trace[p]
            while pos[p] < len(ev):
                kind, bar, parity = ev[pos[p]]
                if kind == "wait" and not bar.passes(parity):
                    break
                if kind == "wait" and parity == 1 and bar.phase == 0 and _carries_data(bar):
                    # session 72: a loop that streams no tile counted in the ring base made the next loop's first
                    # wait on a slot parity 1, which a barrier no copy has completed passes (run 192: NaN)
                    raise ProtocolError(f"{names[p]} passes its wait on {bar.name} with parity 1 before any phase "
                                        "completed: it reads a buffer no copy has filled (a ring's slots and phases "
                                        "out of step)")
                if kind == "arrive":
                    _arrive(bar, names[p])
                elif kind == "threads":
                    _arrive_threads(bar, names[p], parity)
                pos[p] += 1
                moved = True
    stuck = [f"{names[p]} waits on {ev[pos[p]][1].name} (phase parity {ev[pos[p]][2]}, "
             f"{ev[pos[p]][1].phase} phase(s) done, {len(ev[pos[p]][1].arrived)} of {ev[pos[p]][1].count} arrived)"
             for p, ev in enumerate(trace) if pos[p] < len(ev)]
    if stuck:
        raise ProtocolError("deadlock: " + "; ".join(stuck))
    partial = [f"{b.name} ({len(b.arrived)} of {b.count} arrived)" for b in bars if b.arrived]
    if partial:
        raise ProtocolError("a phase left incomplete at the end: " + ", ".join(partial))


def _carries_data(bar: Barrier) -> bool:
    """A ring's ready barrier (``<ring>_ready[i]``): a wait on it hands its waiter a filled buffer, so it never passes
    on the phase before the first (which an empty barrier's first wait does by design: every buffer starts free)."""
    return bar.name.split("[", 1)[0].endswith("_ready")


def _arrive(bar: Barrier, who: str) -> None:
    if bar.count > 1 and who in bar.arrived:
        raise ProtocolError(f"{who} arrives twice in one phase of {bar.name} (count {bar.count}): "
                            "a buffer released before its other readers are done")
    bar.arrived.append(who)
    if len(bar.arrived) == bar.count:
        bar.phase += 1
        bar.arrived = []


def _arrive_threads(bar: Barrier, who: str, threads: int) -> None:
    """Each of ``who``'s ``threads`` arrives once (``cp.async.mbarrier.arrive.noinc``): one whole phase."""
    if bar.arrived or threads != bar.count:
        raise ProtocolError(f"{who}'s {threads} threads arrive on {bar.name} (count {bar.count}, "
                            f"{len(bar.arrived)} arrived before): the phase would not complete exactly")
    bar.phase += 1


def check(source: str, scalars: Callable[[int], dict[str, int]], trips: tuple[int, ...]) -> list[str]:
    """The protocol run for each trip count (``scalars(n)``: the integer arguments giving ``n`` iterations);
    the problems found, one line each (empty: sound for every count tried)."""
    problems = []
    for n in trips:
        try:
            tr, bars, names = traces(source, scalars(n))
        except ProtocolError as e:
            problems.append(f"{n} iteration(s): {e}")
            continue
        problems += [f"{n} iteration(s): {p}" for t, who in zip(tr, names) for p in copy_problems(t, who)[:1]]
        for order in orders(len(tr)):
            try:
                run(tr, names, bars, order)
            except ProtocolError as e:
                first = names[order[0]]
                problems.append(f"{n} iteration(s), {first} running ahead: {e}" if order != list(range(len(tr)))
                                else f"{n} iteration(s): {e}")
                break
    return problems


def check_kernel(source: str, signature: dict[str, str], stages: int, least: int | None = None) -> tuple[list[str], str]:
    """``check`` of a generated kernel over ``trip_counts(stages, least)`` (and every way a producer may copy pointer
    tiles: TMA boxes, cp.async, registers): the problems, and why the protocol could not be simulated ("" when it
    was)."""
    tma = {TMA_FLAG: False} if TMA_FLAG in signature else {}
    flags = [({}, "")] + ([(tma, " (copies with cp.async)")] if tma else []) \
        + ([({COPY_FLAG: False, **tma}, " (copies through registers)")] if COPY_FLAG in signature else [])
    try:
        out: list[str] = []
        for f, said in flags:
            ints = integer_arguments(signature, source)
            out += [p + said for p in check(source, lambda n, ints=ints, f=f: {**ints(n), **f}, trip_counts(stages, least))]
        if not out and f"- {OWN_TILE_LOOP} " in source:     # tiles of different trip counts
            ragged = integer_arguments(signature, source, RAGGED)
            out += [p + " (integer arguments not multiples of the tile)"
                    for p in check(source, ragged, trip_counts(stages, least))]
        return out, ""
    except Unsimulated as e:
        return [], str(e)
    except Exception as e:  # noqa: BLE001 - the generated source failed to run in the simulation: a defect, one line
        return [f"the simulation could not run the generated kernel ({type(e).__name__}: {e})"], ""


def integer_arguments(signature: dict[str, str], source: str, offset: int = 0) -> Callable[[int], dict[str, int]]:
    """The integer arguments for ``n`` iterations: each set to ``n`` times the largest divisor the source
    applies (the loop's step or tile), so the loop bound, whichever argument it is, gives ``n`` trips (``offset``
    more: a kernel's own tile loop then runs tiles of different trip counts, as stream-K's partial tiles do);
    a persistent kernel's grid arguments ``PERSISTENT_GRID``."""
    step = max([int(d) for d in re.findall(r"// (\d+)\b", source)] + _runtime_steps(source) or [1])
    ints = [a for a, t in signature.items() if re.fullmatch(r"[iu](8|16|32|64)", t) and a not in PERSISTENT_GRID]
    grid = {a: _Int(v) for a, v in PERSISTENT_GRID.items() if a in signature}
    flag = {COPY_FLAG: True} if COPY_FLAG in signature else {}
    flag.update({TMA_FLAG: True} if TMA_FLAG in signature else {})
    # an argument that steps a loop (a persistent kernel's own ``range(tidx, tiles, NUM_SMS)``) is never 0: at 0
    # iterations it had stopped the simulation ("range() arg 3 must not be zero": unsloth's MoE dW kernel, no kernel
    # written); there it steps past every tile after the first, as a launch's grid does
    steps = set(re.findall(r"\brange\((?:[^()\n]|\([^()\n]*\))*,\s*([A-Za-z_]\w*)\)\s*:", source))
    return lambda n: {**{a: _Int(n * step + offset or (1 << 16 if a in steps else 0)) for a in ints}, **grid, **flag,
                      TRIPS: n}


def _runtime_steps(source: str) -> list[int]:
    """The block a loop's runtime step multiplies (a grid-stride loop ``range(pid * BLOCK, n, tl.num_programs(0) *
    BLOCK)``: the trip count divides by ``v2 = v1 * 1024``, which no ``// 1024`` shows; the simulation's one program
    makes the step the block). Without it the fused AdamW step's loop ran one trip in every simulation and replay
    (session 55's sweeps K and L: MoE's expert histogram, found twice)."""
    out: list[int] = []
    for name in set(re.findall(r"\btwill_n\w* = [^\n]*// ([A-Za-z_]\w*)", source)):
        for a, b in re.findall(rf"^\s*{re.escape(name)} = (?:\w+ \* (\d+)|(\d+) \* \w+)\s*$", source, re.M):
            out.append(int(a or b))
    return out


# the integer arguments' offset from a multiple of the tile in the second simulation of a kernel with its own tile
# loop: stream-K's producer advanced its ring base by 0 a tile, which tiles of equal trip counts hid (run 68)
RAGGED = 3
OWN_TILE_LOOP = "tile loop: the kernel's own"      # the decision a kernel keeping its own tile loop states


COPY_FLAG = "TWILL_COPY"     # a producer copying pointer tiles: with cp.async (True) or through registers (False)
TMA_FLAG = "TWILL_TMA"       # ... or, where the launch allows, the tiles that are TMA boxes by TMA (``boxes``)

# A persistent kernel's launch grid in the simulation: one program (``num_programs`` is 1) runs three
# tiles one after another, so every barrier's phase is carried from tile to tile as on the GPU.
PERSISTENT_GRID = {"twill_g0": 3, "twill_g1": 1, "twill_g2": 1}


def copy_problems(events: list[Event], who: str) -> list[str]:
    """A partition's own cp.async copies into buffers it reads itself (``plan.AsyncTile``), checked in its trace:
    each read finds its slot's last copy in a commit group a ``wait_group`` has completed, with a barrier after that
    wait (the other threads' copies visible); each copy into a slot finds the tile it held read, and a barrier since
    that read (every warp done with it); a wgmma reading a slot holds it until a wait retires the wgmma, and reads a
    store through registers (the copies of a launch too little aligned for cp.async) only once a proxy fence followed
    it. A copy the producer makes for others (its ring, read by the consumers' wgmmas) is not this check's: only
    buffers the partition both copies into (or stores into in place of cp.async) and reads are followed."""
    copied = {e[1].array for e in events if e[0] == "copy" or (e[0] == "write" and e[1].array.copy_target)}
    mine = copied & ({e[1].array for e in events if e[0] == "read"}
                     | {x.array for e in events if e[0] == "mma" for x in e[1]})
    if not mine:
        return []
    mmas: list[set[tuple]] = []          # the slots each wgmma not yet retired reads, in issue order
    fenced: set[tuple] = set()           # slots stored through registers, then a proxy fence (the tensor core sees them)
    proxied: set[tuple] = set()          # ... and a barrier followed that fence
    groups = 0                           # commit groups made
    landed = 0                           # groups a wait completed
    group: dict[tuple, int | None] = {}  # slot -> the group of its last copy (None: not committed yet; -1: stored)
    visible: set[tuple] = set()          # slots whose last copy landed before a barrier
    unread: set[tuple] = set()           # slots copied and not read since
    read_since: set[tuple] = set()       # slots read since the last barrier
    out = []
    for kind, slot, n in events:
        if kind in ("copy", "write", "read") and slot.array not in mine:
            continue
        if kind in ("copy", "write"):
            k = slot.key
            if any(k in m for m in mmas):
                out.append(f"{who} copies into {slot} while a wgmma that reads it may still run (not retired)")
            elif k in read_since:
                out.append(f"{who} copies into {slot} with no barrier since it read the tile there (another warp may "
                           "still be reading it)")
            elif k in unread:
                out.append(f"{who} copies into {slot} before the tile it held was read (its ring too shallow)")
            group[k] = None if kind == "copy" else -1
            visible.discard(k)
            fenced.discard(k)
            proxied.discard(k)
            unread.add(k)
        elif kind == "commit":
            group.update({k: groups for k, g in group.items() if g is None})
            groups += 1
        elif kind == "wait_group":
            landed = max(landed, groups - n)
        elif kind == "fence":
            fenced |= {k for k, g in group.items() if g == -1}
        elif kind == "sync":
            visible |= {k for k, g in group.items() if g is not None and g < landed}
            # the tensor core reads cp.async's landed copies after the barrier; a store through registers once fenced
            proxied |= fenced | {k for k, g in group.items() if g is not None and 0 <= g < landed}
            read_since = set()
        elif kind == "mma":
            reads = {x.key for x in slot if x.array in mine}
            out += [f"{who}'s wgmma reads {x} before its copy landed and a barrier followed (wait_group, "
                    "thread_barrier; a store through registers: fence_async_shared before the barrier)"
                    for x in slot if x.key in reads and x.key not in proxied]
            unread -= reads
            mmas.append(reads)
        elif kind == "mma_wait":
            done, mmas = (mmas[:len(mmas) - n], mmas[len(mmas) - n:]) if n else (mmas, [])
            read_since |= {k for m in done for k in m}     # every warp's retirement: a barrier before the next copy
        elif kind == "read":
            k = slot.key
            if k not in visible:
                out.append(f"{who} reads {slot} before its copy landed and a barrier followed (wait_group, "
                           "thread_barrier)")
            unread.discard(k)
            read_since.add(k)
    return out
