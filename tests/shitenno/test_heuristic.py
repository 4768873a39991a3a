"""The Shitenno heuristic: ``Shitenno.policy`` and ``Shitenno.evaluate`` (heuristic.py).

The policy must return one of the legal actions in every phase, read only what its seat may
know (its own hand and the public facts), and make the plain good choices: take a rich lot,
refuse an empty one (shitenno.md §4.3), pay exactly (§4.4 step 3), win a majority (§4.7)
and gild the kamon that wins one (§2.5).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from sengoku.core import Rng, parse_options
from sengoku.games.shitenno import ShitennoOptions, heuristic
from sengoku.games.shitenno.actions import (
    Accept,
    Flip,
    Offer,
    Place,
    Refuse,
    ShitennoAction,
    TakeLast,
    Target,
)
from sengoku.games.shitenno.state import NO_TITLE, Phase, State

from .util import (
    CHUBU,
    CHUGOKU,
    DAIMYO,
    GAME,
    HATAMOTO,
    KANTO,
    PLUS_ONE,
    SENSEI,
    SH,
    SHOMYO,
    act,
    fill,
    new_state,
    odd_year,
    set_hand,
    tile,
)


def _random_states(
    seed: int, players: int, options: dict[str, object], every: int = 1
) -> Iterator[tuple[State, int, list[ShitennoAction]]]:
    """The states of one random game (every ``every``-th decision), with the seat to act."""
    rng = Rng(seed)
    s = GAME.setup(players, parse_options(ShitennoOptions, options), rng)
    step = 0
    while s.phase is not Phase.OVER:
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        if step % every == 0:
            yield s, seat, legal
        GAME.apply(s, seat, rng.choice(legal), rng)
        step += 1


OPTION_SETS: list[dict[str, object]] = [{}, *GAME.option_sets]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_policy_returns_a_legal_action_in_every_phase(
    players: int, options: dict[str, object]
) -> None:
    """Over many random states, seeded, the policy answers one of the legal actions."""
    phases: set[Phase] = set()
    for seed in range(6):
        for s, seat, legal in _random_states(seed, players, options):
            before = s.copy()
            choice = GAME.policy(s, seat, legal, Rng(seed))
            assert choice in legal
            assert before.board == s.board and before.hand_troops == s.hand_troops  # unchanged
            phases.add(s.phase)
    assert {Phase.BUILD, Phase.OFFER, Phase.CONTROL, Phase.PAY} <= phases
    if not options:  # the defaults: the Sensei's flip comes after his placements (G8)
        assert Phase.FLIP in phases
        if players < 4:  # the last player picks among the tiles left (G9)
            assert Phase.LAST in phases


def test_heuristic_games_finish_with_legal_moves() -> None:
    """Four heuristic seats play whole games (each action checked legal)."""
    for seed in range(5):
        rng = Rng(seed)
        s = GAME.setup(4, parse_options(ShitennoOptions, {}), rng)
        while s.phase is not Phase.OVER:
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_actions(s, seat)
            choice = GAME.policy(s, seat, legal, rng)
            assert choice in legal
            GAME.apply(s, seat, choice, rng)
        assert s.result is not None


@pytest.mark.parametrize("players", [2, 4])
def test_policy_ignores_other_seats_secrets(players: int) -> None:
    """Other hands, deck orders and hidden tiles redrawn (``vary_secrets``): same choice."""
    checked = 0
    for seed in range(4):
        for s, seat, legal in _random_states(100 + seed, players, {}, every=3):
            want = GAME.policy(s, seat, legal, Rng(9))
            for k in range(3):
                varied = GAME.vary_secrets(s, seat, Rng(1000 * seed + k))
                assert GAME.policy(varied, seat, legal, Rng(9)) == want
            checked += 1
    assert checked > 100


def _offer(lot: list[str]) -> tuple[State, int]:
    """A 4-player sharing where the Tairo has built ``lot`` and offered it; the receiver."""
    s, rng = new_state(4, seed=3)
    tairo = GAME.to_act(s)[0]
    for text in lot:
        act(s, tairo, text, rng)
    offer = next(a for a in GAME.legal_actions(s, tairo) if str(a).startswith("offer lot"))
    GAME.apply(s, tairo, offer, rng)
    return s, GAME.to_act(s)[0]


def test_receiver_takes_a_rich_lot_and_refuses_an_empty_one() -> None:
    """A lot with most of the cards and the Daimyo tile is taken; the Hatamoto tile alone,
    with eleven cards still on the table and three lots to come, is refused (§4.3)."""
    s, _ = new_state(4, seed=3)
    tairo = GAME.to_act(s)[0]
    cards = [str(a) for a in GAME.legal_actions(s, tairo) if str(a).startswith("add ")]
    rich = [c for c in cards if "hierarchy" not in c]
    s_rich, receiver = _offer([*rich, "add hierarchy tile Daimyo to the lot"])
    assert GAME.policy(s_rich, receiver, [Accept(), Refuse()], Rng(1)) == Accept()
    s_poor, receiver = _offer(["add hierarchy tile Hatamoto to the lot"])
    assert GAME.policy(s_poor, receiver, [Accept(), Refuse()], Rng(1)) == Refuse()


def _control(seat_title: int = SHOMYO) -> State:
    """A 4-player odd year, seat 0 to act, every bonus-tile stack empty (requirements are
    then N troops of the province's type, §3.1)."""
    s, _ = new_state(4, seed=5)
    titles = [seat_title, *[t for t in range(4) if t != seat_title]]
    odd_year(s, titles)
    s.order = [0, *[q for q in s.order if q != 0]]  # seat 0 acts first
    s.stacks = [[] for _ in s.stacks]
    s.tiles = [[] for _ in range(4)]
    s.koku_deck = [1] * 16  # several years to come
    return s


def test_policy_pays_exactly_rather_than_overpaying() -> None:
    """Koku 3, 2, 2, 1 for a price of 4: 3+1 or 2+2 pay exactly; 3+2 would lose one koku
    (no change is given, §4.4 step 3)."""
    s = _control()
    fill(s, CHUGOKU, [1])  # next space worth 4
    set_hand(s, 0, [], [3, 2, 2, 1])
    act(s, 0, "control Chugoku", Rng(1))
    legal = GAME.legal_actions(s, 0)
    assert any(isinstance(a, Place) and sum(a.kokus) == 5 for a in legal)
    choice = GAME.policy(s, 0, legal, Rng(1))
    assert isinstance(choice, Place) and sum(choice.kokus) == 4


def test_policy_pays_with_troops_when_koku_is_points() -> None:
    """In the last odd year unspent troops are worth nothing and koku scores 1 each (§4.7):
    pay Samurai, keep the koku."""
    s = _control()
    s.koku_deck = [1] * 4  # the next sharing empties the koku deck: the game ends then
    set_hand(s, 0, ["Sa", "Sa", "Sa"], [3])
    act(s, 0, "control Chugoku", Rng(1))
    choice = GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(1))
    assert isinstance(choice, Place) and not choice.koku and not choice.kokus


