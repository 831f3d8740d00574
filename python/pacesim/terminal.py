"""What the command line prints of a user's words, and how it stops on an error (issue 33).

Names, paths and values a user gave come back in errors and tables. Each is
printed as text, never as rich markup, and with its control characters made
visible (`shown`, with `messages.printable`: ESC as `\\x1b`), so that a name cannot move the cursor,
retitle the terminal or hide what follows. Errors are printed without rich's
highlighter, whose regular expressions take time quadratic in the message's
length (a 40,000-character key took 26 s to print).

Numbers for people follow one rule on the command line, in the reports and on the
site: a count with a comma every three digits (18,000 flows; Python's `{:,}`, the
site's `count` filter), a measured value to three significant figures, written out
(`report_tables.figures`).

A command's standard output may be a pipe that its reader closes early
(`pacesim run ... | head`). The commands write their files before they print,
and `command` makes each stop printing then and end with status 141 (128 +
SIGPIPE, as a shell reports a writer stopped by the pipe) and a line on
standard error, never a traceback. An output small enough to fit in the pipe's
buffer raises nothing when its reader goes away (`run --json - | head -c 100`
cut the report and exited 0): at its end a command waits for the reader to take
what is left in the pipe (`_cut_short`, at most `READER_WAIT_S`), and a reader
gone with bytes unread ends it with 141 too. It also refuses, naming its option, a path
the file system cannot even look up (a name longer than it holds).
"""

from __future__ import annotations

import array
import errno
import fcntl
import functools
import inspect
import os
import select
import stat
import sys
import termios
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, List, NoReturn, Optional, Tuple, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from . import outfile
from .messages import printable


