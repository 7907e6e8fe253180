"""The muse-studio app: settings, themes, keymap, screens, and the engine's wiring.

`run_studio()` is what `muse-studio` with no arguments opens.
"""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from muse_tui.store.settings import load_settings

from .auditioning import Audition, EnginePlayback
from .config import StudioConfig
from .key_order import KeysInOrder
from .messages import FilesChanged, OpenSession, PlaybackRequested, PreviewRequested
from .screens.studio import StudioScreen
from .themes import (
    FALLBACK_THEME,
    ThemeFileError,
    load_theme,
    load_themes,
    studio_variable_defaults,
)
from .widgets.stand_ins import PromptStandIn

if TYPE_CHECKING:  # the engine, the pipeline's contracts and the other screens load on first use
    from textual.command import Provider
    from textual.driver import Driver

    from muse_tui.contracts import PipelineConfig, Section, Track
    from muse_tui.engine.orchestrator import Orchestrator
    from muse_tui.store.settings import Settings

    from .gate import StudioGate
    from .screens.settings import SettingsScreen


def studio_commands() -> type[Provider]:
    """The palette's provider (`COMMANDS`): loaded when the palette first opens."""
    from .commands import StudioCommands

    return StudioCommands


class StudioApp(KeysInOrder):
    """A keyboard-driven studio for composing beside MPC Beats."""

    CSS_PATH = Path(__file__).with_name("studio.tcss")
    TITLE = "muse-studio"
    COMMANDS = App.COMMANDS | {studio_commands}
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (30, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False, id="app.quit",
                tooltip="Stop playback cleanly (every note released) and leave"),
        Binding("ctrl+p", "command_palette", "Palette", priority=True, show=False,
                id="app.command_palette",
                tooltip="Everything you can do right now, searchable"),
        Binding("question_mark,f1", "help", "Help", id="app.help",
                tooltip="Every key, where it works, and its id for the keymap"),
        Binding("ctrl+o", "sessions", "Sessions", id="app.sessions",
                tooltip="Browse sessions: open, resume or delete one"),
        Binding("f2", "settings", "Settings", id="app.settings",
                tooltip="MIDI port, theme, sessions folder, gates, bars, tracks, keys"),
    ]  # fmt: skip

    _theme_chosen = False  # until then there are no variables to compute (get_css_variables)

    def __init__(self, config: StudioConfig | None = None) -> None:
        super().__init__()
        self.config = config or StudioConfig()
        self.settings, self.notices = load_settings(self.config.settings_path)
        self.audition = Audition(self.config.open_player, self.settings.midi_port)
        self.play_when_loaded = False
        themes, problems = load_themes(self.config.themes_dirs)
        for theme in themes:
            self.register_theme(theme)
        self.notices.extend(problems)
        self._start_in_theme(self.settings.theme)
        self._use_keymap(self.settings.keymap)

    # ── lifetime ────────────────────────────────────────────────────────────

    def get_driver_class(self) -> type[Driver]:
        from .input_batches import batched  # the terminal's driver only (tests run headless)

        return batched(super().get_driver_class())

    def get_default_screen(self) -> Screen[None]:
        return StudioScreen()

    @property
    def studio(self) -> StudioScreen:
        return self.screen_stack[0]  # type: ignore[return-value]

    def moves_focus(self, key: events.Key) -> bool:
        # The prompt's stand-in holds every key until the prompt takes over (focus keys too):
        # nothing would come back up to release the keys behind one.
        return not isinstance(self.focused, PromptStandIn) and super().moves_focus(key)

    def on_mount(self) -> None:
        for notice in self.notices:
            self.notify(notice, title="Settings", severity="warning", timeout=10)

    def on_ready(self) -> None:
        self.finish_starting()

    @work(group="start")
    async def finish_starting(self) -> None:
        """The first frame is painted: now what it did not need (prompt, notes, sessions…).

        A worker, so the app goes on reading keys while the prompt mounts: the prompt's
        stand-in holds them until then.
        """
        await self.studio.mount_prompt_and_notes()
        # What was typed meanwhile is drawn first: the threads below spend their first
        # ~0.3 s importing, and the loop gets the interpreter back only now and then.
        self.studio.call_after_refresh(self._start_in_background)

    def _start_in_background(self) -> None:
        gc.enable()  # `muse-studio` holds the collector off while it starts (see launch.py)
        self.load_history()
        self._reopen_last_session()
        if self.config.watch:
            self.watch_files("themes", lambda: list(self.config.themes_dirs))
            self.watch_files("skills", lambda: [self._skills_root()])

    async def action_quit(self) -> None:
        self.audition.close()
        self.exit()

    def on_unmount(self) -> None:
        self.audition.close()

    # ── the engine ──────────────────────────────────────────────────────────

    def sessions_root(self) -> Path:
        from muse_tui.store.sessions import sessions_root as default_sessions_root

        return self.config.sessions_root or default_sessions_root(self.settings.sessions_dir)

    @cached_property
    def gate(self) -> StudioGate:
        """Asks the producer during a run (approvals, questions): made with the first run."""
        from .gate import StudioGate

        return StudioGate(self, on_answered=self.audition.end_preview)

    def orchestrator(self, root: Path | None = None) -> Orchestrator:
        from muse_tui.engine.orchestrator import Orchestrator

        from .gate import MessageSink

        studio = self.studio
        sink = MessageSink(studio)
        return Orchestrator(
            stages=self.config.stages(),
            sessions_root=root or self.sessions_root(),
            gate=self.gate,
            sink=self.config.sink_wrapper(sink) if self.config.sink_wrapper else sink,
            playback=EnginePlayback(self.audition, studio),
            clock=self.config.clock,
        )

    def pipeline_config(self) -> PipelineConfig:
        from muse_tui.contracts import PipelineConfig

        # Auto-play at S8 only when a port is already open: no surprise errors without one.
        return PipelineConfig(
            approval_gates=list(self.settings.approval_gates),
            enable_playback=self.audition.player is not None,
            drum_map=self.settings.drum_map,
        )

    def next_seed(self) -> int:
        return self.config.seed if self.config.seed is not None else random.randrange(2**31)

    # ── prompt history: the prompts of earlier sessions, then this sitting's ──

    @work(thread=True, group="history", exit_on_error=False)
    def load_history(self) -> None:
        from muse_tui.store.sessions import list_sessions

        prompts = [s.prompt for s in reversed(list_sessions(self.sessions_root())) if s.prompt]
        self.call_from_thread(self._set_history, prompts)

    def _set_history(self, prompts: list[str]) -> None:
        self.studio.prompt.add_history(prompts)

    # ── the last session: reopened at launch ────────────────────────────────

    def _reopen_last_session(self) -> None:
        """Show the session the studio showed last, unless the producer has started typing."""
        last = self.settings.last_session
        studio = self.studio
        if not last or studio.session is not None or studio.running or studio.prompt.text:
            return
        folder = Path(last)
        if (folder / "state").is_dir():  # deleted or moved since: start empty, say nothing
            studio.open_session(folder)

    def remember_session(self, folder: Path) -> None:
        """The session on show, for the next launch to reopen."""
        path = str(folder.resolve())
        if path != self.settings.last_session:
            self._save(replace(self.settings, last_session=path))

    # ── screens ─────────────────────────────────────────────────────────────

    def action_help(self) -> None:
        from .keys import binding_areas
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(binding_areas(), self.settings.keymap))

    def action_sessions(self) -> None:
        from .screens.sessions import SessionsScreen

        if not isinstance(self.screen, SessionsScreen):
            busy = self.studio.run_session_id if self.studio.running else None
            self.push_screen(SessionsScreen(self.sessions_root(), busy))

    def action_settings(self) -> None:
        from muse_tui.store.settings import settings_path

        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            path = str(self.config.settings_path or settings_path())
            themes = sorted(self.available_themes)
            screen = SettingsScreen(
                self.settings, themes=themes, ports=self.config.list_ports(), path=path
            )
            self.push_screen(screen)

    @on(OpenSession)
    def _open_session(self, message: OpenSession) -> None:
        self.studio.open_session(message.path, resume=message.resume)

    @on(PreviewRequested)
    def _preview(self, message: PreviewRequested) -> None:
        self.studio.listening.listen(lambda: self.audition.preview(message.song))

    @on(PlaybackRequested)
    def _engine_playback(self, message: PlaybackRequested) -> None:
        # Stage 8 is the last: the finished song loads next, and plays as it does.
        self.play_when_loaded = True

    def play_track_alone(self, track: Track) -> None:
        self.studio.listening.listen(
            lambda: (self.audition.toggle_alone(track), self.audition.play(0))
        )

    def loop_section(self, section: Section) -> None:
        self.studio.listening.listen(
            lambda: (self.audition.toggle_loop(section), self.audition.play(0))
        )

    # ── settings ────────────────────────────────────────────────────────────

    def _save(self, settings: Settings) -> None:
        from muse_tui.store.atomic import WriteFailed
        from muse_tui.store.settings import save_settings

        self.settings = settings
        try:
            save_settings(settings, self.config.settings_path)
        except WriteFailed as exc:
            self.notify(
                f"{exc}; the change lasts until you quit.",
                title="Settings not saved",
                severity="error",
            )

    def on_settings_screen_saved(self, message: SettingsScreen.Saved) -> None:
        new, old = message.settings, self.settings
        if new.midi_port != old.midi_port:
            self.audition.choose_port(new.midi_port)
        self._save(new)
        self._use_theme(new.theme)
        self._use_keymap(new.keymap)
        self.studio.listening.refresh_audition()
        self.notify("Settings saved.", timeout=3)

    def switch_theme(self, name: str) -> None:
        self._use_theme(name)  # remembered by `watch_theme`

    def watch_theme(self, name: str) -> None:
        """Remember a theme however it was chosen: our palette entries, Settings, or Textual's
        own "Change theme" command, which sets it here and nowhere else."""
        if name != self.settings.theme:
            self._save(replace(self.settings, theme=name))

    def choose_port(self, name: str | None) -> None:
        self.audition.choose_port(name)
        self._save(replace(self.settings, midi_port=name))
        self.studio.listening.refresh_audition()
        self.notify(
            f"Auditioning through {name or 'the virtual muse-studio port'} from the next play."
        )

    def toggle_gate(self, stage: int) -> None:
        gates = set(self.settings.approval_gates) ^ {stage}
        self._save(replace(self.settings, approval_gates=sorted(gates)))
        state = "stops for approval" if stage in gates else "no longer stops"
        self.notify(f"Stage {stage} {state} from the next run.", timeout=3)

    def _use_theme(self, name: str) -> None:
        self.theme = self._known_theme(name)

    def _known_theme(self, name: str) -> str:
        if name in self.available_themes:
            return name
        self.notices.append(f"There is no theme called {name!r}; using {FALLBACK_THEME}.")
        return FALLBACK_THEME

    def _start_in_theme(self, name: str) -> None:
        """Start in a theme without Textual's theme watcher, which would parse all the CSS again.

        Setting `theme` before the app runs queues a full reparse of every stylesheet
        for the first turn of the loop, and empties the parse cache, so the first
        frame waited for the CSS to be parsed twice over. Nothing is parsed yet
        here: the theme's variables and classes are all the watcher would change.
        """
        self.set_reactive(App.theme, self._known_theme(name))
        self._theme_chosen = True
        dark = self.current_theme.dark
        self.set_class(dark, "-dark-mode", update=False)
        self.set_class(not dark, "-light-mode", update=False)
        self.add_class(f"-theme-{self.theme}", update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())

    def _use_keymap(self, keymap: dict[str, str]) -> None:
        unknown: list[str] = []
        if keymap:
            from .keys import known_binding_ids  # every screen's bindings: only for a keymap

            unknown = sorted(set(keymap) - known_binding_ids())
        if unknown:
            message = (
                f"The keymap names {', '.join(unknown)}, which no key has; "
                "press ? to see the binding ids."
            )
            if self.is_running:
                self.notify(message, title="Keymap", severity="warning", timeout=10)
            else:
                self.notices.append(message)
        self.set_keymap({k: v for k, v in keymap.items() if k not in unknown})

    def get_css_variables(self) -> dict[str, str]:
        """The theme's colours and variables, and the studio's own, from one colour system.

        Textual's version generates the theme's colour system, then asks
        `get_theme_variable_defaults`, which needs it again for the studio's
        variables: generating it is most of the cost. `App.__init__` asks too, before
        the studio has chosen its theme (`_start_in_theme`), for a theme it never shows.
        """
        if not self._theme_chosen:
            return {}
        theme = self.current_theme
        colours = theme.to_color_system().generate()
        variables = {**studio_variable_defaults(colours), **colours, **theme.variables}
        self.theme_variables = variables
        return variables

    # ── hot reload ──────────────────────────────────────────────────────────

    def _skills_root(self) -> Path:
        from muse_tui.knowledge import skills_root

        return self.config.skills_dir or skills_root()

    @work(group="watch", exit_on_error=False)
    async def watch_files(self, kind: str, folders: Callable[[], list[Path]]) -> None:
        """Report each batch of changed files; `folders` is found off the loop.

        Finding the skills folder imports the knowledge layer (and pydantic), about
        a third of a second that would otherwise freeze the studio right after its
        first frame.
        """
        from .watch import changes

        async for batch in changes(await asyncio.to_thread(folders)):
            self.post_message(FilesChanged(kind, batch))

    @on(FilesChanged)
    def _files_changed(self, message: FilesChanged) -> None:
        if message.kind == "themes":
            for path in message.paths:
                if path.suffix == ".toml" and path.is_file():
                    self.reload_theme(path)
        else:
            self.reload_skills()

    def reload_theme(self, path: Path) -> Theme | None:
        """Use the theme file's new version; a broken one keeps the last good version."""
        try:
            theme = load_theme(path)
        except ThemeFileError as exc:
            self.notify(
                f"Theme {exc}; the last good version stays in use.", severity="error", timeout=10
            )
            return None
        self.register_theme(theme)
        if theme.name == self.theme:
            self.refresh_css(animate=False)
        return theme

    @work(thread=True, exclusive=True, group="skills", exit_on_error=False)
    def reload_skills(self) -> None:
        from . import watch

        problem = watch.reload_skills(self._skills_root())
        if problem:
            self.notify(problem, title="Skill file", severity="error", timeout=10)
        else:
            self.notify("Skills reloaded.", timeout=2)


def run_studio(config: StudioConfig | None = None) -> None:
    """Open the full-screen studio (what `muse-studio` with no arguments does)."""
    # Textual and the studio's modules, just imported, stay until the studio closes:
    # frozen, the cyclic collector's passes no longer walk them (as in the player process).
    gc.freeze()
    StudioApp(config).run()
