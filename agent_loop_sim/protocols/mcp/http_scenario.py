"""The part of an MCP scenario that only Streamable HTTP has: hand-written HTTP requests.

A scenario file that says ``"transport": "http"`` plays its sessions over Streamable HTTP; its
``raw`` sessions send ``requests`` (hand-written HTTP requests, no SDK client) where a stdio
file's raw sessions write ``lines``::

    {"method": "POST" | "GET" | "DELETE", "headers": [[NAME, VALUE], ...]?, "body": TEXT?}

``<session-N>`` in a header's value stands for the N-th session id the server issued (as the
transcript's normal form writes it), so a request can name the session it is in.
"""
from __future__ import annotations

from typing import Any

from ...errors import InputError
from ...jsonio import json_path
from ...schema import Field, check_object, describe

HTTP_METHODS = ("POST", "GET", "DELETE")
REQUEST_FIELDS = {"method": Field(str, choices=HTTP_METHODS), "headers": Field(list, required=False),
                  "body": Field(str, required=False)}


def validate_requests(raw: dict[str, Any], path: list[str | int]) -> None:
    requests = raw.get("requests")
    if not requests:
        raise InputError("a raw session over HTTP needs at least one request", path=json_path(path + ["requests"]))
    for i, request in enumerate(requests):
        here = path + ["requests", i]
        if type(request) is not dict:
            raise InputError(f"a request must be an object, got {describe(request)}", path=json_path(here))
        check_object(request, REQUEST_FIELDS, here, "a request")
        for j, header in enumerate(request.get("headers", [])):
            if (type(header) is not list or len(header) != 2 or not all(type(x) is str for x in header)
                    or any(c in x for x in header for c in "\r\n")):
                raise InputError("a header is [NAME, VALUE], two strings on one line",
                                 path=json_path(here + ["headers", j]))
        if request["method"] != "POST" and "body" in request:
            raise InputError(f"a {request['method']} has no body", path=json_path(here + ["body"]))


def check_transport(raw: dict[str, Any], transport: str, path: list[str | int]) -> None:
    """A raw session writes ``lines`` over stdio and sends ``requests`` over HTTP."""
    if raw.get("mode") != "raw":
        return
    wanted, other = ("requests", "lines") if transport == "http" else ("lines", "requests")
    if other in raw or wanted not in raw:
        raise InputError(f"a raw session over {transport} has {wanted!r}, not {other!r}",
                         path=json_path(path + ([other] if other in raw else [])))
