"""The bot's Bot API client on aiohttp, in place of PTB's default on httpx.

httpx and httpcore are pure Python: parsing every answer (h11), checking the pool's
connections and streaming a multipart body piece by piece cost about half of the bot's CPU
under load. aiohttp parses HTTP in C and takes each body whole. This class keeps what PTB's
``HTTPXRequest`` promises its callers:

- the same request bodies: no parameters, an empty POST; parameters only, a url-encoded form
  (``RequestData.json_parameters``); with files, ``multipart/form-data`` with the parameters
  first and the files after, built here into one piece so it leaves in one write;
- the same timeouts and defaults (connect, read, write and pool; a media upload gets
  ``media_write_timeout`` for writing), ``DEFAULT_NONE`` meaning "this instance's default";
- the same errors: any timeout, the wait for a free connection included, is
  ``telegram.error.TimedOut``; any other failure of the HTTP layer ``NetworkError``;
- the same proxy: the one the environment names (``HTTPS_PROXY``, ``HTTP_PROXY``,
  ``NO_PROXY``), looked up once per host rather than on every request as aiohttp's
  ``trust_env`` would (in a thread, with a read of ``~/.netrc``). SOCKS proxies are not
  supported.

aiohttp has no timeout per socket write: the read timeout (between two pieces of the answer)
starts once the body is sent, and the sum of the connect, write and read timeouts bounds the
whole exchange, so a body that cannot be sent still fails in time.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, Final

import aiohttp
from aiohttp.helpers import get_env_proxy_for_url
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput, UploadFileDict
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData
from yarl import URL

#: httpx's seconds an idle connection is kept (aiohttp's default is 15).
KEEPALIVE_SECONDS = 5.0
POOL_TIMEOUT_MESSAGE: Final = (
    "Pool timeout: All connections in the connection pool are occupied. "
    "Request was *not* sent to Telegram. Consider adjusting the connection "
    "pool size or the pool timeout."
)
FORM: Final = "application/x-www-form-urlencoded"
#: A form field's name or file name as browsers (and httpx) write it in a part's header.
_FORM_PARAM_ESCAPES: Final = {
    ord('"'): "%22",
    ord("\\"): "\\\\",
    **{c: f"%{c:02X}" for c in range(0x20) if c != 0x1B},
}


def _form_param(name: str, value: str) -> bytes:
    return f'{name}="{value.translate(_FORM_PARAM_ESCAPES)}"'.encode()


def multipart_body(
    fields: dict[str, str], files: UploadFileDict, boundary: bytes | None = None
) -> tuple[bytes, str]:
    """The ``multipart/form-data`` body httpx would send for ``data=fields, files=files``,
    whole, and its content type (a random boundary unless one is given)."""
    boundary = boundary or secrets.token_hex(16).encode()
    pieces: list[bytes] = []
    for name, value in fields.items():
        pieces += [
            b"--%s\r\nContent-Disposition: form-data; %s\r\n\r\n"
            % (boundary, _form_param("name", name)),
            value.encode(),
            b"\r\n",
        ]
    for name, (file_name, content, mime_type) in files.items():
        data = content if isinstance(content, bytes) else content.read()
        disposition = _form_param("name", name)
        if file_name:  # httpx leaves an empty name out too
            disposition += b"; " + _form_param("filename", file_name)
        pieces += [
            b"--%s\r\nContent-Disposition: form-data; %s\r\nContent-Type: %s\r\n\r\n"
            % (boundary, disposition, mime_type.encode()),
            data,
            b"\r\n",
        ]
    pieces.append(b"--%s--\r\n" % boundary)
    return b"".join(pieces), f"multipart/form-data; boundary={boundary.decode()}"


class FewIdleConnector(aiohttp.TCPConnector):
    """A connector that keeps at most ``keep_idle`` idle connections per host: a burst opens
    as many connections as it needs, and all but a few close when it is over, instead of
    lingering until their keep-alive runs out."""

    def __init__(self, *, keep_idle: int | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._keep_idle = keep_idle

    def _release(self, key: Any, protocol: Any, *, should_close: bool = False) -> None:
        super()._release(key, protocol, should_close=should_close)
        idle = self._conns.get(key) if self._keep_idle is not None else None
        while idle and len(idle) > self._keep_idle:  # type: ignore[operator]
            oldest, _ = idle[0]
            del idle[0]
            oldest.close()


class AiohttpRequest(BaseRequest):
    """PTB's ``BaseRequest`` on an ``aiohttp.ClientSession``, created in ``initialize`` (in
    the running loop) and closed in ``shutdown``. The arguments are ``HTTPXRequest``'s;
    ``keepalive_connections`` bounds the connections left open while idle (None: all)."""

    __slots__ = (
        "_connect_timeout",
        "_keepalive_connections",
        "_media_write_timeout",
        "_pool",
        "_pool_size",
        "_pool_timeout",
        "_proxies",
        "_read_timeout",
        "_session",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
        keepalive_connections: int | None = None,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._keepalive_connections = keepalive_connections
        self._session: aiohttp.ClientSession | None = None
        self._pool: asyncio.Semaphore | None = None
        self._proxies: dict[str, tuple[URL | None, aiohttp.BasicAuth | None]] = {}

    @property
    def read_timeout(self) -> float | None:
        """See :attr:`BaseRequest.read_timeout`."""
        return self._read_timeout

    async def initialize(self) -> None:
        """See :meth:`BaseRequest.initialize`: a new session, in the running loop."""
        if self._session is not None and not self._session.closed:
            return
        connector = FewIdleConnector(
            keep_idle=self._keepalive_connections,
            limit=self._pool_size,
            limit_per_host=0,
            keepalive_timeout=KEEPALIVE_SECONDS,
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            cookie_jar=aiohttp.DummyCookieJar(),  # the Bot API sets none
            headers={"User-Agent": self.USER_AGENT},
            timeout=aiohttp.ClientTimeout(total=None),
        )
        # PTB's pool: at most ``connection_pool_size`` requests at once, a wait for a free
        # place bounded by the pool timeout (the connector itself never makes one wait).
        self._pool = asyncio.Semaphore(self._pool_size)
        self._proxies.clear()  # the environment is read again after a restart

    async def shutdown(self) -> None:
        """See :meth:`BaseRequest.shutdown`."""
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """See :meth:`BaseRequest.do_request`."""
        session, pool = self._session, self._pool
        if session is None or session.closed or pool is None:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        if isinstance(read_timeout, DefaultValue):
            read_timeout = self._read_timeout
        if isinstance(connect_timeout, DefaultValue):
            connect_timeout = self._connect_timeout
        if isinstance(pool_timeout, DefaultValue):
            pool_timeout = self._pool_timeout
        if isinstance(write_timeout, DefaultValue):
            write_timeout = self._media_write_timeout if files else self._write_timeout
        timeout = aiohttp.ClientTimeout(
            total=(
                None
                if read_timeout is None or write_timeout is None or connect_timeout is None
                else connect_timeout + write_timeout + read_timeout
            ),
            sock_connect=connect_timeout,
            sock_read=read_timeout,
        )
        body: bytes | None = None
        headers: dict[str, str] | None = None
        if request_data is not None:
            if files:
                body, content_type = multipart_body(request_data.json_parameters, files)
            else:
                body, content_type = request_data.url_encoded_parameters().encode(), FORM
            headers = {"Content-Type": content_type}

        proxy, proxy_auth = self._proxy_for(url)
        if pool.locked():
            try:
                async with asyncio.timeout(pool_timeout):
                    await pool.acquire()
            except TimeoutError as err:
                raise TimedOut(message=POOL_TIMEOUT_MESSAGE) from err
        else:
            await pool.acquire()
        try:
            async with session.request(
                method,
                url,
                data=body,
                headers=headers,
                timeout=timeout,
                proxy=proxy,
                proxy_auth=proxy_auth,
            ) as response:
                return response.status, await response.read()
        except TimeoutError as err:  # aiohttp's timeouts are TimeoutErrors too
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err
        finally:
            pool.release()

    def _proxy_for(self, url: str) -> tuple[URL | None, aiohttp.BasicAuth | None]:
        """The environment's proxy for ``url``'s scheme and host (None: direct)."""
        origin = url.split("/", 3)[:3]  # scheme, "", host[:port]
        key = "/".join(origin)
        found = self._proxies.get(key)
        if found is None:
            try:
                found = get_env_proxy_for_url(URL(key))
            except LookupError:
                found = (None, None)
            self._proxies[key] = found
        return found
