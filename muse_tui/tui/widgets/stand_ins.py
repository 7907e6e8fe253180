"""Light panes the first frame draws where the prompt and the notes go, until those mount.

The prompt is a text area and the notes a rich log: importing, styling and
mounting Textual's `TextArea` (with its document classes) and `RichLog` (with
rich's pretty printer) cost the studio's first frame ~15 ms, for two boxes that
show nothing yet: an empty prompt with its placeholder, an empty log. The stand-ins
draw exactly what those widgets draw then, line for line, under the same rules
(`tests/ui/test_stand_ins.py` compares the two frames), and
`StudioScreen.mount_prompt_and_notes` puts the real widgets in their places right
after the first frame is painted.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import BindingType
from textual.content import Content
from textual.geometry import Size
from textual.strip import Strip
from textual.style import Style as ContentStyle
from textual.widget import Widget

from .prompt_keys import KEYS_BEFORE_TEXT, NEW_SONG_PLACEHOLDER, PROMPT_BINDINGS, PromptBox


class PromptStandIn(PromptBox, Widget, can_focus=True):
    """The empty prompt as its text area draws it: the placeholder, the cursor on its first letter.

    Nothing typed is lost: the keys and pastes the app sends here are held, and
    passed to the prompt in the order typed when it takes over (`hand_over`). Held,
    they reach no binding either, so enter, tab and escape do to the prompt what
    they would have done had it been there.
    """

    # TextArea's rules for what an empty text area draws (its border, padding and
    # height are the studio's, in studio.tcss).
    DEFAULT_CSS = """
    PromptStandIn {
        width: 1fr;
        height: 1fr;
        color: $foreground;
        background: $surface;
        pointer: text;
        & .prompt-stand-in--cursor {
            text-style: $input-cursor-text-style;
        }
        & .prompt-stand-in--placeholder {
            color: $text 40%;
        }
        &:ansi {
            .prompt-stand-in--cursor {
                color: $input-cursor-foreground;
                background: $input-cursor-background;
                text-style: reverse;
            }
        }
        &:dark {
            .prompt-stand-in--cursor {
                color: $input-cursor-foreground;
                background: $input-cursor-background;
            }
        }
        &:light {
            .prompt-stand-in--cursor {
                color: $text 90%;
                background: $foreground 70%;
            }
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "prompt-stand-in--cursor",
        "prompt-stand-in--placeholder",
    }
    BINDINGS: ClassVar[list[BindingType]] = PROMPT_BINDINGS  # shown in the footer, as the prompt's

    text = ""  # nothing is typed here: what is typed waits for the prompt (see hand_over)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._held: list[events.Event] = []

    def render_line(self, y: int) -> Strip:
        # What TextArea.render_line draws for an empty document with a placeholder.
        lines = Content.from_text(NEW_SONG_PLACEHOLDER).wrap(self.content_size.width)
        if y >= len(lines):
            return Strip.blank(self.size.width, self.rich_style)
        line = lines[y].stylize(self.get_visual_style("prompt-stand-in--placeholder"))
        if y == 0 and self.has_focus:  # a text area's cursor shows as soon as it has focus
            cursor = self.get_component_rich_style("prompt-stand-in--cursor")
            line = line.stylize(ContentStyle.from_rich_style(cursor), 0, 1)
        return Strip(line.render_segments(self.visual_style), line.cell_length)

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        # The prompt's: it types what is printable, except space and slash while empty.
        return key not in KEYS_BEFORE_TEXT and character is not None and character.isprintable()

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # A focused text area puts the terminal's cursor (hidden; input methods write
        # there) on its own as its size is set, before the frame is drawn: so here.
        if self.has_focus:
            self.app.cursor_position = self.content_region.offset
        return super()._size_updated(size, virtual_size, container_size, layout)

    def _forward_event(self, event: events.Event) -> None:
        # The app hands the focused widget each key and paste here, in the order typed.
        # Held here, not queued to this widget, none is left behind in a queue that no
        # one reads once the prompt has taken over (and the focus, so no more come).
        if isinstance(event, events.Key | events.Paste):
            event._set_forwarded()
            self._held.append(event)
        else:
            super()._forward_event(event)

    def hand_over(self, prompt: Widget) -> None:
        """Send `prompt` what was typed here, in order, as the app would have.

        Up to a key that moves the focus away (escape, tab): what was typed after it goes
        where the focus went, through the app, as if typed behind it there.
        """
        from ..key_order import KeysInOrder

        held, self._held = self._held, []
        app = self.app
        for index, event in enumerate(held):
            prompt._forward_event(event)
            if (
                isinstance(app, KeysInOrder)
                and isinstance(event, events.Key)
                and app.moves_focus(event)
            ):
                app.wait_behind(event, [_typed_anew(e) for e in held[index + 1 :]])
                return


def _typed_anew(event: events.Key | events.Paste) -> events.Key | events.Paste:
    """A held key or paste as the terminal's driver would hand it to the app."""
    if isinstance(event, events.Paste):
        return events.Paste(event.text)
    return events.Key(event.key, event.character)


class NotesStandIn(Widget):
    """The empty notes pane as its rich log draws it: blank lines in the log's colours."""

    DEFAULT_CSS = """
    NotesStandIn {
        background: $surface;
        color: $foreground;
    }
    """

    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.scrollable_content_region.width, self.rich_style)
