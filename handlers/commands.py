"""Every command the bot answers, where it answers it, and the function that does it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from handlers import game_cancel, info, language_menu, lobby, settings_menu
from handlers.context import Rooms
from handlers.updates import CommandMsg

Handler = Callable[[Rooms, CommandMsg, str], None]


@dataclass(frozen=True)
class Command:
    name: str
    group: Handler | None = None  # in a group chat
    private: Handler | None = None  # in the private chat with the bot


COMMANDS: tuple[Command, ...] = (
    Command("newgame", group=lobby.cmd_newgame),
    Command("start", private=lobby.cmd_start_private),
    Command("startgame", group=lobby.cmd_startgame),
    Command("cancel", group=game_cancel.cmd_cancel),
    Command("settings", group=settings_menu.cmd_settings),
    Command("language", group=language_menu.cmd_language, private=language_menu.cmd_language),
    Command("status", group=info.cmd_status),
    Command("notes", private=info.cmd_notes),
    Command("rules", group=info.cmd_rules, private=info.cmd_rules),
    Command("help", group=info.cmd_help, private=info.cmd_help),
    Command("scores", group=info.cmd_scores),
)
BY_NAME = {c.name: c for c in COMMANDS}
GROUP_COMMANDS = {c.name for c in COMMANDS if c.group}
PRIVATE_COMMANDS = {c.name for c in COMMANDS if c.private}
