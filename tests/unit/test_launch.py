"""The generated kernel's launcher (``codegen.gluon.host``): a launch with an earlier one's key calls the kernel the
JIT compiled for it, with the same arguments in the same order, and every change Triton specialises on (an integer,
a tensor's alignment or dtype, the grid, the instrumentation mode) goes through the JIT again. On the CPU: the JIT is
a recorder, the tensors are read for their addresses, dtypes and strides only."""
from __future__ import annotations

import gc
import tempfile
import weakref
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from codegen.gluon.generate import load_module  # noqa: E402

RESULTS = Path(__file__).resolve().parents[2] / "bench/results/gluon"


class Compiled:
    """What the JIT's launch returns: a compiled kernel, launched again by ``compiled[grid](*args)``."""

    function = object()

    def __init__(self, calls: list):
        self.calls = calls

    def __getitem__(self, grid):
        return lambda *args: self.calls.append(("compiled", grid, args, {}))


class Jit:
    def __init__(self, calls: list):
        self.calls = calls

    def __getitem__(self, grid):
        def run(*args, **kwargs):
            self.calls.append(("jit", grid, args, kwargs))
            return Compiled(self.calls)
        return run


def _module(kernel: str):
    with tempfile.TemporaryDirectory() as tmp:
        mod = load_module((RESULTS / kernel / "kernel_gluon.py").read_text(), tmp, f"launch_{kernel}")
    calls: list = []
    mod.twill_kernel = Jit(calls)
    mod._device = lambda: 0
    mod._sm_count = lambda: 132
    return mod, calls


def _fp8_args(mod, **over):
    a = over.pop("A", None)
    # fp8 operands, as the kernel's descriptors' layouts say (Triton 3.9's descriptor checks the element width)
    a = torch.zeros(512, 256, dtype=torch.float8_e4m3fn) if a is None else a
    values = dict(A=a, B=torch.zeros(256, 256, dtype=torch.float8_e4m3fn), C=torch.zeros(512, 256, dtype=torch.float16),
                  As=torch.ones(512, 2), Bs=torch.ones(2, 2), M=512, N=256, K=256, stride_am=256, stride_bn=256,
                  stride_cm=256, stride_As_k=1, stride_Bs_k=2, **mod.CONSTEXPRS)
    values.update(over)
    return [values[n] for n in mod.ARGUMENTS]


def test_a_launch_like_an_earlier_one_calls_the_compiled_kernel_with_the_jits_arguments():
    mod, calls = _module("block_fp8_gemm")
    grid = lambda meta: (4, 2)                                          # noqa: E731
    args = _fp8_args(mod)
    mod.launch(grid, *args)
    mod.launch(grid, *args)
    (kind1, g1, a1, kw1), (kind2, g2, a2, kw2) = calls
    assert (kind1, kind2) == ("jit", "compiled")
    assert g1 == (8,) and g2 == (8, 1, 1)                               # persistent: min(tiles, SMs) programs
    assert kw1 == {"TWILL_COPY": True, "TWILL_TMA": True, "num_warps": mod.NUM_WARPS, "maxnreg": mod.MAXNREG}
    assert a2 == a1 + (True, True)                                      # the flags, the kernel's last parameters
    boxes = [a for a in a1 if hasattr(a, "block_shape")]
    assert len(boxes) == 2 and all(not isinstance(d.base, torch.Tensor) for d in boxes)
    assert boxes[0].base.data_ptr() == args[0].data_ptr() and boxes[0].base.dtype == torch.float8_e4m3fn
    assert all(x is y for x, y in zip(a1, a2) if hasattr(x, "block_shape"))    # kept, not rebuilt


@pytest.mark.parametrize("change", ["an integer", "a tensor's alignment", "a dtype", "the grid", "instrumentation",
                                    "FAST_LAUNCH off"])
def test_what_triton_specialises_on_changed_goes_through_the_jit_again(change, monkeypatch):
    mod, calls = _module("block_fp8_gemm")
    grid = (4, 2)
    mod.launch(grid, *_fp8_args(mod))
    mod.launch(grid, *_fp8_args(mod))
    assert [c[0] for c in calls] == ["jit", "compiled"]
    a = torch.zeros(512 * 256 + 8, dtype=torch.float8_e4m3fn)
    args, g = _fp8_args(mod), grid
    if change == "an integer":
        args = _fp8_args(mod, K=240)
    elif change == "a tensor's alignment":
        args = _fp8_args(mod, A=a[1:1 + 512 * 256].view(512, 256))
    elif change == "a dtype":
        args = _fp8_args(mod, B=torch.zeros(256, 256, dtype=torch.bfloat16))
    elif change == "the grid":
        g = (2, 4)                                                      # same programs, twill_g0/g1 differ
    elif change == "instrumentation":
        from triton import knobs
        monkeypatch.setattr(knobs.compilation, "instrumentation_mode", "default")
    else:
        mod.FAST_LAUNCH = False
    mod.launch(g, *args)
    assert calls[-1][0] == "jit"
    if change == "a tensor's alignment":                                # neither TMA nor cp.async: registers
        assert (calls[-1][3]["TWILL_COPY"], calls[-1][3]["TWILL_TMA"]) == (False, False)
    if change == "an integer":                                          # the box's extent follows K
        assert [list(d.shape) for d in calls[-1][2] if hasattr(d, "block_shape")] == [[2 ** 31 - 1, 240]] * 2


