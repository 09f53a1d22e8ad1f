"""The repository stands alone (issue 15): nothing cites a file outside it, and every link in the README
and docs/ leads to a file that is here."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Written in pieces so that this file does not cite them itself.
OUTSIDE = ("../" + "shared", "shared" + "/", "RULES" + ".md", "DESIGN" + ".md", "seeds" + "/")


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    out = []
    for name in names.splitlines():
        path = ROOT / name
        if path.is_file() and path.suffix not in (".png", ".gz"):
            out.append(path)
    return out


def test_no_file_cites_the_shared_folder_or_its_rule_book() -> None:
    found = []
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}: {word}" for word in OUTSIDE if word in text]
    assert not found, "\n".join(found)


def test_every_relative_link_in_the_readme_and_docs_leads_to_a_file_here() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.name} -> {target}")
    assert not broken, broken


def test_the_rule_book_holds_every_rule_id_the_code_and_tests_name() -> None:
    book = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    named: set[str] = set()
    for path in [*ROOT.glob("src/rummoli/**/*.py"), *ROOT.glob("tests/**/*.py")]:
        named |= set(re.findall(r"\bR-[A-Z0-9]+-\d+\b", path.read_text(encoding="utf-8")))
    missing = sorted(rule for rule in named if rule not in book)
    assert not missing, f"rule ids used but not written down in docs/: {missing}"
