"""Every committed message checked against its revision's wire types, as the SDKs define them.

    python scripts/validate_wire.py           # write recordings/verdicts/wire_types.json
    python scripts/validate_wire.py --check   # exit 1 if the committed verdicts are not current

MCP messages are validated with ``mcp-types``' per-revision maps (``mcp_types.methods``): a
request or notification against ``CLIENT_/SERVER_REQUESTS`` / ``..._NOTIFICATIONS`` of the
revision the message is written in, a result against ``SERVER_/CLIENT_RESULTS`` of the request
it answers, an error against ``JSONRPCError``; pydantic's strict mode (no coercion). The
revision: 2026-07-28 for a client message carrying that envelope, the negotiated handshake
revision otherwise (2025-11-25 before ``initialize`` has answered); a server message is in the
revision of the client message before it. A method the revision does not define is a failure.

A2A messages are validated against the 1.0 protobuf types (``a2a.types.a2a_pb2``) with
protobuf's JSON parser, unknown fields refused: ``params`` against the method's request type,
a result against the method's response type, a stream event against ``StreamResponse``, the
card against ``AgentCard``; the JSON-RPC envelope itself (``jsonrpc``, ``id``, one of
``result``/``error``) is checked by hand. The normal form's ``<time>`` placeholder is read as a
fixed timestamp, so that a ``Timestamp`` field can be parsed.

This script imports the SDKs' type packages, so it lives with the recorders; the site only reads
the verdicts it writes.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from a2a.types import a2a_pb2  # noqa: E402
from google.protobuf import empty_pb2, json_format  # noqa: E402
from mcp_types import methods  # noqa: E402
from mcp_types.jsonrpc import JSONRPCError  # noqa: E402
from pydantic import ValidationError  # noqa: E402

from agent_loop_sim.project import Project  # noqa: E402
from agent_loop_sim.recording import load_recording  # noqa: E402
from agent_loop_sim.transcript import Message, Transcript  # noqa: E402

VERDICTS = "verdicts/wire_types.json"
STATELESS = "2026-07-28"
LATEST_HANDSHAKE = "2025-11-25"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"


def verdict(ok: bool | None, against: str, detail: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"verdict": {True: "valid", False: "invalid", None: "not checked"}[ok], "against": against}
    if detail:
        out["detail"] = detail
    return out


def _first_error(exc: ValidationError) -> str:
    e = exc.errors()[0]
    where = ".".join(str(p) for p in e["loc"]) or "$"
    return f"{where}: {e['msg']}"


# --- MCP ----------------------------------------------------------------------------------------

def _strict(model: Any, data: Any, label: str) -> dict[str, Any]:
    try:
        if hasattr(model, "model_validate"):
            model.model_validate(data, strict=True, by_name=False)
        else:
            methods._adapter(model).validate_python(data, strict=True, by_name=False)
    except ValidationError as exc:
        return verdict(False, label, _first_error(exc))
    return verdict(True, label)


def _name(model: Any) -> str:
    return getattr(model, "__name__", None) or " | ".join(getattr(a, "__name__", str(a)) for a in model.__args__)


def mcp_verdicts(transcript: Transcript) -> list[dict[str, Any]]:
    out = []
    handshake = LATEST_HANDSHAKE
    version = handshake
    asked: dict[tuple[str, Any], str] = {}  # (asker, id) -> method
    for m in transcript.messages:
        data = m.json
        if data is None and m.raw is None and m.http is not None:  # over HTTP: a GET, a DELETE, a 202...
            out.append(verdict(None, "HTTP " + str(m.http.get("method") or m.http.get("status")), "no body"))
            continue
        if m.raw is not None or data is None:
            out.append(verdict(False, "JSON-RPC", "not JSON"))
            continue
        if isinstance(data, list):
            out.append(verdict(False, "JSON-RPC", "a batch: no revision of MCP defines batches"))
            continue
        if not isinstance(data, dict):
            out.append(verdict(False, "JSON-RPC", "not a JSON object"))
            continue
        if m.sender == "client" and "method" in data:
            params = data.get("params")
            meta = params.get("_meta") if isinstance(params, dict) else None
            version = STATELESS if isinstance(meta, dict) and meta.get(ENVELOPE_VERSION) == STATELESS else handshake
        side = "client" if m.sender == "client" else "server"
        if "method" in data:
            kind = "REQUESTS" if "id" in data else "NOTIFICATIONS"
            surface = getattr(methods, f"{side.upper()}_{kind}")
            model = surface.get((data["method"], version)) if isinstance(data["method"], str) else None
            if "id" in data:
                asked[(side, json.dumps(data["id"]))] = data["method"]
            if model is None:
                out.append(verdict(False, version, f"{side} {kind.lower()[:-1]} {data['method']!r} is not defined in {version}"))
            else:
                out.append(_strict(model, data, f"{version} {model.__name__}"))
            continue
        if "error" in data:
            out.append(_strict(JSONRPCError, data, "JSONRPCError"))
            continue
        asker = "server" if side == "client" else "client"
        method = asked.get((asker, json.dumps(data.get("id"))))
        results = methods.SERVER_RESULTS if side == "server" else methods.CLIENT_RESULTS
        if method == "initialize":
            version = handshake  # answered as a handshake, whatever envelope the request carried
        model = results.get((method, version)) if method else None
        if model is None:
            why = "an answer to no request" if method is None else f"no {side} result for {method!r} in {version}"
            out.append(verdict(False, version, why))
        else:
            out.append(_strict(model, data.get("result"), f"{version} {_name(model)}"))
        if method == "initialize" and isinstance(data.get("result"), dict):
            handshake = version = data["result"].get("protocolVersion", handshake)
    return out


# --- A2A ----------------------------------------------------------------------------------------

A2A_PARAMS = {
    "SendMessage": a2a_pb2.SendMessageRequest, "SendStreamingMessage": a2a_pb2.SendMessageRequest,
    "GetTask": a2a_pb2.GetTaskRequest, "ListTasks": a2a_pb2.ListTasksRequest, "CancelTask": a2a_pb2.CancelTaskRequest,
    "CreateTaskPushNotificationConfig": a2a_pb2.TaskPushNotificationConfig,
    "GetTaskPushNotificationConfig": a2a_pb2.GetTaskPushNotificationConfigRequest,
    "ListTaskPushNotificationConfigs": a2a_pb2.ListTaskPushNotificationConfigsRequest,
    "DeleteTaskPushNotificationConfig": a2a_pb2.DeleteTaskPushNotificationConfigRequest,
    "SubscribeToTask": a2a_pb2.SubscribeToTaskRequest, "GetExtendedAgentCard": a2a_pb2.GetExtendedAgentCardRequest,
}
A2A_RESULTS = {
    "SendMessage": a2a_pb2.SendMessageResponse, "SendStreamingMessage": a2a_pb2.StreamResponse,
    "SubscribeToTask": a2a_pb2.StreamResponse, "GetTask": a2a_pb2.Task, "CancelTask": a2a_pb2.Task,
    "ListTasks": a2a_pb2.ListTasksResponse, "CreateTaskPushNotificationConfig": a2a_pb2.TaskPushNotificationConfig,
    "GetTaskPushNotificationConfig": a2a_pb2.TaskPushNotificationConfig,
    "ListTaskPushNotificationConfigs": a2a_pb2.ListTaskPushNotificationConfigsResponse,
    "DeleteTaskPushNotificationConfig": empty_pb2.Empty, "GetExtendedAgentCard": a2a_pb2.AgentCard,
}
TIME = "2026-01-01T00:00:00Z"


def _denormalised(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _denormalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_denormalised(v) for v in value]
    return TIME if value == "<time>" else value


def _proto(kind: Any, value: Any) -> dict[str, Any]:
    label = f"1.0 {kind.DESCRIPTOR.name}"
    if not isinstance(value, dict):
        return verdict(False, label, "not a JSON object")
    try:
        json_format.ParseDict(_denormalised(value), kind(), ignore_unknown_fields=False)
    except json_format.ParseError as exc:
        return verdict(False, label, str(exc).splitlines()[0])
    return verdict(True, label)


def _envelope_problem(body: dict[str, Any], request: bool) -> str | None:
    if body.get("jsonrpc") != "2.0":
        return "jsonrpc is not \"2.0\""
    rid = body.get("id")
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, (str, int))):
        return f"id {json.dumps(rid)} is not a string, an integer or null"
    if request:
        return None if isinstance(body.get("method"), str) else "method is not a string"
    if ("result" in body) == ("error" in body):
        return "a response has exactly one of result and error"
    return None


def _a2a_response(body: Any, method: str | None) -> dict[str, Any]:
    if not isinstance(body, dict):
        return verdict(False, "JSON-RPC 2.0", "not a JSON object")
    problem = _envelope_problem(body, request=False)
    if problem:
        return verdict(False, "JSON-RPC 2.0", problem)
    if "error" in body:
        error = body["error"]
        ok = isinstance(error, dict) and type(error.get("code")) is int and isinstance(error.get("message"), str)
        return verdict(ok, "JSON-RPC 2.0 error", "" if ok else "an error has an integer code and a string message")
    if method not in A2A_RESULTS:
        return verdict(False, "1.0", f"a result for {method!r}, which 1.0 does not define")
    return _proto(A2A_RESULTS[method], body["result"])


def a2a_verdicts(transcript: Transcript) -> list[dict[str, Any]]:
    out = []
    method: str | None = None
    for m in transcript.messages:
        data = m.json
        if m.sender == "orchestrator":
            if (m.http or {}).get("method") == "GET":
                method = "card"
                out.append(verdict(None, "HTTP GET", "a card fetch has no body"))
                continue
            body = data
            if m.is_raw:  # a raw post: its text, exactly as written
                try:
                    body = json.loads(m.raw)
                except ValueError:
                    method = None
                    out.append(verdict(False, "JSON-RPC 2.0", "not JSON"))
                    continue
            if not isinstance(body, dict):
                method = None
                out.append(verdict(False, "JSON-RPC 2.0", "a batch" if isinstance(body, list) else "not a JSON object"))
                continue
            method = body.get("method") if isinstance(body.get("method"), str) else None
            problem = _envelope_problem(body, request=True)
            if problem or "id" not in body:
                out.append(verdict(False, "JSON-RPC 2.0", problem or "no id: a notification, which A2A does not define"))
            elif method not in A2A_PARAMS:
                out.append(verdict(False, "1.0", f"{method!r} is not a 1.0 method"))
            else:
                out.append(_proto(A2A_PARAMS[method], body.get("params", {})))
            continue
        if method == "card":
            out.append(_proto(a2a_pb2.AgentCard, data) if data is not None
                       else verdict(None, f"HTTP {(m.http or {}).get('status')}", "no body"))
            continue
        out.append(_a2a_response(data, method) if not m.is_raw else verdict(False, "JSON-RPC 2.0", "not JSON"))
    return out


# --- the file -----------------------------------------------------------------------------------

def all_verdicts(project: Project) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for file in project.scenario_files():
        recording = load_recording(str(project.recording_path(file)))
        check = mcp_verdicts if recording.family == "mcp" else a2a_verdicts
        for t in recording.sessions:
            out[t.name] = check(t)
    return {"about": "Each committed message against its revision's wire types (scripts/validate_wire.py).",
            "sessions": dict(sorted(out.items()))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="validate_wire", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed verdicts, write nothing")
    args = parser.parse_args(argv)
    project = Project(ROOT)
    text = json.dumps(all_verdicts(project), indent=1, ensure_ascii=False) + "\n"
    path = project.recording_dir / VERDICTS
    if args.check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path.relative_to(ROOT)} is not current: run python scripts/validate_wire.py", file=sys.stderr)
            return 1
        print(f"same {path.relative_to(ROOT)}")
        return 0
    path.write_text(text, encoding="utf-8")
    counts: dict[str, int] = {}
    for verdicts in json.loads(text)["sessions"].values():
        for v in verdicts:
            counts[v["verdict"]] = counts.get(v["verdict"], 0) + 1
    print(f"wrote {path.relative_to(ROOT)}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
