"""Load a kernel file for extraction without running its GPU or torch work, pick a kernel and its specialisation.

Kernel files from the wild do GPU work at import time (device queries, tensors, benchmarks), so a
``.py`` is never imported. Its AST is reduced to what defines kernels: imports of triton and the
standard library (and the Triton helper modules of torch.compile's generated kernels, where torch is installed),
``@triton.jit`` / ``@triton.autotune`` / ``@triton.heuristics`` functions, plain
helper functions (definitions only), and constant assignments (``TWILL_SPEC``, ``BLOCK = 128``,
``configs = [triton.Config(...) ...]``). The kept statements run one at a time: a helper or constant
that fails is dropped. A name the kernels read that only another library's import binds (FlagGems'
``tle.program_id``) is imported alone where that library is installed; where not, a compile error naming it
says which import binds it. A kernel whose decorators cannot run offline (another library's decorator,
autotune configs built by a function that asks the driver for the GPU) is defined without them
(another library's first, then ``@triton.autotune`` / ``@triton.heuristics``) and the note says what
was skipped; a kernel that cannot be defined at all is an error only when it is the one asked for.
Helpers (``@triton.jit`` functions other kernels of the file call) are not offered as kernels; a
kernel's loops include those of the helpers it calls. The specialisation is ``twill.ir.spec``'s.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import hashlib
import sys
import types
from pathlib import Path
from typing import Any, Iterator

from twill.errors import InputError
from twill.ir.spec import (SPEC_ARG, KernelSpec, base_fn, entries_for, make_spec, parse_value,  # noqa: F401
                           pick_entry, read_spec_file)

_KERNEL_DECORATORS = ("jit", "autotune", "heuristics")
# Calls a constant assignment may make: pure constructors of values, nothing that touches a device.
_SAFE_CALLS = {"constexpr", "Config", "int", "float", "str", "bool", "range", "list", "dict", "tuple", "set",
               "len", "min", "max", "sum", "abs", "sorted", "zip", "enumerate", "reversed", "pow", "round",
               "sqrt", "log", "log2", "exp", "ceil", "floor", "cdiv", "next_power_of_2", "dtype",
               "constexpr_function"}     # Triton 3.6: a plain function wrapped for kernels to call at compile time
_SAFE_ROOTS = {"tl", "triton", "math", "language"}


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


# torch.compile's generated kernels (Inductor) call its Triton helpers (``triton_helpers.maximum``, ``tl_math.exp``,
# ``libdevice.rsqrt``): those @triton.jit functions are kept from the file's imports; its runtime helpers
# (``triton_heuristics``, whose decorators tune on the GPU) are not.
_INDUCTOR_MODULES = ("torch._inductor.runtime.triton_helpers", "torch._inductor.runtime",
                     "torch._inductor.triton_helpers", "torch._inductor")
_INDUCTOR_NAMES = {"triton_helpers", "libdevice", "math"}


def _inductor_helpers(node: ast.Import | ast.ImportFrom) -> ast.ImportFrom | None:
    """``node`` reduced to the Triton helper modules an Inductor kernel calls, or None."""
    if not isinstance(node, ast.ImportFrom) or node.level or node.module not in _INDUCTOR_MODULES:
        return None
    names = [a for a in node.names if a.name in _INDUCTOR_NAMES]
    return ast.copy_location(ast.ImportFrom(node.module, names, 0), node) if names else None


def _is_constant_expr(value: ast.expr, known: set[str]) -> bool:
    """Literals, containers, arithmetic, names already kept, ``tl.*`` attributes and safe calls."""
    return _not_constant(value, known) is None


def _not_constant(value: ast.expr, known: set[str]) -> ast.AST | None:
    """The first part of ``value`` that ``_is_constant_expr`` does not run offline (a call of the file's own helper,
    a name it does not keep), or None."""
    bound = {n.id for c in ast.walk(value) if isinstance(c, ast.comprehension)
             for n in ast.walk(c.target) if isinstance(n, ast.Name)}
    for n in ast.walk(value):
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return n
        if isinstance(n, ast.Call):
            fname = ast.unparse(n.func).rsplit(".", 1)[-1]
            if fname not in _SAFE_CALLS:
                return n
        if isinstance(n, ast.Attribute):
            root = n
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id not in _SAFE_ROOTS and root.id not in known:
                return n
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id not in known and n.id not in bound and not hasattr(builtins, n.id):
                return n
    return None


def _assigned_names(node: ast.stmt) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _import_block(stmts: list[ast.stmt], known: set[str] | None = None) -> list[ast.stmt] | None:
    """``stmts`` as kept for extraction where they only import, else None: safe imports as they are; a ``try`` of
    imports with ``except`` branches of imports (Liger: ``try: from triton.language.extra.libdevice import tanh``
    / ``except ModuleNotFoundError: from triton.language.extra.cuda.libdevice import tanh``), or, given the names
    ``known`` so far, of constant assignments too (lmdeploy: ``try: get_int_dtype =
    triton.runtime.jit.constexpr_function(core.get_int_dtype)`` / ``except Exception: get_int_dtype =
    core.get_int_dtype``, for Triton before 3.6); an ``if`` of imports on a condition extraction cannot evaluate (a
    library's own version check) as a ``try`` of its branch, falling back to its ``else`` where that import fails."""
    out: list[ast.stmt] = []
    for node in stmts:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if not _safe_import(node):
                return None
            out.append(node)
        elif isinstance(node, ast.Pass):
            out.append(node)
        elif isinstance(node, ast.Assign) and known is not None and _not_constant(node.value, known) is None:
            out.append(node)
        elif isinstance(node, ast.Try):
            body = _import_block(node.body, known)
            handlers = [ast.copy_location(ast.ExceptHandler(h.type, h.name, b), h) for h in node.handlers
                        if (b := _import_block(h.body, known)) is not None]
            if body is None or len(handlers) != len(node.handlers) or node.orelse or node.finalbody:
                return None
            out.append(ast.copy_location(ast.Try(body, handlers, [], []), node))
        elif isinstance(node, ast.If):
            body, other = _import_block(node.body), _import_block(node.orelse) if node.orelse else [ast.Pass()]
            if body is None or other is None:
                return None
            caught = ast.ExceptHandler(ast.Name("Exception", ast.Load()), None, other)
            out.append(ast.copy_location(ast.Try(body, [caught], [], []), node))
        else:
            return None
    return out


def _imported_names(stmts: list[ast.stmt]) -> set[str]:
    """The names ``stmts`` bind: by import, or by assignment (``_import_block``'s ``try`` of constants)."""
    names: set[str] = set()
    for node in stmts:
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in sub.names)
            elif isinstance(sub, ast.Assign):
                names.update(_assigned_names(sub))
    return names


