"""Start at login: the XDG autostart entry is valid, starts the app hidden, and goes away."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from core import autostart
from core.model import InvalidInput
from core.settings import Settings
from tests.conftest import ROOT, run_cli


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def unquote_exec(line: str) -> list[str]:
    """Read an Exec value back as the Desktop Entry spec says a launcher does."""
    text = line.replace("%%", "\x00").replace("\\\\", "\\")  # the string escapes first
    args, current, quoted, i, started = [], [], False, 0, False
    while i < len(text):
        c = text[i]
        if quoted and c == "\\" and i + 1 < len(text):
            current.append(text[i + 1])
            i += 2
            continue
        if c == '"':
            quoted, started = not quoted, True
        elif c == " " and not quoted:
            if current or started:
                args.append("".join(current))
            current, started = [], False
        else:
            current.append(c)
        i += 1
    if current or started:
        args.append("".join(current))
    return [a.replace("\x00", "%") for a in args]


def validate(path) -> None:
    if shutil.which("desktop-file-validate") is None:
        pytest.skip("needs desktop-file-validate (apt: desktop-file-utils)")
    done = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_on_writes_a_valid_entry_that_starts_the_app_hidden(config_home):
    assert autostart.status() == {
        "enabled": False,
        "path": str(config_home / "autostart" / "neurons.desktop"),
        "exec": None,
    }
    path = autostart.enable()
    assert path == config_home / "autostart" / "neurons.desktop"
    validate(path)
    state = autostart.status()
    assert state["enabled"] is True
    args = unquote_exec(state["exec"])
    assert args[-1] == "--hidden" and args[:-1] == autostart.launcher()
    assert autostart.disable() is True and not path.exists()
    assert autostart.disable() is False
    assert autostart.is_enabled() is False


@pytest.mark.parametrize("folder", ["/opt/My Apps/neurons", '/tmp/100% $HOME "quoted" back\\slash`tick`'])
def test_awkward_paths_are_quoted_so_they_read_back_whole(tmp_path, folder):
    launcher = [f"{folder}/neurons-desktop"]
    data = tmp_path / "my data"
    path = autostart.enable(Settings(data_dir=data), base=launcher)
    validate(path)
    assert unquote_exec(autostart.status()["exec"]) == [*launcher, "--hidden", "--data-dir", str(data)]


def test_the_default_data_dir_is_not_spelled_out(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.delenv("NEURONS_DATA_DIR", raising=False)
    settings = Settings.from_env()
    assert autostart.command_for(settings, base=["neurons-desktop"]) == ["neurons-desktop", "--hidden"]


def test_a_line_break_in_the_path_is_refused():
    with pytest.raises(InvalidInput):
        autostart.enable(base=["/tmp/bad\nname/neurons-desktop"])
    assert not autostart.entry_path().exists()


def test_the_command_turns_it_on_says_so_and_off(tmp_path, config_home):
    env = {"XDG_CONFIG_HOME": str(config_home)}
    data = tmp_path / "data"
    on = run_cli("autostart", "on", data_dir=data, env=env)
    assert on.returncode == 0 and "starts in the tray" in on.stdout, on.stderr
    entry = config_home / "autostart" / "neurons.desktop"
    validate(entry)
    state = json.loads(run_cli("autostart", "status", "--json", data_dir=data, env=env).stdout)
    assert state["enabled"] is True and unquote_exec(state["exec"])[-3:] == [
        "--hidden",
        "--data-dir",
        str(data),
    ]
    off = run_cli("autostart", "off", data_dir=data, env=env)
    assert off.returncode == 0 and "does not start" in off.stdout and not entry.exists()
    assert not data.exists()  # it never opened (or made) the memory


def test_the_installer_offers_it_and_its_uninstall_takes_it_back(tmp_path, config_home):
    exe = ROOT / ".venv" / "bin" / "neurons-desktop"
    if not exe.exists():
        pytest.skip("no developer install (.venv/bin/neurons-desktop): run packaging/setup.sh")
    env = {
        **__import__("os").environ,
        "XDG_DATA_HOME": str(tmp_path / "share"),
        "XDG_CONFIG_HOME": str(config_home),
        "HOME": str(tmp_path),
    }

    def install(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["bash", str(ROOT / "packaging" / "install-linux.sh"), *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            stdin=subprocess.DEVNULL,
        )

    entry = config_home / "autostart" / "neurons.desktop"
    assert install().returncode == 0 and not entry.exists()  # not asked: not on
    done = install("--autostart")
    assert done.returncode == 0, done.stderr
    validate(entry)
    assert unquote_exec(autostart.status()["exec"])[0] == str(exe.resolve()) or unquote_exec(
        autostart.status()["exec"]
    )[0] == str(exe)
    assert install().returncode == 0 and entry.exists()  # a reinstall keeps it
    gone = install("--uninstall")
    assert gone.returncode == 0 and not entry.exists(), gone.stderr
