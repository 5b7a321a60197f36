"""The cake is data: the published cake's content, its slice ids and digest, loading a
replacement cake, and refusal of malformed cake files (docs/rules/pieceocake.md, "The
cake file")."""

import copy
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from sims.games.pieceocake.cake import (
    MAX_COPIES,
    MAX_CREAM,
    MAX_VALUE,
    MAX_VARIETIES,
    ROUNDS,
    SLICES_PER_CAKE,
    Cake,
    CakeError,
    Variety,
    default_cake,
    load_cake,
    parse_cake,
)

CAKE = default_cake()

# The published cake: (name, copies = majority value, cream per slice), in file order.
PUBLISHED = [
    ("plum", 3, 1),
    ("apricot", 4, 1),
    ("cherry", 5, 1),
    ("blackberry", 7, 2),
    ("kiwi", 8, 2),
    ("gooseberry", 9, 2),
    ("strawberry", 10, 2),
    ("chocolate", 11, 3),
]
DIGEST = "ed5e764dcdc1c9cf"


def _published_text() -> str:
    return (
        resources.files("sims.games.pieceocake").joinpath("data").joinpath("cake.toml").read_text()
    )


def _published_data() -> dict:
    return tomllib.loads(_published_text())


def test_published_cake_matches_the_rulebook():
    assert CAKE.name == "Piece o' Cake (2008)"
    assert [(v.name, v.copies, v.cream) for v in CAKE.varieties] == PUBLISHED
    # the rulebook prints one number: a variety's copies are also its majority value
    assert [v.value for v in CAKE.varieties] == [c for _, c, _ in PUBLISHED]
    assert CAKE.n_slices == 57
    assert CAKE.unseen == 2
    assert (ROUNDS, SLICES_PER_CAKE) == (5, 11)
    assert ROUNDS * SLICES_PER_CAKE + CAKE.unseen == CAKE.n_slices
    assert 6 not in [v.copies for v in CAKE.varieties]  # there is no 6
    assert sum(v.copies * v.cream for v in CAKE.varieties) == 113  # cream in the whole cake


def test_slice_ids_run_variety_by_variety():
    expected = tuple(v for v, (_, copies, _) in enumerate(PUBLISHED) for _ in range(copies))
    assert CAKE.slice_variety == expected
    # first and last id of each variety
    bounds = [(0, 2), (3, 6), (7, 11), (12, 18), (19, 26), (27, 35), (36, 45), (46, 56)]
    for v, (lo, hi) in enumerate(bounds):
        ids = [i for i, var in enumerate(CAKE.slice_variety) if var == v]
        assert (ids[0], ids[-1], len(ids)) == (lo, hi, hi - lo + 1)


@pytest.mark.parametrize("name,index", [(n, i) for i, (n, _, _) in enumerate(PUBLISHED)])
def test_index_of_each_variety(name, index):
    assert CAKE.index(name) == index


def test_index_of_an_unknown_variety_raises_key_error():
    with pytest.raises(KeyError):
        CAKE.index("lemon")


def test_default_cake_is_loaded_once_and_equals_load_cake_none():
    assert default_cake() is CAKE
    assert load_cake(None) == CAKE
    assert CAKE.source == "cake.toml"


def test_digest_is_stable_and_covers_content_only(tmp_path):
    assert CAKE.digest == DIGEST
    # the same content from another file, under another name: the same digest
    path = tmp_path / "copy.toml"
    path.write_text(_published_text().replace("Piece o' Cake (2008)", "My copy"))
    same = load_cake(path)
    assert same.name == "My copy"
    assert same.source == str(path)
    assert same.digest == DIGEST
    # an explicit value equal to copies is the same content
    data = _published_data()
    data["variety"][0]["value"] = 3
    assert parse_cake(data, "x").digest == DIGEST


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["variety"][7].update(value=12),
        lambda d: d["variety"][7].update(cream=2),
        lambda d: d["variety"][7].update(copies=12),
        lambda d: d["variety"][0].update(name="prune"),
        lambda d: d["variety"].reverse(),
    ],
    ids=["value", "cream", "copies", "name", "order"],
)
def test_digest_changes_with_content(change):
    data = _published_data()
    change(data)
    assert parse_cake(data, "x").digest != DIGEST


