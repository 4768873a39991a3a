"""Shogun's options: the settings of the game and a named flag for every open rules point.

Each description names the source in ``shared/rules/shogun.md`` and its certainty.

>>> from sengoku.core import parse_options
>>> o = parse_options(ShogunOptions, {"board": "moon", "setup": "draft"})
>>> o.board, o.setup, o.years
(<Board.MOON: 'moon'>, <Setup.DRAFT: 'draft'>, 2)
"""

from __future__ import annotations

import enum
from typing import Annotated

from msgspec import Meta

from sengoku.core import GameOptions

from .data import load_data


class Board(enum.Enum):
    SUN = "sun"
    MOON = "moon"


class Setup(enum.Enum):
    STANDARD = "standard"
    DRAFT = "draft"


class TheatreEvent(enum.Enum):
    ACTION_ALL = "action_all"
    ACTION_ONE = "action_one"
    ON_REVEAL = "on_reveal"


class TieBreak(enum.Enum):
    CHESTS = "chests"
    CHESTS_THEN_BUILDINGS = "chests_then_buildings"
    BUILDINGS = "buildings"
    SHARED = "shared"


class TowerModelName(enum.Enum):
    SBW = "sbw"
    IMR = "imr"
    WOS = "wos"


class OverBid(enum.Enum):
    FORBID = "forbid"
    PAY_WHAT_YOU_HAVE = "pay_what_you_have"


class ShortRecruit(enum.Enum):
    CANCEL = "cancel"
    PLACE_REMAINING = "place_remaining"


class RevoltPeasants(enum.Enum):
    BEFORE = "before"
    AFTER = "after"


class PeasantAllies(enum.Enum):
    NO_MARKER = "no_marker"
    AT_MOST_ONE_MARKER = "at_most_one_marker"
    NEVER = "never"


class RevealCards(enum.Enum):
    IN_TURN = "in_turn"
    ALL_AT_ONCE = "all_at_once"


class SixArmies(enum.Enum):
    SIX = "six"
    PLUS_ONE = "plus_one"


_D = load_data()
_SUN_SEA = ", ".join(f"{a}/{b}" for a, b in _D.adjacency.moon_sea_default)
_SUN_REMOVED = ", ".join(_D.adjacency.moon_three_player_removed_default)
_FIVE_C = ", ".join(_D.lineup_file.lineups["5"][2])


