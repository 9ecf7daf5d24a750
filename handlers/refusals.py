"""Why a command was refused, as types, and the one place that turns each into catalog text."""

from __future__ import annotations

from typing import Any

from engine.setup import MIN_PLAYERS
from handlers.i18n import t
from handlers.outbox import fit_answer


class Refusal(Exception):
    """A command that cannot be done as asked; ``alert`` shows the answer as a dialog."""

    key = ""
    alert = False

    def params(self) -> dict[str, Any]:
        return {}

    def params_in(self, lang: str) -> dict[str, Any]:
        """The parameters as said in ``lang``."""
        return self.params()


class AlreadyRunning(Refusal):
    key = "lobby.already_running"


class NoLobby(Refusal):
    key = "lobby.no_lobby"


class NoGame(Refusal):
    key = "lobby.no_game"


class LobbyNotOpen(Refusal):
    key = "lobby.not_open"


class NotMember(Refusal):
    """A join link forwarded outside the group: only its members take seats."""

    key = "lobby.not_member"


class AlreadyJoined(Refusal):
    key = "lobby.already_joined"


class LobbyFull(Refusal):
    key = "lobby.full"


class InOtherGame(Refusal):
    key = "lobby.in_other_game"


class NotManager(Refusal):
    """Only the game's creator or a group admin may start or cancel it."""

    key = "lobby.only_creator"
    alert = True


class CancelVote(Refusal):
    """/cancel of a game under way by one of its players: counted, not yet enough."""

    key = "lobby.cancel_vote"

    def __init__(self, have: int = 0, need: int = 0) -> None:
        super().__init__(have, need)
        self.have, self.need = have, need

    def params(self) -> dict[str, Any]:
        return {"have": self.have, "need": self.need}


class NotAdmin(Refusal):
    """Settings are changed by the game's creator or a group admin."""

    key = "settings.only_admin"
    alert = True


class TooFew(Refusal):
    key = "lobby.too_few"
    alert = True

    def params(self) -> dict[str, Any]:
        return {"min": MIN_PLAYERS}


class Stale(Refusal):
    """A button of a decision, a game or a lobby that is over."""

    key = "bot.stale"


class NotInGame(Refusal):
    key = "bot.not_in_game"


class Illegal(Refusal):
    key = "bot.illegal"


class AheadPaused(Refusal):
    """A press on "your turn is next" while it is paused (engine.premove): the message keeps its
    buttons while paused (issue 27: no edit to pause it and none to open it again), so the press
    is answered with why it waits (``handlers.ahead_message.pause_reason``: its catalog key and
    parameters; a parameter naming a key, "what", is said in the reader's language). A toast,
    not a dialog to dismiss at every press during a fight: it fits one (``toast``)."""

    key = "game.turn.next_paused"

    def __init__(self, name: str = "", key: str = "", words: dict[str, str] | None = None) -> None:
        super().__init__(name)
        self.name = name  # whose turn is still being played
        if key:
            self.key = key
        self.words = dict(words or {})

    def params(self) -> dict[str, Any]:
        return {"name": self.name, **self.words}

    def params_in(self, lang: str) -> dict[str, Any]:
        out = self.params()
        if "what" in out:
            out["what"] = t(lang, out["what"])
        return out


def text(lang: str, refusal: Refusal) -> str:
    return t(lang, refusal.key, **refusal.params_in(lang))


def toast(lang: str, refusal: Refusal) -> tuple[str, bool]:
    """The callback answer for a refused button press, within Telegram's 200 characters (a
    long name in it would have the answer refused)."""
    return fit_answer(text(lang, refusal)), refusal.alert
