"""The documentation a reader follows: every relative link in README.md and docs/ leads somewhere,
and the README stays a front page (what it is, the two commands, links), not a manual."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from core.store import versions
from tests.conftest import ROOT

DOCS = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").rglob("*.md")]
)
README_BUDGET = 8 * 1024
# [text](target) and ![alt](target), and reference definitions "[name]: target"
INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`\n]*`")


def links(text: str) -> list[str]:
    prose = CODE.sub("", FENCE.sub("", text))
    return INLINE.findall(prose) + DEFINITION.findall(prose)


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) and not target.startswith("#")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc: Path):
    missing = [
        target
        for target in links(doc.read_text(encoding="utf-8"))
        if relative(target) and not (doc.parent / unquote(target.split("#", 1)[0])).exists()
    ]
    assert not missing, f"{doc.relative_to(ROOT)} links to what is not there: {missing}"


def test_the_link_reader_sees_what_a_reader_follows():
    text = 'see [a](docs/a.md#x), ![b](b.png "t"), [c](https://x.org), `[d](not.md)`\n\n[e]: e.md\n'
    assert [t for t in links(text) if relative(t)] == ["docs/a.md#x", "b.png", "e.md"]


def test_the_readme_is_a_front_page():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_BUDGET, f"README.md is {size} bytes: the guide's place is docs/guide/"


def test_the_server_versions_the_store_needs_are_the_guides():
    guide = (ROOT / "docs" / "guide" / "profiles-and-servers.md").read_text(encoding="utf-8")
    said = re.search(r"PostgreSQL (\d+) or newer with pgvector ([\d.]+) or newer", " ".join(guide.split()))
    assert said, "the guide no longer says which server versions Neurons needs"
    assert (int(said[1]), versions.release(said[2])) == (versions.POSTGRES_MINIMUM, versions.PGVECTOR_MINIMUM)
