"""Commands on who owns this memory and where it lives: profile, config, move-to.

A data dir starts as an anonymous device. `profile create` makes a local profile that takes over
every row of the device and becomes the data dir's identity (kept in config.json, core/config.py);
`profile join` on a second machine that uses the same server makes it act as that profile.
`config set dsn` remembers a server for this data dir; `move-to` copies this memory to a server
and switches to it. None of them runs inside the desktop app: they change what it opens.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.commands.base import Answer, command
from core.model import InvalidInput, NeuronsError
from core.validate import parse_uuid


class AppRunning(NeuronsError):
    """The desktop app owns the data dir: what these commands change is what it has open."""


def _refuse_while_the_app_runs(args) -> None:
    from core import instance  # noqa: PLC0415 - keeps forwarding light
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light

    if instance.is_running(data_dir_from(args.data_dir)):
        raise AppRunning(
            "the Neurons app has this data dir open: quit it first (or use Profile in "
            "its menu), then run this again"
        )


def _open(args, dsn: str | None = None):
    from core.memory import Memory  # noqa: PLC0415 - keeps forwarding light
    from core.settings import Settings  # noqa: PLC0415 - keeps forwarding light

    return Memory.open(
        Settings.from_env(data_dir=args.data_dir, dsn=dsn or args.dsn, embed_in_background=False)
    )


def _remember_profile(data_dir, profile_id, name: str | None, pending: bool = False) -> None:
    from core import config  # noqa: PLC0415 - keeps forwarding light

    saved = config.load(data_dir)
    config.save(
        data_dir,
        dataclasses.replace(saved, profile_id=profile_id, profile_name=name, profile_pending=pending),
    )


# -- profile ---------------------------------------------------------------------------------------


def _profile_args(p) -> None:
    p.add_argument(
        "action",
        choices=["create", "show", "join"],
        help="create NAME: a profile of this device's memory; show; join PROFILE_ID: "
        "act as a profile made on another machine (same server)",
    )
    p.add_argument("value", nargs="?", metavar="NAME|PROFILE_ID")
    own = p.add_mutually_exclusive_group()
    own.add_argument("--claim", action="store_true", help="join: bring this machine's own rows")
    own.add_argument("--keep-apart", action="store_true", help="join: leave this machine's rows apart")


def _value(args, what: str) -> str:
    if not args.value:
        raise InvalidInput(f"neurons profile {args.action} needs the {what}")
    return args.value


@command(
    "profile",
    "create, show or join a local profile (one memory for several machines)",
    arguments=_profile_args,
    forwardable=lambda args: args.action == "show",
)
def profile(memory, args) -> Answer:
    if args.action == "show":  # also in the running app, on the memory it has open
        return _show(memory)
    if args.action == "create":
        name = _value(args, "profile's name")
        _refuse_while_the_app_runs(args)
        return _create(memory, name)
    profile_id = _value(args, "profile's id (see `neurons profile show` on the other machine)")
    _refuse_while_the_app_runs(args)
    return _join(memory, profile_id, args)


def create_profile(memory, name: str) -> dict[str, Any]:
    """Make the profile and remember it as the data dir's identity (the window does the same)."""
    from core import config  # noqa: PLC0415 - keeps forwarding light

    before = memory.count()
    data_dir, user_id = memory.store.settings.data_dir, uuid.uuid4()
    previous = config.load(data_dir)
    # remembered first, settled after: a crash between the two is settled at the next open
    _remember_profile(data_dir, user_id, name.strip(), pending=True)
    try:
        mine = memory.claim(name, user_id=user_id)
    except BaseException:
        config.save(data_dir, previous)  # refused: the data dir stays what it was
        raise
    _remember_profile(data_dir, user_id, name.strip())
    return {**mine.profile(), "neurons": mine.count(), "claimed": before}


def join_profile(memory, profile_id: str, bring_own: bool) -> dict[str, Any]:
    own = memory.count()
    joined, moved = memory.join(profile_id, bring_own=bring_own)
    info = joined.profile()
    _remember_profile(memory.store.settings.data_dir, joined.identity.user_id, info["name"])
    return {**info, "neurons": joined.count(), "claimed": moved, "kept_apart": own - moved}


def _create(memory, name: str) -> Answer:
    data = create_profile(memory, name)
    return Answer(
        data,
        f"profile {data['name']} ({data['id']}) now owns this memory: "
        f"{data['claimed']} neurons moved from this device",
        note=f"a second machine on the same server joins it with: neurons profile join {data['id']}",
    )


