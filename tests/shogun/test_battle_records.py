"""The views' battle records and winter breakdowns (docs/shogun.md, "Views"): what a player
at the table sees of each fight (shogun.md §9, §10) and of each winter's scoring (§11.3), as
data, so that the board can show them without reading the log."""

from __future__ import annotations

import json
from typing import Any

import pytest

import sengoku
from sengoku.core import Rng
from sengoku.games.shogun import battles, state, winter
from sengoku.games.shogun.actions import Armies, March
from sengoku.games.shogun.state import CASTLE, State

from .helpers import BA_A, GAME, RICE_A, TAX_A, I, empty_state, own, run_season, script

PEASANT = 4  # owner index of the green cubes with 4 players


def _attack(s: State, seat: int, src: int, dst: int, n: int, **kw: Any) -> dict[str, Any]:
    """Battle/Move A from ``src`` to ``dst`` with ``n``; the view's last battle record."""
    run_season(s, {seat: {BA_A: src}}, **kw)
    GAME.apply(s, seat, March(src, dst, s.owner[dst] != seat), Rng(0))
    if s.armies[src] > 2:
        GAME.apply(s, seat, Armies(n), Rng(0))
    battles = GAME.view(s, None)["battles"]
    return battles[-1]


def test_a_battle_record_names_both_sides_the_tower_and_the_result() -> None:
    """shogun.md §9.2-9.3: the record of a battle between players: who attacked whom, where
    from, with how many against how many, every cube thrown (the tray's too) and every cube
    that came out, whether the peasants fought for the defender, and who holds the province
    with how many armies afterwards."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 6)
    mino = own(s, 1, "Mino", 3)
    s.tower.set_contents([0, 0, 0, 0, 2])
    s.tower.tray = [0, 0, 1, 0, 0]  # a Yellow cube from an earlier battle
    s.supply[PEASANT] = 18
    script(s, [3, 2, 1, 0, 2])
    b = _attack(s, 0, owari, mino, 5)
    assert b == {
        "kind": "attack",
        "year": 1,
        "season": "spring",
        "action": BA_A,
        "attacker": 0,
        "defender": 1,
        "province": mino,
        "source": owari,
        "sent": 5,
        "defenders": 3,
        "bonus": [],
        "thrown": [5, 3, 1, 0, 0],
        "tray": [0, 0, 1, 0, 0],
        "out": [3, 2, 1, 0, 2],
        "allies": True,
        "result": "held",
        "holder": 1,
        "survivors": 1,
    }
    assert s.owner[mino] == 1 and s.armies[mino] == 1  # the record is the state's


def test_records_of_a_conquest_and_of_a_neutral_province() -> None:
    """shogun.md §9.3: more cubes out than the defender and his peasant allies takes the
    province (with the difference); against a neutral province the peasant cube defends and
    the province stays neutral unless the attacker gets strictly more out; the +1 attack card
    shows as a bonus (§6)."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 6)
    mino = own(s, 1, "Mino", 3, markers=1)  # a marker: the peasants fight for nobody
    script(s, [4, 1, 0, 0, 0])
    b = _attack(s, 0, owari, mino, 5)
    assert (b["result"], b["holder"], b["survivors"], b["allies"]) == ("taken", 0, 3, False)
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    mikawa = I["Mikawa"]
    script(s, [1, 0, 0, 0, 1])
    b = _attack(s, 0, owari, mikawa, 3, specials={0: state.S_ATTACK})
    assert b["defender"] is None and b["defenders"] == 0
    assert b["thrown"] == [4, 0, 0, 0, 1] and b["bonus"] == ["attack_card"]
    assert (b["result"], b["holder"], b["survivors"]) == ("neutral", None, 0)


