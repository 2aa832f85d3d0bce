"""Look: icons, light and dark palettes following the system, kind colours, dates for people."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from core import remind
from core.model import Kind, Neuron, State
from core.settings import resources_dir

KIND_COLOURS = {Kind.NOTE: "#4c8dff", Kind.REMINDER: "#f0a020", Kind.CONTACT: "#22b07d"}
KIND_LABELS = {Kind.NOTE: "Note", Kind.REMINDER: "Reminder", Kind.CONTACT: "Contact"}
OVERDUE = "#e5484d"
ACCENT = "#6a55f5"


def icon_path(name: str) -> str:
    return str(resources_dir() / "icons" / name)


def app_icon() -> QIcon:
    icon = QIcon()
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        icon.addFile(icon_path(f"neurons-{size}.png"))
    return icon


def tray_icon(paused: bool = False) -> QIcon:
    return QIcon(icon_path("neurons-tray-paused.svg" if paused else "neurons-tray.svg"))


def _palette(dark: bool) -> QPalette:
    p = QPalette()
    if dark:
        base, window, text, alt, mid = "#1c1c22", "#23232b", "#e8e8ef", "#26262f", "#3a3a46"
        button, placeholder, disabled = "#2c2c36", "#8a8a99", "#6c6c78"
    else:
        base, window, text, alt, mid = "#ffffff", "#f4f4f8", "#1d1d24", "#f7f7fb", "#d6d6e0"
        button, placeholder, disabled = "#ffffff", "#8b8b98", "#a0a0ac"
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: alt,
        QPalette.ColorRole.Text: text, QPalette.ColorRole.Button: button,
        QPalette.ColorRole.ButtonText: text, QPalette.ColorRole.ToolTipBase: base,
        QPalette.ColorRole.ToolTipText: text, QPalette.ColorRole.Highlight: ACCENT,
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.Link: ACCENT,
        QPalette.ColorRole.PlaceholderText: placeholder, QPalette.ColorRole.Mid: mid,
        QPalette.ColorRole.Midlight: mid, QPalette.ColorRole.Dark: mid,
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return p


def stylesheet(dark: bool) -> str:
    border = "#3a3a46" if dark else "#dcdce6"
    soft = "#2a2a34" if dark else "#ebebf3"
    sidebar = "#1f1f27" if dark else "#ececf3"
    subtle = "#9a9aa8" if dark else "#6b6b78"
    return f"""
    QMainWindow, QDialog {{ font-size: 10pt; }}
    #askBox {{ font-size: 13pt; padding: 8px 12px; border: 1px solid {border}; border-radius: 10px; }}
    #askBox:focus {{ border: 2px solid {ACCENT}; padding: 7px 11px; }}
    #sidebar {{ background: {sidebar}; border: none; border-right: 1px solid {border};
                padding-top: 6px; outline: none; }}
    #sidebar::item {{ padding: 6px 10px; border-radius: 6px; margin: 1px 6px; }}
    #sidebar::item:selected {{ background: {ACCENT}; color: white; }}
    #rows {{ border: none; outline: none; }}
    #rows::item {{ border-bottom: 1px solid {soft}; }}
    #rows::item:selected {{ background: {soft}; color: palette(text); }}
    #listTitle {{ font-size: 13pt; font-weight: 600; }}
    #subtle, #hint {{ color: {subtle}; }}
    #detail {{ border-left: 1px solid {border}; }}
    #detailTitle {{ font-size: 14pt; font-weight: 600; }}
    #chip {{ border-radius: 8px; padding: 1px 8px; color: white; font-weight: 600; font-size: 9pt; }}
    #banner {{ background: {"#3b2f12" if dark else "#fff4d6"}; border: 1px solid
               {"#6b5520" if dark else "#f0d48a"}; border-radius: 8px; }}
    #emptyState {{ color: {subtle}; font-size: 11pt; }}
    QPlainTextEdit, QLineEdit, QComboBox {{ border: 1px solid {border}; border-radius: 6px;
                                            padding: 4px 6px; }}
    QPlainTextEdit:focus, QLineEdit:focus, QComboBox:focus {{ border: 1px solid {ACCENT}; }}
    QComboBox {{ padding-right: 22px; background: palette(base); }}
    QComboBox::drop-down {{ border: none; width: 20px; subcontrol-origin: padding;
                            subcontrol-position: center right; }}
    QComboBox::down-arrow {{ image: url({icon_path("chevron-down.svg")}); width: 12px; height: 12px; }}
    QComboBox QAbstractItemView {{ border: 1px solid {border}; selection-background-color: {ACCENT}; }}
    QPushButton, QToolButton {{ border: 1px solid {border}; border-radius: 6px; padding: 5px 12px;
                                background: palette(button); }}
    QToolButton::menu-indicator {{ image: none; width: 0; }}
    QPushButton:hover, QToolButton:hover {{ border-color: {ACCENT}; }}
    QPushButton:focus, QToolButton:focus {{ border: 1px solid {ACCENT}; }}
    QPushButton#linkButton {{ border: none; background: transparent; color: {ACCENT}; text-align: left;
                               padding: 2px 0; }}
    QPushButton#linkButton:hover {{ text-decoration: underline; }}
    #links {{ border: 1px solid {border}; border-radius: 6px; }}
    #links::item {{ padding: 4px 6px; }}
    QPushButton#primary {{ background: {ACCENT}; color: white; border-color: {ACCENT}; }}
    QPushButton:disabled, QToolButton:disabled {{ color: {subtle}; }}
    QPushButton#primary:disabled {{ background: transparent; color: {subtle}; border-color: {border}; }}
    QToolTip {{ border: 1px solid {border}; padding: 4px; }}
    """


def apply(app: QApplication) -> None:
    """Fusion with our palette, following the system's light or dark, live."""
    app.setStyle("Fusion")

    def update(*_: object) -> None:
        dark = is_dark_system(app)
        app.setPalette(_palette(dark))
        app.setStyleSheet(stylesheet(dark))
        app.setProperty("neuronsDark", dark)

    update()
    hints = app.styleHints()
    if hasattr(hints, "colorSchemeChanged"):
        hints.colorSchemeChanged.connect(update)


