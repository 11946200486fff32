"""Offline compilation through the installed Triton's own pass pipeline, with Python callbacks
between passes (the pre-pipeline TTGIR is read just before ``assign_latencies``).

The NVIDIA backend's ``make_ttgir`` is re-run with its module globals ``ir``, ``passes`` and
``nvidia`` swapped for recording proxies, so the exact pass list of the installed Triton is replayed
(no hand-copied list that drifts between versions), split into several real pass managers with the
callbacks in between. Works with triton 3.6 (pybind11) and 3.9 (nanobind).
"""
from __future__ import annotations

import contextlib
import os
import re
import tempfile
import threading
import types
from dataclasses import dataclass, field
from typing import Any, Callable

# A callback gets the live module and returns None (module unchanged or edited in place) or new
# module text, which is parsed and replaces the module.
Callback = Callable[[Any], "str | None"]

PRE_PIPELINE_PASS = "add_assign_latencies"   # the pre-pipeline TTGIR is the module right before this


class StopCompile(Exception):
    """Raised by a callback to end compilation early (extraction needs no PTX)."""


@dataclass
class PassLog:
    passes: list[str] = field(default_factory=list)


_LOCAL = threading.local()


def _libs():
    from triton._C.libtriton import ir, nvidia, passes

    return ir, passes, nvidia


class _RecordingPM:
    """Stands in for ``ir.pass_manager`` inside make_ttgir: records ``add_*`` calls, replays on run."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.entries: list[tuple[str, Any, tuple, dict]] = []

    def enable_debug(self) -> None:
        pass

    def run(self, mod: Any, *args: Any) -> None:
        _replay(self, mod, args)


class _Namespace:
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


def _replay(rpm: _RecordingPM, mod: Any, run_args: tuple) -> None:
    ir, _, _ = _libs()
    cfg = _LOCAL.cfg
    state = _LOCAL.state
    state["mod"] = mod
    fired: set[str] = set()
    real = ir.pass_manager(rpm.ctx)
    real.enable_debug()
    pending = 0

    def flush() -> None:
        nonlocal real, pending
        if pending:
            real.run(state["mod"], *run_args)
        real = ir.pass_manager(rpm.ctx)
        real.enable_debug()
        pending = 0

    for qual, fn, args, kw in rpm.entries:
        short = qual.rsplit(".", 1)[-1]
        if short in cfg["callbacks"] and short not in fired:
            flush()
            fired.add(short)
            new_text = cfg["callbacks"][short](state["mod"])
            if new_text is not None:
                state["mod"] = parse_module(new_text, rpm.ctx)
            cfg["log"].passes.append(f"-- callback before {qual}")
        if short in cfg["skip"]:
            cfg["log"].passes.append(f"{qual} (skipped)")
            continue
        fn(real, *args, **kw)
        pending += 1
        cfg["log"].passes.append(qual)
    flush()
    missing = set(cfg["callbacks"]) - fired - {"__end__"}
    if missing and cfg.get("strict", True):
        raise RuntimeError(f"twill: pass(es) {sorted(missing)} not in this Triton's make_ttgir "
                           f"({len(rpm.entries)} passes recorded)")
    if "__end__" in cfg["callbacks"]:
        new_text = cfg["callbacks"]["__end__"](state["mod"])
        if new_text is not None:
            state["mod"] = parse_module(new_text, rpm.ctx)


def _stages_hook(*args: Any) -> Any:
    if not args:  # triton >= 3.9 also calls the hook with no arguments to extend the cache key
        cfg = getattr(_LOCAL, "cfg", None)
        return ("twill", cfg["key"] if cfg else "none")
    backend, stages, options, language, capability = args
    if "ttgir" not in stages or "ttir" not in stages:
        return None
    original = type(backend).make_ttgir   # a staticmethod: a plain function
    g = dict(original.__globals__)
    g["ir"] = _IRProxy()
    ir, passes, nvidia = _libs()
    g["passes"] = _Namespace(passes, "passes")
    g["nvidia"] = _Namespace(nvidia, "nvidia")
    patched = types.FunctionType(original.__code__, g, original.__name__, original.__defaults__,
                                 original.__closure__)

    def make_ttgir(src: Any, metadata: dict) -> Any:
        _LOCAL.state = {}
        out = patched(src, metadata, options, capability)
        mod = _LOCAL.state.get("mod", out)
        if mod is not out and hasattr(mod, "get_tensordesc_metadata"):
            metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
        return mod

    stages["ttgir"] = make_ttgir
    return None


@contextlib.contextmanager
def callbacks_installed(callbacks: dict[str, Callback], skip: tuple[str, ...] = (), key: str = "",
                        strict: bool = True):
    """Install the stages hook for the duration of the block (restores the previous hook)."""
    import triton

    knobs = triton.knobs.runtime
    previous = knobs.add_stages_inspection_hook
    log = PassLog()
    _LOCAL.cfg = {"callbacks": dict(callbacks), "skip": set(skip), "log": log, "key": key, "strict": strict}
    knobs.add_stages_inspection_hook = _stages_hook
    try:
        yield log
    finally:
        knobs.add_stages_inspection_hook = previous
        _LOCAL.cfg = None


def target_for(arch_sm: int) -> Any:
    from triton.backends.compiler import GPUTarget

    return GPUTarget("cuda", arch_sm, 32)


def compile_with_callbacks(src: Any, sm: int, options: dict[str, Any], callbacks: dict[str, Callback],
                           skip: tuple[str, ...] = (), key: str = "") -> tuple[Any, PassLog]:
    """``triton.compile`` for ``sm`` (90, 100) with ``callbacks`` run before the named passes.

    Triton's cache would hide the callbacks, so compilation always runs (fresh cache dir per call).
    """
    import triton

    with _fresh_cache(), callbacks_installed(callbacks, skip, key=key) as log:
        kernel = triton.compile(src, target=target_for(sm), options=dict(options))
    return kernel, log


@contextlib.contextmanager
def _fresh_cache():
    import triton

    with tempfile.TemporaryDirectory(prefix="twill-cache-") as d:
        old = os.environ.get("TRITON_CACHE_DIR")
        os.environ["TRITON_CACHE_DIR"] = d
        knob_old = None
        try:
            knob_old = triton.knobs.cache.dir
            triton.knobs.cache.dir = d
        except AttributeError:
            pass
        try:
            yield d
        finally:
            if old is None:
                os.environ.pop("TRITON_CACHE_DIR", None)
            else:
                os.environ["TRITON_CACHE_DIR"] = old
            if knob_old is not None:
                triton.knobs.cache.dir = knob_old


def pre_pipeline_ttgir(src: Any, sm: int, options: dict[str, Any]) -> tuple[str, list[str]]:
    """The TTGIR of ``src`` right before ``assign_latencies`` (with locations), and the passes run."""
    captured: dict[str, str] = {}

    def grab(mod: Any) -> None:
        captured["text"] = module_text(mod)
        raise StopCompile()

    try:
        _, log = compile_with_callbacks(src, sm, options, {PRE_PIPELINE_PASS: grab})
    except StopCompile:
        pass
    if "text" not in captured:
        raise RuntimeError("twill: the pre-pipeline callback never ran")
    return captured["text"], []


_LOC_RE = re.compile(r'#loc(\d*) = loc\("([^"]*)":(\d+):(\d+)\)')
