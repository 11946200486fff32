"""Descriptors a kernel makes itself (``tl.make_tensor_descriptor``): made by the generated launcher where they are
made at the top of the kernel from its arguments; refused in one line elsewhere (``codegen.gluon.descriptors``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.gluon.descriptors import launch_descriptors
from twill.errors import UnsupportedError
from twill.ir.function import read_function

ROOT = Path(__file__).resolve().parents[2]
TTGIR = (ROOT / "bench/results/gluon/device_descriptor_gemm/pre_pipeline.ttgir").read_text()


def test_a_descriptor_made_at_the_top_of_the_kernel_becomes_an_argument_the_launcher_makes():
    text, made = launch_descriptors(TTGIR, "k")
    assert made == {"a_desc_0": ("a_ptr", ["M", "K"], ["K", "1"]), "b_desc": ("b_ptr", ["N", "K"], ["K", "1"]),
                    "c_desc_1": ("c_ptr", ["M", "N"], ["N", "1"])}
    assert "tt.make_tensor_descriptor" not in "\n".join(ln for ln in text.splitlines() if "//" not in ln)
    assert len(text.splitlines()) == len(TTGIR.splitlines())          # line numbers hold (the graph's ops)
    fn = read_function(text)
    args = {a.name: a.type for a in fn.args}
    assert args["%a_desc_0"] == "!tt.tensordesc<tensor<128x64xf16, #shared>>"
    assert args["%c_desc_1"] == "!tt.tensordesc<tensor<128x128xf16, #shared>>"


@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace("[%a_desc, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>> loc(#loc34)",
                         "[%pid_m_x, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>> loc(#loc34)").replace(
        "    %a_desc = arith.extsi %K", "    %pid_m_x = tt.get_program_id z : i64\n    %a_desc = arith.extsi %K"),
     "whose shape or strides the launcher cannot compute"),
    (lambda t: t.replace("tt.make_tensor_descriptor %a_ptr,", "tt.make_tensor_descriptor %c1_i64,"),
     "made from a pointer other than a kernel argument"),
])
def test_a_descriptor_the_launcher_cannot_make_is_refused_in_one_line(change, words):
    """Made from a value the launcher cannot compute (a program id), or from a pointer not an argument; and made
    inside the loop (below)."""
    with pytest.raises(UnsupportedError) as e:
        launch_descriptors(change(TTGIR), "k")
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_descriptor_made_inside_the_loop_is_refused_in_one_line():
    lines = TTGIR.splitlines()
    made = next(i for i, ln in enumerate(lines) if "%a_desc_0 = tt.make_tensor_descriptor" in ln)
    line = lines.pop(made)
    at = next(i for i, ln in enumerate(lines) if "scf.for" in ln)
    lines.insert(at + 1, line)
    with pytest.raises(UnsupportedError) as e:
        launch_descriptors("\n".join(lines) + "\n", "k")
    assert "made inside a loop or a branch" in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_the_refusal_names_the_innermost_value_the_arithmetic_stops_at():
    """A stride ``K + pid`` (the program id inside the arithmetic): the line names the program id, not the sum
    (session 46's refactor had named the outer value)."""
    t = TTGIR.replace("[%a_desc, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>> loc(#loc34)",
                      "[%nested, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>> loc(#loc34)").replace(
        "    %a_desc = arith.extsi %K",
        "    %pid_m_x = tt.get_program_id z : i64\n    %nested = arith.addi %pid_m_x, %pid_m_x : i64\n"
        "    %a_desc = arith.extsi %K")
    assert "%nested = arith.addi" in t
    with pytest.raises(UnsupportedError) as e:
        launch_descriptors(t, "k")
    msg = str(e.value)
    assert "cannot compute" in msg and "%pid_m_x = tt.get_program_id" in msg and "arith.addi" not in msg, msg
    assert "\n" not in msg and "+ - * // % min max" in msg