def extraction_statements(tree: ast.Module, unread: list[str] | None = None) -> list[tuple[ast.stmt, bool]]:
    """The statements kept for extraction, each with whether it is essential (a kernel or TWILL_SPEC). ``unread``
    gets a line for each TWILL_SPEC assignment left out (it reads what twill does not run offline)."""
    keep: list[tuple[ast.stmt, bool]] = []
    known: set[str] = set()
    _keep_statements(tree.body, keep, known, unread=unread)
    return keep


def _defines_kernel(node: ast.stmt) -> bool:
    return any(isinstance(n, ast.FunctionDef) and _is_kernel_def(n) for n in ast.walk(node))


def _keep_statements(body: list[ast.stmt], keep: list[tuple[ast.stmt, bool]], known: set[str],
                     defined_before: frozenset[str] = frozenset(), unread: list[str] | None = None) -> None:
    """``extraction_statements`` over ``body``. A top-level ``if``/``else`` or ``try`` that defines kernels (bitsandbytes:
    ``if not is_triton_available(): <stubs> else: <imports and kernels>``) is read branch by branch, its condition
    not run: a later definition of a name replaces an earlier one, as the branch taken on a machine with Triton would.
    A function such a block defines under a name already bound before it is left out: the block replaces it only under
    its condition (Liger's ``if TRITON_INTERPRET: def tanh``, an interpreter stand-in for libdevice's)."""
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name in defined_before:
            continue
        if isinstance(node, (ast.Try, ast.If)) and _defines_kernel(node):
            branches = [node.body, node.orelse] + ([node.finalbody] if isinstance(node, ast.Try) else [])
            before = frozenset(known) | defined_before
            for branch in branches:
                _keep_statements(branch, keep, known, before, unread)
        elif isinstance(node, (ast.Try, ast.If)) and (block := _import_block(
                [node], known if isinstance(node, ast.Try) else None)) is not None:
            keep.extend((ast.fix_missing_locations(b), False) for b in block)
            known.update(_imported_names(block))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            node = node if _safe_import(node) else _inductor_helpers(node)
            if node is not None:
                keep.append((node, False))
                known.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef):
            if _is_kernel_def(node):
                keep.append((node, True))
            elif all(_decorator_name(d) in ("constexpr_function", "constexpr") for d in node.decorator_list):
                keep.append((node, False))          # a plain helper (or one kernels call at compile time: Triton
                                                    # 3.6's @triton.constexpr_function, FlagGems' @tl.constexpr):
                                                    # defining it runs nothing
            known.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            names = _assigned_names(node)
            bad = _not_constant(node.value, known)
            if bad is None:
                if isinstance(node, ast.AnnAssign):   # annotations may name torch types: drop them
                    node = ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)
                keep.append((node, "TWILL_SPEC" in names))
                known.update(names)
            elif "TWILL_SPEC" in names and unread is not None:
                unread.append(f"TWILL_SPEC at line {node.lineno} not read: it holds `{ast.unparse(bad)[:60]}`, which "
                              "twill does not run offline (write the value itself)")


