"""The one place twill reaches into Triton's compiler: a pass plan run inside the installed ``make_ttgir``.

A ``PassPlan`` says what to change in the NVIDIA backend's TTGIR pass list: Python callbacks run
right before named passes (they read, edit or replace the module), passes skipped, passes inserted.
It is carried out by re-running the backend's own ``make_ttgir`` with its module globals ``ir``,
``passes`` and ``nvidia`` swapped for recording proxies: every ``passes.*.add_*`` call it makes is
recorded instead of run, and when it calls ``pm.run(mod)`` the recorded list is replayed into real
pass managers, split wherever a callback is due. So the exact pass list of the installed Triton runs
(no hand copy that drifts between versions). Works with triton 3.6, and 3.9, which also calls the
stages hook with no arguments for a cache key.

Extraction (the module right before ``assign_latencies``), schedule application (codegen),
Proton records (profiling) and the stored-schedule hook (store) are all plans; plans compose with
``+``, so a scheduled kernel can be profiled by adding the two.
"""
from __future__ import annotations

import contextlib
import faulthandler
import functools
import importlib
import os
import pickle
import re
import sys
import tempfile
import threading
import types
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from twill.errors import CompileError, InputError

# A callback gets the live module and returns None (unchanged, or edited in place), a new module,
# or new module text (parsed into the compilation's context).
Callback = Callable[[Any], Any]

PRE_PIPELINE_PASS = "add_assign_latencies"   # pass short names are the backend's ``add_*`` names
# Skipped wherever twill extracts or applies a schedule: Triton's Hopper warp specialization (sm_90,
# ``tl.range(..., warp_specialize=True)``) runs before the scheduling passes and splits the loop into
# producer and consumer copies, so the loop twill schedules (and assigns warps to) is the whole one.
# It acts only on loops carrying ``tt.warp_specialize``; others compile as they would.
SCHEDULED_SKIP = ("add_hopper_warpspec",)
END = "__end__"                               # a callback under this key runs after the last pass


@dataclass(frozen=True)
class Insert:
    """A pass the installed ``make_ttgir`` does not run, added right before (or after) the first pass
    named ``at``: ``binding`` is its path under ``triton._C.libtriton`` (``passes.ttgpuir.add_warp_specialize``)
    and ``args`` makes its arguments (after the pass manager) from the compile options.

    Examples
    --------
    >>> ws = Insert("passes.ttgpuir.add_warp_specialize", "add_pipeline", args=lambda opt: (opt.num_stages,))
    >>> ws.at
    'add_pipeline'
    """

    binding: str
    at: str
    after: bool = False
    args: Callable[[Any], tuple] = lambda _options: ()   # the compile options -> the pass's arguments

    def resolve(self) -> Callable[..., None]:
        obj: Any = importlib.import_module("triton._C.libtriton")
        for part in self.binding.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                raise InputError("pass binding not in this Triton", where=f"triton {triton_version()}",
                                 expected="a binding such as passes.ttgpuir.add_warp_specialize", found=self.binding)
        return obj


@dataclass(frozen=True)
class PassPlan:
    """Edits of ``make_ttgir``: ``before`` (pass short name or ``END``, callback) pairs, passes to
    ``skip``, passes to ``insert``. Two callbacks at one pass run in the order given.

    Examples
    --------
    >>> seen = []
    >>> plan = PassPlan(before=((PRE_PIPELINE_PASS, seen.append),)) + PassPlan(skip=("add_pipeline",))
    >>> plan.skip, [p for p, _ in plan.before]
    (('add_pipeline',), ['add_assign_latencies'])
    """

    before: tuple[tuple[str, Callback], ...] = ()
    skip: tuple[str, ...] = ()
    insert: tuple[Insert, ...] = ()

    def __add__(self, other: "PassPlan") -> "PassPlan":
        return PassPlan(self.before + other.before, self.skip + tuple(s for s in other.skip if s not in self.skip),
                        self.insert + tuple(i for i in other.insert if i not in self.insert))

    @property
    def points(self) -> tuple[str, ...]:
        """The passes callbacks run before, each once, in first-given order."""
        return tuple(dict.fromkeys(p for p, _ in self.before))


class StopCompile(Exception):
    """Raised by a callback to end compilation early (extraction needs no PTX)."""


