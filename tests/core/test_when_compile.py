"""The date grammar's patterns compile on first use, once, whatever thread asks first (at import
they held the desktop's window back, ~0.4 s of CPU)."""

from __future__ import annotations

import subprocess
import sys
import threading

from core.when.languages import LANGUAGES
from core.when.patterns import GRAMMAR, Grammar
from core.when.words import REMINDER_CUES
from tests.conftest import ROOT


def printed(code: str) -> list[str]:
    """The lines a new Python process running `code` prints: what importing does, unseen by this one."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_importing_the_date_grammar_compiles_no_pattern():
    code = (
        "import re, core.when, core.capture\n"
        "from core.when.patterns import GRAMMAR\n"
        "print(GRAMMAR._pending)\n"
        "print(core.when.find_when('remind me to call Ana tomorrow at 3pm', "
        "__import__('datetime').datetime(2026, 3, 2, 9)).due)\n"
    )
    assert printed(code) == ["True", "2026-03-03 15:00:00"]


def test_threads_asking_at_once_share_one_compilation():
    grammar = Grammar(LANGUAGES)
    compiled = []
    real = Grammar._capture

    def counted(self, w):
        compiled.append(1)
        real(self, w)

    Grammar._capture = counted  # type: ignore[method-assign]
    try:
        start = threading.Barrier(4)
        seen = []

        def ask() -> None:
            start.wait()
            seen.append(grammar.reminder_cue)

        threads = [threading.Thread(target=ask) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        Grammar._capture = real  # type: ignore[method-assign]
    assert len(compiled) == 1 and len({id(p) for p in seen}) == 1


def test_a_missing_name_is_still_an_attribute_error():
    try:
        GRAMMAR.no_such_pattern  # noqa: B018 - the access is the test
    except AttributeError:
        pass
    else:
        raise AssertionError("an unknown name answered")


def test_the_reminder_cue_of_the_words_is_the_grammars():
    assert REMINDER_CUES.pattern == GRAMMAR.reminder_cue.pattern
    assert REMINDER_CUES.search("remind me to water the plants") is not None
    assert GRAMMAR.reminder_cue.search("erinnere mich an den Zahnarzt") is not None


def test_a_questions_time_words_compile_only_the_questions_patterns():
    """A first question waits for its own patterns (~0.1 s of CPU), not capture text's (~0.45 s)."""
    code = (
        "from datetime import datetime\n"
        "from core.when import find_window\n"
        "from core.when.patterns import GRAMMAR\n"
        "from core.when.window import _english\n"
        "window, rest = find_window('what did I plan with Ana for the weekend?', datetime(2026, 12, 2, 9))\n"
        "print(window.start.date(), window.end.date(), rest)\n"
        "print(GRAMMAR._pending, _english()._pending)\n"
    )
    assert printed(code) == ["2026-12-05 2026-12-07 what did I plan with Ana", "True True"]


def test_a_questions_patterns_compiled_ahead_leave_a_first_question_nothing_to_compile():
    """The desktop compiles them while the engine starts: English's too, which says a window's
    words again, or the first question compiled them after the engine was up."""
    code = (
        "from datetime import datetime\n"
        "from core.when import find_window\n"
        "from core.when.patterns import Grammar\n"
        "from core.when.window import compile_questions\n"
        "compile_questions()\n"
        "made = []\n"
        "put = Grammar._put\n"
        "Grammar._put = lambda self, build: made.append(build) or put(self, build)\n"
        "window, rest = find_window('what did I plan with Ana for the weekend?', datetime(2026, 12, 2, 9))\n"
        "print(window.start.date(), rest, len(made))\n"
    )
    assert printed(code) == ["2026-12-05 what did I plan with Ana 0"]


def test_the_patterns_compiled_in_two_groups_are_those_compiled_at_once():
    def patterns(grammar: Grammar) -> dict[str, object]:
        return {
            name: value.pattern if hasattr(value, "pattern") else getattr(value, "__self__", value)
            for name, value in vars(grammar).items()
            if not name.startswith("_")
        }

    at_once = Grammar(LANGUAGES)
    at_once.compile()
    in_turn = Grammar(LANGUAGES)
    in_turn.compile_questions()
    assert in_turn._pending and not in_turn._questions_pending
    in_turn.compile()
    once, turn = patterns(at_once), patterns(in_turn)
    assert once.keys() == turn.keys()
    for name in once:
        a, b = once[name], turn[name]
        assert getattr(a, "pattern", a) == getattr(b, "pattern", b), name
