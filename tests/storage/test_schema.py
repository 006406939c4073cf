"""Schema checks and migrations of stored game documents (no server needed)."""

from __future__ import annotations

import pytest

from storage.schema import SchemaError, SchemaRegistry, encode_document


def registry() -> SchemaRegistry:
    schema = SchemaRegistry(current=3)

    @schema.migration(from_version=1)
    def add_cube(doc: dict) -> dict:
        return {**doc, "cube": 1}

    @schema.migration(from_version=2)
    def rename_turn(doc: dict) -> dict:
        doc["turn_no"] = doc.pop("turn")
        return doc

    return schema


def test_current_document_is_returned_unchanged() -> None:
    doc = {"schema": 3, "cube": 2, "turn_no": 7}
    assert registry().load(encode_document(doc)) == doc


def test_old_document_goes_through_every_step_in_order() -> None:
    assert registry().load(b'{"schema":1,"turn":4}') == {"schema": 3, "cube": 1, "turn_no": 4}


def test_missing_step_is_refused() -> None:
    schema = SchemaRegistry(current=3)
    schema.add(2, lambda doc: doc)
    with pytest.raises(SchemaError, match="no migration from schema 1"):
        schema.load('{"schema":1}')


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b'{"schema":4}', "newer than the supported 3"),
        (b'{"turn":1}', "missing or non-integer"),
        (b'{"schema":"3"}', "missing or non-integer"),
        (b'{"schema":true}', "missing or non-integer"),
        (b'{"schema":0}', "invalid schema version"),
        (b'{"schema":3', "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        (b"[1,2]", "expected a JSON object"),
    ],
)
def test_unreadable_documents_are_refused_with_a_reason(raw: bytes, reason: str) -> None:
    with pytest.raises(SchemaError, match=reason):
        registry().load(raw)


def test_failing_migration_becomes_a_schema_error() -> None:
    schema = SchemaRegistry(current=2)
    schema.add(1, lambda doc: doc["absent"])
    with pytest.raises(SchemaError, match="migration from schema 1 failed: KeyError"):
        schema.load('{"schema":1}')


def test_registry_refuses_impossible_steps_and_unstorable_documents() -> None:
    schema = SchemaRegistry(current=2)
    with pytest.raises(ValueError, match="cannot reach 2"):
        schema.add(2, lambda doc: doc)
    schema.add(1, lambda doc: doc)
    with pytest.raises(ValueError, match="already registered"):
        schema.add(1, lambda doc: doc)
    with pytest.raises(ValueError, match="schema 3 > supported 2"):
        schema.check_storable({"schema": 3})
    with pytest.raises(ValueError, match="not storable"):
        schema.check_storable({"moves": []})


def test_encoding_is_compact_and_keeps_unicode() -> None:
    assert encode_document({"schema": 1, "name": "Nicolò"}) == '{"schema":1,"name":"Nicolò"}'
