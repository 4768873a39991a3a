"""Rising Sun's options: the settings of a match and a named flag for every open rules point.

Each description names its source in ``shared/rules/rising_sun.md`` and its certainty (H high,
M medium, L low). Text options that override data (clan homes and incomes, the Mandate deck)
default to the data's own values, and are checked when a match is set up.

>>> from sengoku.core import parse_options
>>> o = parse_options(RisingSunOptions, {"season_set": "archway", "zero_bid_wins": False})
>>> o.season_set, o.zero_bid_wins, o.carry_over_cards
(<SeasonSet.ARCHWAY: 'archway'>, False, True)
>>> settings(o).homes["Koi"], settings(o).incomes["Bonsai"]
('Edo', 4)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated

from msgspec import Meta

from sengoku.core import GameOptions, OptionError

from .data import load_data

_D = load_data()


class SeasonSet(enum.Enum):
    ARCHWAY = "archway"
    HORSEMAN = "horseman"
    TEAPOT = "teapot"
    TOWER = "tower"
    RANDOM = "random"


class ClanChoice(enum.Enum):
    RANDOM = "random"
    FIXED = "fixed"
    CHOSEN = "chosen"


class WonWithFigure(enum.Enum):
    ALIVE = "alive"
    TOOK_PART = "took_part"


class KoiCoins(enum.Enum):
    UNALLOCATED = "unallocated"
    ALL = "all"


def _pairs(values: dict[str, object]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in values.items())


_CLANS = ", ".join(c.name for c in _D.clans)
_HOMES = _pairs({c.name: c.home for c in _D.clans})
_INCOMES = _pairs({c.name: c.income for c in _D.clans})
_DECK = _pairs(dict(_D.game.mandates.deck))
_CLAN_NAMES = [c.name for c in _D.clans]
# How a form shows a text option made of game terms (docs/protocol.md, "Options"): a list of
# names to tick, or a value (a name, or a number) for each name; in the reader's language.
_CLAN_TERMS = {"names": _CLAN_NAMES, "terms": "rising_sun.clan"}
_LIST_OF_CLANS = {"x-list": _CLAN_TERMS}
_HOME_OF_EACH_CLAN = {
    "x-pairs": {
        "keys": _CLAN_TERMS,
        "values": {"names": list(_D.province_names), "terms": "rising_sun.province"},
    }
}
_INCOME_OF_EACH_CLAN = {"x-pairs": {"keys": _CLAN_TERMS, "values": {"minimum": 0, "maximum": 30}}}
_COUNT_OF_EACH_MANDATE = {
    "x-pairs": {
        "keys": {"names": list(_D.game.mandates.names), "terms": "rising_sun.mandate"},
        "values": {"minimum": 0, "maximum": 10},
    }
}


class RisingSunOptions(GameOptions, frozen=True):
    """The options of a Rising Sun match (see ``docs/rising_sun.md`` for every reading)."""

    season_set: Annotated[
        SeasonSet,
        Meta(
            description="The Set of Season cards played beside the Core cards (rules §4.1, §9.2; "
            "H that one Set is used). Default teapot, the Set of the only recorded game and "
            "of three FAQ rulings (§15.5, M); random draws one of the Sets of the retail base "
            "box, Teapot, Horseman and Archway (§17.4), and Tower too with random_set_tower. "
            "Tower's provenance is unverified (§17.4)."
        ),
    ] = SeasonSet.TEAPOT
    random_set_tower: Annotated[
        bool,
        Meta(
            description="With season_set=random, the Tower Set may be drawn too (rules §17.4: no "
            "source places Tower in the base box; default off)."
        ),
    ] = False
    clans: Annotated[
        ClanChoice,
        Meta(
            description="How clans are given: random (drawn from clan_list), fixed (seat i plays "
            "the i-th clan of clan_list) or chosen (each seat in turn picks from clan_list). "
            "Players then sit and play in Honor rank order (rules §2.1, H)."
        ),
    ] = ClanChoice.RANDOM
    clan_list: Annotated[
        str,
        Meta(
            description="The clans to play with, in order, comma-separated (rules §2, the five "
            "base clans, H).",
            extra_json_schema=_LIST_OF_CLANS,
        ),
    ] = _CLANS
    clan_homes: Annotated[
        str,
        Meta(
            description="Each clan's Home Province as 'Clan: Province' pairs (rules §15.3, "
            "§16.2.2: Koi Edo M/H, Lotus Nagato M, the others L/M); change it for a corrected "
            "printing.",
            extra_json_schema=_HOME_OF_EACH_CLAN,
        ),
    ] = _HOMES
    clan_incomes: Annotated[
        str,
        Meta(
            description="Each clan's Seasonal Income in Coins as 'Clan: Coins' pairs (rules §15.3, "
            "§16.2.2: L/M, from SA's corrected data); change it for a corrected printing.",
            extra_json_schema=_INCOME_OF_EACH_CLAN,
        ),
    ] = _INCOMES
    mandate_deck: Annotated[
        str,
        Meta(
            description="The Political Mandate tiles as 'Mandate: count' pairs, at least 10 in "
            "all (rules §1, §15.6: 2 of each, M).",
            extra_json_schema=_COUNT_OF_EACH_MANDATE,
        ),
    ] = _DECK
    carry_over_cards: Annotated[
        bool,
        Meta(
            description="Season cards left unbought stay on display in later Seasons (rules "
            "§4.2, §15.6, §16.5: PBF only, L/M)."
        ),
    ] = True
    zero_bid_wins: Annotated[
        bool,
        Meta(
            description="When every participant bids 0 on a War Advantage, Honor breaks the tie "
            "and the highest-Honor participant wins it (the literal rule, rules §16.4, M/L); "
            "false: a winner needs at least 1 Coin (rules §8.4, no source)."
        ),
    ] = True
    won_with_figure: Annotated[
        WonWithFigure,
        Meta(
            description="'Winning a Battle with' a figure (Oni of Souls): alive = it is still in "
            "the Province when the Battle ends (DZ battle-outcome, newer, rules §8.4, §16.4); "
            "took_part = it was in the Battle when it began (FAQ1 and PA)."
        ),
    ] = WonWithFigure.ALIVE
    koi_reserve_coins: Annotated[
        KoiCoins,
        Meta(
            description="Koi's Coins that count as Ronin when Koi wins Hire Ronin: unallocated = "
            "the Coins not bid in this Battle (rules §8.4, §13, L); all = every Coin Koi held "
            "when the Battle began."
        ),
    ] = KoiCoins.UNALLOCATED
    lowest_honor_alone: Annotated[
        bool,
        Meta(
            description="Oni of Skulls and Oni of Blood count as 'lowest Honor' where their owner "
            "is the only clan present (rules §16.3.4, L); default: a lone Oni has its base Force "
            "(SA's reading). In a Battle every participant counts, figures or not."
        ),
    ] = False
    extra_route_nagato_kyushu: Annotated[
        bool,
        Meta(
            description="Add a Shipping Route between Nagato and Kyushu (the Kanmon strait; not in "
            "the only map source, rules §15.1, §16.1.2, L)."
        ),
    ] = False
    allied_loser_reparations: Annotated[
        bool,
        Meta(
            description="The winner's ally, when it is among a Battle's losers, shares the War "
            "Reparations like the other losers (rules §8.3, inference M); false: only the "
            "non-allied losers share them."
        ),
    ] = True
    alliance_into_winter: Annotated[
        bool,
        Meta(
            description="The Autumn alliance is still in force at Winter scoring (rules §16.5, M): "
            "tied allied leaders share the win; false: alliances end with the Autumn Cleanup."
        ),
    ] = True
    loyalty_in_winter: Annotated[
        bool,
        Meta(
            description="Loyalty adds its VP to an allied owner's Winter scoring too, once for "
            "the whole scoring (our reading if on); default off: no source has it fire in "
            "Winter, and SA's audit says it does not (rules §16.5, L)."
        ),
    ] = False
    gifts: Annotated[
        bool,
        Meta(
            description="Players may give Coins and Ronin to others during the Tea Ceremony and "
            "the Political Phase, never in War (rules §4.2 negotiation, DZ, H); false leaves "
            "the gift actions out (for simulations that do not model deals)."
        ),
    ] = True
    box_supply: Annotated[
        bool,
        Meta(
            description="Coins and Ronin come from a pile as big as the retail box's, 65 Coins "
            "and 20 Ronin (rules §17.5, M/H for the counts): a clan takes what is left of it, "
            "in the order the gains are made. Default off: no rule caps the supply (L), so "
            "both are unlimited."
        ),
    ] = False


@dataclass(frozen=True)
class Settings:
    """The checked values of the text options."""

    clan_list: tuple[int, ...]
    homes: dict[str, str]
    incomes: dict[str, int]
    deck: tuple[int, ...]


def _mapping(name: str, text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise OptionError(f"option {name!r}: {part.strip()!r} is not 'Name: value'")
        if key in out:
            raise OptionError(f"option {name!r}: {key} is named twice")
        out[key] = value
    return out


def _clan_names(name: str, keys: list[str], every: bool) -> None:
    known = [c.name for c in _D.clans]
    for key in keys:
        if key not in known:
            raise OptionError(f"option {name!r}: unknown clan {key!r}; clans: {', '.join(known)}")
    if every and sorted(keys) != sorted(known):
        missing = ", ".join(k for k in known if k not in keys)
        raise OptionError(f"option {name!r}: every clan needs a value; missing: {missing}")


def settings(options: RisingSunOptions) -> Settings:
    """Check the text options and return their values; raise :class:`OptionError` if bad."""
    clans = [c.strip() for c in options.clan_list.split(",") if c.strip()]
    _clan_names("clan_list", clans, every=False)
    if len(set(clans)) != len(clans):
        raise OptionError("option 'clan_list': a clan is named twice")
    homes = _mapping("clan_homes", options.clan_homes)
    _clan_names("clan_homes", list(homes), every=True)
    for clan, province in homes.items():
        if province not in _D.index:
            raise OptionError(
                f"option 'clan_homes': {clan}'s home {province!r} is not a province; provinces: "
                + ", ".join(_D.province_names)
            )
    raw_incomes = _mapping("clan_incomes", options.clan_incomes)
    _clan_names("clan_incomes", list(raw_incomes), every=True)
    incomes: dict[str, int] = {}
    for clan, value in raw_incomes.items():
        if not value.isdigit() or not 0 <= int(value) <= 30:
            raise OptionError(f"option 'clan_incomes': {clan}'s income {value!r} is not 0..30")
        incomes[clan] = int(value)
    raw_deck = _mapping("mandate_deck", options.mandate_deck)
    names = _D.game.mandates.names
    deck: list[int] = []
    for mandate, value in raw_deck.items():
        if mandate not in names:
            raise OptionError(
                f"option 'mandate_deck': unknown Mandate {mandate!r}; Mandates: {', '.join(names)}"
            )
        if not value.isdigit() or int(value) > 10:
            raise OptionError(f"option 'mandate_deck': {mandate}'s count {value!r} is not 0..10")
        deck.extend([names.index(mandate)] * int(value))
    need = _D.game.mandates.draw + _D.game.political_track.turns.count("M") - 1
    if len(deck) < need:
        raise OptionError(f"option 'mandate_deck': 7 Mandate Turns need at least {need} tiles")
    return Settings(
        clan_list=tuple(_D.clan_index[c] for c in clans),
        homes=homes,
        incomes=incomes,
        deck=tuple(sorted(deck)),
    )
