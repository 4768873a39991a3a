"""The agents' hooks: the heuristic picks from whatever subset of the legal actions it is
given, its decisions follow the rules' values (bids, Seppuku, hostages, cards, Mandates,
moves, alliances), and its estimates are well formed."""

from __future__ import annotations

import math

import sengoku
from sengoku.core import Match, Rng, get_game
from sengoku.games.rising_sun import heuristic
from sengoku.games.rising_sun.actions import COIN, RONIN, Bid, Give
from sengoku.games.rising_sun.mandates import T_MANDATE_TURN, T_MOVE_ASK
from sengoku.games.rising_sun.state import D_KEEP, M_MARSHAL
from sengoku.games.rising_sun.tea import T_TEA

from .helpers import (
    MANDATE,
    P,
    card_index,
    coins,
    give,
    honor,
    put,
    run_task,
    seat,
    table,
    war_in,
)


def test_the_policy_chooses_within_any_subset_and_never_gives_gifts() -> None:
    """rising_sun.md §14 (every decision of the game): at each decision of random games, the
    heuristic returns one of the actions it was offered (search offers it subsets), and
    prefers anything to handing out Coins or Ronin."""
    game = get_game("rising_sun")
    for seed in range(4):
        m = sengoku.new_match("rising_sun", 3 + seed % 3, seed=seed)
        rng = Rng(seed)
        while m.outcome() is None:
            q = m.to_act()[0]
            legal = m.legal_actions(q)
            for _ in range(2):
                subset = [a for a in legal if rng.random() < 0.5] or legal[:1]
                choice = game.policy(m.state, q, subset, rng)
                assert choice is None or choice in subset
                if choice is not None and any(not isinstance(a, Give) for a in subset):
                    assert not (isinstance(choice, Give) and choice.purpose in (COIN, RONIN))
            m.act(q, rng.choice(legal))
        scores = game.estimate(m.state)
        assert list(scores or []) == list(m.outcome().scores)
        shares = game.evaluate(m.state)
        assert shares is not None and math.isclose(sum(shares), 1.0)


def choose(m: Match, clan: str) -> str:
    """The heuristic's choice for ``clan`` at its pending decision, as notation."""
    q = seat(m, clan)
    return str(heuristic.policy(m.state, q, m.legal_actions(q), Rng(1)))


def heuristic_bids(m: Match, clan: str) -> list[int]:
    """``clan`` bids as the heuristic does on all four Advantages; the four amounts."""
    q = seat(m, clan)
    out = []
    for _ in range(4):
        action = heuristic.policy(m.state, q, m.legal_actions(q), Rng(1))
        assert isinstance(action, Bid)
        out.append(action.coins)
        m.act(q, action)
    return out


def kyoto_battle(koi: tuple[int, int], lotus: int, koi_coins: int, lotus_coins: int) -> Match:
    """A Battle in Kyoto: Koi with (Daimyo, Bushi), Lotus with Bushi; Lotus above Koi in
    Honor."""
    m = table()
    honor(m, "Lotus", "Koi", "Turtle", "Dragonfly")
    put(m, "Koi", "Daimyo", "Kyoto", koi[0])
    put(m, "Koi", "Bushi", "Kyoto", koi[1])
    put(m, "Lotus", "Bushi", "Kyoto", lotus)
    coins(m, Koi=koi_coins, Lotus=lotus_coins)
    war_in(m, "Kyoto")
    return m


def test_a_winning_force_bids_to_win_the_poets_against_the_open_coins() -> None:
    """rising_sun.md §16.4, §8.3: Koi (4 Force, 6 Coins) will win the Battle over Lotus (2
    Bushi, 2 Coins), so both Bushi die: it puts 3 Coins on the Imperial Poets, which beat
    Lotus's 2 even all on them (a 2-2 tie would go to Lotus's higher Honor), and nothing on
    Seppuku, which it would not commit."""
    m = kyoto_battle((1, 3), 2, 6, 2)
    bids = heuristic_bids(m, "Koi")
    assert bids[3] == 3
    assert bids[0] == 0
    assert sum(bids) <= 6


def test_honor_decides_how_much_a_sure_advantage_costs() -> None:
    """rising_sun.md §16.4 (a tie goes to the higher Honor; Hire Ronin adds the winner's
    Ronin and stops everyone else's): 2 Bushi against 2, Dragonfly with 5 Coins and 1 Ronin,
    Lotus with 4 Coins and 2 Ronin. Above Lotus in Honor, Dragonfly bids exactly Lotus's 4
    Coins on Hire Ronin, a sure win of it; below Lotus, 4 would lose the tie, so it never
    bids 4 there."""
    above = ("Dragonfly", "Lotus", "Koi", "Turtle")
    below = ("Lotus", "Dragonfly", "Koi", "Turtle")
    for order in (above, below):
        m = table()
        honor(m, *order)
        put(m, "Dragonfly", "Bushi", "Kyoto", 2)
        put(m, "Lotus", "Bushi", "Kyoto", 2)
        coins(m, Dragonfly=5, Lotus=4)
        m.state.ronin[seat(m, "Lotus")] = 2
        m.state.ronin[seat(m, "Dragonfly")] = 1
        war_in(m, "Kyoto")
        ronin = heuristic_bids(m, "Dragonfly")[2]
        assert ronin == 4 if order == above else ronin != 4


