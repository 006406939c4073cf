#!/bin/sh
# The image's entry point: refuses to start without REDIS_URL (the image has no embedded
# Valkey: its data would be lost with the container), in the bot's own start-up failure
# style (one `tavola: ` line, exit code 2), then runs the command (`python -m bot`).
if [ -z "$(printf '%s' "${REDIS_URL:-}" | tr -d '[:space:]')" ]; then
    echo "tavola: REDIS_URL is not set: the image has no embedded Valkey; point REDIS_URL at" \
        "a Redis or Valkey server, e.g. redis://valkey:6379/0 (see compose.yaml)" >&2
    exit 2
fi
exec "$@"
