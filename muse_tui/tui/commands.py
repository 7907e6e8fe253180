"""The command palette (ctrl+p): what makes sense right now, in the producer's words."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from .widgets.prompt import PromptInput

if TYPE_CHECKING:
    from .app import StudioApp
    from .screens.studio import StudioScreen

RECENT_SESSIONS = 5
Command = tuple[str, Callable[[], object], str]


class StudioCommands(Provider):
    """Compose, open a session, play, switch theme, choose a port, toggle gates."""

    @property
    def studio_app(self) -> StudioApp:
        return self.app  # type: ignore[return-value]

    async def startup(self) -> None:
        self._commands = self._gather()

    def _gather(self) -> list[Command]:
        from muse_tui.contracts import STAGE_NAMES
        from muse_tui.store.sessions import list_sessions

        app = self.studio_app
        studio = app.studio
        commands: list[Command] = []
        text = studio.query_one(PromptInput).text.strip()
        if studio.running:
            commands.append(
                ("Cancel the run", studio.action_cancel_run, "Stop composing; keep the checkpoint")
            )
        elif text:
            short = text if len(text) <= 40 else text[:39] + "…"
            commands.append(
                (
                    f"Compose: {short}",
                    partial(studio.start_compose, text),
                    "Compose a new song from the prompt",
                )
            )
        commands.append(("Open a session…", app.action_sessions, "Browse sessions, newest first"))
        for summary in list_sessions(app.sessions_root())[:RECENT_SESSIONS]:
            commands.append((
                f"Open {summary.session_id}",
                partial(studio.open_session, summary.path),
                summary.prompt or summary.status,
            ))  # fmt: skip
        if studio.editable and not studio.running:
            commands.extend(_edit_commands(studio))
        if studio.song is not None:
            commands.append(("Play / stop", studio.action_toggle_play, "From the selected section"))
            for track in studio.song.tracks:
                commands.append(
                    (f"Play {track.name} alone", partial(app.play_track_alone, track), track.role)
                )
            if studio.song.arrangement:
                for section in studio.song.arrangement.sections:
                    commands.append(
                        (
                            f"Loop {section.name}",
                            partial(app.loop_section, section),
                            f"bars {section.start_bar + 1}–{section.end_bar}",
                        )
                    )
        for name in sorted(app.available_themes):
            current = " (current)" if name == app.theme else ""
            commands.append(
                (f"Theme: {name}{current}", partial(app.switch_theme, name), "Switch and remember")
            )
        for port in [None, *app.config.list_ports()]:
            label = port or "muse-studio (virtual port)"
            commands.append(
                (
                    f"MIDI port: {label}",
                    partial(app.choose_port, port),
                    "Audition through this output",
                )
            )
        gates = app.settings.approval_gates
        for stage, name in STAGE_NAMES.items():
            state = "on" if stage in gates else "off"
            commands.append(
                (
                    f"Approval gate: stage {stage} {name} ({state})",
                    partial(app.toggle_gate, stage),
                    "Stop for approval after this stage",
                )
            )
        commands.append(("Settings", app.action_settings, "MIDI port, theme, folders, gates, keys"))
        commands.append(("Help: keys", app.action_help, "Every key and its id"))
        return commands

    async def discover(self) -> Hits:
        for name, run, help_text in self._commands:
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, run, help_text in self._commands:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)


def _edit_commands(studio: StudioScreen) -> list[Command]:
    """Undo, redo, and alternatives for everything in the open song."""
    from .comparison import elements_of

    commands: list[Command] = []
    if (last := studio.last_change) is not None:
        commands.append(
            (f"Undo: {last.user_text}", studio.action_undo, "ctrl+z outside the prompt")
        )
    if (undone := studio.next_redo) is not None:
        commands.append((f"Redo: {undone.user_text}", studio.action_redo, "ctrl+y"))
    for name, element in elements_of(studio.song) if studio.song else []:
        commands.append(
            (f"Alternatives for {name}", partial(studio.compare, element), "Compare, hear, pick")
        )
    return commands
