"""The ``rummoli`` command.

Each sub-command is a thin layer over an engine or a client: parsing options, calling
the library, printing the result.  Nothing here decides a rule.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import typer
from typer._click.exceptions import ClickException, UsageError  # typer 0.29 carries its own click

app = typer.Typer(
    name="rummoli",
    help="Rummoli, Tripoley, Michigan, Poch and the Rummy family.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags show no "<bool>"
)


def _version(show: bool) -> None:
    if show:
        from rummoli import __version__

        typer.echo(f"rummoli {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Rummoli, Tripoley, Michigan, Poch and the Rummy family.  `rummoli rules` explains how to play them."""


def fail(command: str, message: object, code: int = 2) -> typer.Exit:
    """Print one line naming the problem on standard error; the caller raises what this returns."""
    typer.echo(f"rummoli {command}: {message}", err=True)
    return typer.Exit(code)


def seats_for(command: str, ruleset: str, players: int | None) -> tuple[str | dict[str, Any], int]:
    """The ruleset as a reference (a name, or a file read inline) and the players: the ruleset's usual
    table when ``--players`` is not given."""
    from rummoli.errors import MalformedInput
    from rummoli.games import default_players, seat_range
    from rummoli.records import ruleset_reference

    try:
        reference = ruleset_reference(ruleset)
        if players is None:
            return reference, default_players(reference)
        low, high, allowed = seat_range(reference)
    except MalformedInput as error:
        raise fail(command, error) from None
    if players not in allowed:
        counts = (str(low) if low == high else f"{low} to {high}" if allowed == set(range(low, high + 1))
                  else ", ".join(map(str, sorted(allowed))))
        raise fail(command, f"{ruleset} seats {counts} players, not {players}")
    return reference, players


