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
def rules(
    name: str | None = typer.Argument(None, help="A built-in ruleset; leave it out for the list of them."),
) -> None:
    """How to play a built-in ruleset (goal, deal, each phase, the pots, an example); no name: the list."""
    from rummoli import rules_texts
    from rummoli.errors import MalformedInput

    if name is None:
        typer.echo(rules_texts.listing())
        return
    try:
        text = rules_texts.text(name)
    except MalformedInput as error:
        typer.echo(f"rummoli rules: {error}", err=True)
        raise typer.Exit(2) from None
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        typer.echo(text, nl=False)


@app.command()
def hand(
    ruleset: str = typer.Option("rummoli", "--ruleset", "-r", help="Built-in ruleset or a .toml file."),
    players: int = typer.Option(4, "--players", "-p", min=2, max=8, help="Players at the table."),
    seed: str | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle and the decisions."),
) -> None:
    """Play one hand with random legal decisions and print its record (for tests and bug reports)."""
    from rummoli.errors import MalformedInput
    from rummoli.records import game_of, ruleset_reference

    try:
        reference = ruleset_reference(ruleset)
        if game_of(reference) == "stops":
            from rummoli.stops import random_hand_record
        else:
            from rummoli.rummy import random_hand_record  # type: ignore[no-redef]
        record = random_hand_record(reference, players, seed)
    except MalformedInput as error:
        typer.echo(f"rummoli hand: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(json.dumps(record, ensure_ascii=False))


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A hand or evening record (JSON), or - for standard input."),
) -> None:
    """Check a hand record (or an evening's) and print its outcome as JSON: chips, pots and every event."""
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


@app.command()
def sim(
    ruleset: str = typer.Option("rummoli", "--ruleset", "-r", help="Built-in ruleset or a .toml file."),
    players: int | None = typer.Option(None, "--players", "-p", help="Seats (default: one per --bots level)."),
    bots: str = typer.Option(..., "--bots", "-b", help="A level per seat: random, easy, normal, hard (a,b,...)."),
    hands: int | None = typer.Option(None, "--hands", "-n", help="Stops: hands per evening (20). Rummy: cap per game."),
    games: int | None = typer.Option(None, "--games", "-g", help="Deal sequences (evenings or games), each played "
                                     "once per rotation of the line-up (10)."),
    seed: str | None = typer.Option(None, "--seed", "-s", help="Seed: the same seed gives the same report."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (no progress bar)."),
    plot: Path | None = typer.Option(None, "--plot", help="Draw the chip stacks over the first evening (PNG)."),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Worker processes (default: the cores)."),
    budget: float | None = typer.Option(None, "--budget", help="Seconds per decision for hard bots (1)."),
    samples: int | None = typer.Option(
        None, "--samples", help="Worlds per decision for hard bots instead of --budget: reproducible runs."
    ),
) -> None:
    """Tournaments of bot line-ups over duplicate deals: chips per hand or win rates with 95% intervals."""
    from rummoli.sim.command import SimError, sim_command

    try:
        sim_command(ruleset, players, bots, hands, games, seed, as_json, plot, workers, budget, samples)
    except SimError as error:
        typer.echo(f"rummoli sim: {error}", err=True)
        raise typer.Exit(2) from None


@app.command()
def play(
    ruleset: str = typer.Option("rummoli", "--ruleset", "-r", help="Built-in ruleset or a .toml file."),
    players: int = typer.Option(4, "--players", "-p", min=2, max=8, help="Seats, yours included (you sit at 0)."),
    bots: str = typer.Option("easy", "--bots", "-b", help="Bot levels by seat: random, easy, normal, hard (a,b,...)."),
    chips: int | None = typer.Option(None, "--chips", help="Stops: starting chips each (default: the ruleset's)."),
    hands: int | None = typer.Option(None, "--hands", "-n", help="Hands in the evening (default: until you quit)."),
    seed: str | None = typer.Option(None, "--seed", "-s", help="Seed for the deals and the bots (for practice)."),
    ascii: bool = typer.Option(False, "--ascii", help="Letters instead of suit symbols."),
    pace: float = typer.Option(0.7, "--pace", help="Seconds between computer moves (0: at once)."),
    save: Path | None = typer.Option(None, "--save", help="Folder for the hand records (default: your data folder)."),
) -> None:
    """Play at the terminal table against computer players; the hand records are saved for `rummoli replay`."""
    from rummoli.errors import MalformedInput
    from rummoli.tui.tables import PlayOptions

    try:
        options = PlayOptions(ruleset, players, bots.split(","), chips, hands, seed, ascii, max(0.0, pace), save)
        from rummoli.tui.app import run_play

        typer.echo(run_play(options))
    except (MalformedInput, ValueError) as error:
        typer.echo(f"rummoli play: {error}", err=True)
        raise typer.Exit(2) from None


def main() -> None:
    app()


if __name__ == "__main__":
    main()
