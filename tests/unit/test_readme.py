"""The README shows no figure the program contradicts: bench/readme_figures.py runs the README's
commands and compares what it quotes; the documents it links exist and cover what they document."""
import importlib.util

import re
from pathlib import Path

import pytest

pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[2]


def _figures():
    spec = importlib.util.spec_from_file_location("readme_figures", ROOT / "bench" / "readme_figures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    mod = _figures()
    return mod, mod.Runs(tmp_path_factory.mktemp("readme"))


def test_every_figure_the_readme_quotes_is_the_programs(figures):
    mod, runs = figures
    bad = [f"{what}: {detail}" for what, ok, detail in mod.check_figures((ROOT / "README.md").read_text(), runs)
           if not ok]
    assert not bad, "\n".join(bad)


def test_every_measured_figure_is_in_the_results_file_it_cites():
    bad = [f"{what}: {detail}" for what, ok, detail in _figures().check_cited((ROOT / "README.md").read_text())
           if not ok]
    assert not bad, "\n".join(bad)


def test_the_readme_mentions_no_committed_file_that_is_not_there():
    readme = (ROOT / "README.md").read_text()
    assert not re.search(r"committed `schedules\.sqlite`", readme) or (ROOT / "schedules.sqlite").exists()
    for link in re.findall(r"\]\(((?:docs|bench|kernels|tests|twill)/[^)#\s]+)\)", readme):
        assert (ROOT / link).exists(), link


def test_the_documents_are_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text()
    assert "(docs/schedule-json.md)" in readme and "(docs/twill-spec.md)" in readme


def test_every_field_optimize_writes_is_documented(figures):
    """Top-level fields of a joint schedule, a modulo-only one and a graph input's."""
    _, runs = figures
    doc = (ROOT / "docs" / "schedule-json.md").read_text()
    keys = set(runs("main")[0]) | set(runs("main-swp")[0])
    keys |= {"annotated_ttgir", "run"}
    missing = sorted(k for k in keys if f"`{k}`" not in doc)
    assert not missing, missing
    joint = runs("main")[0]["joint"]
    assert not [k for k in joint if f"`{k}`" not in doc]


def test_every_twill_spec_key_is_documented():
    doc = (ROOT / "docs" / "twill-spec.md").read_text()
    code = "".join((ROOT / f).read_text() for f in ("twill/ir/load.py", "twill/ir/spec.py", "twill/store/regen.py"))
    read = set(re.findall(r"(?:merged|spec)\.get\(\"(\w+)\"", code))
    assert read >= {"kernel", "signature", "constexprs", "num_warps", "num_stages", "divisibility", "configs"}
    assert not [k for k in read | {"arch"} if f"`{k}`" not in doc]


def test_no_citation_of_a_document_the_repository_does_not_have():
    """FINDINGS.md was a research note outside the repository: a comment, a machine file or a
    document states the fact itself or cites a public source."""
    left = []
    for p in ROOT.rglob("*"):
        rel = p.relative_to(ROOT).as_posix()
        if (not p.is_file() or rel.startswith((".git/", "twill-out/")) or "/." in f"/{rel}" or rel == "tests/unit/test_readme.py"
                or p.suffix not in (".py", ".md", ".toml", ".txt", ".json", ".ttgir", ".sh", ".yml", "")):
            continue
        try:
            if "FINDINGS" in p.read_text(errors="strict"):
                left.append(rel)
        except (UnicodeDecodeError, OSError):
            pass
    assert not left, left


def test_ci_pins_what_the_interpreter_tests_need():
    constraints = (ROOT / ".ci" / "constraints.txt").read_text()
    assert re.search(r"^numpy<2\.4$", constraints, re.M) and re.search(r"^triton==3\.6\.0$", constraints, re.M)
    assert '"numpy<2.4"' in (ROOT / "pyproject.toml").read_text()
    run = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q torch --index-url https://download.pytorch.org/whl/cpu" in run
    assert "TWILL_CI=1 python3 -m pytest" in run