class _OfflineDriver:
    """Triton's driver where there is none (no GPU): it answers what the target is, the GPU twill compiles for, so that
    a kernel file's config builder that branches on it (tutorial 03's ``is_cuda()``, copied into many libraries:
    ``triton.runtime.driver.active.get_current_target().backend == "cuda"``) builds the configs it builds on that
    GPU; anything else it is asked raises, as the missing driver would."""

    def __init__(self, capability: int) -> None:
        from triton.backends.compiler import GPUTarget

        self.target = GPUTarget("cuda", int(capability), 32)

    def get_current_target(self) -> Any:
        return self.target

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"no GPU driver on this machine (twill loads kernel files offline): driver.{name}")


@contextlib.contextmanager
def offline_target(capability: int | None) -> Iterator[None]:
    """While a kernel file is loaded: where Triton finds no driver (no GPU), ``_OfflineDriver`` for ``capability``
    stands in; a machine with a GPU keeps its own."""
    try:
        from triton.runtime import driver
    except ImportError:
        yield
        return
    missing = capability is not None and not _has_driver(driver)
    if missing:
        driver.set_active(_OfflineDriver(int(capability)))
    try:
        yield
    finally:
        if missing:     # Triton has no public way back to "none made yet"; its own reset_active would raise here
            driver._active = None


def _has_driver(driver: Any) -> bool:
    """Whether Triton has a driver here: one set active, or its default one made."""
    try:
        driver.active       # noqa: B018 - made here where there is one
    except RuntimeError:
        return False
    return True


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
    notes: dict[str, list[str]] = {}
    failed: dict[str, str] = {}
    unread: list[str] = []
    for node, essential in extraction_statements(tree, unread):
        if isinstance(node, ast.FunctionDef) and essential:
            _define_kernel(node, mod, filename, path, notes, failed)
            continue
        code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec")
        try:
            exec(code, mod.__dict__)
        except Exception as e:   # noqa: BLE001 - any failure of kept code is reported or dropped
            if essential:
                raise _definition_error("TWILL_SPEC", e, f"{path}:{node.lineno}") from None
    mod.__dict__["__twill_unimported__"] = _library_helpers(tree, mod, filename, path, notes)
    _keyword_steps(tree, Path(path).name, notes)
    mod.__dict__["__twill_notes__"] = notes
    mod.__dict__["__twill_failed__"] = failed
    mod.__dict__["__twill_unread_spec__"] = unread
    mod.__dict__["__twill_tree__"] = tree
    return mod