_BOOL = re.compile(r"^\s*(%[\w#.-]+) = arith\.constant (true|false)\b", re.M)
_FLAG_SELECT = re.compile(r"= arith\.select %[\w#.-]+, (%[\w#.-]+), (%[\w#.-]+) : i1\b")


def _reset_flag(text: str) -> bool:
    """What ``optimize_accumulator_init`` writes for a reset inside the loop: the next dot's flag selected
    between the two boolean constants by the reset's condition (a reset before the loop only: a constant)."""
    consts = dict(_BOOL.findall(text))
    return any(a in consts and b in consts and consts[a] != consts[b] for a, b in _FLAG_SELECT.findall(text))


def accumulator_flags(mod: Any) -> str | None:
    """The module's text with Triton's ``optimize_accumulator_init`` (run on Blackwell, not on Hopper) applied
    where a loop zeroes a dot's accumulator inside its body: a flat loop over (tile, k) pairs whose epilogue,
    under ``if k == last``, stores the accumulator and starts the next tile at zero (Inductor's persistent TMA
    template, the older persistent tutorials). The zeroing becomes the dot's ``use_acc`` flag, carried to the
    next iteration, and the accumulator is carried from the dot itself: the next dot accumulates in place and
    can be issued before this one retires. None (the module unchanged) without such a reset: a dot whose
    accumulator starts at zero only before the loop keeps its form. A callback of ``ACCUMULATOR_FLAGS``."""
    ir, passes, _ = _libs()
    add = getattr(passes.ttgpuir, "add_optimize_accumulator_init", None)
    text = module_text(mod)
    if add is None or "ttng.warp_group_dot" not in text:   # Blackwell's make_ttgir runs the pass itself
        return None
    work = parse_module(text, mod.context)
    pm = ir.pass_manager(mod.context)
    add(pm)
    try:
        with captured_stderr():
            pm.run(work, "twill_accumulator_flags")
    except RuntimeError:                  # the pass refused the module: the loop is read as written
        return None
    if not _reset_flag(module_text(work)):
        return None
    pm = ir.pass_manager(mod.context)
    passes.common.add_canonicalizer(pm)   # the if's two yields of the dot's result fold into the result
    pm.run(work, "twill_accumulator_flags")
    return module_text(work)


# Wherever twill reads the loop it schedules (extraction, schedule application, Proton records): the same loop.
ACCUMULATOR_FLAGS = PassPlan(before=((PRE_PIPELINE_PASS, accumulator_flags),))


@dataclass
class _Run:
    """One compilation carrying out a plan: what fired, what was inserted, the passes run."""

    plan: PassPlan
    log: list[str]
    options: Any = None
    module: Any = None
    fired: set[str] = field(default_factory=set)
    inserted: set[Insert] = field(default_factory=set)


_LOCAL = threading.local()


def _libs() -> tuple[Any, Any, Any]:
    from triton._C.libtriton import ir, nvidia, passes

    return ir, passes, nvidia


