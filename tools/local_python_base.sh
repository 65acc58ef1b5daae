#!/bin/sh
# For machines without the Docker registry only: builds a local stand-in for the Dockerfile's base
# (python:3.11.x-slim-bookworm), so the image can be built and checked there with
#   docker build --build-arg BASE=liuren-local/python:3.11-bookworm -t liuren-bot:test .
# Never ship an image built on it, and never tag it as the official python image.
#
# What it is: a Debian bookworm rootfs from debootstrap (minbase, plus the libraries CPython's
# extension modules load, as the slim image keeps them) with a CPython 3.11 that was built for
# bookworm already (PYTHON_PREFIX, e.g. a pyenv version) copied into /usr/local without its test
# suite, tkinter/IDLE, static library, symbols, bytecode or third-party packages (only pip and
# setuptools), as the official image leaves them out.
#
# Usage, as root, with debootstrap and a running Docker daemon:
#   tools/local_python_base.sh [PYTHON_PREFIX] [TAG]
set -eu

PYTHON_PREFIX=${1:-/root/.pyenv/versions/3.11.7}
TAG=${2:-liuren-local/python:3.11-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
VERSION=$("$PYTHON_PREFIX/bin/python3" -c 'import sys; print("%d.%d" % sys.version_info[:2])')

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOTFS=$WORK/rootfs

# The runtime libraries of the slim image (what its extension modules link, ca-certificates,
# netbase, tzdata); nothing to compile with.
debootstrap --variant=minbase \
    --include=ca-certificates,netbase,tzdata,libssl3,libsqlite3-0,libffi8,zlib1g,libbz2-1.0,liblzma5,libreadline8,libncursesw6,libuuid1,libexpat1,libgdbm6,libnsl2,libtirpc3 \
    bookworm "$ROOTFS" "$MIRROR"
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/var/log/*.log
# As Debian's slim images are made (debuerreotype --slimify): no manuals, translations or
# documents but the copyright files.
find "$ROOTFS/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$ROOTFS/usr/share/doc" -mindepth 1 -type d -empty -delete
find "$ROOTFS/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
rm -rf "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* "$ROOTFS"/usr/share/groff/* \
    "$ROOTFS"/usr/share/lintian/* "$ROOTFS"/usr/share/linda/*

# The interpreter and its standard library; of site-packages only pip and setuptools (a pyenv
# version carries whatever was installed into it, and files of the host's own).
LIB=lib/python$VERSION
rsync -a \
    --exclude="/$LIB/test/" --exclude="/$LIB/idlelib/" --exclude="/$LIB/tkinter/" \
    --exclude="/$LIB/turtledemo/" --exclude="/$LIB/lib-dynload/_tkinter*" \
    --exclude="/$LIB/config-*/libpython*.a" --exclude='__pycache__/' --exclude='*.pyc' \
    --exclude='test/' --exclude='tests/' --exclude='idle_test/' \
    --include="/$LIB/site-packages/" \
    --include="/$LIB/site-packages/pip/***" --include="/$LIB/site-packages/pip-*.dist-info/***" \
    --include="/$LIB/site-packages/setuptools/***" --include="/$LIB/site-packages/setuptools-*.dist-info/***" \
    --include="/$LIB/site-packages/pkg_resources/***" --include="/$LIB/site-packages/_distutils_hack/***" \
    --include="/$LIB/site-packages/distutils-precedence.pth" --exclude="/$LIB/site-packages/*" \
    --include="/bin/" --include="/bin/python$VERSION" --exclude='/bin/*' \
    --exclude='/share/' \
    "$PYTHON_PREFIX/" "$ROOTFS/usr/local/"
# The official images link with --strip-all; a pyenv build keeps its symbols (libpython 23 MB, not 6).
find "$ROOTFS/usr/local" -type f \( -name '*.so*' -o -name "python$VERSION" \) -exec strip --strip-all {} +
ln -s "python$VERSION" "$ROOTFS/usr/local/bin/python3"
ln -s python3 "$ROOTFS/usr/local/bin/python"
# The prefix's own pip scripts start with its path; these start with /usr/local's.
for name in pip pip3 "pip$VERSION"; do
    printf '#!/usr/local/bin/python%s\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n' \
        "$VERSION" > "$ROOTFS/usr/local/bin/$name"
    chmod 0755 "$ROOTFS/usr/local/bin/$name"
done
# libpython is found through ld.so.conf's /usr/local/lib, not the prefix's build-time runpath.
chroot "$ROOTFS" ldconfig
chroot "$ROOTFS" /usr/local/bin/python3 -c 'import ssl, sqlite3, ctypes, zlib, bz2, lzma, readline, uuid, pyexpat, venv'

tar -C "$ROOTFS" --numeric-owner -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    --message "local stand-in for python:$VERSION-slim-bookworm (tools/local_python_base.sh)" \
    - "$TAG"
docker image ls "$TAG"
