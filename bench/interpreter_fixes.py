"""Triton's interpreter (``TRITON_INTERPRET=1``) made to compute what the GPU computes where Triton 3.6's does not,
for ``bench/corpus_interpret.py``: bf16 arithmetic on values, fp8 conversions rounded as the GPU rounds them, the few
libdevice functions the corpus calls, ``and`` / ``or`` of tensors and loop induction variables as the compiler
makes them, bool arguments, module-level aliases of builtins, and autotuned kernels run untimed at their file's
tile. Each fix patches the interpreter of this process only (the tool runs each kernel file in a process of its
own) and says what it fixes and why; the counters returned say which ones a kernel used. Imported only under the
interpreter, after ``TRITON_INTERPRET=1``."""
from __future__ import annotations

from typing import Any


def interpreter_fixes() -> tuple[dict[str, int], dict[str, Any]]:
    """Make Triton's interpreter compute what the GPU computes where it does not (bf16 arithmetic, fp8 rounding,
    libdevice, ``and`` / ``or`` of tensors, loop induction variables, bool arguments, aliases of builtins) and let
    autotuned kernels run; returns the counters of the fixes used and the tile an autotuned kernel takes (to be
    filled with the kernel file's TWILL_SPEC constexprs once it is loaded)."""
    used = bf16_by_value()
    fp8_by_torch(used)
    libdevice_by_numpy(used)
    tensor_and_or(used)
    tensor_loop_vars(used)
    bool_args()
    builtin_aliases()
    tile: dict[str, Any] = {}
    untimed_autotune(tile)
    return used, tile


_BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift")


def bf16_by_value() -> dict[str, int]:
    """Make Triton's interpreter compute bf16 on values. It keeps a bf16 tensor as its uint16 bits and runs numpy on
    them (``x * y`` of two bf16 tiles multiplies the bit patterns; a ``tl.dot`` of bf16 gives ~1e10): Triton's
    debugging guide says the interpreter does not support bf16 operations (triton-lang/triton#11584, #10945 left
    unmerged). Here each arithmetic op, cast, dot, reduction and scan with a bf16 operand runs in fp32 and its bf16
    result is rounded back to nearest even (torch's), as the GPU computes them; loads, stores, selects and bit casts
    already move bits. Returns a counter of the ops so computed, for the outcome to say."""
    import numpy as np
    import torch
    import triton.language as tl
    from triton.runtime import interpreter as it

    bf16, used = tl.bfloat16, {"bf16_ops": 0}

    def f32(h: Any) -> Any:
        if h.dtype.scalar != bf16:
            return h.data
        used["bf16_ops"] += 1
        return (h.data.astype(np.uint32) << 16).view(np.float32)

    def bits(x: Any) -> Any:
        t = torch.from_numpy(np.ascontiguousarray(np.asarray(x, dtype=np.float32))).to(torch.bfloat16)
        return t.view(torch.int16).numpy().view(np.uint16)

    def handle(x: Any, dtype: Any) -> Any:
        return it.TensorHandle(x if x.dtype == bool else bits(x), bf16) if dtype == bf16 else it.TensorHandle(x, dtype)

    B = it.InterpreterBuilder
    binary, unary, cast, dot = B.binary_op, B.unary_op, B.cast_impl, B.create_dot

    def binary_op(self: Any, lhs: Any, rhs: Any, op: Any) -> Any:
        if bf16 not in (lhs.dtype.scalar, rhs.dtype.scalar) or getattr(op, "__name__", "") in _BITWISE:
            return binary(self, lhs, rhs, op)
        return handle(op(f32(lhs), f32(rhs)), bf16)

    def unary_op(self: Any, arg: Any, op: Any) -> Any:
        return handle(op(f32(arg)), bf16) if arg.dtype.scalar == bf16 else unary(self, arg, op)

    def cast_impl(self: Any, src: Any, dst_type: Any) -> Any:
        if bf16 not in (src.dtype.scalar, dst_type.scalar):
            return cast(self, src, dst_type)
        x = f32(src)
        return handle(x.astype(np.float32) if dst_type.scalar == bf16 else x.astype(it._get_np_dtype(dst_type)),
                      dst_type.scalar)

    def create_dot(self: Any, a: Any, b: Any, d: Any, precision: Any, imprecise: Any) -> Any:
        if bf16 not in (a.dtype.scalar, b.dtype.scalar):
            return dot(self, a, b, d, precision, imprecise)
        return handle(np.matmul(f32(a), f32(b), dtype=np.float32) + f32(d), d.dtype.scalar)

    B.binary_op, B.unary_op, B.cast_impl, B.create_dot = binary_op, unary_op, cast_impl, create_dot
    for name, typed, fn in (("create_fma", 2, lambda x, y, z: f32(x) * f32(y) + f32(z)),
                            ("create_rsqrt", 0, lambda x: 1 / np.sqrt(f32(x))),
                            ("create_erf", 0, lambda x: it.np_erf_fp32(f32(x))),
                            ("create_clampf", 0, lambda x, lo, hi, nans: np.clip(f32(x), f32(lo), f32(hi)))):
        setattr(B, name, _when_bf16(getattr(B, name), fn, handle, typed))
    B.get_bf16 = lambda self, value: it.TensorHandle(bits(np.array([value])), bf16)
    for ops in (it.ReduceOps, it.ScanOps):
        ops.apply_impl = _in_f32(ops.apply_impl, f32, bits)
    return used


