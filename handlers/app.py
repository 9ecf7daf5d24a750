"""Routes parsed Telegram commands to the lobby, the settings and the running game.

Handlers stay thin: they parse, build a command, run it through the pipeline, render.
"""

from __future__ import annotations

import html
import logging
import time
from collections.abc import Callable
from typing import Any

import engine
from engine import Rejected
from handlers import codec, lobby, prompts, story
from handlers.group_settings import GroupSettings
from handlers.i18n import negotiate, t
from handlers.messenger import Messenger, Rows
from handlers.play import Table
from handlers.service import (
    DEFAULT_BUDGET_SECONDS,
    FLUSH,
    Pipeline,
    RateLimiter,
    Txn,
    chat_key,
    game_key,
    handling,
    user_key,
)
from handlers.updates import ButtonPress, CommandMsg, MemberLeft, parse
from infra import metrics
from infra.ports import Clock, DocumentStore, TimerRequest, Timers, deadline_scope

log = logging.getLogger("coachride")

GROUP_COMMANDS = {
    "newgame",
    "startgame",
    "cancel",
    "settings",
    "language",
    "status",
    "rules",
    "help",
    "scores",
}
PRIVATE_COMMANDS = {"start", "notes", "help", "rules", "language"}


class Service:
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
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.store = store
        self.timers = timers
        self.clock = clock
        self.bot_username = bot_username
        self.scale = time_scale
        self.pipeline = Pipeline(store, messenger, timers, clock, limiter=limiter, sleep=sleep)
        # Direct replies go through the update's marker: a redelivery never speaks twice.
        self.messenger: Messenger = self.pipeline.replies
        self.is_admin = is_admin or (lambda chat, user: False)

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
                handling(cmd.update_id if cmd else None),
            ):
                if isinstance(cmd, ButtonPress):
                    outcome = self._press(cmd)
                elif isinstance(cmd, CommandMsg):
                    outcome = self._command(cmd)
                elif isinstance(cmd, MemberLeft):
                    outcome = self._left(cmd)
        except Exception:
            outcome = "error"
            log.exception("update failed")
        fields = {
            "update_id": update.get("update_id") if isinstance(update, dict) else None,
            "kind": type(cmd).__name__ if cmd else None,
            "outcome": outcome,
        }
        log.info("update", extra=metrics.line("update", fields, tally))

    def handle_timer(self, req: TimerRequest, seconds_left: float | None = None) -> None:
        with deadline_scope(self._deadline(seconds_left), self.clock), handling(None):
            self._timer(req)

    def _timer(self, req: TimerRequest) -> None:
        def change(txn: Txn) -> None:
            doc = txn.doc
            if req.decision == FLUSH:
                return  # loading the game is enough: the pipeline resends what is overdue
            if doc["phase"] == "lobby":
                lobby.expire_if_due(self, txn)
                return
            if doc["phase"] != "playing":
                return
            table = Table(txn, self.scale, self.bot_username)
            pending = table.state.pending
            if pending is None or pending.id != req.decision:
                return  # stale or duplicate timer: that decision is gone
            table.settle()
            if table.events:
                txn.changed = True
                self.after_play(txn, table)

        self.pipeline.run(req.game_key, change, None)

    # -- commands ------------------------------------------------------------------------------
    def _command(self, cmd: CommandMsg) -> str:
        private = cmd.chat_type == "private"
        allowed = PRIVATE_COMMANDS if private else GROUP_COMMANDS
        lang = (
            self.user_lang(cmd.user.id, cmd.user.language_code)
            if private
            else self.chat_lang(cmd.chat_id)
        )
        if cmd.command not in GROUP_COMMANDS | PRIVATE_COMMANDS:
            return "unknown"
        if cmd.command not in allowed:
            key = "bot.only_private" if cmd.command in PRIVATE_COMMANDS else "bot.only_group"
            self.messenger.send(
                cmd.chat_id, t(lang, key, command=cmd.command, bot=self.bot_username)
            )
            return "wrong_chat"
        if self.store.seen_update(cmd.update_id):
            return "duplicate"
        handler = getattr(lobby, f"cmd_{cmd.command}_{'private' if private else 'group'}", None)
        if handler is None:
            handler = getattr(lobby, f"cmd_{cmd.command}")
        handler(self, cmd, lang)
        return cmd.command

    def _press(self, press: ButtonPress) -> str:
        prefix, _, rest = press.data.partition(":")
        if prefix in lobby.BUTTON_PREFIXES:
            return lobby.press(self, press, prefix, rest)
        gid, decision_s, payload = prefix, *rest.partition(":")[::2]
        if not decision_s.isdigit():
            self.messenger.answer(press.query_id)
            return "garbage"
        return self._game_press(press, gid, int(decision_s), payload)

    def _game_press(self, press: ButtonPress, gid: str, decision: int, payload: str) -> str:
        lang = negotiate(press.user.language_code)
        try:
            parsed = codec.parse_payload(payload)
        except codec.BadPayload:
            self.messenger.answer(press.query_id, t(lang, "bot.stale"))
            return "garbage"
        outcome = "stale"
        menu: list[tuple[str, Rows]] = []  # a navigation's new prompt, shown after the answer

        def change(txn: Txn) -> None:
            nonlocal outcome
            doc = txn.doc
            if doc.get("phase") != "playing":
                txn.toast = (t(lang, "bot.stale"), False)
                return
            table = Table(txn, self.scale, self.bot_username)
            seat = table.seat_of(press.user.id)
            if seat is None:
                txn.toast = (t(lang, "bot.not_in_game"), False)
                return
            st = table.state
            if st.pending is None or st.pending.id != decision or seat not in st.pending.actors:
                txn.toast = (t(lang, "bot.stale"), False)
                return
            if not _on_own_prompt(doc, seat, decision, press, isinstance(parsed, codec.Nav)):
                txn.toast = (t(lang, "bot.stale"), False)
                return
            plang = table.lang_of(seat)
            table.reachable_again(press.user.id)
            if isinstance(parsed, codec.Info):
                txn.toast = (prompts.render_info(plang, parsed), True)
                outcome = "info"
                return
            if isinstance(parsed, codec.Nav):
                pr = table.prompt(seat, parsed.path)
                menu[:] = [(pr.text, table.rows(decision, pr.rows))]
                outcome = "nav"
                return
            action = codec.decode_action(parsed.payload, seat, decision)
            before = engine.view(st, seat), engine.legal_actions(st, seat)
            try:
                table.apply(action)
            except Rejected:
                txn.toast = (t(plang, "bot.illegal"), False)
                return
            table.settle()
            answered = {seat: (press.message_id, prompts.render_answered(*before, action, plang))}
            txn.changed = True
            self.after_play(txn, table, answered)
            outcome = action.kind

        done = self.pipeline.run(game_key(gid), change, press.update_id, query=press.query_id)
        if done is None:
            self.messenger.answer(press.query_id, t(lang, "bot.stale"))
        elif menu:
            self.messenger.edit(press.chat_id, press.message_id, *menu[0])
        return outcome

    def _left(self, cmd: MemberLeft) -> str:
        """A player who leaves the group is treated as away (R-D2)."""
        chat = self.store.get(chat_key(cmd.chat_id))
        gid = chat.doc.get("game") if chat else None
        if not gid:
            return "no_game"

        def change(txn: Txn) -> None:
            if txn.doc.get("phase") == "lobby":
                lobby.remove_player(self, txn, cmd.user.id)
                return
            if txn.doc.get("phase") != "playing":
                return
            table = Table(txn, self.scale, self.bot_username)
            seat = table.seat_of(cmd.user.id)
            if seat is None or table.state.players[seat].away:
                return
            table.state.players[seat].away = True
            table.events.append(engine.Event("away", None, {"seat": seat}))
            table.settle()
            txn.changed = True
            self.after_play(txn, table)

        self.pipeline.run(game_key(gid), change, cmd.update_id)
        return "left"

    # -- shared --------------------------------------------------------------------------------
    def after_play(
        self, txn: Txn, table: Table, answered: dict[int, tuple[int, str]] | None = None
    ) -> None:
        table.render(answered)
        if table.state.over:
            lobby.finish_game(self, txn, table)

    def chat_settings(self, chat_id: int) -> tuple[GroupSettings, dict[str, Any], int | None]:
        loaded = self.store.get(chat_key(chat_id))
        doc = loaded.doc if loaded else {"settings": {}, "scores": {}, "game": None}
        return (
            GroupSettings.model_validate(doc.get("settings", {})),
            doc,
            loaded.version if loaded else None,
        )

    def chat_lang(self, chat_id: int) -> str:
        return self.chat_settings(chat_id)[0].language

    def user_lang(self, uid: int, language_code: str | None) -> str:
        loaded = self.store.get(user_key(uid))
        if loaded and loaded.doc.get("lang"):
            return str(loaded.doc["lang"])
        return negotiate(language_code)


def _on_own_prompt(
    doc: dict[str, Any], seat: int, decision: int, press: ButtonPress, navigates: bool
) -> bool:
    """Game buttons act only in the player's private chat, on the prompt they belong to (a
    navigation edits that message, so it must be it)."""
    if press.chat_id != press.user.id:
        return False
    prompt = doc.get("prompts", {}).get(str(seat))
    if prompt is None or prompt.get("dec") != decision or prompt.get("msg") is None:
        return not navigates
    return bool(prompt["msg"] == press.message_id)


def name_html(name: str) -> str:
    return html.escape(name, quote=False)


__all__ = ["Service", "name_html", "story"]
