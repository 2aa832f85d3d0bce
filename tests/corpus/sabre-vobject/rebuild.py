"""Rebuild this folder's inline/ files from a checkout of sabre-io/vobject, byte for byte.

sabre/vobject writes most of its test calendars and cards inline, as PHP heredocs
(`<<<ICS ... ICS;`) and nowdocs (`<<<'ICS' ... ICS;`). This reads every one in tests/**/*.php as
PHP reads it, and keeps those that are a whole calendar or card:

- the body is the lines between the opening line and the closing marker, joined with LF, without
  the newline before the marker; an indented closing marker (PHP 7.3) takes its indentation off
  every line;
- a nowdoc is taken as written; a heredoc has PHP's double-quoted escapes applied (\\r, \\n, \\t,
  \\v, \\e, \\f, \\\\, \\$, octal, \\x, \\u{...}; any other backslash stays), and one that
  interpolates a variable (`$name`, `{$`) is left out, as its text is known only when the test runs;
- the text is bytes, as PHP's strings are: \\xFC is the one byte 0xFC, \\u{FC} its UTF-8;
- kept: a body whose first line is BEGIN:VCALENDAR or BEGIN:VCARD; the same text twice is kept once.

Each is written to inline/<test file's path, / as ->-<n>.ics|.vcf, n counting the heredocs of that
test file from 1 (all of them, kept or not), and its SOURCES.tsv line is printed.

    python tests/corpus/sabre-vobject/rebuild.py GIT_DIR COMMIT
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
OPEN = re.compile(r"<<<[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1\r?\n")
ESCAPE = re.compile(r"\\(u\{[0-9A-Fa-f]+\}|x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|[nrtvef\\$]|.)", re.S)
SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "v": "\v", "e": "\x1b", "f": "\f", "\\": "\\", "$": "$"}
INTERPOLATES = re.compile(r"(?<!\\)(\$[A-Za-z_\x80-\xff]|\{\$)")


def unescape(body: str) -> str:
    def one(m: re.Match[str]) -> str:
        s = m.group(1)
        if s in SIMPLE:
            return SIMPLE[s]
        if s[0] == "u" and len(s) > 1:  # the code point's UTF-8 bytes
            return chr(int(s[2:-1], 16)).encode("utf-8").decode("latin-1")
        if s[0] == "x" and len(s) > 1:
            return chr(int(s[1:], 16))
        if s[0] in "01234567":
            return chr(int(s, 8) & 0xFF)
        return "\\" + s

    return ESCAPE.sub(one, body)


def heredocs(php: str) -> list[tuple[bool, str | None]]:
    """Every heredoc or nowdoc of a PHP file in order: (kept, text) (text None: interpolates)."""
    out: list[tuple[bool, str | None]] = []
    pos = 0
    while (m := OPEN.search(php, pos)) is not None:
        nowdoc, label = m.group(1) == "'", m.group(2)
        close = re.compile(r"^([ \t]*)" + label + r"\b", re.M)
        end = close.search(php, m.end())
        if end is None:
            break
        indent = end.group(1)
        lines = php[m.end() : end.start()].split("\n")[:-1]  # the newline before the marker is not text
        lines = [line.removeprefix(indent) for line in lines]
        body = "\n".join(lines)
        pos = end.end()
        if not nowdoc:
            if INTERPOLATES.search(body):
                out.append((False, None))
                continue
            body = unescape(body)
        out.append((True, body))
    return out


def main(git_dir: str, commit: str) -> None:
    names = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit, "tests"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    seen: set[str] = set()
    rows = []
    (HERE / "inline").mkdir(exist_ok=True)
    for name in sorted(n for n in names if n.endswith(".php")):
        php = subprocess.run(
            ["git", "--git-dir", git_dir, "show", f"{commit}:{name}"], capture_output=True, check=True
        ).stdout.decode("latin-1")  # PHP strings are bytes: one character per byte, \xFC one byte
        for n, (_, body) in enumerate(heredocs(php), 1):
            if body is None or body in seen:
                continue
            first = body.lstrip().split("\n", 1)[0].strip().upper()
            suffix = {"BEGIN:VCALENDAR": ".ics", "BEGIN:VCARD": ".vcf"}.get(first)
            if suffix is None:
                continue
            seen.add(body)
            out = (
                "inline/"
                + name.removeprefix("tests/").removesuffix(".php").replace("/", "-")
                + f"-{n}{suffix}"
            )
            (HERE / out).write_bytes(body.encode("latin-1"))
            rows.append(f"{out}\tsabre-io/vobject\t{name} (heredoc {n})\t{commit}\tas PHP reads it")
    print("\n".join(rows))


if __name__ == "__main__":
    main(*sys.argv[1:])
