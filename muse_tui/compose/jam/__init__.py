"""Jam mode: a band of rule-based musicians playing a loop with the producer.

Pure music: the shared context (`context`), directions read from a line
(`directives`), how each member answers and evolves (`band`), and how a member's
part is written with the song's own part writers (`playing`). The engine
(`engine.jam`) runs the rounds with deadlines; the studio and the CLI show them.
"""

from .band import MemberPlan, RoundPlan, finish_round, plan_round, start_jam
from .directives import BAND, read_directives, read_line
from .playing import play_member

__all__ = [
    "BAND",
    "MemberPlan",
    "RoundPlan",
    "finish_round",
    "plan_round",
    "play_member",
    "read_directives",
    "read_line",
    "start_jam",
]
