"""Browser tests of the web table: a real ``rummoli serve`` process on a loopback port and Debian's Chromium
driven by Playwright (its own browser download does not work here). A missing browser fails these
tests with the reason (they never skip).

Which Chromium: Debian builds two from the same source and version. ``/usr/bin/chromium`` is the browser people
run; ``/usr/bin/chromium-headless-shell`` is the same engine (Blink, V8, the same CSS, layout and websockets)
without the desktop browser around it, the form Playwright itself uses for headless runs. The shell costs about
40% less CPU for the same tests (the web tests alone, ``pytest -n auto tests/web``: 300 CPU-s and 156 s against
494 and 254), and this 2-core machine's whole suite is CPU-bound, so most modules use it. A module that sets
``BROWSER = FULL_CHROMIUM`` runs in the full browser instead (tests/web/test_web_table.py does: a whole hand of
each family, an invite, a reload and a restart in the browser people use)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Server
from web_helpers import FULL_CHROMIUM, HEADLESS_SHELL

INSTALL = {FULL_CHROMIUM: "chromium", HEADLESS_SHELL: "chromium-headless-shell"}

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


# One browser a module, not a session: Playwright's sync API keeps an asyncio loop running in the thread while it
# is open, so a test of another folder that an xdist worker runs after a web module (asyncio.run: the bot workers,
# the terminal table) would find "a running event loop" and fail.
@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    chromium = getattr(request.module, "BROWSER", HEADLESS_SHELL)
    if not Path(chromium).exists():
        message = f"no Chromium at {chromium}: apt-get install -y {INSTALL[chromium]} (the README's test command does)"
        pytest.fail(message)  # never a skip: a browser test that did not run must not read as passed
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def fresh_dir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture(autouse=True)
def _close_pages_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, close the pages it left open: the browser lives for the whole module, and a page left
    behind keeps its websocket and redraws as its table plays on, taking CPU from the tests after it."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
