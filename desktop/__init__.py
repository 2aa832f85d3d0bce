"""The desktop app (Qt only): main window, tray, quick capture, notifications, one instance.

It is one client of `core.memory.Memory`; `core` never imports it. Entry point:
`desktop.launch:main` (`neurons-desktop`: it loads no Qt until a window will show, then runs
`desktop.app.run`). Every Memory call runs on `desktop.runtime.worker.Worker`, never on the GUI thread.
"""
