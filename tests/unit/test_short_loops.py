"""Short loops at launch time (``codegen.gluon.short``): a kernel the route writes with a producer, its loop's trip
count a launch argument, holds the one-partition kernel of the same schedule, and its launcher runs that one where
the loop is short. On the CPU: the kernels are recorders, the launcher's choice is what is checked; the module's
second kernel is the one-partition kernel as generated (its names restored), and its barrier protocol simulates."""
from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from codegen.gluon.generate import load_module  # noqa: E402
from codegen.gluon.protocol import check_kernel  # noqa: E402
from codegen.gluon.short import SHORT_KERNEL, _renamed, _top_level, short_device  # noqa: E402
from codegen.gluon.trips import launch_trips  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"


@pytest.fixture(scope="module")
def blocksparse():
    return optimize(str(CORPUS / "blocksparse_sdd.py"), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))


class _Recorder:
    """A Gluon kernel's ``kernel[grid](*args, **kwargs)``: records which kernel ran, with what."""

    def __init__(self, name: str, calls: list):
        self.name, self.calls = name, calls

    def __getitem__(self, grid):
        return lambda *a, **kw: self.calls.append((self.name, grid, a, kw))


def _launched(source: str, k: int, grid: tuple = (4, 1, 1), sms: int | None = 132) -> list:
    z, h, m, n = 1, 2, 128, 128
    return _launch(source, dict(
        A=torch.zeros(z, h, m, k, dtype=torch.float16), B=torch.zeros(z, h, n, k, dtype=torch.float16),
        C=torch.zeros(z, 4, 64, 64, dtype=torch.float16), stride_za=h * m * k, stride_ha=m * k, stride_ma=k,
        stride_zb=h * n * k, stride_hb=n * k, stride_nb=k, stride_zc=4 * 64 * 64, stride_hc=64 * 64, stride_mc=64, K=k,
        grid_offset=0, lut=torch.zeros(12, dtype=torch.int32)), grid=grid, sms=sms)


def _launch(source: str, values: dict, grid: tuple = (4, 1, 1), sms: int | None = 132) -> list:
    """Which kernel the module's ``launch`` runs with ``values`` for its arguments (others 0) on a device of ``sms``
    multiprocessors (None: none to count, as without a GPU): the kernels are recorders."""
    with tempfile.TemporaryDirectory() as tmp:
        mod = load_module(source, tmp, "short_loops")
    calls: list = []
    mod.twill_kernel, mod.twill_kernel_short = _Recorder("long", calls), _Recorder("short", calls)
    mod._device = mod._device_short = lambda: 0
    if sms is not None:
        mod._sm_count = mod._sm_count_short = lambda: sms
    values = dict(values, **mod.CONSTEXPRS)
    mod.launch(grid, *[values.get(a, 0) for a in mod.ARGUMENTS])
    return calls


def test_the_launch_runs_the_one_partition_kernel_where_the_loop_is_short(blocksparse):
    # the one partition holds 5 CTAs an SM against the producer's 2: short up to 32 iterations where the launch has
    # more CTAs than the SMs hold of the producer's (run 95), else up to 8
    k = blocksparse.gluon.kernel
    assert k.short is not None and k.short["kernel"] == SHORT_KERNEL and k.short["limit"] == 8
    assert k.short["full"] == 32 and k.short["long_ctas"] == 2 and k.short["exact"]
    assert k.short["trips"].replace(" ", "") == "(K+32-1)//32" and k.short["prefetch"] == 3   # its stores serialise
    assert k.plan.producer is not None and "gl.warp_specialize(" in k.source     # the long kernel: a producer's
    assert any(d.startswith("short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32") and
               "5 CTA(s) an SM against the producer's 2" in d for d in k.decisions)
    (name, grid, args, kw), = _launched(k.source, 128)                 # 4 iterations a CTA
    assert name == "short" and grid == (4, 1, 1) and kw["maxnreg"] is None and "TWILL_TMA" not in kw
    assert [c[0] for c in _launched(k.source, 256)] == ["short"]                          # 8
    assert [c[0] for c in _launched(k.source, 288)] == ["long"]                           # 9, 4 CTAs
    assert [c[0] for c in _launched(k.source, 1024, grid=(265, 1, 1))] == ["short"]       # 32, 265 > 132 x 2
    assert [c[0] for c in _launched(k.source, 1024, grid=(264, 1, 1))] == ["long"]        # the SMs hold them all
    assert [c[0] for c in _launched(k.source, 1024, grid=(265, 1, 1), sms=None)] == ["long"]  # no SMs to count
    (name, grid, args, kw), = _launched(k.source, 1056, grid=(300, 1, 1))                 # 33
    assert name == "long" and kw["maxnreg"] == k.maxnreg and "TWILL_TMA" in kw


