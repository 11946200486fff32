"""Newer Triton (3.9) spellings, checked under CI's pinned 3.6.0: a 3.9-printed TTGIR reads as 3.6's, and a kernel
written with 3.9's Gluon names simulates as it does with 3.6's (`.ci/triton-next` runs the offline path under 3.9
itself: `bench/results/triton-next/3.9.0.txt`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.gluon.api import RENAMED, installed_spelling
from codegen.gluon.protocol import check_kernel
from twill.ir.function import read_function
from twill.ir.ttgir import canonical_types

ROOT = Path(__file__).resolve().parents[2]
NEW = tuple((old, new) for old, (_, new) in RENAMED.items())


@pytest.mark.parametrize("label", ["gemm", "inductor_persistent_tma_mm"])
def test_a_descriptor_type_as_3_9_prints_it_reads_as_3_6_prints_it(label):
    # Triton 3.9: `!tt.tensordesc<128x128xf16, #shared>` (an argument's; Inductor's persistent GEMM makes its own,
    # `tt.make_tensor_descriptor ... : <f16>, <128x64xf16, #shared>`); 3.6: `tensor<...>` inside both
    text = (ROOT / "bench/results/gluon" / label / "pre_pipeline.ttgir").read_text()
    old = read_function(text)
    printed_39 = text.replace("!tt.tensordesc<tensor<", "!tt.tensordesc<").replace(", <tensor<", ", <")
    printed_39 = printed_39.replace(", #shared>>", ", #shared>")
    assert printed_39 != text and canonical_types(printed_39) == text
    new = read_function(printed_39)
    assert [(a.name, a.type) for a in new.args] == [(a.name, a.type) for a in old.args]
    assert new.types == old.types and "tensordesc" in text


@pytest.mark.parametrize("label, stages, least", [("fa3", 2, None), ("tut06_attn_bwd", 4, 0), ("flagattn_bwd_kv", 2, 0)])
def test_a_kernel_in_3_9s_gluon_names_simulates_as_in_3_6s(label, stages, least):
    # fa3: TMA loads and stores; tutorial 06's backward: its own cp.async copies read after wait_group and a
    # barrier; FlagAttention's dK / dV: a producer's cp.async copies
    d = ROOT / "bench/results/gluon" / label
    source = (d / "kernel_gluon.py").read_text()
    signature = json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]["signature"]
    renamed = installed_spelling(source, NEW)
    used = [old for old, _ in NEW if old in source]
    assert used and not any(old in renamed for old in used)
    assert check_kernel(renamed, signature, stages, least) == check_kernel(source, signature, stages, least) == ([], "")
    if label == "tut06_attn_bwd":     # the barrier still counts: without it the copies are read unsynchronised
        broken = renamed.replace("gl.barrier()", "pass")
        assert check_kernel(broken, signature, stages, least)[0]
