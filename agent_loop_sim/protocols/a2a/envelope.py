"""The JSON-RPC envelope as the SDK's dispatcher reads it, before any A2A method runs.

A POST body goes through these gates in order, and the first that fails answers (as
``a2a.server.routes.jsonrpc_dispatcher`` does, with the ``json-rpc`` package's request
checks):

1. the body is JSON, else -32700 with the JSON decoder's own message and a null id;
2. the ``id`` echoed in any error from here on is the body's ``id`` when it is a string or an
   integer (``true`` counts as an integer, as in Python), else null;
3. ``json-rpc``'s request checks: a batch is a list of objects (-32600 "Batch requests are not
   supported" when it is one; its parse errors otherwise), an object has ``jsonrpc`` and
   ``method`` and only those two plus ``params`` and ``id``, ``method`` is a string not
   starting ``rpc.``, ``params`` an array or an object, ``id`` a string or an integer; each
   failure is -32600 "Invalid Request" carrying its ``parseError``;
4. ``jsonrpc`` is exactly "2.0"; 5. ``method`` is not empty; 6. the method is one the SDK
   serves (-32601); 7. ``params`` read into the method's protobuf type (`types.parse`);
   an array is iterated as if its items were field names: strings naming no field are skipped
   (so it reads as no params at all), a number, ``true`` or ``null`` fails (-32602 "Invalid
   params" with protobuf's ``parseError``).

A request without ``id`` (a notification) is answered like any other, with a null id.
"""
from __future__ import annotations

import json
from typing import Any

from . import types
from .errors import A2AError, JsonRpcError
from .http import HttpRequest


class NotModelled(Exception):
    """An envelope whose answer the engine does not model (the agent raises its own NotModelled)."""


class Refused(Exception):
    """The envelope failed a gate: answer ``error`` to ``request_id``."""

    def __init__(self, request_id: Any, error: A2AError | JsonRpcError) -> None:
        super().__init__(str(error))
        self.request_id, self.error = request_id, error


_REQUIRED, _POSSIBLE = ("jsonrpc", "method"), ("jsonrpc", "method", "params", "id")
_REQUIRED_SET, _POSSIBLE_SET = frozenset(_REQUIRED), frozenset(_POSSIBLE)
_RESERVED = ("Method names that begin with the word rpc followed by a period character (U+002E or ASCII 46) "
             "are reserved for rpc-internal methods and extensions and MUST NOT be used for anything else.")


def _is_id(value: Any) -> bool:
    return isinstance(value, (str, int))  # bool included: it is an int to Python, and so to the SDK


def _python_set(names: list[str]) -> str:
    """How Python prints a set of strings; with two or more, the order depends on the hash seed."""
    if not names:
        return "set()"
    if len(names) > 1:
        raise NotModelled("the SDK names several fields as a Python set, whose order depends on the hash seed "
                          "(finding a2a-envelope-field-sets)")
    return "{" + repr(names[0]) + "}"


def _parse_error(problem: str) -> A2AError:
    return A2AError("InvalidRequestError", data={"parseError": problem})


def _check_object(item: dict[str, Any]) -> None:
    """``json-rpc``'s ``JSONRPC20Request.from_data`` for one object (raises its message)."""
    keys = item.keys()
    if not (_REQUIRED_SET <= keys <= _POSSIBLE_SET):
        extra = [k for k in keys if k not in _POSSIBLE]
        missed = [k for k in _REQUIRED if k not in keys]
        raise ValueError(f"Invalid request. Extra fields: {_python_set(extra)}, Missed fields: {_python_set(missed)}")
    method = item["method"]
    if not isinstance(method, str):
        raise ValueError("Method should be string")
    if method.startswith("rpc."):
        raise ValueError(_RESERVED)
    params = item.get("params")
    if params is not None and not isinstance(params, (list, dict)):
        raise ValueError(f"Incorrect params {params}")  # (a string, number or boolean, as Python prints it)
    if item.get("id") is not None and not _is_id(item["id"]):
        raise ValueError("id should be string or integer")


def decode(request: HttpRequest) -> Any:
    """The body as JSON: a raw post's text is decoded here (gate 1)."""
    if request.raw is None:
        return request.body
    try:
        return json.loads(request.raw)
    except json.JSONDecodeError as exc:  # the same decoder as Starlette's Request.json()
        raise Refused(None, JsonRpcError(-32700, str(exc))) from None


def read(request: HttpRequest, methods: dict[str, str],
         refuse_boolean_ids: bool = False) -> tuple[Any, str, dict[str, Any]]:
    """(id, method, params read into the method's type), or `Refused`. ``refuse_boolean_ids``:
    the releases that refuse ``true``/``false`` as an id (a2a-sdk 1.3.0, `releases`)."""
    body = decode(request) if request.raw is not None else request.body  # (no call for a JSON body)
    request_id = body.get("id") if isinstance(body, dict) else None
    boolean_id = isinstance(request_id, bool)
    if not _is_id(request_id) or (boolean_id and refuse_boolean_ids):
        request_id = None
    try:
        if type(body) is dict:  # one object, as nearly every request is: no list of items made for it
            _check_object(body)
        else:
            items = body if isinstance(body, list) else [body]
            if not items:
                raise ValueError("[] value is not accepted")
            for item in items:  # (every item first, then each item's fields)
                if not isinstance(item, dict):
                    raise ValueError("Each request should be an object (dict)")
            for item in items:
                _check_object(item)
    except ValueError as exc:
        raise Refused(request_id, _parse_error(str(exc))) from None
    if isinstance(body, list):
        raise Refused(request_id, A2AError("InvalidRequestError", "Batch requests are not supported"))
    if body.get("jsonrpc") != "2.0":
        raise Refused(request_id, A2AError("InvalidRequestError", "Invalid request: 'jsonrpc' must be exactly '2.0'"))
    if boolean_id and refuse_boolean_ids:
        raise Refused(None, A2AError("InvalidRequestError", "Invalid request: id must be a string, integer, or null"))
    request_id = body.get("id")
    method = body["method"]
    if not method:
        raise Refused(request_id, A2AError("InvalidRequestError", "Method is required"))
    if method not in methods:
        raise Refused(request_id, JsonRpcError(-32601, "Method not found"))
    params = body.get("params", {})
    if params is None:  # protobuf's ParseDict iterates the params as a mapping's names
        problem = f"'{type(params).__name__}' object is not iterable"
        raise Refused(request_id, A2AError("InvalidParamsError", data={"parseError": problem}))
    try:  # (an array is read as if its items were field names, as protobuf iterates it)
        return request_id, method, types.parse(methods[method], params)
    except types.ParseFailure as exc:
        raise Refused(request_id, A2AError("InvalidParamsError", data={"parseError": str(exc)})) from None
