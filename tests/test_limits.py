"""The declared limits of data files (``sims.core.limits``): the narrowest column type that
holds a range, and a refusal that names the limit."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.errors import DataFileError, SlicelabError
from sims.core.limits import Limit, int_dtype, limits_table


@pytest.mark.parametrize(
    "high,low,want",
    [
        (0, 0, np.int8), (127, 0, np.int8), (128, 0, np.int16),
        (127, -128, np.int8), (127, -129, np.int16), (32767, 0, np.int16),
        (32768, 0, np.int32), (2**31 - 1, 0, np.int32), (2**31, 0, np.int64),
        (2**63 - 1, -(2**63), np.int64),
    ],
)  # fmt: skip
def test_int_dtype_is_the_narrowest_type_holding_the_range(high, low, want):
    assert int_dtype(high, low) is want
    info = np.iinfo(want)
    assert info.min <= low and high <= info.max


def test_no_integer_type_holds_a_range_past_int64():
    with pytest.raises(ValueError, match="no integer type"):
        int_dtype(2**63)


DISHES = Limit("dishes", "dish cards", 1, 120, "the kernel's dish table")


@pytest.mark.parametrize(
    "value,message",
    [
        (0, "cards.toml: has 0 dish cards; at least 1 (the kernel's dish table)"),
        (121, "cards.toml: has 121 dish cards; at most 120 (the kernel's dish table)"),
        (129, "cards.toml: has 129 dish cards; at most 120 (the kernel's dish table)"),
    ],
)
def test_a_count_outside_its_limit_is_refused_naming_it(value, message):
    with pytest.raises(DataFileError) as info:
        DISHES.check(value, "cards.toml")
    assert str(info.value) == message


@pytest.mark.parametrize("value", [1, 60, 120])
def test_a_count_inside_its_limit_is_returned(value):
    assert DISHES.check(value, "cards.toml") == value


def test_the_error_type_is_the_callers():
    class BoardError(DataFileError):
        pass

    with pytest.raises(BoardError):
        DISHES.check(500, "b.toml", BoardError)
    assert issubclass(BoardError, SlicelabError)


def test_a_limit_gives_its_column_type_with_room_for_none_and_its_doc_row():
    assert DISHES.dtype() is np.int8  # -1 (none) .. 120
    assert Limit("d", "dish cards", 0, 128).dtype() is np.int16
    assert DISHES.describe() == "dish cards: 1 to 120 (the kernel's dish table)"
    assert limits_table([DISHES])[2] == "| dish cards | 1 | 120 | the kernel's dish table |"


def test_a_column_type_is_never_narrower_than_the_tables_and_a_cast_never_wraps():
    from sims.core.limits import checked_cast, column_type

    assert column_type(127) is np.int8 and column_type(128) is np.int16
    assert column_type(5, at_least=np.int32) is np.int32
    assert column_type(0, -200) is np.int16
    assert checked_cast(np.array([0, 127]), np.int8, "c").dtype == np.int8
    with pytest.raises(ValueError, match="column c: a value from -1 to 128 does not fit"):
        checked_cast(np.array([-1, 128]), np.int8, "c")
