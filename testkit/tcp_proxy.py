"""A TCP proxy on 127.0.0.1 that a test can blackhole: connections are accepted and their bytes
taken, but nothing is forwarded either way (as a network path that silently drops every packet);
``heal`` lets the held bytes through and relays again, as TCP does once the path is back.
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["TcpProxy"]

_CHUNK = 65536


class TcpProxy:
    """``async with TcpProxy(host, port) as proxy``: connect to ``proxy.port`` instead of ``port``."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.target = host, port
        self.port = 0
        self._open = asyncio.Event()
        self._open.set()
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._accepted, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._open.set()
        if self._server is not None:
            self._server.close()
        for pipe in list(self._pipes):
            pipe.cancel()
        for pipe in list(self._pipes):
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await pipe

    def blackhole(self) -> None:
        """From now on nothing passes, on connections old and new, until ``heal``."""
        self._open.clear()

    def heal(self) -> None:
        self._open.set()

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._open.wait()  # a connection made into the blackhole is answered only after the heal
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target)
        except OSError:
            writer.close()
            return
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(_CHUNK):
                await self._open.wait()  # held, not dropped: delivered after the heal
                sink.write(data)
                await sink.drain()
        except OSError:
            pass
        finally:
            sink.close()
