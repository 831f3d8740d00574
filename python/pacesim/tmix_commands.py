"""`pacesim tmix`: Tmix connection vectors on the command line. `tmix generate OUT` writes vectors of
pacesim's own (`tmix.generate`, its distributions in `tmix.Mix`); scenarios replay them with
`[[traffic.tmix]]`."""

from __future__ import annotations

from pathlib import Path

import typer

from .terminal import command, fail, say, writable, write_failed

tmix_app = typer.Typer(no_args_is_help=True, help="Tmix connection vectors: write a set of pacesim's own.")


@tmix_app.command("generate")
@command
def tmix_generate(
    out: Path = typer.Argument(..., metavar="OUT", help="The vectors file to write (Tmix's alternate format)."),
    connections: int = typer.Option(500, "--connections", min=1, max=2_000_000,
                                    help="How many connection vectors (at most 2 million: about 240 MB, "
                                         "under the 256 MiB a vectors file may hold)."),
    rate: float = typer.Option(50.0, "--rate", help="Connections starting per second (Poisson), 1e-6 to 1e6."),
    seed: int = typer.Option(1, "--seed", min=0, help="The draws' seed: the same seed writes the same file."),
) -> None:
    """Write connection vectors drawn from pacesim's stated distributions (heavy-tailed ADU sizes and think
    times; see `pacesim.tmix.Mix`)."""
    from .tmix import Mix, generate

    if not 1e-6 <= rate <= 1e6:  # NaN too
        fail(f"--rate: {rate} is not a number of connections per second from 1e-6 to 1e6")
    writable("OUT", out, file=True)  # before drawing: a FIFO, /proc or a read-only place refused at once
    try:
        path = generate(out, connections, seed, Mix(rate=rate))
    except ValueError as e:
        fail(f"--rate, --connections: {e}")
    except OSError as e:
        write_failed(f"OUT {out}", e)
    say(f"wrote {path}: {connections} connections, seed {seed}")


def register(app: typer.Typer) -> None:
    """Add `tmix` to the `pacesim` command line."""
    app.add_typer(tmix_app, name="tmix")
