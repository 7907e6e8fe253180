"""The General MIDI drum map: which key plays which drum, on MIDI channel 10."""

from __future__ import annotations

KICK = 36
KICK_ACOUSTIC = 35
RIM = 37
SNARE = 38
CLAP = 39
SNARE_ELECTRIC = 40
TOM_FLOOR_LOW = 41
CLOSED_HAT = 42
TOM_FLOOR_HIGH = 43
PEDAL_HAT = 44
TOM_LOW = 45
OPEN_HAT = 46
TOM_LOW_MID = 47
TOM_HIGH_MID = 48
CRASH = 49
TOM_HIGH = 50
RIDE = 51
CHINA = 52
RIDE_BELL = 53
TAMBOURINE = 54
SPLASH = 55
COWBELL = 56
CRASH_2 = 57
RIDE_2 = 59
BONGO_HIGH = 60
BONGO_LOW = 61
CONGA_MUTE = 62
CONGA_HIGH = 63
CONGA_LOW = 64
TIMBALE_HIGH = 65
TIMBALE_LOW = 66
AGOGO_HIGH = 67
AGOGO_LOW = 68
CABASA = 69
SHAKER = 70
CLAVES = 75
WOODBLOCK_HIGH = 76
WOODBLOCK_LOW = 77
TRIANGLE = 81

#: Every key of the GM percussion map (35–81), as the piano roll labels it.
DRUM_NAMES: dict[int, str] = {
    35: "Kick 2",
    36: "Kick",
    37: "Rim",
    38: "Snare",
    39: "Clap",
    40: "Snare 2",
    41: "Low Floor Tom",
    42: "Closed Hat",
    43: "High Floor Tom",
    44: "Pedal Hat",
    45: "Low Tom",
    46: "Open Hat",
    47: "Low-Mid Tom",
    48: "Hi-Mid Tom",
    49: "Crash",
    50: "High Tom",
    51: "Ride",
    52: "China",
    53: "Ride Bell",
    54: "Tambourine",
    55: "Splash",
    56: "Cowbell",
    57: "Crash 2",
    58: "Vibraslap",
    59: "Ride 2",
    60: "Hi Bongo",
    61: "Low Bongo",
    62: "Mute Conga",
    63: "Open Conga",
    64: "Low Conga",
    65: "High Timbale",
    66: "Low Timbale",
    67: "High Agogo",
    68: "Low Agogo",
    69: "Cabasa",
    70: "Shaker",
    71: "Short Whistle",
    72: "Long Whistle",
    73: "Short Guiro",
    74: "Long Guiro",
    75: "Claves",
    76: "Hi Wood Block",
    77: "Low Wood Block",
    78: "Mute Cuica",
    79: "Open Cuica",
    80: "Mute Triangle",
    81: "Open Triangle",
}

#: The voice names drum patterns are written in (skills/rhythm), and the key each plays.
VOICE_PITCHES: dict[str, int] = {
    "kick": KICK,
    "snare": SNARE,
    "rim": RIM,
    "clap": CLAP,
    "closed_hat": CLOSED_HAT,
    "pedal_hat": PEDAL_HAT,
    "open_hat": OPEN_HAT,
    "crash": CRASH,
    "china": CHINA,
    "ride": RIDE,
    "ride_bell": RIDE_BELL,
    "tom_high": TOM_HIGH,
    "tom_mid": TOM_LOW_MID,
    "tom_low": TOM_LOW,
    "tom_floor": TOM_FLOOR_LOW,
    "shaker": SHAKER,
    "tambourine": TAMBOURINE,
    "cowbell": COWBELL,
    "claves": CLAVES,
    "conga_high": CONGA_HIGH,
    "conga_low": CONGA_LOW,
    "conga_mute": CONGA_MUTE,
    "bongo_high": BONGO_HIGH,
    "bongo_low": BONGO_LOW,
    "cabasa": CABASA,
    "woodblock": WOODBLOCK_HIGH,
    "agogo_high": AGOGO_HIGH,
    "agogo_low": AGOGO_LOW,
    "timbale_high": TIMBALE_HIGH,
    "triangle": TRIANGLE,
}


def drum_name(pitch: int) -> str:
    """The drum a key plays on channel 10 ("Kick" for 36), or the key number if none."""
    return DRUM_NAMES.get(pitch, f"Key {pitch}")
