"""Where things live and which options are in force: the one place for paths and switches."""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from core import config
from core.model import NeuronsError

APP_NAME = "neurons"


def resources_dir() -> Path:
    """The `resources/` folder: beside the package in a checkout, inside the bundle when frozen."""
    override = os.environ.get("NEURONS_RESOURCES")
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def default_data_dir() -> Path:
    import platformdirs  # noqa: PLC0415 - not needed when the data dir is given

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_config_dir() -> Path:
    """Preferences (the desktop's window state and choices), never the memory itself."""
    import platformdirs  # noqa: PLC0415 - not needed when the data dir is given

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def default_cache_dir() -> Path:
    """What Neurons can make again (the model files' digests), never the memory itself."""
    import platformdirs  # noqa: PLC0415 - not needed when the data dir is given

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def data_dir_from(flag: str | Path | None = None) -> Path:
    """The data dir in force: the flag, else NEURONS_DATA_DIR, else the platform's default."""
    chosen = flag or os.environ.get("NEURONS_DATA_DIR") or default_data_dir()
    return Path(chosen).expanduser().resolve()


def default_model_dir() -> Path:
    override = os.environ.get("NEURONS_MODEL_DIR")
    if override:
        return Path(override)
    return resources_dir() / "model" / "multilingual-e5-small"


@dataclass
class Settings:
    """What a Memory opens. Build it with `Settings.from_env(...)` so flags beat env beat defaults."""

    data_dir: Path = field(default_factory=default_data_dir)
    dsn: str | None = None
    # the local profile this data dir acts as (core/config.py); None: its anonymous device
    profile_id: uuid.UUID | None = None
    profile_pending: bool = False  # a claim that may not have committed (see Memory)
    model_dir: Path = field(default_factory=default_model_dir)
    # Background embedding of new neurons; off for tools that must not load the model.
    embed_in_background: bool = True

    @classmethod
    def from_env(cls, data_dir: str | Path | None = None, dsn: str | None = None, **kw) -> Settings:
        """The flag, else the environment, else what the data dir remembers (core/config.py)."""
        folder = data_dir_from(data_dir)
        saved = config.load(folder)
        config.choose_date_region(saved.date_region)  # how numeric dates are read (core/when/region.py)
        dsn = dsn or os.environ.get("NEURONS_DSN") or saved.dsn or None
        return cls(
            data_dir=folder, dsn=dsn, profile_id=saved.profile_id, profile_pending=saved.profile_pending, **kw
        )

    @property
    def engine(self) -> str:
        return "server" if self.dsn else "embedded"

    @property
    def pglite_runtime_dir(self) -> Path:
        return resources_dir() / "pglite"


def check_install() -> None:
    """Neurons is an application that lives in its own venv or bundle, installing the top-level
    packages `core` and `desktop`. Refuse to run when another distribution's package of either
    name shadows ours (or ours shadows it): the two must be the folders beside each other."""
    if getattr(sys, "frozen", False):
        return  # the bundle holds exactly what it was built with
    ours = Path(__file__).resolve().parent.parent
    for name in ("core", "desktop"):
        spec = importlib.util.find_spec(name)
        where = Path(spec.origin).resolve().parent.parent if spec and spec.origin else None
        if where != ours:
            raise NeuronsError(
                f"the package '{name}' Python finds ({spec.origin if spec else 'none'}) is not "
                f"Neurons' own (in {ours}): install Neurons in a virtualenv of its own "
                "(packaging/setup.sh does) or use the bundle"
            )
