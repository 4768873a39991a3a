"""Messages: log lines (and action descriptions) as a catalog key with typed arguments.

A game does not write a log line as finished English. It writes a :class:`Message`: a key
into its catalog (``"shogun.log.attacks"``) and arguments. An argument is a number, a
:class:`Term` (another catalog key: a province, a colour, a troop kind), a nested
:class:`Message`, or :class:`Items` (a list joined by a catalog separator). The catalog of a
language holds one template per key, with ``{name}`` placeholders, so English and every
translation render from the same data, in Python (:func:`render`) and in the browser
(``web/i18n.js``'s ``say``) alike, by the same steps:

1. look the key up in the catalog; a key the catalog lacks renders as itself;
2. choose the form of each plural, ``{name, plural, one {# token} other {# tokens}}``
   (ICU MessageFormat's form, without nesting): the branch ``=N`` for the number N, else its
   plural category (``one`` for 1 and ``other`` for the rest in English and Dutch, CLDR's
   rule for whole numbers; Japanese and Chinese have ``other`` alone, so their catalogs use
   no ``one`` and the browser's ``Intl.PluralRules`` agrees), else ``other``; ``#`` in it
   stands for the number;
3. replace each ``{name}`` by its argument, rendered the same way (a number as digits, a
   plain string as it is, a term by its own catalog entry, items joined by the separator's
   entry); a placeholder without an argument stays as it is.

A :class:`Term` may name the seat it stands for (``seat=2``), so a log can be filtered by
seat without reading its text. :func:`message_to_json` is the wire form (docs/protocol.md).

>>> catalog = {"g.log.moves": "{c} moves {n} to {p}", "g.colour.red": "Red",
...            "g.province.edo": "Edo", "ui.sep.comma": ", "}
>>> line = msg("g.log.moves", c=Term("g.colour.red", seat=0), n=3, p=Term("g.province.edo"))
>>> render(line, catalog)
'Red moves 3 to Edo'
>>> message_to_json(line)["args"]["c"]
{'t': 'g.colour.red', 'seat': 0}
>>> render(Items((Term("g.province.edo"), 2)), catalog)
'Edo, 2'
>>> sorted(seats_named(line))
[0]
>>> catalog["g.log.tokens"] = "{c} takes {n, plural, =0 {no token} one {# token} other {# tokens}}"
>>> [render(msg("g.log.tokens", c=Term("g.colour.red"), n=n), catalog) for n in (0, 1, 2)]
['Red takes no token', 'Red takes 1 token', 'Red takes 2 tokens']
>>> sorted(placeholders(catalog["g.log.tokens"]))
['c', 'n']
>>> message_from_json(message_to_json(line)) == line
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple, Union

#: What a placeholder may stand for.
Arg = Union[int, str, "Term", "Message", "Items"]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_PLURAL = re.compile(r"\{(\w+), plural,")
_NAMES = re.compile(r"\{(\w+)(?:\}|, plural,)")


def placeholders(template: str) -> set[str]:
    """The argument names a template uses, in placeholders and plurals."""
    return set(_NAMES.findall(template))


def plural_forms(template: str, start: int) -> tuple[dict[str, str], int]:
    """The branches of the plural whose ``{name, plural,`` ends at ``start``, by selector
    (``one``, ``other``, ``=0``), and where the plural ends.

    >>> plural_forms("{n, plural, one {# cat} other {# cats}}!", 11)
    ({'one': '# cat', 'other': '# cats'}, 39)
    """
    forms: dict[str, str] = {}
    at = start
    while True:
        opening = template.find("{", at)
        closing = template.find("}", at)
        if closing < 0:
            raise ValueError(f"an unclosed plural in {template!r}")
        if opening < 0 or closing < opening:  # the plural's own closing brace
            if template[at:closing].strip():
                raise ValueError(f"a selector without a form in {template!r}")
            return forms, closing + 1
        depth, end = 1, opening + 1
        while depth:
            if end == len(template):
                raise ValueError(f"an unclosed form in {template!r}")
            depth += {"{": 1, "}": -1}.get(template[end], 0)
            end += 1
        forms[template[at:opening].strip()] = template[opening + 1 : end - 1]
        at = end


def _category(n: int) -> str:
    """CLDR's plural category of a whole number in English and Dutch (see the module)."""
    return "one" if n == 1 else "other"


class Term(NamedTuple):
    """A word from the catalog (``"shogun.province.owari"``), optionally naming a seat."""

    key: str
    seat: int | None = None


class Items(NamedTuple):
    """Several arguments shown as one, joined by the catalog's entry ``sep``."""

    items: tuple[Arg, ...]
    sep: str = "ui.sep.comma"


class Message(NamedTuple):
    """A catalog key and the arguments its template's placeholders stand for."""

    key: str
    args: Mapping[str, Arg]


#: ``tuple.__new__``: a named tuple made through it skips the class's ``__new__``, a Python
#: function, for the games make messages and log lines at every action.
_make = tuple.__new__


def msg(key: str, **args: Arg) -> Message:
    """A :class:`Message` from keyword arguments: ``msg("shogun.log.tie", p=Term(...))``."""
    return _make(Message, (key, args))


def render(value: Arg, catalog: Mapping[str, str]) -> str:
    """The text of a message or argument in ``catalog``'s language (see the module's rules)."""
    if isinstance(value, Message):
        template = catalog.get(value.key, value.key)
        args = value.args
        if not args:
            return template
        if ", plural," in template:
            template = _choose_forms(template, args)
        return _PLACEHOLDER.sub(
            lambda m: render(args[m[1]], catalog) if m[1] in args else m[0], template
        )
    if isinstance(value, Term):
        return catalog.get(value.key, value.key)
    if isinstance(value, Items):
        sep = catalog.get(value.sep, value.sep)
        return sep.join(render(item, catalog) for item in value.items)
    if isinstance(value, bool):
        raise TypeError("a message argument is not a bool")
    return str(value)


def _choose_forms(template: str, args: Mapping[str, Arg]) -> str:
    """The template with each plural replaced by the form its number takes (step 2)."""
    out: list[str] = []
    at = 0
    while found := _PLURAL.search(template, at):
        forms, end = plural_forms(template, found.end())
        out.append(template[at : found.start()])
        n = args.get(found[1])
        if isinstance(n, int) and not isinstance(n, bool):
            form = forms.get(f"={n}", forms.get(_category(n), forms.get("other", "")))
            out.append(form.replace("#", str(n)))
        else:  # no number to choose by: left as it is, as a placeholder without an argument
            out.append(template[found.start() : end])
        at = end
    out.append(template[at:])
    return "".join(out)


def message_from_json(data: Any) -> Arg:
    """The inverse of :func:`message_to_json`."""
    if isinstance(data, dict):
        if "key" in data:
            return msg(data["key"], **{k: message_from_json(v) for k, v in data["args"].items()})
        if "t" in data:
            return Term(data["t"], data.get("seat"))
        return Items(tuple(message_from_json(v) for v in data["items"]), data["sep"])
    if isinstance(data, int | str) and not isinstance(data, bool):
        return data
    raise ValueError(f"not a message's wire form: {data!r}")


def message_to_json(value: Arg) -> Any:
    """The wire form: a message as ``{"key", "args"}``, a term as ``{"t"}`` (with ``"seat"``
    when it names one), items as ``{"items", "sep"}``, numbers and strings as they are."""
    if isinstance(value, Message):
        return {"key": value.key, "args": {k: message_to_json(v) for k, v in value.args.items()}}
    if isinstance(value, Term):
        return {"t": value.key} if value.seat is None else {"t": value.key, "seat": value.seat}
    if isinstance(value, Items):
        return {"items": [message_to_json(v) for v in value.items], "sep": value.sep}
    return value


def walk(value: Arg) -> Iterator[Arg]:
    """The value and, depth first, every argument inside it."""
    yield value
    if isinstance(value, Message):
        for arg in value.args.values():
            yield from walk(arg)
    elif isinstance(value, Items):
        for item in value.items:
            yield from walk(item)


def seats_named(value: Arg) -> set[int]:
    """The seats the terms inside ``value`` name."""
    return {v.seat for v in walk(value) if isinstance(v, Term) and v.seat is not None}


def keys_used(value: Arg) -> set[str]:
    """Every catalog key ``value`` needs: its messages', terms' and separators'."""
    found: set[str] = set()
    for v in walk(value):
        if isinstance(v, Message | Term):
            found.add(v.key)
        elif isinstance(v, Items):
            found.add(v.sep)
    return found
