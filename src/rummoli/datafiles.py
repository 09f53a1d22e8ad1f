"""Reading the TOML data files of rulesets and boards, built-in or a user's own.

One place for it, so that every engine refuses an unreadable or broken file with the same
clear message (a :class:`~rummoli.errors.MalformedInput` naming the file).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from rummoli.errors import MalformedInput


def builtin_file(*parts: str) -> Traversable:
    """A file among the package's built-in rulesets (``builtin_file("boards", "tripoley.toml")``)."""
    return resources.files("rummoli").joinpath("rulesets", *parts)


def read_toml(source: Path | Traversable, what: str) -> dict[str, Any]:
    """The table in a TOML file; ``what`` names the file in the error if it cannot be read or parsed."""
    try:
        return tomllib.loads(source.read_text(encoding="utf-8"))
    except OSError as error:
        raise MalformedInput(f"cannot read {what}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise MalformedInput(f"{what} is not valid TOML: {error}") from None
