"""Rising Sun's research encoding: the token vocabulary, the spelling of every action kind,
decoding through the prefix tree, and the observation vector (issue 18)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sengoku
from sengoku.core import Match, Rng
from sengoku.core.encoding import ActionSpace, Decision
from sengoku.games.rising_sun import encoding, kami, mandates, summons, tea, war
from sengoku.games.rising_sun.actions import (
    AT_KAMI,
    BENEVOLENCE,
    REPARATION,
    Announce,
    Answer,
    Bid,
    Build,
    Buy,
    Choice,
    ChooseClan,
    Give,
    Hostage,
    Keep,
    Kill,
    Move,
    Place,
    Replace,
    Summon,
)
from sengoku.games.rising_sun.state import (
    BUSHI,
    DAIMYO,
    DECISION_NAMES,
    MONSTER_BASE,
    SHINTO,
    STRONGHOLD,
)

from .helpers import CLANS, KAMI, MANDATE, P, act, card_index, coins, put, seat, table, war_in

RS = sengoku.get_game("rising_sun")


def spelled(m: Match, seat_: int) -> list[list[str]]:
    return [encoding.spell(m.state, seat_, a) for a in m.legal_actions(seat_)]


def test_the_vocabulary_is_one_small_list_for_every_table() -> None:
    """The vocabulary is the same 111 distinct tokens for 3, 4 and 5 players and any options
    (one policy for every table), in its documented parts: 24 kinds, 5 clans, 4 figures, 47
    card names, 8 provinces, 7 Kami, 5 Mandates, 11 Coin tokens."""
    sizes = {}
    for players in (3, 4, 5):
        for options in ({}, {"season_set": "archway", "clans": "chosen"}, {"gifts": False}):
            match = sengoku.new_match("rising_sun", players, seed=1, options=options)
            tokens = ActionSpace.of(match).tokens
            assert tokens == tuple(encoding.vocabulary())
            sizes[players] = len(tokens)
    assert sizes == {3: 111, 4: 111, 5: 111}
    vocab = encoding.vocabulary()
    assert len(set(vocab)) == len(vocab)
    assert vocab[:2] == ["choose", "offer alliance"] and vocab[23] == "pass"
    assert vocab[24:29] == [f"clan {c}" for c in CLANS]
    assert sum(t.startswith("card ") for t in vocab) == 47
    assert vocab[-11:] == [*(f"coins {d}" for d in range(10)), "coins +10"]


def test_the_first_actions_of_a_seeded_match_spell_as_documented() -> None:
    """Seed 3, 4 fixed clans: Koi opens the Tea Ceremony with its offers, 'no alliance' and its
    gifts, each a kind token and a clan (or 'pass' alone)."""
    m = sengoku.new_match("rising_sun", 4, seed=3, options={"clans": "fixed"})
    assert spelled(m, 0) == [
        ["offer alliance", "clan Lotus"],
        ["offer alliance", "clan Turtle"],
        ["offer alliance", "clan Dragonfly"],
        ["pass"],
        ["give coin", "clan Lotus"],
        ["give coin", "clan Turtle"],
        ["give coin", "clan Dragonfly"],
    ]
    m.act(0, "offer alliance to Turtle")
    assert spelled(m, 2)[:2] == [["accept"], ["refuse"]]  # the offer's clan is the state's


def test_the_decision_part_names_the_question_and_the_clan_asking() -> None:
    """Koi offers Turtle an alliance: Turtle's observation shows the pending 'answer', Turtle
    (r = 0) to decide and to act, and Koi (r = 2 from Turtle) as the clan whose offer it is."""
    m = sengoku.new_match("rising_sun", 4, seed=3, options={"clans": "fixed"})
    m.act(0, "offer alliance to Turtle")
    part = encoding.parts(m.view(seat(m, "Turtle")))["decision"]
    kinds = len(DECISION_NAMES) + 1
    assert part[:kinds].index(1.0) == DECISION_NAMES.index("answer")
    assert part[kinds : kinds + 4] == [1.0, 0.0, 0.0, 0.0]  # who decides
    assert part[kinds + 4 : kinds + 8] == [1.0, 0.0, 0.0, 0.0]  # who may act
    assert part[-4:] == [0.0, 0.0, 1.0, 0.0]  # whose offer


def test_every_action_kind_spells_its_arguments_in_the_notations_order() -> None:
    """Each action kind: its kind token, then its arguments; a Monster by its card's name, a
    shrine by its Kami, a Summon's climb before its province, a bid in tens and a digit, and
    every decline or end as 'pass'."""
    s = sengoku.new_match("rising_sun", 3, seed=1).state
    oni = MONSTER_BASE + card_index("Oni of Skulls")
    cases = {
        ChooseClan(2): ["choose", "clan Turtle"],
        Give(BENEVOLENCE, 1): ["give spent coin", "clan Lotus"],
        Give(REPARATION, 4): ["give coin", "clan Bonsai"],
        Answer(False, 0): ["refuse"],
        Keep(MANDATE["Harvest"]): ["keep", "mandate Harvest"],
        Announce(MANDATE["Betray"]): ["announce", "mandate Betray"],
        Summon(BUSHI, P["Kyoto"]): ["summon", "figure Bushi", "province Kyoto"],
        Summon(SHINTO, P["Edo"], KAMI["Raijin"]): [
            "summon",
            "figure Shinto",
            "kami Raijin",
            "province Edo",
        ],
        Summon(oni, P["Oshu"]): ["summon", "card Oni of Skulls", "province Oshu"],
        Place(SHINTO, AT_KAMI + KAMI["Fujin"]): ["place", "figure Shinto", "kami Fujin"],
        Move(STRONGHOLD, P["Kyoto"], P["Edo"]): [
            "move",
            "figure Stronghold",
            "province Kyoto",
            "province Edo",
        ],
        Build(P["Shikoku"]): ["build", "province Shikoku"],
        Buy(card_index("Oni of Skulls")): ["buy", "card Oni of Skulls"],
        Replace(2, oni, P["Nagato"], MONSTER_BASE + card_index("Komainu")): [
            "replace",
            "clan Turtle",
            "card Oni of Skulls",
            "province Nagato",
            "card Komainu",
        ],
        Kill(1, BUSHI, P["Kyushu"]): ["kill", "clan Lotus", "figure Bushi", "province Kyushu"],
        Hostage(0, DAIMYO): ["take hostage", "clan Koi", "figure Daimyo"],
        Bid(0, 0): ["bid", "coins 0"],
        Bid(1, 9): ["bid", "coins 9"],
        Bid(2, 10): ["bid", "coins +10", "coins 0"],
        Bid(3, 23): ["bid", "coins +10", "coins +10", "coins 3"],
        mandates.END_RECRUIT: ["pass"],
        war.NO_MERCY: ["pass"],
        war.COMMIT: ["commit seppuku"],
        Choice("pay 2 coins for 2 VP"): ["pay"],
    }
    for action, tokens in cases.items():
        assert encoding.spell(s, 0, action) == tokens, str(action)


def test_every_choice_of_the_rules_has_a_token() -> None:
    """Every named Choice of the rules modules spells as one token of the vocabulary (a new
    Choice without a token would fail here before it fails in a game)."""
    modules = (kami, mandates, summons, tea, war)
    choices = [x for mod in modules for x in vars(mod).values() if isinstance(x, Choice)]
    assert len(choices) >= 20
    s = sengoku.new_match("rising_sun", 3, seed=1).state
    for choice in choices:
        (token,) = encoding.spell(s, 0, choice)
        assert token in encoding.VOCABULARY


def walk(
    seed: int,
    players: int,
    check: Callable[[Match, int], None],
    options: dict[str, object] | None = None,
) -> None:
    """Play a random game, calling ``check(match, seat)`` for the seat about to act."""
    m = sengoku.new_match("rising_sun", players, seed=seed, options=options or {})
    chooser = Rng(seed + 100)
    while m.outcome() is None:
        q = chooser.choice(m.to_act())
        check(m, q)
        m.act(q, chooser.choice(m.legal_actions(q)))


def test_decoding_token_by_token_gives_back_every_legal_action() -> None:
    """Walking a Decision down the ids of any legal action's spelling (without skipping forced
    steps) ends exactly at that action, and only at the last id; so does the walk that skips
    forced steps, choosing just the ids it is asked for."""
    checked = 0

    def check(m: Match, q: int) -> None:
        nonlocal checked
        space = ActionSpace.of(m)
        for action in m.legal_actions(q):
            ids = space.encode(m, q, action)
            slow = Decision(space, m, q, skip_forced=False)
            assert [slow.choose(i) for i in ids] == [None] * (len(ids) - 1) + [action]
            fast = Decision(space, m, q)
            got = None
            while got is None:
                got = fast.choose(ids[len(fast.prefix)])
            assert got == action and tuple(fast.prefix) == ids
            checked += 1

    walk(5, 3, check)
    assert checked > 1000


def test_the_ids_offered_at_one_step_stay_few() -> None:
    """Over random games of 3, 4 and 5 players, no step offers more ids than a match has card
    names (26 with Archway: the widest step is the card to buy, from a display carried over
    from earlier Seasons), and an action takes at most 5 tokens, fewer than 3 on average."""
    widest = longest = tokens = actions = 0

    def check(m: Match, q: int) -> None:
        nonlocal widest, longest, tokens, actions
        space = ActionSpace.of(m)
        stack = [space.tree(m, q).root]
        while stack:
            node = stack.pop()
            widest = max(widest, len(node))
            stack.extend(child for child in node.values() if isinstance(child, dict))
        for action in m.legal_actions(q):
            n = len(encoding.spell(m.state, q, action))
            longest, tokens, actions = max(longest, n), tokens + n, actions + 1

    for seed, players in ((1, 3), (2, 5), (3, 4)):
        walk(seed, players, check, {"season_set": "tower"} if seed == 3 else None)
    names = max(len(names) for names in encoding.IN_GAME.values())
    assert names == 26 and 10 < widest <= names
    assert longest <= 5
    assert tokens / actions < 3


def test_the_layout_fills_the_declared_shape() -> None:
    """The parts lie end to end and add up to observation_shape: 1014, 1223 and 1440 values
    for 3, 4 and 5 players; every value of a new match's views is finite, between 0 and 1."""
    for players, length in ((3, 1014), (4, 1223), (5, 1440)):
        parts = encoding.layout(players)
        assert parts[0].offset == 0
        assert all(a.offset + a.size == b.offset for a, b in itertools.pairwise(parts))
        assert parts[-1].offset + parts[-1].size == length
        m = sengoku.new_match("rising_sun", players, seed=players)
        assert RS.observation_shape(players, m.options) == (length,)
        for q in range(players):
            values = RS.observation_tensor(m.view(q))
            assert len(values) == length and all(0.0 <= x <= 1.0 for x in values)