class _Console(Console):
    """rich's console, but a closed pipe raises BrokenPipeError for `command` to handle (rich's own ends the
    process with status 1 and no word)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


err = _Console(stderr=True, highlight=False)


def out(**options) -> Console:
    """A console on standard output (rich's `options`, e.g. `width`)."""
    return _Console(**options)


PIPE_CLOSED = 141
"""Exit status when standard output's reader went away: 128 + SIGPIPE (13)."""

READER_WAIT_S = 2.0
"""At its end, how long a command waits for a pipe's reader to take the output left in the pipe, or go
away before taking it all (`_cut_short`); a reader slower than this is taken to read it later."""

F = TypeVar("F", bound=Callable)


def shown(text: object) -> str:
    """`text` as one line safe on a terminal (`messages.printable`): "a\\x1b[31mb" prints as `a\\x1b[31mb`; a tab
    as `\\t` (rich would print it as spaces, so that a name with one would not read as given) and a newline as
    `\\n` too (a file name "a\\nb" broke its error in two lines, the second as if a line of its own). A
    message of several lines shows each with `shown` (`plain`)."""
    return printable(str(text)).replace("\t", "\\t").replace("\n", "\\n")


def plain(*lines: object) -> Text:
    """A table cell, or lines of a user's words: each `shown`, never read as markup, one line each."""
    return Text("\n".join(shown(line) for line in lines))


def say(text: object) -> None:
    """Print a line of a user's words on standard output, whole (a path is not broken at the terminal's width)."""
    out().print(plain(text), soft_wrap=True)


def _error(message: str) -> None:
    """Print `error: MESSAGE` on standard error."""
    err.print(Text.assemble(("error:", "red"), " ", shown(message)), soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print `error: MESSAGE` on standard error and end the command with status `code` (2: bad input;
    1: the work failed)."""
    _error(message)
    raise typer.Exit(code)


FAILING = (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG)
"""OSErrors of the file system failing the work (exit status 1: a full disk, a quota, an I/O fault, a file size
limit); any other, of the place given (2)."""


def write_failed(what: str, e: OSError) -> NoReturn:
    """End a command whose write to `what` (an option and its file) raised `e`: status 1 if the file system
    failed (`FAILING`: a full disk, an I/O fault), 2 if the place cannot be written (a directory, a missing
    parent, no permission)."""
    fail(f"{what}: {e.strerror or e}", 1 if e.errno in FAILING else 2)


def writable(option: str, path: Path, *, file: bool = False, make: bool = False, given: Optional[Path] = None) -> None:
    """End the command with an error naming `option` and `given` (what the user typed; `path` if None) unless
    this process can write at `path`, checked before any work (status 2: the place given is unusable), by
    creating a file there and removing it (`outfile.probe`: `os.access` passes /proc and /sys as root). With
    `file`: file `path` (links followed), written as `outfile.written` writes it: in a directory that exists
    and takes new files; if it exists, a regular file (writable) or a character device (/dev/null), never a
    directory, FIFO, socket or block device. Else directory `path`: with `make`, made with its parents (a
    read-only store's plots/ refused at once); without, made nothing (a command that ends writing nothing
    leaves no directory behind): it, or the nearest directory above it that exists, takes new files."""
    named = f"{option} {given if given is not None else path}"
    try:
        if file:
            fd = outfile.descriptor(path)
            if fd is not None:  # what the shell opened (`| cmd`, `>> log`): written through
                try:
                    mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
                except OSError:
                    fail(f"{named}: descriptor {fd} is not open in this process")
                if mode == os.O_RDONLY:  # `--json /dev/stdin < file`: failed only after the run
                    fail(f"{named}: descriptor {fd} is open for reading only")
                return
            why = outfile.unfit(path)
            if why:
                fail(f"{named}: {why}")
            target = outfile.real(path)
            if not target.parent.is_dir():
                link = path.is_symlink() or outfile.real(path.parent) != target.parent
                fail(f"{named}: no directory {target.parent if link else path.parent}")
            if target.exists() and not stat.S_ISREG(target.stat().st_mode):  # a character device: written in place
                os.close(os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK))
                return
            if target.exists() and not os.access(target, os.W_OK):  # its permissions (which bind all but root)
                fail(f"{named}: not writable")
            seal = target.exists() and outfile.sealed(target)
            if seal:  # binds root too: no rename over it
                fail(f"{named}: not writable: the file is {seal} (chattr)")
            try:
                outfile.probe(target.parent)
            except OSError as e:
                fail(f"{named}: not writable: no file can be made in {target.parent} ({e.strerror or e})")
            return
        at = path
        while not make and not at.exists() and not at.is_symlink() and at != at.parent:
            at = at.parent
        if at.is_symlink() and not at.exists():
            fail(f"{named}: {at} is a link to {os.readlink(at)}, which does not exist")
        place = "" if make or at == path else f"{at} "  # a directory given, or one made: "the directory"
        if at.exists() and not at.is_dir():
            from .fields import special  # pydantic's models: not loaded for --version

            fail(f"{named}: {place}is {special(at) or 'a file'}, not a directory")
        if make:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                fail(f"{named}: cannot make the directory: {e.strerror or e}")
        try:
            outfile.probe(at)
        except OSError as e:
            why = "" if outfile.sealed(at) else (": a read-only file system, a pseudo-file system such as /proc, "
                                                 "or no permission")
            fail(f"{named}: cannot write in {place or 'the directory '}({e.strerror or e}{why})")
    except (OSError, ValueError) as e:  # a name too long for the file system, a NUL
        fail(f"{named}: {getattr(e, 'strerror', None) or e}")


def warn(message: str) -> None:
    """Print `warning: MESSAGE` on standard error."""
    err.print(Text.assemble(("warning:", "yellow"), " ", shown(message)), soft_wrap=True)


def _shown_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """`warnings.showwarning` for a command: pacesim's own warnings (a damaged stored run named and run
    again) as `warning: MESSAGE`, without Python's file, line and source of the call that warned; any
    other package's in Python's form."""
    if category.__module__.split(".")[0] == "pacesim":
        warn(str(message))
    else:
        _python_showwarning(message, category, filename, lineno, file, line)


_python_showwarning = warnings.showwarning


def _paths(fn: Callable) -> List[Tuple[str, str]]:
    """(parameter, its name on the command line) of each path argument or option of command `fn`."""
    out = []
    for p in inspect.signature(fn).parameters.values():
        if "Path" in str(p.annotation):
            decls = [d for d in getattr(p.default, "param_decls", None) or [] if d.startswith("-")]
            out.append((p.name, decls[0] if decls else p.name.upper()))
    return out


def path_text(typed: str) -> str:
    """A file's path given as text (an option that also takes `-`, as `run --json`), as typed; an empty one
    refused (read as a path it was the current directory: `run --json ''` said "`.`: is a directory"). A
    command's `parser` for such an option."""
    if typed == "":
        raise typer.BadParameter("an empty path; name a file, or - for standard output")
    return typed


def _path(typed: str) -> Path:
    """A file's path argument as typed; an empty one refused (typer made it the current directory)."""
    if typed == "":
        raise typer.BadParameter("an empty path; name a file")
    return Path(typed)


def _directory(typed: str) -> Path:
    """A directory's path argument as typed; an empty one refused (typer made it the current directory:
    `model --out ''` wrote there without a word), saying how to name that one."""
    if typed == "":
        raise typer.BadParameter("an empty path; name a directory ('.' for this one)")
    return Path(typed)


def _path_or_stdout(typed: str) -> Path:
    """A file's path argument, or `-` for standard output, as typed; an empty one refused saying both
    (`path_text`)."""
    return Path(path_text(typed))


def _takes_stdout(param: inspect.Parameter) -> bool:
    """Whether a path parameter also takes `-`, as its help says ("- for standard output": `results --csv`)."""
    return "- for standard output" in (getattr(param.default, "help", None) or "")


def _names_a_directory(param: inspect.Parameter) -> bool:
    """Whether a path parameter is a directory's, as its help's first sentence says ("Output directory ...")."""
    return "directory" in (getattr(param.default, "help", None) or "").split(". ")[0].lower()


def _looked_up(paths: List[Tuple[str, str]], values: dict) -> None:
    """Refuse, naming its option, a path the file system cannot even look up (a name longer than it holds,
    a NUL, a loop of links); one that does not exist is the command's to judge."""
    for name, shown_as in paths:
        given = values.get(name)
        for value in given if isinstance(given, (list, tuple)) else [given]:
            try:
                if value is not None:
                    os.stat(value)
            except OSError as e:
                if e.errno not in (errno.ENOENT, errno.ENOTDIR):
                    fail(f"{shown_as} {value}: {e.strerror or e}")
            except ValueError as e:  # a NUL in the name
                fail(f"{shown_as} {value!r}: {e}")


def _cut_short(fd: int, wait_s: float = READER_WAIT_S) -> int:
    """Bytes written to pipe `fd` that its reader left unread when it closed its end (0 if it read them all,
    is still reading after `wait_s`, or `fd` is no pipe). Linux keeps a pipe's unread bytes, and counts them
    (FIONREAD), until its writer closes it too; poll reports POLLERR on the writing end once no reader is left."""
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return 0
        unread, gone = array.array("i", [0]), select.poll()
        gone.register(fd, 0)  # POLLERR and POLLHUP are reported unasked
        end = time.monotonic() + wait_s
        while True:
            fcntl.ioctl(fd, termios.FIONREAD, unread)
            if unread[0] == 0:
                return 0
            if gone.poll(10):
                return unread[0]
            if time.monotonic() > end:
                return 0
    except OSError:  # no FIONREAD or poll on this file: nothing known
        return 0


def _stdout_fd() -> int:
    """Standard output's file descriptor, -1 if it has none (a test's captured output)."""
    try:
        return sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return -1


def _stdout_closed() -> bool:
    """Whether this process was started with no standard output to write to: closed (`>&-`, which leaves
    Python's `sys.stdout` None, and each print an AttributeError) or open for reading only (`1</dev/null`)."""
    if sys.stdout is None:
        return True
    fd = _stdout_fd()
    try:
        return fd >= 0 and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
    except OSError:  # EBADF: closed under Python's own stream
        return True


def _discarded(stream) -> None:
    """Point `stream`'s file descriptor at /dev/null (nothing if it has none: a test's captured output)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class _StdoutFailed(OSError):
    """A write to standard output failed other than by its reader going away (a full device: `>/dev/full`)."""


class _Stdout:
    """`sys.stdout` whose failed writes raise `_StdoutFailed`, told apart from a failed write to a file;
    a closed pipe's BrokenPipeError passes as it is (`command`'s)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

    def _named(self, do: Callable, *args):
        try:
            return do(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _StdoutFailed(e.errno, e.strerror) from e

    def write(self, text: str) -> int:
        return self._named(self._stream.write, text)

    def flush(self) -> None:
        self._named(self._stream.flush)


@contextmanager
def stdout_guarded() -> Iterator[None]:
    """The whole command line, `--help`, `--version` and completion included, with a standard output it can write
    to: one it cannot write to at all (`_stdout_closed`) refused before anything runs, status 2 (what was given
    cannot be used); a write to it that fails (a full device) ends it with `error: standard output: WHY`,
    status 1 if the file system failed (`FAILING`) or 2, never a traceback."""
    if _stdout_closed():
        _error("standard output cannot be written (closed, or open for reading only): the command prints there; "
               "give it one (>/dev/null to discard what it prints)")
        sys.exit(2)
    given = sys.stdout
    sys.stdout = _Stdout(given)
    try:
        yield
    except _StdoutFailed as e:
        _error(f"standard output: {e.strerror or e}")
        _discarded(given)  # what is left in its buffer is not written again at the interpreter's exit
        sys.exit(1 if e.errno in FAILING else 2)
    finally:
        sys.stdout = given


def command(fn: F) -> F:
    """`fn` as a command that refuses a path the file system cannot look up (`_looked_up`) and survives its
    standard output being closed by its reader (see the module's docstring; a standard output that cannot be
    written at all is `stdout_guarded`'s)."""

    paths = _paths(fn)
    # typer turns '' into Path('.'): each path parameter without a parser of its own reads its text with `_path`,
    # or `_directory` for a directory's, `_path_or_stdout` for a file's that also takes `-`.
    for p in inspect.signature(fn).parameters.values():
        if "Path" in str(p.annotation) and getattr(p.default, "parser", False) is None:
            p.default.parser = _directory if _names_a_directory(p) else _path_or_stdout if _takes_stdout(p) else _path

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        _looked_up(paths, kwargs)
        try:
            with warnings.catch_warnings():
                warnings.showwarning = _shown_warning
                done = fn(*args, **kwargs)
            sys.stdout.flush()  # a pipe's buffer is written here, not at the interpreter's exit
            fd = _stdout_fd()
            left = _cut_short(fd) if fd >= 0 else 0
            if left:
                err.print(f"standard output closed by its reader with {left:,} bytes of it unread", soft_wrap=True)
                raise typer.Exit(PIPE_CLOSED)
            return done
        except BrokenPipeError:
            _discarded(sys.stdout)  # later writes and the interpreter's final flush go nowhere, not raising again
            err.print("standard output closed by its reader: printing stopped", soft_wrap=True)
            raise typer.Exit(PIPE_CLOSED) from None

    return guarded  # type: ignore[return-value]
