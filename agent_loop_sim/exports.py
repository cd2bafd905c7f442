"""What can be taken away: a session as JSON Lines or (A2A) a HAR file, a run as JUnit XML.

Pure functions, text in and text out; the command line (``export``) and the site's build write
the files. Every format comes from the transcripts and the report as they are, in the project's
normal form (A2A ids as ``<id-N>``, timestamps as ``<time>``), so an export of a committed
recording says what the site shows, byte for byte on every build (no dates, no clocks).

- `transcript_jsonl` / `read_jsonl`: one message per line, ``{"n", "from", "to", "sse",
  "http"?, "json" | "raw"}``, as a recording file writes each message.
- `transcript_har`: HAR 1.2 (https://w3c.github.io/web-performance/specs/HAR/Overview.html), one
  entry per HTTP exchange, a stream's events as one ``text/event-stream`` body.
- `report_junit`: JUnit XML, one ``testsuite`` per recording file, one ``testcase`` per session,
  a failing session's ``failure`` carrying its first difference.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from http import HTTPStatus
from typing import Any

from .check import Report, RecordingResult
from .names import path_part
from .normalise import NORMAL_FORMS
from .transcript import Message, Transcript

#: What a HAR file says of itself (HAR requires a creator and a start time per entry; the
#: exchanges have no clock, so every entry starts at the epoch and takes no time, and each entry
#: says so in its comment, as it says that the host stands in for one the recording never had).
HAR_EPOCH = "1970-01-01T00:00:00.000Z"
HAR_COMMENT = ("Exported by agent_loop_sim from a transcript in its normal form, not as the bytes crossed the wire: "
               + "; ".join(f"{r.form} stands where the SDK sent {r.sent}" for r in NORMAL_FORMS["a2a"])
               + ". JSON bodies are written compact; only the headers that matter are kept.")


def har_entry_comment(base_url: str) -> str:
    """What each entry says of the values HAR requires but the recording does not have."""
    return (f"Not recorded: the time (startedDateTime is the epoch and time 0, placeholders) and the host "
            f"({base_url.rstrip('/')} is the URL the agent's card names; the recording keeps only the path). "
            f"Bodies in the normal form (see the log's comment).")


#: Where the site publishes them (the session pages link them; CI reads the JUnit file).
JUNIT_FILE = "conformance.junit.xml"


def jsonl_path(family: str, session: str) -> str:
    return f"exports/{family}/{path_part(session)}.jsonl"


def har_path(session: str) -> str:
    return f"exports/a2a/{path_part(session)}.har"


#: JSON on one line, as json.dumps(value, ensure_ascii=False, separators=(",", ":")) writes it
#: (one encoder for every message: json.dumps makes a new one per call when given options).
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


# --- JSON Lines -----------------------------------------------------------------------------------

# Characters that JSON leaves as they are but that many line readers (Python's splitlines, editors)
# take for the end of a line; escaped, a message stays on one line wherever it is read.
_LINE_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}


def transcript_jsonl(transcript: Transcript) -> str:
    """One line per message, numbered from 1, as a recording file writes it."""
    text = "".join(_compact(m.to_dict(n)) + "\n" for n, m in enumerate(transcript.messages, 1))
    for char, escaped in _LINE_BREAKS.items():  # (inside strings only: JSON has them nowhere else)
        text = text.replace(char, escaped)
    return text


def read_jsonl(text: str) -> list[Message]:
    """The messages of `transcript_jsonl`'s text (for the tests and for a reader's own tools)."""
    out = []
    for line in filter(None, text.split("\n")):
        d = json.loads(line)
        out.append(Message(d["from"], d["to"], json=d.get("json"), raw=d.get("raw"), sse=d["sse"], http=d.get("http")))
    return out


# --- HAR 1.2 --------------------------------------------------------------------------------------

def _body_text(m: Message) -> str:
    if m.raw is not None:
        return m.raw
    return "" if m.json is None else _compact(m.json)


def _har_headers(http: dict[str, Any]) -> list[dict[str, str]]:
    return [{"name": name, "value": value} for name, value in http.get("headers", [])]


def _content_type(http: dict[str, Any], default: str) -> str:
    return next((v for k, v in http.get("headers", []) if k.lower() == "content-type"), default)


def _status_text(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def exchanges(messages: list[Message]) -> list[tuple[Message, list[Message]]]:
    """Each request (a message with an HTTP method) and the messages that answer it."""
    out: list[tuple[Message, list[Message]]] = []
    for m in messages:
        if m.http is not None and "method" in m.http:
            out.append((m, []))
        elif out:
            out[-1][1].append(m)
    return out


def _har_entry(request: Message, answer: list[Message], base_url: str) -> dict[str, Any]:
    http = request.http or {}
    body = _body_text(request)
    har_request: dict[str, Any] = {
        "method": http["method"], "url": base_url.rstrip("/") + http["path"], "httpVersion": "HTTP/1.1",
        "cookies": [], "headers": _har_headers(http), "queryString": [], "headersSize": -1,
        "bodySize": len(body.encode("utf-8")),
    }
    if request.raw is not None or request.json is not None:  # a GET has none
        har_request["postData"] = {"mimeType": _content_type(http, ""), "text": body}
    reply = (answer[0].http if answer else None) or {}
    stream = bool(answer) and answer[0].sse
    if stream:  # framed as the SDK's server frames events (sse-starlette)
        text = "".join(f"data: {_body_text(event)}\r\n\r\n" for event in answer)
    else:
        text = _body_text(answer[0]) if answer else ""
    size = len(text.encode("utf-8"))
    content: dict[str, Any] = {"size": size, "mimeType": _content_type(reply, "text/event-stream" if stream else "")}
    if text:
        content["text"] = text
    status = reply.get("status", 0)
    return {
        "startedDateTime": HAR_EPOCH, "time": 0, "comment": har_entry_comment(base_url), "request": har_request,
        "response": {"status": status, "statusText": _status_text(status), "httpVersion": "HTTP/1.1",
                     "cookies": [], "headers": _har_headers(reply), "content": content, "redirectURL": "",
                     "headersSize": -1, "bodySize": size},
        "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0},
    }


def transcript_har(transcript: Transcript, base_url: str, version: str) -> str:
    """The HTTP exchanges of an A2A session as a HAR 1.2 log; ``base_url`` is the agent's
    (a transcript keeps only paths), ``version`` the generator's."""
    log = {"log": {"version": "1.2", "creator": {"name": "agent_loop_sim", "version": version},
                   "comment": f"{HAR_COMMENT} Session {transcript.name}: {transcript.title}",
                   "entries": [_har_entry(request, answer, base_url)
                               for request, answer in exchanges(transcript.messages)]}}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


