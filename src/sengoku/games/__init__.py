"""The built-in games, one package each; registering a game is one line here."""

from sengoku.core.registry import register

__all__ = ["register"]

register("shitenno", "sengoku.games.shitenno:Shitenno")
register("rising_sun", "sengoku.games.rising_sun:RisingSun")
register("shogun", "sengoku.games.shogun:Shogun")
