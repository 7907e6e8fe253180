"""The `muse-studio` command group."""

from __future__ import annotations

import importlib

import click

from muse_tui import __version__

#: Command name → "module:attribute". Loaded only when used, so opening the studio
#: (no command) does not pay for importing every headless command.
COMMANDS = {
    "compose": "muse_tui.cli.compose_commands:compose",
    "resume": "muse_tui.cli.compose_commands:resume",
    "intent": "muse_tui.cli.compose_commands:intent",
    "sessions": "muse_tui.cli.session_commands:sessions",
    "ports": "muse_tui.cli.audition_commands:ports",
    "play": "muse_tui.cli.audition_commands:play",
    "modify": "muse_tui.cli.edit_commands:modify",
    "undo": "muse_tui.cli.edit_commands:undo",
    "redo": "muse_tui.cli.edit_commands:redo",
    "alternatives": "muse_tui.cli.edit_commands:alternatives",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module, attribute = COMMANDS[name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="muse-studio")
@click.pass_context
def main(ctx: click.Context) -> None:
    """muse-studio: type a prompt, get a song MPC Beats can load.

    With no command it opens the full-screen studio.
    """
    if ctx.invoked_subcommand is None:
        from muse_tui.tui.app import run_studio  # Textual is loaded only to open the studio

        run_studio()
