"""The rules of the house, checked: every import in core is one docs/architecture.md's table
allows, no import circle in core nor between the desktop's parts, a forwarded command loads only
the nouns, core never imports Qt or the desktop, no process-wide mutable state in core, every
noqa says why, and Neurons' top-level packages are its own."""

from __future__ import annotations

import ast
import graphlib
import importlib.metadata
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from core.settings import check_install

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def core_modules() -> dict[str, Path]:
    return {module_name(p): p for p in CORE.rglob("*.py")}


def _type_checking_only(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports_of(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """Every core module `path` imports, at any depth of the file (function-level imports
    count: they only hide a circle), except under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


def test_no_import_circle_in_core():
    modules = core_modules()
    graph = {name: imports_of(path, name, modules) for name, path in modules.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles, "import circles in core:\n" + "\n".join(" -> ".join(c) for c in circles)


ARCHITECTURE = ROOT / "docs" / "architecture.md"
TABLE_HEAD = "| room | what it holds | what it may import |"


@dataclass(frozen=True)
class Room:
    name: str  # dotted: "core.store" (a package: every module in it), "core.when.clock" (one module)
    package: bool
    ground: bool  # the ground floor: every room may import it
    allowed: frozenset[str] | None  # the dotted names it may import; None: any room but `excluded`
    excluded: frozenset[str] = frozenset()

    def holds(self, module: str) -> bool:
        return module == self.name or (self.package and module.startswith(self.name + "."))

    def may_import(self, target: str, its_room: Room) -> bool:
        def named(names: frozenset[str]) -> bool:
            # `core` names the package's own module (the version), not everything under it
            within = any(target.startswith(n + ".") for n in names if n != "core")
            return target in names or within or its_room.name in names

        return not named(self.excluded) if self.allowed is None else named(self.allowed)


def rooms_of_the_architecture() -> list[Room]:
    """The rooms table of docs/architecture.md as written: `| `core/x/` (ground floor) | ... |
    the ground floor, `store.reader` |`, `any room but `cli``, `nothing of ours`."""
    lines = ARCHITECTURE.read_text().splitlines()
    rows = []
    for line in lines[lines.index(TABLE_HEAD) + 2 :]:
        if not line.startswith("|"):
            break
        where, _, may = (cell.strip() for cell in line.strip("|").split(" | "))
        path = re.match(r"`([^`]+)`", where).group(1)
        if path.startswith("core/"):
            rows.append((path, "(ground floor)" in where, may))
    ground = frozenset(
        p.removesuffix("/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for p, g, _ in rows
        if g
    )
    rooms = []
    for path, is_ground, may in rows:
        named = frozenset(f"core.{n}" for n in re.findall(r"`([\w.]+)`", may))
        if "any room" in may:
            allowed, excluded = None, named
        else:
            allowed = frozenset() if "nothing of ours" in may else named
            allowed, excluded = allowed | (ground if "the ground floor" in may else frozenset()), frozenset()
        rooms.append(Room(dotted(path), path.endswith("/"), is_ground, allowed, excluded))
    return rooms


def dotted(path: str) -> str:
    """`core/store/` -> core.store, `core/when/clock.py` -> core.when.clock, `core/__init__.py` -> core"""
    return path.removesuffix("/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def room_of(module: str, rooms: list[Room]) -> Room | None:
    holding = [r for r in rooms if r.holds(module)]
    return max(holding, key=lambda r: len(r.name)) if holding else None


def test_every_import_in_core_is_one_the_architecture_allows():
    """The may-import column of docs/architecture.md, checked: each row names a room that
    exists, every core module belongs to one, and each import (function-level ones too) goes to
    the room itself or to one the row allows."""
    rooms = rooms_of_the_architecture()
    modules = core_modules()
    assert len(rooms) > 20, "the rooms table of docs/architecture.md was not found"
    missing = [r.name for r in rooms if not any(r.holds(m) for m in modules)]
    assert not missing, f"rows of the table name no module: {missing}"
    homeless = [m for m in modules if room_of(m, rooms) is None]
    assert not homeless, f"modules no row of the table holds: {homeless}"
    wrong = []
    for name, path in sorted(modules.items()):
        here = room_of(name, rooms)
        assert here is not None
        for target in sorted(imports_of(path, name, modules)):
            there = room_of(target, rooms)
            assert there is not None
            if there is not here and not here.may_import(target, there):
                wrong.append(f"{name} -> {target} ({here.name} may not import {there.name})")
    assert not wrong, "imports the architecture's table does not allow:\n" + "\n".join(wrong)


def test_a_command_module_imports_only_the_standard_library_and_the_nouns_at_its_top():
    """What `neurons` loads to forward a command to the running app: core/commands at import
    time, so at their top only the standard library and core, core.model, core.validate and the
    commands themselves (what a command runs is imported when it runs)."""
    modules = core_modules()
    heavy = []
    for path in (CORE / "commands").glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and not node.level:
                found = [f"{node.module}.{a.name}" for a in node.names] + [node.module or ""]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            else:
                continue
            heavy += [
                f"{path.name}: {m}"
                for m in found
                if m in modules
                and m not in ("core", "core.model", "core.validate")
                and not m.startswith("core.commands")
            ]
    assert not heavy, heavy


def test_core_never_imports_qt_or_the_desktop():
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            offenders += [
                f"{path.relative_to(ROOT)}: {n}"
                for n in names
                if n.split(".")[0] in ("PySide6", "desktop", "shiboken6")
            ]
    assert not offenders, offenders


MUTABLE_CALLS = {
    "dict",
    "list",
    "set",
    "defaultdict",
    "OrderedDict",
    "WeakKeyDictionary",
    "WeakValueDictionary",
    "local",
    "deque",
}


def test_no_process_wide_mutable_state_in_core():
    """Module-level names bound to a mutable container are caches or registries shared by every
    Memory of the process; state belongs to the object that owns it. ALL_CAPS names are
    constant tables (never written after import), like the command registry filled at import."""
    allowed: set[str] = set()
    found = []
    for name, path in core_modules().items():
        for node in ast.parse(path.read_text()).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign) and node.value
                else []
            )
            value = getattr(node, "value", None)
            mutable = isinstance(
                value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
            ) or (
                isinstance(value, ast.Call)
                and getattr(value.func, "attr", getattr(value.func, "id", "")) in MUTABLE_CALLS
            )
            for t in targets:
                if not (isinstance(t, ast.Name) and mutable) or t.id.isupper() or t.id.startswith("__"):
                    continue
                if f"{name}:{t.id}" not in allowed:
                    found.append(f"{name}:{t.id}")
    assert not found, f"module-level mutable state: {found}"


def test_neurons_owns_its_top_level_packages():
    """Neurons installs the top-level packages `core` and `desktop`; it is an application that
    lives in its own venv or bundle. No other installed distribution may provide them."""
    providers = importlib.metadata.packages_distributions()
    for top in ("core", "desktop"):
        assert set(providers.get(top, ["neurons"])) <= {"neurons"}, (top, providers.get(top))
    check_install()  # the same check the app and doctor run


NOQA = re.compile(r"#\s*noqa\b(?P<rest>.*)$")
# the codes, then the reason: "- keeps forwarding light", "-- as above", "(the one engine)"
SAYS_WHY = re.compile(r":\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*\s+(?:-+\s+|\()\S")


def test_every_noqa_names_its_rule_and_says_why():
    """ruff fails on a `# noqa` that silences nothing (RUF100) or names no rule (PGH004); the
    reason after the codes (`# noqa: PLC0415 - keeps forwarding light`) is checked here."""
    silent = []
    for top in ("core", "desktop", "tests", "packaging"):
        for path in (ROOT / top).rglob("*.py"):
            with path.open("rb") as source:
                comments = [t for t in tokenize.tokenize(source.readline) if t.type == tokenize.COMMENT]
            for token in comments:
                found = NOQA.search(token.string)
                if found and not SAYS_WHY.match(found.group("rest")):
                    silent.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {token.line.strip()}")
    assert not silent, "a noqa without a reason:\n" + "\n".join(silent)


def desktop_part(module: str) -> str:
    """desktop.window.menus -> desktop.window (a subpackage is one part); desktop.app is its own."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (ROOT / "desktop" / parts[-1]).is_dir() else module


def test_no_import_circle_between_the_desktops_parts():
    """The desktop's subpackages (runtime, look, items, capture, detail, reminders, dialogs,
    window) and its top modules (app, launch...) import each other one way only, so each part can
    be read knowing only those below it; function-level imports count, `if TYPE_CHECKING:` ones
    do not."""
    modules = {module_name(p): p for p in (ROOT / "desktop").rglob("*.py")}
    parts: dict[str, set[str]] = {desktop_part(m): set() for m in modules}
    for name, path in modules.items():
        for target in imports_of(path, name, modules):
            if desktop_part(target) != desktop_part(name):
                parts[desktop_part(name)].add(desktop_part(target))
    assert len(parts) > 8, sorted(parts)
    try:
        list(graphlib.TopologicalSorter(parts).static_order())
    except graphlib.CycleError as circle:
        raise AssertionError(
            "an import circle between the desktop's parts: "
            + " -> ".join(reversed(circle.args[1]))  # the sorter lists it against the arrows
        ) from None
