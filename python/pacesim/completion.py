"""Shell completion (`pacesim --install-completion`): the words the shell is offered after a command, read
from the package's files rather than by loading the scenario models or the papers' figures, so that a TAB
answers at once."""

from __future__ import annotations

import glob
import os
import re
import shlex
import sqlite3
from pathlib import Path
from typing import List, Tuple

import typer
from typer import _completion_classes  # typer's shell classes and their registry (its own copy of click's)

from .metric_names import METRICS

HERE = Path(__file__).resolve().parent
PACKAGED = HERE / "scenarios"
"""The packaged scenarios (lower-case names) and sweep files (a catalogue id each); `scenario.PACKAGED`."""


def scenarios(incomplete: str) -> List[str]:
    """A scenario argument: the packaged scenarios' names, and TOML files and directories, that begin with it."""
    names = sorted(f.stem for f in PACKAGED.glob("[a-z]*.toml") if f.stem.startswith(incomplete))
    files = sorted(str(f) for f in Path().glob(f"{glob.escape(incomplete)}*") if f.suffix == ".toml" or f.is_dir())
    return names + files


def _as_typed(incomplete: str, names) -> List[str]:
    """The names that begin with `incomplete` in any case, each beginning as typed (`e-fig1` offers `e-fig11`):
    typer passes on only the words that begin with the word typed, in its case, and the commands take ids in
    any case."""
    return sorted(incomplete + n[len(incomplete):] for n in names if n.lower().startswith(incomplete.lower()))


def catalogue_ids(incomplete: str) -> List[str]:
    """`reproduce ID`: the ids it runs that begin with `incomplete` (any case, `_as_typed`), the names of their
    sweep files (loading the papers' figures, matplotlib and all, took 3 s)."""
    return _as_typed(incomplete, (f.stem for f in PACKAGED.glob("[A-Z]-*.toml")))


_MODEL = re.compile(r'^@model\(\s*"([^"]+)"', re.M)
"""A model's id, the first argument of its `@model` decorator (pacesim/papers/<paper>/models.py)."""


def model_ids(incomplete: str) -> List[str]:
    """`model ID`: the analytical models' ids that begin with `incomplete` (any case, as `pacesim model` takes
    them), read from their decorators in the papers' models.py rather than by importing them (scipy and all)."""
    ids = {i for f in (HERE / "papers").glob("*/models.py") for i in _MODEL.findall(f.read_text(encoding="utf-8"))}
    return _as_typed(incomplete, ids)


SIZES = ("screen", "one-column", "two-column")
"""`plot --size`'s values: the keys of `plot.SIZES` (tests/test_completion.py holds them equal), named here
so that completing one imports no matplotlib."""


def sizes(incomplete: str) -> List[str]:
    return [s for s in SIZES if s.startswith(incomplete)]


def _query(ctx: typer.Context, sql: str, *args) -> list:
    """The rows of `sql` on the results store (--results if given before, else ./results), read only; none if
    there is no store or it cannot be read."""
    database = Path(ctx.params.get("results") or "results") / "pacesim.sqlite"
    if not database.is_file():
        return []
    try:
        with sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True) as db:
            return db.execute(sql, args).fetchall()
    except sqlite3.Error:
        return []


def sweep_names(ctx: typer.Context, incomplete: str) -> List[str]:
    """`plot NAME`, `results NAME`: the sweeps in the results store (--results if given before, else
    ./results) that begin with `incomplete`; none if there is no store or it cannot be read."""
    names = [row[0] for row in _query(ctx, "SELECT name FROM sweeps")]
    return sorted(n for n in names if isinstance(n, str) and n.startswith(incomplete))


def _sweep(ctx: typer.Context) -> str:
    """The sweep named before on the line (`plot NAME`): its argument, or, while an option waits for its
    value (click then stops parsing before the arguments, leaving them in `ctx.args`), the first word left."""
    return str(ctx.params.get("name") or next(iter(ctx.args), ""))


def _axes(ctx: typer.Context) -> dict:
    """{axis: its values as written} of the sweep named before on the line (`_sweep`), from the store; {}
    if there is none, or no store."""
    import json

    found = _query(ctx, "SELECT spec FROM sweeps WHERE name = ?", _sweep(ctx))
    try:
        axes = json.loads(found[0][0]).get("axes") if found else {}
    except (ValueError, AttributeError):
        return {}
    return axes if isinstance(axes, dict) else {}


def axis_names(ctx: typer.Context, incomplete: str) -> List[str]:
    """`plot --x`, `--by`: the axes of the sweep named before on the line that begin with `incomplete`."""
    return sorted(a for a in _axes(ctx) if a.startswith(incomplete))


def where_items(ctx: typer.Context, incomplete: str) -> List[str]:
    """`plot --where`: `AXIS=VALUE` for each value, as the sweep wrote it, of each axis of the sweep named
    before on the line, that begins with `incomplete`. Whole items: a TAB on `core` puts `core.buffer=` on the
    line (their common beginning, with no space after it), the next lists the values (bash is given what
    follows `=`: `BashWords`)."""
    words = [f"{a}={v}" for a, values in _axes(ctx).items() if isinstance(values, list)
             for v in values if isinstance(v, (str, int, float))]
    return [w for w in words if w.startswith(incomplete)]


def metric_names(ctx: typer.Context, incomplete: str) -> List[str]:
    """`plot --y`: the metrics of a finished run of the sweep named before on the line (not its axes), else
    every metric a run stores (`METRICS`), that begin with `incomplete`."""
    import json

    found = _query(ctx, "SELECT r.metrics FROM sweep_points p JOIN runs r ON r.key = p.key WHERE p.sweep = ? "
                        "AND r.status = 'ok' AND r.metrics IS NOT NULL LIMIT 1", _sweep(ctx))
    try:
        stored = json.loads(found[0][0]) if found else None
    except ValueError:
        stored = None
    names = [m for m in stored if m not in _axes(ctx)] if isinstance(stored, dict) else list(METRICS)
    return sorted(m for m in names if isinstance(m, str) and m.startswith(incomplete))


