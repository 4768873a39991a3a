"""The Shogun heuristic: legal, blind to others' secrets, sensible in plain situations."""

from __future__ import annotations

from typing import Any

import pytest

from sengoku.core import Rng, parse_options
from sengoku.games.shogun import heuristic
from sengoku.games.shogun.actions import (
    BLANK,
    EMPTY,
    PROVINCE_BID,
    Armies,
    Bid,
    March,
    Plan,
    Revolt,
)
from sengoku.games.shogun.options import ShogunOptions
from sengoku.games.shogun.state import (
    ARMIES,
    BATTLE,
    OVER,
    PHASE_NAMES,
    PLAN,
    TARGET,
    WINTER,
    State,
)

from .helpers import GAME, empty_state, own

RICE_A, TAX_A, BA_A = 3, 4, 8


def _random_states(seed: int, players: int, options: dict[str, Any]) -> list[tuple[State, int]]:
    """Every decision of a game played by random seats, as (state copy, acting seat)."""
    rng = Rng(seed)
    s = GAME.setup(players, parse_options(ShogunOptions, options), rng)
    out: list[tuple[State, int]] = []
    while GAME.outcome(s) is None:
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        out.append((s.clone(), seat))
        GAME.apply(s, seat, legal[rng.randbelow(len(legal))], rng)
    return out


CASES = [
    (1, 4, {}),
    (2, 3, {"setup": "draft"}),
    (3, 5, {"board": "moon"}),
    (4, 4, {"battle_move_optional": True, "years": 1}),
]


@pytest.mark.parametrize(("seed", "players", "options"), CASES)
def test_policy_is_legal_in_every_phase(seed: int, players: int, options: dict[str, Any]) -> None:
    """The policy returns one of the legal actions in every phase (shogun.md §4-§10)."""
    phases = set()
    rng = Rng(seed + 100)
    for s, seat in _random_states(seed, players, options):
        legal = GAME.legal_actions(s, seat)
        choice = GAME.policy(s, seat, legal, rng)
        assert choice in legal
        phases.add(PHASE_NAMES[s.phase])
    assert {"plan", "position", "target"} <= phases


def test_heuristic_games_run_to_the_end() -> None:
    """Four heuristic seats finish a game, every choice legal."""
    for seed in range(3):
        rng = Rng(seed)
        s = GAME.setup(4, parse_options(ShogunOptions, {}), rng)
        while GAME.outcome(s) is None:
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_actions(s, seat)
            choice = GAME.policy(s, seat, legal, rng)
            assert choice in legal
            GAME.apply(s, seat, choice, rng)
        assert s.phase == OVER


@pytest.mark.parametrize(("seed", "players", "options"), CASES[:3])
def test_policy_ignores_others_secrets(seed: int, players: int, options: dict[str, Any]) -> None:
    """Others' hidden plans and bids and the tower split (shogun.md §4.3) do not matter."""
    states = _random_states(seed, players, options)
    for n, (s, seat) in enumerate(states[::3]):
        legal = GAME.legal_actions(s, seat)
        base = GAME.policy(s, seat, legal, Rng(n))
        for k in range(3):
            other = GAME.vary_secrets(s, seat, Rng(1000 * n + k))
            legal2 = GAME.legal_actions(other, seat)
            assert legal2 == legal
            assert GAME.policy(other, seat, legal2, Rng(n)) == base


# -- situations -----------------------------------------------------------------------------


def _planning(s: State, seat: int, space: int, hand: list[int]) -> None:
    """``seat`` plans space ``space``; the spaces before it are left empty."""
    s.phase = PLAN
    s.hand = [[p for p in range(len(s.owner)) if s.owner[p] == o] for o in range(s.players)]
    s.hand[seat] = hand
    s.plan[seat] = [EMPTY] * space + [-3] * (10 - space)
    s.plan_n = [11] * s.players
    s.plan_n[seat] = space


def test_attacks_a_clearly_weaker_neighbour() -> None:
    """Battle/Move (shogun.md §5, §9): 10 armies next to an enemy's lone army attack it."""
    s = empty_state()
    owari = own(s, 0, "Owari", 10)
    own(s, 0, "Mikawa", 3)
    own(s, 0, "Ise", 3)
    mino = own(s, 1, "Mino", 1)
    s.phase = TARGET
    s.pending = [0, BATTLE, owari, -1]
    legal = GAME.legal_actions(s, 0)
    assert GAME.policy(s, 0, legal, Rng(0)) == March(owari, mino, True)
    # and sends enough to win with margin, not a token force
    s.phase = ARMIES
    s.pending = [0, BATTLE, owari, mino]
    choice = GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0))
    assert isinstance(choice, Armies) and choice.n >= 5


