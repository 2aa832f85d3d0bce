"""Every `neurons` command, written once: its arguments, what it does, what it answers.

Three doors use them: the command line (core/cli.py), the running desktop app's instance socket
(a command forwarded by the CLI runs on the app's Memory, with the same output), and the MCP
server. A command's `run(memory, args)` returns an `Answer`: `data` is what `--json` prints (and
what programs receive), `text` what a person reads, `note` a line for stderr.

This package imports only the standard library and core.model, so that a command forwarded to
the running app costs a Python start and one socket round trip, not the database driver.
"""

from __future__ import annotations

import argparse
from typing import Any

from core import __version__
from core.commands.base import REGISTRY, Answer, Command, Printed, UsageError, command
from core.model import NeuronsError

__all__ = [
    "REGISTRY",
    "Answer",
    "Command",
    "Printed",
    "UsageError",
    "build_parser",
    "command",
    "execute",
    "forwarded_argv",
    "load",
    "parse",
]

# The order `neurons --help` lists the commands in: everyday first, upkeep last.
HELP_ORDER = (
    "capture",
    "ask",
    "about",
    "show",
    "list",
    "upcoming",
    "edit",
    "done",
    "snooze",
    "archive",
    "trash",
    "restore",
    "link",
    "unlink",
    "import",
    "export",
    "sync",
    "backup",
    "backups",
    "profile",
    "config",
    "move-to",
    "autostart",
    "mcp",
    "doctor",
    "unlock",
    "reindex",
    "eval",
)


def load() -> dict[str, Command]:
    """Import the modules that define commands."""
    from core.commands import (  # noqa: F401, PLC0415 - the registry fills when load() is called, not on import
        autostart,
        backup,
        health,
        neurons,
        profile,
        recall,
        reminders,
        sync,
        transfer,
    )

    return REGISTRY


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting (the app parses forwarded commands)."""

    def error(self, message: str):
        raise UsageError(f"{self.prog}: {message}")

    def _print_message(self, message: str, file=None) -> None:  # argparse's help and version
        self._printed = getattr(self, "_printed", "") + (message or "")

    def exit(self, status: int = 0, message: str | None = None):
        raise Printed(getattr(self, "_printed", "") + (message or ""), status)


def build_parser(only: str | None = None) -> Parser:
    """The `neurons` parser; with `only`, the same parser holding just that command (what a
    command line naming it parses to is the same, for a fraction of the cost)."""
    load()
    # Global options are accepted before or after the command; SUPPRESS keeps a subcommand's
    # unset option from overwriting the value given before it.
    common = Parser(add_help=False, argument_default=argparse.SUPPRESS)
    common.add_argument(
        "--data-dir", help="the data directory (default: the platform's user data dir; env NEURONS_DATA_DIR)"
    )
    common.add_argument(
        "--dsn",
        help="use a server Postgres instead (env NEURONS_DSN); the password comes from the OS keyring",
    )
    common.add_argument("--json", action="store_true", help="machine-readable output")
    common.add_argument("-v", "--verbose", action="store_true")
    p = Parser(
        prog="neurons",
        parents=[common],
        description="Neurons: an offline memory of notes, reminders and contacts.",
    )
    p.add_argument("--version", action="version", version=f"neurons {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    listed = {name: i for i, name in enumerate(HELP_ORDER)}
    for cmd in sorted(REGISTRY.values(), key=lambda c: listed.get(c.name, len(listed))):
        if only is not None and cmd.name != only:
            continue
        c = sub.add_parser(cmd.name, help=cmd.help, parents=[common])
        cmd.arguments(c)
        if cmd.defaults:
            c.set_defaults(**cmd.defaults)
    return p


# The global options as they may stand before the command (those taking a value, and flags).
GLOBAL_VALUED = ("--data-dir", "--dsn")
GLOBAL_FLAGS = ("--json", "-v", "--verbose")


def named_command(argv: list[str]) -> str | None:
    """The command an argv names, when it is plain to see: only known global options before it
    (no help, version or abbreviation, which the whole parser must answer), else None."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in GLOBAL_VALUED:
            i += 2
        elif arg in GLOBAL_FLAGS or arg.startswith(tuple(f"{o}=" for o in GLOBAL_VALUED)):
            i += 1
        else:
            return arg if arg in REGISTRY else None
    return None


GLOBALS = {"data_dir": None, "dsn": None, "json": False, "verbose": False}


def parse(argv: list[str]) -> tuple[Command, argparse.Namespace]:
    load()
    only = named_command(argv)
    try:
        args = build_parser(only).parse_args(argv)
    except UsageError:
        if only is None:
            raise
        args = build_parser().parse_args(argv)  # the whole parser words the error
    for name, default in GLOBALS.items():
        if not hasattr(args, name):
            setattr(args, name, default)
    return REGISTRY[args.command], args


def forwarded_argv(args: argparse.Namespace) -> list[str]:
    """The command line the running app parses again: the command, its options, then `--` and
    its positionals (so a text that starts with '-' stays a text). Global options stay here."""
    parser = build_parser(args.command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    cmd_parser = sub.choices[args.command]
    options: list[str] = []
    positionals: list[str] = []
    for action in cmd_parser._actions:
        if action.dest in ("help", "data_dir", "dsn", "verbose") or not hasattr(args, action.dest):
            continue
        value = getattr(args, action.dest)
        if not action.option_strings:
            if value is not None:
                positionals.append(str(value))
        elif isinstance(action, argparse._StoreTrueAction):
            if value:
                options.append(action.option_strings[-1])
        elif isinstance(action, argparse._AppendAction):
            for item in value or []:
                options += [action.option_strings[-1], str(item)]
        elif value is not None and value != action.default:
            options += [action.option_strings[-1], str(value)]
    return [args.command, *options, *(["--", *positionals] if positionals else [])]


def execute(memory, argv: list[str]) -> dict[str, Any]:
    """Run a forwarded command line on `memory` (the app's): {"code", "stdout", "stderr"}."""
    try:
        cmd, args = parse(argv)
        if not cmd.needs_memory or not cmd.forwardable(args):
            raise UsageError(f"neurons {cmd.name} cannot be answered by the running app")
        answer = cmd.run(memory, args)
    except Printed as shown:  # --help, --version: the answer, not the app's own stdout
        return {"code": shown.code, "stdout": shown.text, "stderr": ""}
    except UsageError as exc:
        return {"code": 2, "stdout": "", "stderr": f"{exc}\n"}
    except NeuronsError as exc:
        return {"code": 2, "stdout": "", "stderr": f"neurons: {exc}\n"}
    note = answer.note + "\n" if answer.note else ""
    return {"code": answer.code, "stdout": answer.stdout(args.json), "stderr": note}
