"""Output files, written whole or not at all, and the check that a place can take one (issue 33).

A file pacesim writes (a report, a trace, a model's CSV, a figure) appears at its path complete or not at
all: `written` gives a temporary file beside the path's real target (symbolic links followed) and renames it
over the target once the write is done; a write that fails (a full disk, a size limit, an interrupt) removes
the temporary file and leaves what was there before. A full disk left a 0-byte a-fig10.csv.

So what a write needs is to create a file in its target's real directory, and that is what `probe` checks,
by creating one and removing it. `os.access` did not tell the truth as root: it passes /proc/version,
/sys/..., /proc/tables, a dangling link and a link into a read-only file system, whose writes then fail
after the work (or, for /proc, with EIO at the end).

A target that exists and is no regular file is written in place if it is a character device (/dev/null,
/dev/full, a terminal), and refused (`unfit`) if it is a directory, a FIFO or a socket (a writer opening a
FIFO that no one reads waits for ever, without a word) or a block device (a disk).

A path that names one of this process's own open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
/proc/self/fd/N: a shell's `| cmd`, `>> log` or `>(cmd)`) is what the shell opened: a pipe with its reader,
or a file with its own position. It is neither refused nor replaced: the temporary file, once whole, is
copied through that descriptor (`>> log` keeps the log; renaming over /dev/stdout's file replaced it).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Iterator, Optional, Union

PathLike = Union[str, os.PathLike]


def real(path: PathLike) -> Path:
    """`path` with every symbolic link followed (those of a target that does not exist too)."""
    return Path(os.path.realpath(path))


def descriptor(path: PathLike) -> Optional[int]:
    """The number of this process's open descriptor that `path` names through its links (/dev/stdout: 1,
    /dev/fd/63: 63), or None."""
    own = re.compile(r"/proc/%d(?:/task/\d+)?/fd" % os.getpid())  # /proc/self/fd, /dev/fd as realpath writes them
    at = os.path.abspath(path)
    for _ in range(40):  # the kernel follows at most 40 links
        if own.fullmatch(os.path.realpath(os.path.dirname(at))) and os.path.basename(at).isdigit():
            return int(os.path.basename(at))
        if not os.path.islink(at):
            return None
        at = os.path.join(os.path.dirname(at), os.readlink(at))
    return None


def unfit(path: PathLike) -> Optional[str]:
    """Why file `path` (links followed) cannot take an output file written to it, or None: it does not exist,
    or it is a regular file or a character device."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (a named pipe, which blocks a writer until something reads it): name a file"
    if stat.S_ISSOCK(mode):
        return "is a socket: name a file"
    if stat.S_ISBLK(mode):
        return "is a block device (a disk): name a file"
    return None


_SEALS = {0x10: "immutable", 0x20: "append-only"}
"""Linux's inode flags (FS_IMMUTABLE_FL, FS_APPEND_FL, `chattr +i`, `chattr +a`) that bind root too: an
append-only file takes no write but at its end, nor a rename over it; an append-only directory takes new
files but lets none be removed or renamed, so neither a probe nor a file written whole can leave it."""


def sealed(path: PathLike) -> Optional[str]:
    """"immutable" or "append-only" if regular file or directory `path` carries that flag, else None (also
    where the file system keeps no such flags, or the path is something else)."""
    import struct

    try:
        import fcntl  # here: POSIX only, and only Linux's file systems answer FS_IOC_GETFLAGS

        mode = os.stat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a FIFO is never opened
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except (ImportError, OSError):
        return None
    try:
        flags = struct.unpack("i", fcntl.ioctl(fd, 0x80086601, struct.pack("i", 0)))[0]  # FS_IOC_GETFLAGS
    except OSError:  # ENOTTY: a file system without these flags (tmpfs, /proc)
        return None
    finally:
        os.close(fd)
    return next((name for bit, name in _SEALS.items() if flags & bit), None)


def probe(directory: PathLike) -> None:
    """Raise the OSError that creating a file in `directory` meets (EACCES, EROFS, ENOENT in /proc or /sys),
    by creating one and removing it; nothing if a file can be made there. An immutable or append-only
    directory is refused before anything is made in it (`sealed`: an append-only one would keep the probe)."""
    seal = sealed(directory)
    if seal:
        raise OSError(errno.EPERM, f"the directory is {seal} (chattr): nothing in it can be replaced or removed",
                      os.fspath(directory))
    fd, name = tempfile.mkstemp(dir=directory, prefix=".pacesim-probe-")
    os.close(fd)
    os.unlink(name)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def written(path: PathLike) -> Iterator[Path]:
    """The file to write for `path`: a new temporary file beside `path`'s real target, renamed over it when
    the block ends and removed if the block raises, with the mode (and, if this process may, the owner) of
    the file it replaces, or the mode a new file gets; the target itself if it exists and is no regular
    file (a character device, written in place). Raises OSError if no file can be made there. For one of
    this process's descriptors (`descriptor`), a temporary file copied through it when the block ends."""
    fd = descriptor(path)
    if fd is not None:
        with _through(fd, path) as tmp:
            yield tmp
        return
    target = real(path)
    try:
        was = os.stat(target)
    except FileNotFoundError:
        was = None
    if was is not None and not stat.S_ISREG(was.st_mode):
        why = unfit(target)
        if why:  # never opened: a FIFO would block
            raise OSError(errno.EISDIR if stat.S_ISDIR(was.st_mode) else errno.EINVAL, why, os.fspath(path))
        yield target
        return
    # The target's ending kept last: matplotlib takes a figure's format from it.
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:100]}.", suffix=target.suffix[:20])
    os.close(fd)
    tmp = Path(name)
    try:
        os.chmod(tmp, stat.S_IMODE(was.st_mode) if was is not None else 0o666 & ~_umask())
        if was is not None and os.geteuid() == 0:
            os.chown(tmp, was.st_uid, was.st_gid)
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def _through(fd: int, path: PathLike) -> Iterator[Path]:
    """A temporary file (with `path`'s ending) whose bytes, once the block ends well, are written to open
    descriptor `fd` at its own position, after what Python's streams hold; removed either way."""
    import sys

    handle, name = tempfile.mkstemp(prefix=".pacesim-", suffix=Path(path).suffix[:20])
    os.close(handle)
    tmp = Path(name)
    try:
        yield tmp
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        with open(tmp, "rb") as f:
            while chunk := f.read(1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view):]
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
