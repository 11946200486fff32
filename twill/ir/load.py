"""Load a kernel file for extraction without running its GPU or torch work, pick a kernel and its specialisation.

Kernel files from the wild do GPU work at import time (device queries, tensors, benchmarks), so a
``.py`` is never imported. Its AST is reduced to what defines kernels: imports of triton and the
standard library, ``@triton.jit`` / ``@triton.autotune`` / ``@triton.heuristics`` functions, plain
helper functions (definitions only), and constant assignments (``TWILL_SPEC``, ``BLOCK = 128``,
``configs = [triton.Config(...) ...]``). The kept statements run one at a time: a helper or constant
that fails is dropped; a kernel (or ``TWILL_SPEC``) that fails is one ``InputError`` naming what is
missing.
"""
from __future__ import annotations

import ast
import builtins
import hashlib
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twill.errors import InputError

_KERNEL_DECORATORS = ("jit", "autotune", "heuristics")
# Calls a constant assignment may make: pure constructors of values, nothing that touches a device.
_SAFE_CALLS = {"constexpr", "Config", "int", "float", "str", "bool", "range", "list", "dict", "tuple", "set",
               "len", "min", "max", "sum", "abs", "sorted", "zip", "enumerate", "reversed", "pow", "round",
               "sqrt", "log", "log2", "exp", "ceil", "floor", "cdiv", "next_power_of_2", "dtype"}
_SAFE_ROOTS = {"tl", "triton", "math", "language"}


@dataclass(frozen=True)
class KernelSpec:
    """A kernel specialisation: the JIT function and what ``triton.compile`` needs besides it.

    ``fn`` is the ``JITFunction`` (autotune/heuristics wrappers removed); ``where`` names the file
    for error messages.
    """

    name: str
    signature: dict[str, str]
    constexprs: dict[str, Any]
    num_warps: int = 4
    num_stages: int = 3
    divisibility: tuple[str, ...] = ()
    extra_options: dict[str, Any] = field(default_factory=dict)
    fn: Any = field(default=None, compare=False, repr=False)
    where: str = ""

    @property
    def options(self) -> dict[str, Any]:
        """Compile options for ``triton.compile``."""
        return {"num_warps": self.num_warps, "num_stages": self.num_stages, **self.extra_options}


# -- safe loading ---------------------------------------------------------------------------------
def _decorator_name(dec: ast.expr) -> str:
    target = dec.func if isinstance(dec, ast.Call) else dec
    return ast.unparse(target).rsplit(".", 1)[-1]


def _is_kernel_def(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef) and any(
        _decorator_name(d) in _KERNEL_DECORATORS for d in node.decorator_list)


def _safe_import(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            return False
        roots = [(node.module or "").split(".")[0]]
    else:
        roots = [a.name.split(".")[0] for a in node.names]
    return all(r == "triton" or r in sys.stdlib_module_names for r in roots)


def _is_constant_expr(value: ast.expr, known: set[str]) -> bool:
    """Literals, containers, arithmetic, names already kept, ``tl.*`` attributes and safe calls."""
    bound = {n.id for c in ast.walk(value) if isinstance(c, ast.comprehension)
             for n in ast.walk(c.target) if isinstance(n, ast.Name)}
    for n in ast.walk(value):
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(n, ast.Call):
            fname = ast.unparse(n.func).rsplit(".", 1)[-1]
            if fname not in _SAFE_CALLS:
                return False
        if isinstance(n, ast.Attribute):
            root = n
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id not in _SAFE_ROOTS and root.id not in known:
                return False
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id not in known and n.id not in bound and not hasattr(builtins, n.id):
                return False
    return True


def _assigned_names(node: ast.stmt) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def extraction_statements(tree: ast.Module) -> list[tuple[ast.stmt, bool]]:
    """The statements kept for extraction, each with whether it is essential (a kernel or TWILL_SPEC)."""
    keep: list[tuple[ast.stmt, bool]] = []
    known: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if _safe_import(node):
                keep.append((node, False))
                known.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef):
            if _is_kernel_def(node):
                keep.append((node, True))
            elif not node.decorator_list:
                keep.append((node, False))          # a plain helper: defining it runs nothing
            known.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            names = _assigned_names(node)
            if _is_constant_expr(node.value, known):
                if isinstance(node, ast.AnnAssign):   # annotations may name torch types: drop them
                    node = ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)
                keep.append((node, "TWILL_SPEC" in names))
                known.update(names)
    return keep