def test_replacement_cake_with_values_and_unseen(tmp_path):
    path = tmp_path / "lemon.toml"
    path.write_text(
        'name = "Lemon test cake"\n'
        '[[variety]]\nname = "lemon"\ncopies = 30\ncream = 0\nvalue = 60\n'
        '[[variety]]\nname = "lime"\ncopies = 30\ncream = 9\n'
    )
    cake = load_cake(path)
    assert cake.varieties == (Variety("lemon", 30, 60, 0), Variety("lime", 30, 30, 9))
    assert (cake.n_slices, cake.unseen) == (60, 5)
    assert cake.slice_variety == (0,) * 30 + (1,) * 30


def test_a_cake_of_exactly_55_slices_leaves_nothing_unseen():
    data = _published_data()
    data["variety"][0]["copies"] = 1  # 57 - 2
    cake = parse_cake(data, "x")
    assert (cake.n_slices, cake.unseen) == (55, 0)


def test_limits():
    assert (MAX_VARIETIES, MAX_COPIES, MAX_VALUE, MAX_CREAM) == (16, 30, 60, 9)


def _mutate(fn):
    data = copy.deepcopy(_published_data())
    fn(data)
    return data


def _many_varieties(d, n):
    d["variety"] = [{"name": f"v{chr(97 + i)}", "copies": 4, "cream": 1} for i in range(n)]


# id, change to the published data, fragment of the CakeError message
BAD_CAKES = [
    ("unknown top-level key", lambda d: d.update(size=9), "unknown key(s) ['size']"),
    ("missing name", lambda d: d.pop("name"), "needs a 'name'"),
    ("blank name", lambda d: d.update(name="  "), "needs a 'name'"),
    ("name not a string", lambda d: d.update(name=3), "needs a 'name'"),
    ("no variety array", lambda d: d.pop("variety"), "needs a [[variety]] array"),
    ("empty variety list", lambda d: d.update(variety=[]), "needs a [[variety]] array"),
    ("variety not an array", lambda d: d.update(variety={"name": "x"}), "[[variety]] array"),
    ("too many varieties", lambda d: _many_varieties(d, 17), "has 17 varieties; at most 16"),
    ("variety not a table", lambda d: d["variety"].append(3), "variety 9 is not a table"),
    (
        "unknown variety field",
        lambda d: d["variety"][1].update(colour="orange"),
        "variety 2: unknown field(s) ['colour']",
    ),
    (
        "missing copies",
        lambda d: d["variety"][2].pop("copies"),
        "variety 3 is missing the field 'copies'",
    ),
    (
        "missing cream",
        lambda d: d["variety"][2].pop("cream"),
        "variety 3 is missing the field 'cream'",
    ),
    (
        "missing variety name",
        lambda d: d["variety"][0].pop("name"),
        "variety 1 is missing the field 'name'",
    ),
    (
        "upper-case name",
        lambda d: d["variety"][0].update(name="Plum"),
        "variety 1: 'name' must be a lower-case word, got 'Plum'",
    ),
    (
        "name with spaces around",
        lambda d: d["variety"][0].update(name=" plum"),
        "must be a lower-case word",
    ),
    (
        "name not a string",
        lambda d: d["variety"][0].update(name=7),
        "must be a lower-case word, got 7",
    ),
    (
        "copies a string",
        lambda d: d["variety"][7].update(copies="11"),
        "variety 8 (chocolate): 'copies' = '11' must be an integer from 1 to 30",
    ),
    (
        "copies a float",
        lambda d: d["variety"][7].update(copies=11.0),
        "'copies' = 11.0 must be an integer from 1 to 30",
    ),
    ("copies a bool", lambda d: d["variety"][7].update(copies=True), "'copies' = True must be"),
    (
        "copies zero",
        lambda d: d["variety"][0].update(copies=0),
        "has 0 copies of a variety; at least 1",
    ),
    ("copies negative", lambda d: d["variety"][0].update(copies=-3), "'copies': has -3 copies"),
    (
        "copies too large",
        lambda d: d["variety"][0].update(copies=31),
        "has 31 copies of a variety; at most 30",
    ),
    (
        "cream negative",
        lambda d: d["variety"][0].update(cream=-1),
        "variety 1 (plum): 'cream': has -1 cream on a slice; at least 0",
    ),
    (
        "cream too large",
        lambda d: d["variety"][0].update(cream=10),
        "has 10 cream on a slice; at most 9",
    ),
    ("cream a string", lambda d: d["variety"][0].update(cream="1"), "'cream' = '1' must be"),
    (
        "value negative",
        lambda d: d["variety"][0].update(value=-1),
        "'value': has -1 points of a variety's majority (value); at least 0",
    ),
    ("value too large", lambda d: d["variety"][0].update(value=61), "(value); at most 60"),
    (
        "duplicate names",
        lambda d: d["variety"][1].update(name="plum"),
        "variety name(s) ['plum'] appear more than once",
    ),
    (
        "too few slices (54)",
        lambda d: d["variety"][7].update(copies=8),
        "has 54 slices in the cake; at least 55 (a game lays 5 circles of 11",
    ),
    (
        "one small variety",
        lambda d: d.update(variety=[{"name": "plum", "copies": 3, "cream": 1}]),
        "has 1 varieties; at least 2 (fewer cannot fill 55 slices",
    ),
]


