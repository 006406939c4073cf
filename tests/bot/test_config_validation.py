"""Every variable of the README's configuration table is checked at start-up: a bad value
is one line naming the variable (``VARIABLE: what is wrong``), never a traceback, never a
value silently accepted."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings

TOKEN = "123456:AAH-example_token"

BAD_VALUES: list[tuple[str, str]] = [
    ("TELEGRAM_TOKEN", "not a token"),
    ("TELEGRAM_TOKEN", "123456"),
    ("REDIS_URL", "localhost:6379"),
    ("REDIS_URL", "http://localhost:6379/0"),
    ("REDIS_URL", "redis://localhost:port/0"),
    ("REDIS_URL", "redis://localhost:6379/zero"),
    ("REDIS_URL", "unix://"),
    ("TELEGRAM_BASE_URL", "127.0.0.1:8081/bot"),
    ("TELEGRAM_BASE_URL", "ftp://example.org/bot"),
    ("WEBHOOK_URL", "http://bot.example.org"),
    ("WEBHOOK_URL", "bot.example.org"),
    ("WEBHOOK_URL", "https://bot.example.org:8080"),
    ("WEBHOOK_URL", "https://bot.example.org/?x=1"),
    ("WEBHOOK_URL", "https://"),
    ("WEBHOOK_SECRET", "x" * 257),
    ("WEBHOOK_SECRET", "has space"),
    ("WEBHOOK_SECRET", "è-accentato"),
    ("WEBHOOK_LISTEN", "everywhere"),
    ("WEBHOOK_LISTEN", "127.0.0.1:80"),
    ("PORT", "abc"),
    ("PORT", "0"),
    ("PORT", "65536"),
    ("LOG_LEVEL", "LOUD"),
    ("LOG_FORMAT", "xml"),
    ("TAVOLA_HEALTH_PORT", "-1"),
    ("TAVOLA_HEALTH_PORT", "70000"),
    ("TAVOLA_TURN_SECONDS", "5"),
    ("TAVOLA_TURN_SECONDS", "10m"),
    ("TAVOLA_TURN_SECONDS", "86401"),
    ("TAVOLA_CHALLENGE_TTL", "0"),
    ("TAVOLA_CHALLENGE_TTL", "1e3"),
    ("TAVOLA_AI_WORKERS", "-1"),
    ("TAVOLA_AI_WORKERS", "65"),
    ("TAVOLA_AI_WORKERS", "two"),
    ("TAVOLA_RECORD_DAYS", "0"),
    ("TAVOLA_RECORD_DAYS", "3651"),
    ("TAVOLA_AUTO_CONFIRM", "2"),
    ("TAVOLA_AUTO_CONFIRM", "yes"),
    ("TAVOLA_MEDIA_CHAT", "my channel"),
    ("TAVOLA_MEDIA_CHAT", "@ab"),
    ("TAVOLA_MEDIA_CHAT", "0"),
    ("TAVOLA_MEDIA_CHAT", "-100abc"),
]


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_each_bad_value_is_one_line_naming_its_variable(name: str, value: str) -> None:
    env = {"TELEGRAM_TOKEN": TOKEN, name: value}
    with pytest.raises(ConfigError) as refused:
        load_settings(env)
    assert len(refused.value.problems) == 1, refused.value.problems
    line = refused.value.problems[0]
    assert line.startswith(f"{name}: ")
    assert "\n" not in line
    if name == "TELEGRAM_TOKEN":
        assert value not in line  # a token with a typo is still a secret


def test_every_bad_variable_is_listed_at_once() -> None:
    env = {"TELEGRAM_TOKEN": TOKEN, "PORT": "abc", "LOG_LEVEL": "LOUD", "TAVOLA_AUTO_CONFIRM": "x"}
    with pytest.raises(ConfigError) as refused:
        load_settings(env)
    assert [p.split(":")[0] for p in refused.value.problems] == [
        "PORT",
        "LOG_LEVEL",
        "TAVOLA_AUTO_CONFIRM",
    ]


def test_good_values_are_read() -> None:
    s = load_settings(
        {
            "TELEGRAM_TOKEN": TOKEN,
            "REDIS_URL": "rediss://:pw@redis.example.org:6380/2",
            "WEBHOOK_URL": "https://bot.example.org:8443/tavola",
            "LOG_LEVEL": "warning",
            "LOG_FORMAT": "JSON",
            "TAVOLA_HEALTH_PORT": "0",
            "TAVOLA_AUTO_CONFIRM": "0",
            "TAVOLA_AI_WORKERS": "3",
            "TAVOLA_MEDIA_CHAT": "@tavola_boards",
        }
    )
    assert (s.log_level, s.log_format, s.health_port, s.auto_confirm, s.ai_workers) == (
        "WARNING",
        "json",
        0,
        False,
        3,
    )
    assert s.media_chat == "@tavola_boards"
    assert load_settings({"TELEGRAM_TOKEN": TOKEN, "REDIS_URL": "unix:///run/r.sock"}).redis_url


def test_a_local_bot_api_server_may_call_a_plain_http_webhook_on_any_port() -> None:
    s = load_settings(
        {
            "TELEGRAM_TOKEN": TOKEN,
            "TELEGRAM_BASE_URL": "http://127.0.0.1:8081/bot",
            "WEBHOOK_URL": "http://127.0.0.1:8080",
        }
    )
    assert s.webhook_url == "http://127.0.0.1:8080"


def _unwritable_dir(tmp_path: Path) -> Path:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return locked


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_data_directory_is_refused(tmp_path: Path) -> None:
    locked = _unwritable_dir(tmp_path)
    for path in (locked, locked / "sub" / "dir"):
        with pytest.raises(ConfigError) as refused:
            load_settings({"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DATA_DIR": str(path)})
        assert refused.value.problems[0].startswith("TAVOLA_DATA_DIR: ")


def test_a_data_directory_that_is_a_file_is_refused_unless_redis_is_used(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    for path in (a_file, a_file / "valkey"):
        with pytest.raises(ConfigError) as refused:
            load_settings({"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DATA_DIR": str(path)})
        assert refused.value.problems[0].startswith("TAVOLA_DATA_DIR: ")
    external = {"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DATA_DIR": str(a_file), "REDIS_URL": "redis://r"}
    assert load_settings(external).data_dir == a_file  # unused with an external Redis
    fresh = tmp_path / "new" / "data"
    assert load_settings({"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DATA_DIR": str(fresh)}).data_dir == fresh
    assert not fresh.exists()  # checked, not created


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")}
    return subprocess.run(  # the tests look at the exit code themselves
        [sys.executable, "-m", "bot"],
        check=False,
        env={**keep, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEBHOOK_URL", "http://bot.example.org"),
        ("WEBHOOK_SECRET", "x" * 300),
        ("REDIS_URL", "mysql://localhost/0"),
    ],
)
def test_the_process_exits_2_with_the_one_line(name: str, value: str) -> None:
    proc = _run({"TELEGRAM_TOKEN": TOKEN, name: value})
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith(f"tavola: {name}: ")
    assert "Traceback" not in proc.stderr and TOKEN not in proc.stderr


def test_the_process_lists_every_bad_variable(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    proc = _run({"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DATA_DIR": str(a_file), "PORT": "99999"})
    assert proc.returncode == 2
    assert [line.split(":")[0:2] for line in proc.stderr.splitlines()] == [
        ["tavola", " PORT"],
        ["tavola", " TAVOLA_DATA_DIR"],
    ]
