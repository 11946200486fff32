"""Run 18's hand variant of the GEMM (session 17): the A and B rings share their barriers.

The committed GEMM's consumer loop (57 SASS instructions per iteration) holds 3 ``BAR.SYNC`` of its 256 threads:
one before each ring's ``empty`` arrive (only thread 0 arrives, so every warp must be past its wgmma wait) and one
at the top. A and B are loaded for the same iterations and read by the same wgmma, so one ``ready`` barrier
(the producer expects both tiles' bytes) and one ``empty`` barrier serve both: one wait, one arrive and one
``BAR.SYNC`` fewer per iteration.

    python bench/results/gluon/runs/run18/mk18_gemm.py OUT_DIR
"""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "gemm"


def make(out: Path) -> None:
    shutil.copytree(SRC, out, dirs_exist_ok=True)
    path = out / "kernel_gluon.py"
    kept, dropped = [], 0
    for line in path.read_text().split("\n"):
        s = line.strip()
        if s.startswith(("mbarrier.wait(b_ready", "mbarrier.arrive(b_empty", "mbarrier.wait(b_empty",
                         "mbarrier.expect(b_ready")):
            dropped += 1
            continue
        if s.startswith("mbarrier.expect(a_23_ready"):
            line = line.replace("a_desc.block_type.nbytes", "a_desc.block_type.nbytes + b_desc.block_type.nbytes")
        if s.startswith("tma.async_copy_global_to_shared(b_desc"):
            line = line.replace("b_ready.index", "a_23_ready.index")
        kept.append(line)
    assert dropped == 5, dropped
    path.write_text("\n".join(kept))


if __name__ == "__main__":
    make(Path(sys.argv[1]))
