"""Playing a scenario session: the client model and the server model, wired as stdio would.

Messages are delivered in the order they are written, one at a time (a FIFO per direction,
interleaved as the wire interleaves them), and every message is logged as it crosses, just
as the recorder's tee logs the lines. Raw sessions skip the client model: their lines go to
the server as they are.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from ...errors import InputError
from ...transcript import Message
from . import jsonrpc
from .client import Answers, ClientModel
from .definition import ServerDefinition
from .releases import MCP_RELEASES
from .server import ServerConnection

if TYPE_CHECKING:  # (the loader reads the family registry, which reads this module)
    from ...scenarios import Session

#: Told, after the server has handled a message, how many messages are logged and the server's
#: state (``ServerConnection.state``): the playground shows it message by message.
Observer = Callable[[int, dict[str, Any]], None]


#: ``json.loads`` without its checks ahead of the decoder (the argument's type, and a leading byte
#: order mark, which fails as JSON here all the same): a raw session decodes every line it sends.
_decode = json.JSONDecoder().decode


def play_raw(lines: list[str], server: ServerConnection, observe: Observer | None = None) -> list[Message]:
    """Each line as the recorder's tee logs it (its JSON, or the line itself when it is not JSON),
    decoded once for the log and the server alike; the server's messages are logged as it wrote
    them (fresh objects, which a JSON round trip would only copy)."""
    log: list[Message] = []
    for i, line in enumerate(lines):
        try:
            decoded = _decode(line)
        except json.JSONDecodeError:  # not JSON: logged as it is, dropped by the transport
            log.append(Message("client", "server", raw=line))
            replies = server.receive_decoded(None)
        else:
            log.append(Message("client", "server", decoded))
            replies = server.receive_decoded(jsonrpc.classify(decoded))
        if observe is not None:
            observe(len(log), server.state())
        for m in replies:  # (one by one: see `play_client`)
            log.append(Message("server", "client", m))
        if server.never_answering:
            # The recorder waits for each request's answer before writing the next line (a cancel
            # could only come after it): a raw session has no timeout, and would wait forever.
            raise InputError("this line calls a tool that never answers: a raw session, which waits for "
                             "every answer, would wait forever", path=f"$.lines[{i}]")
    log.extend([Message("server", "client", m) for m in server.close()])  # the recorder closes stdin last
    return log


def play_client(client: ClientModel, server: ServerConnection, observe: Observer | None = None) -> list[Message]:
    # The wire holds each message as it will be logged (its sender says whom it goes to). The wire
    # is a FIFO and a message is logged as it is delivered, so the log is the wire's messages in the
    # order they were written: the log itself is the wire, and ``delivered`` counts the messages
    # handed on.
    log: list[Message] = [Message("client", "server", m) for m in client.start()]
    delivered = 0
    while delivered < len(log) or _timed_out(client, log):
        logged = log[delivered]
        delivered += 1
        # The log and the peer both get the message itself, not a copy: the models build every
        # message from fresh objects and neither changes what it was sent, so nothing in a
        # transcript is shared with the models' own objects (tests/test_engine_isolation.py).
        if logged.sender == "client":
            for m in server.receive_decoded(jsonrpc.classify(logged.json)):
                log.append(Message("server", "client", m))
        else:
            for m in client.receive(logged.json):
                log.append(Message("client", "server", m))
        if observe is not None:
            observe(delivered, server.state())
    return log


def _timed_out(client: ClientModel, log: list[Message]) -> bool:
    """The wire is quiet and the client still waits: its read timeout runs out (what it then sends
    is logged), or the session cannot be played (`ClientModel.time_out`)."""
    sent = client.time_out()
    log.extend(Message("client", "server", m) for m in sent)
    return bool(sent)


def run_session(session: Session, definition: ServerDefinition, rules: frozenset[str],
                observe: Observer | None = None) -> list[Message]:
    spec = session.spec
    server = ServerConnection(definition, rules=rules)
    if session.transport == "http":  # the same models, each message in its HTTP exchange
        from .http_transport import play_client_http, play_raw_http

        if spec["mode"] == "raw":
            # (one server process: its connections share its store)
            return play_raw_http(spec["requests"], lambda: ServerConnection(definition, rules=rules, process=server.process),
                                 observe)
        return play_client_http(client_for(spec, rules), server, observe)
    if spec["mode"] == "raw":
        return play_raw(spec["lines"], server, observe)
    return play_client(client_for(spec, rules), server, observe)


def client_for(spec: dict[str, Any], rules: frozenset[str] | None = None) -> ClientModel:
    """The SDK client a (non-raw) scenario session configures: its mode, actions, callbacks, options,
    speaking the release whose wire ``rules`` are given (the pinned one by default)."""
    rules = MCP_RELEASES.rules() if rules is None else rules
    answers = spec.get("answers", {})
    client = ClientModel(
        mode=spec["mode"],
        actions=spec["actions"],
        answers=Answers(
            elicitation=list(answers["elicitation"]) if "elicitation" in answers else None,
            sampling=list(answers["sampling"]) if "sampling" in answers else None,
            roots=list(spec["roots"]) if "roots" in spec else None,
            sampling_capabilities=spec.get("sampling_capabilities"),
            extensions=spec.get("extensions"),
        ),
        log_level=spec.get("log_level"),
        read_timeout_seconds=spec.get("read_timeout_seconds"),
        rules=rules,
    )
    if "client_info" in spec:
        client.client_info = spec["client_info"]  # (read, never changed: each message gets its own copy)
    if "input_required_max_rounds" in spec:
        client.max_rounds = spec["input_required_max_rounds"]
    return client
