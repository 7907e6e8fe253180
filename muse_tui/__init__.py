"""muse-studio: a terminal studio that turns a prompt into a song MPC Beats can load."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("muse-studio")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