def _join(memory, profile_id: str, args) -> Answer:
    pid = parse_uuid(profile_id, "profile id")  # a bad id is said before anything is asked
    if not memory.has_profile(pid):
        raise InvalidInput(
            f"no profile {pid} in this database: join from a data dir that uses the same server as "
            "the machine that made it (neurons config set dsn), as the same database role"
        )
    own = memory.count()
    bring = args.claim
    if own and not (args.claim or args.keep_apart):
        if not sys.stdin.isatty():
            raise InvalidInput(
                f"this machine has {own} neurons of its own: say --claim to bring "
                "them into the profile or --keep-apart to leave them apart"
            )
        reply = (
            input(
                f"This machine has {own} neurons of its own. Bring them into the profile? "
                "[y = bring them, n = keep them apart] "
            )
            .strip()
            .lower()
        )
        if reply not in ("y", "yes", "n", "no"):
            raise InvalidInput("nothing changed: answer y or n")
        bring = reply.startswith("y")
    data = join_profile(memory, profile_id, bring)
    kept = f"; {data['kept_apart']} of this machine's own neurons kept apart" if data["kept_apart"] else ""
    return Answer(
        data,
        f"this data dir now acts as profile {data['name']} ({data['id']}): {data['neurons']} neurons{kept}",
    )


def _show(memory) -> Answer:
    info = memory.profile()
    if info is None:
        return Answer(
            {"profile": None, "identity": str(memory.identity), "neurons": memory.count()},
            f"no profile: this data dir is the anonymous device {memory.identity.value} "
            f"({memory.count()} neurons); `neurons profile create NAME` makes one",
        )
    apart = memory.device_rows()
    data = {**info, "neurons": memory.count(), "kept_apart": apart, "engine": memory.store.kind}
    return Answer(
        data,
        f"profile {info['name']} ({info['id']}), {data['neurons']} neurons, on the "
        f"{memory.store.kind} engine"
        + (f"; {apart} of this machine's own neurons kept apart" if apart else ""),
    )


# -- config ----------------------------------------------------------------------------------------


CONFIG_USE = (
    "use: neurons config set dsn DSN | set backup-dir DIR | set backup-passphrase "
    "[--passphrase-stdin] | set date-region REGION | unset KEY | show"
)


def _config_args(p) -> None:
    p.add_argument("action", choices=["show", "set", "unset"])
    p.add_argument(
        "key",
        nargs="?",
        choices=["dsn", "backup-dir", "backup-passphrase", "date-region"],
        help="dsn: the server Postgres to use; backup-dir: a folder outside the data dir that "
        "backups are also sealed into; backup-passphrase: the passphrase that seals them (kept "
        "in the OS keyring, asked for, never given on the command line); date-region: whose "
        "conventions read a numeric date (en_US: 05/06 is May 6; pt_PT, en_GB: 5 June)",
    )
    p.add_argument("value", nargs="?", help="set: the value")
    p.add_argument(
        "--passphrase-stdin",
        action="store_true",
        help="set backup-passphrase: read it from the first line of stdin",
    )


@command(
    "config",
    "remember this data dir's engine, backup folder and date region: config set dsn DSN | "
    "set backup-dir DIR | set backup-passphrase | set date-region REGION | unset KEY | show",
    arguments=_config_args,
    needs_memory=False,
)
def config_(_memory, args) -> Answer:
    from core import config  # noqa: PLC0415 - keeps forwarding light
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light

    data_dir = data_dir_from(args.data_dir)
    if args.action == "show":
        saved = config.load(data_dir).to_json()
        return Answer(
            {"file": str(config.path(data_dir)), **saved}, json.dumps(saved, indent=1, ensure_ascii=False)
        )
    if args.key == "backup-passphrase":
        return _backup_passphrase(data_dir, args)
    if args.key is None or (args.action == "set") != (args.value is not None):
        raise InvalidInput(CONFIG_USE)
    if args.key == "backup-dir":
        return _backup_dir(data_dir, args)
    if args.key == "date-region":
        return _date_region(data_dir, args.value if args.action == "set" else None)
    _refuse_while_the_app_runs(args)
    if args.action == "unset":
        use_embedded(data_dir)
        return Answer(
            {"dsn": None}, f"this data dir uses its embedded database again ({data_dir / 'pgdata'})"
        )
    dsn = use_server(data_dir, args.value)
    return Answer(
        {"dsn": dsn},
        f"this data dir uses the server {dsn} from now on",
        note="the memory in the embedded database stays where it is; `neurons move-to "
        "DSN` copies it to the server",
    )


def _backup_dir(data_dir, args) -> Answer:
    """Remember (or forget) the folder backups are also sealed into; the app reads it at each
    backup check, so it may run meanwhile."""
    from core import backup_elsewhere as elsewhere  # noqa: PLC0415 - keeps forwarding light
    from core.store import secrets  # noqa: PLC0415 - keeps forwarding light

    folder = elsewhere.choose_folder(data_dir, args.value if args.action == "set" else None)
    if folder is None:
        return Answer({"backup_dir": None}, "backups stay in the data dir only from now on")
    note = ""
    if not secrets.backup_passphrase(data_dir):
        note = (
            "backups there are encrypted: set their passphrase with `neurons config set "
            "backup-passphrase` (until then none is written there)"
        )
    return Answer(
        {"backup_dir": str(folder)},
        f"backups also go to {elsewhere.subfolder(folder, _device_id(data_dir))}, encrypted",
        note=note,
    )


