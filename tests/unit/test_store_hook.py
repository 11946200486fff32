"""``twill.store.hook.use``: a stored schedule applied when Triton compiles a matching kernel (offline,
``triton.compile`` for an sm_90 target on the CPU); no match or another Triton: default + one warning."""
from __future__ import annotations

import dataclasses
import importlib.util
import shutil
import sys
import warnings
from pathlib import Path

import pytest

from twill.errors import InputError
from twill.store.db import open_db
from twill.store.hook import ScheduleWarning, use
from twill.store.keys import strip_locations
from twill.store.regen import regen

ROOT = Path(__file__).resolve().parents[2]
GEMM = ROOT / "kernels" / "gemm.py"
ARCH = "h100"


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


def _spec(mod, fn_name):
    from twill.ir.load import make_spec

    return make_spec(mod, fn_name, getattr(mod, fn_name), ARCH)


def _compile(spec):
    import triton

    from twill.ir.load import source_of
    from twill.ir.pipeline import target_for

    return triton.compile(source_of(spec), target=target_for(ARCH), options=spec.options)


def _default_ttgir(spec) -> str:
    from twill.ir.load import source_of
    from twill.ir.pipeline import compile_with_callbacks

    return compile_with_callbacks(source_of(spec), ARCH, spec.options, {}).asm["ttgir"]


def _placement_before_pipeliner(spec) -> str:
    """Triton's own module text right before its pipeliner (its stages and clusters)."""
    from twill.ir.load import source_of
    from twill.ir.pipeline import compile_with_callbacks, module_text

    seen: dict[str, str] = {}
    compile_with_callbacks(source_of(spec), ARCH, spec.options, {"add_pipeline": lambda m: seen.update(t=module_text(m))})
    return seen["t"]


def test_hook_applies_the_stored_schedule(stored, monkeypatch):
    from codegen.annotate import read_annotation
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
    reference = compile_annotated(spec, ARCH, entry.annotated_ttgir).asm["ttgir"]
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
