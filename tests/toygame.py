"""A tiny test-only game that exercises every part of the core protocol.

*Auction*: a face-down deck holds the cards 1..12. Each seat starts with some coins and a
secret hand. Every round all seats bid coins at once, in secret; the highest bid (ties by
the option ``tie_break``) pays and draws the top card, then plays one card from hand face up
for its value, or passes. After the last round each seat scores its played cards plus its
coins left; coins break ties. It has simultaneous secret choices, hidden hands, a hidden
deck order, chance during play and options: what the core must handle for the real games.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Annotated, Any, NamedTuple

from msgspec import Meta

from sengoku.core import Game, GameOptions, LogEntry, Outcome, Rng, parse_options, private, public

CARDS = tuple(range(1, 13))
COLOURS = ("Red", "Blue", "Green", "Yellow")


class TieBreak(enum.Enum):
    RANDOM = "random"
    LOWEST_SEAT = "lowest_seat"


class AuctionOptions(GameOptions):
    rounds: Annotated[int, Meta(ge=1, le=8, description="Rounds to play.")] = 3
    coins: Annotated[int, Meta(ge=0, le=9, description="Coins each seat starts with.")] = 4
    hand: Annotated[int, Meta(ge=0, le=2, description="Cards dealt to each seat at the start.")] = 1
    tie_break: Annotated[
        TieBreak, Meta(description="Who wins a tied bid: drawn at random, or the lowest seat.")
    ] = TieBreak.RANDOM


class Bid(NamedTuple):
    coins: int

    def __str__(self) -> str:
        return f"bid {self.coins}"


class Play(NamedTuple):
    card: int  # 0 passes

    def __str__(self) -> str:
        return f"play {self.card}" if self.card else "pass"


class State:
    __slots__ = (
        "bids",
        "coins",
        "deck",
        "hands",
        "last_bids",
        "options",
        "phase",
        "played",
        "players",
        "round",
        "winner",
    )

    players: int
    options: AuctionOptions
    round: int
    phase: str  # "bid", "play" or "over"
    coins: list[int]
    hands: list[list[int]]
    played: list[list[int]]
    deck: list[int]
    bids: list[int | None]
    last_bids: list[int] | None
    winner: int | None


class Auction(Game[State, Bid | Play]):
    name = "auction"
    title = "Auction (test game)"
    player_counts = (2, 3, 4)
    options_type = AuctionOptions
    option_sets = (
        {"tie_break": "lowest_seat", "rounds": 2},
        {"coins": 0, "hand": 0},
    )

    def seat_name(self, seat: int) -> str:
        return COLOURS[seat]

    def setup(self, players: int, options: AuctionOptions, rng: Rng) -> State:
        s = State()
        s.players, s.options, s.round, s.phase = players, options, 1, "bid"
        s.deck = list(CARDS)
        rng.shuffle(s.deck)
        s.coins = [options.coins] * players
        s.hands = [[s.deck.pop() for _ in range(options.hand)] for _ in range(players)]
        s.played = [[] for _ in range(players)]
        s.bids = [None] * players
        s.last_bids = None
        s.winner = None
        return s

    def initial_log(self, state: State) -> Sequence[LogEntry]:
        return [
            private(f"{COLOURS[p]} is dealt {', '.join(map(str, hand))}", p)
            for p, hand in enumerate(state.hands)
            if hand
        ]

    def clone(self, state: State) -> State:
        s = State()
        s.players, s.options, s.round, s.phase = (
            state.players,
            state.options,
            state.round,
            state.phase,
        )
        s.coins = state.coins.copy()
        s.hands = [h.copy() for h in state.hands]
        s.played = [p.copy() for p in state.played]
        s.deck = state.deck.copy()
        s.bids = state.bids.copy()
        s.last_bids = None if state.last_bids is None else state.last_bids.copy()
        s.winner = state.winner
        return s

    def to_act(self, state: State) -> list[int]:
        if state.phase == "bid":
            return [p for p in range(state.players) if state.bids[p] is None]
        if state.phase == "play":
            assert state.winner is not None
            return [state.winner]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Bid | Play]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "bid":
            return [Bid(n) for n in range(state.coins[seat] + 1)]
        return [Play(0), *(Play(c) for c in sorted(state.hands[seat]))]

    def apply(self, state: State, seat: int, action: Bid | Play, rng: Rng) -> Sequence[LogEntry]:
        name = COLOURS[seat]
        if isinstance(action, Bid):
            state.bids[seat] = action.coins
            log = [private(f"{name} bids {action.coins}", seat)]
            if any(b is None for b in state.bids):
                return log
            bids = [b or 0 for b in state.bids]
            top = max(bids)
            tied = [p for p in range(state.players) if bids[p] == top]
            winner = (
                tied[0] if state.options.tie_break is TieBreak.LOWEST_SEAT else rng.choice(tied)
            )
            state.coins[winner] -= top
            state.last_bids, state.bids = bids, [None] * state.players
            state.winner, state.phase = winner, "play"
            card = state.deck.pop()
            state.hands[winner].append(card)
            return [
                *log,
                public(f"bids {bids}: {COLOURS[winner]} wins with {top} and draws a card"),
                private(f"{COLOURS[winner]} draws {card}", winner),
            ]
        if action.card:
            state.hands[seat].remove(action.card)
            state.played[seat].append(action.card)
        state.round += 1
        state.winner = None
        state.phase = "bid" if state.round <= state.options.rounds and state.deck else "over"
        return [public(f"{name} {'plays ' + str(action.card) if action.card else 'passes'}")]

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = [sum(state.played[p]) + state.coins[p] for p in range(state.players)]
        return Outcome.from_scores(scores, [[c] for c in state.coins])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "coins": state.coins.copy(),
            "played": [p.copy() for p in state.played],
            "hand_sizes": [len(h) for h in state.hands],
            "deck_size": len(state.deck),
            "bids_submitted": [b is not None for b in state.bids],
            "last_bids": None if state.last_bids is None else state.last_bids.copy(),
            "winner": state.winner,
            "hand": None if seat is None else sorted(state.hands[seat]),
            "my_bid": None if seat is None else state.bids[seat],
        }

    def determinize(self, view: dict[str, Any], rng: Rng) -> State:
        seat: int = view["seat"]
        s = State()
        s.players = view["players"]
        s.options = parse_options(AuctionOptions, view["options"])
        s.round, s.phase, s.winner = view["round"], view["phase"], view["winner"]
        s.coins = list(view["coins"])
        s.played = [list(p) for p in view["played"]]
        s.last_bids = None if view["last_bids"] is None else list(view["last_bids"])
        known = set(view["hand"]).union(*map(set, s.played))
        unknown = [c for c in CARDS if c not in known]
        rng.shuffle(unknown)
        s.hands = []
        for p in range(s.players):
            if p == seat:
                s.hands.append(list(view["hand"]))
            else:
                s.hands.append([unknown.pop() for _ in range(view["hand_sizes"][p])])
        s.deck = unknown
        s.bids = [
            view["my_bid"] if p == seat else (rng.randint(0, s.coins[p]) if done else None)
            for p, done in enumerate(view["bids_submitted"])
        ]
        return s

    def action_vocabulary(self, players: int, options: AuctionOptions) -> list[str]:
        # "bid" then the coins as a digit: a two-token spelling shows the prefix tree at work
        return ["bid", *(f"coins {n}" for n in range(10)), "pass", *(f"play {c}" for c in CARDS)]

    def action_tokens(self, state: State, seat: int, action: Bid | Play) -> list[str]:
        if isinstance(action, Bid):
            return ["bid", f"coins {action.coins}"]
        return [f"play {action.card}" if action.card else "pass"]

    def observation_shape(self, players: int, options: AuctionOptions) -> tuple[int, ...]:
        return (3 + 4 * players + 2 * len(CARDS),)

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        seat, players = view["seat"], view["players"]
        out = [view["round"] / 8, float(view["phase"] == "bid"), view["deck_size"] / 12]
        for p in range(players):
            q = (p + seat) % players if seat is not None else p  # own seat first
            out += [
                view["coins"][q] / 9,
                sum(view["played"][q]) / 78,
                view["hand_sizes"][q] / 12,
                float(view["winner"] == q),
            ]
        hand = set(view["hand"] or ())
        played = {c for cards in view["played"] for c in cards}
        out += [float(c in hand) for c in CARDS] + [float(c in played) for c in CARDS]
        return out

    def vary_secrets(self, state: State, seat: int, rng: Rng) -> State:
        s = self.clone(state)
        others = [p for p in range(s.players) if p != seat]
        pool = s.deck + [c for p in others for c in s.hands[p]]
        rng.shuffle(pool)
        for p in others:
            s.hands[p] = [pool.pop() for _ in s.hands[p]]
            if s.bids[p] is not None:
                s.bids[p] = rng.randint(0, s.coins[p])
        s.deck = pool
        return s
