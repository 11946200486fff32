"""The schedule store: keys, the SQLite database, concurrent writers, interrupted runs, bad files."""
from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from twill.errors import InputError
from twill.store.db import FORMAT, Entry, open_db
from twill.store.keys import StoreKey, ir_sha, sha256, strip_locations
from twill.store.regen import regen

ROOT = Path(__file__).resolve().parents[2]
GEMM = ROOT / "kernels" / "gemm.py"


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.fixture(scope="module")
def real_entry(tmp_path_factory) -> Entry:
    """One entry made by the real pipeline: the GEMM's loop graph (JSON), solved for h100."""
    from twill.graph.io import graph_to_dict
    from twill.graph.extract import graph_for_file
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions

    d = tmp_path_factory.mktemp("entry")
    g, _ = graph_for_file(str(GEMM), load_machine("h100").target)
    (d / "gemm_graph.json").write_text(json.dumps(graph_to_dict(g)))
    report = regen([str(d / "gemm_graph.json")], ["h100"], d / "s.sqlite",
                   OptimizeOptions(swp_only=True, time_limit=20))
    assert report.ok and report.count("solved") == 1, report.diff_text()
    with open_db(d / "s.sqlite") as db:
        (entry,) = db.entries()
    return entry


def _with_key(e: Entry, i: int, tag: str = "") -> Entry:
    return dataclasses.replace(e, key=dataclasses.replace(e.key, ttgir_sha=sha256(f"{tag}{i}")))


# -- keys ---------------------------------------------------------------------------------------------
def test_ttgir_hash_ignores_where_the_kernel_file_lives(tmp_path):
    from twill.ir.frontend import read_kernel
    from twill.machine.model import load_machine

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    shutil.copy(GEMM, a / "gemm.py")
    shutil.copy(GEMM, b / "gemm.py")
    h100 = load_machine("h100").target
    ta, tb = read_kernel(str(a / "gemm.py"), h100).text, read_kernel(str(b / "gemm.py"), h100).text
    assert ta != tb and str(a) in ta                        # locations name the path ...
    assert ir_sha(ta) == ir_sha(tb)                         # ... the store's TTGIR hash does not
    stripped = strip_locations(ta)
    assert "loc(" not in stripped and "#loc" not in stripped
    assert "ttng.warp_group_dot" in stripped and "scf.for" in stripped
    # A real change of the IR changes the hash.
    assert ir_sha(ta.replace("ttg.num-warps\" = 8", "ttg.num-warps\" = 4")) != ir_sha(ta)


def test_every_key_field_changes_the_digest():
    base = StoreKey(*(sha256(str(i)) for i in range(2)), "h100", "3.6.0", sha256("m"), "", sha256("o"))
    digests = {base.digest}
    for f in dataclasses.fields(StoreKey):
        digests.add(dataclasses.replace(base, **{f.name: getattr(base, f.name) + "x"}).digest)
    assert len(digests) == 1 + len(dataclasses.fields(StoreKey))


def test_options_hash_ignores_time_limit_only():
    from twill.pipeline import OptimizeOptions
    from twill.store.keys import options_sha

    o = OptimizeOptions()
    assert options_sha(o) == options_sha(dataclasses.replace(o, time_limit=5.0))
    assert options_sha(o) != options_sha(dataclasses.replace(o, swp_only=True))
    assert options_sha(o) != options_sha(dataclasses.replace(o, backend="scip"))


# -- the database -------------------------------------------------------------------------------------
def test_round_trip_and_format(tmp_path, real_entry):
    path = tmp_path / "s.sqlite"
    with open_db(path) as db:
        db.put(real_entry)
        db.put(real_entry)                                    # same key: replaced, not duplicated
        assert len(db) == 1
        got = db.get(real_entry.key)
    assert got == real_entry
    assert got.status == "optimal" and got.schedule["ii"] >= got.schedule["lower_bound"]
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT v FROM meta WHERE k = 'format'").fetchone()[0] == FORMAT
    con.close()


def test_merge_copies_new_and_newer_entries(tmp_path, real_entry):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    with open_db(a) as da, open_db(b) as dbb:
        da.put(dataclasses.replace(_with_key(real_entry, 1), created=100.0))
        dbb.put(dataclasses.replace(_with_key(real_entry, 1), created=200.0))
        dbb.put(dataclasses.replace(_with_key(real_entry, 2), created=100.0))
        assert da.merge(b) == 2                 # key 2 is new; key 1 is newer in b
        assert da.merge(b) == 0                 # nothing newer the second time
        assert len(da) == 2 and da.get(_with_key(real_entry, 1).key).created == 200.0


def test_stored_schedule_passes_the_checker(real_entry):
    from twill.graph.io import graph_from_dict
    from twill.schedule.model import Schedule
    from twill.schedule.verify import verify

    s = Schedule.from_dict(real_entry.schedule)
    assert verify(graph_from_dict(real_entry.graph), s.get("capacity"), s) == []


