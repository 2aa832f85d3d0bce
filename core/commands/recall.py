"""Commands that ask: ask, about, reindex, eval."""

from __future__ import annotations

import sys
from datetime import date, datetime, time

from core.commands.base import Answer, command
from core.commands.reminders import _now, when_words
from core.model import InvalidInput


def _fill_pending(memory) -> str:
    """One-shot commands embed what is still waiting before answering (the app does it live)."""
    from core.embed import ModelUnavailable  # noqa: PLC0415 - keeps forwarding light

    try:
        memory.fill_vectors()
    except ModelUnavailable as exc:
        return f"neurons: meaning search is off ({exc}); answering from keywords"
    return ""


def _ask_args(p) -> None:
    p.add_argument("question")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument(
        "--mode",
        default="default",
        choices=["default", "keyword", "vector", "hybrid"],
        help="default: everything; the others show what each part finds alone",
    )
    p.add_argument("--kind", choices=["note", "reminder", "contact"], help="only this kind")
    p.add_argument("--since", help="only from this date on: 2026-03-01, 'last Monday', 'this month'")
    p.add_argument("--until", help="only before this date: 2026-04-01, 'next week'")
    p.add_argument("--tag", help="only neurons with this tag")


def matched_value(neuron, field: str | None) -> str:
    """What the answer is for: the phone a "phone number" question asks, a contact's first phone
    or e-mail otherwise, a reminder's due time and repeat."""
    attrs = neuron.attrs
    if neuron.kind.value == "contact":
        order = [field] if field else []
        order += [f for f in ("phones", "emails") if f not in order]
        for key in order:
            value = attrs.get(key) or attrs.get(key.rstrip("s"))
            if value:
                shown = [_plain(v) for v in (value if isinstance(value, list) else [value])[:3]]
                if key == "phones":  # grouped as people read them, as the window shows them
                    from core.interop import phones  # noqa: PLC0415 - keeps forwarding light

                    shown = [phones.shown(v) for v in shown]
                return ", ".join(shown)
        return ""
    return ""


def _plain(value) -> str:
    if isinstance(value, dict):
        return " ".join(str(v) for k, v in value.items() if k not in ("label", "type") and v)
    return str(value)


def _window_of(text: str | None, edge: str):
    """--since/--until: an ISO date, or words a question uses ("last Monday", "this month")."""
    from core.when import find_window, local_now  # noqa: PLC0415 - keeps forwarding light

    if text is None:
        return None
    now = local_now()
    try:
        return datetime.combine(date.fromisoformat(text.strip()), time(0), tzinfo=now.tzinfo)
    except ValueError:
        pass
    window, _rest = find_window(text, now)
    if window is None or window.anchor:
        raise InvalidInput(f"--{edge} {text!r} is not a date I can read: try 2026-03-01 or 'last Monday'")
    return window.start if edge == "since" else window.end


def _keeps(result, args, since, until) -> bool:
    n = result.neuron
    if args.kind and n.kind.value != args.kind:
        return False
    if args.tag:
        tags = n.attrs.get("tags") or []
        if args.tag.lower().lstrip("#") not in {str(t).lower().lstrip("#") for t in tags}:
            return False
    if since or until:
        from core import remind  # noqa: PLC0415 - keeps forwarding light

        when = remind.current_due(n) or n.created_at
        if when is None or (since and when < since) or (until and when >= until):
            return False
    return True


def _due_in_window(question: str, now: datetime):
    """When a reminder is due inside the question's time, as a function of the reminder."""
    from core import remind  # noqa: PLC0415 - keeps forwarding light
    from core.when import find_window  # noqa: PLC0415 - keeps forwarding light

    window, _ = find_window(question, now.astimezone(remind.local_zone()))
    return window.due_of if window is not None else (lambda _n: None)


@command("ask", "ask a question", arguments=_ask_args)
def ask(memory, args) -> Answer:
    note = _fill_pending(memory)
    since, until = _window_of(args.since, "since"), _window_of(args.until, "until")
    filtered = bool(args.kind or args.tag or since or until)
    wanted = args.limit
    results = memory.ask(args.question, limit=max(wanted * 5, 50) if filtered else wanted, mode=args.mode)
    if filtered:
        results = [r for r in results if _keeps(r, args, since, until)][:wanted]
    from core.recall.details import asked_field  # noqa: PLC0415 - keeps forwarding light

    field, now = asked_field(args.question), _now()
    due_in = _due_in_window(args.question, now)
    lines = []
    for r in results:
        n = r.neuron
        at = due_in(n) if r.group == "window" else None
        value = when_words(n, now, at) if n.kind.value == "reminder" else matched_value(n, field)
        lines.append(
            f"{str(n.id)[:8]}  {n.kind.value:<8} {n.title}"
            + (f"  —  {value}" if value else "")
            + f"   ({r.why})"
        )
    return Answer([r.to_json() for r in results], "\n".join(lines) or "nothing found", note)


def _about_args(p) -> None:
    p.add_argument("name")
    p.add_argument("--limit", type=int, default=50)


@command("about", "everything about a person", arguments=_about_args)
def about(memory, args) -> Answer:
    note = _fill_pending(memory)
    answer = memory.about(args.name, limit=args.limit)
    return Answer(answer.to_json(), answer.render(), note)


@command("reindex", "compute the vector of every neuron again, with progress")
def reindex(memory, args) -> Answer:
    def progress(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True
        )

    total = memory.reindex(progress=progress)
    print(file=sys.stderr)
    return Answer({"reindexed": total}, f"reindexed {total} neurons")


def _eval_args(p) -> None:
    p.add_argument("dataset", help="path to the dataset JSON")
    p.add_argument(
        "--modes",
        default="default,keyword,vector,hybrid",
        help="comma-separated: default, keyword, vector, hybrid",
    )
    p.add_argument("--edges", default="given", choices=["given", "derived", "both"])


@command(
    "eval",
    "score recall on a memory-eval/1 dataset (see shared/eval/FORMAT.md)",
    arguments=_eval_args,
    needs_memory=False,
)
def eval_(_memory, args) -> Answer:
    from core.evaluate import run_eval  # noqa: PLC0415 - keeps forwarding light

    return run_eval(args)