def test_records_of_ties() -> None:
    """shogun.md §9.3: a tie devastates the province, and so does a defender's "win" by
    peasants alone; the castle event's cube and the defence card show as bonuses (§6, §7)."""
    s = empty_state(4)
    ise = own(s, 0, "Ise", 5)
    omi = own(s, 1, "Omi", 2, bld=CASTLE)
    script(s, [2, 2, 0, 0, 0])
    b = _attack(s, 0, ise, omi, 4, event=3, specials={1: state.S_DEFENCE})
    assert b["bonus"] == ["defence_card", "castle"] and b["thrown"][1] == 4
    assert (b["result"], b["holder"], b["survivors"]) == ("tie", None, 0)
    s = empty_state(4)
    ise = own(s, 0, "Ise", 5)
    omi = own(s, 1, "Omi", 2)
    s.tower.set_contents([0, 0, 0, 0, 2])
    s.supply[PEASANT] = 18
    script(s, [1, 0, 0, 0, 2])
    b = _attack(s, 0, ise, omi, 4)
    assert (b["result"], b["holder"]) == ("peasant_tie", None)


def test_records_of_revolts_when_collecting() -> None:
    """shogun.md §10.1: a revolt when collecting is a fight of the peasants (as many as the
    markers already there) against all the owner's armies there: crushed, the owner keeps the
    difference; lost, the province is devastated."""
    s = empty_state(4)
    kaga = own(s, 0, "Kaga", 3, markers=1)
    script(s, [3, 0, 0, 0, 1])
    run_season(s, {0: {RICE_A: kaga}})
    (b,) = GAME.view(s, 2)["battles"]
    assert (b["kind"], b["action"], b["attacker"], b["defender"]) == ("revolt", RICE_A, None, 0)
    assert (b["sent"], b["defenders"], b["thrown"], b["out"]) == (
        1,
        3,
        [3, 0, 0, 0, 1],
        [3, 0, 0, 0, 1],
    )
    assert (b["result"], b["holder"], b["survivors"], b["source"]) == ("crushed", 0, 2, None)
    s = empty_state(4)
    kaga = own(s, 0, "Kaga", 3, markers=2)
    script(s, [1, 0, 0, 0, 1])
    run_season(s, {0: {TAX_A: kaga}})
    (b,) = GAME.view(s, 0)["battles"]
    assert (b["action"], b["sent"], b["result"], b["holder"]) == (TAX_A, 2, "devastated", None)


def test_hunger_revolts_are_winter_fights_of_the_year() -> None:
    """shogun.md §10.2: a hunger revolt is recorded as a winter fight (no action card), after
    the year's other fights; the first fight of a new year clears the year before's."""
    s = empty_state(4, years=1)
    for name in ("Owari", "Mino", "Omi"):
        own(s, 0, name, 3)
    s.season = 2
    s.battles = [{"year": 1, "season": "autumn", "kind": "attack"}]  # an autumn fight
    s.rice[0] = 1  # short 2: one province revolts, 2 extra peasants
    script(s, [3, 0, 0, 0, 0])
    others = [0, 1, 2]
    s.year_events, s.season_events = [0, 1, 2, 7], others
    s.events_left = [e for e in range(12) if e not in s.year_events]
    s.season = 3
    s.autumn_order = [0, 1, 2, 3]
    winter.start_winter(s, Rng(0), [])
    autumn, b = s.battles
    assert autumn["season"] == "autumn"
    assert (b["kind"], b["season"], b["action"], b["sent"]) == ("hunger", "winter", None, 2)
    assert b["result"] == "crushed" and b["survivors"] == 3
    s.year = 2
    s.season = 0
    kaga = own(s, 1, "Kaga", 3, markers=1)
    script(s, [0, 3, 0, 0, 1])
    run_season(s, {1: {RICE_A: kaga}})
    (b,) = s.battles
    assert (b["year"], b["season"], b["defender"]) == (2, "spring", 1)


def test_winter_breakdown_is_the_scoring() -> None:
    """shogun.md §11.3: each winter's points per seat come with what they are made of:
    1 per province, 1 per building, and the region majorities (3/2/1, one less when tied);
    the view keeps every winter's, and the points are the VP each seat gained."""
    m = sengoku.new_match("shogun", 4, seed=3, options={"years": 2})
    rng = Rng(5)
    vp = [0] * 4
    while m.to_act():
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        before = len(m.view(None)["winters"])
        m.act(seat, legal[rng.randbelow(len(legal))])
        view = m.view(None)
        if len(view["winters"]) > before:
            w = view["winters"][-1]
            assert w["year"] == before + 1
            gained = [a - b for a, b in zip(view["vp"], vp, strict=True)]
            assert w["points"] == gained
            for o in range(4):
                assert w["majorities"][o] == sum(r[o] for r in w["regions"])
                assert w["points"][o] == w["provinces"][o] + w["buildings"][o] + w["majorities"][o]
            for r in w["regions"]:
                assert sorted(r, reverse=True)[0] <= 6  # 3 + 2 + 1 at most
            vp = list(view["vp"])
    assert [w["year"] for w in m.view(0)["winters"]] == [1, 2]
    assert sum(m.view(0)["winters"][i]["points"][0] for i in range(2)) == m.outcome().scores[0]


