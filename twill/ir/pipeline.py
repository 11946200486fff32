"""Offline compilation through the installed Triton's own pass pipeline, with Python callbacks before named passes.

The NVIDIA backend's ``make_ttgir`` is re-run with its module globals ``ir``, ``passes`` and
``nvidia`` swapped for recording proxies: every ``passes.*.add_*`` call it makes is recorded instead
of run, and when it calls ``pm.run(mod)`` the recorded list is replayed into real pass managers,
split wherever a callback is due. So the exact pass list of the installed Triton runs (no hand copy
that drifts between versions). The pre-pipeline TTGIR is the module right before ``assign_latencies``.
Works with triton 3.6 (and 3.9, which also calls the stages hook with no arguments for a cache key).
"""
from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import types
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from twill.errors import CompileError, InputError

# A callback gets the live module and returns None (unchanged, or edited in place), a new module,
# or new module text (parsed into the compilation's context).
Callback = Callable[[Any], Any]

PRE_PIPELINE_PASS = "add_assign_latencies"   # pass short names are the backend's ``add_*`` names
END = "__end__"                               # a callback under this key runs after the last pass
ARCH_SM = {"h100": 90, "h200": 90, "b200": 100}


@dataclass(frozen=True)
class Insert:
    """A pass the installed ``make_ttgir`` does not run, added right before (or after) the first pass
    named ``at``: ``binding`` is its path under ``triton._C.libtriton`` (``passes.ttgpuir.add_warp_specialize``)
    and ``args`` makes its arguments (after the pass manager) from the compile options.

    Examples
    --------
    >>> ws = Insert("passes.ttgpuir.add_warp_specialize", "add_pipeline", args=lambda opt: (opt.num_stages,))
    >>> compile_with_callbacks(src, "h100", {}, skip=("add_hopper_warpspec",), insert=(ws,))  # doctest: +SKIP
    """

    binding: str
    at: str
    after: bool = False
    args: Callable[[Any], tuple] = lambda _options: ()   # the compile options -> the pass's arguments

    def resolve(self) -> Callable[..., None]:
        import importlib

        obj: Any = importlib.import_module("triton._C.libtriton")
        for part in self.binding.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                raise InputError("pass binding not in this Triton", where=f"triton {_version()}",
                                 expected="a binding such as passes.ttgpuir.add_warp_specialize", found=self.binding)
        return obj


class StopCompile(Exception):
    """Raised by a callback to end compilation early (extraction needs no PTX)."""


_LOCAL = threading.local()


def _libs() -> tuple[Any, Any, Any]:
    from triton._C.libtriton import ir, nvidia, passes

    return ir, passes, nvidia


