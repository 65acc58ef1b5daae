"""The personal fields sealed under a key of their member's (crypto-shredding, see docs/privacy.md).

A case's question and a note's text are sealed under the author's casebook key; the birth year and
sex of a case and of a profile (with the profile's zone and place) under the member's birth key; a
case's place with its question. The keys
live in one small table, ``member_keys`` (a row per member: ``case_key``, ``birth_key``).
Deleting a member's cases or profile deletes that key, and the key table — a few dozen bytes a
member — is rewritten, so the key leaves the database's files. What is left of the deleted rows in
the free space of pages, in the WAL or in a backup is then ciphertext nobody can open.

AES-256-GCM (``cryptography``'s AESGCM): authenticated, so a damaged or misplaced value is
refused, never read as something else; each value is bound to its row (the associated data names
the field and the row) and has a random 96-bit nonce of its own.
"""

from __future__ import annotations

import json
import logging
import os

__all__ = ["KEY_BYTES", "birth_of", "load_cipher", "new_key", "seal", "seal_birth", "seal_text", "unseal",
           "unseal_text"]

KEY_BYTES = 32
_VERSION = b"\x01"
_NONCE = 12
log = logging.getLogger("bot")


def new_key() -> bytes:
    return os.urandom(KEY_BYTES)


def _aesgcm(key: bytes, nonce: bytes, data: bytes, bound_to: str, *, opening: bool) -> bytes | None:
    """AES-256-GCM under ``key``: ``data`` sealed, or opened (None when it does not open: its tag
    is wrong). cryptography's bindings are loaded here, by the first use (or ``load_cipher``), not
    by the bot's start."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if not opening:
        return AESGCM(key).encrypt(nonce, data, bound_to.encode())
    try:
        return AESGCM(key).decrypt(nonce, data, bound_to.encode())
    except InvalidTag:
        return None


def load_cipher() -> None:
    """Load the cipher's bindings now (the bot does once it is READY, so the first write does not)."""
    _aesgcm(bytes(KEY_BYTES), bytes(_NONCE), b"", "", opening=False)


def seal(key: bytes, plain: bytes, bound_to: str) -> bytes:
    """``plain`` sealed under ``key``, bound to ``bound_to`` (the field and its row)."""
    nonce = os.urandom(_NONCE)
    sealed = _aesgcm(key, nonce, plain, bound_to, opening=False)
    assert sealed is not None  # sealing always gives bytes
    return _VERSION + nonce + sealed


def unseal(key: bytes | None, sealed: bytes | None, bound_to: str) -> bytes | None:
    """What ``seal`` sealed; None when there is nothing sealed or its key was deleted (the value is
    gone: shredded). A value its key does not open is damaged: reported in the log, read as None."""
    if sealed is None or key is None:
        return None
    sealed = bytes(sealed)
    if sealed[:1] != _VERSION or len(sealed) < 1 + _NONCE + 16:
        log.error("store: the sealed %s is damaged (unknown form); it is read as empty", bound_to)
        return None
    plain = _aesgcm(bytes(key), sealed[1:1 + _NONCE], sealed[1 + _NONCE:], bound_to, opening=True)
    if plain is None:
        log.error("store: the sealed %s does not open with its member's key (damaged); it is read as empty",
                  bound_to)
    return plain


def seal_text(key: bytes, text: str | None, bound_to: str) -> bytes | None:
    return None if text is None else seal(key, text.encode(), bound_to)


def unseal_text(key: bytes | None, sealed: bytes | None, bound_to: str) -> str | None:
    plain = unseal(key, sealed, bound_to)
    return None if plain is None else plain.decode()


def seal_birth(key: bytes, birth_year: int | None, sex: str | None, bound_to: str,
               zone: str | None = None, place: str | None = None) -> bytes | None:
    """Birth year and sex (and a profile's zone and place, as stored) sealed together; None when
    there are none."""
    if birth_year is None and sex is None and zone is None and place is None:
        return None
    fields = [birth_year, sex, zone] if place is None else [birth_year, sex, zone, place]
    return seal(key, json.dumps(fields, ensure_ascii=False).encode(), bound_to)


def birth_of(key: bytes | None, sealed: bytes | None,
             bound_to: str) -> tuple[int | None, str | None, str | None, str | None]:
    """``seal_birth``'s birth year, sex, zone and place (all None when shredded or damaged; the place
    None in what was sealed before profiles kept one)."""
    plain = unseal(key, sealed, bound_to)
    if plain is None:
        return None, None, None, None
    year, sex, zone, *rest = json.loads(plain)
    place = rest[0] if rest else None
    return (None if year is None else int(year)), (None if sex is None else str(sex)), \
        (None if zone is None else str(zone)), (None if place is None else str(place))
