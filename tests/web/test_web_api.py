"""The server's side of the web table, over HTTP against a real server process: the page and its files,
the rulesets in words, the rules texts, and replays (of a table's finished hands and of uploaded records)."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from server_helpers import HTTP, play_until
from web_helpers import CARD, cards_in

from rummoli.server.api.web import web_dir, whole_views

WEB = Path(__file__).resolve().parents[2] / "src" / "rummoli" / "web"


def test_every_page_address_serves_the_page_and_its_files(server: Any) -> None:
    for path in ("/", "/tables/abc", "/tables/abc/hands/2", "/replay", "/rules", "/rules/rummoli"):
        answer = HTTP.get(server.url + path)
        assert answer.status_code == 200 and "<main id=\"app\"" in answer.text, path
        head = HTTP.head(server.url + path)  # as link checkers and monitors ask: the same answer, without its body
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["content-security-policy"] == answer.headers["content-security-policy"], path
    for name in ("app.js", "style.css", "cards.js"):
        answer = HTTP.get(f"{server.url}/{name}")
        assert answer.status_code == 200 and len(answer.content) > 500
    assert HTTP.get(server.url + "/nothing.js").status_code == 404
    assert HTTP.get(server.url + "/healthz").json()["status"] == "ok"  # the API still answers under the mount


def test_each_file_is_kept_by_its_version_and_the_page_is_checked_each_time(server: Any) -> None:
    """The page names every JS and CSS file by its version (the start of its SHA-256), the modules through an import
    map the page's policy lets run by its hash alone; a file asked for by its current version may be kept a year,
    anything else (the page, a file without its version or with an old one) is checked with the server each time."""
    page = HTTP.get(server.url + "/tables/abc")
    assert page.headers["cache-control"] == "no-cache"
    versions = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:12] for p in WEB.iterdir()
                if p.suffix in (".js", ".css")}
    named = dict(re.findall(r'"/([\w-]+\.(?:js|css))\?v=([0-9a-f]{12})"', page.text))
    assert named == versions, "every file of the page, each by its current version"
    (import_map,) = re.findall(r'<script type="importmap">(.*?)</script>', page.text, re.S)
    assert json.loads(import_map)["imports"] == {f"/{n}": f"/{n}?v={v}" for n, v in versions.items()
                                                 if n.endswith(".js")}
    assert page.text.index("importmap") < page.text.index('<script type="module"'), "the map comes before any module"
    assert page.text.count("<script") == 2  # the map and the entry module: nothing else inline
    digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
    policy = page.headers["content-security-policy"]
    assert f"script-src 'self' 'sha256-{digest}';" in policy and "unsafe-inline" not in policy
    assert "sha256" not in HTTP.get(server.url + "/api/tables").headers["content-security-policy"]

    kept = HTTP.get(f"{server.url}/table.js?v={versions['table.js']}")
    assert kept.status_code == 200 and kept.headers["cache-control"] == "public, max-age=31536000, immutable"
    for address in ("/table.js", "/table.js?v=000000000000", "/table.js?v="):
        answer = HTTP.get(server.url + address)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache", address
        assert answer.content == kept.content
    again = HTTP.get(server.url + "/table.js", headers={"If-None-Match": kept.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"
    assert HTTP.get(server.url + "/nothing.js?v=abc").status_code == 404


def test_the_page_ships_as_package_data() -> None:
    # Every file of the page matches a package-data pattern, so an installed rummoli serves it.
    text = (WEB.parents[2] / "pyproject.toml").read_text()
    patterns = {line.strip().strip('",') for line in text.splitlines() if line.strip().startswith('"web/')}
    for path in WEB.iterdir():
        assert any(path.match(p.removeprefix("web/")) for p in patterns), path.name
    assert web_dir().is_dir()


def test_rulesets_are_described_in_words(server: Any) -> None:
    rulesets = HTTP.get(server.url + "/api/rulesets").json()["rulesets"]
    names = [r["name"] for r in rulesets]
    assert names[:4] == ["rummoli", "rummoli-tripoley", "tripoley", "michigan"] and "gin-rummy" in names
    rummoli = rulesets[0]
    assert rummoli["game"] == "stops" and rummoli["chips"] == 100 and "Poker" in rummoli["board"]
    assert any("auction" in line for line in rummoli["options"])
    rummy = rulesets[names.index("rummy")]
    assert rummy["game"] == "rummy" and rummy["target"] == 100


def test_rules_texts_are_the_ones_the_command_prints(server: Any) -> None:
    answer = HTTP.get(server.url + "/api/rules/michigan")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/markdown")
    assert answer.text.startswith("# ")
    try:
        from rummoli import rules_texts  # type: ignore[attr-defined]
    except ImportError:
        rules_texts = None
    if rules_texts is not None:
        printed = subprocess.run([sys.executable, "-m", "rummoli.cli", "rules", "michigan"], capture_output=True,
                                 text=True, check=True).stdout
        assert answer.text == printed
    missing = HTTP.get(server.url + "/api/rules/nope")
    assert missing.status_code == 404 and "nope" in missing.json()["error"]["message"]


def test_a_finished_hand_replays_as_the_seat_saw_it(server: Any) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="replay-api-1")
    token = created["token"]
    path = f"/api/tables/{created['id']}/hands/1/replay"
    early = server.get(path, token=token)
    assert early.status_code == 409 and early.json()["error"]["code"] == "unavailable"
    client = server.client(created["id"], token)
    play_until(client, lambda c: c.view.get("over"), random.Random(3))
    client.close()
    mine = server.get(path, token=token).json()
    frames = [{**f, "view": v} for f, v in zip(mine["frames"], whole_views(mine["frames"]), strict=True)]
    assert mine["game"] == "stops" and mine["seat"] == 0 and len(frames) > 20
    assert all("board" not in f["view"] for f in mine["frames"][1:])  # sent once, not with every step
    assert frames[0]["view"]["phase"] in ("widow", "auction", "poker", "play")
    assert frames[-1]["view"]["phase"] == "over"
    assert all("events" not in f["view"] for f in frames)  # each frame carries only its own step's events
    # Played cards grow one at a time in the play round (forced plays are steps of their own).
    played = [len(f["view"]["played"]) for f in frames]
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(played))
    # A spectator's replay holds no card that was never laid or shown.
    watcher = server.get(path).json()
    public: set[str] = set()
    for frame, view in zip(watcher["frames"], whole_views(watcher["frames"]), strict=True):
        frame = {**frame, "view": view}
        assert frame["view"]["hand"] is None
        for event in frame["events"]:
            public |= cards_in(event)
        public |= cards_in(frame["view"]["played"]) | cards_in(frame["view"]["showdown"])
        assert cards_in(frame) <= public
    record = server.get(f"/api/tables/{created['id']}/record", token=token).json()
    uploaded = server.post("/api/replay?seat=0", record["hands"][0]).json()
    assert whole_views(uploaded["frames"]) == [f["view"] for f in frames]


def test_an_uploaded_record_that_breaks_a_rule_is_one_clear_line(server: Any) -> None:
    record = {"format": "rummoli-hand/1", "ruleset": "rummoli", "players": ["A", "B"], "dealer": 0,
              "deal": {"hands": [["2c"], ["3c"]], "widow": []}, "actions": []}
    answer = server.post("/api/replay", record)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "malformed" and "\n" not in error["message"] and "Traceback" not in error["message"]
    assert server.post("/api/replay", {"format": "nope"}).status_code == 400
    assert server.post("/api/replay", [1, 2]).status_code == 422
    assert CARD.match("Qc")


def test_the_page_endpoints_are_documented(server: Any) -> None:
    paths = HTTP.get(server.url + "/openapi.json").json()["paths"]
    for path in ("/api/rulesets", "/api/rules/{name}", "/api/tables/{table_id}/hands/{hand_no}/replay", "/api/replay"):
        assert all(op.get("description") for op in paths[path].values()), path
    assert "/tables/{table_id}" not in paths  # the page's addresses are not API