def test_a_bound_taking_a_min_with_a_ctas_own_value_is_read_as_at_most_its_argument_side():
    # Mamba's chunk state: range(0, min(chunk_size, seqlen - pid_c * chunk_size), 32): at most chunk_size / 32
    r = optimize(str(CORPUS / "mamba_chunk_state.py"), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))
    k = r.gluon.kernel
    assert launch_trips(k.plan) == ("(chunk_size + 32 - 1) // 32", False)
    assert k.short is not None and k.short["prefetch"] == 0          # its tiles stored through registers: clean
    assert any("at most: a bound of the loop takes a min" in d for d in k.decisions)
    assert [c[0] for c in _launch(k.source, {"chunk_size": 256, "seqlen": 4096})] == ["short"]     # 8
    assert [c[0] for c in _launch(k.source, {"chunk_size": 2048, "seqlen": 4096}, grid=(999, 1, 1))] == ["long"]  # 64


def test_the_second_kernel_is_the_one_partition_kernel_as_generated_and_its_protocol_simulates(blocksparse):
    k = blocksparse.gluon.kernel
    device = short_device(k.source)
    assert device is not None and "_short" not in device and "warp_specialize" not in device
    assert "def twill_kernel(" in device and "async_copy.async_copy_global_to_shared(" in device
    problems, unsimulated = check_kernel(device, k.short["signature"], 4)
    assert problems == [] and unsimulated == ""
    assert short_device(device) is None                                # a module of one kernel has none


def test_renaming_a_generated_module_and_back_gives_it_again():
    src = (ROOT / "bench/results/gluon/runs/run94/blocksparse_sdd_own/kernel_gluon.py").read_text()
    names = _top_level(src)
    assert names is not None and {"L0", "consumer_0", "twill_kernel", "launch", "kernel", "ARGUMENTS"} <= names
    renamed = _renamed(src, names)
    tree = ast.parse(renamed)
    assert {"launch_short", "twill_kernel_short", "ARGUMENTS_short"} <= {
        getattr(n, "name", None) or getattr(getattr(n, "targets", [None])[0], "id", None) for n in tree.body}
    assert "layout=L0_short" in renamed and "num_warps=NUM_WARPS_short" in renamed    # keywords kept, values renamed
    assert "gl.warp_specialize" not in renamed and "gl.arange(" in renamed             # attributes kept
    assert _renamed(renamed, names, reverse=True) == src
    tricky = "def f(a):\n    x, L0 = g(L0=L0, b=L0)\n    return y.L0\n"     # a tuple target, a keyword, an attribute
    assert _renamed(tricky, {"L0"}) == "def f(a):\n    x, L0_short = g(L0=L0_short, b=L0_short)\n    return y.L0\n"


def test_trip_counts_the_launch_cannot_compute_give_no_second_kernel():
    r = optimize(str(CORPUS / "lightllm_token_att.py"), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))
    assert r.gluon.kernel is not None and r.gluon.kernel.short is None                # a loaded length
    assert launch_trips(r.gluon.kernel.plan) is None


