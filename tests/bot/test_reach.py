"""Which Bot API answers mean a place moved or shut (bot.reach.refusal_of): the request's
chat and Telegram's answer, as the HTTP layer sees them."""

from __future__ import annotations

import json

from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.reach import Refusal, refusal_of


def _data(**params: object) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in params.items()])


def _answer(code: int, description: str, **parameters: object) -> bytes:
    body: dict[str, object] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return json.dumps(body).encode()


def test_an_upgraded_group_names_its_new_id() -> None:
    answer = _answer(
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        migrate_to_chat_id=-1001234,
    )
    assert refusal_of(400, answer, _data(chat_id=-1234, text="x")) == Refusal(
        -1234, -1001234, "Bad Request: group chat was upgraded to a supergroup chat"
    )


def test_every_403_to_a_chat_shuts_it() -> None:
    for text in (
        "Forbidden: bot was kicked from the group chat",
        "Forbidden: bot was blocked by the user",
        "Forbidden: bot can't initiate conversation with a user",
    ):
        refusal = refusal_of(403, _answer(403, text), _data(chat_id="77", text="x"))
        assert refusal == Refusal(77, None, text)


def test_other_answers_are_no_refusal_for_good() -> None:
    ok = json.dumps({"ok": True, "result": True}).encode()
    assert refusal_of(200, ok, _data(chat_id=5)) is None
    assert (
        refusal_of(400, _answer(400, "Bad Request: message is not modified"), _data(chat_id=5))
        is None
    )
    assert (
        refusal_of(
            429, _answer(429, "Too Many Requests: retry after 3", retry_after=3), _data(chat_id=5)
        )
        is None
    )
    # No chat of ours: an inline message, a channel by name, no parameters at all.
    forbidden = _answer(403, "Forbidden: bot was kicked from the channel chat")
    assert refusal_of(403, forbidden, _data(inline_message_id="AAA")) is None
    assert refusal_of(403, forbidden, _data(chat_id="@canale")) is None
    assert refusal_of(403, forbidden, None) is None
    assert refusal_of(403, b"<html>bad gateway</html>", _data(chat_id=5)) is None
