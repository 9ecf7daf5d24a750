"""attack12: the new code attacked from outside (a Lambda dying mid-way, Telegram losing an
answer, a stranger or a stale press in the group)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from devtools.botapi import Killed
from devtools.botapi.messenger import EmulatedMessenger
from handlers import transaction, txn_store
from handlers.store_keys import FLUSH
from infra.ports import Rows, Sent
from tests.service.service_game import ServiceGame


@dataclass
class _DiesAfterReply(EmulatedMessenger):
    """Telegram shows a reply; the function dies before its acknowledgement (``lost``: its
    answer is lost instead, a read timeout)."""

    lost: bool = False

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        sent = super().send(chat_id, text, rows, reply_to)
        if reply_to is None or not sent.ok:
            return sent
        if self.lost:
            return Sent(False, None, uncertain=True)
        raise Killed()


def _flush_after_leases(table: ServiceGame, times: int = 4) -> int:
    """Whoever comes after each lease: the flush timers, fired; how many fired."""
    fired = 0
    for _ in range(times):
        table.clock.advance(transaction.DEFAULT_BUDGET_SECONDS + 5)
        for r in [r for r in table.timers.requests if r.decision == FLUSH]:
            table.timers.requests.remove(r)
            table.service.handle_timer(r)
            fired += 1
    return fired


def _reminded(messenger: _DiesAfterReply) -> tuple[ServiceGame, int]:
    table = ServiceGame(n=4, messenger=messenger)
    table.start()
    trader = table.state().turn
    partner = (trader + 2) % table.n
    table.offer(trader, partner, table.state().players[trader].items[0])
    with contextlib.suppress(Killed):
        table.wait_until_due()  # the reminder: shown, then its answer lost or its sender dead
    return table, partner


def test_a_reminder_whose_sender_died_leaves_no_prompt_anew_in_the_outbox_for_ever() -> None:
    """handlers.reminders: a reminder's reply shown, its sender killed before the
    acknowledgement (uncertain once the lease is over). The prompt queued to go anew only if
    the reply was refused as gone is not sent and leaves the outbox. Before, it stayed there
    unacknowledged for the game's life: each flush claimed it again, found it not needed, wrote
    the game and scheduled the next flush (a timer loop, one invocation a lease)."""
    table, partner = _reminded(_DiesAfterReply())
    uid = table.uids[partner]
    assert table.messenger.api.last_message(uid).reply_to is not None
    _flush_after_leases(table)
    txn = txn_store.load(table.store, table.clock, f"GAME#{table.gid}", None)
    assert txn is not None
    left = [e for e in txn.doc.get("outbox", []) if "if_gone" in e]
    assert left == [], left
    assert _flush_after_leases(table) == 0
    assert table.messenger.api.last_message(uid).reply_to is not None  # not sent anew


def test_a_reminder_whose_answer_is_lost_does_not_send_the_prompt_anew() -> None:
    """Held: the reply's answer lost (uncertain), the prompt is not sent anew and leaves."""
    table, partner = _reminded(_DiesAfterReply(lost=True))
    _flush_after_leases(table)
    assert not [e for e in table.doc().get("outbox", []) if "if_gone" in e]
    assert table.messenger.api.last_message(table.uids[partner]).reply_to is not None


@dataclass
class _FailsAfterGone(EmulatedMessenger):
    """Telegram fails (a 5xx) the next ``failures`` sends to a chat where a reply was refused
    as gone."""

    failures: int = 2
    gone_in: int | None = None

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        if chat_id == self.gone_in and self.failures > 0:
            self.failures -= 1
            raise RuntimeError("502 Bad Gateway")
        sent = super().send(chat_id, text, rows, reply_to)
        if sent.reply_gone:
            self.gone_in = chat_id
        return sent