def test_a_known_view_reads_as_documented() -> None:
    """Seed 3, 4 fixed clans, Turtle's view in the Tea Ceremony of Spring: the phase and Season
    one-hots; Turtle first (its clan, Honor place 3, 6 Coins as 6/40), then Dragonfly, Koi,
    Lotus (the seating); Kyoto holds Turtle's Daimyo, Bushi and Stronghold with Force 3
    (Turtle's Stronghold counts); Koi's Daimyo stands in Edo."""
    m = sengoku.new_match("rising_sun", 4, seed=3, options={"clans": "fixed"})
    turtle = seat(m, "Turtle")
    obs = encoding.parts(m.view(turtle))
    game = obs["game"]
    assert game[:6] == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]  # clans, tea, political, war, ...
    assert game[6:10] == [1.0, 0.0, 0.0, 0.0]  # spring
    assert game[10:14] == [0.0, 0.0, 1.0, 0.0]  # the teapot set
    block = 30 + 4 * 4
    clans = obs["clans"]
    firsts = [clans[r * block : r * block + 5].index(1.0) for r in range(4)]
    assert [CLANS[c] for c in firsts] == ["Turtle", "Dragonfly", "Koi", "Lotus"]
    assert clans[5:9] == [0.0, 0.0, 1.0, 0.0]  # third on the Honor track
    assert clans[10] == 6 / 40  # Coins
    board = obs["board"]
    kyoto = board[P["Kyoto"] * (8 * 4 + 4) :]
    assert kyoto[:7] == [1.0, 0.0, 1 / 6, 0.0, 1 / 4, 3 / 15, 0.0]  # Turtle, r = 0
    edo = board[P["Edo"] * (8 * 4 + 4) :]
    assert edo[2 * 7] == 1.0  # Koi (r = 2) has its Daimyo there


