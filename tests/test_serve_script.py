"""scripts/serve.sh as the README tells a new user to run it: nothing reinstalled when nothing
changed, the database rebuilt only when data/ changed, and a line saying where it serves."""

import os
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from app.config import ROOT
from tests.conftest import free_port


def test_serve_script_skips_unchanged_installs_and_prints_the_url(
    library_db: Path, tmp_path: Path
) -> None:
    subprocess.run([ROOT / "scripts" / "setup.sh"], cwd=ROOT, check=True, capture_output=True)
    db = tmp_path / "incidents.db"
    shutil.copy2(library_db, db)  # built after every file of data/: nothing to rebuild
    port = free_port()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "DB": str(db)}
    process = subprocess.Popen(
        [ROOT / "scripts" / "serve.sh", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    lines = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
            if line.startswith("serving on"):
                break
        url = f"http://127.0.0.1:{port}/incidents"
        assert f"serving on {url} (Ctrl-C stops)" in lines, lines
        assert "setup: Python packages up to date (pyproject.toml unchanged)" in lines
        assert "setup: npm packages up to date (package-lock.json unchanged)" in lines
        assert f"serve: {db} is up to date with data/" in lines
        with urllib.request.urlopen(url, timeout=5) as response:
            assert response.status == 200
    finally:
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in the terminal sends
        process.wait(timeout=15)
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/incidents", timeout=2)
        raise AssertionError("the server still answers after Ctrl-C")
    except OSError:
        pass