class _RecordingPM:
    """Stands in for ``ir.pass_manager`` inside make_ttgir: records ``add_*`` calls, replays on ``run``."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.entries: list[tuple[str, Any, tuple, dict]] = []

    def enable_debug(self) -> None:
        pass

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
    def __getattr__(self, name: str) -> Any:
        ir, _, _ = _libs()
        return _RecordingPM if name == "pass_manager" else getattr(ir, name)


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
    return mod.str() if hasattr(mod, "str") else str(mod)


def _run_callback(name: str, mod: Any, ctx: Any) -> Any:
    cfg = _LOCAL.cfg
    try:
        out = cfg["callbacks"][name](mod)
    except BaseException as e:
        e.__dict__["_twill_callback"] = True   # not a Triton compile error: re-raised as it is
        raise
    cfg["fired"].add(name)
    if out is None:
        return mod
    if isinstance(out, str):
        return parse_module(out, ctx)
    return out


def _replay(rpm: _RecordingPM, mod: Any, run_args: tuple) -> None:
    ir, _, _ = _libs()
    cfg = _LOCAL.cfg
    state = _LOCAL.state
    state["mod"] = mod
    real, pending = None, 0

    def flush() -> None:
        nonlocal real, pending
        if pending:
            real.run(state["mod"], *run_args)
        real, pending = ir.pass_manager(rpm.ctx), 0
        real.enable_debug()

    def inserted(short: str, after: bool) -> None:
        nonlocal pending
        for ins in cfg.get("insert", ()):   # a cfg built elsewhere (twill.store.hook) may have none
            if ins.at == short and ins.after == after and ins not in cfg["inserted"]:
                ins_args = ins.args(state.get("options"))
                ins.resolve()(real, *ins_args)
                pending += 1
                cfg["inserted"].add(ins)
                cfg["log"].append(f"{ins.binding}{tuple(ins_args)} (inserted)")

    flush()
    for qual, fn, args, kw in rpm.entries:
        short = qual.rsplit(".", 1)[-1]
        if short in cfg["callbacks"] and short not in cfg["fired"]:
            flush()
            state["mod"] = _run_callback(short, state["mod"], rpm.ctx)
            cfg["log"].append(f"-- callback before {qual}")
        inserted(short, after=False)
        if short in cfg["skip"]:
            cfg["log"].append(f"{qual} (skipped)")
        else:
            fn(real, *args, **kw)
            pending += 1
            cfg["log"].append(qual)
        inserted(short, after=True)
    flush()


def _stages_hook(*args: Any) -> Any:
    cfg = getattr(_LOCAL, "cfg", None)
    if not args:   # triton >= 3.9 calls the hook with no arguments to extend the cache key
        return ("twill", cfg["key"] if cfg else "none")
    backend, stages, options, language, capability = args
    if "ttgir" not in stages or cfg is None:
        return None
    original = type(backend).make_ttgir   # a staticmethod: a plain function
    g = dict(original.__globals__)
    _, passes, nvidia = _libs()
    g["ir"] = _IRProxy()
    g["passes"] = _Namespace(passes, "passes")
    g["nvidia"] = _Namespace(nvidia, "nvidia")
    patched = types.FunctionType(original.__code__, g, original.__name__, original.__defaults__,
                                 original.__closure__)

    def make_ttgir(src: Any, metadata: dict) -> Any:
        _LOCAL.state = {"options": options}
        cfg["fired"], cfg["inserted"] = set(), set()   # per compilation: every kernel gets the edits
        out = patched(src, metadata, options, capability)
        mod = _LOCAL.state.get("mod", out)
        missing = set(cfg["callbacks"]) - cfg["fired"] - {END}
        missing |= {f"{i.at} (to insert {i.binding})" for i in cfg.get("insert", ()) if i not in cfg["inserted"]}
        if missing:
            raise InputError("pass not in this Triton's make_ttgir", where=f"triton {_version()}",
                             expected="a pass short name such as add_assign_latencies", found=", ".join(sorted(missing)))
        if END in cfg["callbacks"]:
            mod = _run_callback(END, mod, mod.context)
        if mod is not out and hasattr(mod, "get_tensordesc_metadata"):
            metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
        return mod

    stages["ttgir"] = make_ttgir
    return None


def _version() -> str:
    import triton

    return triton.__version__


@contextlib.contextmanager
def _installed(callbacks: dict[str, Callback], skip: tuple[str, ...], log: list[str],
               insert: tuple[Insert, ...] = ()) -> Iterator[None]:
    import triton

    knobs = triton.knobs.runtime
    previous = knobs.add_stages_inspection_hook
    _LOCAL.cfg = {"callbacks": dict(callbacks), "skip": set(skip), "log": log, "fired": set(),
                  "insert": tuple(insert), "inserted": set(), "key": uuid.uuid4().hex}
    knobs.add_stages_inspection_hook = _stages_hook
    try:
        yield
    finally:
        knobs.add_stages_inspection_hook = previous
        _LOCAL.cfg = None


@contextlib.contextmanager
def _fresh_cache() -> Iterator[str]:
    """A private cache dir: Triton 3.6 leaves the hook out of its cache key, so a cached kernel would
    skip the callbacks."""
    import triton

    with tempfile.TemporaryDirectory(prefix="twill-cache-") as d:
        old_env = os.environ.get("TRITON_CACHE_DIR")
        os.environ["TRITON_CACHE_DIR"] = d
        old_knob = getattr(triton.knobs.cache, "dir", None)
        triton.knobs.cache.dir = d
        try:
            yield d
        finally:
            if old_env is None:
                os.environ.pop("TRITON_CACHE_DIR", None)
            else:
                os.environ["TRITON_CACHE_DIR"] = old_env
            triton.knobs.cache.dir = old_knob


def target_for(target: Any) -> Any:
    """A ``GPUTarget`` from an arch name (h100, h200, b200), a compute capability (90, 100) or a GPUTarget."""
    from triton.backends.compiler import GPUTarget

    if isinstance(target, GPUTarget):
        return target
    if isinstance(target, str):
        if target not in ARCH_SM:
            raise InputError("unknown arch", expected=" | ".join(ARCH_SM), found=target)
        target = ARCH_SM[target]
    return GPUTarget("cuda", int(target), 32)


def compile_with_callbacks(src: Any, target: Any, options: dict[str, Any],
                           callbacks: dict[str, Callback] | None = None, skip: tuple[str, ...] = (),
                           log: list[str] | None = None, insert: tuple[Insert, ...] = ()) -> Any:
    """``triton.compile(src)`` for ``target`` with ``callbacks[name](module)`` run right before each
    named pass of ``make_ttgir`` (``add_*`` short names; ``"__end__"`` after the last), the passes
    in ``skip`` left out and the ``insert`` passes added (a callback before a pass runs before the
    passes inserted there). Returns the ``CompiledKernel``; ``log`` (if given) receives the passes run.

    A Triton compile error becomes one ``CompileError`` naming the kernel and source line; exceptions
    raised by a callback (``StopCompile`` among them) pass through unchanged.

    Examples
    --------
    >>> seen = []
    >>> k = compile_with_callbacks(src, "h100", {"num_warps": 8},
    ...                            {"add_pipeline": lambda m: seen.append(module_text(m))})  # doctest: +SKIP
    """
    import triton

    log = [] if log is None else log
    try:
        with _fresh_cache(), _installed(dict(callbacks or {}), tuple(skip), log, tuple(insert)):
            return triton.compile(src, target=target_for(target), options=dict(options))
    except Exception as e:
        if e.__dict__.get("_twill_callback") or isinstance(e, InputError):
            raise
        raise compile_error(e, src) from None


def compile_error(e: BaseException, src: Any) -> CompileError:
    """One line from a Triton failure: the kernel, the source line when Triton gives one, the message."""
    from triton.compiler.errors import CompilationError

    fn = getattr(src, "fn", None)
    kernel = getattr(fn, "__name__", None) or getattr(src, "name", "kernel")
    where = kernel
    if isinstance(e, CompilationError):
        line = _source_line(e, fn)
        if line is not None:
            where = f"{kernel} ({line[0]}:{line[1]})"
        msg = (e.error_message or "").strip() or str(e).strip().splitlines()[-1]
        # A nested error keeps its own message as the last line of its text.
        msg = msg.splitlines()[-1] if msg else type(e).__name__
    else:
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        msg = lines[-1] if lines else type(e).__name__
    return CompileError(f"Triton failed to compile the kernel: {msg}", where=where)


def _source_line(e: Any, fn: Any) -> tuple[str, int] | None:
    from triton.runtime.jit import JITFunction, get_jit_fn_file_line

    lineno = getattr(getattr(e, "node", None), "lineno", None)
    if fn is None or lineno is None:
        return None
    # The error's source is the kernel's or one of the JIT functions it calls.
    candidates = [fn] + [v for v in getattr(fn.fn, "__globals__", {}).values() if isinstance(v, JITFunction)]
    for c in candidates:
        if getattr(c, "src", None) == e.src:
            file, begin = get_jit_fn_file_line(c)
            rel = os.path.relpath(file)
            return (file if rel.startswith("..") else rel), begin + lineno - 1
    return None


def pre_pipeline_ttgir(kernel_spec: Any, arch: str) -> str:
    """The kernel's TTGIR right before ``assign_latencies`` (the scheduling passes), with locations.

    ``kernel_spec`` is a ``twill.ir.load.KernelSpec``; compilation stops there (no PTX is made).

    Examples
    --------
    >>> from twill.ir.load import load_kernel
    >>> text = pre_pipeline_ttgir(load_kernel("kernels/fa3.py", "h100"), "h100")   # doctest: +SKIP
    >>> "ttng.warp_group_dot" in text                                             # doctest: +SKIP
    True
    """
    from twill.ir.load import source_of

    captured: dict[str, str] = {}

    def grab(mod: Any) -> None:
        captured["text"] = module_text(mod)
        raise StopCompile()

    try:
        compile_with_callbacks(source_of(kernel_spec), arch, kernel_spec.options, {PRE_PIPELINE_PASS: grab})
    except StopCompile:
        pass
    if "text" not in captured:   # pragma: no cover - the callback raises StopCompile when it runs
        raise CompileError("the pre-pipeline callback never ran", where=kernel_spec.name)
    return captured["text"]
