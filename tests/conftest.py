"""Shared fixtures: one library database built from data/ through the real migrations and
importer, an app over it, and HTTP clients. Import and CLI tests build their own databases."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import ROOT, Settings
from app.importer import build
from app.main import create_app
from app.store import Store

DATA = Path(os.environ.get("IL_TEST_DATA", ROOT / "data"))
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def library_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("library") / "incidents.db"
    build(DATA, path)
    return path


@pytest.fixture(scope="session")
def settings(library_db: Path) -> Settings:
    return Settings(database_path=library_db)


@pytest.fixture(scope="session")
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture()
def client(app: FastAPI) -> Iterator[TestClient]:
    """A fresh client per test, so a language cookie never leaks between tests."""
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def store(library_db: Path) -> Store:
    return Store(library_db)


@pytest.fixture()
def small_data(tmp_path: Path) -> Path:
    """A tiny library: the real taxonomy and patterns, and the fixture incidents."""
    target = tmp_path / "data"
    (target / "incidents").mkdir(parents=True)
    shutil.copy(DATA / "taxonomy.yaml", target / "taxonomy.yaml")
    if (DATA / "patterns.yaml").exists():
        shutil.copy(DATA / "patterns.yaml", target / "patterns.yaml")
    for path in (FIXTURES / "incidents").iterdir():
        shutil.copy(path, target / "incidents" / path.name)
    return target


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path, *, workers: int = 1) -> tuple[subprocess.Popen[bytes], str]:
    """`incident-library serve` on a free loopback port, waited for until it answers."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app.cli",
            "serve",
            "--db",
            str(db),
            "--port",
            str(port),
            "--workers",
            str(workers),
        ],
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/static/app.css", timeout=1)
            return process, base
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the server did not start")


@pytest.fixture(scope="session")
def server(library_db: Path) -> Iterator[str]:
    process, base = start_server(library_db)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
