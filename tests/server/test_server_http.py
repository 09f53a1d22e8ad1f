"""The REST endpoints against a real server process, and every refusal they make (one clear line, no trace)."""

from __future__ import annotations

import random
import sqlite3

import httpx
from server_helpers import HTTP, Server, play_until

from rummoli.games import family
from rummoli.server.storage.rows import token_hash


def error_of(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert "\n" not in message and not any(w in message for w in ("Traceback", 'File "'))
    return message


def test_healthz_and_protocol(server: Server) -> None:
    health = server.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok" and health.json()["database"] == "ok"
    protocol = server.get("/api/protocol.json").json()
    assert protocol["protocol"] == 1
    assert set(protocol["client_messages"]) == {"hello", "act", "next", "ping", "chat"}
    assert set(protocol["server_messages"]) == {"welcome", "update", "next_hand", "seats", "chat", "rematch",
                                                  "error", "pong"}
    for schema in [*protocol["client_messages"].values(), *protocol["server_messages"].values()]:
        assert schema["type"] == "object" and "properties" in schema


def test_openapi_page_documents_every_endpoint(server: Server) -> None:
    paths = server.get("/openapi.json").json()["paths"]
    for path in ("/healthz", "/api/protocol.json", "/api/tables", "/api/tables/{table_id}",
                 "/api/tables/{table_id}/seats", "/api/tables/{table_id}/leave", "/api/tables/{table_id}/start",
                 "/api/tables/{table_id}/end", "/api/tables/{table_id}/history", "/api/tables/{table_id}/record"):
        assert path in paths, path
        for operation in paths[path].values():
            assert operation.get("description"), (path, operation)
    assert server.get("/docs").status_code == 200


def test_create_table_answers_201_with_id_invite_seat_and_token(server: Server) -> None:
    answer = server.post("/api/tables", {"name": "Ann", "ruleset": "michigan",
                                         "seats": [{}, {"bot": "easy"}, {"bot": "random"}], "chips": 50, "hands": 2})
    assert answer.status_code == 201
    created = answer.json()
    assert created["seat"] == 0 and len(created["token"]) >= 32 and created["protocol"] == 1
    assert created["invite"].endswith(f"/tables/{created['id']}")
    summary = server.get(f"/api/tables/{created['id']}").json()
    assert summary["game"] == "stops" and summary["ruleset"] == "michigan" and summary["hand_no"] == 1
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Bot 2 (easy)", "Bot 3 (random)"]
    assert created["token"] not in str(summary)
    listed = server.get("/api/tables").json()["tables"]
    assert created["id"] in [t["id"] for t in listed]


def test_seat_tokens_are_stored_hashed(server: Server) -> None:
    created = server.create(seats=[{}, {"bot": "easy"}])
    db = sqlite3.connect(server.data / "rummoli.sqlite3")
    rows = db.execute("select token_hash from seats where table_id = ? and seat = 0", (created["id"],)).fetchall()
    assert rows == [(token_hash(created["token"]),)]
    dump = "\n".join(db.iterdump())
    assert created["token"] not in dump
    db.close()


def test_two_people_join_through_the_invite(server: Server) -> None:
    created = server.create(ruleset="rummy", seats=[{}, {}, {"bot": "easy"}])
    table = created["id"]
    summary = server.get(f"/api/tables/{table}").json()
    assert summary["open_seats"] == 1 and summary["hand_no"] == 0
    assert table in [t["id"] for t in server.get("/api/tables?open=true").json()["tables"]]
    joined = server.post(f"/api/tables/{table}/seats", {"name": "Bob"})
    assert joined.status_code == 201 and joined.json()["seat"] == 1
    assert joined.json()["token"] != created["token"]
    summary = server.get(f"/api/tables/{table}").json()
    assert summary["open_seats"] == 0 and summary["hand_no"] == 1  # the evening started
    assert table not in [t["id"] for t in server.get("/api/tables?open=true").json()["tables"]]
    error_of(server.post(f"/api/tables/{table}/seats", {"name": "Cy"}), 409, "unavailable")


def test_a_name_already_at_the_table_is_refused(server: Server) -> None:
    table = server.create(seats=[{}, {}, {}])["id"]
    message = error_of(server.post(f"/api/tables/{table}/seats", {"name": "ann"}), 409, "malformed")
    assert message == 'someone at this table is already called "Ann"'  # the name there, not the one typed


def test_the_names_a_table_gives_its_seats_are_kept_and_no_two_seats_read_alike(server: Server) -> None:
    """Besides a name already at the table (any case, spacing or width), a person may not take the names the table
    gives seats itself, at any seat: an open seat's ("Seat 3", which the lobby shows for it) and a bot's; nor "You",
    to which the game's sentences speak ("You pass", read by everyone). Each refusal is one line, a 4xx JSON error,
    and changes nothing; once the evening starts, the bots that take the open seats have names of their own."""
    from rummoli.seating import alike

    created = server.create(seats=[{}, {}, {}, {}, {"bot": "easy"}])
    table = created["id"]
    path = f"/api/tables/{table}/seats"
    before = server.get(f"/api/tables/{table}").json()
    for name, words in (("Seat 4", 'the name "Seat 4" is kept for a seat nobody has taken'),
                        ("seat 2", 'the name "seat 2" is kept for a seat nobody has taken'),
                        ("Bot 4 (normal)", 'the name "Bot 4 (normal)" is kept for the computer players'),
                        ("you", 'the name "you" is kept: the game\'s sentences speak to a player of that name '
                                '("You pass")'),
                        ("\uff21nn", 'someone at this table is already called "Ann"'),
                        ("  ANN ", 'someone at this table is already called "Ann"')):
        assert error_of(server.post(path, {"name": name}), 409, "malformed") == words, name
    assert server.get(f"/api/tables/{table}").json() == before
    message = error_of(server.post("/api/tables", {"name": "You", "ruleset": "michigan", "seats": [{}, {}]}),
                       400, "malformed")
    assert message == 'name: the name "You" is kept: the game\'s sentences speak to a player of that name ("You pass")'
    assert server.post(path, {"name": "Bob"}).status_code == 201
    assert server.post(f"/api/tables/{table}/start", token=created["token"]).status_code == 200
    names = [s["name"] for s in server.get(f"/api/tables/{table}").json()["seats"]]
    assert len(names) == 5 and alike(names) is None, names
    # An uploaded record whose players read alike is refused too: its replay and review could not tell them apart.
    record = family("stops").random_hand_record("michigan", 3, "alike")
    record["players"] = ["Ann", "Bob", " ann"]
    for upload in ("/api/replay", "/api/review"):
        assert error_of(server.post(upload, record), 400, "malformed") == 'players: seats 0 and 2 are both called "Ann"'


def test_display_names_are_limited_and_kept_as_text(server: Server) -> None:
    table = server.create(seats=[{}, {}, {}])["id"]
    error_of(server.post(f"/api/tables/{table}/seats", {"name": "x" * 25}), 422, "malformed")
    message = error_of(server.post(f"/api/tables/{table}/seats", {"name": "a\u0000b"}), 422, "malformed")
    assert message == "name: a name may not hold control characters"  # our words, not pydantic's "Value error, "
    error_of(server.post(f"/api/tables/{table}/seats", {"name": "   "}), 422, "malformed")
    tricky = "<img src=x onerror=1>"[:24]
    assert server.post(f"/api/tables/{table}/seats", {"name": tricky}).status_code == 201
    assert tricky in [s["name"] for s in server.get(f"/api/tables/{table}").json()["seats"]]


def test_names_joined_as_emoji_and_scripts_join_them_are_kept_and_an_invisible_joiner_makes_no_new_name(
        server: Server) -> None:
    """A family emoji (built with the zero-width joiner) and a Persian name (which needs the non-joiner) take a seat; a
    name that differs from one at the table only by a joiner, or holds nothing else, is refused in one line."""
    table = server.create(seats=[{}, {}, {}, {}, {}])["id"]
    path = f"/api/tables/{table}/seats"
    assert server.post(path, {"name": "Cy\u200d "}).status_code == 201
    family, persian = "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\u0645\u0647\u0631\u200c\u0646\u0627\u0632"
    for name in (family, persian):
        assert server.post(path, {"name": name}).status_code == 201, name
    assert [s["name"] for s in server.get(f"/api/tables/{table}").json()["seats"]][1:4] == ["Cy", family, persian]
    before = server.get(f"/api/tables/{table}").json()
    assert error_of(server.post(path, {"name": "An\u200dn"}), 409, "malformed") == (
        'someone at this table is already called "Ann"')
    assert error_of(server.post(path, {"name": "cy\u200d"}), 409, "malformed") == (  # an end's joiner joins nothing
        'someone at this table is already called "Cy"')
    assert error_of(server.post(path, {"name": "\u200d\u200c"}), 422, "malformed") == (
        "name: a name needs at least one visible character")
    assert error_of(server.post(path, {"name": "a\u202eb"}), 422, "malformed") == (
        "name: a name may not hold control characters")
    assert server.get(f"/api/tables/{table}").json() == before


ZALGO = "a" + "\u0301\u0316\u0300\u0317" * 5 + "\u0301\u0316\u0300"  # 24 characters, 23 marks on one "a"


def test_a_name_piling_marks_on_one_letter_is_refused_and_real_names_with_marks_are_kept(server: Server) -> None:
    """Within the length limit, a pile of combining marks on one letter drew over the page's rows around the name:
    refused in one line that names the problem, changing nothing; names that carry their script's marks join."""
    created = server.create(seats=[{}, {}, {}, {}, {}])
    table = created["id"]
    path = f"/api/tables/{table}/seats"
    before = server.get(f"/api/tables/{table}").json()
    refusal = "name: a name may not stack more than 3 combining marks on one character (found 23 on \"a\")"
    assert error_of(server.post(path, {"name": ZALGO}), 422, "malformed") == refusal
    assert error_of(server.post("/api/tables", {"name": ZALGO}), 422, "malformed") == refusal
    assert server.get(f"/api/tables/{table}").json() == before
    names = ["Nguyễn Thị Phương", "प्रियंका चोपड़ा", "สมศักดิ์", "مُحَمَّد"]
    for name in names:
        joined = server.post(path, {"name": name})
        assert joined.status_code == 201, joined.text
    assert [s["name"] for s in server.get(f"/api/tables/{table}").json()["seats"]] == ["Ann", *names]
    client = server.client(table, created["token"])  # a chat line is shown as a name is: the same refusal
    client.send({"type": "chat", "text": f"hello {ZALGO}"})
    error = client.until(lambda m: m["type"] in ("chat", "error"), 5)
    assert error["type"] == "error" and error["code"] == "malformed", error
    assert "a chat line may not stack more than 3 combining marks on one character" in error["message"], error
    client.close()
    # An uploaded record naming such a player is refused as its name would be: its replay and review were made,
    # writing the pile into the page's rows and the coach's lines.
    record = family("stops").random_hand_record("tripoley", 4, "marks")
    record["players"][2] = ZALGO
    for upload in ("/api/replay", "/api/review"):
        message = error_of(server.post(upload, record), 400, "malformed")
        assert message.endswith('players: the name of seat 2 may not stack more than 3 combining marks on one '
                                'character (found 23 on "a")') and ZALGO not in message, message


def test_bad_creations_get_one_line_and_store_nothing(server: Server) -> None:
    def listed() -> set[str]:
        return {t["id"] for t in server.get("/api/tables").json()["tables"]}

    before = listed()  # the server is shared: earlier tests' tables may leave the lobby meanwhile, none may come
    error_of(server.post("/api/tables", {"name": "Ann", "ruleset": "no-such-game"}), 400, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "ruleset": "/etc/passwd"}), 400, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "seats": [{}]}), 422, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "seats": [{"bot": "genius"}, {}]}), 422, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "seats": [{"bot": "easy"}, {}]}), 400, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "chips": -5}), 422, "malformed")
    # Too few chips for one hand's ante: the rule the message names is the answer's rule too (it was null)
    too_few = server.post("/api/tables", {"name": "Ann", "ruleset": "rummoli", "chips": 1})
    assert error_of(too_few, 400, "malformed").startswith("R-SESSION-1: starting chips are a whole number from ")
    assert too_few.json()["error"]["rule"] == "R-SESSION-1"
    error_of(server.post("/api/tables", {"name": "Ann", "turn_timer": 1}), 422, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "surprise": 1}), 422, "malformed")
    error_of(server.post("/api/tables", {"ruleset": "rummoli"}), 422, "malformed")
    error_of(server.post("/api/tables", {"name": "Ann", "ruleset": {"game": "stops", "board": 7}}), 400, "malformed")
    bad_json = HTTP.post(server.url + "/api/tables", content=b"{not json", timeout=5,
                          headers={"content-type": "application/json"})
    error_of(bad_json, 422, "malformed")
    # Text without a JSON content type, and JSON that is not an object: one line in our words, not pydantic's.
    for content, kind in ((b"name=Ann", "text/plain"), (b"[1, 2]", "application/json"), (b"7", "application/json")):
        answer = HTTP.post(server.url + "/api/tables", content=content, timeout=5, headers={"content-type": kind})
        expected = "the body is not a JSON object sent as application/json"
        assert error_of(answer, 422, "malformed") == expected, (content, kind)
    huge = HTTP.post(server.url + "/api/tables", content=b"x" * 70_000, timeout=5,
                      headers={"content-type": "application/json"})
    error_of(huge, 413, "too_large")
    assert not listed() - before


