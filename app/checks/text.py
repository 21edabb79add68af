"""One sentence in English and Korean: findings, reasons and input errors all carry both."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    """One sentence in English and Korean."""

    en: str
    ko: str

    def get(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en
