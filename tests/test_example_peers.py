"""The worked example of the page "Use the simulator in your tests", run as it is shown.

The example lives beside the page that shows it (``agent_loop_sim/site/use_in_tests_example.txt``),
so the site can render it from any copy of the package; its fixtures and tests run here."""
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "agent_loop_sim" / "site" / "pages" / "use_in_tests_example.txt"
exec(compile(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE), "exec"))  # noqa: S102 - the example's tests
