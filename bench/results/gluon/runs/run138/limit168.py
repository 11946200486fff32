"""Generate a kernel whose Gluon candidates are solved under 168 registers a thread only (an experiment's variant:
mx_gemm's committed kernel before session 56 was the route's candidate at that limit)."""
import sys

import twill.gluon_route as r

r._attempts = lambda limit: [(True, 168)]
from twill.cli import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