def is_dark_system(app: QApplication) -> bool:
    forced = app.property("neuronsForceScheme") or os.environ.get("NEURONS_THEME")
    if forced in ("dark", "light"):
        return forced == "dark"
    hints = app.styleHints()
    scheme = hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown
    return scheme == Qt.ColorScheme.Dark


def dark_now() -> bool:
    app = QApplication.instance()
    return bool(app.property("neuronsDark")) if app is not None else False


# -- words for times -----------------------------------------------------------------------------

def local(dt: datetime) -> datetime:
    return dt.astimezone(remind.local_zone())


def when_text(dt: datetime, now: datetime) -> str:
    """'today 14:30', 'tomorrow 09:00', 'Fri 13 Jun 10:00', '13 Jun 2024'."""
    d, n = local(dt), local(now)
    days = (d.date() - n.date()).days
    hm = d.strftime("%H:%M")
    if days == 0:
        return f"today {hm}"
    if days == 1:
        return f"tomorrow {hm}"
    if days == -1:
        return f"yesterday {hm}"
    if -6 <= days <= 6:
        return f"{d.strftime('%a')} {d.day} {d.strftime('%b')} {hm}"
    if d.year == n.year:
        return f"{d.day} {d.strftime('%b')} {hm}"
    return f"{d.day} {d.strftime('%b %Y')}"


def relative(dt: datetime, now: datetime) -> str:
    delta = dt - now
    future = delta > timedelta(0)
    s = abs(delta.total_seconds())
    if s < 60:
        text = "now" if s < 5 else f"{int(s)} s"
    elif s < 3600:
        text = f"{int(s // 60)} min"
    elif s < 86400:
        text = f"{int(s // 3600)} h"
    elif s < 86400 * 60:
        text = f"{int(s // 86400)} d"
    else:
        text = f"{int(s // (86400 * 30))} mo"
    if text == "now":
        return text
    return f"in {text}" if future else f"{text} ago"


REPEAT_WORDS = {"FREQ=DAILY": "every day", "FREQ=WEEKLY": "every week",
                "FREQ=MONTHLY": "every month", "FREQ=YEARLY": "every year"}


def repeat_text(rrule: str | None) -> str:
    if not rrule:
        return ""
    return REPEAT_WORDS.get(str(rrule).upper().removeprefix("RRULE:"), f"repeats ({rrule})")


def subtitle(neuron: Neuron, now: datetime) -> tuple[str, bool]:
    """The second line of a row: the date that matters for its kind; bool: overdue."""
    if neuron.kind is Kind.REMINDER:
        due = remind.current_due(neuron)
        if neuron.state is State.DONE:
            done = neuron.attrs.get("done_at")
            try:
                when = remind.parse_time(done) if done else neuron.updated_at
            except Exception:
                when = neuron.updated_at
            return (f"done {when_text(when, now)}" if when else "done"), False
        if due is None:
            return "no due time", False
        overdue = remind.is_overdue(neuron, now)
        parts = [f"due {when_text(due, now)}", f"({relative(due, now)})"]
        snoozed = neuron.attrs.get("snoozed_until")
        if snoozed:
            try:
                s = remind.parse_time(snoozed)
                if s and s > now:
                    parts.append(f"· snoozed to {when_text(s, now)}")
            except Exception:
                pass
        if neuron.attrs.get("rrule"):
            parts.append(f"· {repeat_text(neuron.attrs.get('rrule'))}")
        return " ".join(parts), overdue
    if neuron.kind is Kind.CONTACT:
        bits = [str(neuron.attrs[k]) for k in ("org", "phone", "email") if neuron.attrs.get(k)]
        aliases = neuron.attrs.get("aliases")
        if aliases:
            bits.insert(0, "aka " + ", ".join(str(a) for a in aliases))
        return " · ".join(bits) or "contact", False
    return (when_text(neuron.created_at, now) if neuron.created_at else ""), False


def colour(name: str | Kind) -> QColor:
    if isinstance(name, Kind):
        return QColor(KIND_COLOURS[name])
    return QColor(name)


__all__ = ["ACCENT", "KIND_COLOURS", "KIND_LABELS", "OVERDUE", "app_icon", "apply", "colour",
           "dark_now", "icon_path", "relative", "repeat_text", "subtitle", "tray_icon", "when_text"]
