"""Stored game documents: JSON with a top-level integer ``"schema"``, migrated on load.

The engine owns the document's content (``to_dict`` / ``from_dict``); storage only guarantees
that what it hands back has the schema the running code supports. Older documents go through
the registered migrations (schema N -> N+1, one step at a time); newer, unversioned or unparsable
ones are refused with a reason, never misread.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Document = dict[str, Any]
Migration = Callable[[Document], Document]


class SchemaError(ValueError):
    """A document cannot be brought to the supported schema; ``str()`` says why."""


class NewerSchemaError(SchemaError):
    """The document has a newer schema than this code supports: a newer version of the
    bot wrote it (a rolling upgrade under way, or a rollback). It is not corrupt: it must
    be left as it is, for the newer version to go on with it."""

    def __init__(self, version: int, supported: int) -> None:
        super().__init__(
            f"schema {version} is newer than the supported {supported} "
            "(written by a newer version of the bot)"
        )
        self.version = version
        self.supported = supported


def encode_document(doc: Document) -> str:
    """Compact JSON (no spaces, UTF-8 kept as is): a stored game is read on every click."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def parse_document(raw: bytes | str) -> Document:
    """The JSON object in ``raw``; :class:`SchemaError` when it is not one."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        doc = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SchemaError(f"not valid JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise SchemaError(f"expected a JSON object, found {type(doc).__name__}")
    return doc


def schema_of(doc: Document) -> int:
    version = doc.get("schema")
    # bool is an int subclass: "schema": true must not pass as version 1.
    if type(version) is not int:
        raise SchemaError("missing or non-integer 'schema' field")
    if version < 1:
        raise SchemaError(f"invalid schema version {version}")
    return version


class SchemaRegistry:
    """The supported schema version and the migrations leading up to it.

    >>> schema = SchemaRegistry(current=2)
    >>> @schema.migration(from_version=1)
    ... def add_cube(doc):
    ...     return {**doc, "cube": 1}
    """

    def __init__(self, current: int) -> None:
        if type(current) is not int or current < 1:
            raise ValueError("the current schema version must be a positive integer")
        self.current = current
        self._steps: dict[int, Migration] = {}

    def migration(self, from_version: int) -> Callable[[Migration], Migration]:
        """Decorator registering ``fn`` as the step ``from_version`` -> ``from_version + 1``."""

        def register(fn: Migration) -> Migration:
            self.add(from_version, fn)
            return fn

        return register

    def add(self, from_version: int, fn: Migration) -> None:
        if not 1 <= from_version < self.current:
            raise ValueError(f"a migration from {from_version} cannot reach {self.current}")
        if from_version in self._steps:
            raise ValueError(f"a migration from schema {from_version} is already registered")
        self._steps[from_version] = fn

    def check_storable(self, doc: Document) -> None:
        """Refuse to write a document this code could not read back (a programming error)."""
        try:
            version = schema_of(doc)
        except SchemaError as exc:
            raise ValueError(f"game document not storable: {exc}") from None
        if version > self.current:
            raise ValueError(f"game document has schema {version} > supported {self.current}")

    def upgrade(self, doc: Document) -> Document:
        """``doc`` at the current schema; :class:`SchemaError` if that is impossible."""
        version = schema_of(doc)
        if version > self.current:
            raise NewerSchemaError(version, self.current)
        while version < self.current:
            step = self._steps.get(version)
            if step is None:
                raise SchemaError(f"no migration from schema {version} to {version + 1}")
            try:
                migrated = step(dict(doc))
            except Exception as exc:  # a failing migration must not crash the caller
                raise SchemaError(
                    f"migration from schema {version} failed: {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(migrated, dict):
                raise SchemaError(f"migration from schema {version} did not return a dict")
            version += 1
            doc = {**migrated, "schema": version}
        return doc

    def load(self, raw: bytes | str) -> Document:
        """Parse and upgrade a stored document."""
        return self.upgrade(parse_document(raw))
