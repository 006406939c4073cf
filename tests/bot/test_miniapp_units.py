"""The Mini App's small parts: Telegram's launch data, the table ids of the links, the
per-user limiter, and the two settings that turn it on."""

from __future__ import annotations

import json
import time
from urllib.parse import urlencode

import pytest

from bot.config import ConfigError, load_settings
from bot.handlers.miniapp_api import RateLimit
from bot.miniapp import init_data
from bot.miniapp.view import table_id, table_key

TOKEN = "123456:ABCdef_ghi-JKL"


def _launch(token: str = TOKEN, **extra: str) -> str:
    fields = {
        "auth_date": str(int(time.time())),
        "user": json.dumps({"id": 42, "first_name": "Anna"}),
        **extra,
    }
    fields["hash"] = init_data.sign(fields, token)
    return urlencode(fields)


def test_a_launch_string_signed_with_the_token_names_its_user() -> None:
    user = init_data.validate(_launch(start_param="tm100123"), TOKEN)
    assert (user.id, user.first_name, user.start_param) == (42, "Anna", "tm100123")


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "hash=00",
        _launch(token="999:other"),
        _launch().replace("Anna", "Bruno"),
        _launch() + "&user=%7B%22id%22%3A1%7D",  # a field given twice
        "x" * (init_data.MAX_LENGTH + 1),
    ],
)
def test_forged_or_malformed_launch_strings_are_refused(raw: str) -> None:
    with pytest.raises(init_data.InitDataError):
        init_data.validate(raw, TOKEN)


def test_a_launch_string_is_good_for_a_day() -> None:
    raw = _launch()
    later = time.time() + init_data.MAX_AGE_SECONDS + 10
    with pytest.raises(init_data.InitDataError, match="stale"):
        init_data.validate(raw, TOKEN, now=later)
    with pytest.raises(init_data.InitDataError, match="stale"):
        init_data.validate(raw, TOKEN, now=time.time() - 3600)  # signed in the future


def test_the_check_string_is_every_field_but_the_hash_sorted() -> None:
    assert init_data.check_string({"b": "2", "hash": "h", "a": "1"}) == "a=1\nb=2"


@pytest.mark.parametrize("key", [-1001234567890, -4321, 42, 2**59 + 7, 2**60 + 99])
def test_table_ids_round_trip_within_telegrams_start_parameter_alphabet(key: int) -> None:
    ref = table_id(key)
    assert ref.isalnum() and len(ref) <= 64
    assert table_key(ref) == key


@pytest.mark.parametrize("ref", ["", "t", "x123", "t-5", "tm", "t1;drop", "t" + "9" * 30])
def test_anything_else_names_no_table(ref: str) -> None:
    assert table_key(ref) is None


def test_the_limiter_allows_a_burst_then_the_rate() -> None:
    limit = RateLimit(burst=3, per_second=1.0)
    assert [limit.allow(7, now=0.0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(8, now=0.0)  # per user
    assert limit.allow(7, now=1.0) and not limit.allow(7, now=1.0)


def test_the_mini_app_is_off_by_default_and_needs_https() -> None:
    env = {"TELEGRAM_TOKEN": TOKEN, "REDIS_URL": "redis://localhost:6379/0"}
    assert load_settings(env).miniapp_url is None
    on = load_settings(
        {
            **env,
            "TAVOLA_MINIAPP_URL": "https://bot.example.org/app/",
            "TAVOLA_MINIAPP_NAME": "tavolo",
        }
    )
    assert (on.miniapp_url, on.miniapp_name) == ("https://bot.example.org/app/", "tavolo")
    with pytest.raises(ConfigError) as bad:
        load_settings(
            {
                **env,
                "TAVOLA_MINIAPP_URL": "http://bot.example.org/app/",
                "TAVOLA_MINIAPP_NAME": "x!",
            }
        )
    assert [p.split(":")[0] for p in bad.value.problems] == [
        "TAVOLA_MINIAPP_URL",
        "TAVOLA_MINIAPP_NAME",
    ]
