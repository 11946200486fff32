"""Run 18c's hand variant of the FA backward (session 17): the producer warp reduces half of each dQ partial.

From the committed generated kernel (``bench/results/gluon/fa_bwd``): its one-warp reducer is busy 78 % of the time
(run 17's sample) and the consumers wait on it 15-18 %, while the one-warp producer, in the same warp group and with
the same 32 registers, waits 93 % of its time. Here the reducer sums and adds rows 0-31 of each iteration's partials
and the producer rows 32-63, two iterations behind its loads (consumer 0 stores iteration j's partial during its body
j + 1 or its drain, which needs the loads of j + 1 only; waiting there for j - 1's would deadlock), the last two of
each tile after its loop; ``twill_red_free`` counts both arrivals. Two warps' loads in flight instead of one.

    python bench/results/gluon/runs/run18/mk18_split.py OUT_DIR
"""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "fa_bwd"

HELPER = '''

@gluon.jit
def _reduce_rows(k, base, twill_red_t0, twill_red_t1, twill_red_ready, twill_red_free, twill_cols, ROW0: gl.constexpr):
    """Rows ROW0 .. ROW0 + 31 of partial k: the consumers' sum, added atomically at ``base``; then this warp's free."""
    mbarrier.wait(twill_red_ready.index(0), k & 1)
    for twill_r in gl.static_range(ROW0, ROW0 + 32):
        gl.atomic_add(base + twill_r * 128 + twill_cols, twill_red_t0.slice(twill_r, 1, dim=0).load(L7) + twill_red_t1.slice(twill_r, 1, dim=0).load(L7), sem='relaxed', scope='gpu')
    mbarrier.arrive(twill_red_free.index(0))
'''

REDUCER_OLD = """            mbarrier.wait(twill_red_ready.index(0), twill_k & 1)
            for twill_r in gl.static_range(64):
                gl.atomic_add(v8 + twill_r * 128 + twill_cols, twill_red_t0.slice(twill_r, 1, dim=0).load(L7) + twill_red_t1.slice(twill_r, 1, dim=0).load(L7), sem='relaxed', scope='gpu')
            mbarrier.arrive(twill_red_free.index(0))
"""
REDUCER_NEW = """            _reduce_rows(twill_k, v8, twill_red_t0, twill_red_t1, twill_red_ready, twill_red_free, twill_cols, 0)
"""
PRODUCER_HEAD_OLD = """        kv_y_28 = offset_y + kv_y
        mbarrier.wait(k_c0_t0_free"""
PRODUCER_HEAD_NEW = """        kv_y_28 = offset_y + kv_y
        dq_base_34 = DQ + off_hz.to(gl.int64) * N_CTX.to(gl.int64) * 128
        twill_cols = gl.expand_dims(gl.arange(0, 128, layout=gl.SliceLayout(0, L7)), 0)
        mbarrier.wait(k_c0_t0_free"""
PRODUCER_LOOP_OLD = """            tma.async_copy_global_to_shared(desc_do, [q, 0], do_ready.index(twill_k % 2), do_buf.index(twill_k % 2))
        twill_base += (N_CTX - 0 + 64 - 1) // 64
"""
PRODUCER_LOOP_NEW = """            tma.async_copy_global_to_shared(desc_do, [q, 0], do_ready.index(twill_k % 2), do_buf.index(twill_k % 2))
            if dv_43 >= 128:
                _reduce_rows(twill_k - 2, dq_base_34 + (dv_43 - 128) * 128, twill_red_t0, twill_red_t1, twill_red_ready, twill_red_free, twill_cols, 32)
        twill_n = (N_CTX - 0 + 64 - 1) // 64
        for twill_j in range(gl.maximum(twill_n - 2, 0), twill_n):
            _reduce_rows(twill_base + twill_j, dq_base_34 + twill_j * 64 * 128, twill_red_t0, twill_red_t1, twill_red_ready, twill_red_free, twill_cols, 32)
        twill_base += twill_n
"""
FREE_OLD = "mbarrier.init(twill_red_free.index(i), count=1)"
FREE_NEW = "mbarrier.init(twill_red_free.index(i), count=2)"


def make(out: Path) -> None:
    shutil.copytree(SRC, out, dirs_exist_ok=True)
    path = out / "kernel_gluon.py"
    src = path.read_text()
    anchor = "\n@gluon.jit\ndef consumer_0("
    for old, new in ((anchor, HELPER + anchor), (REDUCER_OLD, REDUCER_NEW), (PRODUCER_HEAD_OLD, PRODUCER_HEAD_NEW),
                     (PRODUCER_LOOP_OLD, PRODUCER_LOOP_NEW), (FREE_OLD, FREE_NEW)):
        assert src.count(old) == 1, old
        src = src.replace(old, new)
    path.write_text(src)


if __name__ == "__main__":
    make(Path(sys.argv[1]))