def _library_helpers(tree: ast.Module, mod: types.ModuleType, filename: str, path: str,
                     notes: dict[str, list[str]]) -> dict[str, str]:
    """The names the file's kernels read that only another library's import binds (FlagGems' ``tle.program_id``
    from ``flag_gems.utils.triton_lang_extension``, a package's own ``@triton.jit`` helpers), imported where that
    library is installed: those names alone, each import on its own, a failure leaving the name unbound. Returns
    each name left unbound with the import that binds it and why it failed (for the compile error's hint)."""
    users: dict[str, list[str]] = {}
    for f in tree.body:
        if isinstance(f, ast.FunctionDef) and _is_kernel_def(f):
            for n in ast.walk(f):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and f.name not in users.get(n.id, []):
                    users.setdefault(n.id, []).append(f.name)
    missing = {u for u in users if u not in mod.__dict__ and not hasattr(builtins, u)}
    out: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or _safe_import(node):
            continue
        for alias in node.names:
            bound = (alias.asname or alias.name).split(".")[0]
            if bound not in missing:
                continue
            one = ast.copy_location(ast.ImportFrom(node.module, [alias], node.level) if isinstance(node, ast.ImportFrom)
                                    else ast.Import([alias]), node)
            text = f"`{ast.unparse(one)}` ({path}:{node.lineno})"
            try:
                exec(compile(ast.Module(body=[ast.fix_missing_locations(one)], type_ignores=[]), filename, "exec"),
                     mod.__dict__)
            except Exception as e:   # noqa: BLE001 - the library is not installed here, or fails to import
                out[bound] = f"is bound by {text}, which could not be imported here ({type(e).__name__}: {e})"
                continue
            for k in users[bound]:
                notes.setdefault(k, []).append(f"{text}: imported for the kernel's helpers (an installed library)")
            missing.discard(bound)
    return out


def _definition_error(what: str, e: Exception, where: str) -> InputError:
    if isinstance(e, NameError):
        missing = getattr(e, "name", None) or str(e)
        return InputError(f"defining {what} needs '{missing}', which extraction does not run "
                          "(only triton/stdlib imports, kernels, helpers and constants are kept)", where=where)
    if isinstance(e, ImportError):
        return InputError(f"{what} needs a module that is not installed", where=where, found=str(e.name or e))
    return InputError(f"defining {what} failed", where=where, found=f"{type(e).__name__}: {e}")


def _reason(e: Exception | None) -> str:
    """Why kept code failed, in a few words."""
    if isinstance(e, NameError):
        return f"it needs '{getattr(e, 'name', None) or e}', which extraction does not define"
    if isinstance(e, ImportError):
        return f"it needs the module '{e.name or e}', which is not installed"
    return f"{type(e).__name__}: {e}" if e is not None else "unknown"


def _define_kernel(node: ast.FunctionDef, mod: types.ModuleType, filename: str, path: str,
                   notes: dict[str, list[str]], failed: dict[str, str]) -> None:
    """Define one kernel, dropping the decorators that cannot run offline: other libraries' first, then
    autotune / heuristics (their configs may ask the driver); what was dropped goes into ``notes``."""
    tried = [node.decorator_list,
             [d for d in node.decorator_list if _decorator_name(d) in _KERNEL_DECORATORS],
             [d for d in node.decorator_list if _decorator_name(d) == "jit"]]
    first: Exception | None = None
    for decorators in dict.fromkeys(tuple(map(id, t)) for t in tried):
        keep = [d for d in node.decorator_list if id(d) in decorators]
        if not any(_decorator_name(d) == "jit" for d in keep) and keep != node.decorator_list:
            continue
        trial = ast.copy_location(ast.FunctionDef(node.name, node.args, node.body, keep, node.returns,
                                                  node.type_comment), node)
        trial = ast.fix_missing_locations(trial)
        try:
            exec(compile(ast.Module(body=[trial], type_ignores=[]), filename, "exec"), mod.__dict__)
        except Exception as e:   # noqa: BLE001 - reported below, or when this kernel is asked for
            first = first or e
            continue
        dropped = [d for d in node.decorator_list if id(d) not in decorators]
        if dropped:
            notes.setdefault(node.name, []).append(
                f"{path}:{node.lineno}: {node.name} loaded without "
                f"{', '.join('@' + ast.unparse(d).split('(')[0] for d in dropped)}: it cannot be evaluated "
                f"offline ({_reason(first)})")
        return
    failed[node.name] = str(_definition_error(node.name, first or RuntimeError("?"), f"{path}:{node.lineno}"))