def test_a_rummy_table_keeps_no_chips_it_was_sent(server: Server) -> None:
    # They were kept and shown in the table's summary (a QA pass read "chips": 50), never to be played with
    rummy = server.post("/api/tables", {"name": "Ann", "ruleset": "rummy", "chips": 50})
    assert rummy.status_code == 201 and server.get(f"/api/tables/{rummy.json()['id']}").json()["chips"] is None


def test_wrong_json_types_are_refused_not_coerced(server: Server) -> None:
    """A value of the wrong JSON type is refused in one line naming its field, as the websocket refuses
    ``"seq": "29"``: ``"150"`` is not a number and ``true`` is not 1 (they used to be taken as 150 and 1).
    A whole number where seconds are asked is still a number."""
    def listed() -> set[str]:
        return {t["id"] for t in server.get("/api/tables").json()["tables"]}

    before = listed()
    base = {"name": "T", "ruleset": "rummoli", "seats": [{}, {}]}
    wrong = {"hands": (True, "must be a whole number, got true"),
             "chips": ("150", 'must be a whole number, got "150"'),
             "turn_timer": ("30", 'must be a number, got "30"'),
             "creator_seat": ("1", 'must be a whole number, got "1"')}
    for field, (value, words) in wrong.items():
        message = error_of(server.post("/api/tables", {**base, field: value}), 422, "malformed")
        assert message.startswith(f"{field}: ") and words in message, (field, message)
    # The QA pass's body, all at once: refused as a whole, naming one of its wrong fields.
    everything = {**base, **{field: value for field, (value, _) in wrong.items()}}
    assert error_of(server.post("/api/tables", everything), 422, "malformed").split(": ")[0] in wrong
    assert not listed() - before
    table = server.create(seats=[{}, {}, {}], chips=150, hands=2, turn_timer=30)["id"]  # JSON numbers: taken
    summary = server.get(f"/api/tables/{table}").json()
    assert (summary["chips"], summary["hands"], summary["turn_timer"]) == (150, 2, 30)
    # In our words, quoting what was sent as JSON spells it (not Python's True, nor pydantic's "Input should be").
    for seat, sent in (("1", '"1"'), (True, "true"), (1.0, "1.0")):
        message = error_of(server.post(f"/api/tables/{table}/seats", {"name": "Eve", "seat": seat}), 422, "malformed")
        assert message == f"seat: must be a whole number, got {sent}", (seat, message)
    assert [s["open"] for s in server.get(f"/api/tables/{table}").json()["seats"]] == [False, True, True]
    joined = server.post(f"/api/tables/{table}/seats", {"name": "Eve", "seat": 1})
    assert joined.status_code == 201 and joined.json()["seat"] == 1, joined.text


