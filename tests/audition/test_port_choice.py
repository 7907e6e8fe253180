"""Finding an output by name, throttled rescans, the backend rule, and the advice per OS."""

from __future__ import annotations

from pathlib import Path

import pytest
import rtmidi

from muse_tui.audition import port_advice, ports
from muse_tui.audition.ports import PortError, PortInfo, PortScanner, match_port, midi_apis

PORTS = [
    PortInfo("Midi Through:Midi Through Port-0 14:0", "ALSA", 2),
    PortInfo("MPC Beats:MPC Beats In 1", "Jack", 3),
    PortInfo("MPC Beats:MPC Beats In 2", "Jack", 3),
    PortInfo("loopMIDI Port", "Windows MM", 1),
]


def test_an_exact_name_wins_over_substrings() -> None:
    assert match_port("MPC Beats:MPC Beats In 1", PORTS) is PORTS[1]


def test_a_unique_substring_is_enough_ignoring_case() -> None:
    assert match_port("loopmidi", PORTS) is PORTS[3]
    assert match_port("through", PORTS) is PORTS[0]


def test_an_ambiguous_name_lists_the_candidates() -> None:
    with pytest.raises(PortError, match=r"'MPC' matches several.*In 1.*In 2.*--port"):
        match_port("MPC", PORTS)


def test_no_match_lists_what_there_is_and_the_command() -> None:
    with pytest.raises(PortError) as caught:
        match_port("xyz", PORTS)
    text = str(caught.value)
    assert text.startswith("No MIDI output matches 'xyz'. Available: ")
    assert "'loopMIDI Port'" in text and "muse-studio ports" in text


def test_rescans_happen_at_most_once_a_second() -> None:
    now = [0.0]
    scans: list[float] = []

    def lister() -> list[PortInfo]:
        scans.append(now[0])
        return PORTS[: len(scans)]

    scanner = PortScanner(lister, clock=lambda: now[0], interval=1.0)
    assert len(scanner.ports()) == 1
    assert len(scanner.ports(rescan=True)) == 1  # too soon: the cached listing
    now[0] = 0.5
    scanner.ports(rescan=True)
    now[0] = 1.2
    assert len(scanner.ports()) == 1  # no rescan unless asked
    assert len(scanner.ports(rescan=True)) == 2
    assert scans == [0.0, 1.2]


def test_mido_backend_picks_the_rtmidi_api() -> None:
    jack = "mido.backends.rtmidi/UNIX_JACK"
    if rtmidi.API_UNIX_JACK in rtmidi.get_compiled_api():
        assert midi_apis({"MIDO_BACKEND": jack}) == [rtmidi.API_UNIX_JACK]
    with pytest.raises(PortError, match="MIDO_BACKEND asks for NOPE"):
        midi_apis({"MIDO_BACKEND": "mido.backends.rtmidi/NOPE"})
    with pytest.raises(PortError, match="not an rtmidi backend"):
        midi_apis({"MIDO_BACKEND": "mido.backends.portmidi"})