def load_module(path: str) -> types.ModuleType:
    """Run the extraction-safe part of a kernel file (no torch, no GPU needed).

    Examples
    --------
    >>> mod = load_module("kernels/fa3.py")        # doctest: +SKIP
    >>> sorted(k for k in vars(mod) if not k.startswith("__"))[:2]   # doctest: +SKIP
    ['PROBLEM', 'SMALL']
    """
    p = Path(path)
    try:
        source = p.read_text()
    except OSError as e:
        raise InputError("cannot read kernel file", where=path, found=e.strerror) from None
    try:
        tree = ast.parse(source, filename=str(p))
    except SyntaxError as e:
        raise InputError("kernel file does not parse", where=f"{path}:{e.lineno}", found=e.msg) from None
    filename = str(p.resolve())
    name = f"twill_kernel_{hashlib.sha1(filename.encode()).hexdigest()[:10]}"
    mod = types.ModuleType(name)
    mod.__file__ = filename
    sys.modules[name] = mod   # triton's JIT resolves a function's globals through its module
    for node, essential in extraction_statements(tree):
        code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec")
        try:
            exec(code, mod.__dict__)
        except Exception as e:   # noqa: BLE001 - any failure of kept code is reported or dropped
            if not essential:
                continue
            what = getattr(node, "name", None) or "TWILL_SPEC"
            if isinstance(e, NameError):
                missing = getattr(e, "name", None) or str(e)
                raise InputError(f"defining {what} needs '{missing}', which extraction does not run "
                                 "(only triton/stdlib imports, kernels, helpers and constants are kept)",
                                 where=f"{path}:{node.lineno}") from None
            if isinstance(e, ImportError):
                raise InputError(f"{what} needs a module that is not installed", where=f"{path}:{node.lineno}",
                                 found=str(e.name or e)) from None
            raise InputError(f"defining {what} failed", where=f"{path}:{node.lineno}",
                             found=f"{type(e).__name__}: {e}") from None
    return mod


# -- picking a kernel ----------------------------------------------------------------------------------
def jit_functions(mod: types.ModuleType) -> dict[str, Any]:
    """The module's kernels (JIT functions and their autotune/heuristics wrappers), by name."""
    from triton.runtime.jit import KernelInterface

    return {k: v for k, v in vars(mod).items() if isinstance(v, KernelInterface)}


def base_fn(obj: Any) -> Any:
    """The ``JITFunction`` under any autotune/heuristics wrappers."""
    from triton.runtime.jit import JITFunction

    while not isinstance(obj, JITFunction) and hasattr(obj, "fn"):
        obj = obj.fn
    return obj


def _has_loop(fn: Any) -> bool:
    try:
        tree = ast.parse(getattr(fn, "src", "") or "")
    except SyntaxError:
        return False
    return any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(tree))


def pick_kernel(mod: types.ModuleType, name: str | None, where: str) -> tuple[str, Any]:
    """``--kernel NAME``, else TWILL_SPEC's kernel, else the only kernel with a loop."""
    fns = jit_functions(mod)
    spec = getattr(mod, "TWILL_SPEC", None)
    if name is None and isinstance(spec, dict) and spec.get("kernel"):
        name = spec["kernel"]
    if name is not None:
        if name not in fns:
            raise InputError("no such kernel", where=where,
                             expected=" | ".join(sorted(fns)) or "a @triton.jit kernel", found=name)
        return name, fns[name]
    if not fns:
        raise InputError("no kernel in file", where=where, expected="a @triton.jit function", found="none")
    looped = [k for k, v in fns.items() if _has_loop(base_fn(v))]
    if len(looped) == 1:
        return looped[0], fns[looped[0]]
    if not looped:
        raise InputError("no kernel with a loop", where=where, expected="a @triton.jit kernel with a for loop",
                         found=", ".join(sorted(fns)))
    raise InputError("several kernels with loops", where=where, expected="--kernel NAME",
                     found=", ".join(sorted(looped)))


