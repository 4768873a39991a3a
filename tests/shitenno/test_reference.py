"""The rules reference's translation, summaries and research notes (shitenno.md §1, §2.1, §4.2,
§5, §7, §8, §9.0, §9.1, §9.3, §9.4, §9.5) checked against our data, options and rules: where
such a section states something about the game or about what the engine should do, it is
tested here."""

from __future__ import annotations

import re

import sengoku
from sengoku.core import Rng, describe_options
from sengoku.games.shitenno import ShitennoOptions, end
from sengoku.games.shitenno.data import DATA, kind_of_code
from sengoku.games.shitenno.options import ExchangeRule
from sengoku.games.shitenno.state import Phase, State

from .test_control import control
from .test_sharing import sharing
from .util import (
    BU,
    DAIMYO,
    DRAW,
    EXCHANGE,
    GAME,
    HATAMOTO,
    KYUSHU,
    PLUS_ONE,
    SENSEI,
    SH,
    SHOMYO,
    act,
    legal,
    set_hand,
    tile,
)

DESCRIPTIONS = {o.name: o.description for o in describe_options(ShitennoOptions)}


def _gaps(text: str) -> set[str]:
    return set(re.findall(r"\bG(\d+)\b", text))


def test_the_seed_s_box_list_is_our_data() -> None:
    """shitenno.md §1 (the seed's box list): 48 kamons, 24 bonus tiles, 4 titles with their
    hierarchy tiles, 24 single troop cards, 24 koku cards, 10 double troop cards."""
    assert DATA.setup.kamons_box_per_player * len(DATA.setup.colours) == 48
    assert DATA.bonus.total_tiles == sum(e.count for e in DATA.bonus.effects) == 24
    assert len(DATA.titles) == 4
    assert DATA.troops.singles_per_type * len(DATA.troops.types) == 24
    assert sum(k.count for k in DATA.koku.cards) == 24
    assert len(DATA.troops.doubles) == 10


def test_a_card_is_always_used_in_full() -> None:
    """shitenno.md §1 ('Surplus forces ... cannot be split or returned; a card is always used
    in full'): Chugoku needs Sa, Sa, Bu; paid with Sa, Sa and a BuSh double, the whole double
    is spent and no Shinobi comes back."""
    s, rng = control()
    set_hand(s, 0, ["Sa", "Sa", "BuSh"])
    act(s, 0, "control Chugoku", rng)
    act(s, 0, "place Chugoku paying troops Sa+Sa+BuSh", rng)
    assert s.hand_troops[0] == [0] * 14
    assert s.troop_discard[kind_of_code("BuSh")] == 1


def test_troop_types_and_colours() -> None:
    """shitenno.md §2.1: four troop types, Bushi blue, Samurai green, Shinobi black, Sohei
    orange."""
    assert [(t.name, t.colour) for t in DATA.troops.types] == [
        ("Bushi", "blue"),
        ("Samurai", "green"),
        ("Shinobi", "black"),
        ("Sohei", "orange"),
    ]


def _three_player_sharing_without_a_daimyo() -> tuple[State, Rng]:
    """Red (Daimyo, Tairo) gives Blue the Shomyo tile, Green the Hatamoto tile and keeps the
    Sensei tile: nobody takes the Daimyo."""
    s, rng = sharing(3)
    for text, seat in (
        ("add hierarchy tile Shomyo to the lot", 0),
        ("offer lot Shomyo to Blue", 0),
        ("accept lot", 1),
        ("add hierarchy tile Hatamoto to the lot", 0),
        ("offer lot Hatamoto to Green", 0),
        ("accept lot", 2),
        ("take the last lot with Sensei", 0),
    ):
        act(s, seat, text, rng)
    return s, rng


def test_a_round_is_a_sharing_then_an_odd_year_and_the_top_title_held_is_tairo() -> None:
    """shitenno.md §4.2 and §9.3 item 4: a round is an even year (sharing) then an odd year;
    the titles of the sharing set the odd year's order, and the next Tairo is the holder of
    the highest title held, here the Shomyo, since nobody took the Daimyo tile."""
    s, rng = _three_player_sharing_without_a_daimyo()
    assert s.titles == [SENSEI, SHOMYO, HATAMOTO]
    assert s.phase is Phase.CONTROL and s.year == 1 and s.order == [1, 0, 2]
    for seat in (1, 0, 2):
        act(s, seat, "end turn", rng)
    assert s.phase is Phase.BUILD and s.year == 2
    assert s.tairo == 1 and GAME.to_act(s) == [1]


