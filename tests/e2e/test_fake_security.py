"""The fake server's inline feedback is as Telegram's: a chosen_inline_result only with
feedback on, naming the inline message only when the result carries an inline keyboard."""

from __future__ import annotations

from typing import Any

import aiohttp

from .fake_telegram import FakeChat, FakeTelegram


async def _answer(tg: FakeTelegram, query_id: str, results: list[dict[str, Any]]) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{tg.base_url}{tg.token}/answerInlineQuery",
            json={"inline_query_id": query_id, "results": results},
        ) as response,
    ):
        assert (await response.json())["ok"]


def _article(result_id: str, keyboard: bool) -> dict[str, Any]:
    article: dict[str, Any] = {
        "type": "article",
        "id": result_id,
        "title": "Carta",
        "input_message_content": {"message_text": "Sfida"},
    }
    if keyboard:
        article["reply_markup"] = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    return article


async def test_chosen_inline_result_names_the_message_only_with_a_keyboard() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1, "Anna")
        chat = FakeChat(2, "private", first_name="Bruno")
        query_id = tg.inline_query(anna, "x")
        tg.pop_updates()
        await _answer(tg, query_id, [_article("with", True), _article("without", False)])

        silent = tg.choose_inline_result(query_id, "with", chat)
        assert tg.pop_updates() == []  # no feedback: nothing reported
        tg.choose_inline_result(query_id, "with", chat, feedback=True)
        tg.choose_inline_result(query_id, "without", chat, feedback=True)
        with_kb, without_kb = (u["chosen_inline_result"] for u in tg.pop_updates())
        assert with_kb["result_id"] == "with" and with_kb["inline_message_id"] != silent
        assert with_kb["inline_message_id"].startswith("BAAAA")
        assert without_kb["result_id"] == "without" and "inline_message_id" not in without_kb
