"""Rising Sun (Eric M. Lang, CMON 2018): 3-5 players, the five base clans, the Core cards and
one of the four base Season sets.

>>> import sengoku
>>> m = sengoku.new_match("rising_sun", 3, seed=2, options={"clans": "fixed"})
>>> m.view(None)["clans"]
['Koi', 'Lotus', 'Turtle']
"""

from .options import RisingSunOptions
from .rules import RisingSun

__all__ = ["RisingSun", "RisingSunOptions"]
