"""Webhook mode is signed by default: ``python -m bot`` with WEBHOOK_URL and no WEBHOOK_SECRET.

The real process registers its webhook with a secret derived from the token, refuses every
POST that does not carry it (403, nothing done), acts on the signed one, says where it listens,
and writes neither the token nor the secret to its log, even at DEBUG.
"""

from __future__ import annotations

import asyncio
import string
from pathlib import Path

import aiohttp
import pytest

from .fake_telegram import FakeTelegram
from .processes import (
    HEADER,
    START_TIMEOUT,
    free_port,
    start_bot,
    stop_bot,
    webhook_env,
)


@pytest.mark.parametrize("configured", [None, "An_explicit-Secret_0123"], ids=["derived", "set"])
async def test_an_unsigned_webhook_post_is_refused_and_no_secret_is_logged(
    tmp_path: Path, configured: str | None
) -> None:
    """With WEBHOOK_SECRET unset (the default) a secret is derived and required all the same;
    set, it is the one required. Neither it nor the token reaches the DEBUG log."""
    port = free_port()
    async with FakeTelegram() as tg:
        env = {
            **webhook_env(tg, tmp_path, port),
            "WEBHOOK_LISTEN": "127.0.0.1",
            "LOG_LEVEL": "DEBUG",
        }
        if configured is not None:
            env["WEBHOOK_SECRET"] = configured
        anna = tg.user(1, "Anna")
        chat = tg.private_chat(anna)
        proc = await start_bot(env)
        try:
            await tg.wait_for("setWebhook", timeout=START_TIMEOUT)
            assert tg.webhook is not None
            secret = str(tg.webhook.get("secret_token") or "")
            # Telegram's rule: 1-256 characters, A-Z a-z 0-9 _ -
            assert 16 <= len(secret) <= 256
            assert set(secret) <= set(string.ascii_letters + string.digits + "_-")
            assert tg.token.split(":")[1] not in secret
            assert configured is None or secret == configured
            await asyncio.sleep(0.5)  # the webhook server starts listening right after

            tg.send_message(chat, anna, "/aiuto")
            (update,) = tg.pop_updates()
            async with aiohttp.ClientSession() as http:
                unsigned = await http.post(tg.webhook["url"], json=update)
                assert unsigned.status == 403
                wrong = await http.post(
                    tg.webhook["url"], json=update, headers={HEADER: secret[:-1] + "x"}
                )
                assert wrong.status == 403
                await asyncio.sleep(0.5)
                assert tg.calls("sendMessage") == []  # the unsigned updates did nothing
                signed = await http.post(tg.webhook["url"], json=update, headers={HEADER: secret})
                assert signed.status == 200
            sent = await tg.wait_for("sendMessage", timeout=10)
            assert sent.params["text"].startswith("<b>Comandi</b>")
        finally:
            log = await stop_bot(proc)
    assert "setWebhook" in log  # DEBUG really was on: PTB logged the call
    assert tg.token not in log
    assert secret not in log
    assert f"webhook server on 127.0.0.1:{port}" in log
