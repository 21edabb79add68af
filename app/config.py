"""Settings, passed into create_app() rather than read from a global; where bundled files live."""

from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Literal

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent  # the checkout (tests use it; Settings do not)


@cache
def _bundle_root() -> Path:
    # A built wheel carries templates/, static/, migrations/, data/ and alembic.ini inside the
    # package, under app/bundled/ (setup.py copies them there); a checkout or an editable install
    # has no app/bundled/ and serves them from the checkout itself.
    packaged = Path(str(files("app"))) / "bundled"
    return packaged if packaged.is_dir() else ROOT


def bundled(path: str) -> Path:
    """A file shipped with the library (`bundled("data/patterns.yaml")`), wherever it is installed.

    The one answer to "where is the bundled data": settings, the importer and the checker all
    ask here, so an installed copy never reads files beside a source tree it does not have.
    """
    return _bundle_root() / path


class Settings(BaseSettings):
    """Every setting of the library; each is also an IL_* environment variable (README table)."""

    model_config = SettingsConfigDict(env_prefix="IL_")

    database_path: Path = Path("incidents.db")
    data_dir: Path = bundled("data")
    templates_dir: Path = bundled("templates")
    static_dir: Path = bundled("static")
    page_size: int = 20
    search_cache_size: int = 256
    page_cache_size: int = 256  # rendered list pages kept per process (about 120 KB each)
    page_cache_dir: Path | None = None  # pages shared by a server's workers (`serve` makes one)
    max_check_upload_bytes: int = 5_000_000
    # Origins allowed to read the API, feeds and exports from a browser (CORS); empty = off.
    # IL_CORS_ORIGINS='["*"]' or `serve --cors` (any origin) turns it on.
    cors_origins: list[str] = []
    # Serving (read by `incident-library serve` and by the app it starts).
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 0  # 0: one process per core
    root_path: str = ""  # the path prefix a proxy serves the library under, e.g. /library
    forwarded_allow_ips: str = ""  # proxies whose X-Forwarded-* headers are believed
    log_format: Literal["plain", "json"] = "plain"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    access_log: bool = True
    access_log_probes: bool = False  # also log /healthz, /readyz and /metrics

    @field_validator("root_path")
    @classmethod
    def _root_path(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if value and (not value.startswith("/") or "//" in value or "?" in value or "#" in value):
            raise ValueError(f"'{value}' is not a path prefix like /library")
        return value
