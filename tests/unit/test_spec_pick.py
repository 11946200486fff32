"""Which captured launch ``twill optimize --spec`` extracts with, and what its note says (issue 15): a spec
captured on the H200 by `twill capture` (bench/results/gluon/runs/run4/spec_fa3.json) read for an sm_90 target."""
import json
from pathlib import Path

import pytest

from twill.ir.spec import pick_entry

SPEC = Path(__file__).resolve().parents[2] / "bench/results/gluon/runs/run4/spec_fa3.json"


def test_the_most_launched_config_on_the_same_gpu_family_and_no_contradiction():
    entries = json.loads(SPEC.read_text())["kernels"]
    best, note = pick_entry(entries, "_attn_fwd", 90)
    assert best["launches"] == max(e["launches"] for e in entries) and best["capability"] == 90
    assert "most launched" in note and "none captured" not in note      # the capture was on sm_90: said once, right


def test_a_capture_from_another_gpu_family_is_said_so():
    entries = [dict(e, capability=80) for e in json.loads(SPEC.read_text())["kernels"]]
    best, note = pick_entry(entries, "_attn_fwd", 90)
    assert best is not None and "none captured on sm_90; this one on sm_80" in note
    assert pick_entry(entries, "no_such_kernel", 90) == (None, None)


def test_pointers_are_aligned_as_triton_specialises_them_integers_only_where_said():
    # Triton's launcher specialises a 16-byte-aligned pointer (every torch allocation) and an integer divisible by
    # 16; offline twill takes the pointers as aligned, the integers as the spec says (the list, T:16, --arg)
    from twill.ir.load import load_kernel
    path = str(Path(__file__).resolve().parents[2] / "tests/corpus/row_absmax.py")
    spec = load_kernel(path, "h100")
    assert set(spec.divisibility) == {"x_ptr", "out_ptr", "N"} and spec.signature["N"] == "i32"
    assert set(load_kernel(path, "h100", args={"N": "i32"}).divisibility) == {"x_ptr", "out_ptr"}
    spec = load_kernel(path, "h100", args={"N": "i32:16"})
    assert "N" in spec.divisibility and spec.signature["N"] == "i32"      # the suffix is twill's, not Triton's


def test_a_run_time_argument_given_a_value_is_specialised_to_it_as_a_launch_does_a_unit_stride():
    # splitk_gemm's strides: a launch specialises an integer equal to 1, and the layouts Triton derives offline run
    # along the dimension whose stride is known to be 1 (left a run-time integer, the kernel ran x0.08, run 28a)
    from twill.ir.load import load_kernel
    path = str(Path(__file__).resolve().parents[2] / "tests/corpus/splitk_gemm.py")
    spec = load_kernel(path, "h100", args={"stride_ak": "i32"})
    assert spec.signature["stride_ak"] == "i32" and "stride_ak" not in spec.constexprs
    spec = load_kernel(path, "h100", args={"stride_ak": "i32"}, consts={"stride_ak": "1"})
    assert spec.signature["stride_ak"] == "constexpr" and spec.constexprs["stride_ak"] == 1


def test_the_type_suffix_is_accepted_on_the_command_line_and_a_bad_type_still_refused():
    import argparse

    from twill.commands.common import arg_pair
    assert arg_pair("N=i32:16") == ("N", "i32:16")
    with pytest.raises(argparse.ArgumentTypeError, match="i32:16"):
        arg_pair("N=int32")
    with pytest.raises(argparse.ArgumentTypeError, match="only an integer or a pointer"):
        arg_pair("scale=fp32:16")
    assert arg_pair("x=*fp16:16") == ("x", "*fp16:16")


def test_a_float_said_divisible_in_a_spec_is_refused_in_one_line():
    from twill.errors import InputError
    from twill.ir.spec import divisible
    with pytest.raises(InputError, match="only an integer or a pointer") as e:
        divisible({"scale": "fp32:16", "N": "i32"}, (), True, where="k.py: kern")
    assert "\n" not in str(e.value) and "scale: fp32:16" in str(e.value)
