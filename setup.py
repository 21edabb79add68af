"""Packaging hook: a built wheel carries the library's own files inside the package.

templates/, static/ (with static/vendor/, filled from npm by scripts/setup.sh), migrations/,
data/ and alembic.ini are copied to app/bundled/ in the wheel, where app.config.bundled() finds
them; a checkout or an editable install reads them where they are. Everything else about the
package is in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = ("templates", "static", "migrations", "data", "alembic.ini")
VENDOR = ("htmx.min.js",)


class BuildPyWithBundledFiles(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        missing = [name for name in VENDOR if not (HERE / "static" / "vendor" / name).is_file()]
        if missing:
            raise SystemExit(
                f"static/vendor/ lacks {', '.join(missing)}: run scripts/setup.sh (npm ci) first"
            )
        target = Path(self.build_lib) / "app" / "bundled"
        shutil.rmtree(target, ignore_errors=True)
        skip = shutil.ignore_patterns("__pycache__", "*.pyc")
        for name in BUNDLED:
            source = HERE / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=skip)
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildPyWithBundledFiles})
