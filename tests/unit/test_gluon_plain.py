"""Code outside the scheduled loops that is not straight-line (``codegen.gluon.plain``): early returns read
from a ``cf.cond_br``, names an ``if`` shares with other regions made distinct, the protocol simulated past a
condition on data. The generated kernels themselves are checked on the corpus (``test_corpus_gluon.py``) and
on the GPU (``bench/results/gluon/runs/run26``)."""
from __future__ import annotations

import pytest

from codegen.gluon.layouts import aliases
from codegen.gluon.plain import distinct_branch_names, early_returns, entry_effects, guarding_ifs, plain
from codegen.gluon.values import Context, Val
from codegen.gluon.protocol import _branches_taken, _either, _FirstTileRuns, ANY
from twill.errors import UnsupportedError
from twill.ir.function import read_function

GUARDED = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32, %flag: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %0 = arith.cmpi sge, %pid, %n : i32
    cf.cond_br %0, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %1 = tt.addptr %p, %pid : !tt.ptr<f32>, i32
    tt.return
  ^bb2:  // pred: ^bb0
    %2 = arith.cmpi sgt, %flag, %c0 : i32
    %a = scf.if %2 -> (i32) {
      %a = arith.addi %pid, %c1 : i32
      scf.yield %a : i32
    } else {
      %a = arith.subi %pid, %c1 : i32
      scf.yield %a : i32
    }
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %a_1 = arith.addi %acc, %a : i32
      scf.yield %a_1 : i32
    }
    tt.return
  }
}
'''


def test_an_early_return_is_read_as_a_guard_and_the_ops_after_it_stay_at_the_top():
    fn = read_function(GUARDED, "k")
    ops, guards = early_returns(fn.ops, GUARDED, "k")
    (g,) = guards
    assert g.cond == "%0" and not g.negate and [o.name for o in g.block.ops] == ["tt.addptr"]
    assert [o.name for o in ops][g.at:] == ["arith.cmpi", "scf.if", "scf.for", "tt.return"]
    swapped = GUARDED.replace("cf.cond_br %0, ^bb1, ^bb2", "cf.cond_br %0, ^bb2, ^bb1")
    (g,) = early_returns(read_function(swapped, "k").ops, swapped, "k")[1]
    assert g.negate                              # the returning block is the branch's second: taken where %0 fails


SHARED_RETURN = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>, %n: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %id = tt.load %p : !tt.ptr<i32>
    %0 = arith.cmpi eq, %id, %c0 : i32
    cf.cond_br %0, ^bb1, ^bb2
  ^bb1:  // 3 preds: ^bb0, ^bb2, ^bb3
    tt.return
  ^bb2:  // pred: ^bb0
    %1 = arith.cmpi sge, %pid, %n : i32
    cf.cond_br %1, ^bb1, ^bb3
  ^bb3:  // pred: ^bb2
    %2 = arith.cmpi slt, %pid, %id : i32
    cf.cond_br %2, ^bb4, ^bb1
  ^bb4:  // pred: ^bb3
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %a = arith.addi %acc, %i : i32
      scf.yield %a : i32
    }
    tt.return
  }
}
'''


def test_early_returns_sharing_one_returning_block_are_each_a_guard():
    """vLLM's LoRA kernels return early three times in a row; Triton branches each back to one returning block:
    each branch is a guard of its own, taken where its condition holds (or fails, the block its second target)."""
    fn = read_function(SHARED_RETURN, "k")
    ops, guards = early_returns(fn.ops, SHARED_RETURN, "k")
    assert [(g.cond, g.negate, g.block.ops) for g in guards] == [("%0", False, []), ("%1", False, []), ("%2", True, [])]
    assert [o.name for o in ops] == ["arith.constant", "arith.constant", "tt.get_program_id", "tt.load", "arith.cmpi",
                                     "arith.cmpi", "arith.cmpi", "scf.for", "tt.return"]
    assert [g.at for g in guards] == [5, 6, 7]


