"""A plain-text rendering of a Rising Sun view for the terminal."""

from __future__ import annotations

from typing import Any

from .actions import CARD_NAMES, KAMI_NAMES, MANDATE_NAMES, PROVINCE_NAMES
from .state import HOSTAGE, KIND_NAMES, MONSTER, RESERVE, SHRINE

_SHORT = {"Daimyo": "D", "Shinto": "S", "Bushi": "B", "Stronghold": "#"}


def _piece(kind: int, card: int) -> str:
    return CARD_NAMES[card] if kind == MONSTER else _SHORT[KIND_NAMES[kind]]


def render(view: dict[str, Any]) -> str:
    """Render a seat's (or a spectator's) view as a few lines of text.

    Figures are written D (Daimyo), S (Shinto), B (Bushi), # (Stronghold), or a Monster's name.
    """
    clans: list[str | None] = view["clans"]

    def clan(seat: int) -> str:
        return clans[seat] or f"seat {seat}"

    lines = [
        f"Rising Sun - {view['season']}, {view['phase']} "
        f"(Core + {view['season_set']}); legend: D Daimyo, S Shinto, B Bushi, # Stronghold"
    ]
    if any(c is None for c in clans):
        lines.append("clans still to choose: " + ", ".join(map(str, clans)))
        return "\n".join(lines)
    lines.append("Honor: " + " > ".join(clan(p) for p in view["honor"]))
    for p in view["order"]:
        ally = view["ally"][p]
        cards = ", ".join(CARD_NAMES[c] for c in view["owned"][p]) or "no cards"
        lines.append(
            f"{clan(p)}: {view['vp'][p]} VP, {view['coins'][p]} coins, {view['ronin'][p]} ronin"
            + (f", allied with {clan(ally)}" if ally >= 0 else "")
            + f"; {cards}"
        )
    where: dict[int, dict[int, list[str]]] = {}
    for owner, kind, card, loc, _ in view["pieces"]:
        if loc != RESERVE:
            where.setdefault(loc, {}).setdefault(owner, []).append(_piece(kind, card))
    wars = {p: i + 1 for i, p in enumerate(view["war"])}
    for p, province in enumerate(PROVINCE_NAMES):
        here = where.get(p, {})
        text = "; ".join(f"{clan(o)} {' '.join(sorted(fs))}" for o, fs in sorted(here.items()))
        war = f" (War {wars[p]})" if p in wars else ""
        lines.append(f"  {province}{war}: {text or '-'}")
    for slot, kami in enumerate(view["shrines"]):
        here = where.get(SHRINE + slot, {})
        text = ", ".join(f"{clan(o)} {len(fs)}" for o, fs in sorted(here.items()))
        lines.append(f"  shrine of {KAMI_NAMES[kami]}: {text or '-'}")
    hostages = [
        f"{clan(o)}'s {_piece(k, c)} held by {clan(loc - HOSTAGE)}"
        for o, k, c, loc, _ in view["pieces"]
        if loc >= HOSTAGE
    ]
    if hostages:
        lines.append("hostages: " + "; ".join(hostages))
    played = [MANDATE_NAMES[m] if m >= 0 else "?" for m in view["mandates"]]
    lines.append(f"Mandates this Season: {', '.join(played) or 'none yet'}")
    if view["drawn"]:
        lines.append("you drew: " + ", ".join(MANDATE_NAMES[m] for m in view["drawn"]))
    lines.append("on display: " + ", ".join(CARD_NAMES[c] for c in view["display"]))
    battle = view["battle"]
    if battle["province"] >= 0:
        bids = [
            f"{clan(q)} {'/'.join(map(str, b)) if b is not None else '?'}"
            for q, b in enumerate(battle["bids"])
            if q in battle["participants"]
        ]
        lines.append(f"Battle in {PROVINCE_NAMES[battle['province']]}: bids {', '.join(bids)}")
    if view["final"] is not None:
        lines.append(
            "final: " + ", ".join(f"{clan(p)} {view['final'][p]}" for p in range(len(clans)))
        )
    return "\n".join(lines)
