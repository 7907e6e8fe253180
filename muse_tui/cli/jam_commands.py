"""`muse-studio jam PROMPT`: a band plays a loop for N rounds, taking directions on the way.

Headless and deterministic: the same prompt, seed and directions write the
same rounds, byte for byte. Each round is written to `OUT/round-NN/` (the loop
as MIDI, one file per member, and `round.json`: the context, what each member
did and said); `--keep` also writes the last loop as an ordinary session.

Exit codes (`common.ExitCode`): 0 played, 1 a file could not be written,
2 bad usage (a direction not of the form ROUND:TEXT, a round out of range).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from muse_tui.compose.jam.song import round_song
from muse_tui.contracts.jam import JamRound
from muse_tui.engine.jam import Jam
from muse_tui.knowledge import SkillFileError
from muse_tui.store.atomic import WriteFailed, advice_sentence, write_atomic
from muse_tui.store.sessions import sessions_root
from muse_tui.store.smf import write_song_midi

from .common import ExitCode, fail

MOST_ROUNDS = 512


@click.command("jam")
@click.argument("prompt")
@click.option("--rounds", type=click.IntRange(1, MOST_ROUNDS), default=8, show_default=True)
@click.option(
    "--directive",
    "directives",
    multiple=True,
    metavar="ROUND:TEXT",
    help='A direction before a round, e.g. "3:@drums busier" (repeatable).',
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each round's loop here (round-01/, round-02/…).",
)
@click.option("--keep", is_flag=True, help="Write the last loop as a session folder.")
@click.option("--json", "as_json", is_flag=True, help="Print the rounds as JSON.")
@click.option(
    "--play",
    is_flag=True,
    help="Play the jam live through a MIDI output; type directions on stdin, Ctrl-C stops.",
)
@click.option("--port", "port_query", default=None, help="The MIDI output to play through.")
def jam(
    prompt: str,
    rounds: int,
    directives: tuple[str, ...],
    seed: int,
    out: Path | None,
    keep: bool,
    as_json: bool,
    play: bool,
    port_query: str | None,
) -> None:
    """Jam with the band on PROMPT for --rounds loops; directions land on the next loop."""
    said = _directions(directives, rounds, as_json)
    if play:
        from .jam_live import play_live

        played, kept = play_live(prompt, seed, rounds, said, port_query, keep=keep)
        _report_after(played, kept, out, prompt, seed, as_json)
        return
    try:
        with Jam(prompt, seed) as band:
            played = [band.round]
            for number in range(2, rounds + 1):
                played.append(band.next_round(said.get(number, "")))
            kept = band.keep(sessions_root()) if keep else None
    except SkillFileError as exc:
        fail(f"A skill file is broken: {exc}.", "Fix the file or restore it.", as_json=as_json)
    except (WriteFailed, OSError) as exc:
        fail(f"Could not write the kept session: {exc}.", advice_sentence(exc), as_json=as_json)
    _report_after(played, kept, out, prompt, seed, as_json)


def _report_after(
    played: list[JamRound],
    kept: Path | None,
    out: Path | None,
    prompt: str,
    seed: int,
    as_json: bool,
) -> None:
    try:
        if out is not None:
            for round_ in played:
                _write_round(out, prompt, seed, round_)
    except (WriteFailed, OSError) as exc:
        fail(f"Could not write the rounds to {out}: {exc}.", advice_sentence(exc), as_json=as_json)
    _report(played, kept, as_json)


def _directions(given: tuple[str, ...], rounds: int, as_json: bool) -> dict[int, str]:
    """ROUND:TEXT → {round: text}; several for one round are read as one line."""
    by_round: dict[int, list[str]] = {}
    for text in given:
        number, colon, words = text.partition(":")
        if not colon or not number.strip().isdigit() or not words.strip():
            fail(
                f"The direction {text!r} is not ROUND:TEXT.",
                'Write it like --directive "3:@drums busier".',
                code=ExitCode.USAGE,
                as_json=as_json,
            )
        round_number = int(number)
        if not 2 <= round_number <= rounds:
            fail(
                f"Round {round_number} is outside 2–{rounds}: the first round plays the prompt.",
                "Give a round between 2 and --rounds.",
                code=ExitCode.USAGE,
                as_json=as_json,
            )
        by_round.setdefault(round_number, []).append(words.strip())
    return {n: "; ".join(lines) for n, lines in by_round.items()}


def _write_round(out: Path, prompt: str, seed: int, round_: JamRound) -> None:
    folder = out / f"round-{round_.number:02d}"
    folder.mkdir(parents=True, exist_ok=True)
    write_song_midi(folder, round_song(prompt, seed, round_))
    write_atomic(folder / "round.json", (json.dumps(_summary(round_), indent=2) + "\n").encode())


def _summary(round_: JamRound) -> dict[str, object]:
    context = round_.context
    return {
        "round": round_.number,
        "key": f"{context.key} {context.mode}",
        "tempo": context.tempo,
        "bars": context.bars,
        "halfTime": context.half_time,
        "chords": [c.symbol for c in context.progression.chords],
        "directives": [
            {"text": d.text, "to": d.targets, "action": d.action, "value": d.value}
            for d in round_.directives
        ],
        "notes": round_.notes,
        "members": [
            {
                "id": m.id,
                "name": m.name,
                "track": m.track.name,
                "change": m.change,
                "notes": len(m.part.notes) if m.part is not None else 0,
                "energy": round(m.energy, 3),
                "lockedToKick": m.locked_to_kick,
                "laidOut": m.laid_out,
                "thought": m.thought,
            }
            for m in round_.members
        ],
    }


def _report(played: list[JamRound], kept: Path | None, as_json: bool) -> None:
    if as_json:
        payload: dict[str, object] = {"rounds": [_summary(r) for r in played]}
        if kept is not None:
            payload["session"] = str(kept)
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    for round_ in played:
        summary = _summary(round_)
        click.echo(f"round {round_.number}: {summary['key']}, {round_.context.tempo:g} BPM")
        for note in round_.notes:
            click.echo(f"  {note}")
        for member in round_.members:
            count = len(member.part.notes) if member.part is not None else 0
            line = f"  {member.name:<4} {member.track.name:<12} {member.change:<8} {count:>3} notes"
            click.echo(f"{line}  {member.thought}".rstrip())
    if kept is not None:
        click.echo(f"kept: {kept}")