def test_backends_that_are_surely_absent_are_not_probed(tmp_path: Path) -> None:
    env = {"JACK_DEFAULT_SERVER": "no-such-server-here", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert rtmidi.API_UNIX_JACK not in midi_apis(env, platform="linux")


@pytest.mark.parametrize(
    ("platform", "words"),
    [
        ("linux", ["jackd", "sudo modprobe snd-seq", "muse-studio ports"]),
        ("darwin", ["IAC Driver", "Device is online"]),
        ("win32", ["loopMIDI", "--port muse-studio"]),
    ],
)
def test_the_advice_fits_the_os(platform: str, words: list[str]) -> None:
    text = port_advice.no_midi_system(platform)
    assert all(w in text for w in words), text


def test_windows_explains_virtual_ports_need_loopmidi() -> None:
    text = port_advice.no_virtual_ports("win32")
    assert text.startswith("Windows cannot create virtual MIDI ports: install loopMIDI")
    assert "tobias-erichsen.de" in text


@pytest.mark.parametrize("platform", ["win32", "darwin", "linux"])
def test_the_studio_hint_and_the_player_errors_give_the_same_steps(platform: str) -> None:
    from muse_tui.audition import port_advice
    from muse_tui.knowledge.midi_setup import midi_port_hint

    hint, error = midi_port_hint(platform), port_advice.no_midi_system(platform)
    steps = {"win32": "type muse-studio", "darwin": "IAC Driver", "linux": "--no-realtime"}
    assert steps[platform] in hint and steps[platform] in error
    assert "'muse'" not in hint  # the port is called muse-studio everywhere


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def test_choose_output_remembers_the_asked_port_and_opens_it_in_the_player(config: Path) -> None:
    from muse_tui.audition import choose_output, configured_port, open_output

    opener, notices = choose_output("in 2", scanner=PortScanner(lambda: PORTS))
    assert notices == []
    assert opener.func is open_output and opener.args == ("MPC Beats:MPC Beats In 2",)
    assert configured_port() == "MPC Beats:MPC Beats In 2"


def test_choose_output_falls_back_to_the_virtual_port_and_says_why(config: Path) -> None:
    from muse_tui.audition import choose_output, open_virtual_output, remember_port

    assert choose_output(scanner=PortScanner(lambda: PORTS))[0] is open_virtual_output
    remember_port("MPC Beats:MPC Beats In 1")
    opener, notices = choose_output(scanner=PortScanner(lambda: PORTS))
    assert opener.args == ("MPC Beats:MPC Beats In 1",)  # type: ignore[union-attr]
    opener, notices = choose_output(scanner=PortScanner(lambda: PORTS[:1]))
    assert opener is open_virtual_output
    assert notices[0].startswith("The remembered output is not available: No MIDI output matches")


def test_choose_output_names_a_port_that_is_not_there() -> None:
    from muse_tui.audition import choose_output

    with pytest.raises(PortError, match="No MIDI output matches 'xyz'"):
        choose_output("xyz", scanner=PortScanner(lambda: PORTS))


class _ShiftingMidiOut:
    """An rtmidi output on a server where another program's port goes away while it opens.

    Like rtmidi, `open_port` connects to the port at that place in a listing taken then.
    """

    def __init__(self, api: int, name: str = "") -> None:
        self.listings = [
            ["other:in", "synth:in", "recorder:in"],  # what the caller lists first
            ["synth:in", "recorder:in"],  # "other:in" is gone by the time rtmidi lists
        ]
        self.connected_to: str | None = None

    def get_ports(self) -> list[str]:
        return list(self.listings[0])

    def open_port(self, index: int, name: str = "") -> None:
        if len(self.listings) > 1:
            self.listings.pop(0)
        self.connected_to = self.listings[0][index]

    def close_port(self) -> None:
        self.connected_to = None

    def get_current_api(self) -> int:
        return rtmidi.API_UNIX_JACK

    def delete(self) -> None:
        pass


def test_a_port_is_opened_by_name_while_other_ports_come_and_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Opened by its place alone it connected to the neighbour: a test's recorder."""
    opened: list[_ShiftingMidiOut] = []

    def midi_out(api: int, name: str = "") -> _ShiftingMidiOut:
        opened.append(_ShiftingMidiOut(api, name))
        return opened[-1]

    monkeypatch.setattr(ports.rtmidi, "MidiOut", midi_out)
    output = ports._connect(PortInfo("synth:in", "JACK", rtmidi.API_UNIX_JACK), "muse-studio")
    assert output.destination == "synth:in"
    assert opened[0].connected_to == "synth:in"


def test_ports_that_never_hold_still_are_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    class Churning(_ShiftingMidiOut):
        def open_port(self, index: int, name: str = "") -> None:
            self.listings.reverse()  # every open sees the other listing
            self.connected_to = self.listings[0][index]

    monkeypatch.setattr(ports.rtmidi, "MidiOut", Churning)
    with pytest.raises(PortError, match=r"kept adding and removing MIDI ports.*'synth:in'"):
        ports._connect(PortInfo("synth:in", "JACK", rtmidi.API_UNIX_JACK), "muse-studio")
