"""The generated kernel's host side: ``launch(grid, *args)`` takes the Triton kernel's arguments and runs the Gluon
kernel, deciding per launch what the kernel's flags say (cp.async or registers, TMA boxes or not) and building its
descriptors.

A launch costs host time that a small kernel cannot hide: run 32h measured the generated launchers at 27-81 us a call
more than Triton's (the launcher's descriptors rebuilt and its expressions evaluated on every call, then the Gluon
JIT's binder). So what a launch decides is kept per *launch key* (the grid, each tensor's dtype and 16-byte alignment,
each integer's value, each host descriptor's dtype, alignment, shape and strides, Triton's instrumentation and debug
modes, the device): a launch like an earlier one reuses its decisions and calls the kernel the JIT compiled for it
(``CompiledKernel[grid](*args)``, Triton's own launch of a compiled kernel), which skips the binder. The key holds
every input of Triton's specialisation (a tensor's dtype and alignment, an integer's value, a descriptor's dtype,
block and layout), so a key seen before names the kernel the JIT would pick. Descriptors are kept per (argument,
address, dtype, shape, strides), each over a stand-in base (its address and dtype) that holds no tensor alive.
``FAST_LAUNCH = False`` in a generated module sends every launch through the JIT. Run 33: 1-14 us a call over Triton's
(``bench/launch_overhead.py``).
"""
from __future__ import annotations

import ast
import inspect
from typing import Any

from codegen.gluon.kernel import Module
from codegen.gluon.plan import KernelPlan, copy_arguments
from codegen.gluon.protocol import COPY_FLAG, TMA_FLAG
from codegen.gluon.values import py_name
from twill.ir.load import KernelSpec

KERNEL = "twill_kernel"
HOST_MARK = "\n# -- host side"


def device_part(source: str) -> str:
    """A generated module's device code: its text before the host side (what a profile of it measured)."""
    return source.split(HOST_MARK, 1)[0]

Made = dict[str, tuple[str, list[str], list[str]]]


def launcher(mod: Module, spec: KernelSpec | None, signature: dict[str, str], blocks: dict[str, list[int]],
             plan: KernelPlan, made: Made) -> str:
    """Host code: ``launch(grid, *args, **kwargs)`` takes the Triton kernel's arguments, as its launcher passed
    them, and runs the Gluon kernel; ``kernel`` stands in for the Triton kernel in ``module.kernel[grid](...)``
    calls; the descriptors the kernel made itself (``made``, ``descriptors``) are made from the arguments."""
    names = list(spec.signature) if spec is not None else list(signature)
    consts = {k: v for k, v in (spec.constexprs.items() if spec is not None else []) if isinstance(v, (int, float, bool, str))}
    layouts = {k: v.split("],", 1)[1][:-1] for k, v in signature.items() if v.startswith("tensordesc")}
    flags = [n for n in signature if n in (COPY_FLAG, TMA_FLAG)]
    runtime = [n for n in signature if n not in flags]
    assert list(signature)[len(runtime):] == flags, "the flags are the kernel's last parameters"
    boxes = {r.box.name for r in plan.boxed if r.box is not None}
    keyed = [n for n in names if n not in consts] + [n for n in runtime if n not in names and n not in boxes]
    copy_consts, copy_flag, copy_fn = _copy(mod, plan)
    box_consts, box_fns, shapes, box_launch = _box(plan)
    entries = ", ".join(copy_flag + ([f"{TMA_FLAG!r}: shapes is not None"] if plan.boxed else []))
    made_consts, made_fns, made_launch = _made(made)
    heuristics, supplied = heuristics_of(spec, consts), heuristic_args_of(spec, runtime)
    decorated = (f"HEURISTICS = {heuristics!r}   # @triton.heuristics of the kernel: each checked per launch key\n"
                 f"HEURISTIC_ARGS = {supplied!r}   # ... and the arguments they supply, set every launch\n"
                 f"HEURISTIC_SCOPE = {heuristic_scope(spec, list(heuristics.values()) + list(supplied.values()))!r}"
                 "   # what they read of the kernel's module\n") if heuristics or supplied else ""
    zero, hook = pre_hook_of(spec)
    if zero or hook:
        decorated += (f"ZERO_BEFORE = {zero!r}   # the autotune config's pre_hook: these arguments zeroed before "
                       f"each launch\nPRE_HOOK = {hook!r}   # a pre_hook the launcher cannot run (refused)\n")
    return (f'''
{HOST_MARK} -------------------------------------------------------------------------------------
ARGUMENTS = {names!r}          # the Triton kernel's parameters, in order
RUNTIME = {runtime!r}   # the Gluon kernel's parameters, in order
FLAGS = {flags!r}   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = {keyed!r}   # the arguments a launch key reads
CONSTEXPRS = {consts!r}         # the specialisation this kernel was generated for
{decorated}DESCRIPTOR_BLOCKS = {blocks!r}
DESCRIPTOR_LAYOUTS = {layouts!r}
{made_consts}{box_consts}NUM_WARPS = {plan.consumers[0].warps}
MAXNREG = {plan.maxnreg}
PERSISTENT = {mod.persistent and mod.tile_loop is None!r}      # one program per SM loops over the grid's tiles
{copy_consts}LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time
''' + _HELPERS + (_HEURISTICS if heuristics or supplied else "") + made_fns + box_fns
            + _launch(bool(plan.boxed), entries, shapes, made_launch, box_launch, bool(heuristics), bool(zero or hook),
                      _least_check(plan, consts), 2 if plan.two_ctas and mod.persistent else 1, bool(supplied))
            + _RUN.replace("KERNEL[", KERNEL + "[") + copy_fn + _TAIL)


