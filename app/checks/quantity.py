"""Kubernetes resource quantities ("100m", "1.5Gi", "1e3") as plain numbers."""

from __future__ import annotations

import re

_SUFFIXES: dict[str, float] = {
    "": 1.0,
    "n": 1e-9,
    "u": 1e-6,
    "m": 1e-3,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "E": 1e18,
    "Ki": 2.0**10,
    "Mi": 2.0**20,
    "Gi": 2.0**30,
    "Ti": 2.0**40,
    "Pi": 2.0**50,
    "Ei": 2.0**60,
}

_QUANTITY = re.compile(
    r"^(?P<number>[+-]?(?:\d+\.?\d*|\.\d+))(?P<exponent>[eE][+-]?\d+)?"
    r"(?P<suffix>Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$"
)

MIB = 2.0**20
GIB = 2.0**30


def parse_quantity(value: str | int | float) -> float:
    """Return the quantity in base units (cores, bytes, count).

    :raises ValueError: if the text is not a Kubernetes quantity.
    """
    if isinstance(value, bool):
        raise ValueError(f"not a quantity: {value!r}")
    if isinstance(value, int | float):
        return float(value)
    match = _QUANTITY.match(value.strip())
    if match is None:
        raise ValueError(f"not a quantity: {value!r}")
    number = float(match["number"] + (match["exponent"] or ""))
    return number * _SUFFIXES[match["suffix"] or ""]


KIB = 2.0**10


def format_bytes(value: float) -> str:
    """Bytes as Gi, Mi or Ki, e.g. 1.5Gi or 512Ki; below 1Ki as a plain byte count."""
    if value >= GIB:
        return f"{value / GIB:.3g}Gi"
    if value >= MIB:
        return f"{value / MIB:.3g}Mi"
    if value >= KIB:
        return f"{value / KIB:.3g}Ki"
    return f"{value:.3g} bytes"


def format_cpu(value: float) -> str:
    """Cores as millicores below one core, e.g. 250m or 2; below 1m as a fraction of a core."""
    if value < 0.001:
        return f"{value:.3g}"
    if value < 1:
        return f"{round(value * 1000)}m"
    return f"{value:.3g}"
