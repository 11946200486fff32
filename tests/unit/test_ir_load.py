"""Loading kernel files for extraction: nothing but kernels and constants runs; specialisation sources."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton")

from kernels_for_tests import kernel_file  # noqa: E402
from twill.errors import InputError  # noqa: E402
from twill.ir.load import load_kernel, load_module  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_wild_file_loads_without_torch_or_gpu():
    mod = load_module(kernel_file("WILD"))
    # Kernels, helpers and constants are defined; device work and the benchmark never ran.
    assert "wild" in vars(mod) and "CONFIGS" in vars(mod) and "helper_not_jit" in vars(mod)
    assert "DEVICE" not in vars(mod) and "x" not in vars(mod)
    # In a fresh interpreter: in this one another test may have imported torch (CI installs its CPU
    # build for the interpreter tests; the GPU tests' importorskip imports it at collection).
    script = ("import sys; from twill.ir.load import load_module; "
              f"load_module({kernel_file('WILD')!r}); print('torch' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr[-2000:]


def test_spec_from_autotune_configs_and_flags():
    spec = load_kernel(kernel_file("WILD"), "h100", args={"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"})
    assert spec.name == "wild" and spec.constexprs == {"BLOCK": 64} and spec.num_warps == 4
    assert spec.signature == {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"}
    # --const overrides the autotune config.
    spec = load_kernel(kernel_file("WILD"), "h100", args={"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
                       consts={"BLOCK": "128"}, num_warps=8)
    assert spec.constexprs == {"BLOCK": 128} and spec.num_warps == 8


def test_missing_specialisation_lists_names_and_flag():
    with pytest.raises(InputError) as e:
        load_kernel(kernel_file("WILD"), "h100", args={"x_ptr": "*fp32"})
    msg = str(e.value)
    assert "y_ptr, N" in msg and "--arg NAME=TYPE" in msg and "\n" not in msg


def test_spec_from_twill_spec_with_arch_override(tmp_path):
    src = open(kernel_file("NO_DOT")).read().replace('"num_warps": 4}', '"num_warps": 4, "arch": {"b200": {"num_warps": 8}}}')
    p = tmp_path / "k.py"
    p.write_text(src)
    assert load_kernel(str(p), "h100").num_warps == 4
    assert load_kernel(str(p), "b200").num_warps == 8


def test_a_twill_spec_calling_the_files_own_helper_is_named_where_the_specialisation_is_incomplete(tmp_path):
    # session 78's sweep: TWILL_SPEC = {..., "NUM_SMS": _programs(M, N)} was left out (twill runs no call of the
    # file's own offline) and the error listed every argument as missing without saying why
    src = open(kernel_file("NO_DOT")).read()
    head, spec = src.split("TWILL_SPEC", 1)
    p = tmp_path / "k.py"
    p.write_text(head + "def _warps():\n    return 4\n\n\nTWILL_SPEC" + spec.replace('"num_warps": 4', '"num_warps": _warps()', 1))
    with pytest.raises(InputError) as e:
        load_kernel(str(p), "h100")
    msg = str(e.value)
    assert "specialisation incomplete" in msg and "\n" not in msg, msg
    assert "TWILL_SPEC at line" in msg and "`_warps()`" in msg and "write the value itself" in msg, msg


def test_kernel_needing_a_dropped_name_is_one_line():
    # The kernel itself loads without the decorator it cannot evaluate; the specialisation it then
    # lacks is one line naming both.
    mod = load_module(kernel_file("NEEDS_TORCH"))
    assert "needs" in vars(mod)
    with pytest.raises(InputError) as e:
        load_kernel(kernel_file("NEEDS_TORCH"), "h100")
    msg = str(e.value)
    assert "'torch'" in msg and "needs" in msg and "@triton.autotune" in msg and "\n" not in msg


@pytest.mark.parametrize("name, text", [("NO_KERNEL", "no kernel in file"), ("NO_LOOP", "no kernel with a loop")])
def test_no_kernel_and_no_loop(name, text):
    with pytest.raises(InputError, match=text):
        load_kernel(kernel_file(name), "h100")


def test_unknown_kernel_name_lists_the_kernels():
    with pytest.raises(InputError, match="acc_loop"):
        load_kernel(kernel_file("ACC_LOOP"), "h100", kernel="nope")


WHILE_GEMM = '''
import triton
import triton.language as tl
TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32", "stride_am": "i32",
                            "stride_bk": "i32"}, "constexprs": {"BM": 128, "BN": 128, "BK": 64}, "num_warps": 8}


@triton.jit
def while_gemm(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + tl.arange(0, BK)[None, :]
    b_ptrs = b_ptr + tl.arange(0, BK)[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    k = 0
    while k < K:
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
        k += BK
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc.to(tl.float16))
'''


def test_a_while_main_loop_is_named_in_one_line(tmp_path):
    """A kernel whose only loop is a `while` (scf.while: no trip count known when it starts, so nothing runs ahead):
    one line naming the `while` and its source line, exit 2, nothing written."""
    (tmp_path / "k.py").write_text(WHILE_GEMM)
    r = subprocess.run([sys.executable, "-m", "twill", "optimize", "k.py", "--arch", "h100", "-o", "out"],
                       cwd=tmp_path, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "only a `while` loop (scf.while, k.py:16)" in r.stderr and "range(" in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()


FOR_HOLDING_WHILE = '''
import triton
import triton.language as tl
TWILL_SPEC = {"signature": {"X": "*fp32", "Y": "*fp32", "n": "i32"}}


@triton.jit
def k(X, Y, n):
    for i in range(n):
        j = tl.load(X + i).to(tl.int32)
        while j > 0:
            j -= 1
        tl.store(Y + i, j.to(tl.float32))
'''


def test_a_for_holding_a_while_is_named_in_one_line(tmp_path):
    """Every `for` holds a `while` (FlagGems' radix sort sweep: a spin wait inside its block loop): no innermost
    counted loop, said in one line (a traceback before session 88: max() of no candidates)."""
    (tmp_path / "k.py").write_text(FOR_HOLDING_WHILE)
    for cmd in (["optimize", "k.py", "--arch", "h100", "-o", "out"], ["graph", "k.py", "--arch", "h100"]):
        r = subprocess.run([sys.executable, "-m", "twill", *cmd], cwd=tmp_path, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert "each `for` holds a `while` loop" in r.stderr and "k.py:9" in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()


LIBRARY_KERNEL = '''import triton
import triton.language as tl
from {package}.utils import lang_ext as tle

TWILL_SPEC = {{"signature": {{"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"}}, "constexprs": {{"BLOCK": 128}}}}


@triton.jit
def copy_rows(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    pid = tle.program_id(0)
    for i in range(0, N, BLOCK):
        offs = pid * N + i + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2)
'''
HELPER_MODULE = '''import triton
import triton.language as tl


@triton.jit
def program_id(axis: tl.constexpr):
    return tl.program_id(axis).to(tl.int64)
'''


def test_a_library_helper_module_is_imported_where_the_library_is_installed(tmp_path, monkeypatch):
    # FlagGems' kernels call `tle.program_id` from flag_gems.utils.triton_lang_extension (sweep D, session 39:
    # "NameError('tle is not defined')"): with the library installed its helpers are imported, each name alone
    from twill.ir.frontend import read_kernel
    from twill.ir.target import Target
    pkg = tmp_path / "twill_fake_lib" / "utils"
    pkg.mkdir(parents=True)
    (tmp_path / "twill_fake_lib" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "lang_ext.py").write_text(HELPER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    k = tmp_path / "k.py"
    k.write_text(LIBRARY_KERNEL.format(package="twill_fake_lib"))
    kir = read_kernel(str(k), Target("h100", 90))
    assert "tt.get_program_id" in kir.text and "scf.for" in kir.text
    assert any("lang_ext as tle" in n and "imported" in n for n in load_kernel(str(k), "h100").notes)


def test_a_library_helper_not_installed_is_named_with_its_import(tmp_path):
    from twill.errors import TwillError
    from twill.ir.frontend import read_kernel
    from twill.ir.target import Target
    k = tmp_path / "k.py"
    k.write_text(LIBRARY_KERNEL.format(package="twill_no_such_lib"))
    with pytest.raises(TwillError) as e:
        read_kernel(str(k), Target("h100", 90))
    msg = str(e.value)
    assert "'tle'" in msg and "from twill_no_such_lib.utils import lang_ext as tle" in msg, msg
    assert "No module named 'twill_no_such_lib'" in msg and "k.py:3" in msg and "\n" not in msg


def test_a_twill_spec_giving_the_signature_takes_the_autotune_config_for_the_rest(tmp_path):
    # tutorial 03's kernel with a spec of its signature only (sweep D): the first config's block sizes and warps
    src = '''import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "N": "i32"}, "constexprs": {"SCALE": 2}}


@triton.autotune(configs=[triton.Config({"BLOCK": 256, "SCALE": 3}, num_warps=8, num_stages=4),
                          triton.Config({"BLOCK": 64}, num_warps=4)], key=["N"])
@triton.jit
def scale(x_ptr, N, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    for i in range(0, N, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < N) * SCALE, mask=offs < N)
'''
    p = tmp_path / "k.py"
    p.write_text(src)
    spec = load_kernel(str(p), "h100")
    assert spec.constexprs == {"BLOCK": 256, "SCALE": 2} and spec.num_warps == 8 and spec.num_stages == 4


GUARDED_IMPORTS = '''
import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh
if compare_version("triton", ">=", "3.0.0"):   # a library's own check, which extraction cannot evaluate
    from triton.language.extra.libdevice import exp as fast_exp
else:
    from triton.language.math import exp as fast_exp
try:
    import not_a_module_here
except ImportError:
    pass


@triton.jit
def k(x_ptr, n):
    i = tl.arange(0, 128)
    tl.store(x_ptr + i, fast_exp(tanh(tl.load(x_ptr + i))), mask=i < n)
'''


def test_imports_in_a_try_or_an_if_are_kept_for_extraction(tmp_path):
    """Liger imports `tanh` in a try with a fallback, under its own version check: both kept (the if as a try of its
    branch falling back to its else); a try that imports another library dropped, as a plain import of it is."""
    (tmp_path / "k.py").write_text(GUARDED_IMPORTS)
    mod = load_module(str(tmp_path / "k.py"))
    assert callable(getattr(mod.tanh, "fn", mod.tanh)) and getattr(mod, "fast_exp", None) is not None
    assert not hasattr(mod, "not_a_module_here")


CONSTEXPR_HELPERS = '''
import triton
import triton.language as tl
from triton.language import core

try:   # lmdeploy's bitonic top-k: Triton 3.6 calls a plain function at compile time only so wrapped
    get_int_dtype = triton.runtime.jit.constexpr_function(core.get_int_dtype)
except Exception:
    get_int_dtype = core.get_int_dtype


@triton.constexpr_function
def twice(n):
    return 2 * n


@tl.constexpr        # FlagGems' spelling (sort.py's get_int_t, cumsum.py's get_scan_accum_type)
def accumulated(dt):
    return tl.float32 if dt.is_fp16() else dt


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    i = tl.arange(0, twice(BLOCK))
    x = tl.load(x_ptr + i, mask=i < n).to(accumulated(x_ptr.type.element_ty), bitcast=False)
    y = x.to(get_int_dtype(32, True), bitcast=True)
    for j in range(0, n, 2 * BLOCK):
        tl.store(x_ptr + j + i, y.to(tl.float32, bitcast=True), mask=j + i < n)
'''


def test_constexpr_functions_a_kernel_calls_are_kept_for_extraction(tmp_path):
    """A constant made by ``triton.runtime.jit.constexpr_function`` in a ``try`` with a fallback, a
    ``@triton.constexpr_function`` definition and a ``@tl.constexpr`` one: all kept, so the kernel compiles (session 88's sweep: lmdeploy's
    bitonic top-k failed with "NameError: get_int_dtype is not defined", the name dropped without a word)."""
    from triton.runtime.jit import ConstexprFunction

    (tmp_path / "k.py").write_text(CONSTEXPR_HELPERS)
    mod = load_module(str(tmp_path / "k.py"))
    assert isinstance(mod.get_int_dtype, ConstexprFunction) and isinstance(mod.twice, ConstexprFunction)
    assert callable(getattr(mod.accumulated, "value", mod.accumulated))
    r = subprocess.run([sys.executable, "-m", "twill", "graph", str(tmp_path / "k.py"), "--arch", "h100",
                        "--arg", "x_ptr=*fp32", "--arg", "n=i32", "--const", "BLOCK=64"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr


def test_a_kernel_inside_a_top_level_if_else_is_found():
    """bitsandbytes defines its kernels inside ``if not is_triton_available(): <stub> else: <imports, kernel>``: the
    file reader kept only import-only top-level blocks and said "no such kernel" of a kernel that is there."""
    spec = load_kernel(str(ROOT / "tests/corpus/bnb_int8_matmul_rowwise.py"), "h100")
    assert spec.name == "_int8_matmul_rowwise_dequantize" and spec.constexprs["BLOCK_M"] == 128


def test_an_optional_pointer_given_none_is_a_constexpr(tmp_path):
    """FLA's ``cu_seqlens=None``: a run-time pointer that TWILL_SPEC's constexprs set to None (not in its signature)
    is specialised as a launch passing None is, and ``--const NAME=None`` says the same on the command line."""
    src = '''
import triton
import triton.language as tl
TWILL_SPEC = {"kernel": "k", "signature": {"x": "*fp32", "n": "i32"}, "constexprs": {"offsets": None, "B": 64},
              "num_warps": 4}


@triton.jit
def k(x, offsets, n, B: tl.constexpr):
    for i in range(0, n, B):
        o = i + tl.arange(0, B)
        if offsets is not None:
            o += tl.load(offsets)
        tl.store(x + o, tl.load(x + o) * 2, mask=o < n)
'''
    p = tmp_path / "opt.py"
    p.write_text(src)
    spec = load_kernel(str(p), "h100")
    assert spec.signature["offsets"] == "constexpr" and spec.constexprs["offsets"] is None
    p.write_text(src.replace('"offsets": None, ', ""))
    spec = load_kernel(str(p), "h100", consts={"offsets": "None"})
    assert spec.signature["offsets"] == "constexpr" and spec.constexprs["offsets"] is None


def test_a_function_an_if_block_redefines_keeps_its_first_definition(tmp_path):
    """Liger's ``if os.environ.get("TRITON_INTERPRET") == "1": @triton.jit def tanh``: an interpreter stand-in for a
    function bound before the block, not the one a GPU run compiles; read branch by branch, it replaced libdevice's
    tanh and changed the kernel (session 44)."""
    p = tmp_path / "k.py"
    p.write_text('''
import os
import triton
import triton.language as tl


@triton.jit
def helper(x):
    return x + 1


if os.environ.get("TRITON_INTERPRET") == "1":
    @triton.jit
    def helper(x):  # noqa: F811
        return x + 2

    @triton.jit
    def only_here(x):
        return x
''')
    mod = load_module(str(p))
    assert "x + 1" in mod.helper.src and "only_here" in vars(mod)


CONFIGS_ASK_THE_DRIVER = '''
import triton
import triton.language as tl


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def configs():
    if is_cuda() and triton.runtime.driver.active.get_current_target().arch >= 90:
        return [triton.Config({"BLOCK": 256}, num_warps=8, num_stages=4), triton.Config({"BLOCK": 128}, num_warps=4)]
    return [triton.Config({"BLOCK": 64}, num_warps=2)]


@triton.autotune(configs=configs(), key=["n"])
@triton.jit
def copy(x, y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(0, n, BLOCK):
        tl.store(y + i + offs, tl.load(x + i + offs, mask=i + offs < n), mask=i + offs < n)


@triton.autotune(configs=[triton.Config({"BLOCK": 32 * triton.runtime.driver.active.get_device_properties(0)["x"]})],
                 key=["n"])
@triton.jit
def asks_the_device(x, y, n, BLOCK: tl.constexpr):
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)))
'''


def test_autotune_configs_that_ask_the_driver_for_the_target_are_built_for_the_target_offline(tmp_path):
    """Tutorial 03's ``get_autotune_config()`` branches on ``driver.active.get_current_target()``; with no GPU
    Triton has no driver and the decorator was dropped. A stand-in answers with the target twill compiles for, so
    the first sm_90 config is the specialisation; a config asking the device for more is still dropped, with a
    note; Triton's driver is left as it was."""
    pytest.importorskip("triton")
    from triton.runtime import driver

    path = tmp_path / "k.py"
    path.write_text(CONFIGS_ASK_THE_DRIVER)
    args = {"x": "*fp16", "y": "*fp16", "n": "i32"}
    spec = load_kernel(str(path), "h100", kernel="copy", args=args, sm=90)
    assert spec.constexprs["BLOCK"] == 256 and spec.num_warps == 8 and spec.num_stages == 4
    assert any("copy is autotuned over 2 configs" in n for n in spec.notes)
    other = load_kernel(str(path), "h100", kernel="asks_the_device", args=args, consts={"BLOCK": "32"}, sm=90)
    assert any("asks_the_device loaded without @triton.autotune" in n and "driver.get_device_properties" in n
               for n in other.notes), other.notes
    if not _gpu():
        assert driver._active is None
        with pytest.raises(RuntimeError):
            driver.active       # noqa: B018 - no driver made behind the stand-in


def _gpu() -> bool:
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False