def test_short_loops_off_and_bad_values(tmp_path):
    r = optimize(str(CORPUS / "blocksparse_sdd.py"), load_machine("h100"),
                 OptimizeOptions(time_limit=2.5, threads=2, short_loops="off"))
    assert r.gluon.kernel.short is None and SHORT_KERNEL not in r.gluon.kernel.source
    for bad in ("0", "eight", "-3"):
        out = tmp_path / bad
        p = subprocess.run([sys.executable, "-m", "twill", "optimize", str(CORPUS / "blocksparse_sdd.py"), "--arch",
                            "h100", "--short-loops", bad, "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 2 and "bad --short-loops" in p.stderr and "Traceback" not in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.fixture(scope="module")
def mamba_bmm_bwd():
    # its dout held in registers: one 4-warp consumer in one CTA an SM (copied at two CTAs it spills more: run 140)
    return optimize(str(CORPUS / "mamba_bmm_chunk_bwd.py"), load_machine("h100"),
                    OptimizeOptions(time_limit=2.5, threads=2))


class _Timed:
    """A Gluon kernel's ``kernel[grid](*args)`` on a fake clock: each launch takes ``cost`` and adds 1 to the fp16
    tensors it is given (an output written in place, which the timing must restore)."""

    def __init__(self, name: str, cost: float, calls: list, clock: list):
        self.name, self.cost, self.calls, self.clock = name, cost, calls, clock

    def __getitem__(self, grid):
        def run(*args, **kwargs):
            self.calls.append(self.name)
            self.clock[0] += self.cost
            for a in args:
                if isinstance(a, torch.Tensor) and a.dtype == torch.float16:
                    a.add_(1)
        return run


def _timed_launches(source: str, signature: dict, monkeypatch, costs: tuple, cuda: bool = True,
                    ints: dict | None = None, grid: tuple = (4, 1, 1)) -> tuple:
    """The module's kernels on a fake clock (``_Timed``, ``costs`` for the long and short kernel) and CUDA events
    reading it; the calls of two launches with the same arguments (integers 64, or as ``ints`` says), and the fp16
    tensors' first elements after the first."""
    clock, calls = [0.0], []
    with tempfile.TemporaryDirectory() as tmp:
        mod = load_module(source, tmp, "timed")
    mod.twill_kernel, mod.twill_kernel_short = _Timed("long", costs[0], calls, clock), _Timed("short", costs[1], calls, clock)
    mod._device = mod._device_short = lambda: 0
    mod._sm_count = mod._sm_count_short = lambda: 132

    class Event:
        def __init__(self, enable_timing: bool = False):
            self.t = 0.0

        def record(self):
            self.t = clock[0]

        def synchronize(self):
            pass

        def elapsed_time(self, end):
            return end.t - self.t

    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: False)
    monkeypatch.setattr(torch.cuda, "Event", Event)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    # the device kept busy before each timed batch, the host queueing it meanwhile: a sleep on the calls' record
    monkeypatch.setattr(torch.cuda, "_sleep", lambda cycles: calls.append("sleep") if cycles > 0 else None)
    # the fp32 inputs expanded views of one element, as a broadcast bias may be passed: read only, not restored
    values = {n: (torch.zeros(64, dtype=torch.float16) if signature.get(n) == "*fp16" else torch.zeros(1).expand(64))
              if str(signature.get(n, "")).startswith("*") else 64 for n in mod.ARGUMENTS}
    values.update(ints or {})
    values.update(mod.CONSTEXPRS)
    args = [values[a] for a in mod.ARGUMENTS]
    mod.launch(grid, *args)
    first, after = list(calls), sorted({float(v[0]) for v in args if isinstance(v, torch.Tensor) and v.dtype == torch.float16})
    calls.clear()
    mod.launch(grid, *args)
    return first, after, list(calls)


def test_one_consumer_in_one_cta_an_sm_is_timed_at_launch_against_its_one_partition_kernel(mamba_bmm_bwd, monkeypatch):
    # runs 127-128: one partition two CTAs an SM ran +9 to +35 % on three kernels and -3 to -26 % on three: the launch
    # times both on a key's first launch, restores the tensors, and runs the faster from then on
    k = mamba_bmm_bwd.gluon.kernel
    assert k.short is not None and k.short["timed"] and k.short["short_ctas"] >= 2 and k.short["long_ctas"] == 1
    assert "gl.warp_specialize(" in k.source and SHORT_KERNEL in k.source
    assert any(d.startswith("timed at launch: the one-partition kernel") for d in k.decisions)
    device = short_device(k.source)
    assert device is not None and "warp_specialize" not in device
    assert check_kernel(device, k.short["signature"], 4)[0] == []
    first, after, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (2.0, 1.0))
    # a launch each to compile, one each to time the host, two rounds of five each behind a sleep of the device,
    # then the faster; the outputs as after one launch
    assert first == ["long", "short"] * 2 + (["sleep"] + ["long"] * 5 + ["sleep"] + ["short"] * 5) * 2 + ["short"]
    assert after == [1.0]
    assert again == ["short"]                                  # the key's choice kept: no timing
    first, _, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (1.0, 2.0))
    assert first[-1] == "long" and again == ["long"]
    first, after, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (2.0, 1.0), cuda=False)
    assert first == again == ["long"] and after == [1.0]      # no device to time on: the warp-specialized kernel
    # no memory for the copies that restore the outputs: the warp-specialized kernel, kept for the key
    tried = []

    def no_memory(self, *a, **kw):
        tried.append(1)
        raise torch.cuda.OutOfMemoryError("no memory")
    monkeypatch.setattr(torch.Tensor, "clone", no_memory)
    first, after, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (2.0, 1.0))
    assert first == again == ["long"] and after == [1.0] and len(tried) == 1


