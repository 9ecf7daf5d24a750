"""A window's prompt that Telegram failed to take is sent again later: if its window closed
meanwhile, it arrives in its closed form (no buttons, what happened), never as a live question
with a deadline already past; privately, the group sees nothing of it (R-D1)."""

from __future__ import annotations

import random

import pytest

from handlers import lobby
from handlers.i18n import t
from handlers.store_keys import FLUSH, game_key
from infra.ports import TimerRequest
from tests.fakes.faults import AfterDelivery
from tests.service.service_game import GROUP, ServiceGame
from tests.service.webhook_table import GROUP as BOT_GROUP
from tests.service.webhook_table import BotTable


class SendsFail:
    """Telegram fails (a network error) every send to the chats in ``chats``."""

    def __init__(self, table: ServiceGame) -> None:
        self.chats: set[int] = set()
        self.real = table.messenger.send

        def send(chat_id: int, text: str, rows=None, reply_to=None):  # type: ignore[no-untyped-def]
            if chat_id in self.chats:
                raise ConnectionError("network down")
            return self.real(chat_id, text, rows, reply_to)

        table.messenger.send = send  # type: ignore[method-assign]


def test_a_window_prompt_sent_after_its_window_closed_arrives_closed_R_D1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lobby, "new_game_id", lambda: "samedeal")
    monkeypatch.setattr(lobby, "new_deal_seed", lambda: 13)
    table = ServiceGame(n=4)
    table.start()
    attacker = table.state().turn
    priest = (attacker + 2) % table.n
    table.arrange(lambda st: table.give(st, priest, "priest"))
    fails = SendsFail(table)
    fails.chats = {table.uids[priest]}
    before = len(table.messenger.in_chat(table.uids[priest]))
    group_before = list(table.group_texts())
    table.attack()
    window = table.state().pending
    assert window is not None and window.kind == "priest"
    assert len(table.messenger.in_chat(table.uids[priest])) == before  # not taken
    table.wait_until_due()  # the window runs out while Telegram fails the prompt
    after = table.state().pending
    assert after is not None and after.kind != "priest"
    assert table.uids[priest] not in [table.uids[s] for s in after.actors]
    fails.chats = set()
    for _ in range(3):  # the flush timer sends it again
        table.clock.advance(30)
        table.fire_timers()
    arrived = table.messenger.in_chat(table.uids[priest])[before:]
    prefix = f"{table.gid}:{window.id}:"
    late = [m for m in arrived if "Priest" in m.text or "priest" in m.text.lower()]
    assert late, "the promised send still arrives"
    for shown in arrived:
        live = [b for row in shown.rows or [] for b in row if b[2].startswith(prefix)]
        assert not live, f"a closed window's buttons arrived: {shown.text!r}"
    assert any("⌛" in m.text or "closed" in m.text.lower() for m in late)
    new_group = table.group_texts()[len(group_before) :]
    assert not any(m.text in g for m in late for g in new_group), "private only"


def test_your_turn_is_next_sent_after_the_turn_came_arrives_closed() -> None:
    """ "🔜 Your turn is next" that Telegram failed to take while the turn before ran, sent again
    once that turn is over, arrives saying the turn came: none of its buttons, which would be
    pressed for a turn already started."""
    table = ServiceGame(n=4)
    fails = SendsFail(table)
    table.board()
    fails.chats = set(table.uids)
    table.message(table.uids[0], GROUP, "/startgame")
    seat = (table.state().turn + 1) % table.n
    assert table.doc()["ahead"]["seat"] == seat and table.doc()["ahead"]["msg"] is None
    fails.chats = set(table.uids) - {table.uids[table.state().turn]}
    table.clock.advance(35)  # the flush timer sends the turn's prompt again
    table.fire_timers()
    table.press_payload(table.state().turn, "pa")  # the turn before theirs ends
    assert table.state().turn == seat
    fails.chats = set()
    for _ in range(3):  # the flush timer sends it again
        table.clock.advance(30)
        table.fire_timers()
    came = t("en", "prompt.closed.turn_came")
    offers = [m for m in table.messenger.in_chat(table.uids[seat]) if m.text.startswith(came)]
    assert len(offers) == 1, "the promised send still arrives"
    assert offers[0].rows is None, f"live buttons on a closed offer: {offers[0].rows}"
    assert t("en", "prompt.closed.turn_came") in offers[0].text


def test_a_prompt_sent_anew_still_queued_when_answered_on_the_first_arrives_closed() -> None:
    """A turn prompt whose send was uncertain (Telegram showed it; its answer was lost) is sent
    anew with the reminder; Telegram fails that send, and the player answers on the first one
    meanwhile. The copy still queued arrives closed, saying the answer: none of its buttons,
    which would ask a question already answered."""
    bot = BotTable(n=4, seed=3)
    faults = AfterDelivery(random.Random(1), lost=1.0, methods=("sendMessage",))
    faults.install(bot.api)
    faults.active = False
    bot.message(bot.uids[0], BOT_GROUP, "/newgame")
    chat = bot.store.get(f"CHAT#{BOT_GROUP}")
    assert chat is not None
    bot.gid = str(chat.doc["game"])
    for uid in bot.uids:
        bot.message(uid, uid, f"/start {bot.gid}")
    faults.active, faults.chats = True, set(bot.uids)
    bot.message(bot.uids[0], BOT_GROUP, "/startgame")  # the answers to private sends are lost
    faults.active = False
    seat, pending = bot.state().turn, bot.state().pending
    assert pending is not None
    prefix = f"{bot.gid}:{pending.id}:"

    def live() -> list[tuple[int, str]]:
        """The seat's messages with buttons for the decision: (message id, its "pass" data)."""
        out = []
        for m in bot.api.messages_in(bot.uids[seat]):
            data = [d for _, d in m.buttons() if d and d.startswith(prefix)]
            out += [(m.message_id, d) for d in data if d.endswith(":pa")]
        return out

    first = live()
    assert len(first) == 1  # Telegram did show it
    sent_before = len(bot.api.messages_in(bot.uids[seat]))
    due = bot.doc()["due"]
    bot.clock.advance(max(0.0, due["at"] - bot.clock.now()) + 0.01)  # the reminder's time
    bot.api.inject_outage(20)  # Telegram's bad seconds
    bot.fire_timers()  # the prompt anew with its reminder: Telegram fails it
    assert len(bot.api.messages_in(bot.uids[seat])) == sent_before, "not taken"
    assert any(e["chat"] == bot.uids[seat] for e in bot.pending_outbox())
    bot.clock.advance(21)  # over, before the flush timer comes back
    assert any(e["chat"] == bot.uids[seat] for e in bot.pending_outbox())
    bot.press(bot.uids[seat], *first[0])  # answered on the first
    assert bot.state().turn != seat
    for _ in range(4):  # the flush timer sends the rest
        bot.clock.advance(60)
        bot.fire_timers()
        bot.service.handle_timer(TimerRequest(game_key(bot.gid), FLUSH, bot.clock.now()))
    arrived = bot.api.messages_in(bot.uids[seat])[sent_before:]
    assert live() == [], "a prompt answered arrived with its buttons"
    answer = bot.api.message(bot.uids[seat], first[0][0]).text  # the first, answered
    copies = [m for m in arrived if m.text == answer]
    assert len(copies) == 1, "the promised send still arrives, saying the answer"
    assert not copies[0].buttons()
