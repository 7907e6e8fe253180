"""The application layer: the use cases the command line and the studio both run.

Opening, composing and resuming a session, changing it (made, proposed,
accepted or discarded), undo and redo, alternatives, answers and the live jam
live here once, with one locking policy (`changes.writing`) and one table from
an error to its sentence, next step and exit code (`failures.failure_of`).
The front ends only parse, show and call. No Textual, no click.

Nothing is imported here: `muse-studio --help` and the studio's first frame
load none of the layers below until a use case runs.
"""
