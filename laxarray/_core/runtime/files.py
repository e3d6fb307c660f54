"""Files written whole: a temporary file in the target's directory, renamed over it.

The executable store's entries and the prefetch traces are written this way, so a reader
(another process, a later run) sees the old file or the new one, never a part.  Temporary
files start with :data:`TEMP_PREFIX`: the store's sweeps tell them from entries by it.
"""

from __future__ import annotations

import os
import tempfile

#: The name prefix of a file being written (left behind only by a process that died).
TEMP_PREFIX = ".tmp-"


def write_atomic(path, chunks) -> None:
    """Write ``chunks`` (bytes) to ``path`` through a temporary file in its directory (made
    private if missing) renamed over it: readers see the old file or the new one, never a
    part. ``OSError`` on failure (the temporary file removed)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
        os.replace(temp, path)
    except BaseException:
        remove(temp)
        raise


def remove(path) -> None:
    """Remove the file ``path`` if it is there (never raises ``OSError``)."""
    try:
        os.remove(path)
    except OSError:
        pass


__all__ = ["TEMP_PREFIX", "write_atomic", "remove"]
