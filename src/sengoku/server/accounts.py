"""Accounts: people who sign in with a name and a password, and the browsers they are signed
in on (sessions). Accounts are optional: a seat link plays without one, as it always did.

What OWASP's cheat sheets ask, and where it is done:

- **Password storage**: argon2id (argon2-cffi) with OWASP's parameters, 19 MiB of memory, 2
  passes, 1 lane (:data:`HASHER`); a hash made with weaker parameters is made again at the
  next sign-in. Passwords are 8 to 128 characters, any characters, no composition rules.
- **Authentication**: the same answer for an unknown name and a wrong password, after the
  same work (a password is checked against a dummy hash when the name is unknown); repeated
  failures are slowed per account and per address (:class:`SignInLimits`, 429).
- **Sessions**: a session id of 256 random bits, stored only as its SHA-256 digest, made new
  at every sign-in and password change (so a session id planted before cannot be used after);
  it ends after an idle time and after a longest time, at sign-out, and when the host locks
  the account or resets its password.
- **CSRF**: each session has its own random token (the synchronizer token pattern), which
  every state change made with the session's cookie must carry in ``X-CSRF-Token``
  (:func:`~.dependencies.signed_in`).

Everything here is synchronous (it runs in worker threads) and does no HTTP: the routers in
``routers/accounts.py`` set and read the cookie.
"""

from __future__ import annotations

import math
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from .chat import clean_text, iso_time
from .errors import ApiError
from .limits import WindowLimit
from .models import AccountRow, SessionRow, utcnow
from .store import Store, digest

__all__ = [
    "HASHER",
    "LANGUAGES",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "Account",
    "Accounts",
    "SignInLimits",
    "SignedIn",
    "check_name",
    "check_password",
    "name_key",
]

#: argon2id with OWASP's Password Storage Cheat Sheet parameters (m=19 MiB, t=2, p=1).
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
PASSWORD_MIN, PASSWORD_MAX = 8, 128
#: the languages the pages speak (an account's choice)
LANGUAGES = ("en", "ja", "zh", "nl")
DISPLAY_MAX = 40
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,23}")
#: checked when a name is unknown, so that an unknown name costs what a wrong password costs
_DUMMY_HASH = HASHER.hash(secrets.token_hex(16))
#: a session's last use is written at most this often (each request would be a write)
_TOUCH_EVERY = timedelta(minutes=5)


#: The one answer to a sign-in with an unknown name or a wrong password.
BAD_CREDENTIALS = ("bad_credentials", "the name or the password is wrong")


@dataclass(frozen=True)
class Account:
    """An account as the server uses it (never its password hash)."""

    id: int
    name: str
    display_name: str
    language: str
    kind: str
    created_at: str

    def to_json(self) -> dict[str, Any]:
        """What the account's owner sees of it."""
        return {
            "name": self.name,
            "display_name": self.display_name,
            "language": self.language,
            "created_at": self.created_at,
        }


@dataclass(frozen=True)
class SignedIn:
    """A live session: whose it is, the digest of its id, and its CSRF token."""

    account: Account
    session_digest: str
    csrf: str


def name_key(name: str) -> str:
    """The form a name is unique in: ``Ann`` and ``ann`` are one account.

    >>> name_key("Ann_7")
    'ann_7'
    """
    return name.casefold()


def check_name(name: Any) -> str:
    """A valid account name: 3 to 24 letters, digits, ``_`` or ``-``, starting with a letter
    or digit; else ``bad_name``.

    >>> check_name("Ann_7")
    'Ann_7'
    >>> try:
    ...     check_name("a b")
    ... except ApiError as error:
    ...     print(error.code)
    bad_name
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ApiError(
            422,
            "bad_name",
            "a name has 3 to 24 letters (a-z), digits, _ or -, and starts with a letter or digit",
        )
    return name


def check_password(password: Any) -> str:
    """A password the server takes: 8 to 128 characters (OWASP: length, not composition)."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            422,
            "bad_password",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
        )
    return password


def check_display_name(text: Any) -> str:
    """A display name as it is stored: cleaned as chat text is, 1 to 40 characters."""
    cleaned = clean_text(unicodedata.normalize("NFC", text)) if isinstance(text, str) else ""
    if not 1 <= len(cleaned) <= DISPLAY_MAX:
        raise ApiError(422, "bad_display_name", f"a display name has 1 to {DISPLAY_MAX} characters")
    return cleaned