def _date_region(data_dir, tag: str | None) -> Answer:
    """Remember (or forget) whose conventions read a numeric date in this data dir; the app's
    Preferences ▸ Numeric dates writes the same (NEURONS_DATE_REGION still wins)."""
    import dataclasses  # noqa: PLC0415 - keeps forwarding light

    from core import config  # noqa: PLC0415 - keeps forwarding light
    from core.when.region import known_tag, region_of  # noqa: PLC0415 - keeps forwarding light

    if tag is not None and not known_tag(tag):
        raise InvalidInput(f"“{tag}” is not a region: try en_US, en_GB, pt_PT, pt_BR, es_ES, de_DE or fr_FR")
    tag = tag.strip().replace("-", "_") if tag else None
    saved = config.load(data_dir)
    config.save(data_dir, dataclasses.replace(saved, date_region=tag))
    if tag is None:
        return Answer({"date_region": None}, "numeric dates are read as this computer's locale writes them")
    order = "day" if region_of(tag).day_first else "month"
    return Answer({"date_region": tag}, f"numeric dates are read {order} first from now on ({tag})")


def _device_id(data_dir) -> str:
    """The data dir's device id (made now if it has none yet: the store makes the same file)."""
    from core.files import write_private  # noqa: PLC0415 - keeps forwarding light

    path = Path(data_dir) / "device_id"
    try:
        return str(uuid.UUID(path.read_text().strip()))
    except FileNotFoundError:
        made = str(uuid.uuid4())
        path.parent.mkdir(parents=True, exist_ok=True)
        write_private(path, made, durable=True, replace=False)
        return made


def _backup_passphrase(data_dir, args) -> Answer:
    """Keep the backup passphrase in the OS keyring (asked for at a terminal, or one line of
    stdin), or forget it. Never from the command line, where other users' `ps` would see it."""
    from core import backup_elsewhere as elsewhere  # noqa: PLC0415 - keeps forwarding light
    from core.store import secrets  # noqa: PLC0415 - keeps forwarding light

    if args.value is not None:
        raise InvalidInput(
            "a passphrase on the command line is seen by every process of this machine: give it "
            "at the prompt, or as the first line of stdin with --passphrase-stdin (nothing was changed)"
        )
    if args.action == "unset":
        secrets.forget_backup_passphrase(data_dir)
        return Answer({"backup_passphrase": False}, "the backup passphrase is no longer kept here")
    if args.passphrase_stdin:
        given = sys.stdin.readline().rstrip("\r\n")
    elif sys.stdin.isatty():
        import getpass  # noqa: PLC0415 - keeps forwarding light

        given = getpass.getpass("backup passphrase: ")
        if getpass.getpass("again: ") != given:
            raise InvalidInput("the two passphrases differ (nothing was changed)")
    else:
        raise InvalidInput(
            "give the passphrase at a terminal, or with --passphrase-stdin (nothing was changed)"
        )
    elsewhere.keep_passphrase(data_dir, given)
    return Answer(
        {"backup_passphrase": True},
        "the backup passphrase is kept in this machine's keyring",
        note="write it down somewhere safe: a backup outside the data dir cannot be opened without it",
    )


def use_server(data_dir, dsn: str) -> str:
    """Remember the server for this data dir (once it answered); the DSN kept, no password."""
    from core import config  # noqa: PLC0415 - keeps forwarding light

    bare = remember_server(dsn)
    config.save(
        data_dir, dataclasses.replace(config.load(data_dir), dsn=bare, moving_to=None, moving_since=None)
    )
    return bare


def use_embedded(data_dir) -> None:
    from core import config  # noqa: PLC0415 - keeps forwarding light

    config.save(
        data_dir, dataclasses.replace(config.load(data_dir), dsn=None, moving_to=None, moving_since=None)
    )


