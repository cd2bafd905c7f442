"""A state table drawn as a diagram: inline SVG written here (no script, no CDN), from the table's
rows, so the picture cannot say something the table does not.

The table's first column is the state now, the others the inputs, each cell the state afterwards
or "—" for a refusal. The picture groups the states by what they take: the starting row (no task
yet), the states that take inputs (drawn as one box: they move among each other), and the states
that take none (terminal). An arrow from the box to a terminal state names the inputs that end
there; the inputs that leave the state as it is are named under the box.
"""
from __future__ import annotations

import html
from typing import Sequence

REFUSED = "—"


def _esc(value: str) -> str:
    return html.escape(str(value), quote=True)


def diagram(head: Sequence[str], rows: Sequence[Sequence[str]], title: str) -> str:
    """The table as an SVG; rows whose cells are all refusals are the terminal states."""
    inputs = [str(h) for h in head[1:]]
    states = [str(r[0]) for r in rows]
    terminal = [str(r[0]) for r in rows if all(c == REFUSED for c in r[1:])]
    start = [r for r in rows if str(r[0]) not in terminal and str(r[0]) not in
             {str(c) for other in rows for c in other[1:]}]  # a row no input leads to
    active = [str(r[0]) for r in rows if str(r[0]) not in terminal and r not in start]
    ends: dict[str, list[str]] = {t: [] for t in terminal}
    kept: list[str] = []
    for i, name in enumerate(inputs):
        targets = {str(r[i + 1]) for r in rows if str(r[0]) in active}
        for t in terminal:
            if t in targets:
                ends[t].append("status update" if name == t else name)
        if all(str(r[i + 1]) == str(r[0]) for r in rows if str(r[0]) in active):
            kept.append(name)
    row_h, pad = 26, 14
    box_h = pad * 2 + row_h * len(active) + 24
    term_h = max(len(terminal), 1) * (row_h + 14)
    height = max(box_h, term_h) + 40
    width = 760
    box_x, box_w = 200, 230
    term_x, term_w = 600, 150
    out = [f'<svg class="lifecycle" role="img" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{_esc(title)}</title>",
           '<defs><marker id="lc-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>',
           '<g fill="none" stroke="currentColor" stroke-width="1.2" font-size="13" font-family="inherit">']
    box_y = 20
    mid = box_y + box_h / 2
    for r in start:  # the starting row, and where its inputs lead
        first = next((str(c) for c in r[1:] if c != REFUSED), "")
        out.append(f'<rect x="10" y="{mid - 16}" width="120" height="32" rx="16" stroke-dasharray="4 3"/>')
        out.append(f'<text x="70" y="{mid + 5}" text-anchor="middle" fill="currentColor" stroke="none">{_esc(r[0])}</text>')
        out.append(f'<line x1="130" y1="{mid}" x2="{box_x}" y2="{mid}" marker-end="url(#lc-arrow)"/>')
        out.append(f'<text x="{(130 + box_x) / 2}" y="{mid - 6}" text-anchor="middle" fill="currentColor" stroke="none" '
                   f'font-size="11">{_esc(first)}</text>')
    out.append(f'<rect x="{box_x}" y="{box_y}" width="{box_w}" height="{box_h}" rx="10"/>')
    out.append(f'<text x="{box_x + 10}" y="{box_y + 18}" fill="currentColor" stroke="none" font-size="11">'
               f'takes every input; moves among these</text>')
    for i, name in enumerate(active):
        y = box_y + pad + 14 + i * row_h
        out.append(f'<rect x="{box_x + 15}" y="{y}" width="{box_w - 30}" height="{row_h - 6}" rx="10" class="lc-state"/>')
        out.append(f'<text x="{box_x + box_w / 2}" y="{y + 15}" text-anchor="middle" fill="currentColor" '
                   f'stroke="none">{_esc(name)}</text>')
    if kept:
        out.append(f'<text x="{box_x + box_w / 2}" y="{box_y + box_h + 16}" text-anchor="middle" fill="currentColor" '
                   f'stroke="none" font-size="11">unchanged by {_esc(", ".join(kept))}</text>')
    for i, t in enumerate(terminal):
        y = 20 + i * (row_h + 14)
        out.append(f'<rect x="{term_x}" y="{y}" width="{term_w}" height="{row_h}" rx="4" stroke-width="2.2"/>')
        out.append(f'<text x="{term_x + term_w / 2}" y="{y + 17}" text-anchor="middle" fill="currentColor" '
                   f'stroke="none">{_esc(t)}</text>')
        out.append(f'<line x1="{box_x + box_w}" y1="{mid}" x2="{term_x}" y2="{y + row_h / 2}" marker-end="url(#lc-arrow)"/>')
        out.append(f'<text x="{term_x - 8}" y="{y + row_h / 2 - 4}" text-anchor="end" fill="currentColor" stroke="none" '
                   f'font-size="10">{_esc(" or ".join(ends[t]))}</text>')
    out += ["</g>", "</svg>"]
    return "".join(out)
