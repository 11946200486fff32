"""Capture the specialisation of every Triton kernel a program compiles, from a real launch, into a spec file.

On a GPU machine, ``twill capture -- python script.py`` (or ``with twill.capture("spec.json"): ...``)
records, through Triton's own runtime hooks, each kernel Triton compiles for a launch: the file and
function, the signature (argument types as Triton specialised them), the constexprs, ``num_warps``,
``num_stages``, the arguments Triton found divisible by 16, the GPU's compute capability, and how
often each compiled binary was launched; the autotuner's chosen config is marked. ``twill optimize
--spec FILE`` reads the file on a machine without a GPU (``twill.ir.spec``). Nothing here imports a
solver, and Triton only when a capture starts.

Hooks used (Triton 3.6, ``triton.knobs.runtime``): ``jit_post_compile_hook`` (called by
``JITFunction._do_compile`` once per specialisation a process compiles or loads from the cache, with
the signature, constants, options and attributes), ``kernel_load_end_hook`` (the binary's function
handle and hash, when it is loaded onto the GPU) and ``launch_enter_hook`` (every launch, with the
function handle). A hook already installed by someone else is chained, not replaced.
"""
from __future__ import annotations

import atexit
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from twill.ir.spec import SPEC_SCHEMA
from twill.util import atomic_write, sha256

ENV_DIR = "TWILL_CAPTURE_DIR"     # set by ``twill capture``: each process writes <dir>/<pid>.json


def _name_of(path: tuple, arg_names: list[str]) -> str | None:
    """An argument name for a constant's or attribute's path (``(3,)`` -> the 4th parameter)."""
    if len(path) == 1 and isinstance(path[0], int) and path[0] < len(arg_names):
        return arg_names[path[0]]
    return None


