"""The schema comes only from migrations/, and the models do not drift from it."""

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.config import ROOT
from app.importer import migrate


def migrated(db: Path) -> Config:
    """An Alembic config for a database just upgraded to head."""
    migrate(db)
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", f"sqlite:///{db}")
    return config


def test_upgrade_to_head_then_check_reports_no_drift(tmp_path: Path) -> None:
    command.check(migrated(tmp_path / "empty.db"))  # raises if autogenerate proposes a change


def test_downgrade_to_base_and_back(tmp_path: Path) -> None:
    config = migrated(tmp_path / "lib.db")
    command.downgrade(config, "base")
    command.upgrade(config, "head")
