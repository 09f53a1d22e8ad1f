"""The ``rummoli`` command.

Each sub-command is a thin layer over an engine or a client: parsing options, calling
the library, printing the result.  Nothing here decides a rule.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

app = typer.Typer(
    name="rummoli",
    help="Rummoli, Tripoley, Michigan and the Rummy family.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Rummoli, Tripoley, Michigan and the Rummy family."""


@app.command()
def deal(
    players: int = typer.Option(4, "--players", "-p", min=2, max=8, help="Players at the table (2-8)."),
    seed: str | None = typer.Option(None, "--seed", "-s", help="Seed for a reproducible shuffle."),
    ascii: bool = typer.Option(False, "--ascii", help="Letters instead of suit symbols."),
) -> None:
    """Shuffle and deal a Rummoli table: each hand sorted, with its best poker hand named."""
    from rummoli.table_deal import deal_table, describe_deal

    typer.echo(describe_deal(deal_table(players, seed), ascii=ascii))


@app.command()
def hand(
    ruleset: str = typer.Option("rummoli", "--ruleset", "-r", help="Built-in ruleset or a .toml file."),
    players: int = typer.Option(4, "--players", "-p", min=2, max=8, help="Players at the table."),
    seed: str | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle and the decisions."),
) -> None:
    """Play one hand with random legal decisions and print its record (for tests and bug reports)."""
    from rummoli.records import game_of, ruleset_reference

    reference = ruleset_reference(ruleset)
    if game_of(reference) == "stops":
        from rummoli.stops import random_hand_record
    else:
        from rummoli.rummy import random_hand_record  # type: ignore[no-redef]
    typer.echo(json.dumps(random_hand_record(reference, players, seed), ensure_ascii=False))


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A hand record (JSON), or - for standard input."),
) -> None:
    """Check a hand record and print its outcome as JSON: chips, pots and every event."""
    from rummoli.errors import MalformedInput
    from rummoli.records import read_record
    from rummoli.records import replay as replay_record

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
        result = replay_record(read_record(text))
    except OSError as error:
        typer.echo(f"rummoli replay: cannot read {file}: {error.strerror}", err=True)
        raise typer.Exit(2) from None
    except MalformedInput as error:
        typer.echo(f"rummoli replay: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(json.dumps(result, ensure_ascii=False, indent=1))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
