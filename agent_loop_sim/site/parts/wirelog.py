"""A session as a wire log: each message in its party's lane, numbered, summed up in one line,
linked to its request or reply, its HTTP envelope (A2A) above its JSON, the JSON folded by the
page's script when it is long. The values the normal form wrote are marked as such
(`NormalMarks`), an SSE event stands in its frame, and where the bytes as sent were kept
(`agent_loop_sim.as_sent`) each message has a switch to them (a ``<details>``: no script needed).

The log is written as HTML (a raw block in the page's Markdown), not as Markdown fences:
every line of a message's JSON gets its own element, so that a link such as
``#m3:/result/isError`` can mark the line it is about (`json_html`), and the build does not pay
for a Pygments formatter per message. Everything a recording holds goes through `html.escape`.
"""
from __future__ import annotations

import html
import json
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

from ...as_sent import sent_text
from ...normalise import NORMAL_FORMS, NormalForm
from ...transcript import Message, Transcript
from .markdown import visible

FOLD_LINES = 12  # a body longer than this is folded by the page's script (never without it)


# --- JSON Pointer (RFC 6901), the fragment's syntax after "#mN:" ---------------------------------

def pointer(parts: list[str | int] | tuple[str | int, ...]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


# --- a message's JSON, line by line ---------------------------------------------------------------

# Written by hand rather than from ``json.dumps(value, indent=2)`` re-lexed by Pygments: each line
# must know its JSON Pointer (for the evidence marks), and a build renders every message of every
# session. The tokens are those `json.dumps` writes (C's string encoder, ``repr`` for numbers),
# and carry Pygments' class names, so Material's colours for JSON apply as to its own code blocks.
_encode_string = json.encoder.encode_basestring  # what json.dumps(s, ensure_ascii=False) writes
_LITERALS = {None: '<span class="kc">null</span>', True: '<span class="kc">true</span>',
             False: '<span class="kc">false</span>'}
_EMPTY = {dict: '<span class="p">{}</span>', list: '<span class="p">[]</span>'}


def _text(token: str) -> str:
    """``html.escape(token, quote=False)``, told first whether there is anything to escape (most
    tokens have nothing, and this runs for every string of every message)."""
    return html.escape(token, quote=False) if "<" in token or ">" in token or "&" in token else token


@lru_cache(maxsize=4096)
def _key_html(key: str) -> str:
    # keys repeat across messages (jsonrpc, id, result, ...): each is escaped once
    return f'<span class="nt">{_text(_encode_string(key))}</span>: '


def _string_html(value: str) -> str:
    return f'<span class="s2">{_text(_encode_string(value))}</span>'


# ("2.0", ids, methods, names: most strings of a message were in the one before.) Short ones only,
# so that what the cache keeps for the serving process's life stays small.
_short_string_html = lru_cache(maxsize=8192)(_string_html)
_SHORT = 256


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _short_string_html(value) if len(value) <= _SHORT else _string_html(value)
    if kind is int:
        return f'<span class="mi">{int.__repr__(value)}</span>'
    if kind is float:
        return f'<span class="mf">{float.__repr__(value)}</span>'
    if kind in _EMPTY:
        return _EMPTY[kind]
    return _LITERALS[value]  # null, true, false


def _lines(value: Any, path: tuple | None, pad: str, head: str, comma: str,
           lines: list[str], paths: list[tuple] | None) -> None:
    """Append to ``lines`` the HTML of each line of ``json.dumps(value, indent=2)`` (``head``:
    the indent and key before the value), and to ``paths``, when given, each line's path."""
    kind = type(value)
    if (kind is dict or kind is list) and value:
        inner = pad + "  "
        last = len(value) - 1
        lines.append(head + ("{" if kind is dict else "["))
        if paths is not None:
            paths.append(path)
        if kind is dict:
            for i, (k, v) in enumerate(value.items()):
                _lines(v, path + (k,) if paths is not None else None, inner, inner + _key_html(k),
                       "" if i == last else ",", lines, paths)
        else:
            for i, v in enumerate(value):
                _lines(v, path + (i,) if paths is not None else None, inner, inner,
                       "" if i == last else ",", lines, paths)
        lines.append(pad + ("}" if kind is dict else "]") + comma)
    else:
        lines.append(head + _scalar(value) + comma)
    if paths is not None:
        paths.append(path)


# --- values the normal form wrote, marked as such ---------------------------------------------

def normal_title(rule: NormalForm) -> str:
    """What a mark says of its value (its ``title``)."""
    return f"normalised: the SDK sent {rule.sent} here"


class NormalMarks:
    """How one family's normalised values are found in its rendered messages, from the normal
    form's own rules (`agent_loop_sim.normalise.NORMAL_FORMS`): a form inside a string (A2A), a
    JSON-RPC message's own ``id`` (MCP), a header's value (MCP over HTTP). Each is wrapped in
    ``mark.nf`` with a title saying what the SDK sent there; nothing else is marked."""

    def __init__(self, rules: tuple[NormalForm, ...]) -> None:
        self.rules = rules
        self.ids = [r for r in rules if r.where == "id"]
        self.headers = [r for r in rules if r.where == "header"]
        strings = sorted((r for r in rules if r.where == "string"), key=lambda r: -len(r.pattern.pattern))
        # The forms as they stand in the escaped HTML (a form's "<" is "&lt;" there), longest
        # first, since a page token's form holds an id's.
        self._strings = strings
        self._in_html = re.compile("|".join(f"(?P<r{i}>{_escaped_pattern(r.pattern.pattern)})"
                                            for i, r in enumerate(strings))) if strings else None

    def mark(self, rule: NormalForm, shown_html: str) -> str:
        return f'<mark class="nf" title="{html.escape(normal_title(rule))}">{shown_html}</mark>'

    def line(self, line: str) -> str:
        """A rendered line with the forms inside its strings marked."""
        if self._in_html is None or "&lt;" not in line:
            return line
        return self._in_html.sub(lambda m: self.mark(self._strings[int(m.lastgroup[1:])], m.group(0)), line)

    def message_id(self, line: str, pad: str) -> str:
        """A message's own ``id`` line (``"id": "c1"``, indented by ``pad``) with its value
        marked, when a rule names it."""
        if not line.startswith(pad + _ID_KEY):
            return line
        m = _ID_VALUE.match(line, len(pad) + len(_ID_KEY))
        for rule in self.ids if m else ():
            if rule.pattern.fullmatch(m.group(1)):
                return line[:m.start()] + self.mark(rule, m.group(0)) + line[m.end():]
        return line

    def header(self, value: str) -> str:
        """A header's value, escaped, marked when a rule names it."""
        for rule in self.headers:
            if rule.pattern.fullmatch(value):
                return self.mark(rule, _esc(value))
        return _esc(value)

    def used(self, messages: list[Message]) -> list[NormalForm]:
        """The rules whose forms stand in ``messages`` (what a page lists), in the rules' order."""
        found: set[int] = set()
        spot = re.compile("|".join(f"(?P<r{i}>{r.pattern.pattern})" for i, r in enumerate(self._strings))) \
            if self._strings else None

        def walk(value: Any) -> None:
            kind = type(value)
            if kind is str:
                if spot is not None and "<" in value:
                    found.update(int(m.lastgroup[1:]) for m in spot.finditer(value))
            elif kind is dict:
                for v in value.values():
                    walk(v)
            elif kind is list:
                for v in value:
                    walk(v)

        used: set[int] = set()
        for m in messages:
            if not m.is_raw:
                walk(m.json)
                ids = [m.json.get("id")] if type(m.json) is dict else \
                    [x.get("id") for x in m.json if type(x) is dict] if type(m.json) is list else []
                used.update(id(r) for r in self.ids for i in ids if type(i) is str and r.pattern.fullmatch(i))
            for _, value in (http_of(m) or {}).get("headers", []) or []:
                used.update(id(r) for r in self.headers if isinstance(value, str) and r.pattern.fullmatch(value))
        used.update(id(self._strings[i]) for i in found)
        return [r for r in self.rules if id(r) in used]


def _escaped_pattern(pattern: str) -> str:
    # (the forms' patterns escape "<" and ">" as "<" and ">", re.escape leaving them alone, and
    # hold no "&" or quote)
    return pattern.replace("<", "&lt;").replace(">", "&gt;")


# A message's own id: its key as `_key_html` writes it, then a string value.
_ID_KEY = '<span class="nt">"id"</span>: '
_ID_VALUE = re.compile(r'<span class="s2">"([^"<&\\]*)"</span>')


@lru_cache(maxsize=8)
def normal_marks(family: str) -> NormalMarks | None:
    rules = NORMAL_FORMS.get(family)
    return NormalMarks(rules) if rules else None


def json_html(value: Any, marked: dict[str, str] | None = None,
              normal: NormalMarks | None = None) -> tuple[str, int]:
    """The pretty JSON as HTML lines (each a ``span.l``) and its line count. A line whose JSON
    Pointer is in ``marked`` gets that id (``{pointer: id}``) and the class ``ev``: evidence
    lines are marked in the HTML itself, so the mark needs no script. With ``normal``, the
    values the normal form wrote are marked (`NormalMarks`)."""
    lines: list[str] = []
    paths: list[tuple] | None = [] if marked else None  # most messages mark nothing: no paths kept
    _lines(value, (), "", "", "", lines, paths)
    if normal is not None:
        # a message's own id is a member of the object (two spaces in), or of a batch's (four)
        pad = "  " if type(value) is dict else "    "
        lines = [normal.message_id(normal.line(line), pad) for line in lines] if normal.ids \
            else [normal.line(line) for line in lines]
    if not marked:
        return '<span class="l">' + '</span>\n<span class="l">'.join(lines) + "</span>", len(lines)
    out, seen = [], set()
    for path, line in zip(paths, lines):
        p = pointer(path)
        if p in marked and p not in seen:
            seen.add(p)
            out.append(f'<span class="l ev" id="{html.escape(marked[p])}">{line}</span>')
        else:
            out.append(f'<span class="l">{line}</span>')
    return "\n".join(out), len(lines)


# --- what a message is, in one line ---------------------------------------------------------------

@dataclass
class Line:
    """A message summed up: ``what`` (the method, or what it answers) and its key fields."""

    what: str
    fields: list[tuple[str, str]]
    kind: str  # request, notification, result, error, http, raw, batch, other
    reply_to: int | None = None  # the request this message answers (1-based)
    replies: tuple[int, ...] = ()  # the messages answering this one

    def text(self) -> str:
        return self.what + "".join(f" · {k} {v}".rstrip() for k, v in self.fields)


def http_of(m: Message) -> dict[str, Any] | None:
    """The message's HTTP envelope (A2A), when the recording has one."""
    return m.http if isinstance(m.http, dict) else None


# json.dumps(value, ensure_ascii=False) and json.dumps(value, sort_keys=True), each encoder made
# once (json.dumps makes one per call when given an option).
_json_text = json.JSONEncoder(ensure_ascii=False).encode
_sorted_json = json.JSONEncoder(sort_keys=True).encode


def _short(value: Any, limit: int = 48) -> str:
    s = value if isinstance(value, str) else _json_text(value)
    s = visible(s).replace("\n", " ")
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _scalars(obj: Any, limit: int = 2) -> list[tuple[str, str]]:
    """The first few scalar members of an object (``_meta`` aside): a request's key fields
    (a tool's ``name``, a resource's ``uri``, a task's ``id``), whatever the method."""
    if not isinstance(obj, dict):
        return []
    out = []
    for k, v in obj.items():
        if k != "_meta" and isinstance(v, (str, int, float, bool)) and len(out) < limit:
            out.append(("params.id" if k == "id" else k, _short(v)))  # "id" alone is the JSON-RPC id
    return out


def find_key(value: Any, key: str, depth: int = 5) -> Any:
    """The first value of ``key`` in a breadth-first walk of ``value`` (a task's ``state``)."""
    level = [value]
    for _ in range(depth):
        nxt = []
        for v in level:
            if isinstance(v, dict):
                if key in v and isinstance(v[key], str):
                    return v[key]
                nxt += list(v.values())
            elif isinstance(v, list):
                nxt += v
        level = nxt
    return None


def _result_fields(result: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if not isinstance(result, dict):
        return [("value", _short(result))] if result is not None else []
    if len(result) == 1 and isinstance(next(iter(result.values())), dict):
        out.append(("event", next(iter(result))))  # A2A: {"task": …}, {"statusUpdate": …}, …
    if result.get("isError") is True:
        out.append(("isError", "true"))
    state = find_key(result, "state")
    if state:
        out.append(("state", state))
    for k, v in result.items():
        if isinstance(v, list) and k != "_meta":
            out.append((k, f"×{len(v)}"))
    if "structuredContent" in result:
        out.append(("structuredContent", ""))
    return out[:4]


_kept: dict[int, tuple[list[Message], list[Line]]] | None = None  # see `summaries_kept`


@contextmanager
def summaries_kept() -> Iterator[None]:
    """Within it, `summarise` works each list of messages out once and hands the same `Line`s
    to every later caller (a session's page, its era page, the feature and method indexes all
    sum up the same transcript). Each entry holds its list, so its id names it while kept; the
    whole is dropped on leaving, so an edit under serve is never answered from an older build."""
    global _kept
    outer = _kept
    _kept = {} if outer is None else outer
    try:
        yield
    finally:
        _kept = outer


def summarise(messages: list[Message]) -> list[Line]:
    """One `Line` per message, with requests and replies linked both ways: by JSON-RPC id, and
    an HTTP request without one (a card fetch, a body that is not JSON) to the next answer.
    The lines are read, never changed, by their callers (they may be shared: `summaries_kept`)."""
    if _kept is not None:
        hit = _kept.get(id(messages))
        if hit is not None and hit[0] is messages:
            return hit[1]
    lines = _summarise(messages)
    if _kept is not None:
        _kept[id(messages)] = (messages, lines)
    return lines


def _summarise(messages: list[Message]) -> list[Line]:
    lines: list[Line] = []
    open_requests: dict[tuple[str, str], int] = {}  # (sender, id) -> request number
    waiting: list[int] = []  # requests without an id, oldest first
    driver = messages[0].sender if messages else ""
    for n, m in enumerate(messages, 1):
        line = _line(m, open_requests, n, lines)
        if m.sender == driver and line.kind in ("http", "raw"):
            waiting.append(n)
        elif m.sender != driver and line.reply_to is None and line.kind not in ("request", "notification") \
                and waiting:
            line.reply_to = waiting.pop(0)
        if line.reply_to is not None:
            lines[line.reply_to - 1].replies += (n,)
        lines.append(line)
    return lines


def _key(party: str, request_id: Any) -> tuple[str, str]:
    return party, _sorted_json(request_id)


def _line(m: Message, open_requests: dict[tuple[str, str], int], n: int, before: list[Line]) -> Line:
    http = http_of(m) or {}
    if m.is_raw:
        what = f"{http['method']} {http.get('path', '')}: a body that is not JSON" if "method" in http \
            else "a line that is not JSON"
        return Line(what, [("text", _short(m.raw or "", 40))], "raw")
    j = m.json
    if "method" in http and j is None:  # an HTTP GET (the agent card)
        return Line(f"{http['method']} {http.get('path', '')}", [], "http")
    if isinstance(j, dict) and isinstance(j.get("method"), str) and isinstance(j.get("url"), str):
        return Line(f"{j['method']} {j['url']}", [], "http")  # the card fetch, as older recordings write it
    if isinstance(j, list):
        return Line(f"a batch of {len(j)}", [], "batch")
    if not isinstance(j, dict):
        return Line("HTTP " + str(http["status"]) if "status" in http else "a JSON value", [], "other")
    if "jsonrpc" not in j and ("status" in http or "body" in j or "status" in j):
        status = http.get("status", j.get("status"))
        body = j.get("body", j) if "body" in j or "status" in j else j
        fields = [("name", _short(body["name"]))] if isinstance(body, dict) and isinstance(body.get("name"), str) else []
        return Line(f"HTTP {status}" if status is not None else "HTTP response", fields, "http")
    method = j.get("method")
    if isinstance(method, str):
        params = j.get("params")
        if "id" in j:
            open_requests[_key(m.sender, j["id"])] = n
            fields = [("id", _short(j["id"]))] + _scalars(params)
            return Line(method, fields, "request")
        return Line(method, _scalars(params, 3), "notification")
    asked = open_requests.get(_key(m.receiver, j.get("id"))) if "id" in j else None
    of = f" of {before[asked - 1].what}" if asked else ""
    error = j.get("error")
    if isinstance(error, dict):
        fields = [("id", _short(j.get("id")))]
        if "message" in error:
            fields.append(("message", _short(error["message"], 60)))
        code = error.get("code")
        return Line(f"error {code if isinstance(code, int) else ''}{of}".replace("  ", " "), fields, "error", asked)
    if "result" in j:
        return Line(f"result{of}", [("id", _short(j.get("id")))] + _result_fields(j["result"]), "result", asked)
    return Line("a JSON object", [], "other", asked)


# --- words a reader searches for --------------------------------------------------------------

def keywords(transcript: Transcript) -> list[str]:
    """The protocol words of a session, each once: its name and mode, the methods, every JSON key,
    error codes with and without the minus sign, task states, tool and event names, header names."""
    words: dict[str, None] = {transcript.name: None, transcript.mode: None}

    def walk(value: dict | list) -> None:  # (called for objects and arrays only: most values are scalars)
        if type(value) is dict:
            for k, v in value.items():
                words.setdefault(k)
                kind = type(v)
                if kind is str:
                    if k in ("method", "state", "name") and len(v) <= 60 and " " not in v:
                        words.setdefault(v)
                elif kind is int:  # (not bool: true is no code)
                    if k == "code":
                        words.setdefault(str(v))
                        words.setdefault(str(abs(v)))
                elif kind is dict or kind is list:
                    walk(v)
        else:
            for v in value:
                if type(v) is dict or type(v) is list:
                    walk(v)

    for m in transcript.messages:
        if not m.is_raw and (type(m.json) is dict or type(m.json) is list):
            walk(m.json)
        for name, _ in (http_of(m) or {}).get("headers", []) or []:
            if isinstance(name, str):
                words.setdefault(name)
    return [w for w in words if w and not w.startswith("<")]


# --- the log as HTML ------------------------------------------------------------------------------

def _escaped(value: str) -> str:
    return html.escape(visible(value), quote=True)


_esc = lru_cache(maxsize=4096)(_escaped)  # parties, methods and ids repeat from message to message


def _http_html(http: dict[str, Any], normal: NormalMarks | None = None) -> str:
    if "method" in http:
        first = f'<span><b>{_esc(str(http["method"]))}</b> {_esc(str(http.get("path", "")))}</span>'
    else:
        first = f'<span><b>HTTP {_esc(str(http.get("status", "?")))}</b></span>'
    headers = "".join(f' <span class="hdr"><span class="hn">{_esc(str(k))}:</span> '
                      f'{normal.header(str(v)) if normal is not None else _esc(str(v))}</span>'
                      for k, v in (http.get("headers") or []) if isinstance(k, str))
    return f'<div class="msg-http">{first}{headers}</div>'


def _raw_html(raw: str) -> str:
    # A line with blanks at its ends, tabs or control characters is shown as a JSON string: as
    # text it would look like another line.
    shown = raw if raw.strip() and "\t" not in raw and raw == raw.strip() and visible(raw) == raw \
        else json.dumps(raw, ensure_ascii=False)
    note = "" if shown == raw else '<p class="msg-note">Not JSON; shown as a JSON string, since it holds blanks, ' \
        'tabs or control characters:</p>'
    # (escaped without the cache: a line may be long)
    return note + f'<div class="highlight"><pre><code class="language-text">{_escaped(shown)}</code></pre></div>'


def _frame_fields(frame: str | None) -> list[tuple[str, str]]:
    """The fields of an SSE frame as sent other than its data (``event``, ``id``, ``retry``)."""
    out = []
    for field_line in (frame or "").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        name, colon, value = field_line.partition(":")
        if colon and name and name != "data":
            out.append((name, value.removeprefix(" ")))
    return out


def _frame_html(m: Message, sent: dict[str, Any] | None) -> str:
    """An SSE event's frame around its body: the fields the frame had before its ``data:`` (from
    the wire lines as sent, where recorded), then ``data:``, whose JSON the body below is."""
    if sent is not None and "frame" in sent:
        fields = "".join(f'<span class="ff"><span class="fn">{_esc(k)}:</span> {_escaped(v)}</span>'
                         for k, v in _frame_fields(sent["frame"]))
        said = "the event as the SDK framed it; its data (below, pretty-printed) on one line"
    else:
        fields = ""
        said = "an SSE event; the recording keeps its data (below, pretty-printed), not its other lines"
    return f'<div class="msg-frame" title="{said}">{fields}<span class="ff"><span class="fn">data:</span> ↓</span></div>'


_LINE_END = re.compile(r"\r\n|\r|\n")
_ENDS = {"\r\n": "\\r\\n", "\r": "\\r", "\n": "\\n"}  # shown as JSON escapes them (no font lacks these)


def _sent_text(text: str) -> str:
    """Text as sent, escaped, its line ends shown (an SSE frame's ``\\r\\n`` and blank line)."""
    out, at = [], 0
    for m in _LINE_END.finditer(text):
        out.append(_escaped(text[at:m.start()]) + f'<span class="le">{_ENDS[m.group(0)]}</span>\n')
        at = m.end()
    out.append(_escaped(text[at:]))
    return "".join(out)


def as_sent_html(n: int, sent: dict[str, Any]) -> str:
    """A message as it crossed the wire (a sidecar entry of `agent_loop_sim.as_sent`): the
    envelope as written, then the line, body or frame exactly, every value the run's own."""
    http = sent.get("http")
    head = ""
    if isinstance(http, dict):
        first = (f'{_esc(str(http["method"]))} {_esc(str(http.get("path", "")))}' if "method" in http
                 else f'HTTP {_esc(str(http.get("status", "?")))}')
        head = first + "\n" + "".join(f"{_escaped(str(k))}: {_escaped(str(v))}\n" for k, v in http.get("headers") or [])
    text = sent_text(sent)
    if text is None:
        what = "no body" if "body" in sent else "no event: the stream ended empty" if "frame" in sent else ""
        body = f'<span class="le">({what})</span>' if what else ""
    else:
        body = _sent_text(text)
    kind = "an SSE frame" if "frame" in sent else "a line" if "line" in sent else "an HTTP body"
    gap = "\n" if head and text is not None else ""
    # (an id of its own: Material names a code block after the closest id, and the body's is the message's)
    return (f'<details class="msg-sent" id="m{n}-sent" data-search-exclude><summary title="this message exactly as it crossed the wire: ids, '
            f'times and session ids the run\'s own">as sent</summary><p class="msg-note">{kind} as the recorder caught it'
            f'{", after its envelope (the headers a recording keeps, named as sent)" if head else ""}:</p>'
            f'<div class="highlight"><pre><code class="language-text">{head}{gap}{body}</code></pre></div></details>')


def _field(key: str, value: str, normal: NormalMarks | None) -> str:
    """A summary's field value, escaped, a normal form in it marked as in the body."""
    if normal is None:
        return _esc(value)
    if key == "id":
        for rule in normal.ids:
            if rule.pattern.fullmatch(value):
                return normal.mark(rule, _esc(value))
    return normal.line(_esc(value))


def message_html(n: int, m: Message, line: Line, lane: str, marked: dict[str, str] | None = None,
                 notes: str = "", after: str = "", normal: NormalMarks | None = None,
                 sent: dict[str, Any] | None = None) -> str:
    """One message: its head (number and permalink, parties, summary, request/reply links), its
    HTTP envelope, ``notes`` (HTML: findings, differences), the body (an SSE event's in its
    frame), the switch to the message as sent (``sent``, a sidecar's entry, when recorded), then
    ``after`` (HTML). ``normal`` marks the values the normal form wrote."""
    sse = ' <span class="sse">SSE</span>' if m.sse else ""
    links = " ".join(f'<a class="msg-rel" href="#m{r}" title="its reply">reply {r} ↓</a>' for r in line.replies[:3])
    if len(line.replies) > 3:  # the rest folded, each still one click away
        more = " ".join(f'<a class="msg-rel" href="#m{r}" title="its reply">reply {r} ↓</a>' for r in line.replies[3:])
        links += f' <details class="msg-more"><summary>…{len(line.replies) - 3} more</summary>{more}</details>'
    if line.reply_to is not None:
        links += f' <a class="msg-rel" href="#m{line.reply_to}" title="the request it answers">↑ request {line.reply_to}</a>'
    fields = "".join(f' <span class="f"><span class="fk">{_esc(k)}</span> <code>{_field(k, v, normal)}</code></span>' if v
                     else f' <span class="f"><code>{_esc(k)}</code></span>' for k, v in line.fields)
    # Spaces between the parts: the search index reads the text, and "1client" is no word.
    head = (f'<div class="msg-head"><a class="msg-n" href="#m{n}" title="link to this message">{n}</a> '
            f'<span class="msg-dir">{_esc(m.sender)} → {_esc(m.receiver)}</span>{sse} '
            f'<span class="msg-what">{_esc(line.what)}</span>{fields} <span class="msg-links">{links}</span></div>')
    http = http_of(m)
    parts = [f'<section class="msg {lane} k-{line.kind}" id="m{n}">', head]
    if http:
        parts.append(_http_html(http, normal))
    parts.append(notes)
    if m.is_raw:
        body, count = _raw_html(m.raw or ""), 1
    elif m.json is None:
        body, count = "", 0
    else:
        lines, count = json_html(m.json, marked, normal)
        body = f'<div class="highlight"><pre><code class="language-json">{lines}</code></pre></div>'
    if m.sse and body:  # (above the body, not in it: seen when the body is folded too)
        parts.append(_frame_html(m, sent))
    if body:
        fold = " data-fold" if count > FOLD_LINES else ""
        parts.append(f'<details class="msg-body" open{fold} data-search-exclude><summary>{count} line'
                     f'{"s" if count != 1 else ""}</summary>{body}</details>')
    if sent is not None:
        parts.append(as_sent_html(n, sent))
    parts += [after, "</section>"]
    return "".join(p for p in parts if p)
