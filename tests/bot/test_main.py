"""``python -m bot`` refuses to start without a token or storage, with one clear line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.config import ConfigError, load_settings


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "REDIS_URL")}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_exits_2_with_one_clear_line() -> None:
    proc = _run({})
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "TELEGRAM_TOKEN" in lines[0]
    assert "Traceback" not in proc.stderr


def test_unreachable_redis_exits_2_without_traceback_or_secrets() -> None:
    proc = _run(
        {"TELEGRAM_TOKEN": "123:SECRET-TOKEN", "REDIS_URL": "redis://:hunter2@127.0.0.1:1/0"}
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "unreachable" in last
    assert "hunter2" not in proc.stderr
    assert "SECRET-TOKEN" not in proc.stderr


def test_settings_read_every_variable() -> None:
    s = load_settings(
        {
            "TELEGRAM_TOKEN": "1:x",
            "REDIS_URL": "redis://r:6379/0",
            "TELEGRAM_BASE_URL": "http://127.0.0.1:9/bot",
            "WEBHOOK_URL": "https://example.org",
            "WEBHOOK_SECRET": "s3cr3t_-",
            "PORT": "8443",
            "LOG_LEVEL": "debug",
            "TAVOLA_TURN_SECONDS": "120",
        }
    )
    assert (s.redis_url, s.port, s.log_level, s.turn_seconds) == (
        "redis://r:6379/0",
        8443,
        "DEBUG",
        120,
    )
    assert s.base_file_url == "http://127.0.0.1:9/file/bot"


@pytest.mark.parametrize(
    "env",
    [
        {"TELEGRAM_TOKEN": "1:x", "PORT": "abc"},
        {"TELEGRAM_TOKEN": "1:x", "WEBHOOK_SECRET": "has space"},
        {"TELEGRAM_TOKEN": "1:x", "LOG_LEVEL": "LOUD"},
        {"TELEGRAM_TOKEN": " "},
    ],
)
def test_bad_settings_are_refused_with_a_reason(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        load_settings(env)
