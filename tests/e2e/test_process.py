"""``python -m bot`` as a real process, configured only by environment variables.

Polling with the embedded Valkey (no REDIS_URL): a game survives a restart of the process.
Webhook mode: the bot registers its webhook and refuses updates without the secret token.
A token the Bot API rejects, or a Bot API that cannot be reached, ends the process at once
with exit code 2 and one line, never a traceback and never the token.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from .fake_telegram import FakeTelegram
from .processes import (
    START_TIMEOUT,
    bot_env,
    free_port,
    start_a_game,
    start_bot,
    stop_bot,
    webhook_env,
)

FAILED_START_TIMEOUT = 30.0  # a failed start takes a second or two; generous for slow CI


async def _run_until_exit(env: dict[str, str]) -> tuple[int, str, str]:
    """Run ``python -m bot`` until it exits by itself: exit code, stdout, stderr."""
    proc = await start_bot(env)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), FAILED_START_TIMEOUT)
    except TimeoutError:
        proc.kill()
        await proc.communicate()
        raise AssertionError("the bot did not exit on a failed start") from None
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _assert_one_line_failure(code: int, out: str, err: str, secret: str) -> str:
    assert code == 2, err
    assert "Traceback" not in err + out
    assert secret not in err + out
    # The start-up's log lines come as they happen; the failure is one line, the last.
    lines = err.strip().splitlines()
    assert [line for line in lines if line.startswith("tavola: ")] == lines[-1:], err
    return lines[-1]


async def test_a_rejected_token_exits_2_with_one_line_and_no_token(tmp_path: Path) -> None:
    async with FakeTelegram() as tg:
        wrong = "987654:WRONG-Secret-Token_xyz"
        code, out, err = await _run_until_exit(
            {
                "TELEGRAM_TOKEN": wrong,
                "TELEGRAM_BASE_URL": tg.base_url,
                "TAVOLA_DATA_DIR": str(tmp_path),
            }
        )
        assert [r.method for r in tg.requests] == ["getMe"]  # refused: nothing else tried
    line = _assert_one_line_failure(code, out, err, "WRONG-Secret-Token_xyz")
    assert "rejected TELEGRAM_TOKEN" in line


async def test_an_unreachable_bot_api_exits_2_with_one_line(tmp_path: Path) -> None:
    closed = free_port()  # nothing listens there
    code, out, err = await _run_until_exit(
        {
            "TELEGRAM_TOKEN": "123456:Unreachable-Secret",
            "TELEGRAM_BASE_URL": f"http://127.0.0.1:{closed}/bot",
            "TAVOLA_DATA_DIR": str(tmp_path),
        }
    )
    line = _assert_one_line_failure(code, out, err, "Unreachable-Secret")
    assert f"cannot reach the Bot API at http://127.0.0.1:{closed}/bot" in line


async def test_polling_process_keeps_a_game_across_a_restart(tmp_path: Path) -> None:
    async with FakeTelegram() as tg:
        env = bot_env(tg, tmp_path)
        anna, bruno = tg.user(1, "Anna"), tg.user(2, "Bruno")
        group = tg.group(-1001, "Circolo")

        proc = await start_bot(env)
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            first = await start_a_game(tg, group, anna, bruno)
        finally:
            log = await stop_bot(proc)
        assert tg.token not in log  # the token never reaches the logs
        assert (tmp_path / "valkey").is_dir()

        proc = await start_bot(env)
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            tg.send_message(group, bruno, "/partita")
            again = await tg.wait_for("sendPhoto", timeout=20)
        finally:
            await stop_bot(proc)
        assert again.params["caption"] == first.params["caption"]  # the same game, restored
        assert again.photo is not None and again.photo.startswith(b"\x89PNG")


async def test_webhook_process_registers_and_checks_the_secret(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        env = {
            **webhook_env(tg, tmp_path, port),
            "WEBHOOK_SECRET": "s3cret-token",
        }
        anna = tg.user(1, "Anna")
        chat = tg.private_chat(anna)
        proc = await start_bot(env)
        try:
            await tg.wait_for("setWebhook", timeout=START_TIMEOUT)
            assert tg.webhook is not None
            assert tg.webhook["url"] == f"http://127.0.0.1:{port}/telegram"
            assert tg.webhook["secret_token"] == "s3cret-token"
            await asyncio.sleep(0.5)  # the webhook server starts listening right after

            tg.send_message(chat, anna, "/aiuto")
            (update,) = tg.pop_updates()
            async with aiohttp.ClientSession() as http:
                forged = await http.post(
                    tg.webhook["url"],
                    json=update,
                    headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"},
                )
                assert forged.status == 403
                real = await http.post(
                    tg.webhook["url"],
                    json=update,
                    headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret-token"},
                )
                assert real.status == 200
            sent = await tg.wait_for("sendMessage", timeout=10)
            assert sent.params["text"].startswith("<b>Comandi</b>")
            assert len(tg.calls("sendMessage")) == 1  # the forged update did nothing
        finally:
            await stop_bot(proc)
