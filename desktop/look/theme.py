"""Look: icons, light and dark palettes following the system, kind colours, dates for people."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QColor, QFontDatabase, QIcon, QPalette
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
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: alt,
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: button,
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.ToolTipBase: base,
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.Highlight: ACCENT,
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: ACCENT,
        QPalette.ColorRole.PlaceholderText: placeholder,
        QPalette.ColorRole.Mid: mid,
        QPalette.ColorRole.Midlight: mid,
        QPalette.ColorRole.Dark: mid,
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
    # a checkbox's or radio button's outline: 3:1 or more against the window and the base (WCAG's
    # non-text contrast); Fusion's own (the window colour darkened) all but vanishes in the dark
    control = "#8a8a99" if dark else "#767684"
    off = "#6c6c78" if dark else "#a0a0ac"  # a checked one that cannot be changed now
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
    QComboBox {{ padding-right: 22px; background: palette(base); combobox-popup: 0; }}
    QComboBox::drop-down {{ border: none; width: 20px; subcontrol-origin: padding;
                            subcontrol-position: center right; }}
    QComboBox::down-arrow {{ image: url({icon_path("chevron-down.svg")}); width: 12px; height: 12px; }}
    QComboBox QAbstractItemView {{ border: 1px solid {border}; background: palette(base); outline: none;
                                   selection-background-color: {ACCENT}; selection-color: white; }}
    QComboBox QAbstractItemView::item {{ padding: 3px 6px; color: palette(text); border: none; }}
    QComboBox QAbstractItemView::item:selected {{ background: {ACCENT}; color: white; }}
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
    QCheckBox, QRadioButton {{ spacing: 8px; }}
    QCheckBox::indicator, QRadioButton::indicator {{ width: 14px; height: 14px;
        border: 1px solid {control}; background: palette(base); }}
    QCheckBox::indicator {{ border-radius: 4px; }}
    QRadioButton::indicator {{ border-width: 2px; width: 12px; height: 12px; border-radius: 8px; }}
    QCheckBox::indicator:hover, QRadioButton::indicator:hover {{ border-color: {ACCENT}; }}
    QCheckBox::indicator:checked, QRadioButton::indicator:checked {{ background: {ACCENT};
        border-color: {ACCENT}; }}
    QCheckBox::indicator:checked {{ image: url({icon_path("check.svg")}); }}
    QCheckBox::indicator:indeterminate {{ background: {ACCENT}; border-color: {ACCENT};
        image: url({icon_path("dash.svg")}); }}
    QRadioButton::indicator:checked {{ image: url({icon_path("radio-dot.svg")}); }}
    QCheckBox::indicator:disabled, QRadioButton::indicator:disabled {{ border-color: {border};
        background: {soft}; }}
    QCheckBox::indicator:checked:disabled, QRadioButton::indicator:checked:disabled {{
        background: {off}; border-color: {off}; }}
    """


def has_emoji_font() -> bool:
    """Qt draws emoji with the system's colour emoji font (fontconfig finds it; on Debian the
    fonts-noto-color-emoji package, which setup.sh installs); without one they are boxes."""
    return any("emoji" in family.lower() for family in QFontDatabase.families())


def gui_app() -> QApplication:
    """The running QApplication (Qt's `instance()` is typed as any core application, or none)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        raise RuntimeError("no QApplication is running")
    return app


def apply(app: QApplication, choice: str = "system") -> None:
    """Fusion with our palette: light or dark as chosen in Preferences, or following the
    system's, live."""
    app.setStyle("Fusion")
    app.setProperty("neuronsScheme", choice)

    def update(*_: object) -> None:
        dark = is_dark_system(app)
        app.setPalette(_palette(dark))
        app.setStyleSheet(stylesheet(dark))
        app.setProperty("neuronsDark", dark)

    update()
    hints = app.styleHints()
    if hasattr(hints, "colorSchemeChanged") and not app.property("neuronsFollowsScheme"):
        hints.colorSchemeChanged.connect(update)
        app.setProperty("neuronsFollowsScheme", True)


def is_dark_system(app: QApplication) -> bool:
    forced = app.property("neuronsScheme")
    if forced not in ("dark", "light"):
        forced = os.environ.get("NEURONS_THEME")
    if forced in ("dark", "light"):
        return forced == "dark"
    hints = app.styleHints()
    scheme = hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown
    return scheme == Qt.ColorScheme.Dark


def dark_now() -> bool:
    app = QApplication.instance()
    return bool(app.property("neuronsDark")) if app is not None else False


# -- words for times -----------------------------------------------------------------------------

