"""build and validate: every file checked, problems named, the old database left alone."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from app.cli import main
from app.config import Settings
from app.datafiles import load_yaml
from app.importer import DataError, build, validate
from app.main import create_app


def count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM incident").fetchone()[0])


def test_build_loads_every_fixture_incident(small_data: Path, tmp_path: Path) -> None:
    db = tmp_path / "lib.db"
    assert build(small_data, db) == 4
    assert count(db) == 4
    with sqlite3.connect(db) as conn:
        ranks = conn.execute("SELECT slug FROM incident ORDER BY sort_rank").fetchall()
    # newest first: Neon 2025-05-16, 2i2c 2020-10-28, Moonlight 2019-01, Universe 2017
    assert [r[0] for r in ranks] == ["IL-0006", "IL-0094", "IL-0064", "IL-0036"]


def test_rebuild_gives_the_same_database_content(small_data: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    build(small_data, first)
    build(small_data, second)
    dump = []
    for db in (first, second):
        with sqlite3.connect(db) as conn:
            dump.append(
                conn.execute(
                    "SELECT slug, sort_rank, tags_json FROM incident ORDER BY slug"
                ).fetchall()
            )
    assert dump[0] == dump[1]


def test_invalid_file_is_reported_with_path_field_and_reason(small_data: Path) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["tags"]["cause"] = ["not-a-cause"]
    del record["lessons"]
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    problems = {(Path(p.path).name, p.field) for p in error.value.problems}
    assert ("IL-0064.yaml", "lessons") in problems


def test_unknown_tag_is_rejected(small_data: Path) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["tags"]["cause"] = ["not-a-cause"]
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    [problem] = error.value.problems
    assert problem.field == "tags.cause"
    assert "not-a-cause" in problem.reason


def test_terms_that_contradict_each_other_are_not_tagged_together(small_data: Path) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["tags"]["symptom"] = ["no-user-impact", "partial-outage"]
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    [problem] = error.value.problems
    assert (Path(problem.path).name, problem.field) == ("IL-0064.yaml", "tags.symptom")
    assert "'no-user-impact'" in problem.reason and "'partial-outage'" in problem.reason
    record["tags"]["symptom"] = ["no-user-impact"]
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    validate(small_data)


def test_an_exclusion_must_name_another_term_of_its_dimension(small_data: Path) -> None:
    path = small_data / "taxonomy.yaml"
    taxonomy = yaml.safe_load(path.read_text())
    taxonomy["cause"][0]["excludes"] = ["full-outage"]  # a symptom, not a cause
    path.write_text(yaml.safe_dump(taxonomy, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    [problem] = error.value.problems
    assert problem.field == f"cause.{taxonomy['cause'][0]['slug']}.excludes"
    assert "'full-outage'" in problem.reason


def test_failed_build_leaves_the_previous_database_untouched(
    small_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib.db"
    build(small_data, db)
    before = db.read_bytes()
    (small_data / "incidents" / "IL-9999.yaml").write_text("id: IL-9999\ndate: yesterday\n")
    code = main(["build", "--data", str(small_data), "--db", str(db)])
    assert code == 2
    err = capsys.readouterr().err
    assert "IL-9999.yaml: date" in err
    assert "IL-9999.yaml: organization" in err
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "lib.db"]


def test_korean_fields_must_be_korean(small_data: Path) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["symptom"]["ko"] = "English where Korean belongs"
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    assert error.value.problems[0].field == "symptom.ko"


def test_duplicate_ids_across_yaml_and_jsonl_are_rejected(small_data: Path) -> None:
    record = yaml.safe_load((small_data / "incidents" / "IL-0064.yaml").read_text())
    record["date"] = str(record["date"])
    (small_data / "incidents" / "bulk.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(DataError) as error:
        validate(small_data)
    assert "duplicate" in error.value.problems[0].reason


def test_json_lines_incidents_load_beside_yaml(small_data: Path, tmp_path: Path) -> None:
    record = yaml.safe_load((small_data / "incidents" / "IL-0064.yaml").read_text())
    record["date"] = 2019
    lines = []
    for number in (5001, 5002):
        lines.append(json.dumps({**record, "id": f"IL-{number}"}, ensure_ascii=False))
    (small_data / "incidents" / "bulk.jsonl").write_text("\n".join(lines) + "\n")
    db = tmp_path / "lib.db"
    assert build(small_data, db) == 6


def test_broken_json_line_is_named_by_line_number(small_data: Path) -> None:
    (small_data / "incidents" / "bulk.jsonl").write_text("{not json\n")
    with pytest.raises(DataError) as error:
        validate(small_data)
    assert error.value.problems[0].path.endswith("bulk.jsonl:1")


def test_a_key_written_twice_is_reported_not_silently_overwritten(small_data: Path) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    path.write_text(path.read_text() + "duration: 90\nduration: 30\n")
    with pytest.raises(DataError) as error:
        validate(small_data)
    [problem] = error.value.problems
    assert Path(problem.path).name == "IL-0064.yaml"
    assert "'duration' twice" in problem.reason


def test_a_key_written_twice_in_a_json_line_is_reported(small_data: Path) -> None:
    record = yaml.safe_load((small_data / "incidents" / "IL-0064.yaml").read_text())
    line = json.dumps({**record, "id": "IL-9001"}, ensure_ascii=False)
    (small_data / "incidents" / "bulk.jsonl").write_text(line[:-1] + ', "id": "IL-9002"}\n')
    with pytest.raises(DataError) as error:
        validate(small_data)
    [problem] = error.value.problems
    assert problem.path.endswith("bulk.jsonl:1") and "'id' twice" in problem.reason


def test_yaml_merge_keys_and_equal_values_in_different_mappings_are_not_duplicates() -> None:
    loaded = load_yaml("a: &x {k: 1, m: 2}\nb:\n  <<: *x\n  k: 3\nc: {k: 1}\n")
    assert loaded == {"a": {"k": 1, "m": 2}, "b": {"k": 3, "m": 2}, "c": {"k": 1}}
    with pytest.raises(yaml.YAMLError, match="'k' twice"):
        load_yaml("b:\n  k: 1\n  k: 2\n")


def test_cli_validate_reports_success(small_data: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "validate", "--data", str(small_data)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "4 incidents, all valid" in result.stdout


def test_cli_validate_exits_2_without_traceback(small_data: Path) -> None:
    (small_data / "incidents" / "IL-0064.yaml").write_text("id: [unclosed\n")
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "validate", "--data", str(small_data)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "IL-0064.yaml" in result.stderr


def test_a_serving_app_picks_up_a_rebuilt_library(small_data: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from app.config import Settings
    from app.main import create_app

    db = tmp_path / "lib.db"
    build(small_data, db)
    with TestClient(create_app(Settings(database_path=db))) as client:
        assert "1–4 of 4" in client.get("/incidents").text
        (small_data / "incidents" / "IL-0036.yaml").unlink()
        build(small_data, db)
        html = client.get("/incidents").text  # same URL: the cached page must not be served
        assert "1–3 of 3" in html
        assert "IL-0036" not in html


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"review": {"checked": "2026-13-01", "read": "full"}}, "review.checked"),
        ({"review": {"checked": "2026-12-01", "read": "most"}}, "review.read"),
        ({"review": {"checked": "2026-12-01", "read": "partial"}}, "review"),
        ({"duration": 0}, "duration"),
        ({"duration": "an hour"}, "duration"),
        (
            {
                "sources": [
                    {"url": "https://a.example/x", "title": "t", "publisher": "p", "kind": "copy"}
                ]
            },
            "sources",
        ),
    ],
)
def test_review_duration_and_sources_are_validated(
    small_data: Path, change: dict[str, object], field: str
) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record.update(change)
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    assert [p.field for p in error.value.problems] == [field]


def test_a_partial_review_with_its_part_and_a_copy_after_the_original_validate(
    small_data: Path,
) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["review"] = {
        "checked": "2026-12-01",
        "read": "partial",
        "part": {"en": "the summary and the timeline", "ko": "요약과 타임라인"},
    }
    record["duration"] = 95
    record["sources"].append(
        {
            "url": "https://web.archive.org/web/2019/x",
            "title": "copy",
            "publisher": "Internet Archive (copy)",
            "kind": "copy",
        }
    )
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    validate(small_data)


def test_an_incident_whose_report_says_nothing_of_actions_has_empty_lists(
    small_data: Path, tmp_path: Path
) -> None:
    # Better an empty section than a note about the reading passed off as an action.
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["actions"] = {"en": [], "ko": []}
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    db = tmp_path / "lib.db"
    build(small_data, db)
    with TestClient(create_app(Settings(database_path=db))) as client:
        page = client.get("/incidents/IL-0064")
        api = client.get("/api/incidents/IL-0064").json()
    assert page.status_code == 200
    actions = page.text.split('id="actions"', 1)[1].split("</div>", 1)[0]
    assert "<li>" not in actions and "–" in actions
    assert api["actions"] == {"en": [], "ko": []}


def test_actions_in_one_language_only_are_refused(small_data: Path) -> None:
    path = small_data / "incidents" / "IL-0064.yaml"
    record = yaml.safe_load(path.read_text())
    record["actions"] = {"en": ["Rolled back."], "ko": []}
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(DataError) as error:
        validate(small_data)
    assert any(p.field.startswith("actions") for p in error.value.problems)


@pytest.mark.parametrize("name", ["bulk.jsonl", "IL-0500.yaml"])
def test_a_file_that_is_not_utf8_is_a_problem_not_a_traceback(
    small_data: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (small_data / "incidents" / name).write_bytes(b'{"id": "IL-0500", "organization": "\xff"}\n')
    code = main(["validate", "--data", str(small_data)])
    assert code == 2
    err = capsys.readouterr().err
    where = f"{name}:1" if name.endswith(".jsonl") else name
    assert f"{where}: (file): not valid UTF-8" in err
    assert "Traceback" not in err
