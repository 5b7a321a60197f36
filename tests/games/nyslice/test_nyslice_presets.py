"""Heuristic presets: shipped ones read only, a user's saved to their own file.

``save_preset`` (``slicelab tune --save-preset NAME``) writes
``$SLICELAB_HOME/presets/nyslice.toml`` (else the user's config folder), atomically, under a
checked name; ``load_presets`` merges it with the shipped ones, and a user file that
cannot be used is named, with the fix, only when a preset is looked up or listed.
Every test has its own ``SLICELAB_HOME`` (``conftest.py``).
"""

import os
import tomllib
from pathlib import Path

import platformdirs
import pytest

import sims.games.nyslice.heuristic as h
from sims.core.errors import SlicelabError, StrategySpecError
from sims.games.nyslice.heuristic import (
    HEURISTIC_DEFAULTS,
    check_preset_name,
    load_presets,
    params_for,
    save_preset,
    user_presets_file,
)
from sims.games.nyslice.kernel import heuristic_params, strategy_codes
from sims.games.nyslice.plugin import GAME
from sims.games.nyslice.strategies import make_strategy

SHIPPED = sorted([f"heuristic-{kind}{n}" for kind in ("eq", "p") for n in range(2, 7)])


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path))
    return tmp_path


def _user_file(home: Path) -> Path:
    return home / "presets" / "nyslice.toml"


