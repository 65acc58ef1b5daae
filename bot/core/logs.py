"""Logging: secrets (the bot token, interaction and webhook tokens) kept out of every log line,
and discord.py's voice warning silenced (the bot has no voice)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

__all__ = ["REDACTED", "RedactSecrets", "install_redaction", "silence_voice_warnings"]

REDACTED = "[REDACTED]"


# Interaction and webhook tokens travel in URLs (and gateway payloads): anyone holding one can
# answer as the bot for 15 minutes, so --debug logs must not show them.
_TOKEN_PATTERNS = (
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]{20,}"),
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
)


class RedactSecrets(logging.Filter):
    """Replaces each secret, and every interaction/webhook token, in a record's message,
    arguments and traceback with ``[REDACTED]``.

    Attach it to handlers: a handler filter sees every record that reaches the handler,
    including those propagated from child loggers (a logger filter would not).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def redact(self, value: str) -> str:
        for secret in self.secrets:
            value = value.replace(secret, REDACTED)
        for pattern in _TOKEN_PATTERNS:
            value = pattern.sub(lambda m: m.group(1) + REDACTED, value)
        return value

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = self.redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class _NoVoiceWarnings(logging.Filter):
    """Drops discord.py's "PyNaCl/davey is not installed, voice will NOT be supported": the bot has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


_NO_VOICE = _NoVoiceWarnings()


def silence_voice_warnings() -> None:
    logging.getLogger("discord.client").addFilter(_NO_VOICE)


def install_redaction(secrets: Iterable[str], handlers: Iterable[logging.Handler] | None = None) -> RedactSecrets:
    """Attach one ``RedactSecrets`` to ``handlers`` (default: every root handler); returns it."""
    redactor = RedactSecrets(secrets)
    for handler in handlers if handlers is not None else logging.getLogger().handlers:
        handler.addFilter(redactor)
    return redactor


