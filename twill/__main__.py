import sys

try:
    from twill.cli import main
except KeyboardInterrupt:        # Ctrl-C before main() takes over SIGINT: the same one line
    print("twill: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
