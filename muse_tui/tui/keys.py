"""Every binding of the studio by area: for the help screen and for checking the keymap."""

from __future__ import annotations

from textual.binding import Binding


def binding_areas() -> list[tuple[str, list[Binding]]]:
    """(area, bindings) in the order the help screen lists them."""
    from .app import StudioApp
    from .screens.ambiguity import AmbiguityModal
    from .screens.approval import ApprovalModal
    from .screens.confirm import ConfirmModal
    from .screens.help import HelpScreen
    from .screens.sessions import SessionsScreen
    from .screens.settings import SettingsScreen
    from .screens.studio import StudioScreen
    from .widgets.arrangement import ArrangementView
    from .widgets.compare import CompareView
    from .widgets.history import HistoryPane
    from .widgets.piano_roll import PianoRoll
    from .widgets.prompt import PromptInput

    def own(cls: type) -> list[Binding]:
        return [b for b in cls.BINDINGS if isinstance(b, Binding)]

    return [
        ("Anywhere", own(StudioApp)),
        ("Studio (outside the prompt)", own(StudioScreen)),
        ("Prompt", own(PromptInput)),
        ("Arrangement", own(ArrangementView)),
        ("Piano roll", own(PianoRoll)),
        ("History", own(HistoryPane)),
        ("Comparing alternatives", own(CompareView)),
        ("Approval gate", own(ApprovalModal)),
        ("Question before composing", own(AmbiguityModal)),
        ("Sessions", own(SessionsScreen)),
        ("Settings", own(SettingsScreen)),
        ("Confirm", own(ConfirmModal)),
        ("Help", own(HelpScreen)),
    ]


def known_binding_ids() -> set[str]:
    return {b.id for _, bindings in binding_areas() for b in bindings if b.id}
