"""The page's files, named so that a browser keeps each as long as it is unchanged and never mixes two versions.

The page is plain ES modules that import one another by relative address (``./dom.js``), with no build step. Served
as they were, they had no caching rule, so a browser guessed one from their age: after an upgrade it could run an
old ``app.js`` beside a new ``table.js`` and draw nothing; and a first visit fetched them four imports deep, one
round trip per level.

So ``index.html`` is sent with each file's address carrying its version (``/table.js?v=`` and the first 12 hex
digits of the file's SHA-256), and an import map sends the modules' own relative imports to the same versioned
addresses. A versioned address is kept for a year unasked (``immutable``): a returning player's browser fetches
nothing but the page; a file that changes gets a new address. The page itself, and a file asked for without its
version, are checked with the server each time (``no-cache``, answered ``304`` when unchanged). Every module is
also named in a ``modulepreload`` link, so all are asked for at once, not level by level.

The import map is an inline script, which the server's Content-Security-Policy (rummoli.server.api.guard) refuses
unless its hash is named: the page's own answer carries the policy with that one hash added, nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import QueryParams
from starlette.responses import Response

from rummoli.server.api.guard import CSP

#: how a versioned address is cached: a year, never revalidated (a new version is a new address)
KEEP = "public, max-age=31536000, immutable"
#: how the page and an unversioned file are cached: kept, but checked with the server before each use
CHECK = "no-cache"
# A file the page's head loads, as index.html names it.
HEAD_FILE = re.compile(r'(href|src)="/([\w-]+\.(?:js|css))"')


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


@dataclass(frozen=True)
class Assets:
    """The page as sent (``index``), with the policy it is sent with (``policy``), and each file's ``versions``."""

    index: str
    policy: str
    versions: dict[str, str]


def load_assets(folder: Path) -> Assets:
    """The page of ``folder`` with every JS and CSS file of it versioned (see the module's docstring)."""
    versions = {path.name: version_of(path.read_bytes()) for path in sorted(folder.iterdir())
                if path.suffix in (".js", ".css")}
    modules = [name for name in versions if name.endswith(".js")]
    imports = {f"/{name}": f"/{name}?v={versions[name]}" for name in modules}
    import_map = json.dumps({"imports": imports}, separators=(",", ":"))
    digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
    preloads = "".join(f'<link rel="modulepreload" href="{address}">\n' for address in imports.values())
    page = (folder / "index.html").read_text()
    # The import map comes before any module is loaded (a map after the first import is ignored).
    head = f'<script type="importmap">{import_map}</script>\n{preloads}'
    page = page.replace('<script type="module"', head + '<script type="module"', 1)
    page = HEAD_FILE.sub(lambda m: f'{m[1]}="/{m[2]}?v={versions[m[2]]}"' if m[2] in versions else m[0], page)
    policy = CSP.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'", 1)
    return Assets(page, policy, versions)


class VersionedFiles(StaticFiles):
    """The page's folder, each answer told how long to keep it: a year when asked for by its current version,
    else checked each time."""

    def __init__(self, *, directory: Path, versions: dict[str, str]) -> None:
        super().__init__(directory=directory)
        self.versions = versions

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)  # a missing file raises its 404 here
        current = self.versions.get(path)
        asked = QueryParams(scope.get("query_string", b"")).get("v")
        response.headers["Cache-Control"] = KEEP if current is not None and asked == current else CHECK
        return response
