"""Shitenno's rule options: one per gap (G1 to G18) of ``shared/rules/shitenno.md`` §6/§9, and
one per reading the engine had to choose (spare cards, §4.4).

Each option's default is the rules file's proposal, or, where the second research pass
(§9) settled a gap with a better-sourced answer, that answer. Every description names the
gap, the source and the certainty, so ``describe_options(ShitennoOptions)`` documents them.

>>> from sengoku.core import parse_options
>>> opts = parse_options(ShitennoOptions, {"hatamoto_every_placement": False})
>>> opts.hatamoto_every_placement, opts.exchange_rule
(False, <ExchangeRule.UNIT: 'unit'>)
"""

from __future__ import annotations

import enum
from typing import Annotated

from msgspec import Meta

from sengoku.core import GameOptions

from .data import DATA, KIND_UNITS, kind_of_code

__all__ = [
    "DrawTiming",
    "ExchangeRule",
    "LastLotChooser",
    "Reshuffle",
    "SenseiTiming",
    "ShitennoOptions",
    "TieBreak",
]


class ExchangeRule(enum.Enum):
    """How much one Exchange tile converts (G6)."""

    #: one unit (a troop symbol or one koku) on a card you pay with becomes any other unit
    UNIT = "unit"
    #: a whole koku card counts as one troop of your choice, or a troop card as a 1-koku card
    CARD = "card"


class SenseiTiming(enum.Enum):
    """When the Sensei may flip a kamon to golden (G8)."""

    #: once, at the end of his odd-year turn, after his placements
    AFTER_PLACEMENTS = "after_placements"
    #: once, at any moment of his odd-year turn
    ANY_TIME = "any_time"


class DrawTiming(enum.Enum):
    """When a Draw tile may be spent (§4.5, §9.2 G6); Exchange and +1 tiles are always spent
    inside a payment."""

    #: at any moment of the owner's odd-year turn, as an action of its own
    OWN_TURN = "own_turn"
    #: only during a conquest: after the province is chosen, before the payment
    CONQUEST = "conquest"


class LastLotChooser(enum.Enum):
    """Who picks the hierarchy tile of the last lot when several are left (§9.2 G9, G10)."""

    #: the player left without a lot (the Tairo at that moment)
    LAST_PLAYER = "last_player"
    #: the Tairo who made the last offer, as he picks every lot's tile
    TAIRO = "tairo"


class TieBreak(enum.Enum):
    """How a tie for the most favour is broken (G12)."""

    #: tied players share the victory
    SHARED = "shared"
    #: most provinces won on majority, then most koku left in hand
    MAJORITIES_THEN_KOKU = "majorities_then_koku"


class Reshuffle(enum.Enum):
    """When spent troop cards are shuffled back into the troop deck (G17)."""

    #: as soon as the deck is empty, even in the middle of a draw
    WHEN_EMPTY = "when_empty"
    #: also before the sharing, whenever the deck cannot cover the Tairo's full draw
    BEFORE_SHARING = "before_sharing"


_S = DATA.setup
_KOKU = {k.value: k.count for k in DATA.koku.cards}
_EFFECTS = tuple(e.count for e in DATA.bonus.effects)


