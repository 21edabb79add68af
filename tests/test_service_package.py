"""`pip install .` (not editable) into a fresh virtual environment, run from another directory:
it builds the bundled library and serves pages, static files and vendored scripts."""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from app.config import ROOT
from tests.servers import Serve, get


def checkout(target: Path) -> Path:
    """The files of the checkout (tracked or new, not ignored) and static/vendor/ from npm."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode().split("\0")  # fmt: skip
    vendor = [str(p.relative_to(ROOT)) for p in (ROOT / "static" / "vendor").iterdir()]
    for name in [n for n in listed if n] + vendor:
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())
    return target


def test_a_plain_pip_install_builds_and_serves_from_anywhere(tmp_path: Path) -> None:
    source = checkout(tmp_path / "src")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    # The dependencies come from the test environment (a path, so its editable install of
    # this checkout is not picked up); the library itself only from the wheel.
    (Path(site) / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         "--no-build-isolation", "--no-index", str(source)],
        check=True, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [python, "-c", "import app; print(app.__file__)"],
        cwd=elsewhere, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    assert where.startswith(site), where
    command = [str(venv / "bin" / "incident-library")]
    built = subprocess.run(
        [*command, "build", "--db", "library.db"], cwd=elsewhere, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    count = sum(1 for _ in (ROOT / "data" / "incidents").glob("*.yaml"))
    assert built.stdout.startswith(f"built library.db: {count} incidents")
    server = Serve(
        elsewhere / "library.db", "--workers", "1",
        command=command, cwd=elsewhere, log=tmp_path / "serve.log",
    ).ready()  # fmt: skip
    try:
        for path in (
            "/incidents", "/incidents/IL-0129", "/graph", "/patterns", "/docs",
            "/static/app.css", "/static/vendor/htmx.min.js",
        ):  # fmt: skip
            assert get(server.base + path)[0] == 200, path
    finally:
        server.stop()