_TORCH_FP8 = {"fp8e5": "float8_e5m2", "fp8e4nv": "float8_e4m3fn", "fp8e4b8": "float8_e4m3fnuz",
              "fp8e5b16": "float8_e5m2fnuz"}


def fp8_by_torch(used: dict[str, int]) -> None:
    """Make the interpreter's fp8 conversions torch's. Its own rounds to nearest by adding the cut-off bit to the
    mantissa without carrying into the exponent: 1.89 -> e5m2 gives 1.0, not 2.0 (one value in twelve of U(0, 2)
    wrong; Triton's tutorial FP8 attention off by 10 % where the GPU is off by 5 %). A conversion to fp8 rounding
    to nearest even (the default) saturates to the largest finite value, as the GPU's ``cvt.rn.satfinite`` does; one
    from fp8 is exact. Counted in ``used["fp8_casts"]``."""
    import numpy as np
    import torch
    import triton.language as tl
    from triton._C.libtriton import ir
    from triton.runtime import interpreter as it

    B = it.InterpreterBuilder
    to_fp = B.create_fp_to_fp
    used["fp8_casts"] = 0

    def values(h: Any) -> Any:
        """A handle's values as a float32 numpy array (fp8 and bf16 held as their bits)."""
        s = h.dtype.scalar
        if s.name in _TORCH_FP8:
            fp8 = getattr(torch, _TORCH_FP8[s.name])
            return torch.from_numpy(np.ascontiguousarray(h.data)).view(fp8).float().numpy()
        if s == tl.bfloat16:
            return (h.data.astype(np.uint32) << 16).view(np.float32)
        return h.data.astype(np.float32)

    def create_fp_to_fp(self: Any, src: Any, dst_type: Any, rounding: Any) -> Any:
        d = dst_type.scalar
        into = d.name in _TORCH_FP8 and rounding in (None, ir.ROUNDING_MODE.RTNE)
        if not (into or src.dtype.scalar.name in _TORCH_FP8) or d.name not in (*_TORCH_FP8, "fp16", "fp32", "fp64"):
            return to_fp(self, src, dst_type, rounding)
        used["fp8_casts"] += 1
        x = torch.from_numpy(np.ascontiguousarray(values(src)))
        if d.name in _TORCH_FP8:
            fp8 = getattr(torch, _TORCH_FP8[d.name])
            top = torch.finfo(fp8).max
            x = torch.where(x.isnan(), x, x.clamp(-top, top)).to(fp8).view(torch.uint8)
        return it.TensorHandle(x.numpy().astype(it._get_np_dtype(d)), d)

    B.create_fp_to_fp = create_fp_to_fp


