"""The even year: the sharing (shitenno.md §4.3, gaps G9, G10, G13)."""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng
from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.state import NO_TITLE, Phase, State

from .util import DAIMYO, GAME, HATAMOTO, SENSEI, SHOMYO, act, legal, new_state, set_hand


def sharing(players: int = 4, **options: Any) -> tuple[State, Rng]:
    """A sharing where Red is Daimyo (Tairo), Blue Shomyo, Green Sensei, Black Hatamoto; the
    face-up cards are Sa, Sa, BuSh and koku 2, 1; every hand is empty."""
    s, rng = new_state(players, **options)
    s.titles = [DAIMYO, SHOMYO, SENSEI, HATAMOTO][:players]
    s.tairo = 0
    s.pool_troops = [0] * 14
    s.pool_troops[kind_of_code("Sa")] = 2
    s.pool_troops[kind_of_code("BuSh")] = 1
    s.pool_koku = [0, 1, 1, 0]
    for p in range(players):
        set_hand(s, p)
    return s, rng


def test_lot_is_built_card_by_card_with_exactly_one_tile() -> None:
    """shitenno.md §4.3 step 3: the Tairo picks any face-up cards and exactly one hierarchy
    tile; the lot can be offered only once it holds its tile."""
    s, rng = sharing()
    assert legal(s, 0) == [
        "add troop Sa to the lot",
        "add troop BuSh to the lot",
        "add koku 1 to the lot",
        "add koku 2 to the lot",
        "add hierarchy tile Daimyo to the lot",
        "add hierarchy tile Shomyo to the lot",
        "add hierarchy tile Sensei to the lot",
        "add hierarchy tile Hatamoto to the lot",
    ]
    act(s, 0, "add troop Sa to the lot", rng)
    act(s, 0, "add koku 2 to the lot", rng)
    assert not any(a.startswith("offer") for a in legal(s, 0))
    act(s, 0, "add hierarchy tile Shomyo to the lot", rng)
    assert not any("hierarchy tile" in a for a in legal(s, 0))
    assert legal(s, 0)[-1] == "offer lot Sa+koku 2+Shomyo to Blue"
    assert s.pool_troops[kind_of_code("Sa")] == 1 and s.pool_koku[2] == 0


def test_offer_goes_down_the_title_order_and_accept_takes_the_lot() -> None:
    """shitenno.md §4.3 step 4: the lot goes to the next title first; accepting puts the cards
    in hand, the player leaves the sharing, and the Tairo builds the next lot."""
    s, rng = sharing()
    act(s, 0, "add troop BuSh to the lot", rng)
    act(s, 0, "add hierarchy tile Daimyo to the lot", rng)
    log = act(s, 0, "offer lot BuSh+Daimyo to Blue", rng)
    assert log == ["Red offers the lot Bushi+Shinobi, Daimyo to Blue"]
    assert GAME.to_act(s) == [1] and legal(s, 1) == ["accept lot", "refuse lot"]
    act(s, 1, "accept lot", rng)
    assert s.hand_troops[1][kind_of_code("BuSh")] == 1
    assert s.lot_of == [NO_TITLE, DAIMYO, NO_TITLE, NO_TITLE]
    assert s.phase is Phase.BUILD and GAME.to_act(s) == [0]
    act(s, 0, "add hierarchy tile Sensei to the lot", rng)
    assert legal(s, 0)[-1] == "offer lot Sensei to Green"  # Blue has a lot: Green is next


def test_refused_lot_passes_the_tairo_role() -> None:
    """shitenno.md §4.3 step 4: when every player refuses, the Tairo keeps the lot and the
    highest-ranked player without a lot becomes Tairo, with the remaining cards."""
    s, rng = sharing()
    act(s, 0, "add troop Sa to the lot", rng)
    act(s, 0, "add hierarchy tile Hatamoto to the lot", rng)
    act(s, 0, "offer lot Sa+Hatamoto to Blue", rng)
    act(s, 1, "refuse lot", rng)
    assert GAME.to_act(s) == [2]
    act(s, 2, "refuse lot", rng)
    log = act(s, 3, "refuse lot", rng)
    assert log[-2:] == [
        "nobody takes it: Red keeps the lot Samurai, Hatamoto",
        "Blue becomes the Tairo",
    ]
    assert s.tairo == 1 and GAME.to_act(s) == [1] and s.phase is Phase.BUILD
    assert s.hand_troops[0][kind_of_code("Sa")] == 1 and s.lot_of[0] == HATAMOTO
    # the new Tairo continues with what is left, no new draw
    assert s.pool_troops[kind_of_code("Sa")] == 1 and sum(s.pool_koku) == 2
    act(s, 1, "add hierarchy tile Daimyo to the lot", rng)
    assert legal(s, 1)[-1] == "offer lot Daimyo to Green"


