"""Evidence of the findings (agent_loop_sim.site.evidence): a case for each branch of a check."""
from __future__ import annotations

from agent_loop_sim.site.evidence import NoReply, Recorded
from agent_loop_sim.transcript import Message, Transcript

C2S = dict(sender="client", receiver="server")
S2C = dict(sender="server", receiver="client")


def _after_a_bad_line(*answers: dict) -> Recorded:
    """A line that is not JSON, a request, then the server's ``answers``."""
    messages = [Message(**C2S, raw="{nope"), Message(**C2S, json={"jsonrpc": "2.0", "id": 2, "method": "ping"})]
    messages += [Message(**S2C, json=answer) for answer in answers]
    return Recorded({"s": Transcript("s", "raw", "t", messages)})


def _error(rid, code: int) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": "m"}}


PONG = {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_a_message_followed_by_its_senders_next_gets_no_reply():
    assert NoReply("s", 1).check(_after_a_bad_line(PONG)) is None
    assert NoReply("s", 3).check(_after_a_bad_line(PONG)) is None  # the last message: nothing follows


def test_a_message_answered_next_gets_a_reply():
    assert NoReply("s", 2).check(_after_a_bad_line(PONG)) == "message 3 comes from the server: a reply"


def test_a_late_parse_error_without_an_id_answers_it():
    late = _after_a_bad_line(_error(None, -32700), PONG)
    assert NoReply("s", 1).check(late) == "message 3 is a parse error (-32700) answering it"


def test_a_late_error_of_another_code_or_with_an_id_is_no_answer_to_it():
    assert NoReply("s", 1).check(_after_a_bad_line(_error(None, -32600), PONG)) is None
    assert NoReply("s", 1).check(_after_a_bad_line(_error(None, -32701), PONG)) is None
    assert NoReply("s", 1).check(_after_a_bad_line(_error(2, -32700))) is None
