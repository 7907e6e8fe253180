"""One song's listening figures, and the set's table of issue-13/14 figures."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from bench.listening import metrics as m
from bench.listening.heard import HeardSong
from bench.listening.prompts import ListeningPrompt, PromptSet

HOOK_BARS = 4


@dataclass
class SongFigures:
    """What one composed song scored on every per-song measure (None: does not apply)."""

    prompt: ListeningPrompt
    seed: int
    genre: str
    main_bar: m.DrumBar
    progression: tuple[str, ...]
    missing_instruments: list[str]
    roles_match: bool | None
    harmony_doubling: float | None
    harmony_peak: int
    key_right: bool | None
    heard_key: tuple[int, str] | None
    lead: bool
    lead_rest: float | None
    lead_bars: tuple[int, int]
    chorus_motifs: list[bool]
    hook_agreement: float | None
    chorus_difference: float | None
    copies: int
    section_lengths: list[tuple[str, int]]
    crashes: tuple[int, int]
    build_ratios: list[float | None] = field(default_factory=list)


def measure(song: HeardSong, prompt: ListeningPrompt, seed: int, ps: PromptSet) -> SongFigures:
    """Every per-song figure of one composed song."""
    bpb = song.beats_per_bar
    missing = []
    for word in prompt.instruments:
        spec = ps.instruments[word]
        if not m.instrument_present(
            song, roles=spec.roles, programs=spec.programs, drum_notes=spec.drum_notes
        ):
            missing.append(word)
    roles = [t.role for t in song.tracks]
    asked = prompt.key or song.declared_key
    heard = m.heard_key(song)
    lead = m.lead_notes(song)
    choruses = m.choruses(song)
    motifs = [m.motif_recurs(m.section_notes(lead, c, bpb), c.bars, bpb) for c in choruses]
    agreement = difference = None
    if len(choruses) >= 2:
        first, second = choruses[0], choruses[1]
        agreement = m.hook_agreement(
            m.section_notes(lead, first, bpb), m.section_notes(lead, second, bpb), HOOK_BARS * bpb
        )
        difference = m.section_difference(song, first, second)
    return SongFigures(
        prompt=prompt,
        seed=seed,
        genre=song.genre,
        main_bar=m.main_drum_bar(song),
        progression=song.progression,
        missing_instruments=missing,
        roles_match=(
            m.listed_roles_match(prompt.listed_roles, ps.role_aliases, roles)
            if prompt.listed_roles
            else None
        ),
        harmony_doubling=m.harmony_doubling(song),
        harmony_peak=m.most_sounding(song.tracks_with_role(*m.HARMONY_ROLES)),
        key_right=(heard == m.parse_key(asked)) if heard and asked else None,
        heard_key=heard,
        lead=bool(lead) and m.lead_present(song),
        lead_rest=m.rest_share(lead, song.sections, bpb) if lead else None,
        lead_bars=m.lead_bar_variety(lead, bpb),
        chorus_motifs=motifs,
        hook_agreement=agreement,
        chorus_difference=difference,
        copies=m.copied_sections(song),
        section_lengths=[(s.name, s.bars) for s in song.sections],
        crashes=m.crashes_on_starts(song),
        build_ratios=[m.build_density_ratio(song, b) for b in m.builds(song)],
    )


def first_song_per_genre(songs: list[SongFigures]) -> dict[str, SongFigures]:
    """The first song with drums for each expected genre (the genre-pair comparison uses it).

    A song without drums has no groove to compare: two of them would "overlap" fully.
    """
    first: dict[str, SongFigures] = {}
    for s in songs:
        if s.main_bar:
            first.setdefault(s.prompt.genre, s)
    return first


def _share(hits: int, total: int) -> str:
    return f"{hits}/{total} ({hits / total:.0%})" if total else "n/a"


def figure_rows(
    songs: list[SongFigures], variety: dict[str, list[SongFigures]]
) -> list[tuple[str, str, str]]:
    """(figure, today's value, the issue's target) for the table."""
    rows: list[tuple[str, str, str]] = []
    seed_one = first_song_per_genre(songs)
    pairs = m.genre_pair_overlaps({g: (s.prompt.family, s.main_bar) for g, s in seed_one.items()})
    unrelated = [p for p in pairs if not p[3]]
    over = [p for p in unrelated if p[2] > 0.7]
    drumless = {s.prompt.genre for s in songs} - set(seed_one)
    if unrelated:
        values = [p[2] for p in unrelated]
        rows.append(
            (
                f"drum-bar Jaccard, {len(seed_one)} genres, unrelated pairs: max / mean",
                f"{max(values):.2f} / {statistics.mean(values):.2f}",
                "max < 0.7",
            )
        )
        rows.append(("  unrelated pairs over 0.7", _share(len(over), len(unrelated)), "0"))
        rows.append(("  identical main bars (1.0)", str(sum(p[2] == 1 for p in unrelated)), "0"))
        left_out = f"{len(drumless)} ({', '.join(sorted(drumless))})" if drumless else "0"
        rows.append(("  genres left out (no drums to compare)", left_out, "-"))
    for prompt, runs in variety.items():
        rows.append(
            (
                f"distinct progressions / main drum bars, {len(runs)} seeds: {prompt[:28]}",
                f"{m.distinct(r.progression for r in runs)} / "
                f"{m.distinct(r.main_bar for r in runs)}",
                "≥ 5 / ≥ 3",
            )
        )
    genre_right = sum(s.genre in s.prompt.genres for s in songs)
    rows.append(("genre id as expected", _share(genre_right, len(songs)), "all"))
    words = [(s, w) for s in songs for w in s.prompt.instruments]
    rows.append(
        (
            "instrument words honoured (program/drum note with notes)",
            _share(sum(w not in s.missing_instruments for s, w in words), len(words)),
            "all",
        )
    )
    listed = [s for s in songs if s.roles_match is not None]
    rows.append(
        (
            "listed instrument set == roles",
            _share(sum(s.roles_match for s in listed), len(listed)),
            "all",
        )
    )
    doubled = [s.harmony_doubling for s in songs if s.harmony_doubling is not None]
    if doubled:
        rows.append(
            (
                "harmony-track doubling, max per song: worst / median",
                f"{max(doubled):.2f} / {statistics.median(doubled):.2f}",
                "≤ 0.5 every song",
            )
        )
        rows.append(("  songs over 0.5", _share(sum(d > 0.5 for d in doubled), len(doubled)), "0"))
    rows.append(
        ("most harmony notes at once (max)", str(max(s.harmony_peak for s in songs)), "playable")
    )
    keyed = [s for s in songs if s.key_right is not None]
    rows.append(
        (
            "music21 key == key asked (tonic+mode)",
            _share(sum(s.key_right for s in keyed), len(keyed)),
            "≥ 90%",
        )
    )
    want = [s for s in songs if s.prompt.lead]
    rows.append(("lead present where asked", _share(sum(s.lead for s in want), len(want)), "all"))
    rests = [s.lead_rest for s in songs if s.lead_rest is not None]
    if rests:
        inside = sum(0.2 <= r <= 0.6 for r in rests)
        rows.append(
            (
                "lead rest share: median; songs in 0.2-0.6",
                f"{statistics.median(rests):.2f}; {_share(inside, len(rests))}",
                "0.2-0.6 all",
            )
        )
    lead_bars = [s.lead_bars for s in songs if s.lead]
    if lead_bars:
        rows.append(
            (
                "distinct lead bars / lead bars with notes (all songs)",
                _share(sum(d for d, _ in lead_bars), sum(n for _, n in lead_bars)),
                "low: motifs recur",
            )
        )
    motifs = [ok for s in songs for ok in s.chorus_motifs if s.lead]
    rows.append(
        ("choruses where a 2-bar lead unit recurs ≥ 2×", _share(sum(motifs), len(motifs)), "all")
    )
    agree = [s for s in songs if s.hook_agreement is not None and s.lead]
    if agree:
        good = sum(s.hook_agreement >= 0.7 and s.chorus_difference > 0 for s in agree)
        rows.append(
            (
                "chorus 1 vs 2: hook agreement median; whole-section difference median",
                f"{statistics.median(s.hook_agreement for s in agree):.2f}; "
                f"{statistics.median(s.chorus_difference for s in agree):.2f}",
                "≥ 0.7; > 0",
            )
        )
        rows.append(
            ("  songs with hook ≥ 0.7 and sections differing", _share(good, len(agree)), "all")
        )
    copies = sum(s.copies for s in songs)
    rows.append(("repeated sections that are note-for-note copies", str(copies), "0"))
    lengths = [bars for s in songs for _, bars in s.section_lengths]
    bad = offending_lengths(
        s for s in songs for s in s.section_lengths if not m.section_length_ok(s[1])
    )
    rows.append(
        (
            "sections a multiple of 4 and ≤ 16 bars",
            _share(sum(map(m.section_length_ok, lengths)), len(lengths)),
            f"all (off: {bad})" if bad else "all",
        )
    )
    crash_songs = [s for s in songs if s.prompt.crashes]
    hits = sum(s.crashes[0] for s in crash_songs)
    starts = sum(s.crashes[1] for s in crash_songs)
    rows.append(("crash on section starts (crash genres)", _share(hits, starts), "≥ 50%"))
    ratios = [r for s in songs for r in s.build_ratios if r is not None]
    if ratios:
        rows.append(
            (
                f"build density end/start, {len(ratios)} builds: median; ≥ 1.5×",
                f"{statistics.median(ratios):.2f}; "
                f"{_share(sum(r >= 1.5 for r in ratios), len(ratios))}",
                "≥ 1.5 all",
            )
        )
    else:
        rows.append(("build density end/start", "no builds", "≥ 1.5"))
    return rows


def offending_lengths(items) -> str:
    """The most common offending section lengths, e.g. "Verse 20 ×12"."""
    counts: dict[str, int] = {}
    for name, bars in items:
        label = f"{name.rstrip('0123456789 ')} {bars}"
        counts[label] = counts.get(label, 0) + 1
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:3]
    return ", ".join(f"{k} ×{v}" for k, v in top)


def over_pairs(songs: list[SongFigures]) -> list[tuple[str, str, float]]:
    """Unrelated genre pairs whose main drum bars overlap over 0.7, worst first."""
    seed_one = first_song_per_genre(songs)
    pairs = m.genre_pair_overlaps({g: (s.prompt.family, s.main_bar) for g, s in seed_one.items()})
    return sorted(((a, b, j) for a, b, j, rel in pairs if not rel and j > 0.7), key=lambda p: -p[2])