def test_a_battle_shows_the_viewers_own_bids_and_nobody_elses() -> None:
    """In a Battle in Kyoto, after Koi bid 3 on Seppuku: Koi's observation holds that bid (3/40)
    and marks its bids as seen; Lotus's marks Koi's as unseen and is the same whatever Koi bid.
    The Battle's province and both participants are set in both."""
    m = table(clans=("Koi", "Lotus", "Turtle"))
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto")
    coins(m, Koi=5, Lotus=4)
    war_in(m, "Kyoto")
    before = encoding.parts(m.view(seat(m, "Lotus")))
    other = m.clone()
    act(m, "Koi", "bid 3 on Seppuku")
    act(other, "Koi", "bid 1 on Seppuku")
    koi = encoding.parts(m.view(seat(m, "Koi")))["battle"]
    assert koi[: len(P)].index(1.0) == P["Kyoto"]
    row = koi[len(P) : len(P) + 11]  # Koi, r = 0
    assert row[:7] == [1.0, 0.0, 1.0, 3 / 40, 0.0, 0.0, 0.0]
    assert row[8] == 5 / 40  # Coins held when the Battle began
    lotus = encoding.parts(m.view(seat(m, "Lotus")))
    assert lotus == encoding.parts(other.view(seat(other, "Lotus")))
    koi_for_lotus = lotus["battle"][len(P) + 2 * 11 :][:11]  # Koi is r = 2 for Lotus
    assert koi_for_lotus[:3] == [1.0, 0.0, 0.0]
    assert lotus["battle"] == before["battle"]  # nothing of Koi's bid shows yet


def test_observations_do_not_depend_on_other_seats_secrets() -> None:
    """At every Mandate draw and every bid of a random 4-player game, each seat's observation
    is unchanged when the others' secrets (the deck's order, drawn and kept tiles, bids) are
    drawn again by vary_secrets."""
    compared = 0

    def check(m: Match, q: int) -> None:
        nonlocal compared
        if m.view(None)["decision"] not in ("keep", "announce", "bid"):
            return
        for viewer in range(m.players):
            other = RS.vary_secrets(m.state, viewer, Rng(compared))
            view = {**m.view(viewer), **RS.view(other, viewer)}
            assert RS.observation_tensor(view) == RS.observation_tensor(m.view(viewer))
            compared += 1

    walk(7, 4, check)
    assert compared > 50


def test_a_spectator_is_encoded_as_seat_zeros_table() -> None:
    """A spectator's view (seat None) is read with seat 0 first; before seat 0 knows any
    secret it is exactly seat 0's observation."""
    m = sengoku.new_match("rising_sun", 5, seed=4, options={"clans": "fixed"})
    assert RS.observation_tensor(m.view(None)) == RS.observation_tensor(m.view(0))