def test_a_kernels_own_v0_is_not_the_name_of_the_unnamed_percent_0():
    from codegen.gluon.values import py_name
    assert py_name("%0") == "v0" and py_name("%v0") != "v0" and py_name("%v1#1") != py_name("%1#1")
    assert py_name("%v0_x") == "v0_x" and py_name("%value") == "value"


def test_a_store_before_an_early_return_is_written_before_it_once():
    # every program runs a store before an early return, those that return too: the kernel writes it before its
    # guards (``entry_effects``), and the first consumer, which writes the stores before the loop, leaves it
    text = GUARDED.replace("    cf.cond_br", "    tt.store %p, %c0 : !tt.ptr<f32>\n    cf.cond_br")
    ops, guards = early_returns(read_function(text, "k").ops, text, "k")
    (g,) = guards
    assert entry_effects(ops, guards) == {i for i, o in enumerate(ops) if o.name == "tt.store"}
    assert all(i < g.at for i in entry_effects(ops, guards))
    assert entry_effects(*early_returns(read_function(GUARDED, "k").ops, GUARDED, "k")) == set()


def test_a_store_inside_an_if_before_an_early_return_is_the_ifs():
    # triton_kernels' top-k router: a memset under `if`, then `if ...: return`: the scf.if holding the store
    text = GUARDED.replace("    cf.cond_br", "    scf.if %flag_b {\n      tt.store %p, %c0 : !tt.ptr<f32>\n    }\n    cf.cond_br")
    text = text.replace("    %0 = arith.cmpi sge", "    %flag_b = arith.cmpi sgt, %flag, %c0 : i32\n    %0 = arith.cmpi sge")
    ops, guards = early_returns(read_function(text, "k").ops, text, "k")
    assert [ops[i].name for i in sorted(entry_effects(ops, guards))] == ["scf.if"]


def test_names_an_if_shares_with_other_regions_are_made_distinct_and_the_rest_kept():
    out = distinct_branch_names(GUARDED)
    then, other = out.split("} else {")
    assert "%a_b" in then.split("scf.if")[1] and "%a_b" in other.split("scf.yield")[0]
    assert out.count("%a = scf.if") == 1                    # the if's own result keeps its name
    assert "%a_1 = arith.addi %acc, %a :" in out             # and the loop after it reads that result
    assert distinct_branch_names(out) == out
    fn = read_function(out, "k")
    assert fn.type_of("%a") == "i32" and any(v.startswith("%a_b") for v in fn.types)


def test_names_an_early_returns_loop_shares_with_the_scheduled_loop_are_made_distinct():
    """Liger's JSD: the ignored row's zeroing loop (in the block that returns) and the scheduled loop after it both
    define ``%5`` and ``%6`` (MLIR numbers sibling regions alike), in layouts of their own; the Python has one
    scope, so the returning block's are renamed (its store had taken the scheduled loop's layout: a compile error)
    and the scheduled loop's, its graph's nodes, are kept."""
    text = GUARDED.replace("""    %1 = tt.addptr %p, %pid : !tt.ptr<f32>, i32
    tt.return""", """    scf.for %j = %c0 to %n step %c1 : i32 {
      %5 = arith.addi %j, %c1 : i32
    }
    tt.return""").replace("""      %a_1 = arith.addi %acc, %a : i32""", """      %5 = arith.muli %acc, %c1 : i32
      %a_1 = arith.addi %5, %a : i32""")
    out = distinct_branch_names(text)
    early, main = out.split("^bb2:")
    assert "%5_b" in early and "%5 = arith.addi" not in early
    assert "%5 = arith.muli %acc" in main and "%a_1 = arith.addi %5, %a" in main and "%5_b" not in main
    assert distinct_branch_names(out) == out