@pytest.mark.parametrize("content, found", [
    (b"this is not a database at all, just text\n", "a file starting"),
    (b'{"schema": "twill.schedule/1"}', "JSON"),
])
def test_foreign_file_is_one_clear_error(tmp_path, content, found):
    p = tmp_path / "s.sqlite"
    p.write_bytes(content)
    with pytest.raises(InputError) as e:
        open_db(p)
    msg = str(e.value)
    assert "\n" not in msg and "not a schedule database" in msg and found in msg and str(p) in msg
    assert p.read_bytes() == content                        # left as it was


def test_another_applications_sqlite_is_refused(tmp_path):
    p = tmp_path / "other.sqlite"
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="another application's SQLite file .tables: users"):
        open_db(p)


def test_corrupt_database_is_one_clear_error(tmp_path, real_entry):
    p = tmp_path / "s.sqlite"
    with open_db(p) as db:
        for i in range(40):                                  # enough pages to damage one in the middle
            db.put(_with_key(real_entry, i))
    con = sqlite3.connect(p)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(p.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page:5 * page] = b"\xa5" * (2 * page)
    p.write_bytes(bytes(data))
    with pytest.raises(InputError) as e:
        with open_db(p) as db:
            db.entries()
    assert "corrupt schedule database" in str(e.value) and "\n" not in str(e.value)


def test_cli_reports_a_bad_database_in_one_line(tmp_path):
    p = tmp_path / "bad.sqlite"
    p.write_text("garbage\n")
    r = subprocess.run([sys.executable, "-m", "twill", "regen", str(GEMM), "--arch", "h100", "--db", str(p)],
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a schedule database" in lines[0] and "Traceback" not in r.stderr


# -- concurrency and interruption ---------------------------------------------------------------------
def _writer(path: str, entry: Entry, tag: str, n: int, start: float) -> None:
    while time.time() < start:
        time.sleep(0.001)
    with open_db(path) as db:
        for i in range(n):
            db.put(_with_key(entry, i, tag))


def test_two_concurrent_writers_lose_nothing(tmp_path, real_entry):
    path = str(tmp_path / "s.sqlite")
    open_db(path).close()
    ctx = multiprocessing.get_context("spawn")
    start = time.time() + 3.0                                # both processes up before either writes
    procs = [ctx.Process(target=_writer, args=(path, real_entry, tag, 80, start)) for tag in ("a", "b")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    with open_db(path) as db:
        assert len(db) == 160
        assert {e.key.ttgir_sha for e in db.entries()} == {sha256(f"{t}{i}") for t in "ab" for i in range(80)}


def test_interrupted_regen_leaves_a_consistent_resumable_database(tmp_path):
    d = tmp_path / "k"
    d.mkdir()
    shutil.copy(GEMM, d / "gemm.py")
    db_path = tmp_path / "s.sqlite"
    cmd = [sys.executable, "-m", "twill", "regen", str(d / "gemm.py"), "--arch", "h100", "--arch", "h200",
           "--arch", "b200", "--swp-only", "--time-limit", "20", "--jobs", "1", "--db", str(db_path), "-q"]
    proc = subprocess.Popen(cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    stored = 0
    while time.time() < deadline and proc.poll() is None:
        if db_path.exists():
            try:
                stored = sqlite3.connect(db_path, timeout=5).execute("SELECT count(*) FROM schedules").fetchone()[0]
            except sqlite3.OperationalError:
                stored = 0
            if stored >= 1:
                break
        time.sleep(0.05)
    assert proc.poll() is None and stored >= 1, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGKILL)                         # the harshest interruption: no cleanup at all
    proc.wait(30)
    with open_db(db_path) as db:                              # quick_check passes on open
        kept = len(db)
        runs = db.runs()
    assert 1 <= kept < 3
    assert runs[-1]["finished"] is None                       # the killed run is visible as unfinished
    report = regen([str(d / "gemm.py")], ["h100", "h200", "b200"], db_path, _swp_opts())
    assert report.ok
    assert report.count("hit") == kept and report.count("solved") == 3 - kept
    assert report.entries == 3


def _swp_opts():
    from twill.pipeline import OptimizeOptions

    return OptimizeOptions(swp_only=True, time_limit=20)


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_an_unwritable_database_place_is_one_line_not_corrupt(tmp_path, where):
    """A --db where no file can be made is said so: not 'corrupt', no traceback."""
    if where == "proc":
        if not Path("/proc/self").exists():
            pytest.skip("no /proc")
        p = Path("/proc/twill-no-such-dir/s.sqlite")
    else:
        (tmp_path / "plain").write_text("a file, not a folder\n")
        p = tmp_path / "plain" / "s.sqlite"
    r = subprocess.run([sys.executable, "-m", "twill", "regen", str(GEMM), "--arch", "h100", "--db", str(p)],
                       capture_output=True, text=True, env=_env(), timeout=120)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr[-2000:]
    assert "cannot create the schedule database" in lines[0] and "corrupt" not in lines[0] and str(p) in lines[0]


def test_a_new_database_leaves_no_side_file(tmp_path):
    p = tmp_path / "s.sqlite"
    open_db(p).close()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["s.sqlite"]