def test_it_does_not_bid_on_what_it_cannot_win_or_use() -> None:
    """rising_sun.md §16.4: Koi (2 Bushi, 3 Coins) faces Lotus (6 Force, 8 Coins, higher
    Honor) and nobody holds Ronin: no Coin on Hire Ronin (nothing to hire) or on a hostage
    that cannot turn the Battle, and at most 1 on the Poets (in case Lotus leaves them bare:
    its 8 Coins can outbid any more)."""
    m = kyoto_battle((0, 2), 5, 3, 8)
    put(m, "Lotus", "Daimyo", "Kyoto")
    bids = heuristic_bids(m, "Koi")
    assert bids[1:3] == [0, 0]
    assert bids[3] <= 1


def test_seppuku_only_when_the_battle_is_lost_anyway() -> None:
    """rising_sun.md §16.4 (Seppuku: all figures die for 1 VP and 1 Honor each): having won
    Seppuku, the losing side commits it; the winning side declines it."""
    m = kyoto_battle((0, 2), 4, 3, 0)
    q = seat(m, "Koi")
    for text in ("bid 3 on Seppuku", "bid 0 on Take Hostage", "bid 0 on Hire Ronin"):
        m.act(q, text)
    m.act(q, "bid 0 on Imperial Poets")
    for text in ("bid 0 on Seppuku", "bid 0 on Take Hostage", "bid 0 on Hire Ronin"):
        m.act(seat(m, "Lotus"), text)
    m.act(seat(m, "Lotus"), "bid 0 on Imperial Poets")
    assert choose(m, "Koi") == "commit seppuku"

    m = kyoto_battle((1, 3), 2, 3, 0)
    for text in ("bid 3 on Seppuku", "bid 0 on Take Hostage", "bid 0 on Hire Ronin"):
        m.act(seat(m, "Koi"), text)
    m.act(seat(m, "Koi"), "bid 0 on Imperial Poets")
    for text in ("bid 0 on Seppuku", "bid 0 on Take Hostage", "bid 0 on Hire Ronin"):
        m.act(seat(m, "Lotus"), text)
    m.act(seat(m, "Lotus"), "bid 0 on Imperial Poets")
    assert choose(m, "Koi") == "decline seppuku"


