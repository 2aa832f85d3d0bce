"""The command line as a daily tool: `edit` refuses what it cannot read and changes only
what it is told, through the capture grammar; a short id is enough wherever an id is taken; `ask`
and `upcoming` say times, ids and repeats in words."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

from core import commands, remind
from core.commands.reminders import when_words
from core.interop.json import FORMAT
from core.model import Edit, Schedule
from core.when import find_window


def run(memory, *argv: str) -> dict:
    return commands.execute(memory, list(argv))


def data(done: dict):
    assert done["code"] == 0, done
    return json.loads(done["stdout"])


def _reminder(memory, text: str = "call the bank tomorrow at 3"):
    return memory.capture(text)


def test_edit_refuses_an_invalid_due_time_and_changes_nothing(memory):
    neuron = _reminder(memory)
    done = run(memory, "edit", str(neuron.id), "--attrs", '{"due_at": "tomorrow 6pm"}')
    assert done["code"] == 2 and "due_at" in done["stderr"] and "ISO 8601" in done["stderr"]
    assert memory.get(neuron.id) == neuron
    done = run(memory, "edit", str(neuron.id), "--due", "whenever suits")
    assert done["code"] == 2 and "not a time I can read" in done["stderr"]
    assert memory.get(neuron.id) == neuron


def test_edit_merges_attrs_instead_of_replacing_them(memory):
    neuron = _reminder(memory)
    assert neuron.attrs["title"] == "Call the bank"
    edited = data(run(memory, "edit", str(neuron.id), "--attrs", '{"tags": ["money"]}', "--json"))
    assert edited["attrs"]["title"] == "Call the bank" and edited["attrs"]["tags"] == ["money"]
    assert edited["attrs"]["due_at"] == neuron.attrs["due_at"]
    edited = data(run(memory, "edit", str(neuron.id), "--attrs", '{"tags": null}', "--json"))
    assert "tags" not in edited["attrs"] and edited["attrs"]["title"] == "Call the bank"


def test_edit_due_title_and_repeat_through_the_capture_grammar(memory):
    neuron = _reminder(memory)
    edited = data(
        run(
            memory,
            "edit",
            str(neuron.id),
            "--due",
            "Friday at half past 4",
            "--repeat",
            "every 2 weeks",
            "--json",
        )
    )
    due = datetime.fromisoformat(edited["attrs"]["due_at"])
    local = due.astimezone()
    assert (local.weekday(), local.hour, local.minute) == (4, 16, 30)
    assert edited["attrs"]["rrule"] == "FREQ=WEEKLY;INTERVAL=2"
    assert edited["body"] == "call the bank"  # no "tomorrow at 3" left to contradict it
    assert edited["attrs"]["title"] == "Call the bank"  # the title as it was, not lower-cased
    edited = data(
        run(memory, "edit", str(neuron.id)[:8], "--title", "Ring the bank", "--repeat", "none", "--json")
    )
    assert edited["attrs"]["title"] == "Ring the bank" and "rrule" not in edited["attrs"]
    done = run(memory, "edit", str(neuron.id), "--repeat", "now and then")
    assert done["code"] == 2 and "not a repeat I can read" in done["stderr"]


def test_a_short_id_is_enough_and_an_ambiguous_one_lists_the_candidates(memory):
    a = memory.capture("first note about the boiler", kind="note")
    b = memory.capture("second note about the boiler", kind="note")
    prefix = str(a.id)[:6]
    shown = data(run(memory, "show", prefix, "--json"))
    assert shown["id"] == str(a.id)
    assert run(memory, "trash", str(b.id)[:5])["code"] == 0
    assert memory.get(b.id).state.value == "trashed"
    missing = run(memory, "show", "ffff0000")
    assert missing["code"] == 2 and "no neuron id starts with ffff0000" in missing["stderr"]
    short = run(memory, "show", "ab")
    assert short["code"] == 2 and "4 or more" in short["stderr"]


def test_an_ambiguous_prefix_names_each_candidate(memory):
    prefix = uuid.uuid4().hex[:6]
    ids = [uuid.UUID(f"{prefix}{n:02x}-0000-4000-8000-000000000000") for n in range(2)]
    rows = [
        {"id": str(nid), "kind": "note", "body": text, "attrs": {}, "state": "active"}
        for nid, text in zip(ids, ("the boiler manual", "the boiler warranty"), strict=True)
    ]
    memory.import_({"format": FORMAT, "neurons": rows, "edges": []})
    done = run(memory, "show", prefix)
    assert done["code"] == 2
    assert f"2 neurons' ids start with {prefix}" in done["stderr"]
    assert "the boiler manual" in done["stderr"] and "the boiler warranty" in done["stderr"]
    assert data(run(memory, "show", f"{prefix}01", "--json"))["body"] == "the boiler warranty"


def test_ask_shows_ids_due_times_and_the_value_asked_for_not_scores(memory):
    plumber = memory.capture("Joe Plumber +351 912 345 678 joe@pipes.example")
    due = datetime.now(UTC) + timedelta(days=1)
    bank = memory.capture(
        "call the bank", kind="reminder", attrs={"due_at": due.isoformat(), "rrule": "FREQ=DAILY"}
    )
    done = run(memory, "ask", "plumber phone number", "--mode", "keyword")
    assert done["code"] == 0, done
    first = done["stdout"].splitlines()[0]
    assert first.startswith(str(plumber.id)[:8]) and "+351 912 345 678" in first
    assert not any(ch.isdigit() and "." in first.split()[0] for ch in first.split()[0])  # no score column
    done = run(memory, "ask", "bank", "--mode", "keyword")
    line = next(ln for ln in done["stdout"].splitlines() if ln.startswith(str(bank.id)[:8]))
    assert "due tomorrow" in line and "every day" in line and "FREQ" not in line


def test_ask_filters_by_kind_tag_and_dates(memory):
    note = memory.capture("boiler service notes", kind="note", attrs={"tags": ["house"]})
    reminder = memory.capture(
        "boiler service",
        kind="reminder",
        attrs={"due_at": (datetime.now(UTC) + timedelta(days=10)).isoformat()},  # past next week's Monday
    )

    def ids(*filters: str) -> set[str]:
        found = data(run(memory, "ask", "boiler", "--mode", "keyword", *filters, "--json"))
        return {(r.get("neuron") or r)["id"] for r in found}

    assert ids() == {str(note.id), str(reminder.id)}
    assert ids("--kind", "reminder") == {str(reminder.id)}
    assert ids("--tag", "#house") == {str(note.id)}
    # a reminder is dated by its due time, anything else by when it was written down
    assert ids("--since", "next week") == {str(reminder.id)}
    assert ids("--until", "tomorrow") == {str(note.id)}
    assert ids("--since", "2000-01-01", "--until", "next year") == {str(note.id), str(reminder.id)}
    assert ids("--since", "next year") == set()
    bad = run(memory, "ask", "boiler", "--since", "the day the music died")
    assert bad["code"] == 2 and "not a date I can read" in bad["stderr"]


def test_upcoming_says_local_times_in_words_and_the_repeat(memory):
    due = datetime.now(UTC) + timedelta(hours=30)
    pills = memory.capture(
        "pills", kind="reminder", attrs={"due_at": due.isoformat(), "rrule": "FREQ=DAILY;INTERVAL=2"}
    )
    done = run(memory, "upcoming", "--days", "3")
    line = next(ln for ln in done["stdout"].splitlines() if ln.startswith(str(pills.id)[:8]))
    assert "every 2 days" in line and "FREQ" not in line
    assert ("tomorrow" in line or "due" in line) and due.astimezone().strftime("%H:%M") in line
    item = next(
        i
        for i in data(run(memory, "upcoming", "--days", "3", "--json"))["reminders"]
        if i["id"] == str(pills.id)
    )
    assert item["repeats_text"] == "every 2 days" and item["repeats"] == "FREQ=DAILY;INTERVAL=2"


def test_snooze_never_moves_a_reminder_before_its_due_time(memory):
    now = datetime.now(UTC)
    thursday = now + timedelta(days=2)
    rem = memory.capture("dentist", kind="reminder", attrs={"due_at": thursday.isoformat()})
    snoozed = memory.snooze(rem.id, now, timedelta(minutes=10))
    assert datetime.fromisoformat(snoozed.attrs["snoozed_until"]) == thursday + timedelta(minutes=10)
    done = run(memory, "snooze", str(rem.id)[:8], "--until", "in 2 hours")
    assert done["code"] == 2 and "before it is due" in done["stderr"]
    assert memory.get(rem.id).attrs["snoozed_until"] == snoozed.attrs["snoozed_until"]


def test_edit_due_keeps_the_title_as_it_was(memory):
    neuron = memory.capture("call mum at half past 5")
    assert neuron.attrs["title"] == "Call mum"
    edited = data(run(memory, "edit", str(neuron.id), "--due", "tomorrow at 7pm", "--json"))
    assert edited["body"] == "call mum" and edited["attrs"]["title"] == "Call mum"


def test_moving_a_repeating_reminders_day_moves_the_rules_day(memory):
    neuron = memory.capture("call mum on Tuesday at 5pm")
    rule = "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"  # as a calendar writes "every 2 weeks on Tuesday"
    assert data(run(memory, "edit", str(neuron.id), "--repeat", rule, "--json"))["attrs"]["rrule"] == rule
    edited = data(run(memory, "edit", str(neuron.id), "--due", "Thursday at 5pm", "--json"))
    assert edited["attrs"]["rrule"] == "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH"
    assert datetime.fromisoformat(edited["attrs"]["due_at"]).weekday() == 3


def test_the_panes_save_moves_the_rules_day_and_keeps_the_title(memory):
    neuron = memory.capture("pay the rent monthly on the 8th at 9am")
    rule = neuron.attrs["rrule"]
    assert "BYMONTHDAY=8" in rule
    due = remind.current_due(neuron)
    moved = memory.update(
        neuron.id,
        Edit("pay the rent", {"title": neuron.attrs["title"]}, Schedule(due + timedelta(days=2), rule)),
    )
    assert "BYMONTHDAY=10" in moved.attrs["rrule"] and moved.attrs["title"] == neuron.attrs["title"]
    assert moved.attrs["title"][0].isupper()


def test_ask_says_when_a_repeat_falls_in_the_questions_time(memory):
    """ "what's coming up next week" says a daily reminder's occurrence in next week, not the
    current one (today's), under the window's words."""
    now = datetime.now(UTC)
    window, _ = find_window("what's coming up next week", now.astimezone(remind.local_zone()))
    today = now.replace(second=0, microsecond=0) + timedelta(minutes=1)
    pills = memory.capture(
        "take the pills", kind="reminder", attrs={"due_at": today.isoformat(), "rrule": "FREQ=DAILY"}
    )
    monday = remind.due_between(pills, window.start, window.end)
    assert monday is not None and monday.astimezone(remind.local_zone()).weekday() == 0
    done = run(memory, "ask", "what's coming up next week")
    line = next(ln for ln in done["stdout"].splitlines() if ln.startswith(str(pills.id)[:8]))
    assert when_words(pills, now, monday) in line
    assert when_words(pills, now) not in line  # today's occurrence is not next week's
    assert window.due_of(memory.capture("pay the rent on the 1st", kind="note")) is None


def test_export_counts_in_words_one_file_not_1_files(memory, tmp_path):
    memory.capture("Ana Silva ana@example.org", kind="contact")
    done = run(memory, "export", str(tmp_path / "ana.vcf"), "--kind", "contact")
    assert done["code"] == 0, done
    assert "exported 1 item as vcard to " in done["stderr"] and done["stderr"].rstrip().endswith("(1 file)")