def check_language(language: Any) -> str:
    """One of :data:`LANGUAGES`."""
    if language not in LANGUAGES:
        raise ApiError(422, "bad_language", f"the language is one of {', '.join(LANGUAGES)}")
    return str(language)


class Accounts:
    """The accounts and sessions of a server's database."""

    def __init__(self, store: Store, idle_seconds: float, max_seconds: float) -> None:
        self.store = store
        self.idle = timedelta(seconds=idle_seconds)
        self.longest = timedelta(seconds=max_seconds)

    # -- accounts ------------------------------------------------------------------------

    def sign_up(
        self, name: str, password: str, display_name: str | None, language: str
    ) -> tuple[SignedIn, str]:
        """Make an account and sign it in; returns the session and its id (for the cookie).
        ``name_taken`` (409) if the name (in any case) has an account."""
        check_name(name)
        check_password(password)
        shown = check_display_name(display_name if display_name else name)
        check_language(language)
        hashed = HASHER.hash(password)
        try:
            with self.store.writing() as session:
                row = AccountRow(
                    name=name,
                    name_key=name_key(name),
                    display_name=shown,
                    kind="person",
                    password_hash=hashed,
                    language=language,
                    locked=False,
                    created_at=utcnow(),
                )
                session.add(row)
                session.flush()
                account_id = row.id
        except IntegrityError:
            raise ApiError(409, "name_taken", f"the name {name!r} is taken") from None
        return self._new_session(account_id)

    def sign_in(
        self, name: Any, password: Any, replacing: str | None = None
    ) -> tuple[SignedIn, str]:
        """Check a name and password and make a new session (ending the session
        ``replacing``, the id the browser held before, if any). Raises ``bad_credentials``
        (401) for an unknown name or a wrong password alike, ``account_locked`` (403) for a
        locked account with the right password."""
        row = None
        if isinstance(name, str) and isinstance(password, str) and len(name) <= 64:
            with self.store.reading() as session:
                row = session.scalar(
                    select(AccountRow).where(
                        AccountRow.name_key == name_key(name), AccountRow.kind == "person"
                    )
                )
        stored = row.password_hash if row is not None and row.password_hash else _DUMMY_HASH
        if not _verify(stored, password if isinstance(password, str) else "") or row is None:
            raise ApiError(401, *BAD_CREDENTIALS)
        if row.locked:
            raise ApiError(403, "account_locked", "this account is locked; ask the host")
        if HASHER.check_needs_rehash(stored):
            self._set_hash(row.id, HASHER.hash(password))
        if replacing:
            self.sign_out(replacing)
        return self._new_session(row.id)

    def change_password(self, signed: SignedIn, old: Any, new: Any) -> tuple[SignedIn, str]:
        """Change the password of the signed-in account, given the current one: every
        session of the account ends and this browser gets a new one."""
        check_password(new)
        with self.store.reading() as session:
            stored = session.scalar(
                select(AccountRow.password_hash).where(AccountRow.id == signed.account.id)
            )
        if not stored or not _verify(stored, old if isinstance(old, str) else ""):
            raise ApiError(403, "bad_credentials", "the current password is wrong")
        self._set_hash(signed.account.id, HASHER.hash(new), end_sessions=True)
        return self._new_session(signed.account.id)

    def update(self, account_id: int, display_name: str | None, language: str | None) -> Account:
        """Change the display name or the language of an account."""
        values: dict[str, Any] = {}
        if display_name is not None:
            values["display_name"] = check_display_name(display_name)
        if language is not None:
            values["language"] = check_language(language)
        with self.store.writing() as session:
            if values:
                session.execute(
                    update(AccountRow).where(AccountRow.id == account_id).values(values)
                )
            row = session.get(AccountRow, account_id)
            assert row is not None
            return _account(row)

    def find(self, name: str) -> Account | None:
        """The account (a person's, or a bot level's ``bot:<level>``) with that name."""
        if len(name) > 64:
            return None
        with self.store.reading() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            return None if row is None else _account(row)

    # -- the host's tools (the CLI) ------------------------------------------------------------

    def reset_password(self, name: str, password: str) -> None:
        """Give an account a new password (the host's tool): its sessions end."""
        check_password(password)
        account = self._person(name)
        self._set_hash(account.id, HASHER.hash(password), end_sessions=True)

    def set_locked(self, name: str, locked: bool) -> None:
        """Lock an account (it cannot sign in; its sessions end) or unlock it."""
        account = self._person(name)
        with self.store.writing() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account.id).values(locked=locked)
            )
            if locked:
                session.execute(delete(SessionRow).where(SessionRow.account_id == account.id))

    def people(self) -> list[tuple[Account, bool]]:
        """Every person's account, with whether it is locked."""
        with self.store.reading() as session:
            rows = session.scalars(
                select(AccountRow).where(AccountRow.kind == "person").order_by(AccountRow.id)
            )
            return [(_account(row), bool(row.locked)) for row in rows]

    # -- sessions ----------------------------------------------------------------------------

    def session(self, session_id: str) -> SignedIn | None:
        """The live session with that id (``None``: none, ended, or its account locked)."""
        if not session_id or len(session_id) > 128:
            return None
        key = digest(session_id)
        now = utcnow()
        with self.store.reading() as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_digest == key)
            ).first()
        if found is None:
            return None
        row, account = found
        created, seen = _aware(row.created_at), _aware(row.seen_at)
        if account.locked or now - seen > self.idle or now - created > self.longest:
            self.sign_out(session_id)
            return None
        if now - seen > _TOUCH_EVERY:
            with self.store.writing() as session:
                session.execute(
                    update(SessionRow).where(SessionRow.id_digest == key).values(seen_at=now)
                )
        return SignedIn(_account(account), key, row.csrf)

    def sign_out(self, session_id: str) -> None:
        """End the session with that id (nothing if there is none)."""
        with self.store.writing() as session:
            session.execute(delete(SessionRow).where(SessionRow.id_digest == digest(session_id)))

    def _new_session(self, account_id: int) -> tuple[SignedIn, str]:
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        now = utcnow()
        with self.store.writing() as session:
            stale = now - min(self.idle, self.longest)
            session.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.seen_at < stale
                )
            )
            session.add(
                SessionRow(
                    id_digest=digest(session_id),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=now,
                    seen_at=now,
                )
            )
            row = session.get(AccountRow, account_id)
            assert row is not None
            account = _account(row)
        return SignedIn(account, digest(session_id), csrf), session_id

    def _set_hash(self, account_id: int, hashed: str, end_sessions: bool = False) -> None:
        with self.store.writing() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed)
            )
            if end_sessions:
                session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    def _person(self, name: str) -> Account:
        account = self.find(name)
        if account is None or account.kind != "person":
            raise ApiError(404, "unknown_player", f"there is no player {name[:40]!r}")
        return account