def test_the_student_deviations_are_not_followed() -> None:
    """shitenno.md §5 (EDDY's deviations: up to 3 placements per turn; koku and bonus points
    at the end commented out): a general places at most two kamons a turn even when he could
    pay for a third, and koku in hand score at the end."""
    s, rng = control()
    set_hand(s, 0, [], [3, 3, 3])
    act(s, 0, "control Chugoku", rng)
    act(s, 0, "place Chugoku paying koku 3", rng)
    act(s, 0, "control Chubu", rng)
    act(s, 0, "place Chubu paying koku 3", rng)
    assert s.hand_koku[0][3] == 1  # enough for a third kamon in Hokkaido, but no third
    assert not any(a.startswith("control") for a in legal(s, 0))
    score = s.score[0]
    end.final_scoring(s, [])
    assert s.result is not None  # the 3 koku left, and the majorities of Chugoku and Chubu
    assert s.result[0] == score + 3 + 6 + 6


def test_the_data_summary_is_our_data() -> None:
    """shitenno.md §7 (the data summary, as data): decks, tiles, titles, provinces, kamons,
    the starting hand, the Tairo's draw, placements per turn and the final scoring numbers."""
    codes = {"B": "Bu", "S": "Sa", "N": "Sh", "O": "So"}
    doubles = ["BB", "SS", "NN", "OO", "BS", "BN", "BO", "SN", "SO", "NO"]
    assert list(DATA.troops.doubles) == [codes[d[0]] + codes[d[1]] for d in doubles]
    assert DATA.troops.singles_per_type == 6
    assert {k.value: k.count for k in DATA.koku.cards} == {1: 12, 2: 8, 3: 4}
    assert [e.name for e in DATA.bonus.effects] == ["exchange", "plus_one", "draw"]
    assert all(e.count == 2 * len(DATA.troops.types) for e in DATA.bonus.effects)
    assert DATA.bonus_tiles_per_province == 3
    assert [(t.name, t.seals, t.placement_bonus) for t in DATA.titles] == [
        ("Daimyo", 4, 2),
        ("Shomyo", 3, 1),
        ("Sensei", 2, 0),
        ("Hatamoto", 1, 0),
    ]
    provinces = [
        ("Chugoku", "Samurai", 3, (3, 4, 6, 9)),
        ("Chubu", "Shinobi", 3, (3, 4, 6, 9)),
        ("Hokkaido", "Sohei", 3, (3, 4, 6, 9)),
        ("Kyushu", "Bushi", 3, (3, 4, 6, 9)),
        ("Tohoku", "Bushi", 4, (5, 6, 8, 11)),
        ("Shikoku", "Sohei", 4, (5, 6, 8, 11)),
        ("Kansai", "Shinobi", 4, (5, 6, 8, 11)),
        ("Kanto", "Samurai", 4, (5, 6, 8, 11)),
    ]
    assert [(p.name, p.troop, p.troops_needed, p.values) for p in DATA.provinces] == provinces
    assert {p.majority_bonus for p in DATA.provinces} == {6}
    assert DATA.setup.kamons_per_player == {"2": 12, "3": 10, "4": 8}
    assert DATA.setup.start_hand_troops == 2
    assert (DATA.setup.tairo_draw_troops_per_player, DATA.setup.tairo_draw_koku_per_player) == (
        2,
        1,
    )
    assert DATA.setup.placements_per_turn == 2
    assert (DATA.setup.koku_points, DATA.setup.golden_weight) == (1, 2)


def test_every_proposal_is_behind_a_named_option() -> None:
    """shitenno.md §8 ('Keep every PROPOSAL in §6 behind a named rule flag'): every gap of
    §6, G1 to G18, is named by an option's description (G10's 2-player game by the option
    on who picks the last lot's tile)."""
    named = set().union(*(_gaps(d) for d in DESCRIPTIONS.values()))
    assert {str(g) for g in range(1, 19)} <= named


