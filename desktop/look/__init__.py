"""How the app looks and answers the keyboard: theme (palettes, icons, words and dates for
people), the small shared widgets, the shortcut table."""