# --- JUnit XML --------------------------------------------------------------------------------------

# XML 1.0 cannot carry most control characters, even escaped; a recording's text may hold them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _suite(file: RecordingResult) -> ET.Element:
    suite = ET.Element("testsuite", name=_xml_text(file.recording_file))
    failures = errors = 0
    if file.error is not None:  # the recording could not be read or belongs to another family
        case = ET.SubElement(suite, "testcase", classname=_xml_text(file.recording_file), name="(recording)")
        ET.SubElement(case, "error", message=_xml_text(file.error), type="unreadable").text = _xml_text(file.error)
        errors += 1
    for s in file.sessions:
        case = ET.SubElement(suite, "testcase", classname=_xml_text(file.recording_file), name=_xml_text(s.name))
        if s.engine_error is not None:
            ET.SubElement(case, "error", message=_xml_text(s.engine_error), type="engine").text = _xml_text(s.engine_error)
            errors += 1
        elif not s.passed:
            lines = [d.render("committed", "engine") for d in s.differences] or [f"session {s.name!r}: not compared"]
            ET.SubElement(case, "failure", message=_xml_text(lines[0]), type="difference").text = \
                _xml_text("\n".join(lines))
            failures += 1
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    return suite


def report_junit(report: Report) -> str:
    """The run as JUnit XML: what CI systems read (one testsuite per recording file)."""
    root = ET.Element("testsuites", name="agent_loop_sim conformance")
    if report.errors:  # the scenario files themselves could not be read: no file to group by
        suite = ET.SubElement(root, "testsuite", name="scenarios", tests=str(len(report.errors)), failures="0",
                              errors=str(len(report.errors)))
        for i, error in enumerate(report.errors, 1):
            case = ET.SubElement(suite, "testcase", classname="scenarios", name=f"scenario files ({i})")
            ET.SubElement(case, "error", message=_xml_text(error), type="unreadable").text = _xml_text(error)
    for file in report.files:
        root.append(_suite(file))
    for key in ("tests", "failures", "errors"):
        root.set(key, str(sum(int(suite.get(key, "0")) for suite in root)))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
