"""The cube tower: priming, cube identities, the tray and the models' statistics."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.core import Rng
from sengoku.games.shogun.state import DRAFT
from sengoku.games.shogun.tower import MODELS, Tower

from .helpers import Scripted


def test_priming_throws_seven_per_player_and_ten_peasants() -> None:
    """shogun.md §2.5, §13: 7 cubes per player + 10 peasants are thrown; what comes out goes
    back to supply, the rest stays inside the tower."""
    for players in (3, 4, 5):
        m = sengoku.new_match("shogun", players, seed=3)
        s = m._state
        inside = s.tower.contents()
        assert sum(inside) > 0
        for p in range(players):
            on_board = sum(a for q, a in enumerate(s.armies) if s.owner[q] == p)
            assert on_board == sum((5, 4, 4, 3, 3, 2, 2, 2, 2)[: 12 - players])
            assert inside[p] <= 7
            assert s.supply[p] + inside[p] + on_board == 62
        assert inside[players] <= 10 and s.supply[players] + inside[players] == 20
        assert s.tower.tray == [0] * (players + 1)


@pytest.mark.parametrize("setup", ["standard", "draft"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_priming_throw_is_exactly_seven_per_player_and_ten_peasants(
    players: int, setup: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """shogun.md §2.5: the priming throw is exactly 7 cubes of every player plus 10 peasants;
    what the model lets out goes back to supply, the rest stays inside."""
    model = Scripted([2] * players + [3])
    monkeypatch.setitem(MODELS, "sbw", model)
    m = sengoku.new_match("shogun", players, seed=4, options={"setup": setup})
    while m._state.phase == DRAFT:
        seat = m.to_act()[0]
        m.act(seat, m.legal_actions(seat)[0])
    assert model.seen[0] == [7] * players + [10]
    assert len(model.seen) == 1
    s = m._state
    assert s.tower.contents() == [5] * players + [7]
    assert s.supply[players] == 20 - 7


@pytest.mark.parametrize(("model", "p_pass"), [("sbw", 2 / 3), ("imr", 0.85**2), ("wos", 0.5)])
def test_mean_pass_through_matches_the_model(model: str, p_pass: float) -> None:
    """shogun.md §15: thrown into an empty tower, the share of cubes that come out matches the
    model's parameter within a tolerance over many seeded drops."""
    rng = Rng(11)
    out = thrown = 0
    for _ in range(4000):
        t = Tower(3, MODELS[model])
        emerged = t.throw([3, 2, 0, 1], rng)
        out += sum(emerged)
        thrown += 6
        assert sum(emerged) + sum(t.contents()) == 6
    assert abs(out / thrown - p_pass) < 0.015


@pytest.mark.parametrize(("model", "p_release"), [("sbw", 1 / 3), ("wos", 0.6)])
def test_stuck_cubes_are_released_at_the_model_rate(model: str, p_release: float) -> None:
    """shogun.md §15: each stuck cube comes out of a later throw with the model's probability
    (independent of the number thrown); retention = 1 - p_release."""
    rng = Rng(5)
    released = stuck = 0
    for _ in range(4000):
        t = Tower(2, MODELS[model])
        t.set_contents([4, 0, 2])
        emerged = t.throw([0, 0, 0], rng)
        released += sum(emerged)
        stuck += 6
    assert abs(released / stuck - p_release) < 0.015


def test_priming_rate_of_the_wos_model() -> None:
    """shogun.md §15: [WOS] lets 70 % of the priming cubes out."""
    rng = Rng(2)
    out = 0
    for _ in range(2000):
        out += sum(Tower(4, MODELS["wos"]).prime([7, 7, 7, 7, 10], rng))
    assert abs(out / (2000 * 38) - 0.7) < 0.01


def test_imr_shelves_knock_cubes_loose() -> None:
    """shogun.md §15: [IMR] cubes lying on a shelf are knocked down with p = 1/40 per passing
    cube; with ~14.5 cubes passing the lower shelf, a cube lying there falls ~1-(39/40)^14.5."""
    rng = Rng(9)
    fell = 0
    for _ in range(3000):
        t = Tower(1, MODELS["imr"])
        t.inside[1][0] = 1  # one cube on the lower shelf
        out = t.throw([0, 20], rng)  # 20 peasants fall through
        fell += out[0]
    # cubes passing the lower shelf (neither caught above nor on it): 20 * 0.85 * 0.85 on average
    expected = 1 - (39 / 40) ** (20 * 0.85 * 0.85)
    assert abs(fell / 3000 - expected) < 0.03


def test_cubes_are_conserved_over_many_battles() -> None:
    """shogun.md §9.2: cubes that stick stay the owner's and may come out in a later throw;
    nothing is created or lost by the tower."""
    rng = Rng(1)
    for model in MODELS.values():
        t = Tower(3, model)
        total = [0, 0, 0, 0]
        for i in range(200):
            thrown = [i % 5, (i * 3) % 4, 1, i % 2]
            for o, n in enumerate(thrown):
                total[o] += n
            out = t.throw(thrown, rng)
            for o, n in enumerate(out):
                total[o] -= n
            for o in range(4):
                assert t.contents()[o] + sum(t.tray[o : o + 1]) == total[o]
            assert t.tray == [0, 0, 0, 0]


def test_tray_cubes_are_thrown_again() -> None:
    """shogun.md §9.2: cubes left in the tray are thrown with the next battle."""
    t = Tower(2, MODELS["sbw"])
    t.leave_in_tray(1, 3)
    rng = Rng(4)
    out = t.throw([0, 0, 0], rng)
    assert t.tray == [0, 0, 0]
    assert out[1] + t.contents()[1] == 3
