"""What the pages claim, held to the data: repository links only where a home is configured,
normalised values said and marked as such, the findings grouped, SSE events shown as frames."""
from __future__ import annotations

from agent_loop_sim.site.pages.conformance import repo_link


class _Ctx:
    repo_url = ""


def test_repository_files_are_linked_only_where_a_home_is_configured():
    ctx = _Ctx()
    assert repo_link(ctx, "recordings/x.json", "`x`") == "`x`"  # no home: named, not linked
    ctx.repo_url = "https://forge.example/p/"
    assert repo_link(ctx, "recordings/a b.json", "`x`") == "[`x`](https://forge.example/p/blob/main/recordings/a%20b.json)"
