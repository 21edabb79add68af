"""Engines for the built database: read-write while building, read-only while serving."""

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlmodel import create_engine


def make_engine(path: Path, *, read_only: bool) -> Engine:
    """An engine on the SQLite file; read-only opens it with mode=ro so serving cannot write."""
    if read_only:
        url = f"sqlite:///file:{path}?mode=ro&uri=true"
    else:
        url = f"sqlite:///{path}"
    engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
            # Read through the OS page cache shared by every connection and worker, instead of
            # warming a private cache per pooled connection (the first searches were slow).
            cursor.execute("PRAGMA mmap_size=4294967296")
        cursor.close()

    return engine
