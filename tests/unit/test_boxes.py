"""Pointer tiles as TMA boxes (``codegen.gluon.boxes``): the affine analysis on the TTGIR of kernels in the styles public
libraries write (Triton's matmul tutorial with its ``% M`` wrap, split-K, attention with a per-head base), what it
refuses and why, and the generated launcher's descriptors (built where the launch allows, None where it does not)."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.gluon.boxes import ITER, Box, NotABox, Poly, _coords, analyse
from codegen.gluon.values import py_name
from twill.ir import vocab
from twill.ir.function import read_function

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench/results/gluon"


def _box(kernel: str, load: str) -> Box:
    fn = read_function((RESULTS / kernel / "pre_pipeline.ttgir").read_text(), kernel)
    loop, op = next((lp, o) for lp, _ in fn.module.walk() if lp.name == vocab.LOOP
                    for o in lp.body.ops if o.results and o.results[0] == load)
    return analyse(fn, loop, op)


def _coords_py(b: Box) -> list[str]:
    return b.coord_py(lambda a: "k" if a == ITER else py_name(a))


def test_the_matmul_tutorial_tile_wrapped_by_m_is_a_box_where_the_block_divides_m():
    # block_fp8_gemm (vLLM's): offs_am = (pid_m * BM + arange) % M, a mask on K only, A [M, K] row-major
    a = _box("block_fp8_gemm", "%a_71")
    assert (a.base, a.shape, a.strides, a.extents) == ("A", (128, 128), ("stride_am", "1"), (None, "K"))
    assert a.checks == ("(M) % 128 == 0",)
    rows, cols = _coords_py(a)
    assert rows == "((1024 * group_id + 128 * pid_m) % (M))" and cols == "128 * k"
    assert a.name == "twill_box_a_71" and "%group_id" in a.values() and "%M" in a.values()


def test_split_k_offsets_and_the_mask_on_k_give_the_coordinates_and_extent():
    a, b = _box("splitk_gemm", "%a_63"), _box("splitk_gemm", "%b_67")
    assert _coords_py(a) == ["128 * pid_m", "64 * pid_k + 256 * k"] and a.extents == (None, "K") and not a.checks
    assert _coords_py(b) == ["64 * pid_k + 256 * k", "128 * pid_n"] and b.extents == ("K", None)
    assert b.strides == ("stride_bk", "1")


def test_a_per_head_base_joins_the_rows_and_an_argument_offset_stays_on_unmasked_columns():
    # pointer attention: K + bh * N * 64 + (start + arange) * 64 + d: the head's rows follow the rows before them
    k = _box("pointer_attention", "%k_30")
    assert k.strides == ("64", "1") and _coords_py(k) == ["N * bh + 64 * k", "0"] and k.extents == (None, None)
    # split-K guarded: a_ptr + ... + pid_k * k_per_split (an argument): the same address along unmasked columns
    a = _box("splitk_guarded", "%a")
    assert _coords_py(a) == ["128 * pid_m", "k_per_split * pid_k + 64 * k"] and not a.checks


def test_an_argument_offset_beside_masked_columns_joins_the_rows_where_the_launch_has_it_a_row_multiple():
    rest = Poly.atom("%off_h") * Poly.atom("%stride_h") + Poly.atom("%x") * Poly.const(3)
    strides = [Poly.atom("%stride_m"), Poly.const(1)]
    coords, checks, atoms = _coords(rest, strides, 2, {"%stride_h": None, "%stride_m": None}, free=False)
    assert checks == ["(1 * %stride_h) % (%stride_m) == 0"]
    (q, spelled), = atoms.items()
    assert spelled == "((1 * %stride_h) // (%stride_m))"
    assert coords[0] == Poly.atom("%off_h") * Poly.atom(q) and coords[1] == Poly.const(3) * Poly.atom("%x")
    coords, checks, _ = _coords(rest, strides, 2, {"%stride_h": None, "%stride_m": None}, free=True)
    assert not checks and coords[0] == Poly() and coords[1] == rest


@pytest.mark.parametrize("kernel, load, why", [
    ("chunk_state", "%b_k_38", "lower bound other than 0"),              # a mask TMA's zero fill does not follow
    ("grouped_gemm", "%a", "tt.int_to_ptr"),                              # a base loaded from memory
    ("block_fp8_gemm", "%a_s_79", "arith.divsi"),                         # a 1-D scale: per-row, not a box
])
def test_what_is_not_a_box_says_why(kernel: str, load: str, why: str) -> None:
    with pytest.raises(NotABox, match=why):
        _box(kernel, load)


def test_a_tile_contiguous_along_its_first_dimension_is_the_transposed_box():
    # B^T (fp8 weights N x K, the tile [BK, BN]) and K^T (attention's keys loaded [D, BN]): the box in memory's order
    b = _box("block_fp8_gemm", "%b_75")
    assert b.transposed and (b.shape, b.strides, b.extents) == ((128, 128), ("stride_bn", "1"), (None, "K"))
    assert _coords_py(b) == ["((128 * pid_n_8) % (N))", "128 * k"] and b.checks == ("(N) % 128 == 0",)
    k = _box("diagonal_mask_attention", "%k_48")
    assert k.transposed and k.shape == (64, 64) and _coords_py(k) == ["N * bh + 64 * k", "0"]
    assert not _box("block_fp8_gemm", "%a_71").transposed


def test_a_later_loop_starting_from_the_first_loops_pointers_is_not_a_box():
    fn = read_function((RESULTS / "tail_gemm" / "pre_pipeline.ttgir").read_text(), "tail_gemm")
    loops = [op for op, _ in fn.module.walk() if op.name == vocab.LOOP]
    tail = loops[-1]
    load = next(o for o in tail.body.ops if o.name == vocab.POINTER_LOAD)
    with pytest.raises(NotABox, match="scf.for"):
        analyse(fn, tail, load)


def test_poly_arithmetic_and_spelling():
    p = (Poly.atom("%a") + Poly.const(2)) * (Poly.atom("%a") - Poly.const(2))
    assert p == Poly.atom("%a") * Poly.atom("%a") - Poly.const(4)
    assert p.py(py_name) == "-4 + a * a" and Poly().py(str) == "0" and Poly.const(7).value() == 7


torch = pytest.importorskip("torch")


def _launcher(kernel: str):
    from codegen.gluon.generate import load_module
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        return load_module((RESULTS / kernel / "kernel_gluon.py").read_text(), tmp, f"boxes_{kernel}")


def test_the_launcher_builds_the_descriptors_where_the_launch_allows_and_none_where_it_does_not():
    pytest.importorskip("triton")
    mod = _launcher("block_fp8_gemm")
    # on the CPU: only the addresses and strides are read; fp8, the kernel's operands (Triton 3.9's descriptor checks
    # the element width against the layout's)
    a = torch.zeros(512, 256, dtype=torch.float8_e4m3fn)
    bound = {"A": a, "B": torch.zeros(256, 256, dtype=torch.float8_e4m3fn), "M": 512, "N": 256, "K": 256,
             "stride_am": 256, "stride_bn": 256, "stride_cm": 256}
    boxes = mod._boxes(dict(bound))
    d = boxes["twill_box_a_71"]
    assert (list(d.shape), list(d.strides), list(d.block_shape)) == ([2 ** 31 - 1, 256], [256, 1], [128, 128])
    assert mod._boxes(dict(bound, M=500)) is None                   # the % M wrap: M not a multiple of the block
    assert mod._boxes(dict(bound, stride_am=260)) is None          # a row stride not a 16-byte multiple
    assert mod._boxes(dict(bound, A=a.view(-1)[1:1 + 511 * 256].view(511, 256))) is None   # a base not 16-byte aligned
    assert mod._boxes(dict(bound, K=0)) is None                     # an extent not positive
    mod.TMA_BOXES = False
    assert mod._boxes(dict(bound)) is None


PERSISTENT = ROOT / "tests/corpus/persistent_gemm.py"


def _kernel_boxes(path: Path) -> dict[str, Box | str]:
    """Each pointer load of the scheduled loop of the kernel file at ``path``: its box, or why it is none."""
    from codegen.gluon.generate import kernel_function
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, extract
    graph, kir, _ = extract(str(path), load_machine("h100"), OptimizeOptions())
    fn, _, _ = kernel_function(kir.nested or kir.text, graph)
    loop = [o for o, _ in fn.module.walk() if o.name == vocab.LOOP][-1]
    out: dict[str, Box | str] = {}
    for o in loop.body.ops:
        if o.name == "tt.load":
            try:
                out[o.results[0]] = analyse(fn, loop, o)
            except NotABox as e:
                out[o.results[0]] = str(e)
    return out


def test_the_persistent_matmuls_clamped_tiles_are_boxes_whose_rows_past_the_bound_no_store_writes():
    pytest.importorskip("triton")
    # tutorial 09: offs_am = tl.where(offs_am < M, offs_am, 0) reads row 0 past M, where a box reads zeros; its
    # accumulator's rows are stored under offs_cm < M, offs_cm recomputed after the loop from a second tile counter
    a, b = _kernel_boxes(PERSISTENT).values()
    assert isinstance(a, Box) and isinstance(b, Box), (a, b)
    assert (a.extents, a.clamps, b.extents, b.clamps) == (("M", "K"), ("offs_am_28",), ("K", "N"), ("offs_bn_30",))
    assert _coords_py(a)[1] == "64 * k" and _coords_py(b)[0] == "64 * k"
    assert "pid_m" in _coords_py(a)[0] and "pid_n" in _coords_py(b)[1]        # the index unclamped


@pytest.mark.parametrize("edit, refused", [
    # the store writes rows past M: the clamped rows would be seen (zeros in place of row 0's products)
    (("c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)", "c_mask = offs_cn[None, :] < N"),
     {"a": "does not mask the clamped rows"}),
    # the epilogue's tile counter lags by one tile: its mask is another tile's, both clamps refused
    (("        tile_id_c += NUM_SMS\n", ""),
     {"a": "does not mask the clamped rows", "b": "does not mask the clamped columns"}),
])
def test_a_clamp_whose_rows_a_store_could_write_is_not_a_box(tmp_path, edit, refused):
    pytest.importorskip("triton")
    text = PERSISTENT.read_text()
    assert edit[0] in text
    path = tmp_path / "persistent_edited.py"
    path.write_text(text.replace(edit[0], edit[1]))
    got = {k.lstrip("%")[0]: v for k, v in _kernel_boxes(path).items()}
    for name, v in got.items():
        if name in refused:
            assert isinstance(v, str) and refused[name] in v and "read row 0" in v, v
        else:
            assert isinstance(v, Box), v
