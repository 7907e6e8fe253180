"""The base every contract model shares: camelCase on disk, snake_case in Python."""

from __future__ import annotations

import random
import re
import uuid
from datetime import datetime
from typing import Annotated, Self

from pydantic import AfterValidator, BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

#: Version of the on-disk JSON shapes. Bump the major part on a breaking change;
#: checkpoints from another major version are refused, not guessed at.
SCHEMA_VERSION = "1.0.0"

_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_SESSION_ID = re.compile(r"^session-\d{8}-[0-9a-z]{6}$")
_SESSION_SUFFIX_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


class Contract(BaseModel):
    """A validated contract: JSON uses camelCase aliases and unknown fields are refused."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="forbid",
        ser_json_inf_nan="strings",
    )

    def to_json(self, *, indent: int | None = 2) -> str:
        """Serialise with camelCase keys, the form written to disk."""
        return self.model_dump_json(by_alias=True, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """Parse and validate JSON written by `to_json` (or by hand)."""
        return cls.model_validate_json(text)


def _check_uuid(value: str) -> str:
    if not _UUID.match(value):
        raise ValueError(f"{value!r} is not a lowercase UUID")
    return value


def _check_session_id(value: str) -> str:
    if not _SESSION_ID.match(value):
        raise ValueError(f"{value!r} is not a session id like 'session-20261122-a1b2c3'")
    return value


Uuid = Annotated[str, AfterValidator(_check_uuid)]
SessionId = Annotated[str, AfterValidator(_check_session_id)]


def new_id(rng: random.Random | None = None) -> str:
    """A UUID4 string; pass an RNG to make it reproducible (tests, seeded runs)."""
    if rng is None:
        return str(uuid.uuid4())
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def new_session_id(now: datetime, rng: random.Random | None = None) -> str:
    """A session id `session-YYYYMMDD-xxxxxx` for a session created at `now`."""
    pick = (rng or random.SystemRandom()).choice
    suffix = "".join(pick(_SESSION_SUFFIX_ALPHABET) for _ in range(6))
    return f"session-{now:%Y%m%d}-{suffix}"
