"""Offline, after run 208: bench/gluon_sums.py JSON (its runs) as the profile sums_profile writes (profiling.gluon_sums_run.report)."""
import json, os, sys, types
from pathlib import Path
ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)
from profiling.gluon import scopes_of
from profiling.gluon_sums import with_gaps
from profiling.gluon_sums_run import report
from profiling.kernel import kernel_module
out = Path('bench/results/gluon/runs/run208/out')
for label in ('gemm', 'fa_bwd'):
    d = Path('bench/results/gluon') / label
    meta = json.loads((d / 'variant.json').read_text())
    g = json.loads((d / 'gluon.json').read_text())
    src = (d / 'kernel_gluon.py').read_text()
    km = kernel_module(meta['kernel_file'])
    timed = dict(getattr(km, 'PROBLEM', {}) or {})
    traced = dict(getattr(km, 'PROFILE_PROBLEM', None) or getattr(km, 'SMALL', None) or timed)
    it = getattr(km, 'loop_iterations', None)
    v = types.SimpleNamespace(ks=with_gaps(src, scopes_of(src, g.get('warp', {}))), source=src, timed=timed,
                              iterations=int(it(**traced)) if callable(it) else 256)
    b = json.loads((out / f'{label}-sums.json').read_text())[0]
    assert b['runs'][0]['regions'] == []
    prof = report(v, *b['plain_ms'], b['runs'], meta)
    prof['split_runs'] = b['split_runs']
    (out / f'{label}-profile.json').write_text(json.dumps(prof, indent=1))
    print(label, len(prof['combined']['regions']), 'regions', 'unmeasured', prof['unmeasured'], prof['max_overhead_of_runs'])
