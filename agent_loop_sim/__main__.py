"""``python -m agent_loop_sim``: the command line (`agent_loop_sim.cli`).

A SIGTERM or a Ctrl-C that arrives while the command line is still importing its modules (the
first tenth of a second or so, before `cli.main` takes over both) ends it as `main` would: one
line and the usual exit status, not a silent death or a traceback. Nothing has been written then.
"""
import signal
import sys


def _terminated_while_starting(signum: int, frame: object) -> None:
    print("terminated: stopped while starting; nothing was written", file=sys.stderr)
    sys.exit(143)


signal.signal(signal.SIGTERM, _terminated_while_starting)
try:
    from .cli import main
except KeyboardInterrupt:  # (a CLI started with SIGINT ignored keeps it ignored: see cli.main)
    print("interrupted: stopped while starting; nothing was written", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
