#!/usr/bin/env bash
# Add Neurons to this user's application menu (a freedesktop .desktop entry and its icons), or
# take it out again. Nothing is installed system-wide and nothing needs root.
#
#   bash packaging/install-linux.sh                  launch the developer install (.venv/bin/neurons-desktop)
#   bash packaging/install-linux.sh --bundle DIR     launch the bundle DIR/neurons-desktop (dist/neurons)
#   DIR/install-linux.sh                             the same, from inside a bundle (a copy ships there)
#   bash packaging/install-linux.sh --uninstall      remove exactly what the last install added
#   ... --autostart | --no-autostart                 start Neurons in the tray at login, or not
#                                                    (asked when run in a terminal; default: not)
#
# Installs $XDG_DATA_HOME/applications/neurons.desktop and the icon as
# $XDG_DATA_HOME/icons/hicolor/<size>/apps/neurons.{png,svg} ($XDG_DATA_HOME is ~/.local/share by
# default), and records every file (with its sha256) and every folder it created in
# $XDG_DATA_HOME/neurons-launcher/manifest. Uninstall removes the recorded files that are still
# as installed and the recorded folders that are empty: never anything else, never the data dir
# ($XDG_DATA_HOME/neurons, where your memory lives).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
APPS="$DATA_HOME/applications"
ICONS="$DATA_HOME/icons/hicolor"
STATE="$DATA_HOME/neurons-launcher"
MANIFEST="$STATE/manifest"
DATA_DIR="$DATA_HOME/neurons"
ENTRY="$APPS/neurons.desktop"

say() { printf '%s\n' "$*" >&2; }
die() { say "install-linux.sh: $*"; exit 1; }

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

MODE=install
BUNDLE=""
FORCE=0
AUTOSTART=ask
while [ $# -gt 0 ]; do
  case "$1" in
    --uninstall) MODE=uninstall ;;
    --bundle) [ $# -ge 2 ] || die "--bundle needs a folder"; BUNDLE="$2"; shift ;;
    --bundle=*) BUNDLE="${1#--bundle=}" ;;
    --force) FORCE=1 ;;
    --autostart) AUTOSTART=yes ;;
    --no-autostart) AUTOSTART=no ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done

# -- uninstall -------------------------------------------------------------------------------------

