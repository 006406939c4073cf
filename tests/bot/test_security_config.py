"""Webhook settings that are secure by default, and log lines that never carry a secret."""

from __future__ import annotations

import logging
import string

import pytest

from bot.config import ConfigError, derived_webhook_secret, load_settings, webhook_address
from bot.logging_setup import RedactingFormatter, redact

TOKEN = "123456:AAH-example_token"


def test_webhook_mode_without_a_secret_derives_one_from_the_token() -> None:
    settings = load_settings({"TELEGRAM_TOKEN": TOKEN, "WEBHOOK_URL": "https://example.org"})
    secret = settings.webhook_secret
    assert secret == derived_webhook_secret(TOKEN)
    assert secret is not None and 1 <= len(secret) <= 256
    assert set(secret) <= set(string.ascii_letters + string.digits + "_-")
    assert derived_webhook_secret("123456:other") != secret
    assert TOKEN not in repr(settings) and secret not in repr(settings)


def test_an_explicit_secret_wins_and_polling_needs_none() -> None:
    env = {"TELEGRAM_TOKEN": TOKEN, "WEBHOOK_URL": "https://x.org", "WEBHOOK_SECRET": "abc"}
    assert load_settings(env).webhook_secret == "abc"
    assert load_settings({"TELEGRAM_TOKEN": TOKEN}).webhook_secret is None


@pytest.mark.parametrize(
    "env",
    [
        {"WEBHOOK_SECRET": "x" * 257},
        {"WEBHOOK_SECRET": "è-accentato"},
        {"WEBHOOK_LISTEN": "everywhere"},
        {"WEBHOOK_LISTEN": "127.0.0.1:80"},
    ],
)
def test_bad_webhook_settings_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        load_settings({"TELEGRAM_TOKEN": TOKEN, **env})


def test_the_listen_address_is_a_setting_and_shown_with_its_scope() -> None:
    default = load_settings({"TELEGRAM_TOKEN": TOKEN, "PORT": "8443"})
    assert webhook_address(default) == "0.0.0.0:8443 (all interfaces)"
    local = load_settings({"TELEGRAM_TOKEN": TOKEN, "WEBHOOK_LISTEN": "::1"})
    assert webhook_address(local) == "[::1]:8080"


def test_secrets_are_scrubbed_from_messages_arguments_and_tracebacks() -> None:
    redact(TOKEN)
    redact("webhook-secret-value")
    formatter = RedactingFormatter("%(message)s")
    try:
        raise ValueError(f"https://api.telegram.org/bot{TOKEN}/getMe")
    except ValueError as exc:
        record = logging.LogRecord(
            "x",
            logging.DEBUG,
            __file__,
            1,
            "params %s",
            ({"secret_token": "webhook-secret-value"},),
            (type(exc), exc, exc.__traceback__),
        )
    line = formatter.format(record)
    assert TOKEN not in line and "webhook-secret-value" not in line
    assert "<secret>" in line and "Traceback" in line