# How dates and times are written, in the languages capture reads (Preferences ▸ Dates in).
# Day and month names come from Qt's locale data; these are the words around them.
DATE_WORDS: dict[str, dict[str, str]] = {
    "en": dict(
        next_reminder="Next reminder {}",
        tray_overdue="{} overdue: {}",
        tray_more="and {} more",
        tray_next="Next: {}, {}",
        tray_nothing="Nothing due",
        tray_paused="reminders paused",
        paused="Reminders paused",
        today="today",
        tomorrow="tomorrow",
        yesterday="yesterday",
        now="now",
        future="in {}",
        past="{} ago",
        s="s",
        min="min",
        h="h",
        d="d",
        mo="mo",
        due="due {}",
        done="done {}",
        done_plain="done",
        no_due="no due time",
        snoozed="snoozed to {}",
        overdue="overdue",
        created="created {}",
    ),
    "pt": dict(
        next_reminder="Próximo lembrete {}",
        tray_overdue="{} atrasados: {}",
        tray_more="e mais {}",
        tray_next="A seguir: {}, {}",
        tray_nothing="Nada por fazer",
        tray_paused="lembretes em pausa",
        paused="Lembretes em pausa",
        today="hoje",
        tomorrow="amanhã",
        yesterday="ontem",
        now="agora",
        future="daqui a {}",
        past="há {}",
        s="s",
        min="min",
        h="h",
        d="d",
        mo="m",
        due="para {}",
        done="feito {}",
        done_plain="feito",
        no_due="sem hora",
        snoozed="adiado para {}",
        overdue="atrasado",
        created="criado {}",
    ),
    "es": dict(
        next_reminder="Próximo recordatorio {}",
        tray_overdue="{} atrasados: {}",
        tray_more="y {} más",
        tray_next="Siguiente: {}, {}",
        tray_nothing="Nada pendiente",
        tray_paused="recordatorios en pausa",
        paused="Recordatorios en pausa",
        today="hoy",
        tomorrow="mañana",
        yesterday="ayer",
        now="ahora",
        future="en {}",
        past="hace {}",
        s="s",
        min="min",
        h="h",
        d="d",
        mo="m",
        due="para {}",
        done="hecho {}",
        done_plain="hecho",
        no_due="sin hora",
        snoozed="pospuesto a {}",
        overdue="atrasado",
        created="creado {}",
    ),
    "de": dict(
        next_reminder="Nächste Erinnerung {}",
        tray_overdue="{} überfällig: {}",
        tray_more="und {} weitere",
        tray_next="Als Nächstes: {}, {}",
        tray_nothing="Nichts fällig",
        tray_paused="Erinnerungen pausiert",
        paused="Erinnerungen pausiert",
        today="heute",
        tomorrow="morgen",
        yesterday="gestern",
        now="jetzt",
        future="in {}",
        past="vor {}",
        s="s",
        min="Min.",
        h="Std.",
        d="T.",
        mo="Mon.",
        due="fällig {}",
        done="erledigt {}",
        done_plain="erledigt",
        no_due="ohne Termin",
        snoozed="verschoben auf {}",
        overdue="überfällig",
        created="erstellt {}",
    ),
    "fr": dict(
        next_reminder="Prochain rappel {}",
        tray_overdue="{} en retard : {}",
        tray_more="et {} de plus",
        tray_next="Ensuite : {}, {}",
        tray_nothing="Rien à faire",
        tray_paused="rappels en pause",
        paused="Rappels en pause",
        today="aujourd’hui",
        tomorrow="demain",
        yesterday="hier",
        now="maintenant",
        future="dans {}",
        past="il y a {}",
        s="s",
        min="min",
        h="h",
        d="j",
        mo="mois",
        due="pour {}",
        done="fait {}",
        done_plain="fait",
        no_due="sans heure",
        snoozed="reporté à {}",
        overdue="en retard",
        created="créé {}",
    ),
}
_QT_LANGUAGES = {
    "en": QLocale.Language.English,
    "pt": QLocale.Language.Portuguese,
    "es": QLocale.Language.Spanish,
    "de": QLocale.Language.German,
    "fr": QLocale.Language.French,
}


def set_language(app: QApplication, code: str) -> None:
    """ "" follows the system (English when it is none of the five)."""
    if code not in DATE_WORDS:
        system = QLocale.system().name()[:2]
        code = system if system in DATE_WORDS else "en"
    app.setProperty("neuronsLanguage", code)


def language() -> str:
    app = QApplication.instance()
    code = app.property("neuronsLanguage") if app is not None else None
    return code if code in DATE_WORDS else "en"


def word(key: str) -> str:
    return DATE_WORDS[language()][key]


def local(dt: datetime) -> datetime:
    return dt.astimezone(remind.local_zone())