@pytest.mark.parametrize(
    "change,fragment", [b[1:] for b in BAD_CAKES], ids=[b[0] for b in BAD_CAKES]
)
def test_malformed_cake_is_refused(change, fragment):
    with pytest.raises(CakeError) as info:
        parse_cake(_mutate(change), "bad.toml")
    assert fragment in str(info.value)
    assert str(info.value).startswith("cake bad.toml: ")


# id, file bytes (None: no file), fragment of the message
BAD_FILES = [
    ("missing file", None, "no such file; pass the path of a cake TOML file"),
    ("not UTF-8", b'name = "caf\xe9"\n', "is not UTF-8 text (byte 0xe9 at offset 11)"),
    ("bad TOML", b'name = "unclosed\n', "is not valid TOML"),
    ("empty file", b"", "needs a 'name'"),
    ("unknown key", b'name = "x"\nslices = 57\n', "unknown key(s) ['slices']"),
    (
        "too few slices",
        b'name = "x"\n[[variety]]\nname = "plum"\ncopies = 30\ncream = 1\n'
        b'[[variety]]\nname = "fig"\ncopies = 24\ncream = 1\n',
        "has 54 slices",
    ),
]


@pytest.mark.parametrize(
    "content,fragment", [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES]
)
def test_malformed_cake_file_is_refused(tmp_path, content, fragment):
    path = tmp_path / "bad.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CakeError) as info:
        load_cake(path)
    msg = str(info.value)
    assert fragment in msg
    assert msg.startswith(f"cake {Path(path)}")


def test_a_directory_is_not_a_cake_file(tmp_path):
    with pytest.raises(CakeError, match="no such file"):
        load_cake(tmp_path)


def test_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + _published_text().encode())
    assert load_cake(path).digest == DIGEST


def test_cake_error_is_a_slicelab_error():
    from sims.core.errors import DataFileError, SlicelabError

    assert issubclass(CakeError, DataFileError) and issubclass(CakeError, SlicelabError)
    assert isinstance(CAKE, Cake)