def test_the_protocol_simulation_takes_no_branch_on_data_and_keeps_integer_conditions():
    src = ("def f(x, n):\n    out = []\n    if x:\n        out.append('data')\n    if n > 1:\n        out.append('int')\n"
           "    if x:\n        mbarrier.arrive(x)\n    return out\n")
    ns = {"twill_either": _either}
    tree = _branches_taken(src)
    exec(compile(tree, "<t>", "exec"), ns)
    import ast
    tests = [ast.unparse(n.test) for n in ast.walk(tree) if isinstance(n, ast.If)]
    assert tests == ["twill_either(x)", "twill_either(n > 1)", "x"]   # an if with a barrier op: left as it is
    assert ns["f"](0, 2) == ["int"]
    assert _either(ANY) is False


def test_the_protocol_simulation_takes_no_early_return_whatever_its_condition():
    # FLA's chunk_gla_fwd_A_kernel_intra_sub_inter returns `if i_i <= i_j` (tests/corpus/fla_gla_intra_sub_inter.py):
    # true for program 0, the simulation's, which then started no partition (checked nothing, and the replay's max
    # over no partition raised); an early return is not taken, its branch's plain ops with it
    src = ("def f(pid, n):\n    out = []\n    if pid <= 0:\n        out.append('zeroed')\n        return out\n"
           "    if n > 1:\n        out.append('int')\n    out.append('loop')\n    return out\n")
    ns = {"twill_either": _either}
    exec(compile(_branches_taken(src), "<t>", "exec"), ns)
    assert ns["f"](0, 2) == ["int", "loop"]


def test_the_protocol_simulation_runs_a_persistent_kernels_first_tile_past_its_per_tile_early_return():
    # `--persistent on` takes FLA's `if i_i <= i_j` per tile (kernel.tile_guards): true for the simulation's tiles 0,
    # 1, 2, so no tile ran the loop; the first tile now runs it, the others skip as their condition says
    src = ("def f(out):\n    for twill_tile in range(3):\n        if twill_tile >= 0:\n            out.append('skip')\n"
           "        else:\n            mbarrier.arrive(out)\n")

    class Bar:
        arrive = staticmethod(lambda out: out.append("loop"))
    ns = {"twill_either": _either, "twill_tile_guard": _FirstTileRuns(), "mbarrier": Bar}
    exec(compile(_branches_taken(src), "<t>", "exec"), ns)
    out: list[str] = []
    ns["f"](out)
    assert out == ["loop", "skip", "skip"]


LITERAL = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x: i64, %flag: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %0 = arith.cmpi sgt, %flag, %c0 : i32
    %r = scf.if %0 -> (i64) {
      %c5 = arith.constant 5 : i64
      scf.yield %c5 : i64
    } else {
      scf.yield %x : i64
    }
    tt.return
  }
}
'''


def test_an_if_yielding_a_literal_on_one_side_gets_the_literal_typed_as_the_other_side():
    # `5` alone is an i32 in Gluon, `x` an i64: both sides of the if must agree
    fn = read_function(LITERAL, "k")
    ctx = Context(fn, aliases(LITERAL), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    lines = [ln for op in fn.ops if op.name != "tt.return" for ln in plain(op, ctx)]
    assert lines[-4:] == ["if v0:", "    r = gl.to_tensor(5).to(gl.int64)", "else:", "    r = x"], lines


AROUND = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %0 = arith.cmpi slt, %pid, %n : i32
    scf.if %0 {
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
        %a_1 = arith.addi %acc, %i : i32
        scf.yield %a_1 : i32
      }
      %q = tt.addptr %p, %pid : !tt.ptr<f32>, i32
      tt.store %q, %c0 : !tt.ptr<f32>
    }
    tt.return
  }
}
'''


def _around(text: str) -> tuple[list, list]:
    fn = read_function(text, "k")
    loop = fn.module.loops()[0]
    return guarding_ifs(fn.ops, loop, [], "k")


