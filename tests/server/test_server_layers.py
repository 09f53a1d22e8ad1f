"""The server's floors (docs/ARCHITECTURE.md): api over tables over storage, and the cluster as an add-on that only
``--redis-url`` brings in. A single process plays a whole evening without importing the cluster (nor Redis's
client), and the imports point one way, as read from the code (tests/core/layout_rules.py)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import rummoli

SRC = Path(rummoli.__file__).resolve().parents[1]
ROOT = Path(__file__).resolve().parents[2]

EVENING = """
import json, sys
from pathlib import Path

from fastapi.testclient import TestClient

from rummoli.server.api.app import create_app
from rummoli.server.settings import Settings

settings = Settings(data_dir=Path(sys.argv[1]), bot_workers=-1, bot_pace=0, play_pace=0, hand_pause=0, gc_freeze=0)
seats = [{}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]
over = False
with TestClient(create_app(settings), base_url="http://127.0.0.1:8000") as client:  # the address it would listen on
    made = client.post("/api/tables", json={"ruleset": "rummoli", "name": "Ann", "seats": seats, "hands": 1,
                                            "pace": "instant"}).json()
    with client.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        while not over:
            message = ws.receive_json()
            if message["type"] not in ("welcome", "update"):
                continue
            view = message["view"]
            over = bool(view.get("over"))
            legal = (view.get("hand") or {}).get("legal_actions") or []
            if legal and not over and made["seat"] in view.get("to_act", []):
                action = dict(legal[0])
                if "min" in action:
                    action["amount"] = action.pop("min")
                    action.pop("max")
                ws.send_json({"type": "act", "seq": message["seq"], "action": action})
print(json.dumps({"over": over, "modules": sorted(sys.modules)}))
"""


def test_a_single_process_never_imports_the_cluster(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", EVENING, str(tmp_path)], capture_output=True, text=True,
                          timeout=180, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["over"], "the evening did not reach its end"
    modules = result["modules"]
    assert "rummoli.server.tables.host" in modules
    assert [m for m in modules if m.startswith("rummoli.server.cluster") or m.split(".")[0] in ("redis", "hiredis")
            ] == []


def _layout() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layout_rules", ROOT / "tests" / "core" / "layout_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["layout_rules"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_floors_import_one_way() -> None:
    rules = _layout()
    report = rules.read(SRC)
    server = {m: deps for m, deps in report.imports.items() if m.startswith("rummoli.server")}

    def floor(module: str) -> str:
        return module.split(".")[2] if module.count(".") >= 2 else ""

    # what each floor (or module beside them) may import of the others; modules beside the floors (settings,
    # jsontext, heap, rulesets) import none of them, and only run starts the api
    below = {"run": {"api"}, "api": {"tables", "storage", "cluster"}, "cluster": {"tables", "storage"},
             "tables": {"storage"}, "storage": set()}
    floors = {"api", "tables", "storage", "cluster"}
    wrong = []
    for module, deps in server.items():
        for dep in deps:
            if dep.startswith(("rummoli.stops.", "rummoli.rummy.")):
                wrong.append(f"{module} -> {dep} (an engine's inside: import its package)")
            mine, theirs = floor(module), floor(dep) if dep.startswith("rummoli.server.") else ""
            if theirs in floors and theirs != mine and theirs not in below.get(mine, set()):
                wrong.append(f"{module} -> {dep}")
    assert wrong == []
    assert [c for c in report.cycles() if any(m.startswith("rummoli.server") for m in c)] == []
    assert {m: n for m, n in report.too_long.items() if m.startswith("rummoli.server")} == {}
    assert [p for p in report.private if p[0].startswith("rummoli.server")] == []
    assert [f for f in report.family if f[0].startswith("rummoli.server")] == []  # the server asks rummoli.games
