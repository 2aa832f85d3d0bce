"""The `neurons` command. Its --json output is a stable interface other tools script against.

A command runs in the desktop app when the app owns the data dir (forwarded over its socket,
same output), else here on a Memory of its own. The forwarding path imports only the command
registry and the socket client: the database driver loads only when the command runs here.
"""

from __future__ import annotations

import re
import signal
import sys
import time
import uuid

from core import commands, instance
from core.files import os_error
from core.model import NeuronsError
from core.settings import Settings, data_dir_from

# A command that finds the data dir held by another short command waits this long for it (like
# a busy timeout) before refusing; the running app is asked first, so it is never waited for.
LOCK_WAIT_S = 10.0
# A forwarded capture whose answer was lost is sent again (same key) this many times in all,
# this long apart (an app that was killed is gone by then, and the capture runs here).
CAPTURE_TRIES = 3
CAPTURE_RETRY_S = 0.5


# Control characters a terminal would act on (escape sequences set its title, clear it, move the
# cursor, hide text): everything Neurons prints shows them as \\uXXXX instead. That is JSON's own
# escape, so --json output keeps its meaning exactly; tab and newline stay.
# So are the characters that reorder or hide text without being seen (right-to-left overrides and
# isolates, zero-width spaces), as editors show them: "invoice\u202egpj.exe" is not "invoiceexe.jpg".
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def printable(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text.replace("\r\n", "\n"))


def _on_signal(signum, frame):
    raise SystemExit(128 + signum)


commands.load()  # the commands people use first in `neurons --help`, then this one


@commands.command("mcp", "serve this memory to an AI assistant over MCP on stdin/stdout", needs_memory=False)
def _mcp(_memory, args) -> commands.Answer:
    """The process becomes an MCP server (core/mcp.py): an entry point's business, as it takes
    over stdin, stdout and the signals; it runs the same commands as the CLI and the app."""
    from core.mcp import serve  # noqa: PLC0415 - the MCP SDK loads only for this command

    serve(args.data_dir, args.dsn, commands.execute)
    args.json = False  # stdout was the protocol's: nothing may follow it there
    return commands.Answer()


def main(argv: list[str] | None = None) -> int:
    try:
        cmd, args = commands.parse(sys.argv[1:] if argv is None else argv)
    except commands.UsageError as exc:
        print(printable(f"{exc}\n(see neurons --help)"), file=sys.stderr)
        return 2
    except commands.Printed as shown:  # --help, --version
        sys.stdout.write(printable(shown.text))
        return shown.code
    if args.verbose:
        _setup_logging(args)
    # SIGTERM/SIGINT unwind through `finally`, so the store checkpoints and stops its engine.
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    try:
        cmd.prepare(args)
        if cmd.needs_memory and not args.dsn and cmd.forwardable(args):
            answered = _through_running_app(args)
            if answered is not None:
                return answered
        _setup_logging(args)
        if not cmd.needs_memory:
            return _print(cmd.run(None, args), args)
        return _print(_run_here(cmd, args), args)
    except NeuronsError as exc:
        print(printable(f"neurons: {exc}"), file=sys.stderr)
        return 2
    except OSError as exc:  # a file the store did not name itself: still a sentence, not a traceback
        print(printable(f"neurons: {os_error(exc, exc.filename or '?', 'use')}"), file=sys.stderr)
        return 2


def _setup_logging(args) -> None:
    """Set up only when something here may log: a forwarded command does not even import it
    (basicConfig does nothing the second time)."""
    import logging  # noqa: PLC0415 - a forwarded command does not import it

    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _run_here(cmd: commands.Command, args) -> commands.Answer:
    from core import config  # noqa: PLC0415 - only when we open the store

    # A one-shot command does not start the background filler (the app does); ask and about
    # fill what is pending first.
    settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn, embed_in_background=False)
    # the one long wait a person meets once, said on a terminal (then cleared; a pipe gets none)
    said = not settings.dsn and not (settings.data_dir / "pgdata").exists() and sys.stderr.isatty()
    if said:
        where = settings.data_dir
        sys.stderr.write(printable(f"neurons: making a new memory in {where} (the first time only)…"))
        sys.stderr.flush()
    from core.opening import Opening  # noqa: PLC0415 - only when we open the store

    store = Opening(settings, wait_s=LOCK_WAIT_S)  # the engine starts while the rest of Neurons loads
    try:
        from core.memory import Memory  # noqa: PLC0415 - loads the grammar, numpy: only to open the store

        memory = Memory.open(settings, store=store.result())
    except BaseException:
        store.close()
        raise
    finally:
        if said:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    try:
        unfinished = config.unfinished_move(memory.store.settings.data_dir)
        if unfinished:  # a move-to stopped before its switch: said before the command's answer
            print(printable(f"neurons: {unfinished}"), file=sys.stderr)
        return cmd.run(memory, args)
    finally:
        memory.close()


def _print(answer: commands.Answer, args) -> int:
    sys.stdout.write(printable(answer.stdout(args.json)))
    sys.stdout.flush()
    if answer.note:
        print(printable(answer.note), file=sys.stderr)
    return answer.code


def _through_running_app(args) -> int | None:
    """The desktop app owns the data dir: it runs the command on its memory and answers.
    None when no app listens there."""
    try:
        instance.runtime_dir()
    except (OSError, instance.InstanceError):
        _setup_logging(args)  # request() logs why it cannot reach an app
    reply = _forwarded(args)
    if reply is None:
        return None
    sys.stdout.write(printable(reply["stdout"]))
    sys.stdout.flush()
    sys.stderr.write(printable(reply["stderr"]))
    return int(reply["code"])


def _forwarded(args) -> dict | None:
    """The app's answer to the command line, or None when no app listens. A capture goes with an
    idempotency key (the person's --key, else a new one): when its answer is lost (the app was
    killed or did not answer in time), it is sent again with the same key, to the app or, when
    none listens any more, run here, and saved once either way."""
    data_dir = data_dir_from(args.data_dir)
    if not hasattr(args, "key"):
        return instance.command(data_dir, commands.forwarded_argv(args))
    if args.key is None:
        args.key = uuid.uuid4().hex
    lost: instance.NoAnswer | None = None
    for _ in range(CAPTURE_TRIES):
        try:
            return instance.command(data_dir, commands.forwarded_argv(args))
        except instance.NoAnswer as exc:
            lost = exc
            time.sleep(CAPTURE_RETRY_S)
    raise instance.InstanceError(
        f"{lost}, {CAPTURE_TRIES} times: the capture may or may not be saved; run the same "
        f"command with --key {args.key} to know (it is saved once)"
    )


if __name__ == "__main__":
    sys.exit(main())