def test_policy_places_where_it_wins_a_majority() -> None:
    """Chugoku (Red, Blue) and Chubu (Red, Red) both offer a 6 next: Blue goes where his
    kamon wins the majority, not where Red stays ahead (§4.7)."""
    s = _control()
    s.order = [1, 0, 2, 3]
    s.titles = [0, 1, 2, 3]
    fill(s, CHUGOKU, [0, 1])
    fill(s, CHUBU, [0, 0])
    set_hand(s, 1, ["Sa", "Sa", "Sa", "Sh", "Sh", "Sh"], [])
    legal = GAME.legal_actions(s, 1)
    assert Target(CHUGOKU) in legal and Target(CHUBU) in legal
    assert GAME.policy(s, 1, legal, Rng(1)) == Target(CHUGOKU)


def test_sensei_gilds_the_kamon_that_wins_a_majority() -> None:
    """Red, the Sensei, has a lone kamon in Chubu and trails 1 to 2 in Chugoku, where a
    golden kamon (weight 2, leftmost on ties) wins the majority (§2.5, §4.7)."""
    s = _control(SENSEI)
    fill(s, CHUGOKU, [0, 1, 1])
    fill(s, CHUBU, [0])
    s.phase = Phase.FLIP
    legal = GAME.legal_actions(s, 0)
    assert Flip(CHUBU, 0) in legal
    assert GAME.policy(s, 0, legal, Rng(1)) == Flip(CHUGOKU, 0)


def test_evaluate_gives_shares_that_favour_the_leader() -> None:
    """One float per seat, summing to 1; a seat 40 favour ahead gets the largest share."""
    for players in (2, 3, 4):
        s, _ = new_state(players, seed=2)
        shares = GAME.evaluate(s)
        assert shares is not None and len(shares) == players
        assert math.isclose(sum(shares), 1.0, rel_tol=1e-9)
        s.score[players - 1] += 40
        shares = GAME.evaluate(s)
        assert shares is not None
        assert max(range(players), key=shares.__getitem__) == players - 1
        assert shares[players - 1] > 0.8
        assert math.isclose(sum(shares), 1.0, rel_tol=1e-9)


