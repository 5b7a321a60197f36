"""What ``view.PlayerView`` shows a seat, read straight from the table: which oven cards
it sees (face up, or face down and placed by itself; any other is ``HIDDEN``), the deck's
visible top card, a pile's top back, each oven's missing ingredients."""

from __future__ import annotations

from numba import int64, njit

from sims.games.horno.kernel.layout import (
    G_DEND,
    G_DHEAD,
    G_FACEUP,
    HIDDEN,
    S_DISH,
    S_NOVEN,
    T_DBACK,
    T_DECK,
    T_DING,
    T_DNBACK,
    T_DNING,
    T_G,
    T_NPILE0,
    T_OBY,
    T_OK,
    T_OUP,
    T_PHEAD,
    T_PILE,
    T_S,
)


@njit(cache=True, inline="always")
def seen_kind(tab, me, v, j):
    """The kind ``me`` sees in slot ``j`` of ``v``'s oven (``HIDDEN`` for a face-down card
    another seat placed)."""
    if tab[T_OUP + v, j] == 1 or tab[T_OBY + v, j] == me:
        return tab[T_OK + v, j]
    return HIDDEN


@njit(cache=True, inline="always")
def sees(tab, me, v, k, skip):
    """Whether ``k`` is among the kinds ``me`` sees in ``v``'s oven outside slot ``skip``
    (``oven_kinds``)."""
    for j in range(tab[T_S + S_NOVEN, v]):
        if j != skip and tab[T_OK + v, j] == k and (tab[T_OUP + v, j] == 1
                                                    or tab[T_OBY + v, j] == me):  # fmt: skip
            return True
    return False


@njit(cache=True)
def missing_count(tab, me, v):
    """``len(view.missing(v))``."""
    d = tab[T_S + S_DISH, v]
    if d < 0:
        return 0
    n = 0
    for i in range(tab[T_DNING, d]):
        if not sees(tab, me, v, tab[T_DING + i, d], int64(-1)):
            n += 1
    return n


@njit(cache=True, inline="always")
def top_card(tab):
    """``view.top``: the deck's top card once it lies face up, else -1."""
    g = tab[T_G]
    if g[G_FACEUP] == 1 and g[G_DEND] > g[G_DHEAD]:
        return tab[T_DECK, g[G_DHEAD]]
    return -1


@njit(cache=True, inline="always")
def top_dish(tab, t):
    """The dish card on top of type ``t``'s pile (-1: empty)."""
    h = tab[T_PHEAD, t]
    return tab[T_PILE + t, h] if h < tab[T_NPILE0, t] else -1


@njit(cache=True, inline="always")
def back_has(tab, d, k):
    """Whether dish card ``d``'s back shows ``k`` (``d`` -1: an empty pile, no back)."""
    if d < 0:
        return False
    for i in range(tab[T_DNBACK, d]):
        if tab[T_DBACK + i, d] == k:
            return True
    return False


@njit(cache=True, inline="always")
def same_back(tab, d, e):
    """Whether dish cards ``d`` and ``e`` show the same back (as tuples)."""
    n = tab[T_DNBACK, d]
    if tab[T_DNBACK, e] != n:
        return False
    for i in range(n):
        if tab[T_DBACK + i, d] != tab[T_DBACK + i, e]:
            return False
    return True
