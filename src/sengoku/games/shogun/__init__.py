"""Shogun (Dirk Henn, Queen Games 2006): 3-5 players, sun and moon boards, the cube tower.

>>> import sengoku
>>> m = sengoku.new_match("shogun", 3, seed=5, options={"board": "moon", "setup": "draft"})
>>> m.view(m.to_act()[0])["phase"]
'draft'
"""

from .options import ShogunOptions
from .rules import Shogun

__all__ = ["Shogun", "ShogunOptions"]