inside_data_dir() { case "$1/" in "$DATA_DIR"/*) return 0 ;; *) return 1 ;; esac; }

uninstall() {
  [ -f "$MANIFEST" ] || { say "Neurons' launcher is not installed for this user (no $MANIFEST)"; return 0; }
  local kind sum path dirs=()
  while IFS=$'\t' read -r kind sum path; do
    case "$kind" in
      file)
        if inside_data_dir "$path"; then say "kept $path: it is in the data dir"; continue; fi
        if [ -L "$path" ] || [ ! -f "$path" ]; then continue; fi
        if [ "$(sha256sum "$path" | cut -d' ' -f1)" = "$sum" ]; then
          rm -f -- "$path" && say "removed $path"
        else
          say "kept $path: it changed since it was installed"
        fi ;;
      dir) dirs+=("$sum") ;;  # a dir line is: dir<TAB>path
      autostart)  # autostart<TAB>exec<TAB>entry: removed while it still starts this install
        if [ -f "$path" ] && grep -qF -- "Exec=$sum" "$path"; then
          rm -f -- "$path" && say "removed $path (Neurons no longer starts at login)"
        fi ;;
    esac
  done < "$MANIFEST"
  # the folders this script created, deepest first, when nothing else lives in them
  local i
  for (( i=${#dirs[@]}-1; i>=0; i-- )); do
    inside_data_dir "${dirs[$i]}" && continue
    rmdir -- "${dirs[$i]}" 2>/dev/null && say "removed ${dirs[$i]}/" || true
  done
  rm -f -- "$MANIFEST"
  rmdir -- "$STATE" 2>/dev/null || true
  refresh_caches
}

refresh_caches() {
  # A changed folder makes icon caches stale (and so ignored); refresh one only if it exists.
  [ -d "$ICONS" ] && touch "$ICONS"
  if [ -f "$ICONS/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
    gtk-update-icon-cache -q -t -f "$ICONS" 2>/dev/null || true
  fi
  if [ -f "$APPS/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null; then
    update-desktop-database -q "$APPS" 2>/dev/null || true
  fi
}

if [ "$MODE" = uninstall ]; then
  uninstall
  exit 0
fi

# -- install: what to launch -------------------------------------------------------------------------

if [ -z "$BUNDLE" ] && [ -x "$HERE/neurons-desktop" ] && [ -d "$HERE/_internal/resources" ]; then
  BUNDLE="$HERE"  # this copy of the script ships inside a bundle
fi
if [ -n "$BUNDLE" ]; then
  [ -d "$BUNDLE" ] || die "no bundle at $BUNDLE: build one with 'bash packaging/build.sh'"
  BUNDLE="$(cd "$BUNDLE" && pwd -P)"
  EXEC="$BUNDLE/neurons-desktop"
  CLI="$BUNDLE/neurons"
  RES="$BUNDLE/_internal/resources"
else
  ROOT="$(cd "$HERE/.." && pwd -P)"
  EXEC="$ROOT/.venv/bin/neurons-desktop"
  CLI="$ROOT/.venv/bin/neurons"
  RES="$ROOT/resources"
  [ -x "$EXEC" ] || die "no $EXEC: run 'bash packaging/setup.sh' first, or pass --bundle DIR"
fi
[ -x "$EXEC" ] || die "$EXEC is not an executable"
[ -f "$RES/icons/neurons.svg" ] || [ -f "$RES/icons/neurons-128.png" ] || die "no icons in $RES/icons"
TEMPLATE="$RES/neurons.desktop"  # the entry, with Exec/TryExec made absolute below
[ -f "$TEMPLATE" ] || die "no desktop entry template at $TEMPLATE"

# Exec= takes a quoted path; keep to paths that need no escaping beyond the quotes.
case "$EXEC" in
  *[\"\`\$\\%]*|*$'\n'*) die "cannot write a launcher for a path with quotes, \$, \\ or %: $EXEC" ;;
esac
QEXEC="$EXEC"
case "$EXEC" in *[[:space:]\'\<\>\~\|\&\;\*\?\#\(\)]*) QEXEC="\"$EXEC\"" ;; esac

# -- install: write and record ---------------------------------------------------------------------

# the autostart entry the app writes (core/autostart.py): is it on for this install already?
case "${XDG_CONFIG_HOME:-}" in /*) CONFIG_HOME="$XDG_CONFIG_HOME" ;; *) CONFIG_HOME="$HOME/.config" ;; esac
AUTOSTART_ENTRY="$CONFIG_HOME/autostart/neurons.desktop"
WAS_ON=no
if [ -f "$AUTOSTART_ENTRY" ]; then
  for exe in "$EXEC" "$(readlink -f -- "$EXEC")"; do grep -qF -- "$exe" "$AUTOSTART_ENTRY" && WAS_ON=yes; done
fi

[ -f "$MANIFEST" ] && uninstall >/dev/null 2>&1  # a new install replaces the last one exactly

NEW_MANIFEST="$(mktemp)"
trap 'rm -f "$NEW_MANIFEST"' EXIT
printf '# Neurons launcher, installed %s for %s\n' "$(date -u +%FT%TZ)" "$EXEC" > "$NEW_MANIFEST"

make_dirs() {  # mkdir -p, recording each folder it creates
  local dir="$1" missing=()
  while [ ! -d "$dir" ]; do missing=("$dir" "${missing[@]}"); dir="$(dirname "$dir")"; done
  local d
  for d in "${missing[@]}"; do
    mkdir -- "$d"
    printf 'dir\t%s\n' "$d" >> "$NEW_MANIFEST"
  done
}

put() {  # put SOURCE DEST MODE: copy, refusing to replace a file that is not ours
  local src="$1" dest="$2" mode="$3"
  if [ -e "$dest" ] && [ "$FORCE" -ne 1 ]; then
    die "$dest exists and was not installed by this script: remove it, or pass --force"
  fi
  make_dirs "$(dirname "$dest")"
  install -m "$mode" -- "$src" "$dest"
  printf 'file\t%s\t%s\n' "$(sha256sum "$dest" | cut -d' ' -f1)" "$dest" >> "$NEW_MANIFEST"
}

TMP_DIR="$(mktemp -d)"
trap 'rm -rf "$NEW_MANIFEST" "$TMP_DIR"' EXIT
ENTRY_TMP="$TMP_DIR/neurons.desktop"
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    Exec=*)
      value="${line#Exec=}"; first="${value%% *}"
      [ "${first##*/}" = neurons-desktop ] && line="Exec=$QEXEC${value#"$first"}" ;;
    TryExec=*)
      first="${line#TryExec=}"
      [ "${first##*/}" = neurons-desktop ] && line="TryExec=$EXEC" ;;
    Icon=*) line="Icon=neurons" ;;
  esac
  printf '%s\n' "$line"
done < "$TEMPLATE" > "$ENTRY_TMP"

if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$ENTRY_TMP" >&2 || die "the desktop entry does not validate"
fi

put "$ENTRY_TMP" "$ENTRY" 644
shopt -s nullglob
for png in "$RES"/icons/neurons-[0-9]*.png; do
  size="${png##*/neurons-}"; size="${size%.png}"
  put "$png" "$ICONS/${size}x${size}/apps/neurons.png" 644
done
[ -f "$RES/icons/neurons.svg" ] && put "$RES/icons/neurons.svg" "$ICONS/scalable/apps/neurons.svg" 644

# start at login: asked in a terminal (a reinstall keeps what it was), else only when told
if [ "$AUTOSTART" = ask ]; then
  AUTOSTART="$WAS_ON"
  if [ -t 0 ] && [ -t 2 ]; then
    if [ "$WAS_ON" = yes ]; then hint="[Y/n]"; else hint="[y/N]"; fi
    printf 'Start Neurons in the tray when you log in? %s ' "$hint" >&2
    read -r answer || answer=""
    case "$answer" in [yY]*) AUTOSTART=yes ;; [nN]*) AUTOSTART=no ;; esac
  fi
fi
if [ "$AUTOSTART" = yes ]; then
  [ -x "$CLI" ] || die "no $CLI to turn on start at login with"
  "$CLI" autostart on >&2 || die "could not turn on start at login"
  printf 'autostart\t%s\t%s\n' "$(sed -n 's/^Exec=//p' "$AUTOSTART_ENTRY")" "$AUTOSTART_ENTRY" >> "$NEW_MANIFEST"
elif [ "$WAS_ON" = yes ]; then
  "$CLI" autostart off >&2 || true
fi

make_dirs "$STATE"
install -m 644 -- "$NEW_MANIFEST" "$MANIFEST"
refresh_caches
say "installed the Neurons launcher: $ENTRY -> $EXEC"
say "(remove it with: $0 --uninstall; your data in $DATA_DIR is never touched)"