def test_unknown_tables_and_routes_are_404(server: Server) -> None:
    error_of(server.get("/api/tables/nope"), 404, "not_found")
    error_of(server.post("/api/tables/nope/seats", {"name": "Bob"}), 404, "not_found")
    error_of(server.get("/api/nothing"), 404, "not_found")


def test_seat_endpoints_need_the_right_token(server: Server) -> None:
    created = server.create(seats=[{}, {}, {"bot": "easy"}])
    table = created["id"]
    bob = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    error_of(server.post(f"/api/tables/{table}/end"), 401, "unauthorized")
    error_of(server.post(f"/api/tables/{table}/end", token="not-a-token"), 403, "unauthorized")
    error_of(server.post(f"/api/tables/{table}/end", token=bob["token"]), 403, "unauthorized")
    other = server.create(seats=[{}, {"bot": "easy"}])
    error_of(server.get(f"/api/tables/{table}/history", token=other["token"]), 403, "unauthorized")
    error_of(server.get(f"/api/tables/{table}/record", token=bob["token"]), 409, "unavailable")


def test_leaving_before_the_start_opens_the_seat_again(server: Server) -> None:
    table = server.create(seats=[{}, {}, {}])["id"]
    bob = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    assert server.post(f"/api/tables/{table}/leave", token=bob["token"]).status_code == 200
    summary = server.get(f"/api/tables/{table}").json()
    assert summary["open_seats"] == 2 and summary["seats"][1]["name"] == "Seat 2"
    error_of(server.post(f"/api/tables/{table}/leave", token=bob["token"]), 403, "unauthorized")