def libdevice_by_numpy(used: dict[str, int]) -> None:
    """Give the interpreter the few libdevice functions the corpus calls, computed by numpy in the operands' float
    type (Triton 3.6's interpreter has no libdevice: ``triton.language.extra.libdevice.tanh`` is a stub that returns
    None there, ``extra.cuda.libdevice.tanh`` asks for a compiler). Counted in ``used["libdevice_ops"]``."""
    import numpy as np
    import triton.language as tl
    import triton.language.extra.cuda.libdevice as cuda_lib
    import triton.language.extra.libdevice as lib
    from triton.runtime import interpreter as it

    def erf(x: Any) -> Any:
        return it.np_erf_fp32(x) if x.dtype == np.float32 else it.np_erf_fp64(x)

    numpy_of = {"tanh": np.tanh, "rsqrt": lambda x: 1 / np.sqrt(x), "erf": erf, "log1p": np.log1p, "expm1": np.expm1,
                "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt, "sin": np.sin,
                "cos": np.cos, "pow": np.power, "fast_dividef": np.divide, "div_rn": np.divide, "fast_expf": np.exp,
                "fast_logf": np.log, "trunc": np.trunc, "fmod": np.fmod}
    used["libdevice_ops"] = 0

    def by_numpy(name: str, fn: Any) -> Any:
        def call(*args: Any, **_: Any) -> Any:
            used["libdevice_ops"] += 1
            first = next(a for a in args if isinstance(a, tl.core.tensor))
            dtype = first.dtype.scalar if first.dtype.scalar in (tl.float32, tl.float64) else tl.float32
            vals = [a.to(dtype).handle.data if isinstance(a, tl.core.tensor)
                    else np.asarray(tl.core._unwrap_if_constexpr(a)) for a in args]
            out = np.asarray(fn(*vals)).astype(it._get_np_dtype(dtype))
            block = any(isinstance(a, tl.core.tensor) and a.type.is_block() for a in args)
            ty = tl.block_type(dtype, list(out.shape)) if block else dtype
            return tl.core.tensor(it.TensorHandle(out, dtype), ty)
        call.__name__ = name
        return call

    for module in (lib, cuda_lib):
        for name, fn in numpy_of.items():
            setattr(module, name, by_numpy(name, fn))


def tensor_loop_vars(used: dict[str, int]) -> None:
    """Make the induction variable of a kernel's ``for i in range(...)`` / ``tl.range(...)`` a scalar tensor, as
    Triton's compiler makes it (``static_range`` keeps its constant): the interpreter left it a Python int, so
    ``g.to(tl.int64)`` in FBGEMM's grouped GEMM raised. The interpreter's rewriter of kernel sources (it rewrites each
    assignment ``x = v`` into ``x = interpreter_semantic.to_tensor(v, False)``) gets ``i = i`` first in such a loop's
    body. Counted in ``used["loop_vars"]`` (loops rewritten)."""
    import ast

    from triton.runtime import interpreter as it

    used["loop_vars"] = 0

    def visit_For(self: Any, node: Any) -> Any:
        call = node.iter
        name = getattr(call.func, "attr", getattr(call.func, "id", "")) if isinstance(call, ast.Call) else ""
        if name == "range" and isinstance(node.target, ast.Name):
            used["loop_vars"] += 1
            node.body.insert(0, ast.copy_location(ast.Assign(targets=[ast.Name(id=node.target.id, ctx=ast.Store())],
                                                             value=ast.Name(id=node.target.id, ctx=ast.Load())), node))
        return self.generic_visit(node)

    it.ASTTransformer.visit_For = visit_For


def tensor_and_or(used: dict[str, int]) -> None:
    """Make ``a and b`` / ``a or b`` of tensors in a kernel what Triton's compiler makes them, ``logical_and`` /
    ``logical_or`` (a constant operand short-circuits or drops out), where the interpreter ran Python's: ``row < M
    and col_mask`` was ``col_mask`` where every row was in bounds, else ``row < M``, the column mask dropped (FlagGems'
    weight-norm backward read past its columns and crashed). The interpreter's rewriter of kernel sources (it already
    rewrites assignments) rewrites each such expression into a call of ``__twill_boolop__``, each operand a lambda,
    evaluated in order. Counted in ``used["boolops"]``."""
    import ast

    import triton.language as tl
    from triton.runtime import interpreter as it

    used["boolops"] = 0

    def boolop(method: str, *operands: Any) -> Any:
        tensors, value = [], None
        for operand in operands:
            value = operand()
            if not isinstance(value, tl.core.tensor):
                if bool(value) == (method == "logical_or"):
                    return value
            else:
                tensors.append(value)
        if not tensors:
            return value
        used["boolops"] += 1
        while len(tensors) >= 2:
            rhs, lhs = tensors.pop(), tensors.pop()
            tensors.append(getattr(lhs, method)(rhs))
        return tensors[0]

    def visit_BoolOp(self: Any, node: Any) -> Any:
        self.generic_visit(node)
        method = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        thunks = [ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                             body=v) for v in node.values]
        return ast.copy_location(ast.Call(func=ast.Name(id="__twill_boolop__", ctx=ast.Load()),
                                          args=[ast.Constant(value=method), *thunks], keywords=[]), node)

    assign = it.ASTTransformer.visit_Assign

    def visit_Assign(self: Any, node: Any) -> Any:      # Triton's visits the targets only
        node.value = self.visit(node.value)
        return assign(self, node)

    it.__twill_boolop__ = boolop          # the rewriter execs a kernel with the interpreter module's globals
    it.ASTTransformer.visit_BoolOp, it.ASTTransformer.visit_Assign = visit_BoolOp, visit_Assign