def test_last_lot_with_four_players_is_automatic() -> None:
    """shitenno.md §4.3 steps 5-6: the last player takes all remaining cards and the last
    tile; then every hierarchy tile becomes its holder's title and the odd year starts."""
    s, rng = sharing()
    for title, to, colour in ((HATAMOTO, 1, "Blue"), (SENSEI, 2, "Green"), (SHOMYO, 3, "Black")):
        name = ["Daimyo", "Shomyo", "Sensei", "Hatamoto"][title]
        act(s, 0, f"add hierarchy tile {name} to the lot", rng)
        act(s, 0, f"offer lot {name} to {colour}", rng)
        log = act(s, to, "accept lot", rng)
    assert (
        "Red takes the last lot: Samurai, Samurai, Bushi+Shinobi, koku 2, koku 1 "
        "and the Daimyo tile"
    ) in log
    assert s.hand_troops[0][kind_of_code("Sa")] == 2 and s.hand_koku[0] == [0, 1, 1, 0]
    assert s.titles == [DAIMYO, HATAMOTO, SENSEI, SHOMYO]
    assert s.phase is Phase.CONTROL and s.order == [0, 3, 2, 1]
    assert s.year == 1


def test_last_lot_with_three_players_chooses_its_tile() -> None:
    """shitenno.md §9.2 G9: all four tiles are in the sharing; the last player picks one of
    those left, and the others go to nobody this year."""
    s, rng = sharing(3)
    act(s, 0, "add hierarchy tile Daimyo to the lot", rng)
    act(s, 0, "offer lot Daimyo to Blue", rng)
    act(s, 1, "accept lot", rng)
    act(s, 0, "add troop Sa to the lot", rng)
    act(s, 0, "add hierarchy tile Hatamoto to the lot", rng)
    act(s, 0, "offer lot Sa+Hatamoto to Green", rng)
    act(s, 2, "accept lot", rng)
    assert s.phase is Phase.LAST and GAME.to_act(s) == [0]
    assert legal(s, 0) == ["take the last lot with Shomyo", "take the last lot with Sensei"]
    act(s, 0, "take the last lot with Sensei", rng)
    assert s.titles == [SENSEI, DAIMYO, HATAMOTO]
    assert s.order == [1, 0, 2]  # Daimyo, Sensei, Hatamoto: nobody is Shomyo


def test_two_players_one_splits_the_other_chooses() -> None:
    """shitenno.md §9.2 G10: with 2 players, a refused lot stays with the Tairo and the other
    player takes the rest, choosing among the remaining tiles."""
    s, rng = sharing(2)
    act(s, 0, "add troop BuSh to the lot", rng)
    act(s, 0, "add hierarchy tile Daimyo to the lot", rng)
    act(s, 0, "offer lot BuSh+Daimyo to Blue", rng)
    act(s, 1, "refuse lot", rng)
    assert s.phase is Phase.LAST and s.tairo == 1
    assert legal(s, 1) == [
        "take the last lot with Shomyo",
        "take the last lot with Sensei",
        "take the last lot with Hatamoto",
    ]
    act(s, 1, "take the last lot with Shomyo", rng)
    assert s.hand_troops[1][kind_of_code("Sa")] == 2 and s.hand_koku[1] == [0, 1, 1, 0]
    assert s.titles == [DAIMYO, SHOMYO]


def test_empty_lot_allowed_by_default() -> None:
    """shitenno.md §9.2 G13: a lot may hold its hierarchy tile and no card."""
    s, rng = sharing()
    act(s, 0, "add hierarchy tile Sensei to the lot", rng)
    assert "offer lot Sensei to Blue" in legal(s, 0)


def test_empty_lot_forbidden_by_option_while_cards_remain() -> None:
    """shitenno.md §6 G13 (option empty_lots=False): a lot needs a card while any is left."""
    s, rng = sharing(empty_lots=False)
    act(s, 0, "add hierarchy tile Sensei to the lot", rng)
    assert not any(a.startswith("offer") for a in legal(s, 0))
    act(s, 0, "add koku 1 to the lot", rng)
    assert "offer lot koku 1+Sensei to Blue" in legal(s, 0)


def test_lots_are_public() -> None:
    """shitenno.md §4.3 'Information': face-up cards and lots are public."""
    s, rng = sharing()
    act(s, 0, "add troop BuSh to the lot", rng)
    spectator = GAME.view(s, None)
    assert spectator["lot"] == {"troops": ["BuSh"], "koku": [], "tile": None}
    assert spectator["face_up"] == {"troops": ["Sa", "Sa"], "koku": [2, 1]}
