"""``twill.ir.layouts``' holders: which threads hold each element of a distributed tensor, and so whether a layout conversion
moves data. Triton lowers a conversion whose threads hold the same elements to register moves; the Gluon route keeps
the kernel's layouts as specialised where the layouts of its integers assumed 16-divisible would make such a
renaming a transpose (SGLang's int4 decode: 255 registers a thread against Triton's 128)."""
from __future__ import annotations

import itertools

from twill.ir.layouts import converted_bytes, holders, moves_data

T = {
    "#a": "#ttg.blocked<{sizePerThread = [1, 1, 32], threadsPerWarp = [8, 4, 1], warpsPerCTA = [1, 1, 1], "
          "order = [2, 1, 0]}>",
    "#b": "#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [8, 4, 1], warpsPerCTA = [1, 1, 1], "
          "order = [2, 1, 0]}>",
    "#c": "#ttg.blocked<{sizePerThread = [1, 4, 1], threadsPerWarp = [32, 1, 1], warpsPerCTA = [1, 1, 1], "
          "order = [2, 1, 0]}>",
    "#r": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#l": "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], "
          "warp = [[2, 0], [4, 0]], block = []}>",
    "#m": "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>",
}


def test_every_element_is_held_by_the_threads_the_blocked_layout_says():
    h = holders("#r", (8, 64), T)
    assert h is not None and len(h) == 8 * 64
    # 4 elements a thread along the row, 16 lanes along it, 2 lanes and then 4 warps down the rows
    assert h[(0, 0)] == h[(0, 3)] == frozenset({(0, 0)})
    assert h[(0, 4)] == frozenset({(1, 0)}) and h[(1, 0)] == frozenset({(16, 0)}) and h[(2, 0)] == frozenset({(0, 1)})
    # every (lane, warp) holds the same number of elements, each element once
    counts: dict = {}
    for held in h.values():
        assert len(held) == 1
        counts[next(iter(held))] = counts.get(next(iter(held)), 0) + 1
    assert set(counts.values()) == {8 * 64 // 128} and len(counts) == 128


def test_a_tile_smaller_than_the_layout_is_held_by_every_thread_its_broadcast_reaches():
    h = holders("#r", (2, 64), T)            # 8 rows of threads over 2 rows: warps 0-3 each hold both rows
    assert h[(0, 0)] == frozenset({(0, w) for w in range(4)})


def test_a_linear_layout_and_the_blocked_one_it_spells_hold_the_same_elements():
    assert holders("#l", (8, 64), T) == holders("#r", (8, 64), T)
    assert not moves_data("tensor<8x64xf16, #r>", "tensor<8x64xf16, #l>", T)


def test_a_slice_is_held_by_the_threads_holding_its_parents_elements_along_the_sliced_dim():
    sl = "#ttg.slice<{dim = 1, parent = #r}>"
    h = holders(sl, (8,), T)
    assert h[(0,)] == frozenset({(lane, 0) for lane in range(16)})     # the row's 16 lanes
    assert not moves_data(f"tensor<8xf32, {sl}>", f"tensor<8xf32, {sl}>", T)


def test_a_conversion_moves_data_unless_each_element_stays_with_its_threads():
    assert not moves_data("tensor<64x4x32xf16, #a>", "tensor<64x4x32xf16, #b>", T)    # registers renamed
    assert moves_data("tensor<64x4x32xf16, #a>", "tensor<64x4x32xf16, #c>", T)        # a transpose across lanes
    assert moves_data("tensor<64x64xf32, #r>", "tensor<64x64xf32, #m>", T)            # not read: taken to move


def test_converted_bytes_counts_the_conversions_that_move_data_not_to_a_dot_operand():
    text = "\n".join(f"{k} = {v}" for k, v in T.items())
    lines = ["%x = ttg.convert_layout %v : tensor<64x4x32xf16, #a> -> tensor<64x4x32xf16, #b> loc(#loc1)",
             "%y = ttg.convert_layout %v : tensor<64x4x32xf16, #a> -> tensor<64x4x32xf16, #c> loc(#loc2)",
             "%z = ttg.convert_layout %w : tensor<8xf32, #ttg.slice<{dim = 1, parent = #r}>> -> "
             "tensor<8xf32, #ttg.slice<{dim = 0, parent = #r}>>"]
    assert converted_bytes(lines, text) == 64 * 4 * 32 * 2 + 8 * 4


def test_holders_enumerate_whole_tiles_only_up_to_the_limit():
    assert holders("#r", (1 << 10, 1 << 10), T) is None
    assert all(isinstance(c, tuple) for c in itertools.islice(holders("#c", (64, 4, 32), T), 3))