def test_one_partition_in_fewer_than_twice_the_producers_ctas_is_timed_against_it_where_the_loop_is_short(monkeypatch):
    # run 156: one partition in 3 CTAs an SM against the producer's 2 ran x0.64-0.95 on three fp16 GEMMs and
    # x1.09-1.18 on a tf32 one at 8-32 iterations: within the short-loop bounds the launch times the two
    r = optimize(str(CORPUS / "flaggems_mm_peeled.py"), load_machine("h100"),
                 OptimizeOptions(time_limit=2.5, threads=2))
    k = r.gluon.kernel
    assert k.short is not None and k.short["band_timed"] and not k.short.get("timed")
    assert k.short["limit"] == 8 and k.short["full"] == 32 and k.short["long_ctas"] == 2
    assert any(d.startswith("short loops:") and "the launch runs the faster, timed on each launch key's first launch"
               in d and "3 CTA(s) an SM against the producer's 2" in d for d in k.decisions)
    timed = ["long", "short"] * 2 + (["sleep"] + ["long"] * 5 + ["sleep"] + ["short"] * 5) * 2
    for K, grid, first_calls, again_calls in (
            (512, (4, 1, 1), timed + ["long"], ["long"]),          # 7 iterations: timed, the producer's faster
            (1088, (300, 1, 1), timed + ["long"], ["long"]),       # 16, 300 CTAs > 132 x 2: timed
            (1088, (264, 1, 1), ["long"], ["long"]),               # 16, the SMs hold them all: the producer's
            (2176, (300, 1, 1), ["long"], ["long"])):              # 33: the producer's
        first, after, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (1.0, 2.0),
                                              ints={"K": K}, grid=grid)
        assert (first, again) == (first_calls, again_calls), (K, grid)
        assert after == [1.0]                                      # outputs restored after the timing
    first, _, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (2.0, 1.0), ints={"K": 512})
    assert first == timed + ["short"] and again == ["short"]       # the one partition faster: kept for the key
    first, _, again = _timed_launches(k.source, k.short["signature"], monkeypatch, (2.0, 1.0), cuda=False,
                                      ints={"K": 512})
    assert first == again == ["long"]                               # no device to time on


def test_the_producers_kernel_alone_where_one_partition_is_asked_against():
    r = optimize(str(CORPUS / "mamba_bmm_chunk_bwd.py"), load_machine("h100"),
                 OptimizeOptions(time_limit=2.5, threads=2, own_tiles="off"))
    assert r.gluon.kernel is not None and r.gluon.kernel.short is None and SHORT_KERNEL not in r.gluon.kernel.source


def test_the_timed_launch_key_is_the_arguments_shapes_and_values_not_their_identity():
    from codegen.gluon.short import timed_dispatch
    ns = {"ARGUMENTS": ["a", "b", "K", "BLOCK"], "CONSTEXPRS": {"BLOCK": 64}}
    exec(timed_dispatch(), ns)      # noqa: S102 - the launcher's own source, as the generated module holds it
    key = ns["_timed_key"]
    a, b = torch.zeros(8, 16, dtype=torch.float16), torch.zeros(16, 8, dtype=torch.float16)
    same = key((4, 1, 1), (a, b, 128), {})
    assert same is not None and same == key((4, 1, 1), (a.clone(), b.clone(), 128), {})     # new tensors, same key
    assert same != key((4, 1, 1), (a, b, 256), {}) and same != key((8, 1, 1), (a, b, 128), {})
    assert same != key((4, 1, 1), (torch.zeros(8, 32, dtype=torch.float16), b, 128), {})
    assert same != key((4, 1, 1), (a.t(), b, 128), {})                                     # strides
    assert same != key((4, 1, 1), (a[:, 1:], b, 128), {})                                  # alignment
    # a grid of the arguments, and tensors given by keyword: keyed by name and shape, not identity
    by_name = key(lambda m: (m["K"] // 32, 1, 1), (a,), {"b": b, "K": 128})
    assert by_name == key(lambda m: (m["K"] // 32, 1, 1), (a,), {"K": 128, "b": b.clone()})
    assert by_name != key(lambda m: (m["K"] // 32, 1, 1), (a,), {"c": b, "K": 128})
    assert key(lambda m: m["missing"], (a,), {}) is None                                   # the launch says why


def test_a_one_partition_kernel_holding_no_more_ctas_than_the_producer_is_not_kept():
    # run 159: at as many CTAs an SM, the one partition ran x0.81-1.03 of the producer's speed at 2-8 iterations on
    # five kernels (chunk_scan x0.81-0.85): the route keeps the producer's kernel alone, and says why
    said: list[str] = []
    r = optimize(str(CORPUS / "chunk_scan.py"), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2),
                 said.append)
    k = r.gluon.kernel
    assert k is not None and k.plan.producer is not None and k.short is None and SHORT_KERNEL not in k.source
    line, = [m for m in said if m.startswith("gluon: short loops")]
    assert "not kept: it holds 2 CTA(s) an SM, no more than the producer's 2" in line, line
    # asked for by a bound, the one partition is kept as asked
    asked = optimize(str(CORPUS / "chunk_scan.py"), load_machine("h100"),
                     OptimizeOptions(time_limit=2.5, threads=2, short_loops="8")).gluon.kernel
    assert asked is not None and asked.short is not None and asked.short["limit"] == 8 and not asked.short["full"]
