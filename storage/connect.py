"""Opening the Redis connection the bot uses: ``REDIS_URL`` or an embedded Valkey server.

``open_redis`` returns a :class:`RedisHandle` that owns what it opened (the client, and the
embedded server when there is one) and closes it in the right order.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.exceptions import AuthenticationError, RedisError, ResponseError

from storage.embedded import EmbeddedValkey
from storage.errors import StorageUnavailableError

log = logging.getLogger(__name__)

CONNECT_SECONDS = 5.0
RETRY_DELAY_SECONDS = 1.0
SOCKET_TIMEOUT_SECONDS = 1.0


def redact_url(url: str) -> str:
    """The URL with its password replaced by ``***``, safe for logs and error messages."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
    except ValueError:
        return "<unparsable URL>"


def _one_line(exc: BaseException, secret: str | None) -> str:
    """A one-line description of ``exc`` that cannot leak ``secret``."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if secret:
        text = text.replace(secret, "***")
    return text


class RedisHandle:
    """The open connection: ``client`` for the repository, ``aclose()`` when done.

    ``embedded`` is the embedded server when ``REDIS_URL`` was not given, else None.
    """

    def __init__(
        self, client: aioredis.Redis, url: str, embedded: EmbeddedValkey | None = None
    ) -> None:
        self.client = client
        self.display_url = redact_url(url)
        self.embedded = embedded

    async def aclose(self) -> None:
        """Close the client, then stop the embedded server (which flushes its AOF)."""
        await self.client.aclose()
        if self.embedded is not None:
            await asyncio.to_thread(self.embedded.stop)

    async def __aenter__(self) -> RedisHandle:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def _make_client(url: str) -> aioredis.Redis:
    # Bytes responses: the repository decodes itself, so a corrupted (non UTF-8) value becomes
    # a CorruptGameError for its chat instead of a decoding error inside the client.
    return aioredis.Redis.from_url(
        url,
        decode_responses=False,
        socket_connect_timeout=SOCKET_TIMEOUT_SECONDS,
        socket_timeout=5.0,
        health_check_interval=30,
    )


async def connect_url(
    url: str, *, total_seconds: float = CONNECT_SECONDS, delay: float = RETRY_DELAY_SECONDS
) -> aioredis.Redis:
    """A client for ``url`` that answered PING, retrying for about ``total_seconds``.

    Raise :class:`StorageUnavailableError` (one line, password redacted) when the server never
    answers in that time or refuses our credentials.
    """
    shown = redact_url(url)
    try:
        secret = urlsplit(url).password
        client = _make_client(url)
    except ValueError as exc:
        raise StorageUnavailableError(
            f"invalid REDIS_URL {shown}: {_one_line(exc, None)}"
        ) from None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + total_seconds
    last: BaseException | None = None
    attempt = 0
    while True:
        attempt += 1
        try:
            async with asyncio.timeout(max(deadline - loop.time(), SOCKET_TIMEOUT_SECONDS)):
                await client.ping()
            return client
        except (AuthenticationError, ResponseError) as exc:
            # Wrong password or a server that refuses us: waiting will not help.
            await client.aclose()
            raise StorageUnavailableError(
                f"Redis at {shown} refused the connection: {_one_line(exc, secret)}"
            ) from None
        except (RedisError, OSError, TimeoutError) as exc:
            last = exc
            log.warning("Redis at %s not reachable (attempt %d)", shown, attempt)
        if loop.time() + delay >= deadline:
            break
        await asyncio.sleep(delay)
    await client.aclose()
    reason = _one_line(last, secret) if last else "no answer"
    raise StorageUnavailableError(
        f"Redis at {shown} is unreachable (gave up after {attempt} attempts in "
        f"{total_seconds:g} s): {reason}"
    ) from None


async def open_redis(url: str | None, data_dir: Path) -> RedisHandle:
    """Connect to ``url`` (the ``REDIS_URL``) or, when it is empty, to an embedded Valkey.

    The embedded server keeps its data (AOF) in ``data_dir`` and stops on ``aclose()``.
    """
    if url:
        client = await connect_url(url)
        log.info("connected to Redis at %s", redact_url(url))
        return RedisHandle(client, url)
    embedded = EmbeddedValkey(data_dir)
    await asyncio.to_thread(embedded.start)
    try:
        client = await connect_url(embedded.url)
    except BaseException:
        await asyncio.to_thread(embedded.stop)
        raise
    return RedisHandle(client, embedded.url, embedded)
