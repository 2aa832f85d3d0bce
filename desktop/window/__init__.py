"""The main window and what frames it: the menu bar, the status bar, the banner, the tray icon."""
