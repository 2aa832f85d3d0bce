"""The words of the house, each a closed set: what a write did (`Action`), who started it
(`Origin`), how recall searches (`Mode`, `Fusion`), what a person may do to one neuron
(`ItemAction`). (The window's lists, `Section`, are the desktop's alone: desktop/items/sections.py.)
Code compares members (`change.action is Action.CAPTURED`), never their strings; a string from
outside becomes a member with `parse`, which says what the choices are."""

from __future__ import annotations

from core.model import Choice


class Action(Choice):
    """What a committed Memory call did (core/changes.py says what each affects)."""

    CAPTURED = "captured"  # a new neuron, and its derived links
    IMPORTED = "imported"  # neurons, updates and links from a file or a sync
    EDITED = "edited"  # a body or attrs
    STATE = "state"  # done, archived, trashed, or active again
    REVERTED = "reverted"  # undo: an item's earlier body, attrs and state written back
    LINKED = "linked"
    UNLINKED = "unlinked"
    CLAIMED = "claimed"  # the rows moved to another identity (a profile)
    RESTORED = "restored"  # the store came back from a backup
    ENGINE_RESTARTED = "engine_restarted"  # the engine died and was started again: nothing was lost


class Origin(Choice):
    """Who started a write (`with started_by(Origin.WINDOW): ...`)."""

    WINDOW = "window"  # the desktop window, through its Context
    SOCKET = "socket"  # a request over the app's socket: a forwarded command, a second launch
    SYNC = "sync"  # a sync with the person's CalDAV/CardDAV server


class Mode(Choice):
    """How `ask` searches: everything (the default), or one signal alone (for `neurons eval`)."""

    DEFAULT = "default"
    KEYWORD = "keyword"
    VECTOR = "vector"
    HYBRID = "hybrid"  # keyword and vector fused, without the links, windows and person rules


class Fusion(Choice):
    """How keyword and vector scores are fused."""

    RELATIVE = "relative"  # relative-score fusion (the default)
    RRF = "rrf"  # reciprocal rank fusion, the design's baseline


class ItemAction(Choice):
    """What a person may do to one neuron (which ones, `core.actions.actions_for` decides)."""

    DONE = "done"  # complete it
    DONE_THIS_TIME = "done_this_time"  # a repeating reminder: this occurrence done, the next due
    SNOOZE = "snooze"  # show it again later
    RESCHEDULE = "reschedule"  # change when it is due and how it repeats
    ARCHIVE = "archive"  # keep it out of the lists
    TRASH = "trash"
    RESTORE = "restore"  # active again: not done after all, out of the archive or the trash
