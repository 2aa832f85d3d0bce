"""The look: a checkbox or radio button drawn in our palettes can be seen, checked or not.

Each is drawn by the real style (Fusion under our style sheet) and grabbed; its indicator's
pixels are compared with the window behind it by WCAG's contrast ratio, which asks 3:1 of a
control's outline (non-text contrast, WCAG 2.1 1.4.11)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QCheckBox, QRadioButton, QStyle, QStyleOptionButton, QWidget

from desktop.look import theme

OUTLINE = 3.0  # WCAG 2.1's non-text contrast


def luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def indicator(qtbot, kind: type, checked: bool) -> tuple[QImage, QRect, QColor]:
    """The grabbed control, its indicator's rectangle in device pixels, the window colour behind."""
    holder = QWidget()
    holder.setAutoFillBackground(True)
    box = kind("Start Neurons in the tray when I log in", holder)
    box.setChecked(checked)
    box.move(8, 8)
    holder.resize(box.sizeHint().width() + 16, box.sizeHint().height() + 16)
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitExposed(holder)
    option = QStyleOptionButton()
    box.initStyleOption(option)
    element = (
        QStyle.SubElement.SE_CheckBoxIndicator
        if kind is QCheckBox
        else QStyle.SubElement.SE_RadioButtonIndicator
    )
    rect = box.style().subElementRect(element, option, box).translated(box.pos())
    image = holder.grab().toImage()
    r = image.devicePixelRatio()
    device = QRect(int(rect.x() * r), int(rect.y() * r), int(rect.width() * r), int(rect.height() * r))
    return image, device, holder.palette().color(QPalette.ColorRole.Window)


def sides_outlined(image: QImage, rect: QRect, window: QColor) -> dict[str, float]:
    """For each side, the share of its middle half where a pixel within the outer quarter of
    the indicator stands 3:1 from the window (1.0: that side is outlined all along)."""
    depth = max(2, rect.width() // 4)
    span = range(rect.width() // 4, rect.width() - rect.width() // 4)
    found = {}
    for side in ("left", "right", "top", "bottom"):
        hits = 0
        for along in span:
            for into in range(depth):
                x, y = {
                    "left": (rect.left() + into, rect.top() + along),
                    "right": (rect.right() - into, rect.top() + along),
                    "top": (rect.left() + along, rect.top() + into),
                    "bottom": (rect.left() + along, rect.bottom() - into),
                }[side]
                if contrast(image.pixelColor(x, y), window) >= OUTLINE:
                    hits += 1
                    break
        found[side] = hits / len(span)
    return found


@pytest.fixture(params=["dark", "light"])
def scheme(request):
    theme.apply(theme.gui_app(), request.param)
    yield request.param
    theme.apply(theme.gui_app(), "light")


@pytest.mark.parametrize("kind", [QCheckBox, QRadioButton], ids=["checkbox", "radio"])
def test_a_checkbox_or_radio_is_outlined_clearly_against_the_window(qtbot, scheme, kind):
    """Unchecked, its outline stands 3:1 from the window all around; checked, its mark stands
    3:1 from what the unchecked one shows there."""
    image, rect, window = indicator(qtbot, kind, checked=False)
    assert sides_outlined(image, rect, window) == {"left": 1.0, "right": 1.0, "top": 1.0, "bottom": 1.0}

    checked, _, _ = indicator(qtbot, kind, checked=True)
    pixels = [
        (x, y) for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1)
    ]
    marked = [p for p in pixels if contrast(checked.pixelColor(*p), image.pixelColor(*p)) >= OUTLINE]
    assert len(marked) >= rect.width(), (scheme, len(marked))  # a mark, not a tint