def _least_check(plan: KernelPlan, consts: dict[str, Any] | None = None) -> str:
    """``_decide``'s lines refusing a launch whose loops run fewer iterations a program than their pipelines need to
    fill their prologues (``plan.launch_checks``: each loop the launch counts exactly, ``trips.counted_at_launch``,
    whose pipeline does not guard itself; said in the decisions); a loop it cannot count guards itself in the
    kernel (``kernel.unchecked_trips``). A count the specialisation fixes (``consts``: FLA's chunk loops, 2 trips of
    a constexpr K) is checked here, once: no line where it clears the prologue.

    >>> plan = type("P", (), {"launch_checks": (("(K + 63) // 64", 2), ("N // 64", 2))})()
    >>> [line.strip() for line in _least_check(plan, {"K": 128}).splitlines()][:2]
    ["trips = _ev('N // 64', dict(bound, **CONSTEXPRS))", "if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any"]
    """
    lines = []
    for expr, least in dict.fromkeys(plan.launch_checks):
        fixed = _fixed_count(expr, consts or {})
        if fixed is not None and fixed >= least:
            continue
        lines.append(f"    trips = _ev({expr!r}, dict(bound, **CONSTEXPRS))\n"
                     f"    if trips < {least}:   # the pipeline's prologue runs {least} iteration(s) before its loop "
                     f"checks any\n"
                     f"        raise ValueError(f\"twill: this Gluon kernel's loop must run at least {least} "
                     f"iteration(s) a program; this launch gives {{trips}} ({expr}): run the Triton kernel for it\")\n")
    return "".join(lines)


