"""Reminders on time and on screen: the scheduler, the notifiers (D-Bus, tray, banner) and
the notices of reminders that fired."""
