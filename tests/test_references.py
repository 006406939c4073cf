"""The repository stands on its own: no machine paths, no documents from outside it, and every
section of the rules that the code cites exists.

The rules the engine implements are written down in ``docs/RULES.md``; code and tests cite a
section as ``docs/RULES.md#<anchor>``, the anchor GitHub derives from the heading (``###
Long: head rule`` is ``#long-head-rule``). These tests read the tree as text, so they catch
a reference in a comment or a docstring as well as one in code.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"

#: Text files whose references matter: code, documentation, configuration, training logs.
TEXT_SUFFIXES = frozenset({".py", ".md", ".toml", ".txt", ".sh", ".cfg", ".ini", ".log"})
TEXT_NAMES = frozenset({"Procfile"})
#: Without git: directories that are not the project's own text (tools' caches,
#: environments, builds; ``runs`` is where training writes its local output).
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        "build",
        "dist",
        "runs",
    }
)

THIS_FILE = Path(__file__).resolve()
MACHINE_PATHS = tuple(f"/{name}/" for name in ("work", "home", "Users"))
SHARED_FOLDER = ("../" + "shared", "shared/" + "RULES.md")

CITATION = re.compile(r"docs/RULES\.md#([A-Za-z0-9_-]+)")
LOCAL_LINK = re.compile(r"\]\(#([A-Za-z0-9_-]+)\)")
# "RULES.md" that is not the repository's own file: a bare name or another folder's copy.
STRAY_RULES = re.compile(r"(?<![\w/])RULES\.md|(?<!\bdocs)/RULES\.md")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")


def candidate_files() -> list[Path]:
    """The project's files: what git tracks or would add (ignored files left out) in a
    checkout, else every file outside the build and cache directories."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):  # no git, or not a checkout
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info")]
            found += [Path(folder, name) for name in files]
        return sorted(found)
    return sorted({ROOT / name for name in listed.decode().split("\0") if name})


def text_files() -> Iterator[Path]:
    """Every text file of the project, and not this file: its examples are the very patterns
    it looks for."""
    for path in candidate_files():
        textual = path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES
        if textual and path != THIS_FILE and path.is_file():
            yield path


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def findings(pattern: str | re.Pattern[str], text: str, where: str) -> list[str]:
    """``where:line: the line`` for each line of ``text`` that matches."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        hit = pattern.search(line) if isinstance(pattern, re.Pattern) else pattern in line
        if hit:
            found.append(f"{where}:{number}: {line.strip()}")
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to
    hyphens (letters, digits, ``-`` and ``_`` are kept)."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def anchors(markdown: str) -> list[str]:
    """The anchors of a Markdown document's headings, in order (code blocks skipped)."""
    found, fenced = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append(slug(match.group(1)))
    return found


def citations(text: str) -> list[tuple[int, str]]:
    """(line, anchor) of each ``docs/RULES.md#anchor`` in ``text``."""
    return [
        (number, match.group(1))
        for number, line in enumerate(text.splitlines(), start=1)
        for match in CITATION.finditer(line)
    ]


def test_the_scan_sees_the_project() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in text_files()}
    for expected in ("README.md", "docs/RULES.md", "engine/rules.py", "bot/texts/rules.py"):
        assert expected in names
    assert not any(name.startswith(".venv/") for name in names)
    assert "tests/test_references.py" not in names


def test_no_absolute_machine_path() -> None:
    problems = [
        finding
        for path in text_files()
        for marker in MACHINE_PATHS
        for finding in findings(marker, read(path), str(path.relative_to(ROOT)))
    ]
    assert not problems, "absolute paths of a machine:\n" + "\n".join(problems)


def test_no_reference_to_documents_outside_the_repository() -> None:
    problems = [
        finding
        for path in text_files()
        for marker in SHARED_FOLDER
        for finding in findings(marker, read(path), str(path.relative_to(ROOT)))
    ]
    assert not problems, "references to a folder outside the repository:\n" + "\n".join(problems)


def test_the_rules_are_cited_as_docs_rules_md() -> None:
    problems = [
        finding
        for path in text_files()
        for finding in findings(STRAY_RULES, read(path), str(path.relative_to(ROOT)))
    ]
    assert not problems, "cite the rules as docs/RULES.md:\n" + "\n".join(problems)


def test_every_cited_section_of_the_rules_exists() -> None:
    known = set(anchors(read(RULES)))
    problems = [
        f"{path.relative_to(ROOT)}:{line}: docs/RULES.md#{anchor}"
        for path in text_files()
        for line, anchor in citations(read(path))
        if anchor not in known
    ]
    links = LOCAL_LINK.findall(read(RULES))
    problems += [f"docs/RULES.md: link to #{anchor}" for anchor in links if anchor not in known]
    assert not problems, "sections of the rules that do not exist:\n" + "\n".join(problems)


def test_the_rules_have_one_anchor_per_heading_and_cover_both_variants() -> None:
    found = anchors(read(RULES))
    duplicates = sorted({anchor for anchor in found if found.count(anchor) > 1})
    assert not duplicates
    for section in ("both", "classic", "long", "long-head-rule", "long-block-rule"):
        assert section in found
    for section in ("classic-cube", "classic-matches-and-crawford", "long-last-roll"):
        assert section in found


def test_the_code_cites_the_rules() -> None:
    """The engine's tests and the /regole pages point at the sections they follow."""
    cited = {anchor for path in text_files() for _, anchor in citations(read(path))}
    assert {"long-head-rule", "classic-matches-and-crawford", "exchange-vectors"} <= cited


def test_every_regole_page_names_the_sections_it_retells() -> None:
    source = read(ROOT / "bot" / "texts" / "rules.py")
    pages = source.count("    Section(\n")
    retold = source.count("    # Retells docs/RULES.md#")
    assert pages > 0 and retold == pages, (pages, retold)


# --- The checks themselves ------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Long: head rule", "long-head-rule"),
        ("Classic: matches and Crawford", "classic-matches-and-crawford"),
        ("Classic: GNU Backgammon IDs", "classic-gnu-backgammon-ids"),
        ("The table", "the-table"),
        ("Tavola's rules", "tavolas-rules"),
    ],
)
def test_slug_follows_github(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_anchors_skip_code_blocks() -> None:
    markdown = "# Title\n```sh\n# a shell comment\n```\n## Long: block rule\n"
    assert anchors(markdown) == ["title", "long-block-rule"]


def test_citations_are_found_in_comments_and_docstrings() -> None:
    text = '"""From docs/RULES.md#long-head-rule."""\nx = 1  # docs/RULES.md#classic-cube, and\n'
    assert citations(text) == [(1, "long-head-rule"), (2, "classic-cube")]


@pytest.mark.parametrize(
    ("line", "stray"),
    [
        ("follows RULES.md, the one reading", True),
        ("see ../docs/RULES.md or elsewhere/RULES.md", True),
        ("(docs/RULES.md#long-head-rule)", False),
        ("the engine (docs/RULES.md)", False),
        ("MY_RULES.md_NOT", False),
    ],
)
def test_stray_rules_references_are_told_apart(line: str, stray: bool) -> None:
    assert bool(findings(STRAY_RULES, line, "x")) is stray


def test_planted_paths_are_reported_with_file_and_line() -> None:
    text = "ok\nsee " + MACHINE_PATHS[0] + "repo/x\n" + SHARED_FOLDER[0] + "/NOTES.md\n"
    assert findings(MACHINE_PATHS[0], text, "f.py") == [f"f.py:2: see {MACHINE_PATHS[0]}repo/x"]
    assert findings(SHARED_FOLDER[0], text, "f.py")[0].startswith("f.py:3: ")
