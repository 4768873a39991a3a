"""What every part of Shitenno's rules reads: the board's tables, the titles' ranks, the bonus
tiles' effects, and the cards as counts (the box's decks as the options make them, hands,
drawing a troop card).

Cards are counted by kind (troops, 14 kinds) and by value (koku, 1..3); only the decks are
ordered. A bonus tile is the code ``troop * 3 + effect``:

>>> troop_deck(ShitennoOptions())[:7], len(troop_deck(ShitennoOptions()))
([0, 0, 0, 0, 0, 0, 1], 34)
>>> sorted(koku_deck(ShitennoOptions())) == [1] * 12 + [2] * 8 + [3] * 4
True
>>> kinds([0, 2, 0, 1]), values([0, 1, 0, 2])
([1, 1, 3], [3, 3, 1])
"""

from __future__ import annotations

from sengoku.core import Items, Rng, Term

from .data import DATA, KIND_UNITS, TROOP_NAMES, kind_of_code
from .messages import cards
from .options import ShitennoOptions
from .state import State

__all__ = [
    "DAIMYO",
    "DRAW",
    "EXCHANGE",
    "HATAMOTO",
    "NKINDS",
    "NPROV",
    "PLUS_ONE",
    "SENSEI",
    "SHOMYO",
    "SPACES",
    "bonus_tiles",
    "cards_held",
    "draw_troop",
    "kinds",
    "koku_deck",
    "reshuffle",
    "troop_deck",
    "values",
]

#: Titles by rank (§2.5) and bonus-tile effects (§2.4), as the state stores them.
DAIMYO, SHOMYO, SENSEI, HATAMOTO = 0, 1, 2, 3
EXCHANGE, PLUS_ONE, DRAW = 0, 1, 2
EFFECT_NAMES = tuple(e.name for e in DATA.bonus.effects)
TITLE_BONUS = tuple(t.placement_bonus for t in DATA.titles)
SPACES = DATA.spaces_per_province
NPROV = len(DATA.provinces)
P_BASE = tuple(TROOP_NAMES.index(p.troop) for p in DATA.provinces)
P_NEED = tuple(p.troops_needed for p in DATA.provinces)
P_VALUES = tuple(p.values for p in DATA.provinces)
P_MAJORITY = tuple(p.majority_bonus for p in DATA.provinces)
NKINDS = len(KIND_UNITS)
PLACEMENTS = DATA.setup.placements_per_turn
GOLDEN_WEIGHT = DATA.setup.golden_weight
KOKU_POINTS = DATA.setup.koku_points


def troop_deck(options: ShitennoOptions) -> list[int]:
    """The troop deck's kinds, unshuffled: the singles, then the doubles of option G4."""
    deck = [t for t in range(4) for _ in range(DATA.troops.singles_per_type)]
    deck += [kind_of_code(code) for code in options.double_troop_cards.split()]
    return deck


def koku_deck(options: ShitennoOptions) -> list[int]:
    """The koku deck's values, unshuffled (G3)."""
    return [v for v, n in zip((1, 2, 3), options.koku_counts(), strict=True) for _ in range(n)]


def bonus_tiles(options: ShitennoOptions) -> list[int]:
    """The 24 bonus tiles as codes ``troop * 3 + effect``; troop faces spread evenly (G5)."""
    return [(i % 4) * 3 + e for e, n in enumerate(options.effect_counts()) for i in range(n)]


def kinds(counts: list[int]) -> list[int]:
    """Troop cards counted by kind, as a list of kinds (in kind order)."""
    return [k for k, c in enumerate(counts) if c for _ in range(c)]


def values(counts: list[int]) -> list[int]:
    """Koku cards counted by value, as a list of values (highest first)."""
    return [3] * counts[3] + [2] * counts[2] + [1] * counts[1]


def cards_held(troops: list[int], koku: list[int]) -> Items | Term:
    """Cards held or laid out, by kind and value counts (``no card`` for none)."""
    return cards(kinds(troops), values(koku), "shitenno.term.no_card")


def draw_troop(s: State, rng: Rng) -> int | None:
    """The top troop card; an empty deck is first rebuilt from the discards (§4.4.8, G17)."""
    if not s.troop_deck:
        reshuffle(s, rng)
        if not s.troop_deck:
            return None
    return s.troop_deck.pop()


def reshuffle(s: State, rng: Rng) -> None:
    """Shuffle the spent troop cards into the deck (§4.4 step 8)."""
    deck = s.troop_deck + kinds(s.troop_discard)
    rng.shuffle(deck)
    s.troop_deck = deck
    s.troop_discard = [0] * NKINDS
