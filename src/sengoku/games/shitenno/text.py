"""A plain-text picture of a Shitenno view, for the terminal (``Game.render_text``)."""

from __future__ import annotations

from typing import Any

from .data import DATA, TROOP_CODES, TROOP_NAMES

__all__ = ["render"]

COLOURS = DATA.setup.colours
#: What the codes stand for, under every picture.
LEGEND = (
    "  legend: "
    + ", ".join(f"{code} {name}" for code, name in zip(TROOP_CODES, TROOP_NAMES, strict=True))
    + "; two codes (BuSh) are one double troop card; a tile Bu/exchange is its troop face and"
    " effect; a capital colour is a golden kamon"
)


def render(view: dict[str, Any]) -> str:
    """Render a view (as :meth:`Shitenno.view` made it, with the match's keys) as text.

    >>> import sengoku
    >>> m = sengoku.new_match("shitenno", players=2, seed=3)
    >>> print(render(m.view(0)).splitlines()[0])
    Shitenno, round 1 (even year): build
    """
    year = "even" if view["year"] % 2 == 0 else "odd"
    lines = [f"Shitenno, round {view['round']} ({year} year): {view['phase']}"]
    players = len(view["titles"])
    for p in range(players):
        tiles = ", ".join(f"{t['troop'][:2]}/{t['effect']}" for t in view["bonus_tiles"][p])
        lines.append(
            f"  {COLOURS[p]:<6} {view['titles'][p]:<9} favour {view['scores'][p]:>3}  "
            f"kamons {view['kamons'][p]:>2}  troop cards {view['troop_cards'][p]}  "
            f"koku cards {view['koku_cards'][p]}" + (f"  tiles: {tiles}" if tiles else "")
        )
    for prov in view["provinces"]:
        cells = []
        for sp in prov["spaces"]:
            if sp is None:
                cells.append(".")
            else:
                name = COLOURS[sp["seat"]]
                cells.append(name.upper() if sp["golden"] else name)
        need = "+".join(t[:2] for t in prov["requirement"])
        lines.append(
            f"  {prov['name']:<9} [{' '.join(cells)}]  needs {need}  tiles {prov['stack']}"
        )
    lines.append(f"  troop deck {view['troop_deck']}, koku deck {view['koku_deck']}")
    if view["phase"] in ("build", "offer", "last"):
        up = view["face_up"]
        lot = view["lot"]
        lines.append(
            f"  Tairo {COLOURS[view['tairo']]}; face up: "
            f"{' '.join(up['troops'])} koku {' '.join(map(str, up['koku']))}"
        )
        lines.append(
            f"  lot: {' '.join(lot['troops'])} koku {' '.join(map(str, lot['koku']))}"
            f" tile {lot['tile']}; tiles left: {', '.join(view['hierarchy_tiles'])}"
        )
    hand = view.get("hand")
    if hand is not None:
        lines.append(
            f"  your hand: {' '.join(hand['troops']) or '-'}; koku "
            f"{' '.join(map(str, hand['koku'])) or '-'}"
        )
    if view["final_scores"] is not None:
        lines.append(
            "  final: " + ", ".join(f"{COLOURS[p]} {s}" for p, s in enumerate(view["final_scores"]))
        )
    lines.append(LEGEND)
    return "\n".join(lines)
