"""Rising Sun's actions: one small ``NamedTuple`` type per kind of decision.

Players are named by their clan in actions (``clan`` fields hold clan numbers), so that the
notation reads as the table speaks: ``str(action)`` is the text of records and prompts, and
:func:`describe` the message a person reads it as (in any language, from the catalogs).

>>> from .state import BUSHI, MONSTER_BASE, SHINTO
>>> str(Give(ALLIANCE, 2)), str(Answer(True, 0)), str(Give(COIN, 4))
('offer alliance to Turtle', 'accept alliance with Koi', 'give 1 coin to Bonsai')
>>> str(Keep(0)), str(Summon(SHINTO, 5, 2)), str(Move(BUSHI, 4, 5))
('keep Recruit', 'summon Shinto in Nagato to Hachiman', 'move Bushi from Kansai to Nagato')
>>> str(Replace(2, MONSTER_BASE + 1, 5, MONSTER_BASE + 0)), str(Bid(TAKE_HOSTAGE_BID, 3))
("replace Turtle's Oni of Skulls in Nagato with Komainu", 'bid 3 on Take Hostage')
>>> from sengoku.core import render
>>> from sengoku.games.catalog import catalog
>>> render(describe(Move(BUSHI, 4, 0)), catalog("rising_sun", "nl"))
'verplaats bushi van Kansai naar Hokkaidō'
"""

from __future__ import annotations

from typing import NamedTuple

from sengoku.core import Message
from sengoku.core.messages import Arg

from . import terms
from .state import KIND_NAMES, MONSTER_BASE
from .terms import act, advantage, card, clan, figure, kami, mandate, province

CLAN_NAMES = terms.CLAN_NAMES
PROVINCE_NAMES = terms.PROVINCE_NAMES
KAMI_NAMES = terms.KAMI_NAMES
MANDATE_NAMES = terms.MANDATE_NAMES
ADVANTAGE_NAMES = terms.ADVANTAGE_NAMES
CARD_NAMES = terms.CARD_NAMES

TAKE_HOSTAGE_BID = 1

# purposes of a Give
COIN, RONIN, ALLIANCE, GENEROSITY, BENEVOLENCE, REPARATION = range(6)
_GIVE = (
    "give 1 coin to {}",
    "give 1 ronin to {}",
    "offer alliance to {}",
    "offer 1 coin to {}",
    "give 1 spent coin to {}",
    "give the odd coin to {}",
)
#: the description of a Give, by purpose (rising_sun.act.<key>)
_GIVE_KEYS = ("give_coin", "give_ronin", "offer_alliance", "offer_coin", "give_spent", "give_odd")
#: a location in an action: a province 0..7, or AT_KAMI + kami for a shrine
AT_KAMI = 20


def what_name(what: int) -> str:
    """The name of a piece type: Daimyo, Shinto, Bushi, Stronghold, or a Monster's card name."""
    return CARD_NAMES[what - MONSTER_BASE] if what >= MONSTER_BASE else KIND_NAMES[what]


def where_name(where: int) -> str:
    """'in Kyoto' or 'at Hachiman's shrine'."""
    if where >= AT_KAMI:
        return f"at {KAMI_NAMES[where - AT_KAMI]}'s shrine"
    return f"in {PROVINCE_NAMES[where]}"


class ChooseClan(NamedTuple):
    """Set-up with option clans=chosen: take this clan."""

    clan: int

    def __str__(self) -> str:
        return f"choose {CLAN_NAMES[self.clan]}"


class Give(NamedTuple):
    """Something offered or handed to another clan (see the purposes above)."""

    purpose: int
    clan: int

    def __str__(self) -> str:
        return _GIVE[self.purpose].format(CLAN_NAMES[self.clan])


class Answer(NamedTuple):
    """Tea Ceremony: accept or refuse the alliance ``clan`` offers."""

    accept: bool
    clan: int

    def __str__(self) -> str:
        return f"{'accept' if self.accept else 'refuse'} alliance with {CLAN_NAMES[self.clan]}"


class Keep(NamedTuple):
    """Mandate Turn: keep this one of the 4 drawn tiles; the other 3 go back face down."""

    mandate: int

    def __str__(self) -> str:
        return f"keep {MANDATE_NAMES[self.mandate]}"


class Announce(NamedTuple):
    """Lotus (Dictate the Flow): the Mandate to carry out, whatever tile lies face down."""

    mandate: int

    def __str__(self) -> str:
        return f"announce {MANDATE_NAMES[self.mandate]}"


class Summon(NamedTuple):
    """Summon a figure from the Reserve into a province; a Shinto (or Komainu) may go on to
    the shrine of ``kami`` (-1: it stays in the province)."""

    what: int
    province: int
    kami: int = -1

    def __str__(self) -> str:
        text = f"summon {what_name(self.what)} in {PROVINCE_NAMES[self.province]}"
        return text if self.kami < 0 else f"{text} to {KAMI_NAMES[self.kami]}"


class Place(NamedTuple):
    """Place (not Summon) a figure from the Reserve in a province or on a shrine."""

    what: int
    where: int

    def __str__(self) -> str:
        return f"place {what_name(self.what)} {where_name(self.where)}"


class Move(NamedTuple):
    """Move one figure (or a Turtle Stronghold) of this type from ``src`` to ``dst``."""

    what: int
    src: int
    dst: int

    def __str__(self) -> str:
        return (
            f"move {what_name(self.what)} from {PROVINCE_NAMES[self.src]} "
            f"to {PROVINCE_NAMES[self.dst]}"
        )


