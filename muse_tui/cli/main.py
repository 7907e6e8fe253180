"""The `muse-studio` command group."""

from __future__ import annotations

import importlib

import click

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
    "ask": "muse_tui.cli.ask_commands:ask",
    "jam": "muse_tui.cli.jam_commands:jam",
}

#: The line `muse-studio --help` shows for each command, so listing them imports none
#: (the engine and the contracts are most of a second). A test checks every command
#: has its line.
SHORT_HELP = {
    "compose": "Compose a song from a prompt and write its session folder.",
    "resume": "Resume a pipeline after a crash or a cancel.",
    "intent": "Show how a prompt is understood: genre, tempo, key, moods.",
    "sessions": "List, inspect and clean up session folders.",
    "ports": "List MIDI outputs; * marks the one `play` uses.",
    "play": "Play a session through a MIDI output.",
    "modify": 'Change a session\'s song: "bass simpler", "3rd chord darker".',
    "undo": "Undo the last change(s) to a session's song.",
    "redo": "Redo changes that were undone.",
    "alternatives": "Generate, compare and pick A/B alternatives for one element.",
    "ask": 'Ask about a song or theory ("why Eb minor?", "notes in Cmaj9"); changes nothing.',
    "jam": 'Jam with a rule-based band on a loop: "@drums busier", "everyone, key of D".',
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from SHORT_HELP, importing no command module."""
        rows = []
        for name in self.list_commands(ctx):
            command = None if name in SHORT_HELP else self.get_command(ctx, name)
            if name in SHORT_HELP or (command is not None and not command.hidden):
                help_line = SHORT_HELP.get(name) or command.get_short_help_str()  # type: ignore[union-attr]
                rows.append((name, help_line))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module, attribute = COMMANDS[name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from muse_tui import __version__  # read from the installed metadata only when asked

    click.echo(f"muse-studio, version {__version__}")
    ctx.exit()


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.pass_context
def main(ctx: click.Context) -> None:
    """muse-studio: type a prompt, get a song MPC Beats can load.

    With no command it opens the full-screen studio.
    """
    if ctx.invoked_subcommand is None:
        from muse_tui.tui.app import run_studio  # Textual is loaded only to open the studio

        run_studio()