class SignInLimits:
    """Slows repeated sign-ins: at most ``per_address`` attempts a minute from one address,
    and after ``failures`` wrong passwords for one name within ``window`` seconds, no more
    tries for that name until the oldest of them is ``window`` old (whether or not the name
    has an account, so the limit tells nothing either). In memory, per server process."""

    def __init__(self, per_address: int, failures: int, window: float = 900.0) -> None:
        self.attempts = WindowLimit(per_address, 60.0)
        self.failures = WindowLimit(failures, window)

    def check(self, address: str, name: Any) -> int | None:
        """Count an attempt; the seconds to wait if it is one too many (``None``: go on)."""
        if not self.attempts.take(address):
            return max(1, math.ceil(self.attempts.wait(address)))
        wait = self.failures.wait(_limit_key(name))
        return max(1, math.ceil(wait)) if wait > 0 else None

    def failed(self, name: Any) -> None:
        """A wrong password (or an unknown name) for ``name``."""
        self.failures.add(_limit_key(name))

    def succeeded(self, name: str) -> None:
        """The right password: the name's failures are forgotten."""
        self.failures.forget(_limit_key(name))


def _limit_key(name: Any) -> str:
    return name_key(name[:64]) if isinstance(name, str) else ""


def _verify(stored: str, password: str) -> bool:
    try:
        return bool(HASHER.verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


def _aware(moment: datetime) -> datetime:
    """SQLite gives its timestamps back without a zone: they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _account(row: AccountRow) -> Account:
    return Account(
        row.id, row.name, row.display_name, row.language, row.kind, iso_time(row.created_at)
    )
