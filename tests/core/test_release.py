"""A release's habits: the version is written in one place, and the changelog says what it holds."""

from __future__ import annotations

import re
import tomllib

from core import __version__
from tests.conftest import ROOT


def test_the_version_is_written_once_and_pyproject_reads_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "pyproject.toml spells out a version of its own"
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "core.__version__"}


def test_the_changelog_names_this_version_as_its_latest_release():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## \[([^\]]+)\]", text, flags=re.MULTILINE)
    assert sections[0] == "Unreleased", "the changelog starts with what is not released yet"
    assert sections[1] == __version__, f"the latest release in CHANGELOG.md is {sections[1]}"
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.MULTILINE)
