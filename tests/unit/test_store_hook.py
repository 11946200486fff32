"""``twill.store.hook.use``: a stored schedule applied when Triton compiles a matching kernel (offline,
``triton.compile`` for an sm_90 target on the CPU); no match or another Triton: default + one warning."""
from __future__ import annotations

import dataclasses
import importlib.util
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from twill.errors import InputError
from twill.machine.model import load_machine  # noqa: E402
from twill.store.db import open_db
from twill.store.hook import ScheduleWarning, use
from twill.store.keys import strip_locations
from twill.store.regen import regen

ROOT = Path(__file__).resolve().parents[2]
GEMM = ROOT / "kernels" / "gemm.py"
ARCH = "h100"


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _import(path: Path, name: str):
    """Import a kernel file the way a user program does (a real module, not twill's safe loader)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(autouse=True)
def private_triton_cache(tmp_path, monkeypatch):
    import triton

    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    old = triton.knobs.cache.dir
    old_hook = triton.knobs.runtime.add_stages_inspection_hook
    triton.knobs.cache.dir = str(tmp_path / "triton-cache")
    yield
    triton.knobs.cache.dir = old
    triton.knobs.runtime.add_stages_inspection_hook = old_hook


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A user's kernel folder (a copy of kernels/gemm.py) and a database regenerated for it on h100."""
    from twill.pipeline import OptimizeOptions

    d = tmp_path_factory.mktemp("user")
    shutil.copy(GEMM, d / "user_gemm.py")
    db = d / "schedules.sqlite"
    report = regen([str(d / "user_gemm.py")], [ARCH], db, OptimizeOptions(swp_only=True, time_limit=20))
    assert report.ok and report.count("solved") == 1, report.diff_text()
    return d, db


def _spec(mod, fn_name, arch=ARCH):
    from twill.ir.load import make_spec

    return make_spec(mod, fn_name, getattr(mod, fn_name), arch)


def _compile(spec, arch=ARCH):
    import triton

    from twill.ir.load import source_of
    from twill.ir.triton_hooks import target_for

    return triton.compile(source_of(spec), target=target_for(load_machine(arch).sm), options=spec.options)


def _default_ttgir(spec, arch=ARCH) -> str:
    from twill.ir.load import source_of
    from twill.ir.triton_hooks import compile_planned

    return compile_planned(source_of(spec), load_machine(arch).sm, spec.options).asm["ttgir"]


def _placement_before_pipeliner(spec, arch=ARCH) -> str:
    """Triton's own module text right before its pipeliner (its stages and clusters)."""
    from twill.ir.load import source_of
    from twill.ir.triton_hooks import PassPlan, compile_planned, module_text

    seen: dict[str, str] = {}
    compile_planned(source_of(spec), load_machine(arch).sm, spec.options,
                    PassPlan(before=(("add_pipeline", lambda m: seen.update(t=module_text(m))),)))
    return seen["t"]


def test_hook_applies_the_stored_schedule(stored, monkeypatch):
    from codegen.annotation import read_annotation
    from codegen.compile import compile_annotated

    import twill.store.hook as hook_module

    d, db = stored
    (entry,) = open_db(db).entries()
    spec = _spec(_import(d / "user_gemm.py", "user_gemm_a"), "_gemm")
    handed: list[str] = []                                    # what the hook gives Triton's pipeliner
    real_apply = hook_module._apply_schedule
    monkeypatch.setattr(hook_module, "_apply_schedule", lambda text, e: handed.append(real_apply(text, e)) or handed[-1])
    hook = use(db)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScheduleWarning)        # a match must not warn
        got = _compile(spec).asm["ttgir"]
    hook.uninstall()
    assert [(a.kernel, a.arch, a.digest) for a in hook.applied] == [("_gemm", ARCH, entry.key.digest)]
    # The pipeliner received the stored schedule's stages and clusters, not Triton's own ...
    stored_placement = read_annotation(entry.annotated_ttgir)
    assert len(handed) == 1 and read_annotation(handed[0]) == stored_placement
    assert read_annotation(_placement_before_pipeliner(spec)) != stored_placement, "twill and Triton agree here"
    # ... and the compiled IR is what codegen makes of the stored annotated TTGIR.
    reference = compile_annotated(spec, load_machine(ARCH), entry.annotated_ttgir).asm["ttgir"]
    assert strip_locations(got) == strip_locations(reference)


