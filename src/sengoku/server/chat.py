"""Chat and rematch: the rules a chat message meets, and the keys of a rematch's seats.

A chat message is plain text: the server cleans it (:func:`clean_text`), checks its length
and the sender's rate (:class:`ChatLimit`), stores it with the match and passes it, as it is,
to every client of the match; clients show it as text, never as markup.

A rematch's seats are opened with keys derived from the old match's keys
(:func:`rematch_token`): the server stores only digests of keys, so it cannot hand a player a
new key it made earlier, but it can make the same one again whenever that player shows their
old key. No other player's key, and nothing stored, gives it away.
"""

from __future__ import annotations

import base64
import hmac
import time
import unicodedata
from collections import deque
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "CHAT_MAX_CHARS",
    "CHAT_RATE",
    "CHAT_RECENT",
    "SPECTATOR_NAME",
    "ChatError",
    "ChatLimit",
    "chat_message",
    "check_text",
    "clean_text",
    "iso_time",
    "rematch_token",
]

#: The longest chat message, in characters (after cleaning).
CHAT_MAX_CHARS = 500
#: At most this many chat messages per connection in this many seconds.
CHAT_RATE = (5, 10.0)
#: How many of the latest chat messages come with the welcome.
CHAT_RECENT = 50
#: The name a spectator's messages carry.
SPECTATOR_NAME = "Spectator"

# Bidirectional overrides and isolates can make a message show other text than it holds.
_BIDI = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C], None
)


class ChatError(Exception):
    """A chat message refused (``code``: why, for the client; nothing was stored or sent)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def clean_text(text: str) -> str:
    """The text of a chat message as it is stored and sent: line breaks and tabs become
    spaces, other control characters and bidirectional overrides are removed, and the
    ends are stripped. Markup stays as it is (clients show it as text).

    >>> clean_text("  hello\\n\\tthere\\x00\\u202e! ")
    'hello  there!'
    >>> clean_text("<b>hi</b>")
    '<b>hi</b>'
    """
    text = text.replace("\r\n", " ").translate({10: " ", 13: " ", 9: " "}).translate(_BIDI)
    return "".join(c for c in text if unicodedata.category(c) != "Cc").strip()


def check_text(text: Any) -> str:
    """The cleaned text, or :class:`ChatError` (``chat_empty``, ``chat_too_long``,
    ``bad_message``)."""
    if not isinstance(text, str):
        raise ChatError("bad_message", 'a chat message is {"type": "chat", "text": "..."}')
    cleaned = clean_text(text)
    if not cleaned:
        raise ChatError("chat_empty", "the message is empty")
    if len(cleaned) > CHAT_MAX_CHARS:
        raise ChatError(
            "chat_too_long",
            f"a chat message has at most {CHAT_MAX_CHARS} characters; this one has {len(cleaned)}",
        )
    return cleaned


class ChatLimit:
    """At most ``count`` messages in any ``window`` seconds (one per connection)."""

    def __init__(self, count: int = CHAT_RATE[0], window: float = CHAT_RATE[1]) -> None:
        self.count, self.window = count, window
        self.sent: deque[float] = deque()

    def check(self) -> None:
        """Raise ``chat_rate`` when a message now would be one too many."""
        now = time.monotonic()
        while self.sent and self.sent[0] <= now - self.window:
            self.sent.popleft()
        if len(self.sent) >= self.count:
            wait = max(1, round(self.sent[0] + self.window - now + 0.5))
            raise ChatError(
                "chat_rate",
                f"at most {self.count} chat messages every {self.window:g} seconds; wait {wait} s",
            )

    def spend(self) -> None:
        """Count a message that was sent."""
        self.sent.append(time.monotonic())


def iso_time(moment: datetime) -> str:
    """A moment in UTC as ISO 8601 with milliseconds: ``2026-12-10T09:30:00.250Z``
    (a naive moment, as SQLite gives them back, is taken to be UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def chat_message(
    seat: int | None, name: str, text: str, at: datetime, kind: str = "text"
) -> dict[str, Any]:
    """A chat message as clients get it; ``kind="hint"`` is the note (no text) that
    ``seat`` asked the advisor for a hint, which everyone in the match is told."""
    message = {"type": "chat", "seat": seat, "name": name, "text": text, "at": iso_time(at)}
    if kind != "text":
        message["kind"] = kind
    return message


def rematch_token(old_token: str, match_id: str, seat: int | None) -> str:
    """The key to ``seat`` (``None``: the host) of rematch ``match_id`` for whoever holds
    ``old_token``, the key to that seat (or the host's) in the old match: 192 bits, like
    every key, the same each time it is asked for.

    >>> a = rematch_token("old-key", "M1", 0)
    >>> a == rematch_token("old-key", "M1", 0) != rematch_token("old-key", "M1", None)
    True
    >>> len(a)
    32
    """
    role = "host" if seat is None else f"seat {seat}"
    mac = hmac.new(old_token.encode(), f"sengoku rematch {match_id} {role}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()