def _breaks(word: str) -> bool:
    """Whether `word` is one that bash made of `=` alone: it splits the line at each character of
    COMP_WORDBREAKS, `=` among them, and gives the run of them as a word of its own."""
    return word != "" and set(word) == {"="}


_SAFE = re.compile(r"[\w@%+=:,./-]*")
"""The words bash takes as they are: no character of them is one its parser gives a meaning to."""


def bash_quoted(value: str) -> str:
    """`value` as bash must be given it to read back `value` itself, as `printf %q` writes it: as it is if
    every character is safe (`_SAFE`), a control character among them in `$'...'`, else each other character
    after a backslash (`two\\ words`, `q\\'q`). bash puts a completion on the line as it comes."""
    if _SAFE.fullmatch(value):
        return value
    if re.search(r"[\x00-\x1f\x7f]", value):
        return "$'" + value.encode("unicode_escape").decode("ascii").replace("'", "\\'") + "'"
    return re.sub(r"([^\w@%+=:,./-])", r"\\\1", value)


def open_quote(word: str) -> Tuple[str, int]:
    """The quote left open at the end of `word` as typed on bash's line (`'`, `"`, or "" for none) and where
    it opens (-1 for none): outside quotes and inside `"` a backslash takes the next character as it is,
    inside `'` nothing does."""
    quote, at, i = "", -1, 0
    while i < len(word):
        c = word[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\":
            i += 1
        elif c == quote:
            quote = ""
        elif not quote and c in "'\"":
            quote, at = c, i
        i += 1
    return quote, at


_QUOTE_CANNOT = {"'": re.compile(r"[\x00-\x1f\x7f']+"), '"': re.compile(r"[\x00-\x1f\x7f!]+")}
"""What a quote cannot hold as it is: in `'` a `'` (it ends it) or a control character; in `"` a control
character or the `!` of history expansion (which a backslash there does not hide)."""


def quoted_in(quote: str, value: str) -> str:
    """`value` as bash must be given it to read back `value` itself, typed after an open `quote` (`'`, `"`)
    that readline closes after it: as it is in `'`, with a backslash before each of `$`, `` ` ``, `"` and `\\`
    in `"` (what double quotes give a meaning to), and what the quote cannot hold (`_QUOTE_CANNOT`) outside
    it, the quote closed before and opened again after (`q'\\''q`). No quote: `bash_quoted`."""
    if not quote:
        return bash_quoted(value)
    inside = (lambda t: t) if quote == "'" else (lambda t: re.sub(r'([$`"\\])', r"\\\1", t))
    out, at = [], 0
    for m in _QUOTE_CANNOT[quote].finditer(value):
        out += [inside(value[at:m.start()]), quote, bash_quoted(m[0]), quote]
        at = m.end()
    return "".join(out + [inside(value[at:])])


class BashWords(_completion_classes.BashComplete):
    """bash's completion request (typer's, `pacesim --install-completion`) with the words bash split at `=`
    joined again: `--where core.buffer=1` reached the program as the words `core.buffer`, `=`, `1`, which
    click took for --where's value `core.buffer` and two more arguments, so nothing was offered and bash
    listed file names (`complete -o default`). bash replaces only its own current word, what follows the
    last `=`, so a completion that begins with the joined word's part before it (`core.buffer=`) is given
    without that part, quoted as bash reads it back (`bash_quoted`: bash puts it on the line as it comes, and
    a value with a space was two words). With `=` taken out of COMP_WORDBREAKS nothing is split, joined or
    cut. Typed after an open quote (`--where 'variant=tw`), readline replaces only what follows the quote and
    closes it after: what precedes the quote is cut too, and the rest is written as the quote reads it
    (`quoted_in`; `printf %q`'s `two\\ words` there kept its backslash, a value pacesim refused)."""

    _before = ""
    """The part of what click completes before bash's own current word: the words joined to it
    (`core.buffer=`), after an option's own `--where=` (click completes the value of `--where=core.buffer=1`,
    `core.buffer=1`)."""

    _quote = ""
    """The quote left open in bash's own current word (`open_quote`), or ""."""

    def get_completion_args(self):
        args, incomplete = super().get_completion_args()
        typed, words = [*args, incomplete], []
        for before, word in zip(["", *typed], typed):
            if words and (_breaks(word) or _breaks(before)):
                words[-1] += word
            else:
                words.append(word)
        own = "" if _breaks(incomplete) else incomplete
        completed = words[-1].partition("=")[2] if words[-1].startswith("-") else words[-1]
        self._before = completed[:len(completed) - len(own)]
        raw = os.environ["COMP_WORDS"].split("\n")  # bash's words as typed, joined by its IFS, a newline
        cword = int(os.environ["COMP_CWORD"])
        self._quote, at = open_quote(raw[cword]) if cword < len(raw) else ("", -1)
        if self._quote:  # the part of bash's word before its open quote, as bash reads it
            self._before += "".join(shlex.split(raw[cword][:at]))
        return words[:-1], words[-1]

    def format_completion(self, item) -> str:
        value = super().format_completion(item)
        return quoted_in(self._quote, value[len(self._before):] if value.startswith(self._before) else value)


def use_bash_words() -> None:
    """Answer bash's requests with `BashWords`: called as a request is answered, after typer registered its
    own class for bash (it does so each time the command line is built)."""
    _completion_classes.add_completion_class(BashWords, "bash")
