"""Commands that ask: ask, about, reindex, eval."""

from __future__ import annotations

import sys

from core.commands.base import Answer, command


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


@command("ask", "ask a question", arguments=_ask_args)
def ask(memory, args) -> Answer:
    note = _fill_pending(memory)
    results = memory.ask(args.question, limit=args.limit, mode=args.mode)
    text = "\n".join(
        f"{r.score:6.3f}  {r.neuron.kind.value:<8} {r.neuron.title}   [{r.why}]" for r in results
    )
    return Answer([r.to_json() for r in results], text, note)


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
