"""Reading data files -- rulesets and boards (TOML), records (JSON) -- built-in or a user's own.

One place for it, so that every engine refuses an unreadable or broken file with the same clear
message (a :class:`~rummoli.errors.MalformedInput` naming the file), and so that what comes from
outside can never make the program open a file it was not meant to (docs/records.md, R-NOTE-6):

* a built-in is found by a plain name (:data:`BUILTIN_NAME`: lower-case letters, digits and dashes),
  never by a name that could climb out of the package's ``rulesets`` folder;
* a user's file is opened only when the local user names it (``--ruleset FILE``, ``rummoli replay
  FILE``), and only if it is a regular file of reasonable size: a pipe or a device named ``x.toml``
  is refused at once instead of blocking the program.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import stat
import tomllib
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, Final

from rummoli.errors import MalformedInput

#: What a built-in ruleset or board may be called: nothing that names a folder or a file elsewhere.
BUILTIN_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
#: The largest ruleset or board file read (a real one is a few hundred bytes).
MAX_TOML_BYTES: Final = 1 << 20


def builtin_file(*parts: str) -> Traversable:
    """A file among the package's built-in rulesets (``builtin_file("boards", "tripoley.toml")``)."""
    return resources.files("rummoli").joinpath("rulesets", *parts)


def builtin_toml(name: object, folder: str | None = None) -> Traversable | None:
    """The built-in ``rulesets/[folder/]NAME.toml`` if ``name`` is a plain built-in name and the file
    exists, else ``None`` (a name such as ``../../x`` is never looked up)."""
    if not isinstance(name, str) or BUILTIN_NAME.fullmatch(name) is None:
        return None
    file = builtin_file(*((folder,) if folder else ()), f"{name}.toml")
    return file if file.is_file() else None


def read_builtin(name: str, folder: str | None = None) -> dict[str, Any] | None:
    """The table in the built-in ``rulesets/[folder/]NAME.toml`` (``None``: no such built-in), parsed once per
    process: a server rebuilding tables (a restart, a takeover, a follower's copy) read and parsed the same
    file for each table, more time than the rest of the rebuild. A copy each time, so no caller's change to it
    reaches the next."""
    parsed = _parsed_builtin(name, folder)
    return None if parsed is None else copy.deepcopy(parsed)


@functools.lru_cache(maxsize=128)
def _parsed_builtin(name: str, folder: str | None) -> dict[str, Any] | None:
    file = builtin_toml(name, folder)
    what = f"{'board' if folder == 'boards' else 'ruleset'} {name!r}"
    return None if file is None else read_toml(file, what)


def read_local(path: Path, what: str, limit: int) -> bytes:
    """The bytes of a local file the user named: a regular file of at most ``limit`` bytes.

    The file is opened without waiting (a pipe or a device is refused, never read), and checked
    on the open descriptor, so it cannot be swapped for a pipe between a check and the read.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise MalformedInput(f"cannot read {what}: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise MalformedInput(f"cannot read {what}: not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(limit + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as error:
        raise MalformedInput(f"cannot read {what}: {error.strerror}") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise MalformedInput(f"{what} is larger than the {limit:,} bytes allowed")
    return data


def decode(data: bytes, what: str) -> str:
    """UTF-8 text (a leading byte-order mark is accepted and dropped); bad bytes get one clear line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedInput(f"{what} is not UTF-8 text (bad byte at offset {error.start})") from None


def parse_toml(text: str, what: str) -> dict[str, Any]:
    """The table in a TOML text; anything unreadable (bad syntax, deep nesting, a number of
    thousands of digits) is one :class:`MalformedInput` naming ``what``."""
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise MalformedInput(f"{what} is not valid TOML: {error}") from None
    except RecursionError:
        raise MalformedInput(f"{what} is nested too deeply") from None
    except ValueError:  # e.g. an integer too long to read
        raise MalformedInput(f"{what} holds a value that cannot be read (a number far too long?)") from None


def read_toml(source: Path | Traversable, what: str) -> dict[str, Any]:
    """The table in a TOML file (a local path the user named, or a built-in); ``what`` names the
    file in the error if it cannot be read or parsed."""
    if isinstance(source, Path):
        data = read_local(source, what, MAX_TOML_BYTES)
    else:
        try:
            data = source.read_bytes()
        except OSError as error:
            raise MalformedInput(f"cannot read {what}: {error.strerror}") from None
    return parse_toml(decode(data, what), what)