def plain_seed(value: str | None) -> str | None:
    """A ``--seed`` as given, if it is text (a terminal can pass bytes that are none: they made an internal error) of
    one line without control characters (the report of ``sim`` writes it out: an escape in it coloured the terminal)."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise typer.BadParameter("a seed is text: these bytes are not (use letters and digits)") from None
        from rummoli.limits import not_text

        control = not_text(value)
        if control is not None:
            raise typer.BadParameter(f"a seed is one line of plain text, without control characters (found {control})")
    return value


@app.command()
def deal(
    players: int = typer.Option(4, "--players", "-p", min=2, max=8, help="Players at the table (2-8)."),
    seed: str | None = typer.Option(None, "--seed", "-s", callback=plain_seed,
                                    help="Seed for a reproducible shuffle."),
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
    players: int | None = typer.Option(None, "--players", "-p", help="Players (default: the ruleset's usual table)."),
    seed: str | None = typer.Option(None, "--seed", "-s", callback=plain_seed,
                                    help="Seed for the shuffle and the decisions."),
) -> None:
    """Play one hand with random legal decisions and print its record (for tests and bug reports)."""
    from rummoli.errors import MalformedInput
    from rummoli.games import family_of

    reference, players = seats_for("hand", ruleset, players)
    try:
        record = family_of(reference).random_hand_record(reference, players, seed)
    except MalformedInput as error:
        raise fail("hand", error) from None
    typer.echo(json.dumps(record, ensure_ascii=False))


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A hand or evening record (JSON), or - for standard input."),
    summary: bool = typer.Option(False, "--summary", help="Tell the hand (or each hand) in words instead of JSON."),
) -> None:
    """Check a hand record (or an evening's) and print its outcome as JSON: chips, pots and every event; or,
    with --summary, the hand told in words."""
    from rummoli.errors import MalformedInput
    from rummoli.games import replay as replay_record
    from rummoli.limits import MAX_RECORD_BYTES
    from rummoli.records import read_record
    from rummoli.summary import tell

    try:  # a regular file only, of bounded size: read_record refuses the rest in one line (R-NOTE-6)
        source = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1) if str(file) == "-" else file
        record = read_record(source)
        result = replay_record(record)
        told = tell(record, result) if summary else json.dumps(result, ensure_ascii=False, indent=1)
    except MalformedInput as error:  # a summary tells only a finished hand (a Rummy replay may stop early)
        typer.echo(f"rummoli replay: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(told)


@app.command()
def review(
    file: Path = typer.Argument(..., help="A hand record (JSON), or - for standard input."),
    seat: int = typer.Option(0, "--seat", help="The seat whose decisions to review (0: the first)."),
    budget: float | None = typer.Option(None, "--budget", min=0.01, max=30.0,
                                        help="Seconds of search per decision (0.25)."),
    samples: int | None = typer.Option(None, "--samples", min=1, max=2000,
                                       help="Exactly this many sampled worlds per decision (reproducible)."),
    seed: str = typer.Option("0", "--seed", "-s", callback=plain_seed, help="Seed of the coach's sampling."),
    hand_no: int | None = typer.Option(None, "--hand", min=1,
                                       help="In an evening's record, the hand to review (1: the first)."),
    as_json: bool = typer.Option(False, "--json", help="Print the review as JSON."),
) -> None:
    """The coach: each decision the seat made, the choices it had, the one taken and the one the hard bot
    prefers, with expected chips (stops games) or points (Rummy family) and their 95% intervals, worked out
    from that seat's view alone; mistakes are marked with what they cost."""
    from rummoli.coach import review as review_hand
    from rummoli.coach import tell as tell_review
    from rummoli.errors import MalformedInput
    from rummoli.limits import MAX_RECORD_BYTES
    from rummoli.records import EVENING_FORMAT, read_record
    from rummoli.wording import counted

    try:
        source = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1) if str(file) == "-" else file
        record = read_record(source)
        if record.get("format") == EVENING_FORMAT:
            hands = record.get("hands") if isinstance(record.get("hands"), list) else []
            if hand_no is None:
                raise MalformedInput(f"this is an evening's record of {counted(len(hands), 'hand')}: "
                                     "name one with --hand N")
            if hand_no > len(hands):
                held = "only hand 1" if len(hands) == 1 else f"hands 1 to {len(hands)}"
                raise MalformedInput(f"there is no hand {hand_no}: this evening's record holds {held}")
            record = hands[hand_no - 1]
            if not isinstance(record, dict):
                raise MalformedInput(f"hand {hand_no} of the evening is not a hand record")
        elif hand_no is not None and hand_no != 1:  # it was ignored: the one hand was reviewed as if asked for
            raise MalformedInput(f"this record holds one hand: --hand {hand_no} is for an evening's record")
        result = review_hand(record, seat, budget, samples, seed)
    except MalformedInput as error:
        typer.echo(f"rummoli review: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(json.dumps(result, ensure_ascii=False, indent=1) if as_json else tell_review(result))


@app.command()
def sim(
    ruleset: str = typer.Option("rummoli", "--ruleset", "-r", help="Built-in ruleset or a .toml file."),
    players: int | None = typer.Option(None, "--players", "-p", help="Seats (default: one per --bots level)."),
    bots: str = typer.Option(..., "--bots", "-b", help="A level per seat: random, easy, normal, hard (a,b,...)."),
    hands: int | None = typer.Option(None, "--hands", "-n", help="Hands in one evening (stops games; 20), or "
                                     "the most hands in one game (Rummy family; no cap)."),
    games: int | None = typer.Option(None, "--games", "-g", help="Deal sequences (evenings or games), each played "
                                     "once per rotation of the line-up (10)."),
    seed: str | None = typer.Option(None, "--seed", "-s", callback=plain_seed,
                                    help="Seed: the same seed gives the same report."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (no progress bar)."),
    plot: Path | None = typer.Option(None, "--plot", help="Chart the whole tournament (PNG): each level's mean chips "
                                   "hand by hand, with 95% bands."),
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
    players: int | None = typer.Option(None, "--players", "-p",
                                       help="Seats, yours included (you sit at 0); default: the ruleset's usual "
                                            "table."),
    bots: str = typer.Option("easy", "--bots", "-b", help="Bot levels by seat: random, easy, normal, hard (a,b,...)."),
    chips: int | None = typer.Option(None, "--chips", min=1,
                                     help="Stops: starting chips each (default: the ruleset's)."),
    hands: int | None = typer.Option(None, "--hands", "-n", min=1,
                                     help="Hands in the evening (default: until you quit)."),
    seed: str | None = typer.Option(None, "--seed", "-s", callback=plain_seed,
                                    help="Seed for the deals and the bots (for practice)."),
    ascii: bool = typer.Option(False, "--ascii", help="Letters instead of suit symbols."),
    pace: float = typer.Option(0.7, "--pace", min=0.0, max=60.0, help="Seconds between computer moves (0: at once)."),
    save: Path | None = typer.Option(None, "--save", help="Folder for the hand records (default: your data folder)."),
) -> None:
    """Play at the terminal table against computer players; the hand records are saved for `rummoli replay`."""
    from rummoli.errors import MalformedInput
    from rummoli.games import family_of
    from rummoli.tui.tables import PlayOptions, default_records_dir, seat_levels

    reference, players = seats_for("play", ruleset, players)
    if chips is not None and not family_of(reference).has_board:  # it was silently ignored
        raise fail("play", "--chips is for the games played for chips on a board; a Rummy-family game keeps a "
                           "score from 0")
    folder = save if save is not None else default_records_dir()
    problem = unwritable(folder)
    if problem:
        raise fail("play", f"cannot save hand records in {folder}: {problem} (choose another folder with --save)")
    try:
        options = PlayOptions(ruleset, players, bots.split(","), chips, hands, seed, ascii, pace, save)
        seat_levels(options.bots, players - 1)  # an unknown level is named before the terminal is asked for
    except (MalformedInput, ValueError, OSError) as error:
        raise fail("play", error) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # after the options, so a wrong one is named first
        raise fail("play", "the table needs a terminal: run it in a terminal window, not with its input or output "
                           "redirected")
    try:
        from rummoli.tui.app import run_play

        typer.echo(run_play(options))
    except (MalformedInput, ValueError, OSError) as error:
        raise fail("play", error) from None


@app.command()
def serve(
    # No default here: an option left out is taken from RUMMOLI_HOST and RUMMOLI_PORT, else Settings' own.
    host: str | None = typer.Option(
        None, "--host", help="Address to listen on (127.0.0.1; 0.0.0.0: every interface)."),
    port: int | None = typer.Option(None, "--port", min=1, max=65535, help="Port to listen on (8000)."),
    data: Path | None = typer.Option(None, "--data", help="Data folder (default: your data folder, rummoli/)."),
    database_url: str | None = typer.Option(
        None, "--database-url", help="SQLAlchemy URL of the database (default: SQLite in the data folder)."),
    redis_url: str | None = typer.Option(
        None, "--redis-url", help="Redis URL: run as one of several processes sharing the database (docs/deploy.md)."),
    bot_pace: float | None = typer.Option(None, "--bot-pace", min=0, help="Seconds a bot's move takes at least (1)."),
    play_pace: float | None = typer.Option(
        None, "--play-pace", min=0, help="Seconds between forced plays (0.6; 0: all at once)."),
    hand_pause: float | None = typer.Option(
        None, "--hand-pause", min=0, help="Seconds of the countdown between hands, unless all say next (15)."),
    grace: float | None = typer.Option(None, "--grace", min=0, help="Seconds away before a bot plays a seat (60)."),
    waiting_keep: float | None = typer.Option(
        None, "--waiting-keep", min=0.1, help="Seconds a waiting table nobody is at stays in the lobby (1800)."),
    idle_end: float | None = typer.Option(
        None, "--idle-end", min=0.1, help="Seconds an evening with no person connected goes on before it ends (600)."),
    bot_workers: int | None = typer.Option(
        None, "--bot-workers", min=-1, help="Bot worker processes (0: one per core; -1: none, a thread)."),
    public_url: str | None = typer.Option(
        None, "--public-url", help="The address people use (behind a proxy: its address); other Hosts are refused."),
    origin: list[str] = typer.Option([], "--origin", help="Another web origin allowed on the websocket."),
    allow_seeds: bool = typer.Option(False, "--allow-seeds", help="Let tables fix their shuffle (practice, tests)."),
    trusted_proxy: list[str] = typer.Option(
        [], "--trusted-proxy", help="Address of a reverse proxy whose X-Forwarded-For names the client."),
    max_open_per_ip: int | None = typer.Option(
        None, "--max-open-per-ip", min=0, help="Connections one address may hold at once (64; 0: no limit)."),
    request_timeout: float | None = typer.Option(
        None, "--request-timeout", min=0.1, help="Seconds a connection has to send a whole request (15)."),
    table_rate: float | None = typer.Option(
        None, "--table-rate", min=0.001, help="Tables one address may create per second, on average (0.2)."),
    max_waiting: int | None = typer.Option(
        None, "--max-waiting", min=0, help="Tables of one address waiting for players at once (10; 0: no limit)."),
    request_rate: float | None = typer.Option(
        None, "--request-rate", min=0.001,
        help="Requests per second one address may make to endpoints that write or cost CPU (5)."),
) -> None:
    """Start the game server: tables with friends and bots, in the browser or any websocket client."""
    from rummoli.server.run import listen_problem
    from rummoli.server.run import serve as run_server
    from rummoli.server.settings import Settings

    try:
        settings = Settings.from_env(host=host, port=port, data_dir=data, database_url=database_url,
                                     redis_url=redis_url, bot_pace=bot_pace, play_pace=play_pace,
                                     hand_pause=hand_pause, grace=grace, waiting_keep=waiting_keep, idle_end=idle_end,
                                     bot_workers=bot_workers, public_url=public_url,
                                     allowed_origins=tuple(origin) or None,
                                     allow_seeds=allow_seeds or None, trusted_proxies=tuple(trusted_proxy) or None,
                                     max_open_per_ip=max_open_per_ip, request_timeout=request_timeout,
                                     table_rate=table_rate, max_waiting_per_ip=max_waiting,
                                     request_rate=request_rate)
        if settings.redis_url:  # a URL the bus cannot use is one line at the start, not a traceback
            from rummoli.server.cluster.redisline import Address

            Address.parse(settings.redis_url)
        from rummoli.server.api.guard import Addresses

        Addresses(settings.host, settings.port, settings.public_url)  # a bad --public-url is one line
    except (TypeError, ValueError) as error:
        raise fail("serve", error) from None
    problem = listen_problem(settings.host, settings.port)  # before announcing an address or making any data
    if problem is not None:
        raise fail("serve", problem)
    run_server(settings)


def unwritable(folder: Path) -> str | None:
    """Why hand records cannot be written in ``folder`` (creating it if need be), or None if they can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".rummoli-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        return error.strerror or str(error)
    return None


def main(argv: list[str] | None = None) -> None:
    """The ``rummoli`` command: every error is one line on standard error and a non-zero exit, never a
    traceback (set RUMMOLI_DEBUG=1 to see one)."""
    args = sys.argv[1:] if argv is None else list(argv)
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args or ["--help"], prog_name="rummoli", standalone_mode=False)
    except UsageError as error:
        where = error.ctx.command_path if error.ctx is not None else "rummoli"
        hint = f" (see {where} --help)" if error.ctx is not None else ""
        sys.stderr.write(f"{where}: {error.format_message()}{hint}\n")
        code = 2
    except ClickException as error:
        sys.stderr.write(f"rummoli: {error.format_message()}\n")
        code = error.exit_code
    except typer.Abort:
        sys.stderr.write("rummoli: stopped\n")
        code = 130
    except Exception as error:  # a bug: still one line for the user, the traceback on request
        if os.environ.get("RUMMOLI_DEBUG"):
            raise
        sys.stderr.write(f"rummoli: unexpected error ({type(error).__name__}: {error}); "
                         "please report it (RUMMOLI_DEBUG=1 shows the details)\n")
        code = 70
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
