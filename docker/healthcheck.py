"""The image's HEALTHCHECK: ``/healthz`` of the running bot, with the standard library only.

In webhook mode (``WEBHOOK_URL`` set) the bot answers it on the webhook's ``PORT``
(default 8080), in polling mode on ``TAVOLA_HEALTH_PORT`` (default 8081), always on
127.0.0.1 from inside the container. Exit status 0 = healthy, 1 = not (Docker's contract).
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping


def health_url(env: Mapping[str, str]) -> str:
    """Where the bot's liveness answer is, from the same settings the bot reads."""
    if env.get("WEBHOOK_URL", "").strip():
        port = env.get("PORT", "").strip() or "8080"
    else:
        port = env.get("TAVOLA_HEALTH_PORT", "").strip() or "8081"
    return f"http://127.0.0.1:{port}/healthz"


def main() -> int:
    try:
        with urllib.request.urlopen(health_url(os.environ), timeout=4) as answer:
            return 0 if answer.status == 200 else 1
    except (urllib.error.URLError, OSError) as error:
        print(f"unhealthy: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
