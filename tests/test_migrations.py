"""The schema comes only from migrations/, and the models do not drift from it."""

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.config import ROOT
from app.importer import migrate


def test_upgrade_to_head_then_check_reports_no_drift(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    migrate(db)
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", f"sqlite:///{db}")
    command.check(config)  # raises if autogenerate would propose any change


def test_downgrade_to_base_and_back(tmp_path: Path) -> None:
    db = tmp_path / "lib.db"
    migrate(db)
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", f"sqlite:///{db}")
    command.downgrade(config, "base")
    command.upgrade(config, "head")
