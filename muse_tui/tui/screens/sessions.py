"""The sessions browser: every session, newest first; open, resume or delete one."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from muse_tui.store.atomic import WriteFailed
from muse_tui.store.sessions import (
    BadSessionReference,
    SessionSummary,
    delete_session,
    list_sessions,
)

from ..messages import OpenSession
from .confirm import ConfirmModal

STATUS_WORDS = {"completed": "✓ done", "completed_partial": "◐ partial"}


class SessionsScreen(Screen[None]):
    """Lists the sessions under the sessions folder."""

    DEFAULT_CSS = """
    SessionsScreen .title {
        text-style: bold;
        color: $primary;
        padding: 0 1;
        background: $panel;
        width: 100%;
    }
    SessionsScreen #sessions { height: 1fr; }
    SessionsScreen #sessions-empty { padding: 1 2; height: auto; color: $foreground-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", priority=True, id="sessions.open",
                tooltip="Open the session in the studio"),
        Binding("r", "resume", "Resume", id="sessions.resume",
                tooltip="Continue a run that stopped early, from its last checkpoint"),
        Binding("d,delete", "delete", "Delete", id="sessions.delete",
                tooltip="Delete a session that did not finish (asks first)"),
        Binding("escape", "back", "Back", id="sessions.back", tooltip="Back to the studio"),
    ]  # fmt: skip

    class Listed(Message):
        def __init__(self, sessions: list[SessionSummary]) -> None:
            super().__init__()
            self.sessions = sessions

    def __init__(self, root: Path, busy: str | None = None) -> None:
        super().__init__(classes="sessions")
        self.root = root
        self.busy = busy  # the session a run is writing right now
        self.sessions: list[SessionSummary] = []

    def compose(self) -> ComposeResult:
        yield Static(f"Sessions in {self.root}", classes="title")
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True, id="sessions")
        table.add_columns("created", "status", "prompt", "genre", "key", "tempo", "session")
        yield table
        yield Static("", id="sessions-empty", classes="summary")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.refresh_list()

    @work(thread=True, exclusive=True, group="sessions", exit_on_error=False)
    def refresh_list(self) -> None:
        self.post_message(self.Listed(list_sessions(self.root)))

    @on(Listed)
    def _show(self, event: Listed) -> None:
        self.sessions = event.sessions
        table = self.query_one(DataTable)
        table.clear()
        for s in self.sessions:
            status = STATUS_WORDS.get(s.status, s.status) if s.complete else f"… {s.status}"
            tempo = f"{s.tempo:g}" if s.tempo else ""
            prompt = s.prompt if len(s.prompt) <= 40 else s.prompt[:39] + "…"
            table.add_row(
                s.date_text, status, prompt, s.genre, s.key, tempo, s.session_id, key=s.session_id
            )
        empty = self.query_one("#sessions-empty", Static)
        empty.update("No sessions yet: compose one from the studio.")
        empty.display = not self.sessions

    @property
    def chosen(self) -> SessionSummary | None:
        table = self.query_one(DataTable)
        if not self.sessions or table.cursor_row >= len(self.sessions):
            return None
        return self.sessions[table.cursor_row]

    def action_open(self) -> None:
        if (chosen := self.chosen) is not None:
            self.app.post_message(OpenSession(chosen.path))
            self.dismiss()

    def action_resume(self) -> None:
        chosen = self.chosen
        if chosen is None:
            return
        if chosen.complete:
            self.notify("That session finished; open it with enter.", severity="warning")
            return
        self.app.post_message(OpenSession(chosen.path, resume=True))
        self.dismiss()

    def action_delete(self) -> None:
        chosen = self.chosen
        if chosen is None:
            return
        if chosen.complete:
            self.notify(
                "Only sessions that did not finish can be deleted here; "
                "remove a finished one from its folder.",
                severity="warning",
            )
            return
        if chosen.session_id == self.busy:
            self.notify("A run is writing that session right now.", severity="warning")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._delete(chosen)

        self.app.push_screen(
            ConfirmModal("Delete this session?", f"{chosen.session_id} — {chosen.prompt}"),
            confirmed,
        )

    def _delete(self, chosen: SessionSummary) -> None:
        try:
            delete_session(self.root, chosen.path)
        except (BadSessionReference, WriteFailed) as exc:
            self.notify(f"{exc}; check the folder and its permissions.", severity="error")
            return
        self.notify(f"Deleted {chosen.session_id}.")
        self.refresh_list()

    def action_back(self) -> None:
        self.dismiss()
