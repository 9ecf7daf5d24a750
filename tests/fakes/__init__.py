"""Fakes for tests: an in-memory Telegram Bot API and builders of Telegram updates."""

from tests.fakes.bot_api import ApiViolation, BotApiSpec, FakeMessage, RecordingRequest

__all__ = ["ApiViolation", "BotApiSpec", "FakeMessage", "RecordingRequest"]
