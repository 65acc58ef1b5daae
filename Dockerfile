# syntax=docker/dockerfile:1
# The liuren Discord bot: a slim image, run as an unprivileged user, with a healthcheck.
#   docker build -t liuren-bot .
#   docker run -e DISCORD_TOKEN=... -v liuren-data:/data liuren-bot
# With PostgreSQL, see compose.yaml; backup and restore, bumping the base image, other builders
# (podman, buildah: add --format docker, or the HEALTHCHECK is dropped): docs/admin.md.

# One exact Python release on one Debian release, named once: both stages start from it, so the
# virtual environment built in the first runs on the same interpreter in the second. To bump it
# (a new Python patch release, a Debian security rebuild): docs/admin.md § Docker. The default is
# the image to ship; --build-arg BASE=... is for a machine without the registry (docs/admin.md).
ARG BASE=python:3.11.13-slim-bookworm
FROM ${BASE} AS base

FROM base AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
# A virtual environment without pip of its own: the base image's pip installs into it.
RUN python -m venv --without-pip /opt/liuren
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY texts ./texts
COPY bot ./bot
# The bot with both stores: SQLite (the default) and PostgreSQL (compose.yaml), and the gazetteer
# that resolves /cast's place names (~180 MB installed: the `place` extra). Versions are
# pyproject.toml's bounds; the image records what it got (`pip --python … freeze` in the build log).
# pip compiles the modules; keep_all does the same for the data's TOML (texts/shipped.py), which
# the unprivileged user could not write at the bot's start. -I: the installed texts, not ./texts.
# hadolint ignore=DL3013
RUN pip --python /opt/liuren/bin/python install ".[bot,postgres,place]" \
    && pip --python /opt/liuren/bin/python freeze \
    && /opt/liuren/bin/python -I -c "from texts.shipped import keep_all; print(keep_all(), 'TOML parses kept')"

FROM base
RUN groupadd --system --gid 10001 liuren \
    && useradd --system --create-home --uid 10001 --gid liuren liuren \
    && install -d -m 0700 -o liuren -g liuren /data
# Only the installed environment comes over: no wheels, sources or build tools in any layer.
COPY --from=build /opt/liuren /opt/liuren
# Numeric, so a runtime that checks for a non-root user (Kubernetes runAsNonRoot) can tell.
USER 10001:10001
WORKDIR /home/liuren
# SQLite by default, on the volume; set LIUREN_DB=postgresql://… to use a server instead.
ENV PATH=/opt/liuren/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    LIUREN_DB=/data/liuren.sqlite3 \
    LIUREN_HEALTH_FILE=/tmp/liuren-health
# /data is 0700 (a new named volume copies it): the database holds birth years and questions (docs/privacy.md).
VOLUME ["/data"]
# The scheduler touches LIUREN_HEALTH_FILE at least once a minute once connected. OCI-format
# builds (podman, buildah by default) drop this line: build with --format docker; compose.yaml
# repeats the check, so it runs whatever built the image.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["python", "-m", "bot.health"]
# SIGTERM: stop claiming posts, let sends in flight finish (up to 10 s), close the database, exit 0.
STOPSIGNAL SIGTERM
CMD ["liuren-bot"]