# -- picking a kernel ----------------------------------------------------------------------------------
def jit_functions(mod: types.ModuleType) -> dict[str, Any]:
    """The module's kernels (JIT functions and their autotune/heuristics wrappers), by name."""
    from triton.runtime.jit import KernelInterface

    return {k: v for k, v in vars(mod).items() if isinstance(v, KernelInterface)}


def _keyword_steps(tree: ast.Module, filename: str, notes: dict[str, list[str]]) -> None:
    """A note for each kernel whose loop (its own or a helper's it calls) is ``range(a, b, step=s)``: Triton 3.6 drops
    the keyword of Python's ``range`` and compiles step 1 (Liger's fp8 split-K backward ran every index, not every
    second); twill schedules what Triton compiles, and says so."""
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and _is_kernel_def(n)}
    found: dict[str, int] = {}
    for name, node in defs.items():
        for f in ast.walk(node):
            if (isinstance(f, (ast.For, ast.AsyncFor)) and isinstance(f.iter, ast.Call)
                    and isinstance(f.iter.func, ast.Name) and f.iter.func.id == "range"
                    and any(k.arg == "step" for k in f.iter.keywords)):
                found.setdefault(name, f.lineno)
    for name, node in defs.items():
        hit = next(((h, found[h]) for h in [name, *sorted(_calls(node, set(found)))] if h in found), None)
        if hit is not None:
            notes.setdefault(name, []).append(
                f"{filename}:{hit[1]}: `range(..., step=...)`: Triton 3.6 ignores a keyword step of Python's range and "
                "compiles step 1 (every index); twill schedules the loop as compiled. Write the step positionally, "
                "`range(a, b, s)`, or use `tl.range(a, b, step=s)`")


def _calls(fn_node: ast.FunctionDef, names: set[str]) -> set[str]:
    """The functions of ``names`` that ``fn_node`` calls (by name or as ``module.name``)."""
    out = set()
    for n in ast.walk(fn_node):
        if isinstance(n, ast.Call):
            callee = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", None)
            if callee in names and callee != fn_node.name:
                out.add(callee)
    return out


def kernel_defs(mod: types.ModuleType) -> dict[str, ast.FunctionDef]:
    """The @triton.jit definitions of the loaded file, by name (those that failed to define included)."""
    tree = mod.__dict__.get("__twill_tree__")
    return {n.name: n for n in (tree.body if tree is not None else []) if _is_kernel_def(n)}


def kernels_and_helpers(mod: types.ModuleType) -> tuple[dict[str, bool], set[str]]:
    """``({kernel: has a loop, itself or in a helper it calls}, helpers)``: a helper is a JIT function
    another JIT function of the file calls; it is compiled inside its caller, not launched."""
    defs = kernel_defs(mod)
    if not defs:   # a module not made by load_module: every JIT function is a kernel
        return {k: _has_loop(base_fn(v)) for k, v in jit_functions(mod).items()}, set()
    calls = {k: _calls(v, set(defs)) for k, v in defs.items()}
    helpers = set().union(*calls.values()) if calls else set()

    def loops(k: str, seen: frozenset[str] = frozenset()) -> bool:
        own = any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(defs[k]))
        return own or any(loops(c, seen | {k}) for c in calls[k] if c not in seen)
    return {k: loops(k) for k in defs if k not in helpers}, helpers


