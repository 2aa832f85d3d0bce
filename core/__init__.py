"""Neurons core: everything that is not Qt."""

# The one place the version is written: pyproject.toml reads it (setuptools' dynamic version),
# and so do exports, backups, the saved recall index, the instance protocol and --version.
__version__ = "0.2.0"
