"""The checker ships its patterns: a plain (non-editable) install runs `check` from anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from app.config import ROOT

from .conftest import SNAPSHOTS


def test_a_built_wheel_carries_data_patterns_and_checks_from_another_directory(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("app", "data", "templates", "static", "migrations"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "setup.py", "alembic.ini"):
        shutil.copy(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps",
         "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("app/bundled/data/patterns.yaml")
        archive.extractall(tmp_path / "installed")
    assert shipped == (ROOT / "data" / "patterns.yaml").read_bytes()  # one source of truth
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "check", "--snapshot", str(SNAPSHOTS / "cluster-with-gaps.json")],
        capture_output=True, text=True, check=False, cwd=elsewhere,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "installed")},
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert "Seen in: IL-0064" in result.stdout
    probe = subprocess.run(
        [sys.executable, "-c", "import app.checks.patterns as p; print(p.library_data())"],
        capture_output=True, text=True, check=False, cwd=elsewhere,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "installed")},
    )  # fmt: skip
    assert str(tmp_path / "installed" / "app" / "bundled" / "data") in probe.stdout