def _fixed_count(expr: str, consts: dict[str, Any]) -> int | None:
    """``expr``'s value where it reads only constants and the specialisation's constexprs; None where it reads a
    runtime argument (or is not plain arithmetic)."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return None
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load, ast.operator, ast.unaryop)
    if not all(isinstance(n, allowed) for n in ast.walk(tree)):
        return None
    if any(isinstance(n, ast.Name) and not isinstance(consts.get(n.id), int) for n in ast.walk(tree)):
        return None
    try:
        v = eval(compile(tree, "count", "eval"), {"__builtins__": {}}, dict(consts))
    except (ArithmeticError, TypeError):
        return None
    return int(v) if isinstance(v, (int, float)) else None


def _launch(boxed: bool, entries: str, shapes: str, made_launch: str, box_launch: str, heuristics: bool,
            hooked: bool = False, least: str = "", ctas: int = 1, supplied: bool = False) -> str:
    """The launch key, the decisions taken per key (the kernel's heuristics checked first, where it has them, and the
    loop's fewest iterations, ``_least_check``), and ``launch`` itself; a persistent kernel's grid is ``ctas`` programs
    an SM (two where two CTAs fit one: ``plan.two_ctas``)."""
    check = ("    _heuristics(bound)\n" if heuristics else "") + least
    hook = _PRE_HOOK if hooked else ""
    supply = "    _heuristic_args(bound)\n" if supplied else ""
    return f'''

def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, {"TMA_BOXES, " if boxed else ""}_MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
    for n in KEYED:
        v = bound.get(n)
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif t is float:
            key.append(float)
        elif hasattr(v, "data_ptr"):
            key.append((v.dtype, v.data_ptr() % 16 == 0))
        elif hasattr(v, "base") and hasattr(v.base, "data_ptr"):          # a host descriptor
            key.append((v.base.dtype, v.base.data_ptr() % 16 == 0, tuple(v.shape), tuple(v.strides)))
        else:
            key.append(v)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _device():
    if not _DEVICE:
        from triton.runtime import driver
        _DEVICE.append(driver.active.get_current_device)
    return _DEVICE[0]()


def _decide(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
{check}    shapes = {shapes}
    flags = {{{entries}}}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
    if kwargs:
        bound.update({{k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS}})
{supply}    for k, v in CONSTEXPRS.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {{k}}={{v!r}}, launched with {{bound[k]!r}}")
    g = grid(dict(bound, **CONSTEXPRS)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], {f"{ctas} * " if ctas > 1 else ""}_sm_count())),)
{made_launch}    key = _key(bound, g)
    entry = _KEYED.get(key) if key is not None else None
    if entry is None:
        entry = _decide(bound)
        if key is not None:
            if len(_KEYED) >= 64:
                _KEYED.clear()
            _KEYED[key] = entry
{box_launch}{hook}    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {{missing}}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    return _run(entry, g, runtime)
'''


def _copy(mod: Module, plan: KernelPlan) -> tuple[str, list[str], str]:
    """A producer copying pointer tiles (``kernel._copy_lines``) does so with cp.async where every argument their
    addresses and masks are computed from is 16-divisible, else through registers (``COPY_FLAG``): the launcher's
    constant, the flag's entry in ``_decide`` and ``_aligned``."""
    if not mod.copies:
        return "", [], ""
    if not mod.cp_async:
        return ("COPY_ALIGNED = None   # the copies go through registers at every launch: cp.async cannot copy "
                "these tiles in pieces of 4 bytes or more (their addresses are not known aligned)\n",
                [f"{COPY_FLAG!r}: False"], "")
    aligned = [py_name(n) for n in copy_arguments(plan)]
    return (f"COPY_ALIGNED = {aligned!r}   # cp.async where all are 16-divisible (16-byte aligned), "
            "else the copies go through registers\n",
            [f"{COPY_FLAG!r}: all(_aligned(bound[n]) for n in COPY_ALIGNED)"],
            "\n\ndef _aligned(value):\n"
            '    """Whether an argument is specialised as 16-divisible (Triton\'s rule): an integer\'s value, '
            'a tensor\'s address."""\n'
            '    if hasattr(value, "data_ptr"):\n'
            "        return value.data_ptr() % 16 == 0\n"
            "    return isinstance(value, int) and value % 16 == 0\n")


def _box(plan: KernelPlan) -> tuple[str, str, str, str]:
    """The launcher's lines for the pointer tiles a TMA copy can load (``plan.Ring.box``; none where there are none):
    their table, the functions deciding and building their descriptors, the decision in ``_decide`` and the
    descriptors' making in ``launch``."""
    boxes = {r.box.name: (r.box.base, list(r.box.strides), list(r.box.extents), list(r.box.shape), list(r.box.checks))
             for r in plan.boxed if r.box is not None}
    if not boxes:
        return "", "", "None", ""
    return (f"POINTER_BOXES = {boxes!r}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)\n"
            "TMA_BOXES = True   # False: copy them with cp.async at every launch\n",
            "\n\ndef _box_shapes(bound):\n"
            '    """Each pointer tile\'s (base, extents, strides), or None where the launch does not allow them (a base '
            'not\n    16-byte aligned, a row stride not a 16-byte multiple, an extent not positive, a check failed, a '
            'shape\n    or stride the descriptor refuses)."""\n'
            "    out = {}\n"
            "    for n, (base, strides, extents, block, checks) in POINTER_BOXES.items():\n"
            "        t = bound[base]\n"
            "        if not TMA_BOXES or not hasattr(t, 'data_ptr') or not all(_ev(c, bound) for c in checks):\n"
            "            return None\n"
            "        st = tuple(int(_ev(e, bound)) for e in strides)\n"
            "        ext = tuple(2 ** 31 - 1 if e is None else int(_ev(e, bound)) for e in extents)   # None: unmasked\n"
            "        if t.data_ptr() % 16 or any(x * t.element_size() % 16 for x in st[:-1]) or min(ext) <= 0:\n"
            "            return None\n"
            "        # unmasked, a coordinate holds the element offsets folded into it (an expert's, a batch's): TMA's\n"
            "        # coordinates and the kernel's arithmetic are 32-bit, so the tensor's whole span must fit them\n"
            "        span = _span(t)\n"
            "        if any(e is None and span // max(s, 1) >= 2 ** 31 - 1 for e, s in zip(extents, st)):\n"
            "            return None\n"
            "        try:\n"
            "            _desc(n, t, ext, st, block)\n"
            "        except (AssertionError, ValueError, TypeError):\n"
            "            return None\n"
            "        out[n] = (base, ext, st)\n"
            "    return out\n\n\n"
            "def _span(t):\n"
            '    """The elements from ``t``\'s first to the end of its storage."""\n'
            "    try:\n"
            "        return t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()\n"
            "    except (AttributeError, RuntimeError):\n"
            "        return t.numel()\n\n\n"
            "def _boxes(bound, shapes=None):\n"
            '    """The pointer tiles\' descriptors over ``shapes`` (else ``_box_shapes``\'), None where the launch does '
            'not\n    allow them."""\n'
            "    shapes = _box_shapes(bound) if shapes is None else shapes\n"
            "    if shapes is None:\n"
            "        return None\n"
            "    return {n: _desc(n, bound[b], ext, st, POINTER_BOXES[n][3]) for n, (b, ext, st) in shapes.items()}\n",
            "_box_shapes(bound)",
            "    bound.update(dict.fromkeys(POINTER_BOXES) if entry[1] is None else _boxes(bound, entry[1]))\n")


def _made(made: Made) -> tuple[str, str, str]:
    """The launcher's lines for the descriptors the kernel made itself (none where it made none): their table, the
    host descriptor's stand-in, and their making from the bound arguments."""
    if not made:
        return "", "", ""
    return (f"LAUNCH_DESCRIPTORS = {made!r}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)\n",
            "\n\nclass _Made:\n"
            '    """A descriptor the kernel made itself: its base tensor, shape and strides, as a host descriptor '
            'holds them."""\n\n'
            "    def __init__(self, base, shape, strides):\n"
            "        self.base, self.shape, self.strides = base, shape, strides\n",
            "    for n, (base, shape, strides) in LAUNCH_DESCRIPTORS.items():\n"
            "        bound[n] = _Made(bound[base], [_ev(e, bound) for e in shape], [_ev(e, bound) for e in strides])\n")


_HELPERS = '''

_LAYOUTS = {}                  # argument -> its layout object, made on first use
_CODE = {}                     # expression -> its compiled code
_DESCS = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE = []                   # the active driver's current device, read per launch


def _ev(e, bound):
    code = _CODE.get(e)
    if code is None:
        code = _CODE[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS[name] = eval("gl." + DESCRIPTOR_LAYOUTS[name])
        if len(_DESCS) >= 256:
            _DESCS.clear()
        d = _DESCS[key] = TensorDescriptor(_Base(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc(name, base, shape, strides, DESCRIPTOR_BLOCKS[name])
'''

_PRE_HOOK = '''    if PRE_HOOK:        # Triton's autotuner runs it before every launch; this launcher cannot
        raise ValueError(f"twill: the kernel's autotune config runs pre_hook={PRE_HOOK} before each launch, which "
                         "this generated launcher cannot run; run it yourself and call the kernel without it")
    for n in ZERO_BEFORE:   # the config's pre_hook (``init_to_zero``): Triton's autotuner zeroes them every launch
        if bound.get(n) is not None:
            bound[n].zero_()
'''

_HEURISTICS = '''
_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))
'''

_RUN = '''

def _run(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = KERNEL[g](*runtime, **dict(zip(FLAGS, entry[0])), num_warps=NUM_WARPS, maxnreg=MAXNREG)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled
'''

_TAIL = '''

_SMS = []


def _sm_count():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS:
        import torch
        _SMS.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS[0]


class _Config:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS), NUM_WARPS, None, 1
        self.maxnreg, self.pre_hook = MAXNREG, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called; ``kernel.fn[grid](*args)`` as a heuristics' or an
    autotuner's wrapped function is called past them (FlagGems), ``kernel.best_config`` and ``kernel.run(*args,
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does).
    ``kernel.fallback``: the Triton kernel this one replaces, set by whoever swaps it in; a launch this kernel was not
    generated for (other constexprs, too few iterations, a pre_hook it cannot run) then runs it, counted in
    ``kernel.fallbacks``, where without it the launch is refused in one line."""

    fallback = None
    fallbacks = 0

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self._launch(grid, args, kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else self._launch(grid, args, kwargs)

    def _launch(self, grid, args, kwargs):
        try:
            return launch(grid, *args, **kwargs)
        except ValueError as e:
            refused = str(e).startswith("twill: ") and "missing kernel arguments" not in str(e)
            if self.fallback is None or not refused:
                raise
            self.fallbacks += 1
            return self.fallback[grid](*args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config()


kernel = _Kernel()
'''


def _kernel_source(spec: KernelSpec | None) -> tuple[dict[str, Any], Any]:
    """The function definitions of the kernel's file by name (``ast.FunctionDef``) and the kernel's own (None where
    the file cannot be read): what its decorators say, which loading drops, is read from there."""
    fn = getattr(getattr(spec, "fn", None), "fn", None)
    if fn is None:
        return {}, None
    try:
        tree = ast.parse(inspect.getsource(inspect.getmodule(fn)))
    except (OSError, TypeError, SyntaxError):
        return {}, None
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    return defs, defs.get(fn.__name__)


def _decorator_calls(node: Any, name: str) -> list[ast.Call]:
    """The kernel's decorators that call ``...name(...)`` (``triton.heuristics``, ``triton.autotune``)."""
    return [d for d in (node.decorator_list if node is not None else [])
            if isinstance(d, ast.Call) and ast.unparse(d.func).endswith(name)]


def heuristics_of(spec: KernelSpec | None, consts: dict[str, object]) -> dict[str, str]:
    """The source of each ``@triton.heuristics`` entry of the kernel (``{"USE_OFFSETS": "lambda args: args['offsets']
    is not None"}``, or the name of a function of its file: attorch's ``BLOCK_SIZE_SPATIAL_heuristic``) for a
    constexpr the kernel was generated for, read from its file; empty where it has none or the file cannot be read.
    The launcher checks them per launch key: without it, NSA's kernel generated for ``USE_OFFSETS=False`` accepted a
    variable-length launch and ran the wrong kernel (the sweep's finding)."""
    return {k: v for k, v in _heuristic_sources(spec).items() if k in consts}


def heuristic_args_of(spec: KernelSpec | None, runtime: list[str]) -> dict[str, str]:
    """The ``@triton.heuristics`` entries that supply a runtime argument of the kernel (kernl's attention:
    ``size_m_rounded``, which its callers do not pass: the launcher had refused the launch as missing it)."""
    return {k: v for k, v in _heuristic_sources(spec).items() if k in runtime}


def _heuristic_sources(spec: KernelSpec | None) -> dict[str, str]:
    defs, node = _kernel_source(spec)
    return {k.value: ast.unparse(v) for d in _decorator_calls(node, "heuristics") if d.args
            and isinstance(d.args[0], ast.Dict) for k, v in zip(d.args[0].keys, d.args[0].values)
            if isinstance(k, ast.Constant) and (isinstance(v, ast.Lambda) or isinstance(v, ast.Name) and v.id in defs)}


def heuristic_scope(spec: KernelSpec | None, sources: list[str]) -> list[str]:
    """What the heuristics ``sources`` read of the kernel's module, each a statement the launcher runs before making
    them: its imports, its constants, and the functions they call, transitively (attorch's batch norm:
    ``next_power_of_2`` from ``from triton import next_power_of_2``, a heuristic a function of the file; the launcher
    had evaluated it without them, failed, and not checked the launch: a kernel for 4096 rows ran at 5000)."""
    fn = getattr(getattr(spec, "fn", None), "fn", None)
    try:
        tree = ast.parse(inspect.getsource(inspect.getmodule(fn))) if fn is not None and sources else None
    except (OSError, TypeError, SyntaxError):
        tree = None
    if tree is None:
        return []
    top = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    consts = [n for n in tree.body if isinstance(n, ast.Assign) and all(isinstance(x, ast.Name) for x in n.targets)
              and isinstance(n.value, (ast.Constant, ast.Tuple, ast.Dict, ast.List))]
    names = {x.id for s in sources for x in ast.walk(ast.parse(s)) if isinstance(x, ast.Name)}
    wanted: list[str] = []
    while names - set(wanted):
        for name in sorted(names - set(wanted)):
            wanted.append(name)
            if name in top:
                names |= {x.id for x in ast.walk(top[name]) if isinstance(x, ast.Name)}
    imports = [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
               and any((a.asname or a.name).split(".")[0] in names for a in n.names)]
    return imports + [ast.unparse(n) for n in consts if any(x.id in names for x in n.targets)] + [
        ast.unparse(_undecorated(top[n])) for n in wanted if n in top]


def _undecorated(fn: ast.FunctionDef) -> ast.FunctionDef:
    out = ast.FunctionDef(fn.name, fn.args, fn.body, [], fn.returns, fn.type_comment)
    return ast.fix_missing_locations(ast.copy_location(out, fn))


def pre_hook_of(spec: KernelSpec | None) -> tuple[list[str], str | None]:
    """What the kernel's ``@triton.autotune`` configs run before each launch (``triton.Config(..., pre_hook=...)``;
    the autotuner-level hooks run only while it benchmarks): the arguments a zeroing hook zeroes (``init_to_zero(
    ["ddA_cumsum_ptr"])``, ``init_to_zero("DQ")``: a call on string names of a function of the file that calls
    ``.zero_()``), or the source of any other hook, which the launcher refuses to run without. Mamba-2's ``db``
    backward relies on its buffer zeroed so; the generated launcher that dropped it returned a wrong result."""
    defs, node = _kernel_source(spec)
    hooks = [kw.value for d in _decorator_calls(node, "autotune")
             for c in ast.walk(d) if isinstance(c, ast.Call) and ast.unparse(c.func).endswith("Config")
             for kw in c.keywords if kw.arg == "pre_hook" and not (isinstance(kw.value, ast.Constant)
                                                                      and kw.value.value is None)]
    zero: list[str] = []
    for h in hooks:
        names = [a.value for a in h.args if isinstance(a, ast.Constant) and isinstance(a.value, str)] + \
            [e.value for a in h.args if isinstance(a, (ast.List, ast.Tuple)) for e in a.elts
             if isinstance(e, ast.Constant) and isinstance(e.value, str)] if isinstance(h, ast.Call) else []
        callee = defs.get(ast.unparse(h.func)) if isinstance(h, ast.Call) else None
        if not names or callee is None or ".zero_()" not in ast.unparse(callee):
            return [], ast.unparse(h)
        zero += [n for n in names if n not in zero]
    return zero, None