def test_the_settled_gaps_are_the_defaults() -> None:
    """shitenno.md §9.0 (G6, G9, G13, G18 settled by the second pass): the defaults are its
    answers: Exchange converts one unit and tiles combine, all four hierarchy tiles are
    used, a lot may hold no card, and a Draw tile takes a troop card, one."""
    o = ShitennoOptions()
    assert o.exchange_rule is ExchangeRule.UNIT and o.combine_bonus_tiles
    assert o.all_titles_available and o.empty_lots
    assert not o.draw_tile_koku and o.draw_tile_cards == 1
    m = sengoku.new_match("shitenno", players=2, seed=4)
    assert m.view(0)["hierarchy_tiles"] == ["Daimyo", "Shomyo", "Sensei", "Hatamoto"]


def test_the_options_cite_only_known_sources() -> None:
    """shitenno.md §9.1 (the second pass's source tags) and the reference's own tags: every
    source tag an option's description names is one of them."""
    tags = {"TT-RS", "TT-PI", "MGB", "VDJ", "LGA", "POLY", "JDJ", "TT-AV", "ES-RB", "BGG-DD"}
    tags |= {"SEED", "BOARD", "EDDY", "EN-RB", "LUDO"}
    certainty = {"HIGH", "MEDIUM", "LOW", "PROPOSAL", "OPEN", "PARTIAL", "MEDIUM-HIGH"}
    certainty |= {"MEDIUM-LOW"}
    found = set()
    for text in DESCRIPTIONS.values():
        found |= set(re.findall(r"\b[A-Z][A-Z0-9]+(?:-[A-Z]+)?\b", text))
    found -= certainty | {f"G{g}" for g in range(1, 19)}
    assert found and found <= tags


def test_plus_one_copies_a_paid_type_not_the_province_s_type() -> None:
    """shitenno.md §9.3 item 3: +1 adds a troop of a type printed on a paid card (TT-RS),
    not one of the province's type (EDDY). Kyushu (Bushi) needs Bu, Bu, Sh: Sh and So with
    an Exchange (So to Bu) and a +1 fall one Bu short; Sh and Bu with the +1 pay."""
    s, _ = control()
    s.stacks[KYUSHU] = [tile(SH, DRAW)]
    s.tiles[0] = [tile(BU, EXCHANGE), tile(BU, PLUS_ONE)]
    set_hand(s, 0, ["Sh", "So"])
    assert "control Kyushu" not in legal(s, 0)
    set_hand(s, 0, ["Sh", "Bu"])
    assert "control Kyushu" in legal(s, 0)


def test_fewer_players_than_titles_leave_a_title_unheld() -> None:
    """shitenno.md §9.3 item 1: all four hierarchy tiles are in every sharing, so with 3
    players one title goes to nobody that year and the turn order skips it."""
    s, _ = _three_player_sharing_without_a_daimyo()
    assert DAIMYO not in s.titles and sorted(s.titles) == [SHOMYO, SENSEI, HATAMOTO]
    assert [s.titles[p] for p in s.order] == [SHOMYO, SENSEI, HATAMOTO]


def test_setup_shows_titles_and_hides_the_two_troop_cards() -> None:
    """shitenno.md §9.4 (LGA): each general starts with one title visible to all and 2 troop
    cards in hand, which the others see only as a count; the decks are shuffled apart and
    the box holds 34 troop cards, 24 koku cards and 12 kamons per colour (POLY)."""
    m = sengoku.new_match("shitenno", players=3, seed=8)
    spectator = m.view(None)
    assert len(spectator["titles"]) == 3 and spectator["troop_cards"] == [2, 2, 2]
    assert spectator["koku_cards"] == [0, 0, 0] and spectator["hand"] is None
    assert "hands" not in spectator
    assert len(m.view(1)["hand"]["troops"]) == 2
    assert DATA.troops.total_cards == 34 and DATA.koku.total_cards == 24
    assert DATA.setup.kamons_box_per_player == 12


def test_the_gaps_still_open_stay_options() -> None:
    """shitenno.md §9.5: a full rulebook would close G1-G5, G7, G8, G11, G12, G16 and G17,
    so each is still an option (to switch when it is read) and none is described as
    resolved."""
    open_gaps = {"1", "2", "3", "4", "5", "7", "8", "11", "12", "16", "17"}
    for gap in open_gaps:
        texts = [d for d in DESCRIPTIONS.values() if gap in _gaps(d)]
        assert texts, f"G{gap} has no option"
        assert not any("resolved" in d.lower() for d in texts if _gaps(d) == {gap}), gap