def test_evaluate_along_random_games() -> None:
    """Valid shares in every phase, and the winners' shares once the game is over."""
    for s, _seat, _legal in _random_states(7, 3, {}):
        shares = GAME.evaluate(s)
        assert shares is not None and len(shares) == 3
        assert all(x >= 0 for x in shares) and math.isclose(sum(shares), 1.0)


def test_estimate_adds_koku_and_majorities_and_ends_at_the_final_scores() -> None:
    """The score estimate (shitenno.md §4.7) counts koku in hand at face value and a
    province's majority bonus for a lead that cannot be overturned; a finished game gives
    the final scores."""
    s, _ = new_state(4, seed=2)
    before = GAME.estimate(s)
    assert before is not None and len(before) == 4
    s.hand_koku[1][3] += 1
    after = GAME.estimate(s)
    assert after is not None and after[1] == pytest.approx(before[1] + 3)
    fill(s, KANTO, [0, 0, 0, 1])  # Kanto full: three kamons of Red's, one of Blue's
    full = GAME.estimate(s)
    assert full is not None and full[0] == pytest.approx(after[0] + 6)
    s.result = [50, 40, 30, 20]
    assert GAME.estimate(s) == [50.0, 40.0, 30.0, 20.0]


def test_tairo_keeps_the_larger_part_at_the_last_split() -> None:
    """At the last split (the Tairo and one other without a lot, shitenno.md §4.3) the Tairo
    offers a lot worth well under half the table by his own count (the heuristic's
    ``LAST_SPLIT``, 30 %): taken, he keeps the rest and the best hierarchy tile; refused, he
    keeps the small lot. A 2-player sharing opens with the last split."""
    shares = []
    for seed in range(8):
        s, rng = new_state(2, seed=seed)
        tairo = GAME.to_act(s)[0]
        while True:
            choice = GAME.policy(s, tairo, GAME.legal_actions(s, tairo), Rng(1))
            if isinstance(choice, Offer):
                break
            GAME.apply(s, tairo, choice, rng)
        uv = heuristic._sharing_values(s)
        lt, lk = s.lot_troops, s.lot_koku
        placements = heuristic._placements(
            s, tairo, sum(heuristic._units(lt)), lk[1] + 2 * lk[2] + 3 * lk[3]
        )
        lot = heuristic._cards_value(lt, lk, uv)
        lot += heuristic._title_value(s, tairo, s.lot_tile, uv, placements)
        shares.append(lot / (lot + heuristic._remainder(s, tairo, uv)))
    assert max(shares) < 0.45
    assert sum(shares) / len(shares) < 0.4


def test_policy_places_where_a_bonus_tile_is_left() -> None:
    """Chugoku and Chubu both offer an empty first space worth 3, paid alike in koku; only
    Chubu still has a bonus tile, which the placement takes (shitenno.md §4.4 step 4, §4.5):
    the heuristic goes there."""
    s = _control()
    s.stacks[CHUBU] = [tile(SH, PLUS_ONE)]  # top face Sh: Chubu's own type
    set_hand(s, 0, [], [1, 1, 1, 1, 1, 1])
    legal = GAME.legal_actions(s, 0)
    assert Target(CHUGOKU) in legal and Target(CHUBU) in legal
    assert GAME.policy(s, 0, legal, Rng(1)) == Target(CHUBU)


@pytest.mark.parametrize(("players", "expected"), [(4, SHOMYO), (3, DAIMYO)])
def test_last_lot_weighs_the_seat_in_the_next_sharing(players: int, expected: int) -> None:
    """The Daimyo is the next Tairo and the Shomyo is offered the lots first (shitenno.md
    §4.3 steps 1 and 4). With 4 players and a last lot that pays for no placement, so that
    the titles' placement bonus (§2.5) counts for nothing, the heuristic takes the Shomyo
    tile: being offered first is worth more than building. With fewer players the seat
    also depends on the tiles the others hold, and the Daimyo's earlier turn decides."""
    s, _ = new_state(players, seed=2)
    me = 0
    s.phase = Phase.LAST
    s.tairo = me
    s.tiles_left = [DAIMYO, SHOMYO]
    s.lot_of = [NO_TITLE, *[SENSEI, HATAMOTO][: players - 1]]
    s.pool_troops = [0] * 14
    s.pool_koku = [0, 0, 0, 0]
    set_hand(s, me)
    s.tiles[me] = []
    legal = GAME.legal_actions(s, me)
    assert legal == [TakeLast(DAIMYO), TakeLast(SHOMYO)]
    assert GAME.policy(s, me, legal, Rng(1)) == TakeLast(expected)