class Build(NamedTuple):
    """Marshal bonus: build a Stronghold from the Reserve in a province."""

    province: int

    def __str__(self) -> str:
        return f"build a Stronghold in {PROVINCE_NAMES[self.province]}"


class Buy(NamedTuple):
    """Train or Ryujin: acquire this displayed Season card."""

    card: int

    def __str__(self) -> str:
        return f"buy {CARD_NAMES[self.card]}"


class Replace(NamedTuple):
    """Betray: replace ``clan``'s figure of type ``what`` at ``where`` with one of your own of
    type ``with_what`` from your Reserve."""

    clan: int
    what: int
    where: int
    with_what: int

    def __str__(self) -> str:
        return (
            f"replace {CLAN_NAMES[self.clan]}'s {what_name(self.what)} {where_name(self.where)} "
            f"with {what_name(self.with_what)}"
        )


class Kill(NamedTuple):
    """Kill ``clan``'s figure of type ``what`` in ``province`` (Path of the Ninja, Oni of Hate)."""

    clan: int
    what: int
    province: int

    def __str__(self) -> str:
        return (
            f"kill {CLAN_NAMES[self.clan]}'s {what_name(self.what)} "
            f"in {PROVINCE_NAMES[self.province]}"
        )


class Hostage(NamedTuple):
    """Take Hostage: take ``clan``'s figure of type ``what`` from the Battle's province."""

    clan: int
    what: int

    def __str__(self) -> str:
        return f"take {CLAN_NAMES[self.clan]}'s {what_name(self.what)} hostage"


class Bid(NamedTuple):
    """War: the secret number of Coins put on one War Advantage."""

    advantage: int
    coins: int

    def __str__(self) -> str:
        return f"bid {self.coins} on {ADVANTAGE_NAMES[self.advantage]}"


class Choice(NamedTuple):
    """A decision named by its words alone: 'end recruit', 'commit seppuku', 'buy nothing'."""

    label: str

    def __str__(self) -> str:
        return self.label


#: the description of every Choice, by its label (filled by :func:`choice`)
CHOICES: dict[str, Message] = {}


def choice(label: str, key: str, **args: Arg) -> Choice:
    """A :class:`Choice` whose description is ``rising_sun.act.<key>`` with ``args``."""
    CHOICES[label] = act(key, **args)
    return Choice(label)


RisingSunAction = (
    ChooseClan
    | Give
    | Answer
    | Keep
    | Announce
    | Summon
    | Place
    | Move
    | Build
    | Buy
    | Replace
    | Kill
    | Hostage
    | Bid
    | Choice
)


def _same(self: tuple[object, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _differ(self: tuple[object, ...], other: object) -> bool:
    return not _same(self, other)


def _hash(self: tuple[object, ...]) -> int:
    return hash((type(self).__name__, *self))


# Two actions of different kinds never compare equal, even with equal fields (an Answer of
# (False, 0) is no Give of (0, 0)), so a legal-action list holds no look-alikes.
for _kind in (
    ChooseClan,
    Give,
    Answer,
    Keep,
    Announce,
    Summon,
    Place,
    Move,
    Build,
    Buy,
    Replace,
    Kill,
    Hostage,
    Bid,
    Choice,
):
    _kind.__eq__ = _same  # type: ignore[method-assign]
    _kind.__ne__ = _differ  # type: ignore[method-assign,assignment]
    _kind.__hash__ = _hash  # type: ignore[method-assign]


def _where(where: int, key: str, **args: Arg) -> Message:
    """A description naming a province (``key``) or a shrine (``key`` + ``_shrine``)."""
    if where >= AT_KAMI:
        return act(f"{key}_shrine", k=kami(where - AT_KAMI), **args)
    return act(key, p=province(where), **args)


def describe(action: RisingSunAction) -> Message:
    """How a person reads ``action``: a message of the catalog's ``rising_sun.act.*``."""
    if isinstance(action, ChooseClan):
        return act("choose", c=clan(action.clan))
    if isinstance(action, Give):
        return act(_GIVE_KEYS[action.purpose], c=clan(action.clan))
    if isinstance(action, Answer):
        key = "accept_alliance" if action.accept else "refuse_alliance"
        return act(key, c=clan(action.clan))
    if isinstance(action, Keep):
        return act("keep", m=mandate(action.mandate))
    if isinstance(action, Announce):
        return act("announce", m=mandate(action.mandate))
    if isinstance(action, Summon):
        f, p = figure(action.what), province(action.province)
        if action.kami < 0:
            return act("summon", f=f, p=p)
        return act("summon_climb", f=f, p=p, k=kami(action.kami))
    if isinstance(action, Place):
        return _where(action.where, "place", f=figure(action.what))
    if isinstance(action, Move):
        f = figure(action.what)
        return act("move", f=f, p=province(action.src), p2=province(action.dst))
    if isinstance(action, Build):
        return act("build", p=province(action.province))
    if isinstance(action, Buy):
        return act("buy", d=card(action.card))
    if isinstance(action, Replace):
        c, f, f2 = clan(action.clan), figure(action.what), figure(action.with_what)
        return _where(action.where, "replace", c=c, f=f, f2=f2)
    if isinstance(action, Kill):
        c, f = clan(action.clan), figure(action.what)
        return act("kill", c=c, f=f, p=province(action.province))
    if isinstance(action, Hostage):
        return act("hostage", c=clan(action.clan), f=figure(action.what))
    if isinstance(action, Bid):
        return act("bid", n=action.coins, a=advantage(action.advantage))
    return CHOICES[action.label]
