"""Load a kernel for extraction, specialise it, and compile it to pre-pipeline TTGIR offline.

Kernel files from the wild do GPU work at import time (device queries, tensors, benchmarks), so a
``.py`` is not imported: its AST is reduced to imports, ``@triton.jit`` / ``@triton.autotune``
functions and constant assignments (``TWILL_SPEC`` among them), and only that is executed.
"""
from __future__ import annotations

import ast
import hashlib
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twill.errors import CompileError, InputError
from twill.graph.model import LoopGraph

ARCH_SM = {"h100": 90, "h200": 90, "b200": 100}
_SAFE_IMPORTS = ("triton", "math", "typing", "__future__", "functools", "dataclasses", "enum", "os")


@dataclass(frozen=True)
class KernelSpec:
    """A kernel specialisation: what ``triton.compile`` needs besides the function."""

    name: str
    signature: dict[str, str]
    constexprs: dict[str, Any]
    num_warps: int = 4
    num_stages: int = 3
    divisibility: tuple[str, ...] = ()
    extra_options: dict[str, Any] = field(default_factory=dict)


def _is_jit(dec: ast.expr) -> bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    text = ast.unparse(target)
    return text.endswith(("jit", "autotune", "heuristics"))


def _sanitise(tree: ast.Module) -> ast.Module:
    keep: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mod = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            if (mod or "").split(".")[0] in _SAFE_IMPORTS:
                keep.append(node)
        elif isinstance(node, ast.FunctionDef) and any(_is_jit(d) for d in node.decorator_list):
            keep.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            value = node.value
            if value is None:
                continue
            # Constants, dicts/lists of constants, tl.constexpr(...) and triton.Config lists.
            try:
                names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
            except Exception:  # pragma: no cover
                continue
            if names <= {"tl", "triton", "True", "False", "None", "float", "int", "math"}:
                keep.append(node)
    return ast.Module(body=keep, type_ignores=[])


def load_module(path: str) -> types.ModuleType:
    """Execute the extraction-safe part of a kernel file (no torch, no GPU needed)."""
    p = Path(path)
    try:
        source = p.read_text()
    except OSError as e:
        raise InputError("cannot read kernel file", where=path, found=e.strerror) from None
    try:
        tree = ast.parse(source, filename=str(p))
    except SyntaxError as e:
        raise InputError("kernel file does not parse", where=f"{path}:{e.lineno}", found=e.msg) from None
    code = compile(_sanitise(tree), str(p.resolve()), "exec")
    name = f"twill_kernel_{hashlib.sha1(str(p.resolve()).encode()).hexdigest()[:10]}"
    mod = types.ModuleType(name)
    mod.__file__ = str(p.resolve())
    sys.modules[name] = mod   # triton's JIT looks functions' globals up through their module
    try:
        exec(code, mod.__dict__)
    except ImportError as e:
        raise InputError("kernel file needs a module that is not installed", where=path,
                         found=str(e.name or e)) from None
    except Exception as e:
        raise InputError("kernel file failed while loading its kernels", where=path,
                         found=f"{type(e).__name__}: {e}") from None
    return mod


def _jit_functions(mod: types.ModuleType) -> dict[str, Any]:
    from triton.runtime.autotuner import Autotuner
    from triton.runtime.jit import JITFunction

    out = {}
    for k, v in vars(mod).items():
        if isinstance(v, (JITFunction, Autotuner)) or type(v).__name__ in ("JITFunction", "Autotuner", "Heuristics"):
            out[k] = v
    return out


def _base_fn(obj: Any) -> Any:
    while hasattr(obj, "fn") and not hasattr(obj, "arg_names") or type(obj).__name__ in ("Autotuner", "Heuristics"):
        obj = obj.fn
    return obj


def _has_loop(fn: Any) -> bool:
    src = getattr(fn, "src", "")
    try:
        tree = ast.parse(src.lstrip()) if src else None
    except SyntaxError:
        return False
    return tree is not None and any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(tree))


def pick_kernel(mod: types.ModuleType, name: str | None, where: str) -> tuple[str, Any]:
    fns = _jit_functions(mod)
    spec = getattr(mod, "TWILL_SPEC", None)
    if name is None and isinstance(spec, dict) and spec.get("kernel"):
        name = spec["kernel"]
    if name is not None:
        if name not in fns:
            raise InputError("no such kernel", where=where, expected=" | ".join(sorted(fns)) or "a @triton.jit kernel",
                             found=name)
        return name, fns[name]
    if not fns:
        raise InputError("no kernel in file", where=where, expected="a @triton.jit function", found="none")
    looped = [k for k, v in fns.items() if _has_loop(_base_fn(v))]
    if len(looped) == 1:
        return looped[0], fns[looped[0]]
    if not looped:
        raise InputError("no kernel with a loop", where=where, expected="a @triton.jit kernel with a for loop",
                         found=", ".join(sorted(fns)))
    raise InputError("several kernels with loops", where=where, expected="--kernel NAME",
                     found=", ".join(sorted(looped)))


def _parse_value(v: str) -> Any:
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return {"True": True, "False": False}.get(v, v)