class _RecordingPM:
    """Stands in for ``ir.pass_manager`` inside make_ttgir: records ``add_*`` calls, replays on ``run``."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.entries: list[tuple[str, Any, tuple, dict]] = []

    def enable_debug(self) -> bool:
        """Whether a pass manager dumps IR, as a real one answers (Triton 3.9's make_ttgir hands it to
        ``add_pipeline`` and ``add_hopper_warpspec``; 3.6's answers None and reads nothing)."""
        if self.ctx is None:       # ``ttgir_passes``' dry run: nothing runs
            return False
        ir, _, _ = _libs()
        return bool(ir.pass_manager(self.ctx).enable_debug())

    def run(self, mod: Any, *args: Any) -> None:
        _replay(self, mod, args)


class _Namespace:
    """A bindings module whose ``add_*`` functions record into a ``_RecordingPM``."""

    def __init__(self, real: Any, path: str) -> None:
        self._real, self._path = real, path

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if isinstance(attr, types.ModuleType):
            return _Namespace(attr, f"{self._path}.{name}")
        if name.startswith("add_") and callable(attr):
            qual = f"{self._path}.{name}"

            def record(pm: Any, *args: Any, **kw: Any) -> None:
                if isinstance(pm, _RecordingPM):
                    pm.entries.append((qual, attr, args, kw))
                else:
                    attr(pm, *args, **kw)
            return record
        return attr


class _IRProxy:
    def __init__(self, pm: type) -> None:
        self._pm = pm

    def __getattr__(self, name: str) -> Any:
        return self._pm if name == "pass_manager" else getattr(_libs()[0], name)


def _patched_make_ttgir(backend: Any, pm: type) -> Callable[..., Any]:
    """The backend's ``make_ttgir`` with its pass manager and bindings replaced by recording proxies."""
    original = type(backend).make_ttgir   # a staticmethod: a plain function
    _, passes, nvidia = _libs()
    g = dict(original.__globals__, ir=_IRProxy(pm), passes=_Namespace(passes, "passes"),
             nvidia=_Namespace(nvidia, "nvidia"))
    return types.FunctionType(original.__code__, g, original.__name__, original.__defaults__, original.__closure__)


def parse_module(text: str, context: Any) -> Any:
    """Parse MLIR text into a module of ``context`` (the binding takes a file path)."""
    ir, _, _ = _libs()
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        mod = ir.parse_mlir_module(path, context)
    finally:
        os.unlink(path)
    mod.context = context
    return mod


def module_text(mod: Any) -> str:
    """The module's text with locations (``#loc`` aliases resolve ops to source lines)."""
    return mod.str()




def _callback(run: _Run, point: str) -> Callback:
    fns = [fn for p, fn in run.plan.before if p == point]

    def chained(mod: Any) -> Any:
        for fn in fns:
            out = fn(mod)
            if isinstance(out, str):
                mod = parse_module(out, mod.context)
            elif out is not None:
                mod = out
        return mod
    return chained


def _run_callback(run: _Run, point: str, mod: Any) -> Any:
    try:
        out = _callback(run, point)(mod)
    except BaseException as e:
        e.__dict__["_twill_callback"] = True   # not a Triton compile error: re-raised as it is
        raise
    run.fired.add(point)
    return out


def _replay(rpm: _RecordingPM, mod: Any, run_args: tuple) -> None:
    ir, _, _ = _libs()
    run: _Run = _LOCAL.run
    run.module = mod
    real, pending = None, 0

    def flush() -> None:
        nonlocal real, pending
        if pending:
            real.run(run.module, *run_args)
        real, pending = ir.pass_manager(rpm.ctx), 0
        real.enable_debug()

    def inserted(short: str, after: bool) -> None:
        nonlocal pending
        for ins in run.plan.insert:
            if ins.at == short and ins.after == after and ins not in run.inserted:
                ins_args = ins.args(run.options)
                ins.resolve()(real, *ins_args)
                pending += 1
                run.inserted.add(ins)
                run.log.append(f"{ins.binding}{tuple(ins_args)} (inserted)")

    flush()
    points = set(run.plan.points)
    for qual, fn, args, kw in rpm.entries:
        short = qual.rsplit(".", 1)[-1]
        if short in points and short not in run.fired:
            flush()
            run.module = _run_callback(run, short, run.module)
            run.log.append(f"-- callback before {qual}")
        inserted(short, after=False)
        if short in run.plan.skip:
            run.log.append(f"{qual} (skipped)")
        else:
            fn(real, *args, **kw)
            pending += 1
            run.log.append(qual)
        inserted(short, after=True)
    flush()


def route_ttgir(plan: PassPlan, backend: Any, stages: dict, options: Any, capability: Any,
                log: list[str] | None = None) -> None:
    """Replace ``stages["ttgir"]`` (inside a stages hook) by the backend's ``make_ttgir`` carrying out ``plan``.

    A callback or insertion point that the installed ``make_ttgir`` never reaches is one InputError
    naming it; Triton's tensor-descriptor metadata is re-read when a callback replaced the module.
    """
    patched = _patched_make_ttgir(backend, _RecordingPM)
    log = [] if log is None else log

    def make_ttgir(src: Any, metadata: dict) -> Any:
        previous = getattr(_LOCAL, "run", None)
        run = _LOCAL.run = _Run(plan, log, options)
        try:
            out = patched(src, metadata, options, capability)
            mod = run.module if run.module is not None else out
            missing = set(plan.points) - run.fired - {END}
            missing |= {f"{i.at} (to insert {i.binding})" for i in plan.insert if i not in run.inserted}
            if missing:
                raise InputError("pass not in this Triton's make_ttgir", where=f"triton {triton_version()}",
                                 expected="a pass short name such as add_assign_latencies",
                                 found=", ".join(sorted(missing)))
            if END in plan.points:
                mod = _run_callback(run, END, mod)
            if mod is not out and hasattr(mod, "get_tensordesc_metadata"):   # absent in Triton < 3.5
                metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
            return mod
        finally:
            _LOCAL.run = previous

    stages["ttgir"] = make_ttgir


@contextlib.contextmanager
def installed(plan: PassPlan, log: list[str] | None = None, key: str | None = None) -> Iterator[None]:
    """Within the block, every kernel Triton compiles runs ``plan`` in its TTGIR stage.
    ``key`` goes into Triton 3.9's cache key (default: one per installation)."""
    import triton

    knobs = triton.knobs.runtime
    previous = knobs.add_stages_inspection_hook
    cache_key = key or uuid.uuid4().hex

    def hook(*args: Any) -> Any:
        if not args:   # triton >= 3.9 calls the hook with no arguments to extend the cache key
            return ("twill", cache_key)
        backend, stages, options, _language, capability = args
        if "ttgir" in stages:
            route_ttgir(plan, backend, stages, options, capability, log)
        return None

    knobs.add_stages_inspection_hook = hook
    try:
        yield
    finally:
        knobs.add_stages_inspection_hook = previous


@contextlib.contextmanager
def fresh_cache() -> Iterator[str]:
    """A private Triton cache dir for the block: Triton 3.6 leaves the stages hook out of its cache
    key, so a cached kernel would skip the plan."""
    import triton

    with tempfile.TemporaryDirectory(prefix="twill-cache-") as d:
        old_env = os.environ.get("TRITON_CACHE_DIR")
        os.environ["TRITON_CACHE_DIR"] = d
        old_knob = triton.knobs.cache.dir
        triton.knobs.cache.dir = d
        try:
            yield d
        finally:
            if old_env is None:
                os.environ.pop("TRITON_CACHE_DIR", None)
            else:
                os.environ["TRITON_CACHE_DIR"] = old_env
            triton.knobs.cache.dir = old_knob


def clear_jit_caches(kernels: tuple[Any, ...]) -> None:
    """Drop the compiled binaries JIT functions keep in memory (so the next launch recompiles under
    whatever plan is installed then)."""
    for fn in kernels:
        caches = getattr(fn, "device_caches", None)
        if caches is not None:
            caches.clear()


@contextlib.contextmanager
def planned_launches(plan: PassPlan, kernels: tuple[Any, ...] = (), log: list[str] | None = None) -> Iterator[None]:
    """Within the block, launches of ``kernels`` (``kernel[grid](...)``) compile with ``plan``, in a
    private cache; their in-memory binaries are cleared on entry and exit, so neither Triton's own
    binary nor the planned one leaks across the boundary."""
    clear_jit_caches(kernels)
    try:
        with fresh_cache(), installed(plan, log):
            yield
    finally:
        clear_jit_caches(kernels)


def target_for(capability: int) -> Any:
    """The ``GPUTarget`` of a CUDA compute capability (90, 100)."""
    from triton.backends.compiler import GPUTarget

    return GPUTarget("cuda", int(capability), 32)


def triton_version() -> str:
    import triton

    return triton.__version__


def compile_planned(src: Any, capability: int, options: dict[str, Any], plan: PassPlan = PassPlan(),
                    log: list[str] | None = None) -> Any:
    """``triton.compile(src)`` for ``capability`` carrying out ``plan``. Returns the ``CompiledKernel``;
    ``log`` (if given) receives the passes run.

    A Triton compile error becomes one ``CompileError`` naming the kernel and source line; exceptions
    raised by a callback (``StopCompile`` among them) pass through unchanged.

    Examples
    --------
    >>> seen = []
    >>> plan = PassPlan(before=(("add_pipeline", lambda m: seen.append(module_text(m))),))
    >>> k = compile_planned(src, 90, {"num_warps": 8}, plan)       # doctest: +SKIP
    """
    import triton

    try:
        with fresh_cache(), installed(plan, log):
            return triton.compile(src, target=target_for(capability), options=dict(options))
    except Exception as e:
        if e.__dict__.get("_twill_callback") or isinstance(e, InputError):
            raise
        raise compile_error(e, src) from None


def contained(build: Callable[[], Any], said: Path | None = None, where: str | None = None,
              what: str = "the kernel") -> Any:
    """``build()`` (an offline compile, its result picklable) in a forked child process where the platform
    forks. An assertion in Triton's C++ aborts the child, not twill, and becomes one CompileError with the
    assertion's line (read from the child's fd 2, or from ``said`` where ``build`` sends fd 2 there); a
    CompileError the child raises is raised here as it was, anything else in one line."""
    if not hasattr(os, "fork"):
        return build()
    with tempfile.TemporaryDirectory(prefix="twill-child-") as tmp:
        err = Path(tmp) / "stderr.txt"
        read, write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:                              # the child: compile, send the result or the error, exit at once
            os.close(read)
            faulthandler.disable()                # the abort's own line is the message, not a Python stack
            with open(err, "wb") as f:
                os.dup2(f.fileno(), 2)
            with open(os.devnull, "wb") as f:     # Triton prints a failed ptxas run's whole PTX on stdout
                os.dup2(f.fileno(), 1)
            try:
                out: Any = ("ok", build(), None)
            except CompileError as e:
                out = ("error", (e.what,), {"where": e.where, "expected": e.expected, "found": e.found,
                                            "hint": e.hint})
            except BaseException as e:  # noqa: BLE001 - anything else, one line
                first = (str(e).strip().splitlines() or [""])[0][:200]
                out = ("error", (f"the offline compile of {what} failed: {type(e).__name__}: {first}",),
                       {"where": where})
            try:
                with os.fdopen(write, "wb") as f:
                    pickle.dump(out, f)
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as f:
            data = f.read()
        _, status = os.waitpid(pid, 0)
        if data:
            kind, a, kw = pickle.loads(data)
            if kind == "ok":
                return a
            raise CompileError(*a, **kw)
        text = "\n".join(_text(p) for p in (said, err) if p is not None)
        line = next((ln for ln in text.splitlines() if "Assertion" in ln), "") or \
            next((ln for ln in text.splitlines() if ln.strip()), f"exit status {status}")
        line = line[line.index("Assertion"):] if "Assertion" in line else line.strip()
        raise CompileError(f"Triton's compiler crashed on {what}: {line[:300]}", where=where)


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def compile_error(e: BaseException, src: Any) -> CompileError:
    """One line from a Triton failure: the kernel, the source line when Triton gives one, the message."""
    from triton.compiler.errors import CompilationError

    fn = getattr(src, "fn", None)
    kernel = getattr(fn, "__name__", None) or getattr(src, "name", "kernel")
    where = kernel
    if isinstance(e, CompilationError):
        e = _innermost(e)
        line = _source_line(e, fn)
        if line is not None:
            where = f"{kernel} ({line[0]}:{line[1]})"
        msg = (e.error_message or "").strip() or str(e).strip().splitlines()[-1]
        # A nested error keeps its own message as the last line of its text.
        msg = msg.splitlines()[-1] if msg else type(e).__name__
    else:
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        msg = lines[-1] if lines else type(e).__name__
    hint = None
    if any(f"'{m}' is not defined" in msg or f"{m} is not defined" in msg for m in ("triton_helpers", "tl_math")):
        hint = "the kernel calls torch.compile's Triton helpers (torch._inductor.runtime): install torch to read it"
    unbound = dict(getattr(fn, "__globals__", {}).get("__twill_unimported__") or {})
    named = next((n for n in unbound if f"'{n}' is not defined" in msg or f"{n} is not defined" in msg), None)
    if named is not None:
        hint = (f"the kernel reads '{named}', which {unbound[named]}: install that library where twill runs (its "
                "helpers are imported then), or define the helper in the kernel's file")
    return CompileError(f"Triton failed to compile the kernel: {msg}", where=where, hint=hint)


def _innermost(e: Any) -> Any:
    """The deepest CompilationError ``e`` was raised from: an error inside a ``@triton.jit`` helper the kernel calls
    comes back as the call's error, with no message of its own and the caret under the call as its text's last line
    (HSTU's ``acc += _ragged_hstu_attn_fwd_one_block(...)`` said only "^"); the helper's error holds the message and
    the line in the helper."""
    from triton.compiler.errors import CompilationError

    seen = {id(e)}
    while True:
        inner = e.__cause__ if isinstance(e.__cause__, CompilationError) else e.__context__
        if not isinstance(inner, CompilationError) or id(inner) in seen:
            return e
        seen.add(id(inner))
        e = inner


def _source_line(e: Any, fn: Any) -> tuple[str, int] | None:
    from triton.runtime.jit import JITFunction

    lineno = getattr(getattr(e, "node", None), "lineno", None)
    if fn is None or lineno is None:
        return None
    # The error's source is the kernel's or one of the JIT functions it calls.
    candidates = [fn] + [v for v in getattr(fn.fn, "__globals__", {}).values() if isinstance(v, JITFunction)]
    for c in candidates:
        if getattr(c, "src", None) == e.src:
            file, begin = _def_line(c)
            rel = os.path.relpath(file)
            return (file if rel.startswith("..") else rel), begin + lineno - 1
    return None


def _def_line(fn: Any) -> tuple[str, int]:
    """The file and the ``def`` line of a JIT function, below its decorators (3.6's ``get_jit_fn_file_line``, which
    Triton 3.9 no longer has)."""
    while not hasattr(fn, "raw_src"):
        fn = fn.fn
    begin = fn.starting_line_number + next((i for i, ln in enumerate(fn.raw_src) if ln.strip().startswith("def ")), 0)
    return fn.fn.__code__.co_filename, begin


@functools.lru_cache(maxsize=None)
def ttgir_passes(capability: int) -> tuple[str, ...]:
    """The ``add_*`` short names of the installed Triton's ``make_ttgir`` for a CUDA capability, in
    order: the backend's function run against a recording pass manager and a stand-in module."""
    from triton.compiler.compiler import make_backend

    class Module:
        context = None

        def get_tensordesc_metadata(self) -> list:
            return []

    made: list[_RecordingPM] = []

    class DryPM(_RecordingPM):
        """Records only (a dry run of make_ttgir lists its passes)."""

        def __init__(self, ctx: Any) -> None:
            super().__init__(ctx)
            made.append(self)

        def run(self, mod: Any, *args: Any) -> None:
            pass

    backend = make_backend(target_for(capability))
    _patched_make_ttgir(backend, DryPM)(Module(), {}, backend.parse_options({}), capability)
    return tuple(q.rsplit(".", 1)[-1] for pm in made for q, *_ in pm.entries)


# -- diagnostics ---------------------------------------------------------------------------------
GENERIC_ERROR = "Failures have been detected while processing an MLIR pass pipeline"


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """MLIR diagnostics go to file descriptor 2, not into the Python exception: capture them."""
    out: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as f:
        os.dup2(f.fileno(), 2)
        try:
            yield out
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            out.extend(f.read().decode(errors="replace").splitlines())


def first_error(lines: list[str]) -> str | None:
    """The first MLIR ``error:`` diagnostic, without its file prefix; when the only error is the pass
    manager's generic one, the first ``warning:`` (a pass that fails with a warning, as Triton's
    ``partition-loops`` does) with its first note, else the generic error."""
    errors = [ln.split("error:", 1)[1].strip() for ln in lines if "error:" in ln]
    specific = [e for e in errors if GENERIC_ERROR not in e]
    if specific:
        return specific[0]
    for i, ln in enumerate(lines):
        if "warning:" in ln:
            msg = ln.split("warning:", 1)[1].strip()
            note = next((n.split("note:", 1)[1].strip() for n in lines[i + 1:i + 8] if "note:" in n), None)
            return msg + (f" ({note})" if note else "")
    if not errors:
        return None
    # "note: Pipeline failed while executing [`Outer` on ..., `Inner` on ...]": name the innermost pass
    failed = [re.findall(r"`(\w+)` on", ln) for ln in lines if "Pipeline failed while executing" in ln]
    return errors[0] + (f" (in {failed[0][-1]}, no diagnostic)" if failed and failed[0] else "")


@contextlib.contextmanager
def mlir_warnings() -> Iterator[None]:
    """Let MLIR print warnings too (Triton prints only errors unless MLIR_ENABLE_DIAGNOSTICS says so)."""
    old = os.environ.get("MLIR_ENABLE_DIAGNOSTICS")
    if old is None:
        os.environ["MLIR_ENABLE_DIAGNOSTICS"] = "warnings"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MLIR_ENABLE_DIAGNOSTICS", None)
