"""Fixtures for the check tests: a data directory with the real patterns and two incidents."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.checks import cli
from app.checks.patterns import library_data, load_grounding, load_patterns

DATA = Path(__file__).resolve().parents[2] / "data"
SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """patterns.yaml and taxonomy.yaml from data/, with incidents written here (stable IDs)."""
    shutil.copy(DATA / "patterns.yaml", tmp_path / "patterns.yaml")
    shutil.copy(DATA / "taxonomy.yaml", tmp_path / "taxonomy.yaml")
    incidents = tmp_path / "incidents"
    incidents.mkdir()
    (incidents / "IL-0064.yaml").write_text("id: IL-0064\npatterns: [replicas-colocated]\n")
    (incidents / "IL-0036.yaml").write_text(
        "id: IL-0036\npatterns: [runaway-job-retries, node-overcommit]\n"
    )
    return tmp_path


@pytest.fixture(scope="session")
def library() -> tuple[object, object]:
    data = library_data()
    return load_patterns(data), load_grounding(data)


@pytest.fixture()
def packaged(monkeypatch: pytest.MonkeyPatch, library: tuple[object, object]) -> None:
    """`check` reads the shipped patterns once per session, not per run: these tests are
    about the snapshot."""
    patterns, grounding = library
    monkeypatch.setattr(cli, "load_patterns", lambda data: patterns)
    monkeypatch.setattr(cli, "load_grounding", lambda data: grounding)
