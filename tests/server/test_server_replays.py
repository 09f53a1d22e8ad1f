"""Open hands after the evening (issue 32, Replays): a finished hand's replay with every seat's cards shown is
refused while the evening goes on, to a spectator, to a token of another table; once the evening is over a
seat of the table gets it, and each seat's dealt cards in it are the record's deal."""

from __future__ import annotations

import random
from pathlib import Path

from server_helpers import Server, end_evening, one_line, play_until

from rummoli.server.api.web import whole_views


def test_open_hands_only_for_the_seats_once_the_evening_is_over(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        created = server.create(ruleset="michigan", seats=[{}, {"bot": "random"}, {"bot": "random"}], hands=3,
                                pace="instant", seed="open-hands-1")
        table, token = created["id"], created["token"]
        other = server.create(ruleset="gin-rummy", seats=[{}, {"bot": "random"}], hands=1)
        path = f"/api/tables/{table}/hands/1/replay"
        ann = server.client(table, token)
        play_until(ann, lambda c: bool(c.view.get("hand_over")), random.Random(3))
        # Between hands 1 and 2: the hand is finished, the evening is not.
        mine = server.get(path, token=token)
        assert mine.status_code == 200 and mine.json()["can_open"] is False
        assert "open_hands" not in str(mine.json())
        assert "evening is over" in one_line(server.get(path + "?open=1", token=token), 409)
        assert server.get(f"/api/tables/{table}", token=token).json()["over"] is False

        end_evening(server, table, token, ann, random.Random(4))

        # Spectators, no token, another table's token, a token that is no token: never open hands.
        one_line(server.get(path + "?open=1"), 401)
        one_line(server.get(path + "?open=1", token=other["token"]), 403)
        one_line(server.get(path + "?open=1", token="not-a-token"), 403)
        watched = server.get(path).json()
        assert watched["can_open"] is False and "open_hands" not in str(watched)

        one_line(server.get(path + "?open=maybe", token=token), 422)
        plain = server.get(path, token=token).json()
        assert plain["can_open"] is True
        shown = server.get(path + "?open=1", token=token)
        assert shown.status_code == 200, shown.text
        body = shown.json()
        assert body["open"] is True and body["seat"] == 0
        record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]
        views = whole_views(body["frames"])
        dealt = [sorted(hand) for hand in record["deal"]["hands"]]
        assert [sorted(hand) for hand in views[0]["open_hands"]] == dealt
        assert all(len(v["open_hands"]) == len(record["players"]) for v in views)
        # The same steps, the same seat's view, the same words: only every hand is added.
        assert [{k: x for k, x in v.items() if k not in ("open_hands", "out_of_play")} for v in views] == whole_views(
            plain["frames"])
        assert [f["events"] for f in body["frames"]] == [f["events"] for f in plain["frames"]]
    finally:
        server.stop()