def test_an_if_around_the_scheduled_loop_becomes_an_early_return_where_its_condition_fails():
    # decode attention's `if split_kv_end > split_kv_start:` around its loop and stores (tests/corpus/decode_attention.py)
    ops, guards = _around(AROUND)
    (g,) = guards
    assert g.cond == "%0" and g.negate and g.block.ops == [] and g.op.name == "scf.if"
    assert [o.name for o in ops][g.at:] == ["scf.for", "tt.addptr", "tt.store", "tt.return"]
    # the loop in the else branch: the guard returns where the condition holds, after the then branch's ops
    other = AROUND.replace("    scf.if %0 {\n", "    scf.if %0 {\n      %z = tt.addptr %p, %c1 : !tt.ptr<f32>, i32\n"
                           "      tt.store %z, %c1 : !tt.ptr<f32>\n    } else {\n")
    ops, (g,) = _around(other)
    assert not g.negate and [o.name for o in g.block.ops] == ["tt.addptr", "tt.store"]
    assert "scf.for" in [o.name for o in ops]


def test_the_code_after_an_if_around_the_loop_runs_in_its_early_return_too():
    """A store after the if, and a result of the if read after it (a split-K slice's accumulator, zeros where it is
    empty): the code after the if is in the early return, reading the other branch's yields, and after the loop,
    reading the loop's branch's (tests/corpus/splitk_guarded.py)."""
    text = AROUND.replace("    tt.return\n  }\n}", "    tt.store %p, %c1 : !tt.ptr<f32>\n    tt.return\n  }\n}")
    ops, (g,) = _around(text)
    assert [o.name for o in g.block.ops] == ["tt.store"] and [o.name for o in ops][g.at:][-2:] == ["tt.store", "tt.return"]
    text = AROUND.replace("    scf.if %0 {\n", "    %r = scf.if %0 -> (i32) {\n").replace(
        "      tt.store %q, %c0 : !tt.ptr<f32>\n    }", "      tt.store %q, %c0 : !tt.ptr<f32>\n      scf.yield %s : i32\n"
        "    } else {\n      scf.yield %c0 : i32\n    }\n    %w = arith.addi %r, %c1 : i32\n"
        "    tt.store %p, %w : !tt.ptr<f32>")
    ops, (g,) = _around(text)
    add = next(o for o in g.block.ops if o.name == "arith.addi")
    assert add.operands == ("%c0", "%c1") and "%r" not in add.full_text, add.full_text     # the else branch's zero
    add = next(o for o in ops if o.name == "arith.addi" and "%w" in o.results)
    assert add.operands == ("%s", "%c1") and "arith.addi %s, %c1" in add.text, add.text    # the loop's sum


def test_memory_written_before_an_if_around_the_loop_is_refused_in_one_line():
    text = AROUND.replace("    %0 = arith.cmpi", "    tt.store %p, %c1 : !tt.ptr<f32>\n    %0 = arith.cmpi")
    with pytest.raises(UnsupportedError) as e:
        _around(text)
    assert "tt.store before it" in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_names_the_scheduled_loop_inside_an_if_shares_with_another_branch_are_kept_in_that_loop():
    """FlexAttention's backward: its scheduled dK / dV loop inside an ``if``, the dQ branch's loop before it defining
    the same names. The scheduled loop's names are its graph's nodes: the other branch's are renamed, not its (renamed,
    its ops matched no node and one was written before its operand)."""
    text = """module {
  tt.func public @k(%n: i32, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.if %flag {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = arith.addi %i, %c1 : i32
      }
    } else {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %s = arith.muli %j, %c1 : i32
      }
    }
    tt.return
  }
}
"""
    lines = text.splitlines()
    second = next(k for k, ln in enumerate(lines) if "scf.for %j" in ln)
    assert "%s_b" in distinct_branch_names(text).split("} else {")[1]          # by default the first is kept
    out = distinct_branch_names(text, (second, second + 2))
    first_branch, other = out.split("} else {")
    assert "%s = arith.muli %j" in other and "%s_b" in first_branch
    assert distinct_branch_names(out, (second, second + 2)) == out
