"""Generate a kernel with its schedule solved in one stage (an experiment's variant)."""
import sys
import twill.gluon_route as r
orig = r._candidate
r._candidate = lambda *a, **k: orig(*a, **{**k, "one_stage": True})
from twill.cli import main
sys.exit(main(sys.argv[1:]))
