"""The `muse-studio` command group."""

from __future__ import annotations

import click

from muse_tui import __version__


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="muse-studio")
@click.pass_context
def main(ctx: click.Context) -> None:
    """muse-studio: type a prompt, get a song MPC Beats can load.

    With no command it opens the full-screen studio.
    """
    if ctx.invoked_subcommand is None:
        from muse_tui.tui.app import run_studio  # Textual is loaded only to open the studio

        run_studio()


def _register() -> None:
    from muse_tui.cli.audition_commands import play, ports
    from muse_tui.cli.compose_commands import compose, intent, resume
    from muse_tui.cli.edit_commands import alternatives, modify, redo, undo
    from muse_tui.cli.session_commands import sessions

    commands = (compose, resume, intent, sessions, ports, play, modify, undo, redo, alternatives)
    for command in commands:
        main.add_command(command)


_register()