class ShogunOptions(GameOptions, frozen=True):
    """The options of a Shogun match (see ``docs/shogun.md`` for every reading)."""

    board: Annotated[
        Board,
        Meta(
            description="Board side: sun or moon (rules §1, §2.1; H). The sides differ in regions."
        ),
    ] = Board.SUN
    setup: Annotated[
        Setup,
        Meta(
            description="Starting provinces: the standard line-up of the supplement (digital "
            "edition's 'standard initial placement', rules §14.6, M; the default because it is "
            "the digital edition's setting, seed 004) or the draft (the printed main rule, "
            "rules §2.4, H). §14.6 gives the table for the sun side only; on the moon side the "
            "same sun-side table is used (our reading, L)."
        ),
    ] = Setup.STANDARD
    years: Annotated[
        int,
        Meta(
            ge=1,
            le=3,
            description="Years to play (rules §3: 2 in print, H; §17, §18: a setting of the "
            "digital edition, M; at most 3 because a year uses 4 of the 12 event cards).",
        ),
    ] = 2
    tower_model: Annotated[
        TowerModelName,
        Meta(
            description="Cube-tower model (rules §15, L): sbw = SpielByWeb (thrown 2/3 out, "
            "stuck 1/3 out per throw), imr = two shelves catching 3/20, knocked 1/40 per "
            "passing cube (simpler than [IMR]'s own rolls, see docs), wos = thrown 1/2, "
            "stuck 0.6, priming 70 %."
        ),
    ] = TowerModelName.SBW
    show_tower: Annotated[
        bool,
        Meta(
            description="A display setting, not a rules point: show the counts of cubes inside "
            "the tower per colour (a careful player could keep them); off: the tower's contents "
            "and each supply are hidden, only supply + tower per colour is shown (issue 4 point 6)."
        ),
    ] = False
    no_theatre_event: Annotated[
        TheatreEvent,
        Meta(
            description="The No-theatre event (rules §7 #1-2, §21.1 Q1, unresolved, L): "
            "action_all = building a Nō theatre while the event is active removes all revolt "
            "markers of that province; action_one = removes one ([WOS]); on_reveal = when the "
            "event is drawn, every province with a Nō theatre loses its markers."
        ),
    ] = TheatreEvent.ACTION_ALL
    tie_break: Annotated[
        TieBreak,
        Meta(
            description="Final tie-break (rules §12, §21.1 Q3; printed rule not found, L): chests "
            "= most war chests, else shared (BGA, H for BGA); chests_then_buildings adds castles, "
            "temples, theatres; buildings = castles, temples, theatres (Wallenstein); shared."
        ),
    ] = TieBreak.CHESTS
    over_bid: Annotated[
        OverBid,
        Meta(
            description="A war-chest bid above one's chests (rules §21.1 Q4, not found, L): "
            "forbid it at planning, or let the bidder pay what he has ([IMR])."
        ),
    ] = OverBid.FORBID
    short_recruit: Annotated[
        ShortRecruit,
        Meta(
            description="Recruiting with too few cubes in supply (rules §21.1 Q4, M): cancel the "
            "action (all-or-nothing, [SBW][WOS]) or place what is left ([IMR])."
        ),
    ] = ShortRecruit.CANCEL
    collect_revolt_peasants: Annotated[
        RevoltPeasants,
        Meta(
            description="Peasants in a revolt when collecting rice or taxes (rules §10.1, §21.1 "
            "Q5, M-H): before = the markers already there; after = count the new marker too "
            "([IMR]) and add another one if crushed."
        ),
    ] = RevoltPeasants.BEFORE
    peasant_allies: Annotated[
        PeasantAllies,
        Meta(
            description="When emerged peasants fight for an attacked player (rules §9.3, H for "
            "Shogun): no_marker = only if his province has no revolt marker; at_most_one_marker "
            "(Wallenstein, [SBW]); never."
        ),
    ] = PeasantAllies.NO_MARKER
    defence_card_in_revolts: Annotated[
        bool,
        Meta(
            description="The +1 defence card also adds a cube in peasant revolts (rules §6, "
            "§21.1 Q6: no, H; [IMR] yes)."
        ),
    ] = False
    castle_event_in_revolts: Annotated[
        bool,
        Meta(
            description="The castle event's extra cube also applies in peasant revolts (rules "
            "§21.1 Q6: no text found, default no after [WOS], M)."
        ),
    ] = False
    six_armies_card: Annotated[
        SixArmies,
        Meta(
            description="The 6-armies card under the recruit-shortage event (rules §21.3, "
            "unresolved, L): six = 6 armies instead (BGA wording, [IMR]); plus_one = 3 + 1 = 4."
        ),
    ] = SixArmies.SIX
    battle_move_optional: Annotated[
        bool,
        Meta(
            description="May a player decline a planned Battle/Move he could carry out? Rules §4.6 "
            "say a planned action must be carried out if possible (H), so default no."
        ),
    ] = False
    reveal_action_cards: Annotated[
        RevealCards,
        Meta(
            description="When the planned cards for an action are turned (rules §4.6 is silent, "
            "L; our proposal): in_turn = each player's card when his turn for that action comes "
            "(the action runs in turn order, so nothing leaks early); all_at_once = all players' "
            "cards when the action starts."
        ),
    ] = RevealCards.IN_TURN
    moon_sea_routes: Annotated[
        str,
        Meta(
            description="Sea routes of the moon side, comma-separated 'Province/Province' "
            "pairs (rules §14.4, §21.1 Q2: not found; default the sun side's 6, L)."
        ),
    ] = _SUN_SEA
    moon_three_player_removed: Annotated[
        str,
        Meta(
            description="The 8 provinces removed with 3 players on the moon side, "
            "comma-separated (rules §14.3, §21.1 Q2: not found; default the sun side's 8, L)."
        ),
    ] = _SUN_REMOVED
    moon_land_adjacency: Annotated[
        Board,
        Meta(
            description="The land edges of the moon side (rules §14.4, §21.1 Q2: no moon board "
            "was found; the proposal, M, is the sun side's edges): sun = the sun side's edges "
            "(data/adjacency.json); moon = the moon data set (data/moon_land.json, today that "
            "proposal; a correction is a change to that file)."
        ),
    ] = Board.SUN
    moon_lineup: Annotated[
        Board,
        Meta(
            description="The standard line-up on the moon side (rules §14.6 gives the sun side's "
            "table only; using it on the moon side is our reading, L): sun = the sun-side table "
            "(data/lineups.json); moon = the moon data set (data/moon_lineups.json, today a copy "
            "of the sun-side table, L; a correction is a change to that file)."
        ),
    ] = Board.SUN
    five_player_c: Annotated[
        str,
        Meta(
            description="Player C's provinces in the 5-player standard line-up, comma-separated "
            "in stack order 5,4,4,3,3,2,2 (rules §14.6, §21.1 Q8: [IMR]'s table, M; the printed "
            "row was corrected once and which version [IMR] holds is unknown). Default: that row."
        ),
    ] = _FIVE_C
    draft_same_two_cards: Annotated[
        bool,
        Meta(
            description="The draft's refresh (rules §2.4, [FR][IMR], M): a player who faces the "
            "same two face-up cards as at his previous pick puts them under the pile and turns "
            "two new ones; off: no refresh."
        ),
    ] = True
    special_bonus_after_event_limit: Annotated[
        bool,
        Meta(
            description="The +1 chest and +1 rice cards add their 1 after an event's limit (rules "
            "§6, §21.3: [FR] applies special cards after the event, [IMR] limits then adds 1; "
            "no rulebook text, L): 'max. 5' + 1 = 6; off: before the limit, so 'max. 5' gives 5."
        ),
    ] = True
    conquest_keeps_revolt_markers: Annotated[
        bool,
        Meta(
            description="A conquered province keeps its revolt markers (rules §9.3 is silent on "
            "markers; §10.1: markers stay until winter or devastation, [SBW] H; so keep, M); "
            "off: the conqueror's arrival removes them."
        ),
    ] = True