@pytest.mark.parametrize("seed", range(6))
def test_battle_records_agree_with_the_board_in_random_games(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """shogun.md §9.3, §10.1-10.2: in random games every fight is recorded once, in order,
    and each record agrees with the rules and the board: the winner's survivors are his cubes
    out less the loser's (peasant allies absorbing first), a tie leaves a neutral province;
    thrown = sent + defenders + bonus cubes + the tray; the view holds the latest year's
    records, which round-trip through JSON and survive determinize."""
    players = 3 + seed % 3
    options = {
        "tower_model": ("sbw", "imr", "wos")[seed % 3],
        "setup": ("standard", "draft")[seed % 2],
    }
    m = sengoku.new_match("shogun", players, seed=seed, options=options)
    rng = Rng(seed + 100)
    npl = players
    seen = 0
    fights_logged = 0
    records: list[dict[str, Any]] = []
    record = battles.record_battle

    def recording(s: State, *args: Any) -> None:
        record(s, *args)
        records.append(s.battles[-1])

    monkeypatch.setattr(battles, "record_battle", recording)
    while m.to_act():
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        n_log = m.log_length
        made = len(records)
        m.act(seat, legal[rng.randbelow(len(legal))])
        new_lines = m.log(None, since=n_log)
        fights = sum(("attacks" in x) + x.count("revolt in") for x in new_lines)
        fights_logged += fights
        new = records[made:]
        assert len(new) == fights, (new_lines, new)
        # the view holds the latest year's fights, as they were made
        view = m.view(None)
        if records:
            year = records[-1]["year"]
            assert view["battles"] == [r for r in records if r["year"] == year]
        for b in new:
            seen += 1
            att, dfd = b["attacker"], b["defender"]
            out, thrown, tray = b["out"], b["thrown"], b["tray"]
            assert len(out) == len(thrown) == len(tray) == npl + 1
            assert all(t - r >= 0 for t, r in zip(thrown, tray, strict=True))
            a_side = att if att is not None else npl
            d_side = dfd if dfd is not None else npl
            extra = len([x for x in b["bonus"] if x != "attack_card"])
            assert thrown[a_side] - tray[a_side] == b["sent"] + ("attack_card" in b["bonus"])
            if dfd is not None:
                assert thrown[d_side] - tray[d_side] == b["defenders"] + extra
            a = out[a_side]
            d = out[d_side] + (out[npl] if b["allies"] else 0)
            if b["kind"] == "attack":
                if b["result"] == "taken":
                    assert a > d and b["holder"] == att and b["survivors"] == a - d
                elif b["result"] == "held":
                    assert d > a and out[d_side] > 0 and b["holder"] == dfd
                    assert b["survivors"] == out[d_side] - max(0, a - (d - out[d_side]))
                elif b["result"] == "neutral":
                    assert dfd is None and a <= d and b["holder"] is None
                else:
                    assert b["result"] in ("tie", "peasant_tie") and b["holder"] is None
                    assert a == d or b["result"] == "peasant_tie"
            else:
                assert att is None and b["source"] is None
                if b["result"] == "crushed":
                    assert out[d_side] > out[npl] and b["survivors"] == out[d_side] - out[npl]
                else:
                    assert out[npl] >= out[d_side] and b["holder"] is None
        if rng.randbelow(20) == 0 and m.to_act():
            s_view = json.loads(json.dumps(m.view(m.to_act()[0])))
            again = GAME.view(GAME.determinize(s_view, Rng(seed)), s_view["seat"])
            assert again["battles"] == s_view["battles"]
            assert again["winters"] == s_view["winters"]
    assert seen == fights_logged and seen > 0
