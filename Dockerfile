# Tavola's image: the bot alone, run as an unprivileged user, talking to an external
# Redis/Valkey (REDIS_URL is required: the embedded Valkey of `./scripts/run.sh` is off here,
# its data would die with the container). No secret is baked in: TELEGRAM_TOKEN and the
# rest come from the environment at `docker run` / compose time. See the README, Deployment.

FROM python:3.11-slim AS build
WORKDIR /src
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
COPY pyproject.toml README.md LICENSE ./
COPY bot bot
COPY engine engine
COPY render render
COPY storage storage
COPY benchmarks benchmarks
RUN python -m pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
# The exact versions the test suite passed with, then the project's wheel alone.
COPY requirements.lock /tmp/requirements.lock
RUN python -m pip install -r /tmp/requirements.lock && rm /tmp/requirements.lock
COPY --from=build /wheels /wheels
RUN python -m pip install --no-deps /wheels/*.whl && rm -r /wheels
COPY docker/entrypoint.sh docker/healthcheck.py /usr/local/lib/tavola/
RUN useradd --create-home --uid 10001 --user-group tavola
USER 10001:10001
WORKDIR /home/tavola
# 8080: the webhook (PORT, webhook mode); 8081: /healthz and /readyz in polling mode.
EXPOSE 8080 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "/usr/local/lib/tavola/healthcheck.py"]
ENTRYPOINT ["/usr/local/lib/tavola/entrypoint.sh"]
CMD ["python", "-m", "bot"]
