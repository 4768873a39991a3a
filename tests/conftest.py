"""Test set-up: the test-only game is registered beside the real ones."""

from sengoku.core import register
from tests.toygame import Auction

register("auction", Auction())
