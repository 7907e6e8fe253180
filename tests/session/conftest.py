"""A composed session for the application layer's tests (the iteration tests' own song)."""

from tests.iteration.conftest import composed, session  # noqa: F401  (fixtures)
