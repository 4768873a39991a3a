"""Views, hidden information, determinize and notation (shitenno.md §4.3 'Information',
§9.2 G14)."""

from __future__ import annotations

import json
import random

import sengoku
from sengoku.core import Rng
from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.state import Phase

from .test_control import control
from .util import CHUGOKU, DRAW, EXCHANGE, GAME, SH, act, english, legal, set_hand, tile


def play_until(match: sengoku.Match, phase: str, seed: int = 0, limit: int = 5000) -> None:
    """Random legal actions until the view's phase is ``phase``."""
    rng = Rng(seed)
    for _ in range(limit):
        if match.view(None)["phase"] == phase:
            return
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
    raise AssertionError(f"phase {phase} never came")


def test_hands_are_hidden_but_their_sizes_public() -> None:
    """shitenno.md §9.2 G14: each general sees his own hand; the others see only its size."""
    m = sengoku.new_match("shitenno", 3, seed=2)
    own = m.view(0)
    assert own["hand"] is not None and len(own["hand"]["troops"]) == 2
    assert own["troop_cards"] == [2, 2, 2] and own["koku_cards"] == [0, 0, 0]
    assert "hands" not in own
    assert m.view(None)["hand"] is None
    text = json.dumps(m.view(1))
    assert json.loads(text) == m.view(1)
    # the deck order is nowhere in a view: only its size
    assert m.view(None)["troop_deck"] == 34 - 6 - 6


def test_open_hands_option() -> None:
    """shitenno.md §6 G14 (option open_hands): every hand is in every view."""
    m = sengoku.new_match("shitenno", 2, seed=2, options={"open_hands": True})
    assert m.view(None)["hands"][1] == m.view(1)["hand"]


def test_stacked_bonus_faces_are_hidden() -> None:
    """shitenno.md §3.1: the stacks lie troop face up: only the top tile's troop shows. Every
    tile's effect and every troop face below the top can be redrawn without changing any
    view."""
    s, _ = control()
    view = GAME.view(s, 0)["provinces"][CHUGOKU]
    assert view["stack"] == 3 and view["top_tile_troop"] == "Bushi"
    views = [json.dumps(GAME.view(s, seat)) for seat in (0, 1, 2, 3, None)]
    rng = random.Random(5)
    for _ in range(20):
        other = GAME.clone(s)
        for p, stack in enumerate(other.stacks):
            if stack:
                top_troop = stack[-1] // 3
                lower = [tile(rng.randrange(4), rng.randrange(3)) for _ in stack[:-1]]
                other.stacks[p] = [*lower, tile(top_troop, rng.randrange(3))]
        assert [json.dumps(GAME.view(other, seat)) for seat in (0, 1, 2, 3, None)] == views
    # the test can fail: the top troop face does show
    s.stacks[CHUGOKU][-1] = tile(SH, EXCHANGE)
    assert json.dumps(GAME.view(s, 1)) != views[1]


def test_draw_is_secret_but_its_count_public() -> None:
    """shitenno.md §4.3 'Information': a card drawn with a Draw tile is seen by its owner only;
    the others see his hand grow by one card. Whichever card Red draws, every other seat's
    view and every log line it may read stay the same."""
    seen: dict[int | None, set[str]] = {seat: set() for seat in (0, 1, 2, 3, None)}
    for code in ("Bu", "SoSo", "ShSo"):
        s, rng = control()
        s.tiles[0] = [tile(SH, DRAW)]
        s.troop_deck[-1] = kind_of_code(code)  # the card the Draw tile takes
        before = GAME.view(s, 1)["troop_cards"][0]
        log = GAME.apply(s, 0, GAME.parse_action(s, 0, "use Draw tile"), rng)
        assert s.hand_troops[0][kind_of_code(code)] == 1
        assert GAME.view(s, 1)["troop_cards"][0] == before + 1
        for seat in seen:
            lines = [english(e) for e in log if e.visible_to(seat)]
            seen[seat].add(json.dumps([GAME.view(s, seat), lines]))
    assert len(seen[0]) == 3  # Red sees which card he drew
    assert all(len(seen[seat]) == 1 for seat in (1, 2, 3, None))


def test_determinize_rebuilds_the_view() -> None:
    """design.md 'Hidden information': a determinized state shows the seat the same view and
    legal actions, whatever the phase (every phase of the game is visited)."""
    for phase in (p.name.lower() for p in Phase):
        m = sengoku.new_match("shitenno", 3, seed=11)
        play_until(m, phase, seed=3)
        assert m.view(None)["phase"] == phase
        for seat in (0, 1, 2):
            view = m.view(seat)
            twin = sengoku.determinize(json.loads(json.dumps(view)), Rng(seat))
            assert twin.view(seat) == view
            assert [str(a) for a in twin.legal_actions(seat)] == [
                str(a) for a in m.legal_actions(seat)
            ]


def test_determinize_gives_a_choosing_player_a_payment() -> None:
    """design.md 'Hidden information': a player who chose a province has shown he can pay;
    every sample gives his hand a payment for it."""
    m = sengoku.new_match("shitenno", 4, seed=5)
    play_until(m, "pay", seed=1)
    payer = m.to_act()[0]
    other = (payer + 1) % 4
    for k in range(20):
        twin = sengoku.determinize(m.view(other), Rng(k))
        assert twin.legal_actions(payer)


def test_vary_secrets_keeps_the_view() -> None:
    """design.md 'Hidden information': redrawing others' hands and the decks leaves a seat's
    view unchanged and keeps the card counts."""
    m = sengoku.new_match("shitenno", 3, seed=4)
    play_until(m, "control", seed=2)
    state = m._state
    for seat in range(3):
        varied = GAME.vary_secrets(state, seat, Rng(seat))
        assert GAME.view(varied, seat) == GAME.view(state, seat)
        assert sum(map(sum, varied.hand_troops)) + len(varied.troop_deck) == sum(
            map(sum, state.hand_troops)
        ) + len(state.troop_deck)


def test_notation_reads_back_in_any_case() -> None:
    """design.md: every legal action's notation is unique and parses back."""
    s, rng = control()
    set_hand(s, 0, ["Sa", "Sa", "BuBu", "So"], [3, 2])
    names = legal(s, 0)
    assert len(set(names)) == len(names)
    act(s, 0, "CONTROL   chugoku", rng)
    assert s.phase is Phase.PAY
    for text in legal(s, 0):
        assert str(GAME.parse_action(s, 0, text.upper())) == text


def test_render_text() -> None:
    """A view renders as text with the board and the hand."""
    m = sengoku.new_match("shitenno", 2, seed=3)
    text = GAME.render_text(m.view(0))
    assert text is not None and "Kanto" in text and "your hand" in text


def test_log_tells_the_story() -> None:
    """Log lines a person can follow; secrets only in private lines."""
    m = sengoku.new_match("shitenno", 2, seed=8)
    play_until(m, "control", seed=4)
    public_log = m.log(None)
    assert any("offers the lot" in line or "takes the last lot" in line for line in public_log)
    assert any(line.startswith("titles:") for line in public_log)
