"""Shared fixtures: one library database built from data/ through the real migrations and
importer, an app over it, and HTTP clients. Import and CLI tests build their own databases."""

import os
import shutil
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