def _write_user_file(home: Path, text: str | bytes) -> Path:
    path = _user_file(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


# ---------------------------------------------------------------- where
def test_user_file_is_under_slicelab_home(home):
    assert user_presets_file() == _user_file(home)


def test_user_file_defaults_to_the_config_folder(monkeypatch):
    monkeypatch.delenv("SLICELAB_HOME")
    expected = Path(platformdirs.user_config_dir("slicelab")) / "presets" / "nyslice.toml"
    assert user_presets_file() == expected
    monkeypatch.setenv("SLICELAB_HOME", "")  # empty: as if unset
    assert user_presets_file() == expected


def test_saving_writes_the_user_file_never_the_package(home):
    shipped_before = h.PRESETS_FILE.read_bytes()
    path = save_preset("tuned-p4", dict(HEURISTIC_DEFAULTS, theta=2.0), "a note")
    assert path == _user_file(home)
    assert h.PRESETS_FILE.read_bytes() == shipped_before
    data = tomllib.loads(path.read_text())
    assert data["tuned-p4"]["theta"] == 2.0 and data["tuned-p4"]["note"] == "a note"
    assert path.read_text().startswith("# New York Slice heuristic presets saved by")
    presets = load_presets()
    assert sorted(presets) == sorted([*SHIPPED, "tuned-p4"])
    assert presets["tuned-p4"]["theta"] == 2.0
    # A user preset is a strategy spec, in the reference engine and the kernel.
    assert make_strategy("tuned-p4(deny=0.1)").params(3)["theta"] == 2.0
    assert strategy_codes(["tuned-p4"]).tolist() == strategy_codes(["heuristic"]).tolist()
    order = list(h.PARAM_ORDER)
    assert heuristic_params(["tuned-p4"], 3)[0, order.index("theta")] == 2.0
    # The catalogue lists it as a preset of heuristic.
    listed = {i.name: i for i in GAME.strategies()}
    assert listed["tuned-p4"].preset_of == "heuristic" and listed["tuned-p4"].params["theta"] == 2.0


def test_the_plugin_saves_to_the_user_file(home):
    path = GAME.save_preset("heuristic", "mine", dict(HEURISTIC_DEFAULTS, deny=0.7), "tuned")
    assert path == _user_file(home)
    assert load_presets()["mine"]["deny"] == 0.7
    with pytest.raises(SlicelabError, match="tunable family is 'heuristic'"):
        GAME.save_preset("greedy", "mine", {}, "")
    with pytest.raises(SlicelabError, match="reserved"):
        GAME.save_preset("heuristic", "heuristic-p4", dict(HEURISTIC_DEFAULTS), "")


def test_the_plugin_checks_a_preset_before_tuning(home):
    GAME.check_preset("heuristic", "tuned-p4")
    with pytest.raises(SlicelabError, match="preset name 'a]' is not allowed"):
        GAME.check_preset("heuristic", "a]")
    with pytest.raises(SlicelabError, match="tunable family is 'heuristic'"):
        GAME.check_preset("search", "tuned-p4")
    path = _write_user_file(home, "[x\n")
    with pytest.raises(SlicelabError, match=f"^presets file {path}: is not valid TOML"):
        GAME.check_preset("heuristic", "tuned-p4")


def test_saving_keeps_the_other_presets_and_replaces_one(home):
    save_preset("a", dict(HEURISTIC_DEFAULTS, theta=1.5), "first")
    note = 'quote " backslash \\ newline \n tab \t nul \x00 é 🍕 ] [x]'
    save_preset("b", dict(HEURISTIC_DEFAULTS, theta=2.5), note)
    save_preset("a", dict(HEURISTIC_DEFAULTS, theta=0.5), "second")
    save_preset("c", dict(HEURISTIC_DEFAULTS), "lone \ud800 surrogate")
    data = tomllib.loads(_user_file(home).read_text(encoding="utf-8"))
    assert sorted(data) == ["a", "b", "c"]
    assert data["a"]["theta"] == 0.5 and data["a"]["note"] == "second"
    assert data["b"]["note"] == note
    assert data["c"]["note"] == "lone ? surrogate"


def test_hand_edited_user_file_keeps_its_comments_and_integers(home):
    _write_user_file(home, "# mine\n[x]\ntheta = 2\nnote = 'by hand'\n")
    assert load_presets()["x"]["theta"] == 2.0
    save_preset("y", dict(HEURISTIC_DEFAULTS), "saved")
    text = _user_file(home).read_text()
    assert text.startswith("# mine\n")
    assert tomllib.loads(text)["x"] == {"note": "by hand", "theta": 2.0}


# ---------------------------------------------------------------- names
BAD_NAMES = [
    ("heuristic", "is the name of a strategy family"),
    ("Greedy", "is the name of a strategy family"),
    ("search", "is the name of a strategy family"),
    ("random", "is the name of a strategy family"),
    ("heuristic-p4", "is reserved for the presets shipped with slicelab"),
    ("HEURISTIC-P2", "is reserved for the presets shipped with slicelab"),
    ("heuristic-p9", "is reserved for the presets shipped with slicelab"),
    ("heuristic-eq4", "is reserved for the presets shipped with slicelab"),
    ("Heuristic-EQ7", "is reserved for the presets shipped with slicelab"),
    ("bad\nname", "is not allowed"),
    ("x]\n[y", "is not allowed"),
    ("a]", "is not allowed"),
    ("mine\n", "is not allowed"),
    ("1st", "is not allowed"),
    ("-x", "is not allowed"),
    ("my preset", "is not allowed"),
    ("a.b", "is not allowed"),
    ("pkg.mod:Name", "is not allowed"),
    ("", "is not allowed"),
    ("x" * 65, "is not allowed"),
]


@pytest.mark.parametrize("name,message", BAD_NAMES, ids=[repr(b[0]) for b in BAD_NAMES])
def test_bad_preset_names_are_refused_and_nothing_is_written(home, name, message):
    save_preset("kept", dict(HEURISTIC_DEFAULTS), "before")
    before = _user_file(home).read_bytes()
    with pytest.raises(SlicelabError) as err:
        save_preset(name, dict(HEURISTIC_DEFAULTS), "note")
    assert f"preset name {name!r} {message}" in str(err.value)
    assert "\n" not in str(err.value)
    assert _user_file(home).read_bytes() == before
    assert sorted(load_presets()) == sorted([*SHIPPED, "kept"])


@pytest.mark.parametrize("name", ["mine", "tuned-p4", "a_b-C9", "heuristic-p4-mine", "x" * 64])
def test_good_preset_names(name):
    assert check_preset_name(name) == name


@pytest.mark.parametrize(
    "params,message",
    [
        ({"theta": float("nan")}, "theta must be a number from 0 to 100, got nan"),
        ({"trust": 2.0}, "trust must be a number from 0 to 1, got 2.0"),
        ({"deny": "x"}, "deny must be a number from 0 to 10, got 'x'"),
    ],
)
def test_invalid_parameters_are_not_saved(home, params, message):
    with pytest.raises(SlicelabError) as err:
        save_preset("mine", dict(HEURISTIC_DEFAULTS, **params), "note")
    assert str(err.value).startswith("cannot save preset 'mine': ") and message in str(err.value)
    assert not _user_file(home).exists()


# ---------------------------------------------------------------- a bad user file
# id, the file's content, what the message says after "presets file PATH: "
BAD_FILES = [
    ("not TOML", "[mine\ntheta = 1\n", "is not valid TOML ("),
    ("not UTF-8", b"[mine]\nnote = '\xe9'\n", "is not UTF-8 text"),
    ("a value, not a table", "mine = 3\n", "'mine' must be a table [name] of heuristic parameters"),
    ("a shipped name", "[heuristic-p4]\ntheta = 2.0\n", "is reserved for the presets shipped"),
    ("a family's name", "[greedy]\ntheta = 2.0\n", "is the name of a strategy family"),
    ("a bad name", '["a b"]\ntheta = 2.0\n', "preset name 'a b' is not allowed"),
    ("unknown parameter", "[mine]\nthetta = 2.0\n", "[mine] has unknown parameter 'thetta'"),
    ("negative", "[mine]\ntheta = -1.0\n", "theta must be a number from 0 to 100, got -1.0"),
    ("nan", "[mine]\ntheta = nan\n", "theta must be a number from 0 to 100, got nan"),
    ("text", "[mine]\ntheta = 'high'\n", "theta must be a number from 0 to 100, got 'high'"),
    ("note not text", "[mine]\nnote = 3\n", "[mine] note must be a string"),
]


@pytest.mark.parametrize("label,content,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_bad_user_file_is_named_when_presets_are_used(home, label, content, message):
    path = _write_user_file(home, content)
    # Runs that name no preset do not read the file (plain heuristic's default is the
    # shipped heuristic-pN, which a user file cannot redefine).
    assert make_strategy("heuristic(deny=0.1)").params(4) == params_for(4, {"deny": 0.1})
    shape = heuristic_params(["heuristic", "greedy", "random"], 3).shape
    assert shape == (3, len(HEURISTIC_DEFAULTS))
    make_strategy("greedy")
    make_strategy("search(budget=2)")
    # Looking a preset up by name, listing them or saving one names the file and the fix.
    for use in (
        lambda: make_strategy("mine"),
        lambda: make_strategy("heuristic-p3"),
        lambda: strategy_codes(["mine"]),
        load_presets,
        GAME.strategies,
        lambda: save_preset("other", dict(HEURISTIC_DEFAULTS), "note"),
    ):
        with pytest.raises(SlicelabError) as err:
            use()
        text = str(err.value)
        assert text.startswith(f"presets file {path}: ")
        assert message in text
        assert text.endswith(
            "; fix or delete that file (it holds only presets saved with --save-preset)"
        )
        assert "\n" not in text
    # Saving refused to touch it.
    expected = content if isinstance(content, bytes) else content.encode()
    assert path.read_bytes() == expected


def test_an_unknown_preset_is_still_an_unknown_strategy(home):
    with pytest.raises(StrategySpecError, match="unknown New York Slice strategy 'mine'"):
        make_strategy("mine")
    with pytest.raises(StrategySpecError, match="unknown heuristic preset 'mine'"):
        params_for(3, {}, "mine")


# ---------------------------------------------------------------- atomic write
def test_a_failed_write_leaves_the_old_file_and_no_temporary(home, monkeypatch):
    save_preset("kept", dict(HEURISTIC_DEFAULTS), "before")
    before = _user_file(home).read_bytes()

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(SlicelabError) as err:
        save_preset("new", dict(HEURISTIC_DEFAULTS), "after")
    assert str(err.value) == (
        f"cannot write presets file {_user_file(home)} (No space left on device); "
        "set SLICELAB_HOME to a writable folder"
    )
    assert _user_file(home).read_bytes() == before
    leftovers = [p.name for p in _user_file(home).parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_an_unwritable_home_is_a_message(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SLICELAB_HOME", str(blocker))
    with pytest.raises(SlicelabError, match=r"^cannot write presets file .*set SLICELAB_HOME"):
        save_preset("mine", dict(HEURISTIC_DEFAULTS), "note")


# ---------------------------------------------------------------- parsed once
def test_a_presets_file_is_parsed_once_per_text_and_anew_when_it_changes(home, monkeypatch):
    import sims.games.presets as presets_mod

    parses = []
    real = presets_mod.tomllib.loads
    monkeypatch.setattr(presets_mod.tomllib, "loads", lambda t: parses.append(t) or real(t))
    _write_user_file(home, "[mine]\ntrust = 0.25\n")
    first = load_presets()
    first["mine"]["trust"] = 0.5  # the caller's copy: the remembered file is not changed
    assert load_presets()["mine"]["trust"] == 0.25
    n = len(parses)
    for _ in range(20):
        load_presets()
    assert len(parses) == n  # neither file parsed again
    _write_user_file(home, "[mine]\ntrust = 0.75\n")  # same size, new text
    assert load_presets()["mine"]["trust"] == 0.75
    _write_user_file(home, "[mine\n")
    with pytest.raises(SlicelabError, match="not valid TOML"):
        load_presets()
