"""Typed, documented, validated game options.

Each game declares its options as one :class:`GameOptions` subclass: a frozen ``msgspec``
struct whose fields carry a type, a default and a description (``msgspec.Meta``). The
description of a rule option names its source and certainty, so ``sengoku games``, the
server's ``GET /api/games`` and ``docs/`` can show it.

>>> import enum
>>> from typing import Annotated
>>> from msgspec import Meta
>>> class Side(enum.Enum):
...     SUN = "sun"
...     MOON = "moon"
>>> class Demo(GameOptions):
...     years: Annotated[int, Meta(ge=1, le=5, description="Years to play.")] = 2
...     board: Annotated[Side, Meta(description="Board side.")] = Side.SUN
>>> parse_options(Demo, {"board": "moon"})
Demo(years=2, board=<Side.MOON: 'moon'>)
>>> options_to_json(parse_options(Demo, None))
{'years': 2, 'board': 'sun'}
>>> parse_options(Demo, {"yeers": 3})
Traceback (most recent call last):
...
sengoku.core.errors.OptionError: unknown option 'yeers'; known options: years, board
>>> parse_options(Demo, {"years": 0})
Traceback (most recent call last):
...
sengoku.core.errors.OptionError: option 'years': Expected `int` >= 1
"""

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from .errors import OptionError


class GameOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base class of every game's options: subclass it and declare typed fields with defaults."""


OptionsT = TypeVar("OptionsT", bound=GameOptions)

_UNKNOWN = re.compile(r"Object contains unknown field `(?P<name>[^`]*)`")
_AT = re.compile(r"^(?P<msg>.*?) - at `\$\.(?P<name>[^`.\[]+)(?P<rest>[^`]*)`$")


def parse_options(cls: type[OptionsT], raw: Mapping[str, Any] | OptionsT | None) -> OptionsT:
    """Validate ``raw`` (a mapping of option names to JSON-like values) into ``cls``.

    Unknown names, wrong types and out-of-range values raise :class:`OptionError`; nothing is
    silently ignored or coerced (``"3"`` is not ``3``, ``1`` is not ``True``).
    """
    if raw is None:
        return cls()
    if isinstance(raw, cls):
        return raw
    if not isinstance(raw, Mapping):
        raise OptionError(f"options must be a mapping of names to values, not {type(raw).__name__}")
    for key in raw:
        if not isinstance(key, str):
            raise OptionError(f"option names must be strings, not {key!r}")
    try:
        return msgspec.convert(dict(raw), cls)
    except msgspec.ValidationError as exc:
        raise OptionError(_explain(cls, str(exc))) from None


def _explain(cls: type[GameOptions], message: str) -> str:
    unknown = _UNKNOWN.search(message)
    if unknown:
        known = ", ".join(f.name for f in msgspec.structs.fields(cls)) or "none"
        return f"unknown option {unknown['name']!r}; known options: {known}"
    at = _AT.match(message)
    if at:
        return f"option {at['name']!r}{at['rest']}: {at['msg']}"
    return f"bad options: {message}"


def options_from_pairs(pairs: Iterable[str]) -> dict[str, Any]:
    """Options written as ``NAME=VALUE`` (the command line's ``-o``): each value read as JSON
    where it is JSON (``3``, ``true``, ``"sun"``), else kept as text.

    >>> options_from_pairs(["years=2", "board=moon", "open_hands=true"])
    {'years': 2, 'board': 'moon', 'open_hands': True}
    >>> options_from_pairs(["years"])
    Traceback (most recent call last):
    sengoku.core.errors.OptionError: an option is NAME=VALUE, not 'years'
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"an option is NAME=VALUE, not {pair!r}")
        try:
            options[name.strip()] = json.loads(text)
        except json.JSONDecodeError:
            options[name.strip()] = text
    return options


def options_to_json(options: GameOptions) -> dict[str, Any]:
    """Return the options as JSON data: what ``json.loads`` would give (enums become their
    values, tuples become lists)."""
    result: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(options))
    return result


@dataclass(frozen=True)
class OptionInfo:
    """What a person needs to know about one option."""

    name: str
    default: Any
    description: str
    schema: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """Return this option as a JSON-ready dict."""
        return {
            "name": self.name,
            "default": self.default,
            "description": self.description,
            "schema": self.schema,
        }


def describe_options(cls: type[GameOptions]) -> list[OptionInfo]:
    """List the options of ``cls`` in declaration order with defaults, docs and JSON schema."""
    schema = msgspec.json.schema(cls)
    defs = schema.get("$defs", {})
    props = defs[cls.__name__]["properties"]
    infos = []
    for field in msgspec.structs.fields(cls):
        prop = dict(props[field.encode_name])
        ref = prop.pop("$ref", None)
        if ref is not None:  # inline enum definitions so each option stands alone
            prop.update({k: v for k, v in defs[ref.rsplit("/", 1)[1]].items() if k != "title"})
        description = prop.pop("description", "")
        infos.append(OptionInfo(field.name, prop.get("default"), description, prop))
    return infos
