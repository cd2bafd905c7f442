"""A flat two-part SVG badge ("conformance | 26/26 sessions"), drawn without any service."""
from __future__ import annotations

from html import escape

# Approximate advance widths of 11px Verdana (the usual badge font), in pixels.
_NARROW = set("fijlrt!|.,:;'()[]/ ")
_WIDE = set("mwMW@%")


def _width(label: str) -> int:
    return round(sum(3.6 if c in _NARROW else 10.5 if c in _WIDE else 7.0 for c in label)) + 12


def badge(label: str, message: str, color: str) -> str:
    left, right = _width(label), _width(message)
    total = left + right
    label_x, message_x = left / 2, left + right / 2
    title = escape(f"{label}: {message}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        f'<stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{color}"/>'
        f'<rect width="{total}" height="20" fill="url(#s)"/></g>'
        f'<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{label_x}" y="15" fill="#010101" fill-opacity=".3">{escape(label)}</text>'
        f'<text x="{label_x}" y="14">{escape(label)}</text>'
        f'<text x="{message_x}" y="15" fill="#010101" fill-opacity=".3">{escape(message)}</text>'
        f'<text x="{message_x}" y="14">{escape(message)}</text></g></svg>\n'
    )


def conformance_badge(passed: int, total: int) -> str:
    color = "#2e7d32" if passed == total and total else "#c62828"
    return badge("conformance", f"{passed}/{total} sessions", color)