def test_no_match_compiles_the_default_with_one_warning(stored, tmp_path, monkeypatch):
    import triton

    _, db = stored
    monkeypatch.setattr(triton.knobs.compilation, "always_compile", True)   # the hook runs both times
    other = tmp_path / "other_gemm.py"
    other.write_text(GEMM.read_text() + "\n# edited: another source\n")
    spec = _spec(_import(other, "user_gemm_b"), "_gemm")
    hook = use(db)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = _compile(spec).asm["ttgir"]
        _compile(spec)
    hook.uninstall()
    ours = [w for w in caught if issubclass(w.category, ScheduleWarning)]
    assert len(ours) == 1 and "no stored schedule for this kernel source" in str(ours[0].message)
    assert hook.applied == []
    assert strip_locations(first) == strip_locations(_default_ttgir(spec))


def test_another_triton_version_warns_and_uses_the_default(stored, tmp_path):
    d, db = stored
    copy = tmp_path / "old.sqlite"
    with open_db(db) as src, open_db(copy) as dst:
        (e,) = src.entries()
        dst.put(dataclasses.replace(e, key=dataclasses.replace(e.key, triton_version="3.5.0")))
    spec = _spec(_import(d / "user_gemm.py", "user_gemm_c"), "_gemm")
    hook = use(copy)
    with pytest.warns(ScheduleWarning, match="stored for triton 3.5.0, running"):
        _compile(spec)
    hook.uninstall()
    assert hook.applied == []


def test_use_reads_the_environment_and_moves_the_cache(stored, monkeypatch):
    import triton

    from twill.store.hook import hook_in_cache_key

    _, db = stored
    monkeypatch.setenv("TWILL_SCHEDULES", str(db))
    hook = use()
    try:
        assert triton.knobs.runtime.add_stages_inspection_hook is hook and hook.path == str(db)
        assert hook() == ("twill.store", hook.digest)            # the no-argument call of triton >= 3.9
        if not hook_in_cache_key():                               # 3.6: a cache of its own per database
            assert Path(triton.knobs.cache.dir).name == f"twill-{hook.digest[:16]}"
    finally:
        hook.uninstall()
    monkeypatch.delenv("TWILL_SCHEDULES")
    with pytest.raises(InputError, match="TWILL_SCHEDULES"):
        use()
    with pytest.raises(InputError, match="no such schedule database"):
        use(Path(db).with_name("missing.sqlite"))


# The GEMM as a Blackwell user may write it: a warp-specialized loop. On sm_100 Triton's
# warp_specialize pass runs between schedule_loops and the pipeliner and rewrites such a loop
# (partitions, barriers, buffer indexing), so the schedule must go on before it.
_WS_LOOP = "for k in tl.range(0, tl.maximum(tl.cdiv(K, BLOCK_K), 1)):"


@pytest.fixture(scope="module")
def stored_b200(tmp_path_factory):
    """The GEMM, plain and warp-specialized, regenerated for b200 (sm_100)."""
    from twill.pipeline import OptimizeOptions

    d = tmp_path_factory.mktemp("user_b200")
    text = GEMM.read_text()
    assert _WS_LOOP in text
    (d / "b200_gemm.py").write_text(text)
    (d / "b200_gemm_ws.py").write_text(text.replace(_WS_LOOP, _WS_LOOP[:-2] + ", warp_specialize=True):"))
    db = d / "schedules.sqlite"
    report = regen([str(d / "b200_gemm.py"), str(d / "b200_gemm_ws.py")], ["b200"], db,
                   OptimizeOptions(swp_only=True, time_limit=20))
    assert report.ok and report.count("solved") == 2, report.diff_text()
    return d, db


def test_schedule_point_is_right_after_tritons_schedule_loops():
    from codegen.compile import schedule_point
    from twill.ir.triton_hooks import ttgir_passes

    for sm, point in ((90, "add_pipeline"), (100, "add_warp_specialize")):
        names = ttgir_passes(sm)
        assert schedule_point(sm) == point == names[names.index("add_schedule_loops") + 1]


