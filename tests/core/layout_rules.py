"""The rules the source's layout keeps (issue 31), read from the code itself with ``ast``: no import cycles, no
module over 600 lines, no reading of another module's private members, no comparison with a game family's name
outside ``rummoli/games``.

- **Imports** are every ``import`` a module makes when it runs, inside functions too (a lazy import is still
  an arrow), but not those under ``if TYPE_CHECKING:``, which only the type checker follows.
- **A private member** is a name that starts with one underscore (not a dunder). Reading one through anything
  but ``self`` or ``cls`` is allowed only where the module itself defines that name (assigns it, declares it in
  ``__slots__``, defines a function or class of that name): so a class may use its own instances' privates,
  and a module may not reach into another's.
- **A family's name** is the string ``"stops"`` or ``"rummy"`` compared with ``==``, ``!=``, ``in`` or as a
  ``match`` case.

Run it as ``python tests/core/layout_rules.py [SRC]`` for a report.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

FAMILIES = frozenset({"stops", "rummy", "poch"})
MAX_LINES = 600


@dataclass
class Report:
    lines: dict[str, int] = field(default_factory=dict)
    imports: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    private: list[tuple[str, int, str]] = field(default_factory=list)
    family: list[tuple[str, int]] = field(default_factory=list)

    @property
    def too_long(self) -> dict[str, int]:
        return {m: n for m, n in self.lines.items() if n > MAX_LINES}

    def cycles(self) -> list[list[str]]:
        """The strongly connected groups of modules (Tarjan), each a cycle of imports."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on: set[str] = set()
        found: list[list[str]] = []
        counter = [0]

        def visit(v: str) -> None:
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in sorted(self.imports[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

        sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
        for module in sorted(self.lines):
            if module not in index:
                visit(module)
        return found


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node under an ``if TYPE_CHECKING:`` (or ``if not TYPE_CHECKING`` is not one)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def _defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: assigned (on anything), declared in ``__slots__``, def or class."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                  for t in node.targets):
            names.update(c.value for c in ast.walk(node.value)
                         if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def read(src: Path) -> Report:
    """The layout of every module under ``src`` (the folder that holds the ``rummoli`` package)."""
    report = Report()
    paths = {_module_name(src, p): p for p in sorted(src.rglob("*.py"))}
    for module, path in paths.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        report.lines[module] = len(text.splitlines())
        skip = _type_checking_nodes(tree)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        own = _defined(tree)
        report.imports[module]  # every module is a node, with or without arrows
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    if target in paths:
                        report.imports[module].add(target)
                    elif base in paths:
                        report.imports[module].add(base)
                    if alias.name.startswith("_") and not alias.name.startswith("__") and base in paths:
                        report.private.append((module, node.lineno, f"{base}.{alias.name}"))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in paths:
                        report.imports[module].add(alias.name)
            elif isinstance(node, ast.Attribute):
                name = node.attr
                if not name.startswith("_") or name.startswith("__") or name in own:
                    continue
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                report.private.append((module, node.lineno, name))
            elif isinstance(node, ast.Compare):
                if not module.startswith("rummoli.games") and any(
                        isinstance(c, ast.Constant) and c.value in FAMILIES for c in (node.left, *node.comparators)):
                    report.family.append((module, node.lineno))
            elif isinstance(node, ast.match_case) and isinstance(node.pattern, ast.MatchValue):
                value = node.pattern.value
                if (not module.startswith("rummoli.games") and isinstance(value, ast.Constant)
                        and value.value in FAMILIES):
                    report.family.append((module, node.pattern.lineno))
        for dep in list(report.imports[module]):
            if dep == module:
                report.imports[module].discard(dep)
    return report


def main(src: Path) -> None:
    report = read(src)
    print(f"modules {len(report.lines)}; over {MAX_LINES} lines: {report.too_long or 'none'}")
    cycles = report.cycles()
    print(f"import cycles {len(cycles)}")
    for group in cycles:
        print("  " + " <-> ".join(group))
    print(f"private reads across modules {len(report.private)}")
    for where in report.private:
        print(f"  {where[0]}:{where[1]} {where[2]}")
    print(f"family-name comparisons outside rummoli.games {len(report.family)}")
    for where in report.family:
        print(f"  {where[0]}:{where[1]}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "src")