class ShitennoOptions(GameOptions, frozen=True):
    """The rule options of Shitenno; every default is the rules file's best reading."""

    draw_troops_per_player: Annotated[
        int,
        Meta(
            ge=0,
            le=4,
            description=(
                "G1: troop cards the Tairo draws per player at the start of each even year (2 -> 8 "
                "cards at 4 players). Source: EDDY; VDJ reports 12 cards in all at 4 players (8 "
                "troop + 4 koku). Certainty MEDIUM-LOW (PROPOSAL, partly confirmed, §9.2)."
            ),
        ),
    ] = _S.tairo_draw_troops_per_player
    draw_koku_per_player: Annotated[
        int,
        Meta(
            ge=1,
            le=4,
            description=(
                "G1: koku cards the Tairo draws per player in each even year (fewer if the deck "
                "runs short). Source: EDDY, VDJ. Certainty MEDIUM-LOW (PROPOSAL, partly "
                "confirmed)."
            ),
        ),
    ] = _S.tairo_draw_koku_per_player
    kamons_2_players: Annotated[
        int,
        Meta(
            ge=1,
            le=12,
            description=(
                "G2: control kamons each general starts with in a 2-player game. Source: EDDY; the "
                "box holds 12 per colour (POLY, EN-RB). Certainty MEDIUM (PROPOSAL kept, §9.2)."
            ),
        ),
    ] = _S.kamons_per_player["2"]
    kamons_3_players: Annotated[
        int,
        Meta(
            ge=1,
            le=10,
            description=(
                "G2: control kamons each general starts with in a 3-player game (at most 10, so "
                "that they fit on the 32 spaces). Source: EDDY. Certainty MEDIUM (PROPOSAL)."
            ),
        ),
    ] = _S.kamons_per_player["3"]
    kamons_4_players: Annotated[
        int,
        Meta(
            ge=1,
            le=8,
            description=(
                "G2: control kamons each general starts with in a 4-player game (at most 8: 4 x 8 "
                "= the 32 spaces). Source: EDDY. Certainty MEDIUM (PROPOSAL)."
            ),
        ),
    ] = _S.kamons_per_player["4"]
    koku_cards_1: Annotated[
        int,
        Meta(
            ge=0,
            le=24,
            description=(
                "G3: koku cards worth 1 koku; the three koku_cards_* must add up to the 24 cards "
                "of the box. Source: EDDY (12/8/4 = 40 koku). Certainty MEDIUM (PROPOSAL)."
            ),
        ),
    ] = _KOKU[1]
    koku_cards_2: Annotated[
        int,
        Meta(
            ge=0,
            le=24,
            description=("G3: koku cards worth 2 koku. Source: EDDY. Certainty MEDIUM (PROPOSAL)."),
        ),
    ] = _KOKU[2]
    koku_cards_3: Annotated[
        int,
        Meta(
            ge=0,
            le=24,
            description=("G3: koku cards worth 3 koku. Source: EDDY. Certainty MEDIUM (PROPOSAL)."),
        ),
    ] = _KOKU[3]
    double_troop_cards: Annotated[
        str,
        Meta(
            description=(
                "G4: the 10 double troop cards, as space-separated pairs of troop codes (Bu Bushi, "
                "Sa Samurai, Sh Shinobi, So Sohei). Default: every unordered pair, same-type pairs "
                "included. Source: EDDY; 10 = C(4,2)+4 matches the box. Certainty MEDIUM-HIGH "
                "(PROPOSAL)."
            )
        ),
    ] = " ".join(DATA.troops.doubles)
    bonus_exchange_tiles: Annotated[
        int,
        Meta(
            ge=0,
            le=24,
            description=(
                "G5: bonus tiles with the Exchange effect; the three bonus_*_tiles must add up to "
                "24. Troop faces are spread evenly over each effect (8/8/8 gives every "
                "troop-effect pair twice). Source: EDDY. Certainty MEDIUM-LOW (PROPOSAL, §9.2 G5)."
            ),
        ),
    ] = _EFFECTS[0]
    bonus_plus_one_tiles: Annotated[
        int,
        Meta(
            ge=0,
            le=24,
            description=(
                "G5: bonus tiles with the +1 effect. Source: EDDY. Certainty MEDIUM-LOW (PROPOSAL)."
            ),
        ),
    ] = _EFFECTS[1]
    bonus_draw_tiles: Annotated[
        int,
        Meta(
            ge=0,
            le=24,
            description=(
                "G5: bonus tiles with the Draw effect. Source: EDDY. Certainty MEDIUM-LOW "
                "(PROPOSAL)."
            ),
        ),
    ] = _EFFECTS[2]
    exchange_rule: Annotated[
        ExchangeRule,
        Meta(
            description=(
                "G6: 'unit' (default): an Exchange tile turns one unit on a card you pay with (one "
                "troop symbol or one koku) into another unit of your choice; 'card': a whole koku "
                "card counts as one troop of your choice, or a troop card as a 1-koku card (the "
                "first reference proposal). Source: TT-RS (§9.2 G6, §9.3 item 2). Certainty "
                "MEDIUM-HIGH for 'unit'."
            )
        ),
    ] = ExchangeRule.UNIT
    combine_bonus_tiles: Annotated[
        bool,
        Meta(
            description=(
                "G6: several bonus tiles may be spent on one placement (False: at most one). "
                "Source: TT-RS (§9.2 G6). Certainty MEDIUM-HIGH."
            )
        ),
    ] = True
    new_tiles_usable_same_turn: Annotated[
        bool,
        Meta(
            description=(
                "G6: a tile won on your first placement may be spent on your second placement of "
                "the same turn (False: only from your next turn). Certainty PROPOSAL (§9.2 G6)."
            )
        ),
    ] = True
    bonus_tile_timing: Annotated[
        DrawTiming,
        Meta(
            description=(
                "G6: when a Draw tile may be spent (Exchange and +1 tiles are always spent inside "
                "a payment). 'own_turn' (default): at any moment of your odd-year turn (§4.5 "
                "timing, the §9.2 G6 proposal 'Draw is also usable during your turn, before a "
                "payment'); 'conquest': only during a conquest, after choosing the province and "
                "before paying (TT-RS: tiles are spent 'during a conquest'). Certainty PROPOSAL."
            )
        ),
    ] = DrawTiming.OWN_TURN
    draw_tile_cards: Annotated[
        int,
        Meta(
            ge=1,
            le=3,
            description=(
                "G6: cards a Draw tile gives, all from one deck (troop cards, or koku cards under "
                "draw_tile_koku; fewer if the deck runs out). Default 1: TT-RS 'draw one troop "
                "card' (§9.2 G6, resolved, MEDIUM-HIGH); the seed says 'draw extra cards', plural "
                "(§1)."
            ),
        ),
    ] = 1
    plus_one_on_exchanged_koku: Annotated[
        bool,
        Meta(
            description=(
                "G6: a +1 tile may add a koku to a koku payment whose only koku comes from a troop "
                "unit turned into koku by an Exchange (True); False (default): it needs a real "
                "koku card in the payment. TT-RS says '+1 koku if you are paying at least one "
                "koku' (§9.2 G6), which does not say whether an exchanged koku counts. Certainty "
                "PROPOSAL."
            )
        ),
    ] = False
    unused_tile_points: Annotated[
        int,
        Meta(
            ge=0,
            le=3,
            description=(
                "G6: favour points per unused bonus tile at the end. Default 0 (PROPOSAL); EDDY "
                "had commented-out code giving 1. Certainty PROPOSAL / LOW."
            ),
        ),
    ] = 0
    hatamoto_every_placement: Annotated[
        bool,
        Meta(
            description=(
                "G7: the Hatamoto's wild troop helps every placement he pays with troops (True, "
                "default since §9.2: seed wording, spielen 'stets', EDDY); False: once per odd "
                "year (gamethyme 'once per turn'). Never for koku payments. Certainty OPEN, "
                "leaning True. §9.2 G7 calls the alternative flag 'hatamoto_once_per_year'; this "
                "option has the opposite polarity: False here is that flag set."
            )
        ),
    ] = True
    sensei_flip: Annotated[
        SenseiTiming,
        Meta(
            description=(
                "G8: when the Sensei flips one of his simple kamons to golden, once per odd year: "
                "'after_placements' (default, as EDDY) or 'any_time' during his odd-year turn. "
                "Certainty PROPOSAL (§9.2 G8)."
            )
        ),
    ] = SenseiTiming.AFTER_PLACEMENTS
    all_titles_available: Annotated[
        bool,
        Meta(
            description=(
                "G9: all four hierarchy tiles are in every sharing, whatever the player count, so "
                "with 2 or 3 players some titles go to nobody; the last player without a lot picks "
                "among the tiles left (True, default: MGB, TT-PI, 120g, EDDY, HIGH). False: only "
                "the top N titles are used (the first reference proposal)."
            )
        ),
    ] = True
    last_lot_tile_chooser: Annotated[
        LastLotChooser,
        Meta(
            description=(
                "G9/G10: who picks the hierarchy tile of the last lot when more than one is left "
                "(2 or 3 players with all_titles_available). 'last_player' (default): the player "
                "left without a lot, the Tairo at that moment (the §9.2 G9 proposal). 'tairo': "
                "when the last lot offered was refused by all and kept, its keeper stays Tairo "
                "and picks the tile the last player gets, as he picks every lot's tile (§4.3 "
                "step 3; MGB: in a 2-player game the offerer picks both roles). Certainty "
                "PROPOSAL (§9.2 G9)."
            )
        ),
    ] = LastLotChooser.LAST_PLAYER
    end_after_odd_year: Annotated[
        bool,
        Meta(
            description=(
                "G11: False (default, the seed's literal reading): the game ends at the end of an "
                "even year in which a general has no kamon left or the koku deck is empty. True: "
                "the triggers are checked at the end of each odd year instead, so the year after "
                "the last sharing is still played (EDDY). Certainty MEDIUM for the seed reading."
            )
        ),
    ] = False
    tie_break: Annotated[
        TieBreak,
        Meta(
            description=(
                "G12: 'shared' (default): tied generals share the victory; 'majorities_then_koku': "
                "most provinces won, then most koku left. Certainty PROPOSAL."
            )
        ),
    ] = TieBreak.SHARED
    empty_lots: Annotated[
        bool,
        Meta(
            description=(
                "G13: a lot may hold no card at all (only its hierarchy tile) even while cards are "
                "left. Source: TT-RS, 120g. Certainty MEDIUM-HIGH (resolved, §9.2)."
            )
        ),
    ] = True
    open_hands: Annotated[
        bool,
        Meta(
            description=(
                "G14: hands are open to everyone (False, default: hidden, sizes public; LGA "
                "implies hidden hands). Certainty PARTIAL (§9.2 G14)."
            )
        ),
    ] = False
    mixed_payments: Annotated[
        bool,
        Meta(
            description=(
                "G15: False (default): a placement is paid with troops or with koku, never both, "
                "except through an Exchange tile (LUDO, TT-RS). True: in a troop payment a koku "
                "card may stand in for one troop of any type without a tile. Certainty PARTIAL."
            )
        ),
    ] = False
    koku_price_includes_title_bonus: Annotated[
        bool,
        Meta(
            description=(
                "G16: the koku price of a space is its printed value (False, default; seed, LUDO) "
                "or that value plus the payer's Daimyo/Shomyo bonus (True). Certainty "
                "PROPOSAL/LOW."
            )
        ),
    ] = False
    overpay_allowed: Annotated[
        bool,
        Meta(
            description=(
                "§4.4 step 3: a payment may include a spare card of the currency it pays in, a "
                "troop card no requirement needs or a koku card beyond the price (True; one at "
                "most, to keep the list of choices short, since more never helps). False "
                "(default): only minimal payments, no card, tile or once-a-year wild troop that "
                "could be left out (a reading: the seed forbids change, not spare cards, and a "
                "spare card never helps; docs/shitenno.md reading 7). Certainty PROPOSAL."
            )
        ),
    ] = False
    troop_reshuffle: Annotated[
        Reshuffle,
        Meta(
            description=(
                "G17: 'when_empty' (default): spent troop cards are shuffled into a new deck as "
                "soon as the deck is empty, even mid-draw; 'before_sharing': also before each "
                "sharing whenever the deck cannot cover the full draw (EDDY). Certainty PROPOSAL."
            )
        ),
    ] = Reshuffle.WHEN_EMPTY
    draw_tile_koku: Annotated[
        bool,
        Meta(
            description=(
                "G18: a Draw tile may take the top koku card instead of a troop card (False, "
                "default: Draw takes a troop card only, so the koku clock stays exact; TT-RS, "
                "resolved, MEDIUM-HIGH)."
            )
        ),
    ] = False

    def __post_init__(self) -> None:
        """Check what a field's type alone cannot: totals and the double-card codes."""
        if self.koku_cards_1 + self.koku_cards_2 + self.koku_cards_3 != DATA.koku.total_cards:
            raise ValueError(
                "koku_cards_1, koku_cards_2 and koku_cards_3 must add up to "
                f"the {DATA.koku.total_cards} koku cards of the box"
            )
        codes = self.double_troop_cards.split()
        if len(codes) != len(DATA.troops.doubles):
            raise ValueError(
                f"double_troop_cards: there are {len(DATA.troops.doubles)} "
                "double troop cards, not " + str(len(codes))
            )
        for code in codes:
            try:
                kind = kind_of_code(code)
            except ValueError:
                kind = 0
            if len(KIND_UNITS[kind]) != 2:
                raise ValueError(
                    f"double_troop_cards: {code!r} is not a pair of troop codes "
                    "(Bu, Sa, Sh, So), such as 'BuSa'"
                )
        tiles = self.bonus_exchange_tiles + self.bonus_plus_one_tiles + self.bonus_draw_tiles
        if tiles != DATA.bonus.total_tiles:
            raise ValueError(
                "bonus_exchange_tiles, bonus_plus_one_tiles and bonus_draw_tiles "
                f"must add up to the {DATA.bonus.total_tiles} bonus tiles"
            )

    def kamons(self, players: int) -> int:
        """Control kamons per general for ``players`` players (G2)."""
        return (self.kamons_2_players, self.kamons_3_players, self.kamons_4_players)[players - 2]

    def koku_counts(self) -> tuple[int, int, int]:
        """How many 1-, 2- and 3-koku cards the deck holds (G3)."""
        return (self.koku_cards_1, self.koku_cards_2, self.koku_cards_3)

    def effect_counts(self) -> tuple[int, int, int]:
        """How many Exchange, +1 and Draw tiles there are (G5)."""
        return (self.bonus_exchange_tiles, self.bonus_plus_one_tiles, self.bonus_draw_tiles)
