"""The Jam screen: the band panel, the band's chat, and the directions prompt.

Each member is a row: who they are and what they play, a mini roll of their
part as it sounds now, mute/solo marks, and their latest thought. Directions
typed in the prompt ("@drums busier", "everyone, key of D") land on the next
loop boundary; ctrl+s keeps the loop heard now as an ordinary session folder.
Without a MIDI output the jam still runs: each Enter plays the next round on
screen only, and the log says why there is no sound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ..widgets.mini_roll import MiniRoll
from ..widgets.notes_log import NotesLog

if TYPE_CHECKING:
    from muse_tui.audition.controls import PlayerControls
    from muse_tui.contracts.jam import JamRound, MemberState
    from muse_tui.engine.jam import Jam
    from muse_tui.session.jam_live import LiveJam

    from ..app import StudioApp

#: How often the playhead is looked at (seconds).
TICK_S = 0.03


class MemberRow(Vertical):
    """One member: name, instrument and state; their part as a mini roll; their thought."""

    DEFAULT_CSS = """
    MemberRow { height: auto; border-bottom: solid $panel; padding: 0 1; }
    MemberRow .member-head { text-style: bold; }
    MemberRow .member-thought { color: $text-muted; }
    MemberRow MiniRoll { height: 3; }
    """

    def __init__(self, member: MemberState, loop_beats: float, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.member = member
        self.loop_beats = loop_beats
        self.muted = False
        self.soloed = False

    def compose(self) -> ComposeResult:
        yield Static(self._head(), classes="member-head", markup=False)
        yield self._roll()
        yield Static(self.member.thought or " ", classes="member-thought")

    def show(self, member: MemberState, loop_beats: float) -> None:
        """Redraw for the member as they play now."""
        changed = member.part != self.member.part
        self.member, self.loop_beats = member, loop_beats
        self.query_one(".member-head", Static).update(self._head())
        if member.thought:
            self.query_one(".member-thought", Static).update(member.thought)
        if changed:
            self.query_one(MiniRoll).remove()
            self.mount(self._roll(), before=self.query_one(".member-thought", Static))

    def marks(self, muted: bool, soloed: bool) -> None:
        self.muted, self.soloed = muted, soloed
        self.query_one(".member-head", Static).update(self._head())

    def _roll(self) -> MiniRoll:
        regions = [self.member.part] if self.member.part is not None else []
        track = self.member.track.model_copy(update={"regions": regions})
        return MiniRoll(track, self.loop_beats)

    def _head(self) -> str:
        m = self.member
        marks = "".join(
            f" · {mark}" for mark, on in (("MUTED", self.muted), ("SOLO", self.soloed)) if on
        )
        state = "laid out" if m.laid_out else m.change
        locked = " · on the kick" if m.locked_to_kick else ""
        return f"{m.name} — {m.track.name} · {state}{locked}{marks}"


class JamScreen(Screen[None]):
    """Jam with the band on a prompt; escape goes back to the studio."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Back", id="jam.leave",
                tooltip="Stop the jam, back to the studio"),
        Binding("ctrl+s", "keep", "Keep this", id="jam.keep",
                tooltip="Write the loop heard now as a session folder for MPC Beats"),
        Binding("f5", "mute(0)", "Mute", id="jam.mute_1",
                tooltip="Mute or unmute a member: F5 the first … F8 the fourth"),
        Binding("f6", "mute(1)", show=False, id="jam.mute_2"),
        Binding("f7", "mute(2)", show=False, id="jam.mute_3"),
        Binding("f8", "mute(3)", show=False, id="jam.mute_4"),
        Binding("f9", "solo(0)", "Solo", id="jam.solo_1",
                tooltip="Solo or unsolo a member: F9 the first … F12 the fourth"),
        Binding("f10", "solo(1)", show=False, id="jam.solo_2"),
        Binding("f11", "solo(2)", show=False, id="jam.solo_3"),
        Binding("f12", "solo(3)", show=False, id="jam.solo_4"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    JamScreen #jam-title { height: 1; padding: 0 1; background: $panel; text-style: bold; }
    JamScreen #jam-keys { height: 1; padding: 0 1; color: $text-muted; }
    JamScreen #band { height: 1fr; }
    JamScreen #jam-log { height: 8; border-top: solid $panel; }
    JamScreen #direction { dock: bottom; margin-bottom: 1; }
    /* Under 30 rows (80x24) the whole band stays on screen: a member is a head and a
       one-row roll; what they say is in the chat below, which keeps six rows. */
    JamScreen.-short MemberRow { border-bottom: none; }
    JamScreen.-short MemberRow MiniRoll { height: 1; }
    JamScreen.-short MemberRow .member-thought { display: none; }
    JamScreen.-short #jam-log { height: 6; }
    """

    AUTO_FOCUS = "#direction"

    app: StudioApp  # type: ignore[assignment]

    def __init__(self, prompt: str, seed: int = 0) -> None:
        super().__init__(id="jam")
        self.prompt = prompt
        self.seed = seed
        self.jam: Jam | None = None
        self.live: LiveJam | None = None
        self.shown: JamRound | None = None
        self.muted: set[str] = set()
        self.soloed: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Static(f"Jam — {self.prompt}", id="jam-title")
        yield Static(
            "Directions land on the next loop · F5–F8 mute, F9–F12 solo a member · "
            "ctrl+s keeps the loop as a session · esc back",
            id="jam-keys",
        )
        yield VerticalScroll(id="band")
        yield NotesLog(id="jam-log")
        yield Input(
            placeholder="@drums busier · @bass lock to the kick · everyone, key of D · half time",
            id="direction",
        )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.log_line("The band is setting up…", "dim")
        self._start()

    # ── the band ────────────────────────────────────────────────────────────

    @work(thread=True, exclusive=True, group="jam")
    def _start(self) -> None:
        """Set the band up and open the output, off the loop (each takes a moment)."""
        from muse_tui.engine.jam import Jam
        from muse_tui.knowledge import SkillFileError

        try:
            jam = Jam(self.prompt, self.seed)
        except SkillFileError as exc:
            self.app.call_from_thread(self.log_line, f"A skill file is broken: {exc}.", "error")
            return
        player, problem = self._player()
        self.app.call_from_thread(self._started, jam, player, problem)

    def _player(self) -> tuple[PlayerControls | None, str | None]:
        from ..auditioning import AuditionUnavailable

        audition = self.app.audition
        if audition.player is not None and audition.player.status != "error":
            audition.stop()
            return cast("PlayerControls", audition.player), None
        try:
            audition.close()
            audition.player = audition.open_player(audition.port_name)
        except AuditionUnavailable as exc:
            return None, f"No MIDI output, so no sound: {exc.detail} {exc}"
        return cast("PlayerControls", audition.player), None

    def _started(self, jam: Jam, player: PlayerControls | None, problem: str | None) -> None:
        from muse_tui.session.jam_live import LiveJam

        self.jam = jam
        context = jam.round.context
        self.query_one("#jam-title", Static).update(
            f"Jam — {self.prompt} · {context.key} {context.mode}, {context.tempo:g} BPM, "
            f"{context.bars}-bar loop"
        )
        band = self.query_one("#band", VerticalScroll)
        for member in jam.round.members:
            band.mount(MemberRow(member, context.loop_beats, id=f"member-{member.id}"))
        self._said(jam.round)
        self.shown = jam.round
        if player is None:
            self.log_line(problem or "No MIDI output.", "warning")
            self.log_line("Each enter plays the next round here, without sound.", "dim")
            return
        self.live = LiveJam(jam, player)
        self.live.start()
        self.log_line(f"Playing through {player.port_name or 'the virtual output'}.", "dim")
        self.set_interval(TICK_S, self._tick)

    def _tick(self) -> None:
        if self.live is None:
            return
        queued = self.live.tick()
        if queued is not None and queued.directives:
            self.log_line(f"Next loop: {', '.join(d.text for d in queued.directives)}", "dim")
        sounding = self.live.sounding
        if sounding is not None and sounding is not self.shown:
            self._show(sounding)
        if self.live.player.status == "error" and self.live.player.last_error:
            self.log_line(self.live.player.last_error, "error")
            self.live = None

    def _show(self, round_: JamRound) -> None:
        self.shown = round_
        for member in round_.members:
            self.query_one(f"#member-{member.id}", MemberRow).show(
                member, round_.context.loop_beats
            )
        context = round_.context
        self.query_one("#jam-title", Static).update(
            f"Jam — {self.prompt} · {context.key} {context.mode}, {context.tempo:g} BPM, "
            f"round {round_.number}"
        )
        self._said(round_)

    def _said(self, round_: JamRound) -> None:
        for note in round_.notes:
            self.log_line(note, "bold")
        for member in round_.members:
            if member.thought:
                self.log_line(f"{member.name}: {member.thought}")

    def log_line(self, text: str, tone: str = "") -> None:
        self.query_one("#jam-log", NotesLog).say(text, tone)

    # ── the producer ────────────────────────────────────────────────────────

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        if not line or self.jam is None:
            if self.jam is not None and self.live is None:
                self._show(self.jam.next_round(""))
            return
        understood = self.jam.directives(line)
        if not understood:
            self.log_line(
                f"The band did not catch {line!r}: try '@drums busier', '@bass lock to the kick', "
                "'everyone, key of D' or 'half time'.",
                "warning",
            )
            return
        self.log_line(f"You: {line}", "bold")
        if self.live is not None:
            self.live.direct(line)
        else:
            self._show(self.jam.next_round(line))

    def action_mute(self, index: int) -> None:
        self._toggle(index, self.muted, solo=False)

    def action_solo(self, index: int) -> None:
        self._toggle(index, self.soloed, solo=True)

    def _toggle(self, index: int, marked: set[str], *, solo: bool) -> None:
        if self.jam is None or not 0 <= index < len(self.jam.round.members):
            return
        member = self.jam.round.members[index]
        on = member.id not in marked
        (marked.add if on else marked.discard)(member.id)
        if self.live is not None:
            (self.live.solo if solo else self.live.mute)(member.id, on)
        row = self.query_one(f"#member-{member.id}", MemberRow)
        row.marks(member.id in self.muted, member.id in self.soloed)
        if self.soloed and all(m in self.muted for m in self.soloed):
            self.log_line("Silent: every soloed member is muted.", "warning")

    def action_keep(self) -> None:
        if self.jam is None:
            return
        self._keep()

    @work(thread=True, exclusive=True, group="jam-keep")
    def _keep(self) -> None:
        from muse_tui.store.atomic import WriteFailed, advice_sentence

        root = self.app.sessions_root()
        try:
            folder = self.live.keep(root) if self.live is not None else self.jam.keep(root)  # type: ignore[union-attr]
        except (WriteFailed, OSError) as exc:
            self.app.call_from_thread(
                self.log_line,
                f"The loop could not be kept: {exc}. {advice_sentence(exc)}",
                "error",
            )
            return
        self.app.call_from_thread(
            self.log_line,
            f"Kept as {folder.name}: open it from the sessions list (ctrl+o).",
            "success",
        )

    def action_leave(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
        if self.jam is not None:
            self.jam.close()
        audition = self.app.audition
        if audition.player is not None and audition.song is not None:
            audition.reload(audition.song)
        self.app.pop_screen()
