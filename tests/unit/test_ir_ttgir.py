"""Reading TTGIR text: ops, results, operands, types, attributes, loops and resolved locations."""
from __future__ import annotations

import pytest

from twill.errors import InputError
from twill.ir.ttgir import FMA_SHARED, hoist_invariant_allocs, parse, sink_fma_operands, type_info

TEXT = '''#loc = loc("/src/k.py":10:0)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @k(%arg0: !tt.ptr<f32> loc("/src/k.py":10:0), %n: i32 loc("/src/k.py":10:0)) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32 loc(#loc)
    %c1 = arith.constant 1 : i32 loc(#loc)
    %cst = arith.constant dense<0.0> : tensor<128xf32> loc(#loc)
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %cst, %t = %cst) -> (tensor<128xf32>, tensor<128xf32>)  : i32 {
      %x = math.exp2 %s : tensor<128xf32> loc(#loc3)
      %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32 loc(#loc), %b: f32 loc(#loc)):
        %mx = arith.maxnumf %a, %b : f32 loc(#loc)
        tt.reduce.return %mx : f32 loc(#loc)
      }) : (tensor<128xf32>) -> f32 loc(#loc4)
      %y = arith.addf %x, %t : tensor<128xf32> loc(#loc4)
      scf.yield %y, %x : tensor<128xf32>, tensor<128xf32> loc(#loc)
    } {tt.num_stages = 2 : i32} loc(#loc2)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/src/k.py":12:8)
#loc2 = loc("/src/k.py":11:4)
#loc3 = loc("x"(#loc1))
#loc4 = loc(callsite(#loc1 at #loc2))
'''


def test_parse_loop_ops_operands_types_and_locations():
    m = parse(TEXT)
    assert m.num_warps == 4 and m.target == "cuda:90"
    (loop,) = m.loops()
    assert loop.body.args == ("%i", "%s", "%t") and loop.body.inits == ("%cst", "%cst")
    assert loop.results == ("%r#0", "%r#1") and loop.attrs == {"tt.num_stages": "2 : i32"}
    assert loop.loc.line == 11
    names = [o.name for o in loop.body.ops]
    assert names == ["math.exp2", "tt.reduce", "arith.addf", "scf.yield"]
    exp2, red, add, yld = loop.body.ops
    assert exp2.operands == ("%s",) and exp2.loc.file == "/src/k.py" and exp2.loc.line == 12 and exp2.loc.name == "x"
    assert red.operands == ("%x",) and red.attrs["axis"] == "0 : i32" and red.result_types == ("f32",)
    assert red.loc.line == 11     # a callsite location resolves to the caller's line
    assert add.operands == ("%x", "%t") and type_info(add.result_types[0]).shape == (128,)
    assert yld.operands == ("%y", "%x")


def test_type_info_spaces_and_bytes():
    assert type_info("tensor<128x64xf16, #blocked>").bytes == 128 * 64 * 2
    assert type_info("!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>").space == "tmem"
    assert type_info("!ttg.memdesc<64x64xbf16, #shared, #smem>").space == "smem"
    assert type_info("!ttg.async.token").space == "token"


def test_not_a_module_is_an_input_error():
    with pytest.raises(InputError, match="not a TTGIR module"):
        parse("hello", where="x.ttgir")


