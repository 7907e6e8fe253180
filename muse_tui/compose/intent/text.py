"""The prompt being read: each phrase understood claims its words, so nothing is read twice."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from muse_tui.knowledge.lexicon import fold

#: The most of a prompt that is read. A producer's brief fits in far less; past it,
#: every lexicon pattern would scan the whole text (10,000 characters took over a second).
MOST_PROMPT_CHARS = 2_000


@dataclass
class Match:
    """A piece of the prompt and what it was read as."""

    start: int
    end: int
    kind: str
    key: str
    groups: tuple[str | None, ...] = ()

    @property
    def length(self) -> int:
        return self.end - self.start


@dataclass
class PromptText:
    """The folded prompt (accents off, single spaces) and the spans already understood."""

    text: str
    claimed: list[tuple[int, int]] = field(default_factory=list)
    #: The text in lower case where that is exact case folding (ASCII), else None.
    lower: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.lower = self.text.lower() if self.text.isascii() else None

    @classmethod
    def of(cls, prompt: str) -> PromptText:
        return cls(" ".join(fold(bounded(prompt)).split()))

    def is_free(self, start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in self.claimed)

    def claim(self, start: int, end: int) -> None:
        self.claimed.append((start, end))

    def may_hold(self, needle: str) -> bool:
        """False only when the text cannot hold a phrase whose first word is `needle`."""
        return not needle or self.lower is None or needle in self.lower

    def free_matches(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """Matches of `pattern` that touch no claimed words."""
        for found in pattern.finditer(self.text):
            if found.end() > found.start() and self.is_free(found.start(), found.end()):
                yield found

    def claim_longest(self, candidates: Iterable[Match], priority: dict[str, int]) -> list[Match]:
        """Keep the longest readings that don't overlap (ties: `priority`, then earliest).

        Returned in the order they appear in the prompt.
        """
        ranked = sorted(
            (c for c in candidates if self.is_free(c.start, c.end)),
            key=lambda c: (-c.length, priority.get(c.kind, 99), c.start),
        )
        kept: list[Match] = []
        for candidate in ranked:
            if self.is_free(candidate.start, candidate.end):
                self.claim(candidate.start, candidate.end)
                kept.append(candidate)
        return sorted(kept, key=lambda c: c.start)

    def free_text(self) -> str:
        """The prompt with claimed spans blanked out (positions unchanged)."""
        chars = list(self.text)
        for start, end in self.claimed:
            chars[start:end] = " " * (end - start)
        return "".join(chars)


#: Lone surrogates: how Python hands over bytes that were not UTF-8 (a terminal in
#: another encoding, argv); no file or JSON can hold them.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def readable(text: str) -> str:
    """`text` with every byte that was not UTF-8 read as U+FFFD, so it can be written anywhere."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def bounded(prompt: str) -> str:
    """The prompt cut to `MOST_PROMPT_CHARS`, at a word boundary where there is one, readable."""
    prompt = readable(prompt)
    if len(prompt) <= MOST_PROMPT_CHARS:
        return prompt
    cut = prompt[:MOST_PROMPT_CHARS]
    space = cut.rfind(" ")
    return cut[:space] if space > MOST_PROMPT_CHARS // 2 else cut