def _has_loop(fn: Any) -> bool:
    try:
        tree = ast.parse(getattr(fn, "src", "") or "")
    except SyntaxError:
        return False
    return any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(tree))


def pick_kernel(mod: types.ModuleType, name: str | None, where: str,
                captured: tuple[str, ...] = ()) -> tuple[str, Any]:
    """``--kernel NAME``, else TWILL_SPEC's kernel, else the only kernel of the file captured from a
    launch, else the only kernel with a loop (its own or a helper's; helpers are not kernels)."""
    fns = jit_functions(mod)
    failed: dict[str, str] = mod.__dict__.get("__twill_failed__", {})
    spec = getattr(mod, "TWILL_SPEC", None)
    if name is None and isinstance(spec, dict) and spec.get("kernel"):
        name = spec["kernel"]
    kernels, helpers = kernels_and_helpers(mod)
    if name is None and len(set(captured) & set(kernels)) == 1:
        name = next(iter(set(captured) & set(kernels)))
    if name is not None:
        if name in failed:
            raise InputError(failed[name])
        if name not in fns:
            raise InputError("no such kernel", where=where,
                             expected=" | ".join(sorted(kernels) or sorted(fns)) or "a @triton.jit kernel", found=name)
        return name, fns[name]
    if not fns and not failed:
        raise InputError("no kernel in file", where=where, expected="a @triton.jit function", found="none")
    looped = sorted(k for k, has in kernels.items() if has)
    if len(looped) == 1:
        if looped[0] in failed:
            raise InputError(failed[looped[0]])
        return looped[0], fns[looped[0]]
    if not looped:
        raise InputError("no kernel with a loop", where=where, expected="a @triton.jit kernel with a for loop",
                         found=", ".join(sorted(kernels) or sorted(fns))
                         + (f" (helpers: {', '.join(sorted(helpers))})" if helpers else ""))
    raise InputError("several kernels with loops", where=where, expected="--kernel NAME",
                     found=", ".join(f"{k} (not loadable)" if k in failed else k for k in looped))


# -- the specialisation ---------------------------------------------------------------------------------
def source_of(spec: KernelSpec) -> Any:
    """The ``ASTSource`` that ``triton.compile`` takes for this specialisation."""
    from triton.compiler import ASTSource

    names = list(spec.signature)
    attrs = {(names.index(a),): [["tt.divisibility", 16]] for a in spec.divisibility if a in names}
    return ASTSource(fn=spec.fn, signature=spec.signature, constexprs=spec.constexprs, attrs=attrs)


def load_kernel(path: str, arch: str, kernel: str | None = None, args: dict[str, str] | None = None,
                consts: dict[str, str] | None = None, num_warps: int | None = None,
                spec_file: str | None = None, sm: int | None = None) -> KernelSpec:
    """Load ``path`` safely, pick the kernel and build its specialisation for ``arch`` (a machine name,
    resolved by the caller: it only selects TWILL_SPEC's per-arch overrides here). ``spec_file``: a
    spec captured from a launch (``twill capture``), used for the kernels of ``path`` it holds (the
    launch captured on compute capability ``sm`` preferred)."""
    if args and SPEC_ARG in args:
        args = dict(args)
        spec_file = spec_file or args.pop(SPEC_ARG)
    with offline_target(sm):
        mod = load_module(path)
    entries = entries_for(read_spec_file(spec_file), path) if spec_file else []
    name, fn = pick_kernel(mod, kernel, path, tuple(str(e.get("function")) for e in entries))
    captured, note = pick_entry(entries, name, sm)
    notes = tuple(mod.__dict__.get("__twill_notes__", {}).get(name, ())) + ((note,) if note else ())
    if spec_file and captured is None:
        notes += (f"{spec_file} holds no launch of {name} from {Path(path).name}",)
    return make_spec(mod, name, fn, arch, args, consts, num_warps, path, captured, notes)
