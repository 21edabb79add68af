"""Settings, passed into create_app() rather than read from a global."""

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Where the database, data and templates live; read from IL_* environment variables."""

    model_config = SettingsConfigDict(env_prefix="IL_")

    database_path: Path = ROOT / "incidents.db"
    data_dir: Path = ROOT / "data"
    templates_dir: Path = ROOT / "templates"
    static_dir: Path = ROOT / "static"
    page_size: int = 20
    search_cache_size: int = 256
    page_cache_size: int = 256  # rendered list pages kept per process (about 120 KB each)
    max_check_upload_bytes: int = 5_000_000
    # Origins allowed to read the API, feeds and exports from a browser (CORS); empty = off.
    # IL_CORS_ORIGINS='["*"]' or `serve --cors` (any origin) turns it on.
    cors_origins: list[str] = []
