# syntax=docker/dockerfile:1
# The liuren Discord bot: a slim image, run as an unprivileged user, with a healthcheck.
#   docker build -t liuren-bot .
#   docker run -e DISCORD_TOKEN=... -v liuren-data:/data liuren-bot
# With PostgreSQL, see compose.yaml; backup and restore: docs/admin.md.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE* ./
COPY engine ./engine
COPY texts ./texts
COPY bot ./bot
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --system --create-home --uid 10001 liuren \
    && mkdir /data && chown liuren:liuren /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER liuren
WORKDIR /home/liuren
# SQLite by default, on the volume; set LIUREN_DB=postgresql://… to use a server instead.
ENV PYTHONUNBUFFERED=1 \
    LIUREN_DB=/data/liuren.sqlite3 \
    LIUREN_HEALTH_FILE=/tmp/liuren-health
VOLUME ["/data"]
# The scheduler touches LIUREN_HEALTH_FILE at least once a minute once connected.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["python", "-m", "bot.health"]
# SIGTERM: stop claiming posts, let sends in flight finish (up to 10 s), close the database, exit 0.
STOPSIGNAL SIGTERM
CMD ["liuren-bot"]
