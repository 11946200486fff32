"""The Triton hooks: pass plans run inside the installed make_ttgir (callbacks, skips, compositions), compile errors."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from kernels_for_tests import COMPILE_ERROR_IN_HELPER_LINE, COMPILE_ERROR_LINE, kernel_file, pre_ttgir  # noqa: E402
from twill.errors import CompileError, InputError  # noqa: E402
from twill.ir.frontend import pre_pipeline_ttgir  # noqa: E402
from twill.ir.load import load_kernel, source_of  # noqa: E402
from twill.ir.target import Target  # noqa: E402
from twill.ir.triton_hooks import (PRE_PIPELINE_PASS, PassPlan, StopCompile, compile_planned, module_text,  # noqa: E402
                                   ttgir_passes)

GEMM = str(Path(__file__).resolve().parents[2] / "kernels" / "gemm.py")


def test_callbacks_run_before_named_passes_in_the_installed_order():
    spec = load_kernel(GEMM, "h100")
    seen: list[str] = []
    log: list[str] = []

    def at(name):
        def cb(mod):
            seen.append(name)
            if name == "add_pipeline":
                assert "loop.stage" in module_text(mod)   # the scheduling passes ran before it
                raise StopCompile()
        return cb

    with pytest.raises(StopCompile):
        compile_planned(source_of(spec), 90, spec.options,
                        PassPlan(before=(("add_assign_latencies", at("add_assign_latencies")),
                                         ("add_pipeline", at("add_pipeline")))), log=log)
    assert seen == ["add_assign_latencies", "add_pipeline"]
    cb = next(i for i, e in enumerate(log) if e.startswith("-- callback before") and e.endswith("add_assign_latencies"))
    after = [e.rsplit(".", 1)[-1] for e in log[cb + 1:]]
    assert after[0] == "add_assign_latencies" and "add_schedule_loops" in after
    assert "add_coalesce" in [e.rsplit(".", 1)[-1] for e in log[:cb]]


def test_full_compile_with_a_noop_callback_gives_ptx():
    spec = load_kernel(kernel_file("NO_DOT"), "h100")
    calls = []
    kernel = compile_planned(source_of(spec), 90, spec.options, PassPlan(before=(("add_assign_latencies", calls.append),)))
    assert len(calls) == 1 and ".target sm_90" in kernel.asm["ptx"]


def test_unknown_pass_name_is_an_input_error():
    spec = load_kernel(kernel_file("NO_DOT"), "h100")
    with pytest.raises(InputError, match="add_no_such_pass"):
        compile_planned(source_of(spec), 90, spec.options, PassPlan(before=(("add_no_such_pass", lambda m: None),)))


@pytest.mark.parametrize("arch, mma", [("h100", "ttng.warp_group_dot"), ("b200", "ttng.tc_gen5_mma")])
def test_pre_pipeline_ttgir_is_unscheduled_with_locations(arch, mma):
    text = pre_ttgir(kernel_file("ACC_LOOP"), arch)
    assert mma in text and "loop.stage" not in text and "tt.latency" not in text
    assert 'loc("' in text and "acc_loop.py" in text


def test_compile_error_names_kernel_and_source_line():
    spec = load_kernel(kernel_file("COMPILE_ERROR"), "h100")
    with pytest.raises(CompileError) as e:
        pre_pipeline_ttgir(spec, Target("h100", 90))
    msg = str(e.value)
    assert msg.startswith("broken (") and f"compile_error.py:{COMPILE_ERROR_LINE})" in msg
    assert "no_such_function" in msg and "\n" not in msg


def test_compile_error_in_a_jit_helper_names_its_cause_and_the_helpers_line():
    """An error inside a helper the kernel calls: the helper's message and line, not the caret under the call."""
    spec = load_kernel(kernel_file("COMPILE_ERROR_IN_HELPER"), "h100")
    with pytest.raises(CompileError) as e:
        pre_pipeline_ttgir(spec, Target("h100", 90))
    msg = str(e.value)
    assert msg.startswith("broken_helper (") and f"compile_error_in_helper.py:{COMPILE_ERROR_IN_HELPER_LINE})" in msg
    assert "element_ty" in msg and "\n" not in msg and not msg.rstrip().endswith("^"), msg