def test_the_hostage_is_the_strongest_rivals_monster() -> None:
    """rising_sun.md §16.4 (Take Hostage removes a non-Daimyo figure before the Outcome):
    Koi takes Lotus's Oni of Skulls (3 Force as the lowest Honor), not its Bushi, and so
    wins 3 to 1; it declines the Seppuku it won on Honor, since the Battle is not lost."""
    m = table()
    honor(m, "Koi", "Turtle", "Dragonfly", "Lotus")
    give(m, "Lotus", "Oni of Skulls")
    put(m, "Lotus", "Oni of Skulls", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto")
    put(m, "Koi", "Bushi", "Kyoto", 3)
    coins(m, Koi=2, Lotus=0)
    war_in(m, "Kyoto")
    for clan, hostage in (("Koi", 2), ("Lotus", 0)):
        q = seat(m, clan)
        for text in ("bid 0 on Seppuku", f"bid {hostage} on Take Hostage"):
            m.act(q, text)
        m.act(q, "bid 0 on Hire Ronin")
        m.act(q, "bid 0 on Imperial Poets")
    assert choose(m, "Koi") == "decline seppuku"  # won on Honor; the hostage turns the Battle
    m.act(seat(m, "Koi"), "decline seppuku")
    assert choose(m, "Koi") == "take Lotus's Oni of Skulls hostage"


def train(m: Match, clan: str, *cards: str) -> None:
    """``clan`` is to buy a card with the Train Bonus, these cards on display."""
    s = m.state
    s.display = sorted(card_index(c) for c in cards)
    s.holder = seat(m, clan)
    run_task(m, (T_MANDATE_TURN,))


def test_it_buys_a_valuable_card_over_a_dear_useless_one() -> None:
    """rising_sun.md §6.2 (Train), §15.5 (card effects): in Autumn, with no Monster, Form of
    the Beast (4 Coins, 3 VP per Monster card) would score nothing; the free Way of the
    Moneylender gives 5 Coins for this War's bids. The dearest card is not the best."""
    m = table()
    s = m.state
    s.season = 2
    coins(m, Koi=5)
    s.display = sorted(
        [card_index("Form of the Beast", "archway"), card_index("Way of the Moneylender")]
    )
    s.deck = [MANDATE["Train"]] * 4 + s.deck
    s.holder = seat(m, "Koi")
    run_task(m, (T_MANDATE_TURN,))
    assert m.state.pending is not None and m.state.pending[0] == D_KEEP
    m.act(seat(m, "Koi"), "keep Train")
    assert choose(m, "Koi") == "buy Way of the Moneylender"


def test_it_selects_harvest_where_it_rules_the_rich_provinces() -> None:
    """rising_sun.md §6.2 (Harvest Bonus: the reward of every province where the clan has the
    most Force): strongest in Kyoto, Kansai and Edo (9 VP, 2 Coins), with a single
    Stronghold to Recruit at, Koi keeps Harvest."""
    m = table()
    for p in ("Kyoto", "Kansai", "Edo"):
        put(m, "Koi", "Bushi", p)
    put(m, "Koi", "Stronghold", "Edo")
    s = m.state
    s.deck = [MANDATE[x] for x in ("Recruit", "Harvest", "Train", "Marshal")] + s.deck
    s.holder = seat(m, "Koi")
    run_task(m, (T_MANDATE_TURN,))
    assert choose(m, "Koi") == "keep Harvest"


def test_marshal_moves_into_a_province_at_war_it_can_take_and_keeps_its_presence() -> None:
    """rising_sun.md §6.2 (Marshal), §8.2 (a lone clan takes the token): a Bushi in Edo (no
    War there) moves to Oshu, at war and empty, not to Kyoto, where Lotus's 2 Bushi would
    win; the Daimyo alone in Kansai, at war next to Lotus, stays."""
    m = table()
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Koi", "Daimyo", "Kansai")
    put(m, "Lotus", "Bushi", "Kyoto", 2)
    put(m, "Lotus", "Bushi", "Nagato")
    s = m.state
    s.war = [P["Oshu"], P["Kyoto"], P["Kansai"]]
    s.war_next = 0
    run_task(m, (T_MOVE_ASK, seat(m, "Koi"), M_MARSHAL, -1))
    assert choose(m, "Koi") == "move Bushi from Edo to Oshu"
    m.act(seat(m, "Koi"), "move Bushi from Edo to Oshu")
    assert choose(m, "Koi") == "end moves"


def test_it_offers_an_alliance_to_the_weakest_clan() -> None:
    """rising_sun.md §16.5 (alliances, pairs formed at the Tea Ceremony): Koi offers its
    alliance to Turtle, furthest behind, not to the leading Lotus."""
    m = table()
    s = m.state
    s.vp = [12, 20, 3, 10]
    s.holder = seat(m, "Koi")
    run_task(m, (T_TEA,))
    assert choose(m, "Koi") == "offer alliance to Turtle"


def test_the_estimate_counts_the_tokens_still_to_be_won() -> None:
    """rising_sun.md §8.2, §16.6 (a lone clan takes the War Province token, worth 1 VP in
    Spring and a share of the set bonus): alone in two provinces at war, Koi's estimate is
    above Lotus's, who has the same VP and no figure there; the win shares add up to 1."""
    m = table()
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Koi", "Bushi", "Edo")
    s = m.state
    s.war = [P["Kyoto"], P["Edo"]]
    s.war_next = 0
    est = heuristic.score_estimate(s)
    assert est[seat(m, "Koi")] > est[seat(m, "Lotus")] + 1
    shares = heuristic.evaluate(s)
    assert math.isclose(sum(shares), 1.0) and max(shares) == shares[seat(m, "Koi")]


def test_bonsai_prices_a_stronghold_at_one_coin() -> None:
    """rising_sun.md §2.3, §17.9 (Sacred Bounty: Bonsai pays at most 1 Coin for anything):
    the heuristic weighs a Stronghold against the price the clan pays, so on an empty map,
    where everything else about it is the same for both, Bonsai values it 2 Coins more than
    Koi does."""
    from sengoku.games.rising_sun.actions import Build
    from sengoku.games.rising_sun.mandates import STRONGHOLD_COST

    m = table(
        ("Koi", "Lotus", "Turtle", "Bonsai"),
        shrines=("Hachiman", "Raijin", "Tsukuyomi", "Amaterasu"),
    )
    s = m.state
    where = Build(P["Shikoku"])
    bonsai = heuristic._score_build(s, seat(m, "Bonsai"), where)
    koi = heuristic._score_build(s, seat(m, "Koi"), where)
    assert STRONGHOLD_COST == 3
    assert math.isclose(bonsai - koi, 2 * heuristic.COIN_VP)
