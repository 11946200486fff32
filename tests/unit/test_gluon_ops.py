"""Single ops as the Gluon back end writes them, from TTGIR text: what ``tl.dot_scaled``'s decomposition on Hopper
brought (tests/corpus/mx_gemm.py): a bf16 constant written as its bits, and a transpose of a linear layout whose
result Triton prints as an equivalent slice layout that Gluon's permute does not infer."""
from __future__ import annotations

import pytest

from codegen.gluon.layouts import aliases
from codegen.gluon.generate import _innermost, _ptxas_error
from codegen.gluon.ops import memory_hints, translate
from codegen.gluon.protocol import ANY, Recorder
from codegen.gluon.values import Context, Val, float_literal
from twill.ir.function import read_function

TRANS = '''#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#linear1 = #ttg.linear<{register = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 1], [0, 2]], lane = [[16, 0], [32, 0], [64, 0], [0, 0], [0, 0]], warp = [[0, 0], [0, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x: tensor<128x4xi8, #linear1>, %y: tensor<64x32xf16, #blocked>) attributes {noinline = false} {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<128x4xi8, #linear1> -> tensor<4x128xi8, #ttg.slice<{dim = 2, parent = #blocked2}>>
    %u = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    tt.return
  }
}
'''


def test_a_bf16_constant_written_as_its_bits_reads_as_its_value():
    # dot_scaled's decomposition: NaN where a scale is 0xFF, `dense<0x7FC0> : tensor<..xbf16>`
    assert float_literal("0x7FC0", "bf16") == 'float("nan")'
    assert float_literal("0x3F80", "bf16") == "1.0" and float_literal("0xC000", "bf16") == "-2.0"
    assert float_literal("0x3C00", "f16") == "1.0"


