"""What a command is (Command), what it answers (Answer), and the registry they are kept in."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.model import NeuronsError


class UsageError(NeuronsError):
    """The command line (or a forwarded one) does not parse."""


class Printed(Exception):  # not an error: what --help or --version answer
    """The command line asked for help or the version: `text` is the answer, `code` the exit
    status (argparse would print it on this process's stdout and exit, even inside the app)."""

    def __init__(self, text: str, code: int = 0):
        super().__init__(text)
        self.text, self.code = text, code


@dataclass
class Answer:
    data: Any = None
    text: str = ""
    note: str = ""  # for stderr: what a person should know beside the answer
    code: int = 0

    def stdout(self, as_json: bool) -> str:
        if as_json:
            return json.dumps(self.data, ensure_ascii=False, indent=2, default=str) + "\n"
        return self.text + "\n" if self.text else ""


@dataclass
class Command:
    name: str
    help: str
    run: Callable[..., Answer]
    arguments: Callable[[argparse.ArgumentParser], None] = lambda parser: None
    # False: the command opens what it needs itself (eval, unlock) and never goes to the app
    needs_memory: bool = True
    # whether the running app may answer it (given the parsed args: stdin cannot travel)
    forwardable: Callable[[argparse.Namespace], bool] = lambda args: True
    # client-side work before the command runs here or in the app (read stdin, resolve paths)
    prepare: Callable[[argparse.Namespace], None] = lambda args: None
    defaults: dict[str, Any] = field(default_factory=dict)


REGISTRY: dict[str, Command] = {}


def command(name: str, help: str, **options: Any):
    """Register `run(memory, args) -> Answer` as the command `name`."""

    def register(run: Callable[..., Answer]) -> Callable[..., Answer]:
        REGISTRY[name] = Command(name, help, run, **options)
        return run

    return register