def test_plans_the_battle_where_the_weak_neighbour_is() -> None:
    """Planning (shogun.md §4.3): Battle A goes on the strong province facing a weak enemy."""
    s = empty_state()
    owari = own(s, 0, "Owari", 10)
    kaga = own(s, 0, "Kaga", 2)
    own(s, 1, "Mino", 1)
    _planning(s, 0, BA_A, [owari, kaga])
    legal = GAME.legal_actions(s, 0)
    assert GAME.policy(s, 0, legal, Rng(0)) == Plan(BA_A, owari)


def test_does_not_collect_where_a_revolt_is_certain_to_be_lost() -> None:
    """Collecting (shogun.md §10.1) with 3 markers against 1 army would lose the province."""
    s = empty_state()
    kaga = own(s, 0, "Kaga", 1, markers=3)
    owari = own(s, 0, "Owari", 4)
    _planning(s, 0, RICE_A, [kaga, owari])
    choice = GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0))
    assert choice != Plan(RICE_A, kaga)
    # without the markers Kaga's 5 rice are collected
    s.markers[kaga] = 0
    assert GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0)) == Plan(RICE_A, kaga)


def test_collects_rice_for_winter_only_while_short() -> None:
    """Rice (shogun.md §10.2): collected while short of provinces + winter loss, not beyond."""
    s = empty_state()
    kaga = own(s, 0, "Kaga", 3)
    own(s, 1, "Owari", 2)
    s.season = 2
    _planning(s, 0, RICE_A, [kaga])
    assert GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0)) == Plan(RICE_A, kaga)
    s.rice[0] = 20
    assert GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0)) == Plan(RICE_A, BLANK)


def test_spare_province_card_is_bid() -> None:
    """The bid (shogun.md §4.5): an unplanned province card ranks above 0 and costs nothing."""
    s = empty_state()
    kaga = own(s, 0, "Kaga", 3)
    _planning(s, 0, 10, [kaga])
    s.plan[0] = [BLANK] * 4 + [EMPTY] * 6
    s.money[0] = 2
    assert GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0)) == Bid(PROVINCE_BID, kaga)


def test_hunger_revolts_strongest_first() -> None:
    """Hunger revolts (shogun.md §10.3): the order is chosen; the best defended goes first."""
    s = empty_state()
    weak = own(s, 0, "Kaga", 1)
    strong = own(s, 0, "Owari", 9)
    s.phase = WINTER
    s.winter_queue = [0]
    s.revolt_left = [weak, strong]
    s.revolt_bonus = 2
    assert GAME.policy(s, 0, GAME.legal_actions(s, 0), Rng(0)) == Revolt(strong)


# -- evaluate -------------------------------------------------------------------------------


def test_evaluate_shares_sum_to_one() -> None:
    """One share per seat, summing to 1, in every phase of a game."""
    for s, _seat in _random_states(5, 4, {})[::20]:
        shares = GAME.evaluate(s)
        assert shares is not None and len(shares) == 4
        assert sum(shares) == pytest.approx(1.0)
        assert all(0.0 <= x <= 1.0 for x in shares)


def test_evaluate_favours_a_clear_leader() -> None:
    """Scoring (shogun.md §11): more VP, provinces and buildings mean a bigger share."""
    s = empty_state()
    for name in ("Owari", "Mino", "Mikawa", "Ise", "Omi"):
        own(s, 0, name, 3, bld=3)
    own(s, 1, "Kaga", 2)
    own(s, 2, "Noto", 2)
    own(s, 3, "Echigo", 2)
    s.vp = [30, 10, 10, 10]
    shares = GAME.evaluate(s)
    assert shares is not None
    assert shares[0] > 0.9
    assert shares[1] == pytest.approx(shares[2])
    s.phase = OVER
    assert heuristic.evaluate(s) == [1.0, 0.0, 0.0, 0.0]


def test_estimate_ranks_the_leader_first_and_ends_at_the_final_vp() -> None:
    """The score estimate (shogun.md §11): VP so far plus the board scored each winter left;
    a finished game gives the final VP."""
    s = empty_state()
    for name in ("Owari", "Mino", "Mikawa", "Ise", "Omi"):
        own(s, 0, name, 3, bld=3)
    own(s, 1, "Kaga", 2)
    s.vp = [10, 10, 10, 10]
    est = GAME.estimate(s)
    assert est is not None and len(est) == 4
    assert est[0] > est[1] > est[2] == est[3] >= 10
    s.phase = OVER
    assert GAME.estimate(s) == [10.0, 10.0, 10.0, 10.0]


def test_win_table() -> None:
    """P(more of n than of d cubes out of the tower) grows with n, falls with d."""
    assert heuristic.p_win(10, 1) > 0.99
    assert heuristic.p_win(1, 1) < 0.4
    assert heuristic.p_win(6, 3) > heuristic.p_win(5, 3) > heuristic.p_win(5, 4)
    assert heuristic.p_win(0, 0) == 0.0
    assert 0.0 <= heuristic.p_win(60, 45) <= 1.0
