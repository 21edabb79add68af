"""search: field-weighted FTS columns, vocabulary and synonyms

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 19:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "searchword",
        sa.Column("word", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("docs", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("word"),
    )
    op.create_table(
        "searchsynonym",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("entry", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.PrimaryKeyConstraint("group_id", "position"),
    )
    # One column per field so that bm25 can weigh them: title (with the ID), organisation,
    # tags (labels, aliases and slugs of the incident's terms), body (every section). The
    # database is always built anew from data/, so the old index is simply replaced.
    op.execute("DROP TABLE incident_fts")
    op.execute(
        "CREATE VIRTUAL TABLE incident_fts USING fts5("
        "title, organization, tags, body, content='',"
        " tokenize='porter unicode61 remove_diacritics 2')"
    )


def downgrade() -> None:
    op.execute("DROP TABLE incident_fts")
    op.execute(
        "CREATE VIRTUAL TABLE incident_fts USING fts5("
        "title, body, tags, content='', tokenize='porter unicode61 remove_diacritics 2')"
    )
    op.drop_table("searchsynonym")
    op.drop_table("searchword")