def test_plans_compose_callbacks_at_one_pass_in_order_and_skips():
    """Two plans added: both callbacks before the same pass, in the order the plans were added (a
    schedule's and a profiler's plan meet this way); a skipped pass does not run."""
    spec = load_kernel(kernel_file("NO_DOT"), "h100")
    order: list[str] = []
    log: list[str] = []
    first = PassPlan(before=((PRE_PIPELINE_PASS, lambda m: order.append("first")),))
    second = PassPlan(before=((PRE_PIPELINE_PASS, lambda m: order.append("second")),), skip=("add_pipeline",))
    compile_planned(source_of(spec), 90, spec.options, first + second, log=log)
    assert order == ["first", "second"]
    assert any(e.endswith("add_pipeline (skipped)") for e in log)
    assert not any(e.endswith("add_pipeline") for e in log)


def test_a_callback_may_return_new_module_text():
    """The text a callback returns is parsed into the compilation: an attribute added by text shows in
    the final TTGIR."""
    spec = load_kernel(kernel_file("NO_DOT"), "h100")

    def mark(mod):
        return module_text(mod).replace('"ttg.num-warps" = 4 : i32', '"ttg.num-warps" = 4 : i32, twill.mark = 1 : i32', 1)

    k = compile_planned(source_of(spec), 90, spec.options, PassPlan(before=((PRE_PIPELINE_PASS, mark),)))
    assert "twill.mark = 1" in k.asm["ttgir"]


@pytest.mark.parametrize("sm, present, absent", [(90, "add_hopper_warpspec", "add_warp_specialize"),
                                                 (100, "add_warp_specialize", "add_hopper_warpspec")])
def test_ttgir_passes_lists_the_installed_pass_list(sm, present, absent):
    names = ttgir_passes(sm)
    assert present in names and absent not in names
    assert names.index("add_assign_latencies") < names.index("add_schedule_loops") < names.index("add_pipeline")


CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"


@pytest.mark.parametrize("name", ["flat_persistent_gemm", "inductor_persistent_tma_mm"])
def test_an_accumulator_zeroed_inside_the_loop_becomes_the_dots_use_acc_flag(name):
    """A flat loop over (tile, k) pairs stores the accumulator and zeroes it under ``if ki == k_tiles - 1``: twill
    reads it (as it applies schedules and places records) with the zeroing as the dot's ``use_acc`` flag, carried,
    and the accumulator carried from the dot itself, so a dot may be issued before the last one retires."""
    text = pre_pipeline_ttgir(load_kernel(str(CORPUS / f"{name}.py"), "h100"), Target("h100", 90))
    dot = next(ln for ln in text.splitlines() if "ttng.warp_group_dot" in ln)
    operands = dot.split("ttng.warp_group_dot", 1)[1].split(":", 1)[0].split("{", 1)[0]
    assert operands.count("%") == 4, dot                            # a, b, the accumulator and its flag
    loop = text.split("scf.for", 1)[1]
    assert "dense<0.000000e+00> : tensor<128x128xf32" not in loop.split("scf.yield")[-2], loop   # no zeros yielded


def test_an_accumulator_zeroed_only_before_the_loop_keeps_its_form():
    text = pre_pipeline_ttgir(load_kernel(GEMM, "h100"), Target("h100", 90))
    dot = next(ln for ln in text.splitlines() if "ttng.warp_group_dot" in ln)
    assert dot.split("ttng.warp_group_dot", 1)[1].split(":", 1)[0].split("{", 1)[0].count("%") == 3, dot
