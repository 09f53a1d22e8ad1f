"""The migrations ship inside the package (so a non-editable install can apply them at start), and they
build exactly the schema the code uses."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from rummoli.server.storage.schema import metadata
from rummoli.server.storage.store import MIGRATIONS, Store

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "rummoli"


def test_every_migration_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["rummoli"]
    files = [p.relative_to(PACKAGE).as_posix() for p in MIGRATIONS.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts]
    assert any(f.startswith("server/storage/migrations/versions/") for f in files)
    for name in files:
        assert any(fnmatch.fnmatch(name, g) for g in globs), f"{name} would be left out of the wheel"


def test_migrations_build_the_schema_the_code_uses(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    store.migrate()
    store.migrate()  # applying them again is harmless
    with store.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    store.close()
    assert differences == []
