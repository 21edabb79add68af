"""Search quality on the judged development set: the floors of issue 19.

Every query goes through the one query path. Queries naming an incident that this library
does not hold (yet) cannot be judged here and are counted apart; the floors hold for the rest.
"""

from pathlib import Path

import pytest

from app.config import ROOT
from app.evaluation import Figures, Outcome, groups, held, load_set, run
from app.store import Store

DEV = ROOT / "tests" / "search_eval" / "dev.yaml"


@pytest.fixture(scope="module")
def outcomes(store: Store) -> list[Outcome]:
    judged = load_set(DEV)
    here, _absent = held(store, judged)
    assert len(here) >= 150, f"only {len(here)} of {len(judged)} judged queries name incidents here"
    return run(store, here)


def test_the_set_covers_both_languages_all_styles_and_typos(outcomes: list[Outcome]) -> None:
    figures = groups(outcomes)
    for name in ("lang=en", "lang=ko", "style=organisation", "style=technology", "style=failure"):
        assert figures[name].queries >= 20, name
    assert figures["typo=yes"].queries >= 20


@pytest.mark.parametrize("group", ["overall", "lang=en", "lang=ko"])
def test_search_meets_the_floors(outcomes: list[Outcome], group: str) -> None:
    f: Figures = groups(outcomes)[group]
    assert f.hit5 >= 0.95, f
    assert f.hit1 >= 0.85, f
    assert f.zero <= 0.02, f


@pytest.mark.parametrize("group", ["typo=yes", "lang=en typo=yes", "lang=ko typo=yes"])
def test_search_with_one_typo_meets_the_floor(outcomes: list[Outcome], group: str) -> None:
    f = groups(outcomes)[group]
    assert f.hit5 >= 0.85, f


def test_eval_search_prints_the_figures(
    library_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    assert main(["eval-search", "--set", str(DEV), "--db", str(library_db)]) == 0
    out = capsys.readouterr().out
    assert "hit@1" in out and "MRR" in out and "lang=ko" in out and "style=failure" in out


def test_eval_search_rejects_a_missing_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    assert main(["eval-search", "--set", str(tmp_path / "none.yaml")]) == 2
    assert "none.yaml" in capsys.readouterr().err
