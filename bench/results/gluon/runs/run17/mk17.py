"""Run 17's hand-edited FA backward (from the FA backward committed before it, kept as runs/run17/fa_bwd-run16): a dQ reducer partition.

Each consumer's dQ partial (over its 64 keys) no longer goes through a layout conversion and 16 atomics per
thread in the consumer: the consumer waits until the reducer has read its previous partial (``dq_free``),
stores the [64, 128] fp32 partial from the wgmma accumulator's layout into a shared buffer of its own
(swizzled so that both the accumulator's stores and the reducer's row loads are conflict-free) and arrives
on ``dq_ready`` (count 2: one arrive per consumer). A one-warp reducer partition waits for both partials,
adds them in row chunks and issues one set of atomics for the CTA (32 KB per iteration instead of 64 KB),
then frees the buffers. The buffers replace the conversions' scratch; the registers: consumers 240,
producer 24, reducer 104 (65536 in all).

    python bench/results/gluon/runs/run17/mk17.py   # writes runs/run17/fa_bwd-dq-reducer/
"""
import re
import shutil
from pathlib import Path

G = Path(__file__).resolve().parents[2]
SRC = Path(__file__).resolve().parent / "fa_bwd-run16"
src = (SRC / "kernel_gluon.py").read_text()
REGS_C, REGS_W, RCHUNK_N, RWARPS = 240, 32, 1, 1   # consumers; the producer and the reducer share a warp group, so one count

# consumers: the conversion becomes the hand-off, the atomics go
conv = re.compile(r"(?P<i>[ ]+)v12_t(?P<t>\d) = gl\.convert_layout\(v11_t(?P=t), L7\)(?P<c>.*)\n")
out, n_conv = conv.subn(lambda m: (
    f"{m['i']}mbarrier.wait(dq_free.index(0), (twill_dq & 1) ^ 1)  # dq reducer hand-off\n"
    f"{m['i']}dq_st_t{m['t']}.store(v11_t{m['t']})\n"
    f"{m['i']}mbarrier.arrive(dq_ready.index(0))\n"
    f"{m['i']}twill_dq += 1\n"), src)
atom = re.compile(r"[ ]+v13_t\d = gl\.atomic_add\(.*\n")
out, n_atom = atom.subn("", out)
rot = re.compile(r"[ ]+v12_t\d_p1 = v12_t\d\n")
out, n_rot = rot.subn("", out)
assert (n_conv, n_atom) == (6, 6), (n_conv, n_atom)
out = out.replace("    twill_base = 0\n    for twill_tile", "    twill_base = 0\n    twill_dq = 0\n    for twill_tile", 2)

# every partition gets the new buffers and barriers
params = "v_c1_t1_bar, v_c1_t1_free)"
out = out.replace(params, "v_c1_t1_bar, v_c1_t1_free, dq_st_t0, dq_st_t1, dq_ready, dq_free)")

REDUCER = '''
@gluon.jit
def reducer_3(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dsT_66_st_t1, dv_56_st_t1, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free, dq_st_t0, dq_st_t1, dq_ready, dq_free):
    rows = gl.arange(0, RCHUNK, layout=gl.SliceLayout(1, LR))
    cols = gl.arange(0, 128, layout=gl.SliceLayout(0, LR))
    offs = gl.expand_dims(rows, 1) * 128 + gl.expand_dims(cols, 0)
    twill_k = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        off_hz = (twill_tile // twill_g0) % twill_g1
        dq_base = DQ + off_hz.to(gl.int64) * N_CTX.to(gl.int64) * 128
        for start_m in range(0, N_CTX, 64):
            mbarrier.wait(dq_ready.index(0), twill_k & 1)
            dst = dq_base + start_m * 128
            for c in gl.static_range(64 // RCHUNK):
                a = dq_st_t0.slice(c * RCHUNK, RCHUNK, dim=0).load(LR)
                b = dq_st_t1.slice(c * RCHUNK, RCHUNK, dim=0).load(LR)
                gl.atomic_add(dst + c * RCHUNK * 128 + offs, a + b, sem='relaxed', scope='gpu')
            mbarrier.arrive(dq_free.index(0))
            twill_k += 1

'''
out = out.replace("\n@gluon.jit\ndef twill_kernel(", REDUCER + "@gluon.jit\ndef twill_kernel(")
out = out.replace("L7 = gl.constexpr(", f"RCHUNK = gl.constexpr({RCHUNK_N})\n"
                  "LR = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], "
                  f"warps_per_cta=[{RWARPS}, 1], order=[1, 0]))\n"
                  "LDQ = gl.constexpr(gl.PaddedSharedLayout.with_identity_for([[128, 4]], [64, 128], [1, 0]))\n"
                  "L7 = gl.constexpr(", 1)
alloc = "    v_c1_t1_buf = gl.allocate_shared_memory(gl.float16, [64, 128], desc_v.layout)\n"
assert alloc in out
out = out.replace(alloc, alloc +
                  "    dq_st_t0 = gl.allocate_shared_memory(gl.float32, [64, 128], LDQ)\n"
                  "    dq_st_t1 = gl.allocate_shared_memory(gl.float32, [64, 128], LDQ)\n"
                  "    dq_ready = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())\n"
                  "    mbarrier.init(dq_ready.index(0), count=2)\n"
                  "    dq_free = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())\n"
                  "    mbarrier.init(dq_free.index(0), count=1)\n")
ws = re.compile(r"(?P<p>        \(producer_2, \((?P<args>[^)]*)\)\),\n)    \], \[4, 1\], \[240, 24\]\)")
out, n_ws = ws.subn(lambda m: m["p"] + f"        (reducer_3, ({m['args']})),\n    ], [4, 1, {RWARPS}], [{REGS_C}, {REGS_W}, {REGS_W}])", out)
assert n_ws == 1, n_ws
# the second variant: the consumers store the unscaled partial, the reducer scales the sum (64 FMULs per
# thread per iteration out of each consumer)
scaled = re.sub(r"dq_st_t(\d)\.store\(v11_t\d\)", r"dq_st_t\1.store(dq_69_t\1)", out)
scaled = scaled.replace("a + b, sem=", "(a + b) * sm_scale, sem=")
assert scaled.count("dq_69_t") > out.count("dq_69_t") and "* sm_scale, sem=" in scaled
for name, text in (("fa_bwd-dq-reducer", out), ("fa_bwd-dq-reducer-scale", scaled)):
    d = Path(__file__).resolve().parent / name
    d.mkdir(exist_ok=True)
    for f in ("gluon.json", "variant.json"):
        shutil.copy(SRC / f, d / f)
    (d / "kernel_gluon.py").write_text(text)
    print(f"{n_conv} conversions -> hand-offs, {n_atom} atomics removed, reducer added -> {d}")