def test_the_launcher_holds_no_tensor_alive():
    mod, calls = _module("block_fp8_gemm")
    args = _fp8_args(mod)
    alive = weakref.ref(args[0])
    mod.launch((4, 2), *args)
    mod.launch((4, 2), *args)
    calls.clear()
    del args
    gc.collect()
    assert alive() is None


def test_a_launch_the_kernels_heuristics_would_specialise_otherwise_is_refused():
    """NSA's kernel is generated for ``USE_OFFSETS=False`` and ``USE_BLOCK_COUNTS=True``, constexprs its
    ``@triton.heuristics`` set from the launch (``offsets is not None``, ``block_counts`` a tensor), never passed: a
    variable-length launch or an integer block count ran the generated kernel as it was (the sweep's finding)."""
    mod, calls = _module("nsa_selected_attention")
    assert set(mod.HEURISTICS) == {"USE_OFFSETS", "USE_BLOCK_COUNTS"}
    B, T, H, HQ, K = 1, 128, 4, 64, 128
    base = dict(q=torch.zeros(B, T, HQ, K, dtype=torch.float16), k=torch.zeros(B, T, H, K, dtype=torch.float16),
                v=torch.zeros(B, T, H, K, dtype=torch.float16), o=torch.zeros(B, T, HQ, K, dtype=torch.float16),
                lse=torch.zeros(B, T, HQ), scale=0.1, block_indices=torch.zeros(B, T, H, 16, dtype=torch.int32),
                block_counts=torch.ones(B, T, H, dtype=torch.int32), offsets=None, token_indices=None, T=T, H=H, HQ=HQ,
                G=HQ // H, K=K, V=128, S=16, BS=64, BK=128, BV=128)
    mod.kernel[(T, 1, B * H)](**base)                                   # as generated
    assert len(calls) == 1
    for over, said in ((dict(offsets=torch.tensor([0, 64, T], dtype=torch.int32)), "USE_OFFSETS=True"),
                       (dict(block_counts=16), "USE_BLOCK_COUNTS=False")):
        with pytest.raises(ValueError, match=f"generated for .*heuristics gives {said} for this launch"):
            mod.kernel[(T, 1, B * H)](**dict(base, **over))
    assert len(calls) == 1
    assert not hasattr(_module("block_fp8_gemm")[0], "HEURISTICS")    # a kernel with none: no check written


def test_an_autotune_configs_zeroing_pre_hook_runs_before_each_launch():
    """Mamba-2's db backward zeroes ``ddA_cumsum`` through its autotune config's ``pre_hook=init_to_zero([...])``,
    which Triton's autotuner runs before every launch; the generated launcher stands in for the autotuned kernel and
    dropped it (the sweep: a relative error of 3.4e+02 on memory the allocator hands back used). Another hook than a
    zeroing one is refused at launch, not skipped."""
    mod, calls = _module("mamba_chunk_state_bwd_db")
    assert mod.ZERO_BEFORE == ["ddA_cumsum_ptr"] and mod.PRE_HOOK is None
    mod._decide = lambda bound: [(), None, None]
    mod._run = lambda entry, g, runtime: None
    args = [mod.CONSTEXPRS.get(n, torch.full((4,), 7.0) if n.endswith("_ptr") else 1) for n in mod.ARGUMENTS]
    mod.launch((1, 1, 1), *args)
    assert torch.equal(args[mod.ARGUMENTS.index("ddA_cumsum_ptr")], torch.zeros(4))
    assert torch.equal(args[mod.ARGUMENTS.index("db_ptr")], torch.full((4,), 7.0))       # the others untouched
    mod.PRE_HOOK = "restore_and_scale(nargs)"
    with pytest.raises(ValueError, match=r"pre_hook=restore_and_scale\(nargs\) before each launch"):
        mod.launch((1, 1, 1), *args)
    assert not hasattr(_module("block_fp8_gemm")[0], "ZERO_BEFORE")     # no hook: nothing written


HOOKED = '''
import triton
import triton.language as tl


def init_to_zero(names):
    return lambda nargs: [nargs[n].zero_() for n in names if nargs[n] is not None]


def scale(nargs):
    nargs["X"].mul_(2)


@triton.autotune(configs=[triton.Config({"B": 64}, num_warps=4, pre_hook=init_to_zero(["Y"])),
                          triton.Config({"B": 32}, num_warps=4, pre_hook=init_to_zero("Z"))], key=["n"])
@triton.jit
def zeroing(X, Y, Z, n, B: tl.constexpr):
    pass


@triton.autotune(configs=[triton.Config({"B": 64}, pre_hook=scale)], key=["n"], reset_to_zero=["X"])
@triton.jit
def scaling(X, n, B: tl.constexpr):
    pass
'''


def test_the_pre_hooks_of_a_kernels_autotune_configs_are_read_from_its_file(tmp_path, monkeypatch):
    import importlib
    from types import SimpleNamespace

    from codegen.gluon.host import pre_hook_of
    (tmp_path / "hooked_kernels.py").write_text(HOOKED)
    monkeypatch.syspath_prepend(str(tmp_path))
    m = importlib.import_module("hooked_kernels")
    assert pre_hook_of(SimpleNamespace(fn=m.zeroing.fn)) == (["Y", "Z"], None)     # every config's, by name
    assert pre_hook_of(SimpleNamespace(fn=m.scaling.fn)) == ([], "scale")          # not a zeroing hook: named
    assert pre_hook_of(None) == ([], None)


def test_the_kernels_fn_and_best_config_answer_as_an_autotuned_kernels_do():
    # FlagGems calls `kernel.fn[grid](...)` past its heuristics, Mamba sizes its grid from
    # `kernel.best_config.kwargs["BLOCK_SIZE_M"]` (run 129: both had raised AttributeError on the generated kernel)
    mod, calls = _module("block_fp8_gemm")
    args = _fp8_args(mod)
    mod.kernel.fn[lambda meta: (4, 2)](*args)
    mod.kernel.fn.fn[lambda meta: (4, 2)](*args)
    mod.kernel.run(*args, grid=lambda meta: (4, 2), warmup=False)
    assert mod.kernel.run(*args, grid=(8,), warmup=True) is None
    assert [c[0] for c in calls] == ["jit", "compiled", "compiled"]
    config = mod.kernel.best_config
    assert config.kwargs == mod.CONSTEXPRS and config.kwargs is not mod.CONSTEXPRS and config.num_warps == mod.NUM_WARPS
    assert config.all_kwargs()["num_warps"] == mod.NUM_WARPS and config.pre_hook is None


HEURISTIC_ROWS = '''
import triton
import triton.language as tl
from triton import next_power_of_2

TWILL_SPEC = {"kernel": "rows", "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "n_rounded": "i32",
                                              "BLOCK": "constexpr"}, "constexprs": {"BLOCK": 1024}}


def block_of(args):
    return quarter(next_power_of_2(args["n"]))


def quarter(v):
    return v // 4


@triton.heuristics({"BLOCK": block_of, "n_rounded": lambda args: next_power_of_2(args["n"])})
@triton.jit
def rows(x_ptr, y_ptr, n, n_rounded, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, n, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_rounded + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + row * BLOCK + tl.arange(0, BLOCK), acc)
'''


def test_heuristics_that_read_the_modules_names_are_checked_and_those_supplying_arguments_supply_them(tmp_path):
    """attorch's batch norm: a heuristic that is a function of the file, and a lambda calling ``next_power_of_2``
    imported by the file: the launcher had evaluated them without the module's names, failed, and not checked the
    launch (its kernel for 4096 rows ran at 5000). kernl's attention: a heuristic supplying a runtime argument,
    which its callers never pass (the launch was refused as missing it)."""
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, optimize
    f = tmp_path / "heuristic_rows.py"
    f.write_text(HEURISTIC_ROWS)
    k = optimize(str(f), load_machine("h100"), OptimizeOptions(time_limit=2.5, total_time=7.5, threads=2)).gluon.kernel
    assert k is not None
    mod = load_module(k.source, str(tmp_path), "heuristic_rows_gluon")
    calls: list = []
    mod.twill_kernel, mod._device, mod._sm_count = Jit(calls), (lambda: 0), (lambda: 132)
    assert set(mod.HEURISTICS) == {"BLOCK"} and set(mod.HEURISTIC_ARGS) == {"n_rounded"}
    x, y = torch.zeros(8, 4096), torch.zeros(8, 1024)
    mod.kernel[(8,)](x, y, 4000)                     # BLOCK 1024 as generated; n_rounded supplied: 4096
    assert len(calls) == 1 and [a for a in calls[0][2] if isinstance(a, int)][-1] == 4096, calls
    with pytest.raises(ValueError, match="generated for BLOCK=1024.*gives BLOCK=2048"):
        mod.kernel[(8,)](x, torch.zeros(8, 2048), 5000)
