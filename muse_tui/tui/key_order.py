"""Keys typed right behind a focus key go where the focus went.

Textual hands each key to the widget focused when the app reads it. The widget handles
it on its own turn, and the key's bindings (tab's focus move among them) run when it
bubbles back up to the app. So a key typed a few ms behind tab reached the widget tab
was leaving: "ab", tab, m typed fast gave "abm" in the prompt and muted nothing.
Priority bindings for the focus keys only reversed the race: the keys queued before one
then had their bindings looked up against the new focus (x, enter, tab submitted
nothing; m, / muted nothing).

`KeysInOrder` keeps both orders. A key that may move the focus is sent on as usual
and marked in flight; the keys and pastes typed after it wait in the app until it has
come back up and its binding has run (the focus has moved by then: the studio's focus
actions set it at once), then go on in order, each to the widget focused when its turn
comes. A focus key that some widget stops on the way never comes back; the keys behind
it go on after `RELEASE_AFTER_S` regardless.

Printable keys queued together are an unbracketed paste, as is a `Typed` run (the
terminal's driver reads printable text read together as one, see `typed_runs`): where the
focused widget types any of its characters, it goes on to it as one `Paste`, a leading space
included (the empty prompt's play key when pressed alone); any other run goes on as its keys,
one by one (`_burst`, `_typed`).
"""

from __future__ import annotations

from functools import partial

from textual import events
from textual.app import App
from textual.timer import Timer

from .typed_runs import Typed, key_for

#: The actions that move the focus: Textual's tab and shift+tab, the studio's escape and /.
FOCUS_ACTIONS = frozenset(
    {"app.focus_next", "app.focus_previous", "focus_next", "focus_previous",
     "leave_prompt", "focus_prompt"}
)  # fmt: skip


class KeysInOrder(App[None]):
    """An app whose keys typed behind a focus key reach the widget the focus moved to."""

    #: How long keys wait behind a focus key that never comes back up (a widget stopped it).
    RELEASE_AFTER_S = 0.15

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._in_flight: events.Key | None = None
        self._behind: list[events.Key | events.Paste | Typed] = []
        self._release_timer: Timer | None = None

    def moves_focus(self, key: events.Key) -> bool:
        """Whether `key`, read now, is bound to a focus move where the focus is.

        A key the focused widget types (a printable in the prompt) is not; nor is a key
        while no widget has the focus. Apps may narrow this further.
        """
        focused = self.focused
        if focused is None or focused.check_consume_key(key.key, key.character):
            return False
        # The chain Textual itself resolves a key's bindings along: the focused widget up.
        for _node, bindings in self.screen._modal_binding_chain:
            for binding in bindings.key_to_bindings.get(key.key, ()):
                if binding.action in FOCUS_ACTIONS:
                    return True
        return False

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, Typed):
            await self._typed(event)
            return
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            if self._in_flight is not None:
                self._behind.append(event)  # typed behind a focus key: waits for its move
                return
            if isinstance(event, events.Key) and event.is_printable:
                burst = self._burst(event)
                if isinstance(burst, Typed):
                    await self._typed(burst)
                    return
                event = burst
            if isinstance(event, events.Key) and self.moves_focus(event):
                self._in_flight = event
                release = partial(self._release, event)
                self._release_timer = self.set_timer(self.RELEASE_AFTER_S, release)
        await super().on_event(event)

    #: How long keys wait behind a focus key handed over with others (`wait_behind`): it comes
    #: back once the widget has taken everything queued before it, which may take a while.
    HANDED_OVER_RELEASE_S = 2.0

    def wait_behind(self, key: events.Key, after: list[events.Key | events.Paste | Typed]) -> None:
        """`key`, a focus key sent on by another (the prompt's stand-in), is in flight: what
        was typed `after` it waits for its move, as keys typed behind it here would, and so
        does what is typed from now until it has moved."""
        self._in_flight = key
        self._behind[:0] = after
        release = partial(self._release, key)
        self._release_timer = self.set_timer(self.HANDED_OVER_RELEASE_S, release)

    def _types(self, key: events.Key) -> bool:
        """Whether `key` is a character the focused widget types (the prompt's letters)."""
        focused = self.focused
        return (
            key.is_printable
            and focused is not None
            and focused.check_consume_key(key.key, key.character)
        )

    def _burst(self, first: events.Key) -> events.Key | events.Paste | Typed:
        """`first` and the printable keys queued right behind it, as one paste.

        A paste the terminal does not bracket arrives as one key per character, all at
        once. Typed one by one, each key cost a binding lookup here and a re-wrap of the
        whole line in the text area: 10,000 took minutes. Keys queued together are not a
        producer's typing, which the loop keeps up with, so a key typed alone stays a key;
        the keys queued together are a `Typed` run, which `_typed` hands on (as one paste
        where the focused widget types them, its first space included: not the play key).
        """
        characters = [first.character or ""]
        # Textual's own look at the next message, which `_get_message` then returns.
        while (
            isinstance(queued := self._peek_message(), events.Key)
            and not queued.is_forwarded
            and queued.is_printable
        ):
            self._pending_message = None  # taken: it is in the paste
            characters.append(queued.character or "")
        if len(characters) == 1:
            return first
        run = Typed("".join(characters))
        run.time = first.time
        return run

    def _types_any(self, text: str) -> bool:
        """Whether the focused widget types any of `text`'s characters: then all of `text` is
        a paste to it. Its leading space too, which the empty prompt leaves to the play key
        when pressed alone: a paste beginning with a space started playback."""
        return any(self._types(key_for(character)) for character in dict.fromkeys(text))

    async def _typed(self, run: Typed) -> None:
        """`run`'s characters as the keys they are: as one paste where the focused widget
        types any of them, else one by one (a focus key among them moves the focus, and
        the rest waits for it, then goes where it went)."""
        text, start = run.text, 0
        while start < len(text):
            if self._in_flight is not None:
                rest = Typed(text[start:])
                rest.time = run.time
                self._behind.append(rest)  # typed behind a focus key: waits for its move
                return
            key = key_for(text[start])
            key.time = run.time
            if start < len(text) - 1 and self._types_any(text[start:]):
                paste = events.Paste(text[start:])
                paste.time = run.time
                await super().on_event(paste)
                return
            await self.on_event(key)
            start += 1

    def _on_key(self, event: events.Key) -> None:
        # Textual calls every class's own `_on_key`, this one before App's, which runs the
        # key's bindings (so no super() call here): the keys behind it go on once this
        # message is done, the focus moved.
        if event is self._in_flight:
            self.call_next(partial(self._release, event))

    async def _release(self, key: events.Key) -> None:
        """Send on what was held behind `key`, in order, until another focus key holds the rest.

        A release for a key no longer in flight (its timer and its return both fired) is void.
        """
        if key is not self._in_flight:
            return
        self._in_flight = None
        if self._release_timer is not None:
            self._release_timer.stop()
            self._release_timer = None
        while self._behind and self._in_flight is None:
            await self.on_event(self._behind.pop(0))
