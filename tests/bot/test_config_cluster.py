"""Cluster mode is chosen from REDIS_URL's scheme or the REDIS_CLUSTER setting."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from storage.connect import is_cluster_url

TOKEN = "123456:AAH-example_token"


@pytest.mark.parametrize(
    ("env", "url", "cluster"),
    [
        ({"REDIS_URL": "redis://h:6379/0"}, "redis://h:6379/0", False),
        ({"REDIS_URL": "redis+cluster://h:7000/0"}, "redis+cluster://h:7000/0", True),
        ({"REDIS_URL": "rediss+cluster://h:7000"}, "rediss+cluster://h:7000", True),
        ({"REDIS_URL": "redis://h:7000/0", "REDIS_CLUSTER": "1"}, "redis+cluster://h:7000/0", True),
        ({"REDIS_URL": "rediss://:p@h:1", "REDIS_CLUSTER": "1"}, "rediss+cluster://:p@h:1", True),
        ({"REDIS_URL": "redis://h:6379/0", "REDIS_CLUSTER": "0"}, "redis://h:6379/0", False),
    ],
)  # fmt: skip
def test_the_mode_travels_in_the_url(env: dict[str, str], url: str, cluster: bool) -> None:
    settings = load_settings({"TELEGRAM_TOKEN": TOKEN, **env})
    assert settings.redis_url == url
    assert is_cluster_url(url) is cluster


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"REDIS_CLUSTER": "1"}, "REDIS_CLUSTER: needs REDIS_URL"),
        ({"REDIS_URL": "unix:///run/r.sock", "REDIS_CLUSTER": "1"}, "REDIS_CLUSTER: a cluster"),
        ({"REDIS_URL": "redis://h:1/0", "REDIS_CLUSTER": "yes"}, "REDIS_CLUSTER: must be 0 or 1"),
    ],
)
def test_a_cluster_setting_that_cannot_work_is_refused(env: dict[str, str], problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({"TELEGRAM_TOKEN": TOKEN, **env})
    assert problem in str(caught.value)
