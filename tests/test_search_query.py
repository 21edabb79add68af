"""The query model, the matching rule, typo correction and the synonym file, on their own."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import main
from app.matching import ENOUGH, TermHits, select
from app.search import Synonyms, Word, clause_expression, parse_query
from app.spelling import Speller

SYNONYMS = Synonyms.of([["k8s", "kubernetes", "쿠버네티스"], ["ran out", "exhaustion"]])


def shape(q: str) -> tuple[list[str], list[str], list[str]]:
    query = parse_query(q, SYNONYMS)
    return (
        [c.text for c in query.clauses],
        [c.text for c in query.excluded],
        list(query.stopwords),
    )


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("dns etcd", (["dns", "etcd"], [], [])),
        ("dns -etcd", (["dns"], ["etcd"], [])),
        ("dns OR etcd coredns", (["dns OR etcd", "coredns"], [], [])),
        ("dns 또는 etcd", (["dns OR etcd"], [], [])),
        ('"kernel panic" node', (['"kernel panic"', "node"], [], [])),
        ('-"config change" dns', (["dns"], ['"config change"'], [])),
        ('"unbalanced quote', (['"unbalanced quote"'], [], [])),
        ("OR OR dns OR", (["dns"], [], [])),
        ("- dns -", (["dns"], [], [])),
        ("the outage after the upgrade", (["outage", "upgrade"], [], ["the", "after"])),
        ("the after", (["the", "after"], [], [])),  # only stopwords: searched as they are
        ("노드 교체 후 장애 때문에", (["노드", "교체", "장애"], [], ["후", "때문에"])),
        ("IP가 고갈됐다", (["IP", "고갈됐다"], [], [])),
        ("pods ran out of IPs", (["pods", "ran out", "IPs"], [], ["of"])),
        ("timed out", (["timed out"], [], [])),
        ("NEAR(a b) title:x * AND", (["NEAR", "title:x"], [], ["AND"])),
        (
            "kube-proxy us-east-1 WARM_IP_TARGET",
            (["kube-proxy", "us-east-1", "WARM_IP_TARGET"], [], []),
        ),
    ],
)
def test_search_text_reads_into_clauses(q: str, expected: tuple[list[str], ...]) -> None:
    assert shape(q) == expected


def test_identifiers_and_quoted_words_are_fixed_korean_words_are_stemmed() -> None:
    query = parse_query('WARM_IP_TARGET IL-0129 EKS kubernetes "kubrnetes" 스토리지에서')
    words = [c.words[0] for c in query.clauses]
    assert [w.fixed for w in words] == [True, True, True, False, True, False]
    assert words[-1] == Word("스토리지에서", "스토리지", korean=True)


def test_every_word_reaches_fts5_quoted() -> None:
    query = parse_query('NEAR(a b) OR "x" title:y * -zk AND k8s', SYNONYMS)
    expressions = [clause_expression(c, SYNONYMS) for c in query.clauses]
    assert expressions[:2] == ['"near" OR "x"', '"title y"']
    assert expressions[2].startswith('"k8s" OR "kubernetes" OR "쿠버 버네 네티 티스" OR ')
    assert [clause_expression(c) for c in query.excluded] == ['"zk"']


def test_a_korean_compound_also_searches_its_spaced_form() -> None:
    (clause,) = parse_query("데이터센터").clauses
    assert '"데이 이터 센터"' in clause_expression(clause).split(" OR ")


def test_a_multi_word_synonym_is_one_clause_searched_near() -> None:
    (clause,) = parse_query("exhaustion", SYNONYMS).clauses
    assert clause_expression(clause, SYNONYMS) == '"exhaustion" OR "ran out" OR "ranout"'


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=500))
def test_any_text_parses_into_at_most_twelve_clauses(q: str) -> None:
    query = parse_query(q, SYNONYMS)
    assert len(query.clauses) <= 12 and len(query.excluded) <= 12
    for clause in (*query.clauses, *query.excluded):
        expression = clause_expression(clause, SYNONYMS)
        assert expression.startswith(('"', "NEAR("))


def hits(ranks: list[int], score: float = 1.0) -> TermHits:
    return TermHits(np.array(ranks, dtype=np.int64), np.full(len(ranks), score))


def test_rule_keeps_all_words_when_enough_incidents_have_them() -> None:
    a = hits(list(range(ENOUGH + 5)))
    b = hits(list(range(ENOUGH)) + [50, 51])
    chosen = select(100, [a, b])
    assert chosen.needed == 2 and chosen.with_all == ENOUGH
    assert sorted(chosen.order.tolist()) == list(range(ENOUGH))


def test_rule_relaxes_to_most_words_and_ranks_by_words_matched() -> None:
    a, b, c = hits([1, 2, 3]), hits([1, 2, 9]), hits([1, 40, 41])
    chosen = select(100, [a, b, c])
    assert chosen.needed == 1 and chosen.with_all == 1
    assert chosen.order.tolist()[:3] == [1, 2, 3]  # 3 words, then 2, then 1 (newest first)
    assert set(chosen.order.tolist()) == {1, 2, 3, 9, 40, 41}


def test_rule_leaves_common_words_out_of_the_decision() -> None:
    rare = hits([5, 6])
    common = hits(list(range(60)), score=0.1)  # in 60% of the library
    chosen = select(100, [rare, common])
    assert chosen.deciding == (0,)
    assert sorted(chosen.order.tolist()) == [5, 6]


def test_rule_honours_required_phrases_and_exclusions() -> None:
    a, phrase, minus = hits([1, 2, 3, 4]), hits([2, 3, 4, 8]), hits([3])
    chosen = select(100, [a, phrase], required=[1], excluded=[minus])
    assert set(chosen.order.tolist()) == {2, 4, 8}


def test_speller_corrects_to_the_nearest_known_word_and_prefers_the_common_one() -> None:
    speller = Speller({"kubernetes": 50, "certificate": 9, "pods": 40, "pads": 1, "쿠버네티스": 3})
    assert speller.correct(Word("kubrnetes", "kubrnetes")) == "kubernetes"
    assert speller.correct(Word("certficate", "certficate")) == "certificate"
    assert speller.correct(Word("pids", "pids")) == "pods"  # pods and pads: the commoner
    assert speller.correct(Word("쿠버네티즈", "쿠버네티즈", korean=True)) == "쿠버네티스"
    assert speller.correct(Word("zzzzzzzz", "zzzzzzzz")) is None
    assert speller.correct(Word("pod", "pod")) is None  # three letters: never
    assert speller.correct(Word("EKZ", "ekz", identifier=True)) is None


def test_validate_accepts_the_bundled_synonyms(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--data", str(data_dir)]) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "groups:\n  - [k8s, kubernetes]\n  - [cert, k8s]\n",
            "groups.1.1: 'k8s' is already listed at groups.0.0",
        ),
        ("groups:\n  - [K8s, k8s]\n", "groups.0.1: 'k8s' is already listed at groups.0.0"),
        ("groups:\n  - [k8s]\n", "groups.0: List should have at least 2 items"),
        ("groups:\n  - [k8s, '!!']\n", "groups.0.1: '!!' has no searchable word"),
        ("groups:\n  - [k8s, kubernetes]\nwords: [x]\n", "words: Extra inputs are not permitted"),
        ("groups: [[k8s, kubernetes]\n", "(file): not valid YAML"),
    ],
)
def test_validate_rejects_a_bad_synonym_file_with_path_and_reason(
    small_data: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (small_data / "synonyms.yaml").write_text(text, encoding="utf-8")
    assert main(["validate", "--data", str(small_data)]) == 2
    err = capsys.readouterr().err
    assert f"{small_data / 'synonyms.yaml'}: {message}" in err
