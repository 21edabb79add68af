"""Rendered pages shared by the worker processes of one server, as files in one directory.

Each worker keeps its own in-memory LRU (app.templating.PageCache); without this, every worker
renders every page once for itself, and with two workers half of the first visits to a page
were misses (20-80 ms at 100,000 incidents) that one worker had already rendered. The
directory is made and removed by `incident-library serve` (IL_PAGE_CACHE_DIR).
"""

import hashlib
import os
import threading
from pathlib import Path

SWEEP_EVERY = 64  # writes between two looks at the directory's size


class SharedPages:
    """Page bodies by key, in files named after the database build and the key's hash.

    Writes are atomic (a temporary file renamed into place), so a reader sees a whole page or
    none; a new database build gets new names, so no worker ever reads a page of another build.
    The directory holds at most about `size` pages; the least recently written go first.
    """

    def __init__(self, directory: Path, build: str, size: int) -> None:
        self.directory = directory
        self.prefix = f"{build}-"
        self.size = size
        self._writes = 0
        self._lock = threading.Lock()
        directory.mkdir(parents=True, exist_ok=True)
        self._sweep(other_builds=True)

    def _path(self, key: tuple[str, ...]) -> Path:
        digest = hashlib.sha256("\0".join(key).encode()).hexdigest()[:40]
        return self.directory / f"{self.prefix}{digest}"

    def read(self, key: tuple[str, ...]) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except OSError:
            return None

    def write(self, key: tuple[str, ...], body: bytes) -> None:
        path = self._path(key)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        try:
            temporary.write_bytes(body)
            os.replace(temporary, path)
        except OSError:  # a full or vanished directory costs a render, never a request
            temporary.unlink(missing_ok=True)
            return
        with self._lock:
            self._writes += 1
            due = self._writes % SWEEP_EVERY == 0
        if due:
            self._sweep()

    def _sweep(self, *, other_builds: bool = False) -> None:
        """Drop the oldest pages beyond `size` (and, at start, every other build's pages)."""
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            return
        ours = []
        for entry in entries:
            if entry.name.startswith(self.prefix):
                try:
                    ours.append((entry.stat().st_mtime_ns, entry.path))
                except OSError:
                    continue
            elif other_builds and not entry.name.startswith("."):
                _remove(entry.path)
        ours.sort()
        for _, path in ours[: max(0, len(ours) - self.size)]:
            _remove(path)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
