"""What an answer is: the topic it answers, a sentence or a few lines, and the same as data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Answer:
    """An answer to a question. It changes nothing; `facts` is what `ask --json` prints."""

    topic: str
    text: str
    facts: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"topic": self.topic, "answer": self.text, "facts": self.facts}