def test_a_transpose_is_converted_to_the_layout_triton_printed_where_gluon_infers_another():
    fn = read_function(TRANS, "k")
    ctx = Context(fn, aliases(TRANS), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    linear, blocked = (translate(op, ctx) for op in fn.ops if op.name == "tt.trans")
    # of a linear layout: permuted, then converted to the slice layout the TTGIR names (Gluon's expand_dims of the
    # result needs a SliceLayout; without the conversion the kernel did not compile)
    assert linear[0].startswith("t = gl.convert_layout(gl.permute(x, (1, 0)), L") and len(linear) == 1
    assert "SliceLayout(2," in next(k for k in ctx.layouts if ctx.layouts[k] in linear[0])
    # of a blocked layout: the permuted blocked layout is the one Triton printed, nothing converted
    assert blocked == ["u = gl.permute(y, (1, 0))"]


HINTS = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: tensor<1024x!tt.ptr<f32>, #blocked>, %q: !tt.ptr<i32>) attributes {noinline = false} {
    %a = tt.load %p cacheModifier = cg evictionPolicy = evict_first : tensor<1024x!tt.ptr<f32>, #blocked>
    %b = tt.load %p evictionPolicy = evict_last : tensor<1024x!tt.ptr<f32>, #blocked>
    %c = tt.load %q {isVolatile = true} : !tt.ptr<i32>
    tt.store %p, %a cacheModifier = cs : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
'''


def test_a_loads_cache_modifier_eviction_policy_and_volatility_are_written_as_the_kernel_gave_them():
    # Inductor's loads name an eviction policy, split-K semaphores are volatile: both were dropped before
    fn = read_function("#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
                       "order = [0]}>\n" + HINTS, "k")
    cg, last, volatile, store = fn.ops[:4]
    # ptxas refuses ".cg" with ".L1::evict_first" on ld.global ("cannot be combined"): the cache level kept
    assert memory_hints(cg) == ", cache_modifier='.cg'"
    assert memory_hints(cg, copy=True) == ", cache_modifier='.cg'"
    assert memory_hints(last) == ", eviction_policy='evict_last'" == memory_hints(last, copy=True)
    assert memory_hints(volatile) == ", volatile=True" and memory_hints(volatile, copy=True) == ""
    assert memory_hints(store) == ", cache_modifier='.cs'"


def test_a_ptxas_failure_is_reported_by_its_own_line_not_tritons_repro_command():
    text = ("PTXAS error: Internal Triton PTX codegen error\n`ptxas` stderr:\nptxas /tmp/tmp8xq834sh.ptx, line 70; "
            "error   : Modifier '.evict_last' cannot be combined with modifier '.ca'\n\nRepro command: ptxas -v x.ptx")
    assert _ptxas_error(text) == "ptxas: line 70; error : Modifier '.evict_last' cannot be combined with modifier '.ca'"
    assert _ptxas_error("Repro command: ptxas -v x.ptx") is None


def test_a_ptxas_that_dies_of_a_signal_is_named_as_a_crash_not_by_tritons_repro_command():
    # session 55's sweep L: ptxas 12.x segfaults (exit -11, nothing on stderr) on some schedules of a tl.gather
    # NF4 lookup in a dot loop; the message had been only Triton's "Repro command: ..." line
    text = ("`ptxas` failed with error code -11\n`ptxas` stderr:\n\nRepro command: ptxas -lineinfo -v "
            "--gpu-name=sm_90a /tmp/x.ptx -o /tmp/x.ptx.o\n")
    assert _ptxas_error(text) == "ptxas crashed (SIGSEGV, no error message): a ptxas defect on this kernel's PTX"
    assert "signal 99" in (_ptxas_error("`ptxas` failed with error code -99") or "")
    assert _ptxas_error("`ptxas` failed with error code 255\n") is None


def test_a_fatal_ptxas_line_is_the_message_not_the_aborted_line_after_it():
    # session 90: a committed schedule regenerated at two CTAs an SM (launch limit 80 registers) failed in ptxas;
    # the message had been only Triton's "Repro command: ..." line
    text = ("PTXAS error: Internal Triton PTX codegen error\n`ptxas` stderr:\nptxas fatal   : (C7602) Insufficient "
            "registers (80) to compile instruction at line 800 in function twill_kernel. Try to compile with register "
            "target of 90 or higher.\nptxas fatal   : Ptx assembly aborted due to errors\n\nRepro command: ptxas -v x")
    said = _ptxas_error(text)
    assert said is not None and said.startswith("ptxas: (C7602) Insufficient registers (80) to compile instruction")
    assert _ptxas_error("ptxas fatal   : Ptx assembly aborted due to errors\n") is None


def test_the_protocol_simulation_keeps_an_int32_count_and_reads_other_casts_as_values():
    # an i64 loop's trip count, gl.cast(.., gl.int32), stays the integer it was; a cast to another type (a program id
    # widened to int64, bias_attention) is a value, not a condition (comparing the dtype had raised Unsimulated)
    gl = Recorder().namespace()["gl"]
    assert gl.cast(7, gl.int32) == 7
    assert gl.cast(7, gl.int64) is ANY and gl.cast(7, gl.int32, bitcast=True) == 7


IDENTITY = '''#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%c: tensor<64x64xi1, #blocked>) attributes {noinline = false} {
    %one = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %i = arith.select %c, %one, %zero : tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>
    tt.return
  }
}
'''


def test_a_select_between_two_constants_keeps_the_kernels_type():
    # FlagAttention's "Dot I": tl.where(rows == cols, 1.0 fp16, 0.0 fp16), an identity tile for a wgmma. Written
    # gl.where(c, 1.0, 0.0), it was fp32 (Python floats), and its fp16 shared buffer did not compile
    fn = read_function(IDENTITY, "k")
    ctx = Context(fn, aliases(IDENTITY), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    lines = [ln for op in fn.ops for ln in translate(op, ctx)]
    assert lines == ["i = gl.where(c, 1.0, 0.0).to(gl.float16)"], lines


def test_a_compile_that_fails_in_mlirs_parse_is_reported_by_mlirs_own_line(tmp_path):
    # Triton raises "error encountered during parsing" where the IR Gluon built does not verify; MLIR printed why
    said = tmp_path / "stderr.txt"
    said.write_text("/tmp/x/kernel_gluon.py:130:156: error: 'ttg.local_alloc' op source element type 'f32' must "
                    "match destination element type 'f16'\n")
    try:
        try:
            raise RuntimeError("error encountered during parsing")
        except RuntimeError as inner:
            raise ValueError("compilation failed") from inner
    except ValueError as e:
        msg = _innermost(e, said)
    assert msg.startswith("130:156: error: 'ttg.local_alloc' op source element type 'f32'"), msg


def test_a_wgmma_layout_that_loses_column_warps_takes_wider_instructions():
    """Triton's FA backward computes dQ with [4, 2] warps of 64-column wgmmas; re-derived for one warp group (a
    twill consumer), the 128 columns take one 128-column instruction a K step, not two of 64 (whose A operand, read
    from shared memory, is read twice). Rows losing warps, or an mma.sync layout, keep their instruction."""
    from codegen.gluon.layouts import Mma

    dq = Mma((3, 0), (4, 2), (16, 64, 16))
    assert dq.rewarp(4, 0) == Mma((3, 0), (4, 1), (16, 128, 16))
    assert Mma((3, 0), (4, 4), (16, 128, 16)).rewarp(4, 0).instr_shape == (16, 256, 16)     # at most 256
    assert Mma((3, 0), (8, 1), (16, 64, 16)).rewarp(4, 0) == Mma((3, 0), (4, 1), (16, 64, 16))
    assert Mma((2, 0), (2, 2), (16, 8)).rewarp(2, 1) == Mma((2, 0), (2, 1), (16, 8))


def test_a_linear_layout_for_fewer_warps_moves_a_warp_basis_to_the_registers():
    """aiter's MoE GEMM (session 90's sweep): a reshape's linear layout at the kernel's 8 warps, its partitions of
    4, had been refused. A warp basis along the split dimension moves to the registers (the same elements, one
    thread holding what two warps held), a broadcast one is dropped; more warps than the layout's are refused."""
    from codegen.gluon.layouts import Linear
    from twill.errors import UnsupportedError

    lin = Linear(register=((0, 1),), lane=((1, 0), (2, 0), (4, 0), (8, 0), (16, 0)), warp=((0, 2), (32, 0), (64, 0)),
                 block=())
    four = lin.rewarp(4, 0)
    assert four.warps == 4 and four.warp == ((0, 2), (32, 0)) and four.register == ((0, 1), (64, 0))
    assert lin.rewarp(4, 1).warp == ((32, 0), (64, 0)) and lin.rewarp(4, 1).register == ((0, 1), (0, 2))
    covered = set(four.register + four.lane + four.warp)
    assert covered == set(lin.register + lin.lane + lin.warp)      # the same tensor, every element once
    bcast = Linear(register=((0, 1),), lane=((1, 0),), warp=((0, 0), (2, 0)), block=())
    assert bcast.rewarp(2, 0) == Linear(register=((0, 1),), lane=((1, 0),), warp=((2, 0),), block=())
    with pytest.raises(UnsupportedError, match="more warps"):
        lin.rewarp(16, 0)


HISTOGRAM = '''#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func public @k(%x: tensor<2048xi32, #blocked>, %m: tensor<2048xi1, #blocked>) attributes {noinline = false} {
    %h = tt.histogram %x, %m : tensor<2048xi32, #blocked> -> tensor<256xi32, #blocked1>
    %g = tt.histogram %x : tensor<2048xi32, #blocked> -> tensor<64xi32, #blocked1>
    tt.return
  }
}
'''


def test_a_histogram_is_written_as_gluons_in_its_results_layout_with_its_mask():
    # tests/corpus/histc_privatized.py: tl.histogram(idx, NUM_BINS, mask=valid) in a grid-stride loop (the back end
    # refused tt.histogram as outside its vocabulary)
    fn = read_function(HISTOGRAM, "k")
    ctx = Context(fn, aliases(HISTOGRAM), 8, 8)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    masked, plain = (translate(op, ctx) for op in fn.ops if op.name == "tt.histogram")
    assert len(masked) == 1 and masked[0].startswith("h = gl.histogram(x, 256, mask=m, layout=L"), masked
    assert len(plain) == 1 and plain[0].startswith("g = gl.histogram(x, 64, layout=L"), plain


NEST_IF = '''module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%n: i32, %p: !tt.ptr<i32>) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %e = %c0 to %n step %c1  : i32 {
      %m = tt.load %p : !tt.ptr<i32>
      %pos = arith.cmpi sgt, %m, %c0 : i32
      scf.if %pos {
        scf.for %k = %c0 to %m step %c1  : i32 {
          tt.store %p, %k : !tt.ptr<i32>
        }
      }
    }
    tt.return
  }
}
'''


def test_a_loop_inside_an_if_of_the_kernels_loop_is_refused_naming_the_if():
    # Unsloth's MoE grouped GEMM: `if m_size > 0:` between the loop over experts and the tiles' loops; the refusal
    # named the outer scf.for (a nest the back end writes) rather than the if it cannot
    from codegen.gluon.generate import _enclosing
    fn = read_function(NEST_IF, "k")
    outer = next(o for o in fn.ops if o.name == "scf.for")
    inner = fn.module.loops()[-1]
    assert inner is not outer and _enclosing(fn.ops, inner).name == "scf.if"
    assert _enclosing(fn.ops, outer) is None


class _Graph(dict):
    name = "k"


def test_an_if_of_the_kernels_loops_is_a_level_of_its_nest():
    # Unsloth's `if m_size > 0:` around its while over an expert's tiles is written in each partition's nest
    # (tests/corpus/unsloth_moe_grouped_gemm.py), and so is an if right around the scheduled loop (torchtitan's
    # persistent MoE GEMM, refused before: tests/unit/test_gluon.py's GUARDED_TILE); an else branch that computes
    # anything is refused in one line (the nest's code is written in the then branch)
    import pytest
    from codegen.gluon.generate import _tile_loop
    from codegen.gluon.kernel import tile_level
    from twill.errors import UnsupportedError
    fn = read_function(NEST_IF, "k")
    inner = fn.module.loops()[-1]
    flat, nest = _tile_loop(fn, _Graph(loop_index=fn.module.loops().index(inner)))
    assert nest is not None and [lv.op.name for lv in nest.levels] == ["scf.for", "scf.if"]
    assert inner in flat.ops and nest.levels[-1].test == "%pos"
    branch = next(o for o in fn.ops[-2].nested() if o.name == "scf.if")
    lv = tile_level(fn, branch)
    assert lv.test == "%pos" and lv.branches == () and lv.needs() == {"%pos"}
    two = read_function(NEST_IF.replace("      }\n    }\n    tt.return",
                                        "      } else {\n        %z = arith.addi %m, %c1 : i32\n      }\n    }\n"
                                        "    tt.return"), "k")
    with pytest.raises(UnsupportedError, match="found arith.addi"):
        tile_level(two, next(o for o in two.ops[-2].nested() if o.name == "scf.if"))


FLATTEN = '''#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x: tensor<64x64xf32, #blocked1>, %y: tensor<4096xf32, #blocked4>) attributes {noinline = false} {
    %f = tt.reshape %x allow_reorder : tensor<64x64xf32, #blocked1> -> tensor<4096xf32, #blocked4>
    %g = tt.reshape %y allow_reorder : tensor<4096xf32, #blocked4> -> tensor<4096xf32, #blocked4>
    tt.return
  }
}
'''


def test_a_flattening_allowed_to_reorder_is_written_as_one_that_keeps_the_order():
    # `tl.sum(x)` of a 2-D tile (Mamba-2's dD = tl.sum(dout_res * x)) flattens it with allow_reorder first: Gluon's
    # reshape has no can_reorder, and keeping the order is one of the orders allowed (was refused in one line)
    fn = read_function(FLATTEN, "k")
    ctx = Context(fn, aliases(FLATTEN), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    flat, same = (translate(op, ctx) for op in fn.ops if op.name == "tt.reshape")
    assert len(flat) == 1 and flat[0].startswith("f = gl.convert_layout(gl.reshape(x, [4096]), L")
    assert "can_reorder" not in flat[0]
    assert same == ["g = y"]     # to its own shape: the block as it is laid out, nothing moved


FP4 = '''#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%w: tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) attributes {noinline = false} {
    %u = ttg.fp4_to_fp %w {axis = 1 : i32} : tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
}
'''


def test_an_fp4_upcast_is_written_as_gluons_along_its_axis_in_its_results_layout():
    # session 55's sweep J, tests/corpus/triton_kernels_mxfp4_matmul.py: tl.dot_scaled(x, None, "bf16", w, w_scales,
    # "e2m1") decomposed on Hopper upcasts the packed e2m1 bytes with ttg.fp4_to_fp (refused before as outside the
    # back end's vocabulary)
    fn = read_function(FP4, "k")
    ctx = Context(fn, aliases(FP4), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    (line,) = translate(next(op for op in fn.ops if op.name == "ttg.fp4_to_fp"), ctx)
    assert line.startswith("u = gl.convert_layout(gl.fp4_to_fp(w, gl.bfloat16, 1), L"), line
    layout = next(k for k in ctx.layouts if ctx.layouts[k] in line)
    assert "DotOperandLayout(operand_index=0," in layout and "k_width=2" in layout, layout


CAT = '''#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%a: tensor<512xi1, #blocked1>, %b: tensor<512xi1, #blocked1>) attributes {noinline = false} {
    %c = tt.cat %a, %b : tensor<512xi1, #blocked1> -> tensor<1024xi1, #blocked1>
    tt.return
  }
}
'''


def test_a_concatenation_is_written_as_a_join_flattened_in_order_with_no_data_moved(tmp_path):
    # tests/corpus/xformers_bias_dropout_residual.py: a row's kept count from tl.cat of four quarters' keep masks
    # (can_reorder=True); Gluon 3.6 has no cat, and the back end refused tt.cat as outside its vocabulary
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    from codegen.gluon.generate import load_module

    fn = read_function(CAT, "k")
    ctx = Context(fn, aliases(CAT), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    line, = (ln for op in fn.ops if op.name == "tt.cat" for ln in translate(op, ctx))
    lay = next(k for k in ctx.layouts if ctx.layouts[k] in line)
    assert line == f"c = gl.convert_layout(gl.reshape(gl.permute(gl.join(a, b), (1, 0)), [1024]), {ctx.layouts[lay]})"
    # compiled offline: the join's new dimension is a register bit, so the conversion uses no shared memory
    src = (f"from triton.experimental import gluon\nfrom triton.experimental.gluon import language as gl\n"
           f"L = {lay}\n\n\n@gluon.jit\ndef k(x_ptr, y_ptr):\n"
           f"    a = gl.load(x_ptr + gl.arange(0, 512, L)) > 0\n"
           f"    b = gl.load(x_ptr + 512 + gl.arange(0, 512, L)) > 0\n"
           f"    {line.replace(ctx.layouts[lay], 'L')}\n    gl.store(y_ptr + gl.arange(0, 1024, L), c.to(gl.int32))\n")
    mod = load_module(src, str(tmp_path))
    got = triton.compile(GluonASTSource(fn=mod.k, signature={"x_ptr": "*i32", "y_ptr": "*i32"}, constexprs={}),
                         target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    assert got.metadata.shared == 0


DIV_FMA = '''#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], \
order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x: tensor<64x64xf32, #blocked>, %a: tensor<64x64xf32, #blocked>) attributes {noinline = false} {
    %c = arith.constant dense<3.000000e+00> : tensor<64x64xf32, #blocked>
    %q = tt.precise_divf %x, %a : tensor<64x64xf32, #blocked>
    %r = tt.precise_divf %x, %c : tensor<64x64xf32, #blocked>
    %h = math.fma %a, %q, %x : tensor<64x64xf32, #blocked>
    %g = math.fma %c, %q, %x : tensor<64x64xf32, #blocked>
    %d = tt.approx_divf %x, %a : tensor<64x64xf32, #blocked>
    tt.return
  }
}
'''


def test_an_ieee_division_and_an_fma_with_a_constant_operand_are_written_on_tensors_of_the_results_shape():
    # tests/corpus/accelerated_scan_gated_chunks.py: tl.math.div_rn (tt.precise_divf, refused as outside the
    # vocabulary) and tl.math.fma; Gluon's div_rn and fma do not broadcast, so a splat constant is a full tile
    fn = read_function(DIV_FMA, "k")
    ctx = Context(fn, aliases(DIV_FMA), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    lines = [ln for op in fn.ops if op.name != "tt.return" for ln in translate(op, ctx)]
    lay = next(iter(ctx.layouts.values()))
    full = f"gl.full([64, 64], 3.0, gl.float32, layout={lay})"
    # Triton 3.9's div.approx.f32 (tt.approx_divf: tl.fdiv(approx=True); MoBA's `/` of its log-sum-exp): Gluon's fdiv
    assert lines == ["q = gl.div_rn(x, a)", f"r = gl.div_rn(x, {full})", "h = gl.fma(a, q, x)",
                     f"g = gl.fma({full}, q, x)", "d = gl.fdiv(x, a, approx=True)"], lines


FP8 = '''#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x: tensor<512xf32, #blocked>) attributes {noinline = false} {
    %a = tt.fp_to_fp %x, rounding = rtne : tensor<512xf32, #blocked> -> tensor<512xf8E5M2, #blocked>
    %b = tt.fp_to_fp %x, rounding = rtz : tensor<512xf32, #blocked> -> tensor<512xf8E4M3FN, #blocked>
    %c = tt.fp_to_fp %a : tensor<512xf8E5M2, #blocked> -> tensor<512xf32, #blocked>
    tt.return
  }
}
'''


def test_a_float_downcasts_rounding_mode_is_written_as_the_kernel_gave_it():
    # tests/corpus/te_pow2_fp8_e5m2_quant.py: .to(tl.float8e5, fp_downcast_rounding="rtne"); the mode was dropped,
    # so an "rtz" downcast would have been rounded to nearest by Gluon's default
    fn = read_function(FP8, "k")
    ctx = Context(fn, aliases(FP8), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    lines = [ln for op in fn.ops if op.name != "tt.return" for ln in translate(op, ctx)]
    assert lines == ["a = x.to(gl.float8e5, fp_downcast_rounding='rtne')",
                     "b = x.to(gl.float8e4nv, fp_downcast_rounding='rtz')", "c = a.to(gl.float32)"], lines
