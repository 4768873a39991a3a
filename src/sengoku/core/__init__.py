"""The game protocol, the match authority and what they share. No I/O, no game rules."""

from .encoding import ActionSpace, Decision, EncodingError, TokenTree
from .errors import (
    IllegalActionError,
    OptionError,
    RecordError,
    SengokuError,
    SetupError,
    UndoRefusedError,
    UnknownGameError,
)
from .game import (
    Action,
    Game,
    Gauge,
    LogEntry,
    action_to_json,
    normalize_notation,
    private,
    public,
    without_sources,
)
from .match import (
    VIEW_KEYS,
    Match,
    UndoReason,
    UndoRefusal,
    determinize,
    determinizer,
    new_match,
)
from .messages import Items, Message, Term, message_from_json, message_to_json, msg, render
from .options import (
    GameOptions,
    OptionInfo,
    describe_options,
    options_from_pairs,
    options_to_json,
    parse_options,
)
from .outcome import Outcome
from .registry import available_games, get_game, register, registry_targets, unregister
from .rng import Rng, fresh_seed
from .tutorial import Tutorial, TutorialError

__all__ = [
    "VIEW_KEYS",
    "Action",
    "ActionSpace",
    "Decision",
    "EncodingError",
    "Game",
    "GameOptions",
    "Gauge",
    "IllegalActionError",
    "Items",
    "LogEntry",
    "Match",
    "Message",
    "OptionError",
    "OptionInfo",
    "Outcome",
    "RecordError",
    "Rng",
    "SengokuError",
    "SetupError",
    "Term",
    "TokenTree",
    "Tutorial",
    "TutorialError",
    "UndoReason",
    "UndoRefusal",
    "UndoRefusedError",
    "UnknownGameError",
    "action_to_json",
    "available_games",
    "describe_options",
    "determinize",
    "determinizer",
    "fresh_seed",
    "get_game",
    "message_from_json",
    "message_to_json",
    "msg",
    "new_match",
    "normalize_notation",
    "options_from_pairs",
    "options_to_json",
    "parse_options",
    "private",
    "public",
    "register",
    "registry_targets",
    "render",
    "unregister",
    "without_sources",
]
