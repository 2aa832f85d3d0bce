"""The app's plumbing, no widgets: the worker and its lanes, the Context the parts share,
start-up steps, problems kept for the session, crash reports, the stored preferences, undo,
the background syncer."""
