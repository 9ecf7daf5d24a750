"""The bot: Telegram updates and timers in, each routed to the one function that handles it.

A button press flows one way: ``handle_update`` → ``updates.parse`` → ``callback_data.parse`` →
the room's handler (``game_room``, ``lobby``, ``settings_menu``, ``language_menu``) → the
pipeline (load, engine, render, commit, answer, deliver). Commands go through ``commands``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from handlers import (
    callback_data,
    chat_moves,
    game_room,
    language_menu,
    lobby,
    settings_menu,
    unit_of_work,
)
from handlers.callback_data import (
    AheadButton,
    BackButton,
    GameButton,
    LanguageButton,
    LobbyButton,
    SettingsButton,
)
from handlers.commands import BY_NAME, PRIVATE_COMMANDS
from handlers.delivery import RateLimiter
from handlers.i18n import t
from handlers.pipeline import Pipeline
from handlers.transaction import DEFAULT_BUDGET_SECONDS, handling
from handlers.updates import (
    AnonymousCommand,
    BotMembership,
    ButtonPress,
    ChatMoved,
    CommandMsg,
    MemberLeft,
    User,
    parse,
)
from infra import metrics
from infra.ports import Clock, DocumentStore, Messenger, TimerRequest, Timers, deadline_scope

log = logging.getLogger("coachride")


class CoachRideBot:
    def __init__(
        self,
        store: DocumentStore,
        messenger: Messenger,
        timers: Timers,
        clock: Clock,
        *,
        bot_username: str,
        time_scale: float = 1.0,
        is_admin: Callable[[int, int], bool] | None = None,
        is_member: Callable[[int, int], bool] | None = None,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
        deal_seeds: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        # Where each game's secret seed comes from: the operating system's generator; tests
        # that replay a game by its number give their own.
        self.deal_seeds = deal_seeds or (lambda: lobby.new_deal_seed())
        self.timers = timers
        self.clock = clock
        self.bot_username = bot_username
        self.scale = time_scale
        self.pipeline = Pipeline(store, messenger, timers, clock, limiter=limiter, sleep=sleep)
        self.pipeline.follow_moves = lambda key, moved: chat_moves.follow(self, key, moved)
        # Direct replies go through the update's marker: a redelivery never speaks twice.
        self.messenger: Messenger = self.pipeline.replies
        self.is_admin = is_admin or (lambda chat, user: False)
        # whether a user may take a seat in the group's lobby (a forwarded join link): without
        # a way to ask Telegram (the local table, tests), everyone may
        self.is_member = is_member or (lambda chat, user: True)

    def _deadline(self, seconds_left: float | None) -> float:
        return self.clock.now() + (DEFAULT_BUDGET_SECONDS if seconds_left is None else seconds_left)

    # -- entry points ------------------------------------------------------------------------
    def handle_update(self, update: Any, seconds_left: float | None = None) -> None:
        """``seconds_left``: of the invocation (the Lambda's remaining time), for every wait."""
        tally = metrics.adopt()
        cmd = parse(update, self.bot_username)
        outcome = "ignored"
        try:
            with (
                deadline_scope(self._deadline(seconds_left), self.clock),
                handling(cmd.update_id if cmd else None, _sender(cmd)),
            ):
                if isinstance(cmd, ButtonPress):
                    outcome = self._press(cmd)
                elif isinstance(cmd, CommandMsg):
                    outcome = self._command(cmd)
                elif isinstance(cmd, MemberLeft):
                    outcome = self._left(cmd)
                elif isinstance(cmd, ChatMoved):
                    outcome = chat_moves.moved(self, cmd)
                elif isinstance(cmd, BotMembership):
                    outcome = chat_moves.membership(self, cmd)
                elif isinstance(cmd, AnonymousCommand):
                    outcome = self._anonymous(cmd)
        except Exception:
            outcome = "error"
            log.exception("update failed")
        fields = {
            "update_id": update.get("update_id") if isinstance(update, dict) else None,
            "kind": type(cmd).__name__ if cmd else None,
            "outcome": outcome,
        }
        log.info("update", extra=metrics.line("update", fields, tally))

    def handle_timer(
        self, req: TimerRequest, seconds_left: float | None = None
    ) -> game_room.TimerOutcome:
        """What the request came to; one that can never succeed is not raised (the timer
        Lambda acknowledges it), a transient fault is."""
        with deadline_scope(self._deadline(seconds_left), self.clock), handling(None):
            return game_room.timer(self, req)

    # -- commands ------------------------------------------------------------------------------
    def _command(self, cmd: CommandMsg) -> str:
        private = cmd.chat_type == "private"
        lang = (
            self.user_lang(cmd.user.id, cmd.user.language_code)
            if private
            else self.chat_lang(cmd.chat_id, cmd.user)
        )
        command = BY_NAME.get(cmd.command)
        if command is None:
            return "unknown"
        handler = command.private if private else command.group
        if handler is None:
            key = "bot.only_private" if cmd.command in PRIVATE_COMMANDS else "bot.only_group"
            self.messenger.send(
                cmd.chat_id, t(lang, key, command=cmd.command, bot=self.bot_username)
            )
            return "wrong_chat"
        if self.store.seen_update(cmd.update_id):
            return "duplicate"
        handler(self, cmd, lang)
        return cmd.command

    def _anonymous(self, cmd: AnonymousCommand) -> str:
        """One of our commands from an anonymous administrator or a channel: nobody to seat or
        to write to privately, so the group is told why instead of hearing nothing."""
        if cmd.command not in BY_NAME:
            return "unknown"
        if self.store.seen_update(cmd.update_id):
            return "duplicate"
        lang = self.chat_lang(cmd.chat_id)
        self.messenger.send(cmd.chat_id, t(lang, "bot.anonymous_sender", command=cmd.command))
        return "anonymous"

    def _press(self, press: ButtonPress) -> str:
        button = callback_data.parse(press.data)
        if isinstance(button, GameButton):
            return game_room.press(self, press, button)
        if isinstance(button, LobbyButton):
            return lobby.press(self, press, button)
        if isinstance(button, SettingsButton):
            return settings_menu.press(self, press, button)
        if isinstance(button, LanguageButton):
            return language_menu.press(self, press, button)
        if isinstance(button, BackButton):
            return game_room.back(self, press, button)
        if isinstance(button, AheadButton):
            return game_room.ahead_again(self, press, button)
        self.messenger.answer(press.query_id)
        return "garbage"

    def _left(self, cmd: MemberLeft) -> str:
        return game_room.member_left(self, cmd)

    # -- the language a reply is written in ------------------------------------------------
    def chat_lang(self, chat_id: int, sender: User | None = None) -> str:
        """The group's language; until it has any settings (a lobby takes its creator's, or a
        choice), the ``sender``'s: a Chinese newcomer's first /help was answered in English."""

        def read(work: unit_of_work.RecordReader) -> str:
            chat = work.chat(chat_id)
            if sender is not None and not (chat.settings or chat.language_chosen):
                return work.user_lang(sender.id, sender.language_code)
            return chat.group_settings.language

        return unit_of_work.reading(self.store, read)

    def user_lang(self, uid: int, language_code: str | None) -> str:
        return unit_of_work.reading(self.store, lambda work: work.user_lang(uid, language_code))


def _sender(cmd: object) -> int | None:
    """Who sent an update, when it names one (a group's replies are shared out among its
    askers: ``handlers.reply_budget``)."""
    if isinstance(cmd, CommandMsg | ButtonPress | MemberLeft):
        return cmd.user.id
    return None
