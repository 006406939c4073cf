"""The deployment files: Dockerfile, its entry point and health check, compose.yaml, and the
requirements file platform buildpacks install.

The files are parsed and their scripts run here; the image itself is built (and started
without ``REDIS_URL``) only where a container engine answers, otherwise that test is skipped
with the reason.
"""

from __future__ import annotations

import http.server
import json
import os
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL")


def _instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    joined = text.replace("\\\n", " ")
    result = []
    for line in joined.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        keyword, _, arguments = stripped.partition(" ")
        result.append((keyword.upper(), " ".join(arguments.split())))
    return result


def _final_stage() -> list[tuple[str, str]]:
    instructions = _instructions((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    last_from = max(i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM")
    return instructions[last_from:]


def _one(stage: list[tuple[str, str]], keyword: str) -> str:
    found = [arguments for name, arguments in stage if name == keyword]
    assert len(found) == 1, f"{keyword}: {found}"
    return found[0]


def test_image_is_slim_python() -> None:
    base = _one(_final_stage(), "FROM")
    assert base.startswith("python:3.") and "-slim" in base, base


def test_image_runs_the_bot_as_a_non_root_user() -> None:
    stage = _final_stage()
    user = _one(stage, "USER").split(":")[0]
    assert user not in ("root", "0"), user
    assert json.loads(_one(stage, "CMD")) == ["python", "-m", "bot"]


def test_image_checks_its_health_with_the_standard_library() -> None:
    healthcheck = _one(_final_stage(), "HEALTHCHECK")
    assert "--interval=" in healthcheck and "--start-period=" in healthcheck
    command = json.loads(healthcheck.split(" CMD ", 1)[1])
    assert command[0] == "python" and command[1].endswith("/healthcheck.py")


def test_no_secret_is_baked_into_the_image() -> None:
    instructions = _instructions((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    for keyword, arguments in instructions:
        if keyword in ("ENV", "ARG", "LABEL"):
            names = [part.split("=")[0].upper() for part in arguments.split()]
            assert not [n for n in names if any(w in n for w in SECRET_WORDS)], arguments
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    for pattern in (".env", ".git", ".venv", "data"):
        assert pattern in ignored, f".dockerignore lacks {pattern}"


def test_everything_the_image_copies_is_in_the_repository() -> None:
    for keyword, arguments in _instructions((ROOT / "Dockerfile").read_text(encoding="utf-8")):
        if keyword != "COPY" or arguments.startswith("--from="):
            continue
        for source in arguments.split()[:-1]:
            assert (ROOT / source).exists(), source


def _entrypoint(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(ROOT / "docker" / "entrypoint.sh"), "echo", "started"],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("value", [None, "", "  "])
def test_entrypoint_refuses_to_start_without_redis_url(value: str | None) -> None:
    done = _entrypoint({} if value is None else {"REDIS_URL": value})
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("tavola: REDIS_URL is not set")
    assert len(done.stderr.strip().splitlines()) == 1


def test_entrypoint_runs_the_command_with_redis_url() -> None:
    done = _entrypoint({"REDIS_URL": "redis://valkey:6379/0"})
    assert (done.returncode, done.stdout) == (0, "started\n")


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self) -> None:
        self.send_response(self.status if self.path == "/healthz" else 404)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def health_server() -> Iterator[http.server.HTTPServer]:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _healthcheck(env: dict[str, str]) -> int:
    return subprocess.run(
        [sys.executable, str(ROOT / "docker" / "healthcheck.py")],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        check=False,
    ).returncode


def test_healthcheck_asks_the_polling_health_port(health_server: http.server.HTTPServer) -> None:
    port = str(health_server.server_address[1])
    assert _healthcheck({"TAVOLA_HEALTH_PORT": port}) == 0
    assert _healthcheck({"TAVOLA_HEALTH_PORT": str(free_port())}) == 1
    _Health.status = 503
    try:
        assert _healthcheck({"TAVOLA_HEALTH_PORT": port}) == 1
    finally:
        _Health.status = 200


def test_healthcheck_asks_the_webhook_port_in_webhook_mode(
    health_server: http.server.HTTPServer,
) -> None:
    port = str(health_server.server_address[1])
    webhook = {"WEBHOOK_URL": "https://bot.example.org", "TAVOLA_HEALTH_PORT": str(free_port())}
    assert _healthcheck({**webhook, "PORT": port}) == 0
    assert _healthcheck({**webhook, "PORT": str(free_port())}) == 1


def _compose() -> dict[str, object]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_compose_runs_the_bot_against_its_valkey() -> None:
    compose = _compose()
    services = compose["services"]
    assert isinstance(services, dict)
    bot, valkey = services["bot"], services["valkey"]
    assert bot["build"] == "."
    assert bot["environment"]["REDIS_URL"] == "redis://valkey:6379/0"
    assert bot["depends_on"]["valkey"]["condition"] == "service_healthy"
    token = bot["environment"]["TELEGRAM_TOKEN"]
    assert token.startswith("${TELEGRAM_TOKEN:?"), "the token comes from the environment"
    assert valkey["image"].startswith("valkey/valkey:")


def test_compose_keeps_valkey_data_append_only_in_a_volume() -> None:
    compose = _compose()
    valkey = compose["services"]["valkey"]  # type: ignore[index]
    command = valkey["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    volume, target = valkey["volumes"][0].split(":")
    assert target == "/data"
    assert volume in compose["volumes"]  # type: ignore[operator]


def test_buildpacks_install_the_lock_and_the_project() -> None:
    lines = [
        line
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert lines == ["-r requirements.lock", "."]
    procfile = (ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
    assert {line.split(":", 1)[1].strip() for line in procfile if line} == {"python -m bot"}


def _container_engine() -> tuple[list[str], list[str]] | str:
    """The engine command and its extra options, or why no image can be built here.

    ``TAVOLA_CONTAINER_ENGINE`` (e.g. ``podman --runtime runc``) and
    ``TAVOLA_CONTAINER_OPTIONS`` (e.g. ``--network host``, given to build and run) adapt it
    to a machine; by default docker, else podman. The engine must run a container of the
    image's base (pulled if absent), else the test is skipped with its answer.
    """
    chosen = os.environ.get("TAVOLA_CONTAINER_ENGINE", "")
    candidates = [shlex.split(chosen)] if chosen else [["docker"], ["podman"]]
    options = shlex.split(os.environ.get("TAVOLA_CONTAINER_OPTIONS", ""))
    reasons = []
    for engine in candidates:
        if shutil.which(engine[0]) is None:
            reasons.append(f"{engine[0]}: not installed")
            continue
        probe = subprocess.run(
            [*engine, "run", "--rm", *options, BASE_IMAGE, "true"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0:
            return engine, options
        answer = (probe.stderr.strip().splitlines() or ["no answer"])[0]
        reasons.append(f"{engine[0]}: {answer}")
    return "; ".join(reasons)


BASE_IMAGE = _one(_final_stage(), "FROM")


@pytest.mark.slow
def test_image_builds_and_refuses_to_start_without_redis() -> None:
    found = _container_engine()
    if isinstance(found, str):
        pytest.skip(f"no container engine can run the base image here ({found})")
    engine, options = found
    tag = "localhost/tavola-test:latest"
    # podman writes OCI images unless told otherwise, and OCI images have no HEALTHCHECK.
    podman = Path(engine[0]).name == "podman"
    image_format = ["--format", "docker"] if podman else []
    build = [*engine, "build", *image_format, *options, "--tag", tag, str(ROOT)]
    subprocess.run(build, check=True)
    try:
        inspect = [*engine, "image", "inspect", "--format", "{{json .Config}}", tag]
        config = json.loads(subprocess.run(inspect, capture_output=True, check=True).stdout)
        assert config["User"].split(":")[0] not in ("", "0", "root")
        where = "{{json .HealthCheck}}" if podman else "{{json .Config.Healthcheck}}"
        inspect[-2] = where
        healthcheck = json.loads(subprocess.run(inspect, capture_output=True, check=True).stdout)
        assert healthcheck["Test"][:2] == ["CMD", "python"]
        assert config["Cmd"] == ["python", "-m", "bot"]
        done = subprocess.run(
            [*engine, "run", "--rm", *options, "--env", "TELEGRAM_TOKEN=1:x", tag],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2
        # The engine may log lines of its own before the container's.
        assert done.stderr.strip().splitlines()[-1].startswith("tavola: REDIS_URL is not set")
        user = subprocess.run(
            [*engine, "run", "--rm", *options, "--entrypoint", "id", tag, "-u"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert user.stdout.strip() == "10001"
    finally:
        subprocess.run([*engine, "rmi", "--force", tag], capture_output=True, check=False)
