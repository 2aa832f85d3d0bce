"""Start at login: the XDG autostart entry is valid, starts the app hidden, and goes away."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from core import autostart
from core.model import InvalidInput
from core.settings import Settings


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
    assert autostart.status() == {"enabled": False, "path": str(config_home / "autostart" / "neurons.desktop"),
                                  "exec": None}
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


@pytest.mark.parametrize("folder", ["/opt/My Apps/neurons", "/tmp/100% $HOME \"quoted\" back\\slash`tick`"])
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
