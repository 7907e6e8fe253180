"""Auditioning from the terminal: `ports` lists MIDI outputs, `play` plays a session."""

from __future__ import annotations

import json
import sys

import click

from muse_tui.audition import PlayerControls, PortError, configured_port, list_output_ports
from muse_tui.audition.clock import Playhead
from muse_tui.audition.port_advice import no_midi_system
from muse_tui.audition.ports import VIRTUAL_PORT_NAME, midi_apis
from muse_tui.audition.schedule import part_for, section_range, song_end_beat
from muse_tui.cli.playback import ending_on_signals, exit_code, start_player_or_exit
from muse_tui.contracts import TRACK_ROLES, SongState
from muse_tui.store.checkpoint import song_path

from .common import fail, find_session


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the ports as JSON.")
def ports(as_json: bool) -> None:
    """List MIDI outputs on every backend; * marks the one `play` uses."""
    try:
        usable = midi_apis()
        found = list_output_ports(usable)
    except PortError as exc:
        fail(str(exc))
    chosen = configured_port()
    # Ours, made when playing: listed so `--port muse-studio` is found where it is read.
    ours = not any(p.name.split(":")[0] == VIRTUAL_PORT_NAME for p in found)
    if as_json:
        rows = [
            {"name": p.name, "backend": p.backend, "configured": p.name == chosen} for p in found
        ]
        if ours and usable:
            virtual = {"name": VIRTUAL_PORT_NAME, "backend": "virtual", "configured": not chosen}
            rows.append(virtual)
        click.echo(json.dumps({"ports": rows, "configured": chosen}, indent=2))
        return
    if not usable:
        fail(no_midi_system())
    for port in found:
        mark = "*" if port.name == chosen else " "
        click.echo(f"{mark} {port.name}  [{port.backend}]")
    if ours:
        mark = "*" if chosen is None else " "
        click.echo(f"{mark} {VIRTUAL_PORT_NAME}  [virtual: made when playing]")
    if chosen is None:
        click.echo(
            f"\nNo output chosen: `muse-studio play` makes the virtual port {VIRTUAL_PORT_NAME!r} "
            "for MPC Beats to listen to, or pick another with `--port NAME`."
        )
    elif chosen not in {p.name for p in found}:
        click.echo(
            f"\nThe chosen output {chosen!r} is not there right now; `--port NAME` picks another."
        )


@click.command()
@click.argument("session")
@click.option("--track", "role", type=click.Choice(TRACK_ROLES), help="Hear only this track.")
@click.option("--section", help="Play one arrangement section (by name or kind).")
@click.option("--loop", is_flag=True, help="Loop the section (or the whole song).")
@click.option("--port", "port_query", help="Output name or part of it; remembered for next time.")
def play(
    session: str, role: str | None, section: str | None, loop: bool, port_query: str | None
) -> None:
    """Play SESSION (an id or a session folder) through a MIDI output; Ctrl-C stops."""
    song = _load_song(session)
    if role is not None and song.track(role) is None:
        have = ", ".join(t.role for t in song.tracks) or "none"
        raise click.BadParameter(
            f"this song has no {role} track (it has: {have})", param_hint="--track"
        )
    span = _bars_to_play(song, section)
    with ending_on_signals():  # TERM and HUP end it like Ctrl-C: every note off, then exit
        started = start_player_or_exit(port_query)
        player = started.player
        try:
            for notice in started.notices:
                click.echo(notice, err=True)
            if started.virtual:
                click.echo(
                    f"Playing through the virtual output {player.port_name!r}: "
                    "connect MPC Beats to it."
                )
            player.load(song)
            if role is not None:
                player.play_only(role)
            if loop:
                player.loop(*span)
                player.play(span[0])
            else:
                player.play(*span)
            _show_progress(player, span, loop)
        except KeyboardInterrupt as interrupt:
            player.stop()  # close() below lets every note go before the exit
            click.echo("\nStopped.")
            sys.exit(exit_code(interrupt))
        finally:
            player.close()
    if player.last_error:
        click.echo("", err=True)  # off the progress line
        fail(player.last_error)
    click.echo("")


def _load_song(ref: str) -> SongState:
    folder = find_session(ref)
    path = song_path(folder)
    try:
        return SongState.from_json(path.read_bytes())
    except FileNotFoundError:
        fail(f"{folder} has no song yet ({path.name} is missing)", "Resume or recompose it.")
    except (OSError, ValueError, RecursionError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else "nested too deep"
        fail(f"The song in {path} cannot be read ({first})", "Resume the session to rewrite it.")


def _bars_to_play(song: SongState, section: str | None) -> tuple[int, int]:
    """[first bar, end bar) of the section, or of the whole song."""
    bar = song.beats_per_bar
    if section is None:
        end = song_end_beat(song, [part_for(t) for t in song.tracks])
        return 0, max(round(end / bar), 1)
    try:
        start, end = section_range(song, section)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--section") from None
    return round(start / bar), round(end / bar)


def _show_progress(player: PlayerControls, span: tuple[int, int], loop: bool) -> None:
    live = sys.stdout.isatty()
    while not player.wait_until_stopped(0.1 if live else 1.0):
        if live:
            click.echo(f"\r{_progress_line(player.playhead, span, loop)}", nl=False)


def _progress_line(head: Playhead, span: tuple[int, int], loop: bool) -> str:
    minutes, seconds = divmod(int(head.seconds), 60)
    where = f"bars {span[0] + 1}–{span[1]}" + (" looping" if loop else "")
    return (
        f"▶ bar {head.bar + 1} beat {int(head.beat) + 1}  {minutes}:{seconds:02d}  "
        f"{head.tempo:.0f} BPM  ({where}, Ctrl-C stops)   "
    )
