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
