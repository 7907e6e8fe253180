"""muse-studio: a terminal studio that turns a prompt into a song MPC Beats can load."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # `__version__` on first use: importlib.metadata is a third of `muse-studio --help`.
    if name != "__version__":
        raise AttributeError(f"module 'muse_tui' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("muse-studio")
    except PackageNotFoundError:  # running from a source tree that was never installed
        found = "0.0.0+source"
    globals()["__version__"] = found
    return found