def bool_args() -> None:
    """Pass a kernel's Python bool argument (not constexpr) as an int1 scalar: the interpreter typed it int1 but held
    it in an int32 array, which its own check refuses ("numpy data itemsize (32 bits) exceeds ... int1"; xFormers'
    sequence-parallel matmul passes four)."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as it

    implicit = it._implicit_cvt

    def _implicit_cvt(arg: Any) -> Any:
        if isinstance(arg, bool):
            return tl.tensor(it.TensorHandle(np.array([arg], dtype=bool), tl.int1), tl.int1)
        return implicit(arg)

    it._implicit_cvt = _implicit_cvt


def builtin_aliases() -> None:
    """Give a kernel's module-level aliases of Triton builtins the interpreter's semantics, as it gives ``tl.*``
    while a kernel runs: Unsloth's cross entropy calls ``triton_cast = tl.cast``, bound at import to the builtin that
    wants the compiler's ``_semantic`` ("Did you forget to add @triton.jit ?")."""
    import triton.language as tl
    from triton.runtime import interpreter as it

    patch_lang = it._patch_lang

    class Globals:
        """A module's globals as attributes, for the interpreter's patch scope (which sets and restores attributes)."""

        def __init__(self, names: dict[str, Any]) -> None:
            object.__setattr__(self, "names", names)

        def __getattr__(self, name: str) -> Any:
            try:
                return self.names[name]
            except KeyError:
                raise AttributeError(name) from None

        def __setattr__(self, name: str, value: Any) -> None:
            self.names[name] = value

        def __delattr__(self, name: str) -> None:
            del self.names[name]

    def _patch_lang(fn: Any) -> Any:
        scope = patch_lang(fn)
        names = Globals(fn.__globals__)
        for name, value in list(fn.__globals__.items()):
            if tl.core.is_builtin(value):
                it._patch_attr(names, name, value, it.interpreter_builder, scope)
        return scope

    it._patch_lang = _patch_lang


def untimed_autotune(tile: dict[str, Any]) -> None:
    """An autotuned kernel takes, untimed, its first config that agrees with ``tile`` (the kernel file's TWILL_SPEC
    constexprs, filled in once the file is loaded: the tile its harness and its generated kernels are written for),
    else its first. The interpreter has no driver to time configs with (Triton's autotuner asks ``driver.active``
    for a benchmarker and finds none), nor a GPU whose resources a config prune or a perf model would weigh
    (bitsandbytes' prune asks ``torch.cuda`` for its shared memory): those are skipped."""
    from triton.runtime.autotuner import Autotuner

    def prune_configs(self: Any, kwargs: dict[str, Any]) -> Any:
        agree = [c for c in self.configs if all(tile.get(k, v) == v for k, v in c.kwargs.items())]
        return agree[:1] or self.configs[:1]

    Autotuner.do_bench = property(lambda self: lambda fn, quantiles=None: [0.0, 0.0, 0.0])   # type: ignore
    Autotuner.prune_configs = prune_configs     # type: ignore[method-assign]


def _when_bf16(orig: Any, fn: Any, handle: Any, typed: int) -> Any:
    """An interpreter op computed by ``fn`` on values where an operand is bf16 (its result typed as its operand
    ``typed``), else as Triton computes it."""
    import triton.language as tl

    def op(self: Any, *args: Any) -> Any:
        if not any(getattr(getattr(a, "dtype", None), "scalar", None) == tl.bfloat16 for a in args):
            return orig(self, *args)
        return handle(fn(*args), args[typed].dtype.scalar)
    return op


def _in_f32(apply_impl: Any, f32: Any, bits: Any) -> Any:
    """A reduction's or scan's ``apply_impl`` run on its bf16 operands in fp32, its outputs in their places rounded
    back to bf16."""
    import triton.language as tl
    from triton.runtime import interpreter as it

    def apply(self: Any, input: Any) -> Any:
        was = [t.dtype.scalar == tl.bfloat16 for t in input]
        if not any(was):
            return apply_impl(self, input)
        out = apply_impl(self, tuple(tl.core.tensor(it.TensorHandle(f32(t.handle), tl.float32),
                                                    t.type.with_element_ty(tl.float32)) if w else t
                                     for t, w in zip(input, was)))
        many = isinstance(out, (list, tuple))
        back = [tl.core.tensor(it.TensorHandle(bits(o.handle.data), tl.bfloat16), o.type.with_element_ty(tl.bfloat16))
                if i < len(was) and was[i] and o.dtype.scalar == tl.float32 else o
                for i, o in enumerate(out if many else [out])]
        return type(out)(back) if many else back[0]
    return apply
