"""Fixtures for the check tests: a data directory with the real patterns and two incidents."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

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
