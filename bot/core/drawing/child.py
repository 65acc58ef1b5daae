"""The drawing process itself (``python -m bot.core.drawing.child FD``): it answers each frame read
from the socket FD, one after another, until the socket closes. A frame is its length (``HEADER``)
then a pickle: the work, ``(function, args, kwargs)``; the answer, ``(True, result)`` or
``(False, exception)``. It imports nothing more than that needs, so a process that has drawn
nothing yet is a bare interpreter; the work's own modules come with its first pickle.
"""

from __future__ import annotations

import pickle
import socket
import struct
import sys

__all__ = ["HEADER", "main"]

HEADER = struct.Struct("!I")


def main(argv: list[str] | None = None) -> int:
    """The child: answer each frame read from the socket ``argv[0]`` names, until it closes."""
    fd = int((sys.argv[1:] if argv is None else argv)[0])
    with socket.socket(fileno=fd) as sock, sock.makefile("rb") as incoming:
        try:
            while header := incoming.read(HEADER.size):
                (size,) = HEADER.unpack(header)
                body = incoming.read(size)
                try:
                    work, args, kwargs = pickle.loads(body)  # a function this tree lacks fails here, told
                    answer: tuple[bool, object] = (True, work(*args, **kwargs))
                except Exception as failed:
                    answer = (False, failed)
                try:
                    frame = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception as unpicklable:  # told as text rather than lost
                    frame = pickle.dumps((False, RuntimeError(f"{answer[1]!r} ({unpicklable})")))
                sock.sendall(HEADER.pack(len(frame)) + frame)
        except (OSError, struct.error, EOFError):  # the bot went away, mid-frame or not: nothing to answer
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