def make_spec(mod: types.ModuleType, name: str, fn: Any, arch: str, args: dict[str, str],
              consts: dict[str, str], num_warps: int | None, where: str) -> KernelSpec:
    """The specialisation: TWILL_SPEC, else @triton.autotune configs, else flags; flags override."""
    base = _base_fn(fn)
    arg_names: list[str] = list(base.arg_names)
    constexpr_names = {arg_names[i] for i in getattr(base, "constexprs", [])}
    signature: dict[str, str] = {}
    constexprs: dict[str, Any] = {}
    warps, stages, div = 4, 3, ()
    spec = getattr(mod, "TWILL_SPEC", None)
    if isinstance(spec, dict) and spec.get("kernel", name) == name:
        merged = dict(spec)
        merged.update(dict(spec.get("arch", {})).get(arch, {}))
        signature.update(merged.get("signature", {}))
        constexprs.update(merged.get("constexprs", {}))
        warps = merged.get("num_warps", warps)
        stages = merged.get("num_stages", stages)
        div = tuple(merged.get("divisibility", ()))
    elif type(fn).__name__ == "Autotuner" and getattr(fn, "configs", None):
        cfg = fn.configs[0]
        constexprs.update(cfg.kwargs)
        warps, stages = cfg.num_warps or warps, cfg.num_stages or stages
    for k, v in args.items():
        signature[k] = v
    for k, v in consts.items():
        constexprs[k] = _parse_value(v)
    if num_warps is not None:
        warps = num_warps
    for c in constexpr_names:
        signature.setdefault(c, "constexpr")
    missing_args = [a for a in arg_names if a not in signature]
    missing_consts = [a for a in arg_names if signature.get(a) == "constexpr" and a not in constexprs]
    if missing_args or missing_consts:
        parts = []
        if missing_args:
            parts.append(f"argument types for {', '.join(missing_args)} (--arg NAME=TYPE, e.g. --arg x=*fp16)")
        if missing_consts:
            parts.append(f"constexpr values for {', '.join(missing_consts)} (--const NAME=VALUE)")
        raise InputError("kernel specialisation incomplete", where=f"{where}: {name}",
                         expected="TWILL_SPEC, @triton.autotune configs or flags", found="missing " + "; ".join(parts))
    ordered = {a: signature[a] for a in arg_names}
    return KernelSpec(name=name, signature=ordered, constexprs={k: constexprs[k] for k in arg_names if k in constexprs},
                      num_warps=int(warps), num_stages=int(stages), divisibility=div)


def source_of(fn: Any, spec: KernelSpec) -> Any:
    from triton.compiler import ASTSource

    names = list(spec.signature)
    attrs = {(names.index(a),): [["tt.divisibility", 16]] for a in spec.divisibility if a in names}
    return ASTSource(fn=_base_fn(fn), signature=spec.signature, constexprs=spec.constexprs, attrs=attrs)


def compile_pre_pipeline(fn: Any, spec: KernelSpec, arch: str, where: str) -> str:
    from twill.ir.pipeline import pre_pipeline_ttgir

    try:
        text, _ = pre_pipeline_ttgir(source_of(fn, spec), ARCH_SM[arch],
                                     {"num_warps": spec.num_warps, "num_stages": spec.num_stages})
    except Exception as e:   # Triton reports compile errors as assorted exception types
        raise CompileError(f"Triton failed to compile the kernel: {_first_line(e)}", where=f"{where}: {spec.name}") \
            from None
    return text


def _first_line(e: Exception) -> str:
    msg = str(e).strip()
    lines = [l.strip() for l in msg.splitlines() if l.strip()]
    # Triton's CompilationError puts "at LINE:COL:" first, then the source, then the message.
    tail = lines[-1] if lines else type(e).__name__
    head = lines[0] if lines else ""
    return f"{head} {tail}" if head and head != tail and head.startswith("at ") else tail


def graph_for_file(path: str, arch: str, kernel: str | None = None, loop: int | None = None,
                   args: dict[str, str] | None = None, consts: dict[str, str] | None = None,
                   num_warps: int | None = None) -> tuple[LoopGraph, str]:
    """The loop graph of a kernel file (.py or .ttgir) and the TTGIR it came from."""
    from twill.graph.build import build_graph
    from twill.ir.ttgir import parse

    if arch not in ARCH_SM:
        raise InputError("unknown arch", expected=" | ".join(ARCH_SM), found=arch)
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", where=path, expected="a kernel .py or a .ttgir")
    if p.suffix in (".ttgir", ".mlir"):
        text = p.read_text()
        module = parse(text, where=path)
        name = kernel or p.stem
        meta = {"source_file": str(p), "source_sha256": hashlib.sha256(text.encode()).hexdigest()}
        return build_graph(module, arch, loop=loop, kernel=name, meta=meta), text
    if p.suffix != ".py":
        raise InputError("unknown input kind", where=path, expected="a .py kernel, a .ttgir or a graph .json",
                         found=p.suffix or "no suffix")
    mod = load_module(path)
    name, fn = pick_kernel(mod, kernel, path)
    spec = make_spec(mod, name, fn, arch, args or {}, consts or {}, num_warps, path)
    text = compile_pre_pipeline(fn, spec, arch, path)
    module = parse(text, where=path)
    meta = {"source_file": str(p), "source_sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
            "num_stages": spec.num_stages, "constexprs": spec.constexprs}
    graph = build_graph(module, arch, loop=loop, kernel=name, meta=meta)
    return graph, text
