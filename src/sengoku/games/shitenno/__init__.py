"""Shitenno (Cédric Lefebvre, Ludonaute 2011): the complete game for 2 to 4 generals.

This package is the example to copy when adding a game. Its parts:

- ``data/*.json`` and :mod:`.data`: the components (provinces, troop and koku decks, bonus
  tiles, titles, setup numbers), each fact with its source, checked on load;
- :mod:`.options`: :class:`ShitennoOptions`, one typed, documented option per rules gap;
- :mod:`.actions`: one ``NamedTuple`` per kind of decision, ``str()`` is the notation;
- :mod:`.state`: the slotted :class:`~.state.State` with a cheap copy;
- :mod:`.rules`: :class:`Shitenno`, the :class:`~sengoku.core.Game` itself, a thin class over
  the rules, one module per part of the game: :mod:`.rounds` (setup, whose turn, the two
  years), :mod:`.sharing` (the even year), :mod:`.control` (the odd year and the titles'
  powers), :mod:`.payments` (the exact payments of a placement), :mod:`.bonus` (the bonus
  tiles), :mod:`.end` (the end and the scoring), :mod:`.views` (views, determinize), all
  reading :mod:`.board` (tables and card counts);
- :mod:`.text`: a terminal rendering of a view.

The flow of a game (rule sections of ``shared/rules/shitenno.md``):

1. **Setup** (§4.1): shuffle the decks, stack 3 bonus tiles on each province, deal titles
   at random and 2 troop cards to each general. The game opens with an even year.
2. **Even year, the sharing** (§4.3): the holder of the highest title is the Tairo and lays
   out troop and koku cards face up. He builds a lot one step at a time (``add troop SaSh
   to the lot``, ``add koku 2 to the lot``, ``add hierarchy tile Shomyo to the lot``) and
   offers it (``offer lot SaSh+koku 2+Shomyo to Blue``). The players without a lot answer
   in title order (``accept lot`` / ``refuse lot``); if all refuse, the Tairo keeps it and
   the next-ranked player without a lot becomes Tairo. The last player takes all that is
   left (``take the last lot with Sensei``). Hierarchy tiles become the new titles.
3. **Odd year, province control** (§4.4): in title order, each general places 0, 1 or 2
   kamons (``place Kanto paying koku 3+2``, ``place Kyushu paying troops BuBu using
   Hatamoto``), may spend Draw tiles (``use Draw tile``), and ``end turn``; the Sensei may
   gild one kamon (``flip Kanto space 1 to golden``).
4. **The end** (§4.6, §4.7): at the end of an even year in which a general has no kamon
   left or the koku deck is empty, koku in hand and province majorities are scored.

>>> import sengoku
>>> m = sengoku.new_match("shitenno", players=2, seed=5)
>>> [m.game.seat_name(s) for s in range(2)]
['Red', 'Blue']
"""

from .options import ShitennoOptions
from .rules import Shitenno

__all__ = ["Shitenno", "ShitennoOptions"]
