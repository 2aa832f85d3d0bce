"""`neurons-desktop`: the launcher. It reads the command line, checks the install, and either hands
the request to the app already running on the data dir or starts the app (desktop/app.py).

    neurons-desktop [--data-dir DIR] [--dsn DSN] [--capture TEXT] [--quick] [--ask TEXT]
                    [--screenshot FILE.png]

A second launch never opens the database: it hands its request (show the window, capture a
text, open quick capture) to the running app over the data dir's socket and exits 0. Until it
knows it will show a window, nothing here imports Qt or the database driver (qutebrowser's
earlyinit.py before its app.py): a forwarded request costs a fraction of a second.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

from core import __version__, instance, resident
from core.model import NeuronsError
from core.opening import APP_WAIT_S, Opening
from core.settings import Settings, check_install

# How long a second launch waits for the first to start listening.
FORWARD_WAIT_S = 20.0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="neurons-desktop", description="Neurons: the desktop app (window, tray, reminders)."
    )
    p.add_argument("--data-dir", help="the data directory (env NEURONS_DATA_DIR)")
    p.add_argument("--dsn", help="use a server Postgres (env NEURONS_DSN)")
    p.add_argument("--capture", metavar="TEXT", help="save TEXT (through the running app if any)")
    p.add_argument("--quick", action="store_true", help="open the quick capture box")
    p.add_argument("--ask", metavar="TEXT", help="open the window asking TEXT")
    p.add_argument(
        "--screenshot",
        metavar="FILE.png",
        help="render the main window with its data offscreen to FILE.png and exit",
    )
    p.add_argument(
        "--size",
        type=_size,
        default=(1360, 860),
        metavar="WxH",
        help="the window's size for --screenshot (default 1360x860)",
    )
    p.add_argument("--no-tray", action="store_true", help="do not use the tray (closing quits)")
    p.add_argument("--hidden", action="store_true", help="start in the tray, without the window")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--version", action="version", version=f"neurons-desktop {__version__}")
    return p


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(n) for n in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1280x800") from None
    return w, h


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # a line per job, every replan
    try:
        check_install()
    except NeuronsError as exc:
        print(f"neurons-desktop: {exc}", file=sys.stderr)
        return 2
    settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn)
    if args.screenshot:
        from desktop.screenshot import screenshot  # noqa: PLC0415 - Qt loads once a window will show

        settings.embed_in_background = False  # the screenshot writes nothing
        return screenshot(settings, Path(args.screenshot), ask=args.ask, size=args.size)
    lock = instance.InstanceLock(settings.data_dir)
    if not lock.try_acquire():
        return forward(settings, args)
    try:
        resident.keep_small()  # before any thread starts: the app lives in the tray all day
        # the engine starts while Qt loads and the window is built
        opening = Opening(settings, wait_s=APP_WAIT_S)
        run = app_runner()
        return run(
            settings,
            lock,
            capture=args.capture,
            quick=args.quick,
            ask=args.ask,
            hidden=args.hidden,
            tray=not args.no_tray,
            opening=opening,
        )
    finally:
        lock.release()


def app_runner() -> Callable[..., int]:
    """The app's `run`. The store's modules (psycopg, numpy), which the engine's thread is
    importing, are waited for before Qt's: once PySide6 is imported it reads the source of every
    module imported after it (its `__feature__` check: ~0.1 s of CPU for numpy's alone, and the
    text kept in linecache for good). What the window does not show before the memory opens loads
    after its first paint: the date grammar and capture (core.when, core.capture: ~0.1 s of CPU,
    imported where they are used) and the memory's own modules (core.memory: recall, embed,
    backup; `App._start_opening`)."""
    import core.store  # noqa: F401, PLC0415 - loads numpy and psycopg: only once a window will show
    from desktop.app import run  # noqa: PLC0415 - Qt loads once a window will show

    return run


def forward(settings: Settings, args: argparse.Namespace) -> int:
    """Another app owns this data dir: hand it the request and exit."""
    deadline = time.monotonic() + FORWARD_WAIT_S
    while True:
        try:
            code = _hand_over(settings, args)
        except NeuronsError as exc:
            print(f"neurons-desktop: {exc}", file=sys.stderr)
            return 2
        if code is not None:
            return code
        if time.monotonic() > deadline:
            print(
                "neurons-desktop: another Neurons app holds this data dir but does not answer",
                file=sys.stderr,
            )
            return 2
        time.sleep(0.2)  # the first app is starting: it listens within moments


def _hand_over(settings: Settings, args: argparse.Namespace) -> int | None:
    """The request, handed to the running app: the exit code, or None while no app listens. A
    capture is the `capture` command (the one door to the app's memory, printing the new id);
    showing the window or the capture box are the app's own requests."""
    if args.capture:
        answer = instance.command(settings.data_dir, ["capture", "--", args.capture])
        if answer is None:
            return None
        sys.stdout.write(answer["stdout"])
        sys.stdout.flush()
        sys.stderr.write(answer["stderr"])
        return int(answer["code"])
    message = {"op": "quick_capture"} if args.quick else {"op": "show", "ask": args.ask}
    return None if instance.request(settings.data_dir, message) is None else 0


if __name__ == "__main__":
    sys.exit(main())