def when_text(dt: datetime | None, now: datetime) -> str:
    """'today 14:30', 'tomorrow 09:00', 'Fri 13 Jun 10:00', '13 Jun 2024' (in the chosen language);
    nothing for no time."""
    if dt is None:
        return ""
    d, n = local(dt), local(now)
    days = (d.date() - n.date()).days
    hm = d.strftime("%H:%M")
    if days in (0, 1, -1):
        return f"{word({0: 'today', 1: 'tomorrow', -1: 'yesterday'}[days])} {hm}"
    names = QLocale(_QT_LANGUAGES[language()])
    month = names.monthName(d.month, QLocale.FormatType.ShortFormat)
    if -6 <= days <= 6:
        return f"{names.dayName(d.isoweekday(), QLocale.FormatType.ShortFormat)} {d.day} {month} {hm}"
    if d.year == n.year:
        return f"{d.day} {month} {hm}"
    return f"{d.day} {month} {d.year}"


def relative(dt: datetime, now: datetime) -> str:
    delta = dt - now
    future = delta > timedelta(0)
    s = abs(delta.total_seconds())
    if s < 5:
        return word("now")
    if s < 60:
        text = f"{int(s)} {word('s')}"
    elif s < 3600:
        text = f"{int(s // 60)} {word('min')}"
    elif s < 86400:
        text = f"{int(s // 3600)} {word('h')}"
    elif s < 86400 * 60:
        text = f"{int(s // 86400)} {word('d')}"
    else:
        text = f"{int(s // (86400 * 30))} {word('mo')}"
    return word("future" if future else "past").format(text)


def repeat_text(rrule: str | None) -> str:
    """The rule in words, in the dates' language (core.when.spoken): never the raw RRULE."""
    from core.when.spoken import say_rule  # noqa: PLC0415 - loaded after the window's first paint

    return say_rule(rrule, language())


def subtitle(neuron: Neuron, now: datetime, at: datetime | None = None) -> tuple[str, bool]:
    """The second line of a row: the date that matters for its kind; bool: overdue. `at`: when a
    reminder is due inside a question's time (a repeat's occurrence there), shown instead."""
    if neuron.kind is Kind.REMINDER:
        due = remind.task_due(neuron) or remind.current_due(neuron)  # a task that starts first: its due
        if at is not None and neuron.state is not State.DONE:
            due = at
        if neuron.state is State.DONE:
            done = neuron.attrs.get("done_at")
            try:
                when = remind.parse_time(done) if done else neuron.updated_at
            except Exception:  # noqa: BLE001 - a stored time that cannot be read: the row shows its update time
                when = neuron.updated_at
            return (word("done").format(when_text(when, now)) if when else word("done_plain")), False
        if due is None:
            return word("no_due"), False
        overdue = remind.is_overdue(neuron, now) and (at is None or at <= now)
        parts = [word("due").format(when_text(due, now)), f"({relative(due, now)})"]
        snoozed = neuron.attrs.get("snoozed_until")
        if snoozed:
            try:
                s = remind.parse_time(snoozed)
                if s and s > now:
                    parts.append("· " + word("snoozed").format(when_text(s, now)))
            except Exception:  # noqa: BLE001 - a stored time that cannot be read: no snooze shown
                pass
        if neuron.attrs.get("rrule"):
            parts.append(f"· {repeat_text(neuron.attrs.get('rrule'))}")
        return " ".join(parts), overdue
    if neuron.kind is Kind.CONTACT:  # the primary phone and e-mail, to call or write (and copy)
        bits = [*primary(neuron), str(neuron.attrs.get("org") or "")]
        aliases = neuron.attrs.get("aliases")
        if aliases:
            bits.insert(0, "aka " + ", ".join(str(a) for a in aliases))
        return " · ".join(b for b in bits if b), False
    return (when_text(neuron.created_at, now) if neuron.created_at else ""), False


def primary(contact: Neuron) -> list[str]:
    """A contact's first phone and first e-mail, those it has, as people read them."""
    if contact.kind is not Kind.CONTACT:
        return []
    return [values[0] for f in ("phones", "emails") if (values := contact_shown(contact.attrs, f))]


def contact_shown(attrs: dict, field: str) -> list[str]:
    """A card's phones or e-mails as shown: the numbers grouped, as written in their region."""
    from core.capture import contact_values  # noqa: PLC0415 - loaded after the window's first paint
    from core.interop import phones  # noqa: PLC0415 - loaded after the window's first paint

    values = contact_values(attrs, field)
    return [phones.shown(v) for v in values] if field == "phones" else values


def colour(name: str | Kind) -> QColor:
    if isinstance(name, Kind):
        return QColor(KIND_COLOURS[name])
    return QColor(name)


__all__ = [
    "ACCENT",
    "KIND_COLOURS",
    "KIND_LABELS",
    "OVERDUE",
    "app_icon",
    "apply",
    "colour",
    "dark_now",
    "icon_path",
    "relative",
    "repeat_text",
    "set_language",
    "subtitle",
    "tray_icon",
    "when_text",
    "word",
]
