"""Storage: session folders, atomic writes, user settings."""

from muse_tui.store.settings import Settings, load_settings, save_settings, update_settings

__all__ = ["Settings", "load_settings", "save_settings", "update_settings"]
