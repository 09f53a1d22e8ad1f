"""The ``rummoli`` command.

Each sub-command is a thin layer over an engine or a client: parsing options, calling
the library, printing the result.  Nothing here decides a rule.
"""

from __future__ import annotations

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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
