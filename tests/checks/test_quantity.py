import pytest

from app.checks.quantity import format_bytes, format_cpu, parse_quantity


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("100m", 0.1),
        ("2", 2.0),
        ("1.5Gi", 1.5 * 2**30),
        ("256Mi", 256 * 2**20),
        ("128974848", 128974848.0),
        ("129e6", 129e6),
        ("1e3", 1000.0),
        ("1E", 1e18),
        ("1k", 1000.0),
        ("64Ki", 65536.0),
        ("500u", 0.0005),
        (".5", 0.5),
        (8, 8.0),
    ],
)
def test_parse_quantity_reads_kubernetes_quantities(text: str | int, value: float) -> None:
    assert parse_quantity(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "1.5Gb", "Gi", "--1", "1 Gi"])
def test_parse_quantity_rejects_what_is_not_a_quantity(text: str) -> None:
    with pytest.raises(ValueError):
        parse_quantity(text)


def test_formatting_reads_like_kubectl() -> None:
    assert [format_bytes(2**30 * 64), format_bytes(170 * 2**20)] == ["64Gi", "170Mi"]
    assert [format_cpu(0.25), format_cpu(2.0)] == ["250m", "2"]
