"""ns-2 packet traces as text (ns-2 2.35's `Trace::format`, docs/trace.md): reading one line by line, each
line checked field by field, so that a garbled file is an error naming its line and field.

A line is `EVENT TIME FROM TO TYPE SIZE FLAGS FLOW SRC.PORT DST.PORT SEQ UID`, e.g.
`+ 1.084264 4 2 tcp 1040 ------- 0 4.0 6.0 3 17`; EVENT is `+` (enqueue), `-` (dequeue), `d` (drop) or `r`
(receive at the link's far end), TIME is in seconds.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Tuple, Union

from .fields import special

FIELDS = ("event", "time", "from", "to", "type", "size", "flags", "flow", "src", "dst", "seq", "uid")
"""The fields of a line, in order."""

EVENTS = "+-dr"


class TraceError(ValueError):
    """A trace that cannot be read: its file, line (from 1, 0 for the file itself) and field."""

    def __init__(self, path: Union[str, Path], line: int, field: str, message: str):
        self.path, self.line, self.field = str(path), line, field
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {field}: {message}")


@dataclass(frozen=True)
class TraceLine:
    """One event: its line number (from 1), text and fields (`time` in seconds, the ids as ints)."""

    number: int
    text: str
    event: str
    time: float
    from_: int
    to: int
    type: str
    size: int
    flags: str
    flow: int
    src: Tuple[int, int]
    dst: Tuple[int, int]
    seq: int
    uid: int

    def field(self, name: str):
        """The value of field `name` (one of FIELDS)."""
        return getattr(self, "from_" if name == "from" else name)


def _int(path, n: int, field: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TraceError(path, n, field, f"{text!r} is not an integer") from None


def _address(path, n: int, field: str, text: str) -> Tuple[int, int]:
    node, dot, port = text.partition(".")
    if not dot:
        raise TraceError(path, n, field, f"{text!r} is not NODE.PORT")
    return _int(path, n, field, node), _int(path, n, field, port)


def parse(path, n: int, text: str) -> TraceLine:
    """Line `n` of `path`, read; a TraceError names the field that is wrong."""
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise TraceError(path, n, "line", f"{len(parts)} fields, expected {len(FIELDS)} ({' '.join(FIELDS)})")
    event, time, a, b, kind, size, flags, flow, src, dst, seq, uid = parts
    if len(event) != 1 or event not in EVENTS:
        raise TraceError(path, n, "event", f"{event!r} is not one of {' '.join(EVENTS)}")
    try:
        t = float(time)
    except ValueError:
        raise TraceError(path, n, "time", f"{time!r} is not a number") from None
    if not t >= 0:
        raise TraceError(path, n, "time", f"{time} is not a time (seconds >= 0)")
    return TraceLine(
        n, text, event, t, _int(path, n, "from", a), _int(path, n, "to", b), kind, _int(path, n, "size", size),
        flags, _int(path, n, "flow", flow), _address(path, n, "src", src), _address(path, n, "dst", dst),
        _int(path, n, "seq", seq), _int(path, n, "uid", uid),
    )


MAX_LINE = 1000
"""The longest line read, in characters (ns-2's are under 100): a longer one, or a file with no line end (a
device), is an error rather than a read without end."""


def lines(path: Union[str, Path]) -> Iterator[Tuple[int, str]]:
    """The non-blank lines of trace file `path` (gzip-compressed if it ends in `.gz`) with their numbers
    (from 1), stripped; a TraceError for a missing or unreadable file, one that is no regular file (asked
    before opening it: a FIFO waits for a writer, a device such as /dev/zero reads without end), one that
    is not ASCII text, or a line longer than `MAX_LINE`."""
    kind = special(path)
    if kind:
        raise TraceError(path, 0, "file", f"is {kind}, not a regular file")
    try:
        f = gzip.open(path, "rt", encoding="ascii") if str(path).endswith(".gz") else open(path, encoding="ascii")
    except OSError as e:
        raise TraceError(path, 0, "file", e.strerror or str(e)) from None
    with f:
        try:
            n, rest = 0, ""
            for block in iter(lambda: f.read(1 << 20), ""):
                *whole, rest = (rest + block).split("\n")
                for text in whole:
                    n += 1
                    if len(text) > MAX_LINE:
                        raise TraceError(path, n, "line", f"longer than {MAX_LINE} characters: not a trace line")
                    text = text.strip()
                    if text:
                        yield n, text
                if len(rest) > MAX_LINE:
                    raise TraceError(path, n + 1, "line", f"longer than {MAX_LINE} characters: not a trace line")
            if rest.strip():
                yield n + 1, rest.strip()
        except (UnicodeDecodeError, OSError, EOFError) as e:
            raise TraceError(path, 0, "file", f"not a text trace ({getattr(e, 'reason', e)})") from None


def read(path: Union[str, Path]) -> Iterator[TraceLine]:
    """The events of trace file `path` (as `lines` reads it) in order; a TraceError for a garbled line."""
    for n, text in lines(path):
        yield parse(path, n, text)
