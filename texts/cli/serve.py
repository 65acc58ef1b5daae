"""``liuren mcp [--http HOST:PORT]``: the arguments of the MCP server (texts/cli/mcp.py), read
without the MCP SDK, so ``liuren`` without the ``[mcp]`` extra still parses them and says which
extra is missing.

    >>> address("8765"), address("0.0.0.0:8765"), address("[::1]:8765")
    (('127.0.0.1', 8765), ('0.0.0.0', 8765), ('::1', 8765))
"""

from __future__ import annotations

import argparse
from typing import Any

LOCAL = "127.0.0.1"  # the HTTP transport listens here unless HOST is given


def address(given: str) -> tuple[str, int]:
    """(host, port) of ``PORT`` or ``HOST:PORT``; ValueError naming what is accepted."""
    host, _, port = given.rpartition(":")
    host = host.strip("[]") or LOCAL
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--http {given!r}: give PORT or HOST:PORT, e.g. 8765 or 127.0.0.1:8765")
    return host, int(port)


def add_parser(sub: Any) -> None:
    """Add ``mcp`` to the ``liuren`` subcommands ``sub``."""
    m = sub.add_parser("mcp", help="serve the chart and the text to AI assistants over MCP (stdio; docs/mcp.md)")
    m.add_argument("--http", metavar="HOST:PORT", default=None,
                   help=f"serve streamable HTTP instead of stdio (HOST defaults to {LOCAL})")


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes; ValueError for a bad address or a missing ``[mcp]`` extra."""
    http = None if args.http is None else address(args.http)
    try:
        from texts.cli.mcp import serve
    except ModuleNotFoundError as error:  # the SDK is the [mcp] extra: say so, no traceback
        raise ValueError(f"{error}: liuren mcp needs the mcp extra (pip install 'liuren[mcp]')") from None
    serve(http)
    return 0