def test_a_prompt_deleted_then_reminded_comes_anew_after_telegram_failed_twice() -> None:
    """handlers.reminders: the partner deleted the trade's prompt; the reminder's reply is
    refused as gone, and Telegram fails the prompt sent anew twice (a 5xx, the flush tries
    again). It comes once Telegram takes it. Before, the second failure's acknowledgements
    dropped the reminder's ("gone": it had left the outbox), and the prompt anew was never sent
    (nor acknowledged): the partner had no buttons to answer with until the deadline."""
    messenger = _FailsAfterGone()
    table = ServiceGame(n=4, messenger=messenger)
    table.start()
    trader = table.state().turn
    partner = (trader + 2) % table.n
    table.offer(trader, partner, table.state().players[trader].items[0])
    first, _ = table.prompt(partner)
    uid = table.uids[partner]
    table.messenger.api.user_deletes(uid, first)
    table.wait_until_due()  # the reminder, refused as gone; the prompt anew fails
    for _ in range(6):  # the flush timers, as they come (a failed chat held 30 s)
        table.clock.advance(transaction.DEFAULT_BUDGET_SECONDS + 5)
        for r in [r for r in table.timers.requests if r.decision == FLUSH]:
            table.timers.requests.remove(r)
            table.service.handle_timer(r)
    assert messenger.failures == 0
    anew = table.messenger.api.messages_in(uid)[-1]
    assert anew.buttons() and anew.message_id != first, anew.text
    assert not [e for e in table.doc().get("outbox", []) if "if_gone" in e]


class _BudgetBehindWhileThePlayerAnswers:
    """The shared budget booked far ahead; while the page turn waits for its booking, another
    invocation runs: the player's next press (a second device, a double tap) answers the
    prompt, which closes."""

    tolerance = 0.1

    def __init__(self, table: ServiceGame) -> None:
        self.table = table
        self.raced = False

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        if not self.raced:
            self.raced = True
            pipeline = self.table.service.pipeline
            pipeline.limiter = None
            table = self.table
            seat = table.state().turn
            table.offer(seat, (seat + 1) % table.n, table.state().players[seat].items[0])
            pipeline.limiter = self
        return []  # none before the invocation's end

    def backlog(self, now: float) -> float:
        return 0.0


def test_a_page_turn_queued_after_its_prompt_closed_does_not_show_its_buttons_again() -> None:
    """handlers.page_turn.queue: a page turn found no slot, and meanwhile the player answered
    the prompt (a trade offered: the turn's prompt closed, its buttons gone). The queued page is
    not sent: before, its flush put the open prompt's page with its buttons back over the
    answered prompt (dead buttons: "no longer active")."""
    from tests.service.test_page_turns import page_turn

    table = ServiceGame(n=4)
    table.start()
    seat = table.state().turn
    message_id, _ = table.prompt(seat)
    dec = table.state().pending
    pipeline = table.service.pipeline
    pipeline.limiter, pipeline.sleep = (
        _BudgetBehindWhileThePlayerAnswers(table),
        table.clock.advance,
    )
    page_turn(table, seat, message_id)
    assert table.state().pending != dec  # answered
    answered = table.messenger.messages[(table.uids[seat], message_id)]
    closed = (answered.text, answered.rows)
    pipeline.limiter = None
    for _ in range(3):
        table.clock.advance(transaction.DEFAULT_BUDGET_SECONDS + 5)
        for r in [r for r in table.timers.requests if r.decision == FLUSH]:
            table.timers.requests.remove(r)
            table.service.handle_timer(r)
    shown = table.messenger.messages[(table.uids[seat], message_id)]
    assert (shown.text, shown.rows) == closed


def test_two_settings_presses_racing_leave_both_changes_in_the_lobby() -> None:
    """handlers.settings_menu: a settings button now carries only its own setting's version,
    so two quick presses on one menu (the newcomer's burst: "Turn", then "Trade") are both
    taken, by two invocations at once. The second's lobby update commits while the first's is
    under way; the first, retried on the version conflict, put the settings it had saved over
    them: the lobby (and the game it starts) lost the second change, which the group's
    settings and the menu show."""
    from handlers.group_settings import GroupSettings
    from tests.service.group_chat import ADMIN, Group
    from tests.service.test_rooms import button, settings_of

    g = Group()
    g.say(ADMIN, "en", "/newgame")
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    turn, trade = button(menu, ":d.turn"), button(menu, ":d.trade")
    game = f"GAME#{g.gid()}"
    raced = {"done": False}

    def second_press_meanwhile(writes: list[object], marker: int | None) -> None:
        if not raced["done"] and any(getattr(w, "key", "") == game for w in writes):
            raced["done"] = True
            g.press(ADMIN, "en", menu.message_id, trade)

    g.store.before_commit = second_press_meanwhile
    g.press(ADMIN, "en", menu.message_id, turn)
    assert raced["done"]
    g.store.before_commit = None
    saved = settings_of(g)
    assert saved.seconds("turn") > 60 and saved.seconds("trade") > 30  # both taken
    got = g.store.get(game)
    assert got is not None
    lobby = GroupSettings.model_validate(got.doc["settings"])
    assert lobby == saved, (lobby, saved)
