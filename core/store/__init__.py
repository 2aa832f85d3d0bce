"""The database: engines, the data-dir lock, migrations and every SQL statement of Neurons."""

from core.store.lock import DataDirLock, LockHeld
from core.store.store import Store, open_store

__all__ = ["DataDirLock", "LockHeld", "Store", "open_store"]
