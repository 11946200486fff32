"""The SM clock measured on this GPU: ``%clock64`` cycles against ``%globaltimer`` nanoseconds over a
spin of dependent FMAs on every SM (the clock Proton's cycle counts run at, under load, not the
device's advertised maximum). GPU only; imports triton."""
from __future__ import annotations

import statistics
from typing import Any

import triton
import triton.language as tl


@triton.jit
def _clock_probe(out_ptr, n):
    # The reads after the loop take the loop's result as an (unused) operand, so that neither LLVM nor
    # ptxas can move them in front of the loop; the loop starts from the first clock read for the same reason.
    t0 = tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    c0 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l,l", [t0], dtype=tl.int64, is_pure=False, pack=1)
    x = (c0 & 1).to(tl.float32)
    for _ in range(n):
        x = x * 0.999999 + 1.0
    c1 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l,f", [x], dtype=tl.int64, is_pure=False, pack=1)
    t1 = tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,l", [c1], dtype=tl.int64, is_pure=False,
                                   pack=1)
    pid = tl.program_id(0)
    tl.store(out_ptr + 3 * pid, c1 - c0)
    tl.store(out_ptr + 3 * pid + 1, t1 - t0)
    tl.store(out_ptr + 3 * pid + 2, x.to(tl.int64))


def measure_sm_clock_ghz(torch: Any, sms: int, n: int = 1 << 21, repeats: int = 3) -> float:
    """Median over CTAs and repeats of cycles / ns of a ~10 ms spin with one CTA per SM.

    Examples
    --------
    >>> measure_sm_clock_ghz(torch, 132)       # doctest: +SKIP
    1.755
    """
    out = torch.zeros(3 * sms, dtype=torch.int64, device="cuda")
    _clock_probe[(sms,)](out, 1024, num_warps=4)        # compile and warm up
    torch.cuda.synchronize()
    ghz = []
    for _ in range(repeats):
        _clock_probe[(sms,)](out, n, num_warps=4)
        torch.cuda.synchronize()
        v = out.view(sms, 3).tolist()
        ghz += [c / ns for c, ns, _ in v if ns > 0 and c > 0]
    if not ghz:
        raise RuntimeError("the clock probe measured no time")
    return statistics.median(ghz)