def test_leaving_a_finished_evening_is_refused_and_the_seat_keeps_its_evening(server: Server) -> None:
    """Once the evening is over no bot can take the seat: a leave was answered 200 and cost the player the record,
    the open replays and Play again of their own evening (403: the token held no seat)."""
    created = server.create(name="Ann", ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="leave-when-over")
    table, token = created["id"], created["token"]
    client = server.client(table, token)
    play_until(client, lambda c: bool(c.view.get("over")), random.Random(5), timeout=120)
    client.close()

    def seats() -> list[tuple[object, ...]]:
        infos = server.get(f"/api/tables/{table}").json()["seats"]
        return [(s["name"], s["bot"], s["person"], s["open"]) for s in infos]

    before, record = seats(), server.get(f"/api/tables/{table}/record", token=token)
    assert record.status_code == 200, record.text
    for _attempt in range(2):
        message = error_of(server.post(f"/api/tables/{table}/leave", token=token), 409, "over")
        assert message.startswith("this table's evening is over: there is no seat to leave"), message
    assert seats() == before
    # Nor is there anything left to end: "End evening" was answered 200, doing nothing
    ended = error_of(server.post(f"/api/tables/{table}/end", token=token), 409, "over")
    assert ended == "this table's evening is already over: there is nothing to end"
    assert server.get(f"/api/tables/{table}/record", token=token).content == record.content
    opened = server.get(f"/api/tables/{table}/hands/1/replay?open=1", token=token)
    assert opened.status_code == 200 and opened.json()["can_open"] is True, opened.text
    again = server.post(f"/api/tables/{table}/rematch", token=token)
    assert again.status_code == 201 and again.json()["seat"] == 0, again.text


