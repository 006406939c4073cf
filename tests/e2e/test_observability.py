"""What an operator watches, on the real process: ``/healthz``, ``/readyz`` and
``/metrics`` (on TAVOLA_HEALTH_PORT when polling, on the webhook's PORT in webhook mode),
JSON log lines, and start-up log lines written as they happen."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from storage import EmbeddedValkey

from .fake_telegram import FakeTelegram
from .processes import (
    HEADER,
    START_TIMEOUT,
    free_port,
    start_a_game,
    start_bot,
    stop_bot,
    webhook_env,
)


async def _get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, await answer.text()


async def _wait_alive(port: int) -> None:
    """The health server listens once the updates flow (right after setMyCommands)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while True:
        try:
            status, body = await _get(port, "/healthz")
        except aiohttp.ClientConnectionError:
            assert loop.time() < deadline, "nothing listens on the health port"
            await asyncio.sleep(0.2)
            continue
        assert (status, json.loads(body)) == (200, {"status": "alive"})
        return


async def _wait_ready(port: int, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (answer := await _get(port, "/readyz"))[0] != 200:
        assert loop.time() < deadline, answer
        await asyncio.sleep(0.2)


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_polling_health_readiness_metrics_and_json_logs(
    own_valkey: EmbeddedValkey,
) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        env = {
            "TELEGRAM_TOKEN": tg.token,
            "TELEGRAM_BASE_URL": tg.base_url,
            "REDIS_URL": own_valkey.url,
            "TAVOLA_HEALTH_PORT": str(port),
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "DEBUG",
        }
        proc = await start_bot(env)
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            await _wait_alive(port)
            assert await _get(port, "/readyz") == (200, '{"status": "ready"}')

            # A fresh process: every counter below starts at zero (the games in progress
            # are counted at the first scrape, so it comes after the game starts).
            anna, bruno = tg.user(1, "Anna"), tg.user(2, "Bruno")
            await start_a_game(tg, tg.group(-1001, "Circolo"), anna, bruno)
            status, text = await _get(port, "/metrics")
            assert status == 200
            after = _samples(text)
            moved = {
                (name, *labels.values()): _value(after, name, **labels)
                for name, labels in [
                    ("tavola_updates_total", {"type": "message"}),
                    ("tavola_updates_total", {"type": "callback_query"}),
                    ("tavola_answer_latency_seconds_count", {}),
                    ("tavola_bot_api_requests_total", {"method": "sendPhoto", "status": "200"}),
                    ("tavola_bot_api_requests_total", {"method": "getUpdates", "status": "200"}),
                ]
            }
            assert all(change >= 1 for change in moved.values()), moved
            assert _value(after, "tavola_games_active") == 1
            assert ("tavola_painter_backlog", ()) in after
            assert ("tavola_redis_errors_total", ()) in after
            for pool in ("computer", "analysis", "drawer"):  # nothing died or hung
                assert ("tavola_workers_replaced", (("pool", pool),)) in after, pool
                assert _value(after, "tavola_workers_replaced", pool=pool) == 0, pool
            assert ("tavola_boards_drawn_in_thread", ()) in after

            redis_port = own_valkey.port
            own_valkey.stop()  # Redis gone: not ready, with the reason
            status, body = await _get(port, "/readyz")
            assert status == 503
            answer = json.loads(body)
            assert answer["status"] == "not ready" and answer["reason"].startswith("redis")
            assert (await _get(port, "/healthz"))[0] == 200  # still alive
            restarted = EmbeddedValkey(own_valkey.data_dir, port=redis_port)
            restarted.start()
            try:
                await _wait_ready(port)  # back once the client has reconnected
            finally:
                restarted.stop()
        finally:
            log = await stop_bot(proc)
    lines = log.strip().splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert {"time", "level", "logger", "message"} <= set(entries[0])
    assert any("Tavola is running" in e["message"] for e in entries)
    assert any(e["level"] == "DEBUG" for e in entries)
    assert tg.token not in log
    assert tg.token.split(":")[1] not in log


async def test_webhook_port_serves_health_and_metrics_beside_the_webhook(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        env = {
            **webhook_env(tg, tmp_path, port),
            "WEBHOOK_SECRET": "s3cret-token",
            "WEBHOOK_LISTEN": "127.0.0.1",
        }
        anna = tg.user(1, "Anna")
        chat = tg.private_chat(anna)
        proc = await start_bot(env)
        try:
            await tg.wait_for("setWebhook", timeout=START_TIMEOUT)
            await _wait_alive(port)
            assert await _get(port, "/readyz") == (200, '{"status": "ready"}')

            tg.send_message(chat, anna, "/aiuto")
            (update,) = tg.pop_updates()
            async with aiohttp.ClientSession() as http:
                signed = await http.post(
                    f"http://127.0.0.1:{port}/telegram",
                    json=update,
                    headers={HEADER: "s3cret-token"},
                )
                assert signed.status == 200
            await tg.wait_for("sendMessage", timeout=10)
            status, text = await _get(port, "/metrics")
            assert status == 200
            samples = _samples(text)
            assert _value(samples, "tavola_updates_total", type="message") == 1
            assert _value(
                samples, "tavola_bot_api_requests_total", method="setWebhook", status="200"
            )
            assert (await _get(port, "/nothing"))[0] == 404
        finally:
            await stop_bot(proc)


async def test_start_up_log_lines_are_written_as_they_happen(tmp_path: Path) -> None:
    """A Bot API that never answers: the start-up says what it waits for while it waits,
    then fails with its one line, the last."""

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        await asyncio.sleep(60)
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        env = {
            "TELEGRAM_TOKEN": "123456:Silent-Secret",
            "TELEGRAM_BASE_URL": f"http://127.0.0.1:{port}/bot",
            "TAVOLA_DATA_DIR": str(tmp_path),
        }
        proc = await start_bot(env)
        assert proc.stderr is not None
        seen = []
        try:
            while not any("connecting to the Bot API" in line for line in seen):
                line = await asyncio.wait_for(proc.stderr.readline(), START_TIMEOUT)
                assert line, f"the start-up wrote nothing while waiting: {seen}"
                seen.append(line.decode())
            assert proc.returncode is None  # still starting: the line came while it waits
            _, rest = await asyncio.wait_for(proc.communicate(), START_TIMEOUT)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    err = "".join(seen) + rest.decode()
    assert proc.returncode == 2, err
    assert "Traceback" not in err and "Silent-Secret" not in err
    assert err.strip().splitlines()[-1].startswith("tavola: cannot reach the Bot API")