# -- the specialisation ---------------------------------------------------------------------------------
def parse_value(v: str) -> Any:
    """A ``--const`` value: int, float, True/False, else the string."""
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return {"True": True, "False": False}.get(v, v)


def make_spec(mod: types.ModuleType, name: str, fn: Any, arch: str, args: dict[str, str] | None = None,
              consts: dict[str, str] | None = None, num_warps: int | None = None, where: str = "") -> KernelSpec:
    """The specialisation: TWILL_SPEC (with its ``arch`` overrides), else the first @triton.autotune
    config, else flags; flags override both.

    Examples
    --------
    >>> spec = make_spec(mod, "_attn_fwd", fn, "h100")    # doctest: +SKIP
    >>> spec.num_warps, spec.constexprs["BLOCK_M"]         # doctest: +SKIP
    (8, 128)
    """
    jf = base_fn(fn)
    arg_names: list[str] = list(jf.arg_names)
    constexpr_names = {p.name for p in jf.params if p.is_constexpr}
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
    else:
        configs = getattr(fn, "configs", None)
        if configs:
            cfg = configs[0]
            constexprs.update(cfg.kwargs)
            warps, stages = cfg.num_warps or warps, cfg.num_stages or stages
    signature.update(args or {})
    constexprs.update({k: parse_value(v) for k, v in (consts or {}).items()})
    if num_warps is not None:
        warps = num_warps
    for c in constexpr_names:
        signature[c] = "constexpr"
    for a, d in zip(arg_names, jf.params):
        if a in constexpr_names and a not in constexprs and getattr(d, "has_default", False):
            constexprs[a] = d.default
    missing_args = [a for a in arg_names if a not in signature]
    missing_consts = [a for a in arg_names if signature.get(a) == "constexpr" and a not in constexprs]
    if missing_args or missing_consts:
        parts = []
        if missing_args:
            parts.append(f"argument types for {', '.join(missing_args)} (--arg NAME=TYPE, e.g. --arg x=*fp16)")
        if missing_consts:
            parts.append(f"constexpr values for {', '.join(missing_consts)} (--const NAME=VALUE)")
        raise InputError("kernel specialisation incomplete", where=f"{where}: {name}" if where else name,
                         expected="TWILL_SPEC, @triton.autotune configs or flags", found="missing " + "; ".join(parts))
    return KernelSpec(name=name, signature={a: signature[a] for a in arg_names},
                      constexprs={k: constexprs[k] for k in arg_names if k in constexprs},
                      num_warps=int(warps), num_stages=int(stages), divisibility=div, fn=jf, where=where)


def source_of(spec: KernelSpec) -> Any:
    """The ``ASTSource`` that ``triton.compile`` takes for this specialisation."""
    from triton.compiler import ASTSource

    names = list(spec.signature)
    attrs = {(names.index(a),): [["tt.divisibility", 16]] for a in spec.divisibility if a in names}
    return ASTSource(fn=spec.fn, signature=spec.signature, constexprs=spec.constexprs, attrs=attrs)


def load_kernel(path: str, arch: str, kernel: str | None = None, args: dict[str, str] | None = None,
                consts: dict[str, str] | None = None, num_warps: int | None = None) -> KernelSpec:
    """Load ``path`` safely, pick the kernel and build its specialisation for ``arch`` (a machine name,
    resolved by the caller: it only selects TWILL_SPEC's per-arch overrides here)."""
    mod = load_module(path)
    name, fn = pick_kernel(mod, kernel, path)
    return make_spec(mod, name, fn, arch, args, consts, num_warps, path)
