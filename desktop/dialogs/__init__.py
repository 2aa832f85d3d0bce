"""The dialogs: Preferences, Help (Keyboard shortcuts, About), Problems, Profile, sync accounts,
import and export."""