def test_an_evening_ended_before_its_deal_is_over_to_leave_and_to_end_alike(server: Server) -> None:
    """Ended while a seat was still open, an evening has no table: it is over by its status alone (Room.over), and
    leaving and ending again are refused as they are once a played evening is over."""
    created = server.create(seats=[{}, {}, {}])
    table, token = created["id"], created["token"]
    bob = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    ended = server.post(f"/api/tables/{table}/end", token=token)
    assert ended.status_code == 200 and ended.json()["over"] is True, ended.text
    for who in (bob["token"], token):
        message = error_of(server.post(f"/api/tables/{table}/leave", token=who), 409, "over")
        assert message.startswith("this table's evening is over: there is no seat to leave"), message
    again = error_of(server.post(f"/api/tables/{table}/end", token=token), 409, "over")
    assert again == "this table's evening is already over: there is nothing to end"


def test_the_creator_starts_early_and_bots_take_the_open_seats(server: Server) -> None:
    created = server.create(seats=[{}, {}, {}])
    table = created["id"]
    answer = server.post(f"/api/tables/{table}/start", token=created["token"])
    assert answer.status_code == 200, answer.text
    summary = answer.json()
    assert summary["hand_no"] == 1 and [s["bot"] for s in summary["seats"]] == [None, "easy", "easy"]
