"""What an error message may show of what a user wrote: text safe for a terminal, of bounded length.

A name, key or file name echoed in an error goes to a terminal: an escape sequence in it (ESC [ ...,
a carriage return, a bidirectional override) would act on the terminal rather than be read, so control
characters are written as Python escapes (`\\x1b`). A run of tens of thousands of characters without a
space is cut, to keep a message readable (rich, which prints the CLI's errors, once took 23 s to print a
40,000-character key; issue 33); a path of up to `LONG_RUN` characters is shown whole.
"""

from __future__ import annotations

import re
from typing import Any

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 control characters but tab and newline, DEL, and the bidirectional marks and overrides."""
LONG_RUN = 4096
"""The most characters without a space a message shows in one piece (PATH_MAX: a path is shown whole)."""
SHOWN = 1000
"""How many characters of a longer run it shows, before saying how long the run is."""
_LONG = re.compile(r"\S{%d,}" % (LONG_RUN + 1))


def shown(value: Any) -> str:
    """`value` as an error message shows it: its repr, cut at 80 characters."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4300-digit limit for printing
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    return text if len(text) <= 80 else text[:77] + "..."


def printable(text: str) -> str:
    """`text` with its control characters escaped and each run of more than `LONG_RUN` characters without
    a space cut to its first `SHOWN` and its length."""
    text = CONTROL.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), text)
    return _LONG.sub(lambda m: f"{m[0][:SHOWN]}... ({len(m[0]):,} characters)", text)
