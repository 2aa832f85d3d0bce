"""The desktop app (Qt only): main window, tray, quick capture, notifications, one instance.

It is one client of `core.memory.Memory`; `core` never imports it. Entry point: `desktop.app:main`
(`neurons-desktop`). Every Memory call runs on `desktop.worker.Worker`, never on the GUI thread.
"""