def _plain(v: Any) -> Any:
    """A constexpr value as JSON: a dtype as its Triton name (``fp16``), a ``constexpr`` as its value."""
    if type(v).__name__ == "constexpr":
        v = getattr(v, "value", v)
    if isinstance(v, (int, float, bool, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return str(v)


def record_of(fn: Any, compile: dict[str, Any], capability: int | None) -> dict[str, Any]:
    """A spec entry from what ``jit_post_compile_hook`` receives (``fn``: Triton's ``JitFunctionInfo``,
    ``compile``: its compile info)."""
    jf = fn.jit_function
    names = list(jf.arg_names)
    code = getattr(jf.fn, "__code__", None)
    file = str(Path(code.co_filename).resolve()) if code is not None else None
    try:
        digest = sha256(Path(file).read_bytes()) if file else None
    except OSError:
        digest = None
    consts = {n: _plain(v) for p, v in (compile.get("constants") or {}).items() if (n := _name_of(p, names))}
    attrs = (compile.get("configs") or [{}])[0] or {}
    div = sorted({n for p, a in attrs.items() for k, *rest in a if k == "tt.divisibility" and rest and rest[0] >= 16
                  if (n := _name_of(p, names))}, key=names.index)
    sig = {str(getattr(k, "name", k)): str(v) for k, v in (compile.get("signature") or {}).items()}
    return {"file": file, "file_sha256": digest, "function": jf.__name__, "module": fn.module,
            "signature": sig, "constexprs": consts, "num_warps": compile.get("num_warps"),
            "num_stages": compile.get("num_stages"), "num_ctas": compile.get("num_ctas"),
            "divisibility": div, "capability": capability, "compiles": 1, "launches": 0, "chosen": False}


def _same_config(entry: dict[str, Any], cfg: Any) -> bool:
    kw = dict(getattr(cfg, "kwargs", {}) or {})
    return all(_plain(v) == entry["constexprs"].get(k) for k, v in kw.items()) and \
        getattr(cfg, "num_warps", entry["num_warps"]) == entry["num_warps"] and \
        getattr(cfg, "num_stages", entry["num_stages"]) == entry["num_stages"]


def _chosen_configs(entry: dict[str, Any], scope: dict[str, Any] | None = None) -> list[Any]:
    """The configs the autotuner wrapping ``entry``'s kernel chose: its module's attribute of that name, else the
    name in ``scope`` (the kernel function's globals: a file loaded by path, not in ``sys.modules``, as
    ``importlib.util.spec_from_file_location`` leaves it; run 97 lost Mamba's choice so)."""
    obj = getattr(sys.modules.get(entry.get("module") or ""), entry["function"], None)
    if obj is None and scope is not None:
        obj = scope.get(entry["function"])
    out = []
    while obj is not None:
        cache = getattr(obj, "cache", None)
        if isinstance(cache, dict) and hasattr(obj, "configs"):
            out.extend(cache.values())
        obj = getattr(obj, "fn", None) if not type(obj).__name__ == "JITFunction" else None
    return out


class Capture:
    """Records kernels as Triton compiles and launches them; ``entries()`` are the spec file's."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.records: dict[str, dict[str, Any]] = {}
        self.handles: dict[Any, str] = {}
        self.scopes: dict[str, dict[str, Any]] = {}     # each record's kernel function's globals (its autotuner)
        self.lock = threading.Lock()
        self._previous: Any = None
        self.installed = False

    # -- the hooks -----------------------------------------------------------------------------
    def on_compile(self, *, key: Any, repr: str, fn: Any, compile: dict[str, Any], is_manual_warmup: bool,
                   already_compiled: bool) -> Any:
        try:
            rec = record_of(fn, compile, _capability())
            ident = _binary_hash(fn, compile, key) or f"{rec['file']}:{rec['function']}:{key}"
            with self.lock:
                self.scopes.setdefault(ident, getattr(fn.jit_function.fn, "__globals__", None) or {})
                if ident in self.records:
                    self.records[ident]["compiles"] += 1
                else:
                    self.records[ident] = rec
            self._flush()
        except Exception as e:   # noqa: BLE001 - a capture must never break the program it watches
            print(f"twill capture: could not record {getattr(fn, 'name', '?')}: {type(e).__name__}: {e}",
                  file=sys.stderr)
        prev = self._previous
        return prev(key=key, repr=repr, fn=fn, compile=compile, is_manual_warmup=is_manual_warmup,
                    already_compiled=already_compiled) if prev is not None else None

    def on_load(self, module: Any, function: Any, name: str, metadata_group: Any, hash: str) -> None:
        if function is not None:
            self.handles[function] = hash

    def on_launch(self, metadata: Any) -> None:
        data = getattr(metadata, "data", metadata) or {}
        ident = self.handles.get(data.get("function")) if isinstance(data, dict) else None
        rec = self.records.get(ident) if ident is not None else None
        if rec is not None:
            rec["launches"] += 1

    # -- installing ----------------------------------------------------------------------------
    def install(self) -> "Capture":
        import triton

        rt = triton.knobs.runtime
        if not self.installed:
            self._previous = rt.jit_post_compile_hook
            rt.jit_post_compile_hook = self.on_compile
            rt.kernel_load_end_hook.add(self.on_load)
            rt.launch_enter_hook.add(self.on_launch)
            self.installed = True
        return self

    def uninstall(self) -> None:
        import triton

        rt = triton.knobs.runtime
        if self.installed:
            rt.jit_post_compile_hook = self._previous
            rt.kernel_load_end_hook.remove(self.on_load)
            rt.launch_enter_hook.remove(self.on_launch)
            self.installed = False

    def __enter__(self) -> "Capture":
        return self.install()

    def __exit__(self, *exc: Any) -> None:
        self.uninstall()
        self.write()

    # -- the spec file -------------------------------------------------------------------------
    def entries(self) -> list[dict[str, Any]]:
        """What was captured, the autotuner's choices marked."""
        out = []
        for ident, r in self.records.items():
            e = dict(r)
            e["chosen"] = any(_same_config(e, c) for c in _chosen_configs(e, self.scopes.get(ident)))
            out.append(e)
        return out

    def write(self, path: str | Path | None = None) -> Path | None:
        target = Path(path) if path is not None else self.path
        if target is None:
            return None
        return atomic_write(target, document(self.entries()))

    def _flush(self) -> None:
        if self.path is not None:
            self.write()


def document(entries: list[dict[str, Any]]) -> str:
    """A spec file's text."""
    import triton

    return json.dumps({"schema": SPEC_SCHEMA, "triton": triton.__version__, "kernels": entries}, indent=1) + "\n"


def merge(parts: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The entries of several processes' captures as one list: the same kernel, specialisation and GPU
    once, with compiles and launches summed and chosen if any process's autotuner chose it."""
    out: dict[str, dict[str, Any]] = {}
    for entries in parts:
        for e in entries:
            key = json.dumps({k: e.get(k) for k in ("file", "function", "signature", "constexprs", "num_warps",
                                                    "num_stages", "num_ctas", "divisibility", "capability")},
                             sort_keys=True)
            if key in out:
                m = out[key]
                m["compiles"] += int(e.get("compiles", 0))
                m["launches"] += int(e.get("launches", 0))
                m["chosen"] = bool(m["chosen"] or e.get("chosen"))
            else:
                out[key] = dict(e)
    return list(out.values())


def _binary_hash(fn: Any, compile: dict[str, Any], key: Any) -> str | None:
    """The hash of the binary Triton just put in the JIT function's cache for ``key``."""
    try:
        kernel = fn.jit_function.device_caches[compile.get("device")][0].get(key)
    except Exception:   # noqa: BLE001 - no device cache: the entry is keyed by its specialisation
        return None
    return getattr(kernel, "hash", None)


def _capability() -> int | None:
    try:
        from triton.runtime import driver

        return int(driver.active.get_current_target().arch)
    except Exception:   # noqa: BLE001 - no driver (a test on a CPU machine)
        return None


def capture(path: str | Path = "twill-spec.json") -> Capture:
    """Start capturing the kernels this process compiles into ``path`` (written as they compile, and
    at exit with the launch counts and the autotuner's choices). Also a context manager.

    Examples
    --------
    >>> import twill                                   # doctest: +SKIP
    >>> with twill.capture("spec.json"):               # doctest: +SKIP
    ...     my_kernel[grid](x, y, n)
    """
    cap = Capture(path).install()
    atexit.register(cap.write)
    return cap


def start_from_env() -> Capture | None:
    """Called at interpreter start under ``twill capture``: capture into ``$TWILL_CAPTURE_DIR/<pid>.json``."""
    d = os.environ.get(ENV_DIR)
    if not d:
        return None
    try:
        return capture(Path(d) / f"{os.getpid()}.json")
    except ImportError:      # a Python without Triton (a helper process of the program): nothing to capture
        return None