@pytest.mark.parametrize("variant", ["b200_gemm", "b200_gemm_ws"])
def test_hook_applies_a_stored_b200_schedule(stored_b200, monkeypatch, variant):
    from codegen.annotation import read_annotation
    from codegen.compile import compile_annotated

    import twill.store.hook as hook_module

    d, db = stored_b200
    (entry,) = [e for e in open_db(db).entries() if e.source.endswith(f"{variant}.py")]
    spec = _spec(_import(d / f"{variant}.py", f"user_{variant}"), "_gemm", "b200")
    handed: list[str] = []                                    # the loop as Triton's scheduling passes get it
    real_apply = hook_module._apply_schedule
    monkeypatch.setattr(hook_module, "_apply_schedule",
                        lambda text, e: handed.append(real_apply(text, e)) or handed[-1])
    hook = use(db)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScheduleWarning)        # a match must not warn
        got = _compile(spec, "b200").asm["ttgir"]
    hook.uninstall()
    assert [(a.kernel, a.arch, a.digest) for a in hook.applied] == [("_gemm", "b200", entry.key.digest)]
    # The IR carries the stored loop.stage / loop.cluster of every loop op (tc_gen5_mma included) ...
    stored_placement = read_annotation(entry.annotated_ttgir)
    assert len(handed) == 1 and read_annotation(handed[0]) == stored_placement
    assert any(op == "ttng.tc_gen5_mma" for op, _, _ in stored_placement["ops"])
    # ... and compiles to what codegen makes of the stored annotated TTGIR.
    reference = compile_annotated(spec, load_machine("b200"), entry.annotated_ttgir).asm["ttgir"]
    assert strip_locations(got) == strip_locations(reference)
    if variant == "b200_gemm":      # not Triton's own schedule, so not Triton's own binary
        assert read_annotation(_placement_before_pipeliner(spec, "b200")) != stored_placement, "twill and Triton agree"
        assert strip_locations(got) != strip_locations(_default_ttgir(spec, "b200"))


def test_twill_use_is_the_hooks_use_and_import_twill_stays_light():
    code = ("import sys, twill\n"
            "HEAVY = {'triton', 'torch', 'ortools', 'pyscipopt', 'z3'}\n"
            "heavy = lambda: sorted({m.split('.')[0] for m in sys.modules} & HEAVY)\n"
            "assert heavy() == [], heavy()\n"
            "import twill.store.hook\n"
            "assert twill.use is twill.store.hook.use and 'use' in twill.__all__\n"
            "assert heavy() == [], heavy()\n")
    r = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    import twill

    assert twill.use is use
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        twill.nope  # noqa: B018


def test_gpu_hook_path_needs_no_solver(tmp_path):
    """What tests/gpu/test_gpu_hook.py does on the GPU machine, which has no ortools, pyscipopt or z3 (nor,
    here, torch): build its database from the committed files and apply it in an offline sm_90 compile."""
    code = f"""
import importlib.util, sys, warnings
for name in ("ortools", "pyscipopt", "z3", "torch"):
    sys.modules[name] = None                                     # 'import name' fails, as where it is missing
from pathlib import Path
import triton
import twill
from twill.ir.load import make_spec, source_of
from twill.ir.triton_hooks import target_for
from twill.store.hook import ScheduleWarning
spec = importlib.util.spec_from_file_location("gpu_hook", {str(ROOT / "tests" / "gpu" / "test_gpu_hook.py")!r})
gpu = importlib.util.module_from_spec(spec); spec.loader.exec_module(gpu)
tmp = Path({str(tmp_path)!r})
triton.knobs.cache.dir = str(tmp / "cache")
entry = gpu.build_db(tmp / "s.sqlite")
gemm = gpu._fresh_gemm_module()
hook = twill.use(tmp / "s.sqlite", arch="h200")
warnings.simplefilter("error", ScheduleWarning)
kernel = make_spec(gemm, "_gemm", gemm._gemm, "h200")
triton.compile(source_of(kernel), target=target_for(90), options=kernel.options)
assert [(a.kernel, a.arch, a.digest) for a in hook.applied] == [("_gemm", "h200", entry.key.digest)], hook.applied
loaded = sorted(m for m, mod in sys.modules.items() if mod and m.split(".")[0] in ("ortools", "pyscipopt", "z3"))
assert loaded == [], loaded
"""
    r = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True, text=True, timeout=300,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