NESTED = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32, %c: i1) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.0> : tensor<128xf32>
    %v = scf.if %c -> (tensor<128xf32>) {
      scf.yield %cst : tensor<128xf32>
    } else {
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %cst) -> (tensor<128xf32>)  : i32 {
        %x = arith.addf %s, %cst : tensor<128xf32>
        scf.yield %x : tensor<128xf32>
      }
      scf.yield %r : tensor<128xf32>
    }
    %w = scf.while (%a = %c0) : (i32) -> i32 {
      %go = arith.cmpi slt, %a, %n : i32
      scf.condition(%go) %a : i32
    } do {
    ^bb0(%b: i32):
      scf.for %j = %c0 to %n step %c1  : i32 {
        %y = tt.call @helper(%p) : (!tt.ptr<f32>) -> f32
      }
      %b1 = arith.addi %b, %c1 : i32
      scf.yield %b1 : i32
    }
    tt.return
  }
  tt.func private @helper(%q: !tt.ptr<f32>) -> f32 attributes {noinline = true} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %k = %c0 to %c1 step %c1  : i32 {
      %z = tt.load %q : !tt.ptr<f32>
    }
    %f = tt.load %q : !tt.ptr<f32>
    tt.return %f : f32
  }
}
'''


def test_loops_inside_if_while_and_helpers_are_found_in_text_order():
    from twill.ir.ttgir import loops

    m = parse(NESTED)
    assert [f.name for f in m.funcs] == ["k", "helper"] and m.funcs[0].args == ("%p", "%n", "%c")
    found = m.loops()
    assert [op.lineno for op in found] == [o.first + 1 for o in loops(NESTED.splitlines())]
    assert [[p.name for p in m.site(op).parents] for op in found] == [["scf.if"], ["scf.while"], []]
    assert [m.site(op).func for op in found] == ["k", "k", "helper"] and m.site(found[1]).depth == 1
    # an scf.if's results take the types of its header, its operands include what its regions read
    iff = next(op for op in m.ops if op.name == "scf.if")
    assert iff.result_types == ("tensor<128xf32>",) and set(iff.operands) >= {"%c", "%cst", "%c0", "%n", "%c1"}
    assert [len(r.ops) for r in iff.regions] == [1, 2]
    wh = next(op for op in m.ops if op.name == "scf.while")
    assert wh.regions[0].args == ("%a",) and wh.regions[0].inits == ("%c0",) and wh.regions[1].args == ("%b",)


def test_an_op_reading_one_value_twice_keeps_both_operands_and_a_loop_lists_only_what_it_reads_from_outside():
    # `x * x` is `arith.mulf %x, %x`: the back ends read operands by position (the second was lost, and the
    # Gluon back end raised an IndexError on `acc += x * x`); a loop's operands are the values its body reads
    # from outside it, not the ones its body defines
    text = TEXT.replace("%y = arith.addf %x, %t", "%y = arith.mulf %x, %x")
    m = parse(text)
    (loop,) = m.loops()
    mul = next(o for o in loop.body.ops if o.name == "arith.mulf")
    assert mul.operands == ("%x", "%x")
    assert set(loop.operands) == {"%c0", "%n", "%c1", "%cst"}
    red = next(o for o in loop.body.ops if o.name == "tt.reduce")
    assert red.operands == ("%x",)              # a region op: each value it reads from outside, once


NESTED_IF = """module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32, %c: i1, %d: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %f = arith.constant 1.0 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %f) -> (f32)  : i32 {
      %v = scf.if %c -> (f32) {
        scf.yield %s : f32
      } else {
        %w:2 = scf.if %d -> (f32, f32) {
          scf.yield %f, %s : f32, f32
        } else {
          scf.yield %s, %f : f32, f32
        }
        %x = arith.addf %w#0, %w#1 : f32
        scf.yield %x : f32
      }
      scf.yield %v : f32
    }
    tt.return
  }
}
"""


def test_a_multi_result_op_read_by_result_inside_a_region_is_not_read_from_outside_it():
    # FLA's retention kernel: an if inside the loop's if yields two values read as %w#0 and %w#1 in the outer if's
    # region; they are defined there, not operands of the outer if or the loop (the Gluon back end looked them up
    # before the loop: "no value for an operand (found %d_h_176#0)")
    m = parse(NESTED_IF)
    (loop,) = m.loops()
    outer = next(o for o in loop.body.ops if o.name == "scf.if")
    assert set(outer.operands) == {"%c", "%s", "%d", "%f"}, outer.operands
    assert set(loop.operands) == {"%c0", "%n", "%c1", "%f", "%c", "%d"}, loop.operands


HOIST = '''module {
  tt.func public @k(%p: tensor<64x64x!tt.ptr<f16>>, %n: i32, %c0: i32, %c1: i32) {
    %z = arith.constant dense<0.0> : tensor<64x64xf32> loc(#loc)
    scf.for %t = %c0 to %n step %c1  : i32 {
      %k = tt.load %p : tensor<64x64x!tt.ptr<f16>> loc(#loc)
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>)  : i32 {
        %q = tt.load %p : tensor<64x64x!tt.ptr<f16>> loc(#loc)
        %qs = ttg.local_alloc %q : (tensor<64x64xf16>) -> !ttg.memdesc<64x64xf16> loc(#loc)
        %s = ttg.local_alloc %k : (tensor<64x64xf16>) -> !ttg.memdesc<64x64xf16> loc(#loc)
        %st = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16> -> !ttg.memdesc<64x64xf16> loc(#loc)
        %d = ttng.warp_group_dot %qs, %st, %acc : !ttg.memdesc<64x64xf16> * !ttg.memdesc<64x64xf16> -> tensor<64x64xf32> loc(#loc)
        scf.yield %d : tensor<64x64xf32> loc(#loc)
      } loc(#loc)
    } loc(#loc)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
'''


def test_a_loops_alloc_of_a_tile_from_outside_it_and_its_transpose_move_before_that_loop_only():
    # FlagAttention's dK / dV kernel: its K (loaded before the loop, a dot's B operand) was stored into shared memory
    # every iteration; the alloc of a tile the loop loads (%q) stays, and %k's moves out of the inner loop only (it is
    # loaded in the tile loop)
    text, moved = hoist_invariant_allocs(HOIST)
    assert moved == ["%s", "%st"]
    m = parse(text)
    inner = m.loops()[1]
    assert [o.name for o in inner.body.ops] == ["tt.load", "ttg.local_alloc", "ttng.warp_group_dot", "scf.yield"]
    assert "%st" in inner.operands and "%k" not in inner.operands
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if "%s = ttg.local_alloc" in ln)
    assert "%k = tt.load" in lines[at - 1] and lines[at].startswith("      %s") and "%st = " in lines[at + 1]
    assert hoist_invariant_allocs(text) == (text, [])


_FMA = "tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>"


def _fma_module(extra_use: str = "", parent: str = "#blocked2") -> str:
    dst = _FMA.replace("#blocked2", parent)
    return "\n".join([
        "#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>",
        f"%a = ttg.convert_layout %m : tensor<64x64xf32, #blocked1> -> {dst} loc(#loc1)",
        "%r = scf.for %i = %x to %y step %z iter_args(%acc = %c) -> (tensor<64x64xf32, #blocked2>) : i32 {",
        "  %b = tt.load %p : tensor<64x64xf32, #blocked1>",
        "  %d = tt.dot %a, %b, %acc : t",
        "  scf.yield %d : tensor<64x64xf32, #blocked2>",
        "}", extra_use])


def test_an_fma_operand_made_before_its_loop_is_stored_there_and_loaded_before_its_reader():
    """FLA's cumsum: a [64, 64] triangular matrix converted for an FMA dot before the loop took 512 registers a thread
    through it (ptxas then allocated 32 and spilled 18 KB); Triton's passes store it and load it in the loop."""
    text, sunk = sink_fma_operands(_fma_module())
    lines = text.splitlines()
    assert sunk == ["%a"]
    assert any(ln.startswith(f"{FMA_SHARED} = #ttg.swizzled_shared<") for ln in lines) and "#smem = #ttg.shared_memory" in lines
    alloc = next(i for i, ln in enumerate(lines) if "%a_fma = ttg.local_alloc %m : (tensor<64x64xf32, #blocked1>) -> "
                 f"!ttg.memdesc<64x64xf32, {FMA_SHARED}, #smem> loc(#loc1)" in ln)
    load = next(i for i, ln in enumerate(lines) if ln == f"  %a = ttg.local_load %a_fma : !ttg.memdesc<64x64xf32, "
                f"{FMA_SHARED}, #smem> -> {_FMA} loc(#loc1)")
    assert alloc < next(i for i, ln in enumerate(lines) if "scf.for" in ln) < load == lines.index("  %d = tt.dot %a, %b, %acc : t") - 1


def test_an_fma_operand_read_after_its_loop_or_an_mma_operand_stays_where_it_is():
    after = _fma_module("%e = tt.dot %a, %b2, %c2 : t")
    assert sink_fma_operands(after) == (after, [])
    mma = _fma_module(parent="#mma")
    assert sink_fma_operands(mma) == (mma, [])


SELECT = '''module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @k(%x: tensor<128x64xf32, #blocked>, %o: tensor<128x64xi32, #blocked>, %n: tensor<128x64xi32, #blocked>) {
    %m = arith.cmpi slt, %o, %n : tensor<128x64xi32, #blocked> loc(#loc)
    %c = arith.cmpf olt, %x, %x : tensor<128x64xf32, #blocked> loc(#loc)
    %s = arith.select %c, %x, %x : tensor<128x64xi1, #blocked>, tensor<128x64xf32, #blocked> loc(#loc)
    %t = arith.select %b, %x, %x : tensor<128x64xf32, #blocked> loc(#loc)
    %u = arith.cmpf olt, %a, %a : f32 loc(#loc)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc("/src/k.py":1:0)
'''


def test_a_compare_is_typed_i1_and_a_select_as_its_values():
    """MLIR prints a compare with its operands' type and a select with a tensor condition as `: condition type,
    value type`: the results are i1 tiles of the operands' shape and layout, and the value type (session 58: a
    select read as its i1 condition counted a quarter of its registers)."""
    cmpi, cmpf, sel, sel_scalar_cond, cmp_scalar = parse(SELECT).ops[:5]
    assert cmpi.result_types == ("tensor<128x64xi1, #blocked>",)
    assert cmpf.result_types == ("tensor<128x64xi1, #blocked>",)
    assert sel.result_types == ("tensor<128x64xf32, #blocked>",)
    assert sel_scalar_cond.result_types == ("tensor<128x64xf32, #blocked>",)
    assert cmp_scalar.result_types == ("i1",)
    assert type_info(sel.result_types[0]).bytes == 4 * type_info(cmpf.result_types[0]).bytes
