"""Opening the Redis connection the bot uses: ``REDIS_URL`` or an embedded Valkey server.

``open_redis`` returns a :class:`RedisHandle` that owns what it opened (the client, and the
embedded server when there is one) and closes it in the right order.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import AuthenticationError, RedisError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from storage.embedded import EmbeddedValkey
from storage.errors import StorageUnavailableError

log = logging.getLogger(__name__)

#: URL schemes that ask for a Redis or Valkey Cluster (``rediss+cluster``: over TLS); the
#: client is then redis-py's cluster client, which finds every node from the one named.
CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
#: A client of either kind: the repository uses what both offer.
Client = aioredis.Redis | RedisCluster

CONNECT_SECONDS = 5.0
RETRY_DELAY_SECONDS = 1.0
SOCKET_TIMEOUT_SECONDS = 1.0
COMMAND_TIMEOUT_SECONDS = 2.0
HEALTH_CHECK_SECONDS = 15
# A command that meets a dead connection is retried on a fresh one: after a restart of the
# server the first retry succeeds; during an outage the attempts (0.1 + 0.2 + 0.4 s of backoff)
# give up in under a second when the port refuses connections. A hung server costs a read
# timeout per attempt, and redis-py nests the connect retry inside the command retry, so the
# repository caps each call with its own deadline (GameRepository's ``call_timeout``).
RETRIES = 3
MAX_CONNECTIONS = 64  # a Redis command takes well under a millisecond: plenty for many chats
POOL_WAIT_SECONDS = 5.0
BACKOFF_BASE_SECONDS = 0.05
BACKOFF_CAP_SECONDS = 0.5


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

    def __init__(self, client: Client, url: str, embedded: EmbeddedValkey | None = None) -> None:
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


def is_cluster_url(url: str) -> bool:
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def make_client(url: str) -> Client:
    """A client for ``url`` that survives restarts and outages of the server.

    ``redis://``, ``rediss://`` and ``unix://`` name one server; ``redis+cluster://`` and
    ``rediss+cluster://`` one node of a cluster, reached with redis-py's cluster client
    (``redis.asyncio.cluster.RedisCluster``: it learns the slots' owners, follows MOVED and
    ASK redirections, and runs each script on the node of its keys' slot). A cluster client
    must answer one command (:func:`connect_url` PINGs it) before commands are sent to it
    concurrently: redis-py's asyncio cluster client fails commands sent concurrently while
    it first discovers the cluster (AttributeError from a connection not yet open).

    A pooled connection the server closed (it restarted) fails on its next command; the retry
    reconnects and sends the command again, so callers never see that. Sending again is safe
    for every write of the repository: the Lua scripts check the game's version (a write that
    did land makes the repeat a version conflict, never a double move) and the other writes
    are idempotent. Idle connections are PINGed first (health check). Registered scripts are
    reloaded by redis-py when the restarted server answers NOSCRIPT.

    Many chats are served at once: the pool holds at most ``MAX_CONNECTIONS`` connections and
    a command that finds them all busy waits for one (up to ``POOL_WAIT_SECONDS``) instead of
    failing with "Too many connections".

    Bytes responses: the repository decodes itself, so a corrupted (non UTF-8) value becomes
    a CorruptGameError for its chat instead of a decoding error inside the client.
    """
    if is_cluster_url(url):
        return _cluster_client(url)
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        timeout=POOL_WAIT_SECONDS,
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        **_connection_options(),
    )
    return aioredis.Redis.from_pool(pool)


def _connection_options() -> dict[str, Any]:
    """What a single server's pool and a cluster's per-node pools share: bytes (the codec
    decodes), bounded waits, health checks and retries with a capped backoff."""
    return {
        "max_connections": MAX_CONNECTIONS,
        "decode_responses": False,
        "socket_connect_timeout": SOCKET_TIMEOUT_SECONDS,
        "socket_timeout": COMMAND_TIMEOUT_SECONDS,
        "health_check_interval": HEALTH_CHECK_SECONDS,
        "retry": Retry(
            ExponentialBackoff(cap=BACKOFF_CAP_SECONDS, base=BACKOFF_BASE_SECONDS), RETRIES
        ),
    }


def _cluster_client(url: str) -> RedisCluster:
    """The cluster client for a ``redis+cluster://`` URL, with the single server's timeouts
    and retries; up to ``MAX_CONNECTIONS`` connections to each node."""
    scheme = urlsplit(url).scheme
    plain = scheme.removesuffix("+cluster") + url[len(scheme) :]
    return RedisCluster.from_url(plain, **_connection_options())


async def connect_url(
    url: str, *, total_seconds: float = CONNECT_SECONDS, delay: float = RETRY_DELAY_SECONDS
) -> Client:
    """A client for ``url`` that answered PING, retrying for about ``total_seconds``.

    Raise :class:`StorageUnavailableError` (one line, password redacted) when the server never
    answers in that time or refuses our credentials.
    """
    shown = redact_url(url)
    try:
        secret = urlsplit(url).password
        client = make_client(url)
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
