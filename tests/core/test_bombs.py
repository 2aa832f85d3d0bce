"""Bombs: a gzip backup that inflates a thousandfold, a backup of JSON
nested 200k deep, a YAML alias bomb in a vault note. Each is refused in one sentence, before it
is held in memory; the peak memory of the process that reads it is measured (not its time)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from core import backup
from core.backup import CorruptBackup
from core.interop import markdown
from core.interop.files import import_path
from core.interop.report import Skip
from tests.conftest import ROOT

MB = 1024 * 1024


def inflating(total_mb: int) -> bytes:
    """A gzip file of one-megabyte members of spaces inside a JSON string: ~1 KB per MB."""
    spaces = gzip.compress(b" " * MB, compresslevel=9, mtime=0)
    head = gzip.compress(b'{"format":"neurons-backup/1","pad":"', mtime=0)
    return head + spaces * total_mb + gzip.compress(b'"}', mtime=0)


# The child's own peak: VmHWM, the high-water mark of the memory its exec made. (Its ru_maxrss
# starts at the RSS of the process that forked it -- the test run's, hundreds of MB once a
# sentence model was loaded -- so it measured pytest, not the reader.)
PEAK = "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) / 1024)"


def peak_rss_mb(code: str) -> tuple[float, str]:
    """Run `code` in a fresh Python; (its peak resident memory in MB, what it printed)."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\n{PEAK}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    *said, peak = done.stdout.strip().splitlines()
    return float(peak), "\n".join(said)


def test_a_gzip_bomb_is_refused_before_it_is_held(tmp_path):
    bomb = tmp_path / "neurons-20260101-000000Z.json.gz"
    bomb.write_bytes(inflating(512))  # 0.5 MB on disk, 512 MB inflated
    assert bomb.stat().st_size < MB
    with pytest.raises(CorruptBackup, match=r"would inflate to more than 67 MB from 0\.5 MB"):
        backup.load(bomb)
    peak, said = peak_rss_mb(
        "from core import backup\n"
        f"try:\n    backup.load({str(bomb)!r})\n"
        "except backup.CorruptBackup as exc:\n    print(exc)"
    )
    assert "nothing was restored" in said and "\n" not in said
    assert peak < 200, f"reading the bomb took {peak:.0f} MB"


def test_a_backup_within_the_ratio_still_reads(tmp_path):
    header = {"format": "neurons-backup/1", "device_id": "7c0e0bd0-5c39-4a47-9a53-1c2b7c1f0a11"}
    path = tmp_path / "ok.json.gz"
    data = {**header, "counts": {"neurons": 0, "neurons_edges": 0, "profiles": 0}}
    path.write_bytes(
        gzip.compress(json.dumps({**data, "neurons": [], "neurons_edges": [], "profiles": []}).encode())
    )
    assert backup.load(path)["neurons"] == []
    # two gzip members, as `cat a.gz b.gz` makes, are one file
    text = json.dumps({**data, "neurons": [], "neurons_edges": [], "profiles": []}).encode()
    path.write_bytes(gzip.compress(text[:10]) + gzip.compress(text[10:]))
    assert backup.load(path)["profiles"] == []
    path.write_bytes(gzip.compress(text)[:-9])  # cut short
    with pytest.raises(CorruptBackup, match="damaged"):
        backup.load(path)


def test_a_backup_nested_200k_deep_is_refused_in_a_sentence(tmp_path):
    path = tmp_path / "deep.json.gz"
    path.write_bytes(gzip.compress(b"[" * 200_000 + b"]" * 200_000))
    with pytest.raises(CorruptBackup, match="nested too deeply"):
        backup.load(path)


BILLION_LAUGHS = """---
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
---
a note
"""


def test_a_yaml_alias_bomb_in_a_vault_note_is_skipped_with_its_reason(embedded_memory, tmp_path):
    assert len(BILLION_LAUGHS.encode()) < 500
    with pytest.raises(Skip, match="repeats itself through YAML aliases"):
        markdown.page("bomb.md", BILLION_LAUGHS.encode())
    with pytest.raises(Skip, match="alias that contains itself"):
        markdown.page("loop.md", b"---\na: &a [1, *a]\n---\nx\n")
    # an alias used as YAML meant it is fine
    fine = markdown.page("ok.md", b"---\nbase: &b {city: Lisbon}\nhome: *b\nwork: *b\n---\nx\n")
    assert fine.front == {"base": {"city": "Lisbon"}, "home": {"city": "Lisbon"}, "work": {"city": "Lisbon"}}
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "bomb.md").write_text(BILLION_LAUGHS)
    (vault / "fine.md").write_text("a hand-written note\n")
    report = import_path(embedded_memory, vault)
    assert report.created == 1 and [s["item"] for s in report.skipped] == ["bomb.md"]
    peak, said = peak_rss_mb(
        "from core.interop import markdown\n"
        f"try:\n    markdown.page('bomb.md', {BILLION_LAUGHS.encode()!r})\n"
        "except markdown.Skip as exc:\n    print(exc.why)"
    )
    assert "YAML aliases" in said and peak < 200, peak
