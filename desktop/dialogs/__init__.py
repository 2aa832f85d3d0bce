"""The dialogs: Preferences (with Keyboard shortcuts and About), Profile, sync accounts,
import and export."""