def remember_server(dsn: str) -> str:
    """Check that the server answers (and holds the schema), keep its password in the keyring;
    the DSN to store, without the password."""
    from core import config  # noqa: PLC0415 - keeps forwarding light
    from core.settings import Settings  # noqa: PLC0415 - keeps forwarding light
    from core.store import Store  # noqa: PLC0415 - keeps forwarding light
    from core.store.secrets import KeyringUnavailable, save_password  # noqa: PLC0415 - keeps forwarding light

    bare, password = config.split_password(dsn)
    if password is not None:
        try:
            save_password(bare, password)
        except KeyringUnavailable:
            raise KeyringUnavailable(
                "this machine has no secure OS keyring to keep the database password in, and "
                "Neurons never writes a password to a file of its own: put it in ~/.pgpass (a line "
                "host:port:dbname:user:password, mode 0600), which Postgres reads itself, then run "
                "this again without password= (nothing was changed)"
            ) from None
    with tempfile.TemporaryDirectory() as scratch, Store(Settings(data_dir=Path(scratch), dsn=bare)):
        pass
    return bare


# -- move-to ---------------------------------------------------------------------------------------


def checksum(export: dict[str, Any]) -> str:
    """A digest of an export's rows that two engines agree on (instants in UTC, rows by id)."""

    def utc(value: Any) -> Any:
        if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == "T":
            return datetime.fromisoformat(value).astimezone(UTC).isoformat()
        return value

    rows = {
        key: sorted(
            ({k: utc(v) for k, v in row.items() if k != "other_id"} for row in export[key]),
            key=lambda r: r["id"],
        )
        for key in ("neurons", "edges")
    }
    text = json.dumps(rows, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _only(export: dict[str, Any], neuron_ids: set[str], edge_ids: set[str]) -> dict[str, Any]:
    return {
        "neurons": [n for n in export["neurons"] if n["id"] in neuron_ids],
        "edges": [e for e in export["edges"] if e["id"] in edge_ids],
    }


@command(
    "move-to",
    "copy this memory to a server Postgres, verify it, and switch to it",
    arguments=lambda p: p.add_argument("server", metavar="DSN"),
    needs_memory=False,
)
def move_to(_memory, args) -> Answer:
    _refuse_while_the_app_runs(args)
    with _open(args) as source:
        result = move(source, args.server)
    return Answer(
        result,
        f"moved {result['neurons']} neurons and {result['edges']} links to "
        f"{result['dsn']} (verified, checksum {result['checksum'][:12]}); this "
        f"data dir uses it from now on",
        note=f"the previous memory is kept as it was in {result['previous']} (`neurons "
        f"config unset dsn` goes back to it), and a JSON copy in {result['backup']}",
    )


def move(source, server: str) -> dict[str, Any]:
    """Copy `source` (an open Memory) to the server and switch the data dir to it. All or
    nothing: the copy is one transaction on the server, checked row for row (counts and a
    checksum) before the data dir switches; the previous memory is kept as it was."""
    from core import config  # noqa: PLC0415 - keeps forwarding light
    from core.interop.files import export_path  # noqa: PLC0415 - keeps forwarding light
    from core.memory import Memory  # noqa: PLC0415 - keeps forwarding light

    dsn = remember_server(server)
    if source.store.kind == "server" and source.store.settings.dsn == dsn:
        raise InvalidInput("this memory is on that server already")
    data = source.export()
    info = source.profile()
    data_dir, kind = source.store.settings.data_dir, source.store.kind
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    backup = data_dir / f"before-move-{stamp}.json"
    export_path(source, backup, "json")  # as `neurons export` writes it: whole, owner-only
    # the move is written down first: if this process dies before the switch, the next command
    # says where the memory is (config.unfinished_move)
    config.save(data_dir, dataclasses.replace(config.load(data_dir), moving_to=dsn, moving_since=stamp))
    try:
        wanted = checksum(data)
        settings = dataclasses.replace(source.store.settings, dsn=dsn, embed_in_background=False)
        with Memory.open(settings, source.identity) as target:
            if info is not None:
                target.adopt_profile(info["name"])
            counts = target.import_(data)
            copy = _only(
                target.export(), {n["id"] for n in data["neurons"]}, {e["id"] for e in data["edges"]}
            )
        if checksum(copy) != wanted:
            raise NeuronsError(
                f"the copy on the server differs from this memory ({len(copy['neurons'])} of "
                f"{len(data['neurons'])} neurons, {len(copy['edges'])} of {len(data['edges'])} links "
                f"alike): nothing was switched, this data dir still uses its {kind} engine"
            )
        # the switch, and the move's end: one write
        config.save(
            data_dir, dataclasses.replace(config.load(data_dir), dsn=dsn, moving_to=None, moving_since=None)
        )
    except BaseException:
        backup.unlink(missing_ok=True)  # a move that did not happen leaves no copy behind
        config.save(data_dir, dataclasses.replace(config.load(data_dir), moving_to=None, moving_since=None))
        raise
    return {
        "dsn": dsn,
        "neurons": len(data["neurons"]),
        "edges": len(data["edges"]),
        "already_there": counts["skipped"],
        "checksum": wanted,
        "backup": str(backup),
        "previous": str(data_dir / "pgdata") if kind == "embedded" else "the previous server",
    }
