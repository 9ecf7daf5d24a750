"""Delivery on Telegram's bad days (issue 10): one test per finding, each named by it."""

from __future__ import annotations

import base64
import contextlib
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import engine
from devtools.botapi import Chaos, Killed
from devtools.botapi.messenger import EmulatedMessenger
from handlers import webhook
from handlers.i18n import t
from handlers.store_keys import FLUSH, game_key
from handlers.transaction import Txn
from infra.ports import Rows, Sent, TimerRequest, deadline_scope
from tests.service.service_game import GROUP, ServiceGame, user
from tests.service.webhook_table import GROUP as GROUP_OF_BOT
from tests.service.webhook_table import BotTable

OTHER_GROUP = -2002


class HookedMessenger(EmulatedMessenger):
    """Runs ``hook`` (another process, a slow network) when a message with ``text`` goes out."""

    def __init__(self) -> None:
        super().__init__()
        self.hooks: dict[str, Callable[[], None]] = {}
        self.log: list[str] = []

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        self.log.append(f"send:{chat_id}")
        hook = self.hooks.pop(text, None)
        if hook is not None:
            hook()
        return super().send(chat_id, text, rows)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self.log.append(f"edit:{chat_id}")
        return super().edit(chat_id, message_id, text, rows)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        self.log.append(f"answer:{query_id}")
        super().answer(query_id, text, alert)


def hooked_table() -> tuple[ServiceGame, HookedMessenger]:
    messenger = HookedMessenger()
    table = ServiceGame(messenger=messenger)
    table.start()
    return table, messenger


def sends(table: ServiceGame, chat: int, text: str) -> int:
    return sum(1 for m in table.messenger.in_chat(chat) if m.text == text)


def run_sends(table: ServiceGame, *texts: str) -> None:
    def change(txn: Txn) -> None:
        for text in texts:
            txn.send(GROUP, text)

    table.service.pipeline.run(game_key(table.gid), change, None)


def flush_later(table: ServiceGame) -> None:
    """Much later, timers and a flush come by: anything still unacknowledged would go again."""
    table.clock.advance(120)
    table.fire_timers()
    table.service.handle_timer(TimerRequest(game_key(table.gid), FLUSH, table.clock.now()))


# -- 1. acknowledgements merge monotonically ---------------------------------------------------
def test_a_slower_process_keeps_the_acks_of_later_commits() -> None:
    table, messenger = hooked_table()
    messenger.hooks["A1"] = lambda: run_sends(table, "B1", "B2")  # B commits and sends meanwhile
    run_sends(table, "A1", "A2")
    flush_later(table)
    assert [sends(table, GROUP, t) for t in ("A1", "A2", "B1", "B2")] == [1, 1, 1, 1]


# -- 2. a live sender keeps ownership ------------------------------------------------------------
def test_a_slow_live_sender_is_not_doubled_by_the_next_process() -> None:
    table, messenger = hooked_table()

    def flood_wait_then_another_process() -> None:
        table.clock.advance(22)  # waited out flood control, still inside its 30 s
        table.service.handle_timer(TimerRequest(game_key(table.gid), FLUSH, table.clock.now()))

    messenger.hooks["A1"] = flood_wait_then_another_process
    with deadline_scope(table.clock.now() + 30, table.clock):
        run_sends(table, "A1", "A2")
    flush_later(table)
    assert [sends(table, GROUP, t) for t in ("A1", "A2")] == [1, 1]


# -- 3. flood-control waits fit the function's time ----------------------------------------------
def test_flood_control_never_keeps_the_webhook_past_its_timeout() -> None:
    bot = BotTable(n=4)
    bot.start()
    bot.api.inject_retry_after("sendMessage", 25, times=4)
    bot.api.inject_retry_after("editMessageText", 25, times=4)
    started = bot.clock.now()
    bot.press_turn_pass()
    assert bot.clock.now() - started <= 30  # the Lambda was not killed
    assert bot.answers() == 1  # and the press was answered
    for _ in range(6):  # the turn's reminder and deadline come in between, with sends of their own
        bot.clock.advance(30)
        bot.fire_timers()
    assert bot.duplicates() == []
    assert bot.missing() == []
    assert bot.pending_outbox() == []  # the rest went out later, once


# -- 4. permanent errors leave the outbox; old entries never hold up new ones --------------------
def test_a_muted_group_does_not_grow_the_outbox_or_the_calls_per_deadline() -> None:
    bot = BotTable(n=4)
    bot.start()
    bot.api.chaos = Chaos(random.Random(1), refuse=1.0)  # the bot may not write in the group
    for _ in range(12):
        bot.timeout_once()
    refused = Counter(bot.api.chaos.refused)
    promised = bot.promised_sends()
    assert refused  # the group did refuse
    assert all(n <= promised[k] for k, n in refused.items())  # each refusal tried once, dropped
    assert bot.pending_outbox() == []  # nothing refused stays behind


def test_a_muted_group_s_creator_is_told_privately_once() -> None:
    """The group cannot be told that the bot may not write there; the game's creator is, in
    private and in their language, once however many group messages are refused."""
    bot = BotTable(n=4)
    bot.start()
    bot.api.chaos = Chaos(random.Random(1), refuse=1.0)
    for _ in range(6):
        bot.timeout_once()
    notice = t("en", "bot.muted_in_group")
    assert bot.api.chaos.refused  # the group did refuse, more than once
    assert [m.text for m in bot.api.messages_in(bot.uids[0])].count(notice) == 1
    assert all(notice not in [m.text for m in bot.api.messages_in(u)] for u in bot.uids[1:])


def test_other_permanent_refusals_tell_nobody() -> None:
    bot = BotTable(n=4)
    bot.start()
    bot.api.inject_error("sendMessage", 400, "Bad Request: can't parse entities", times=3)
    bot.timeout_once()
    notice = t("en", "bot.muted_in_group")
    assert all(notice not in [m.text for m in bot.api.messages_in(u)] for u in bot.uids)


# -- 5. the callback query is answered right after the commit, once -------------------------------
def test_press_is_answered_before_its_messages_and_only_once_on_redelivery() -> None:
    table, messenger = hooked_table()
    seat = table.state().turn
    message_id, data = table.prompt(seat)
    messenger.log.clear()
    update = table.press(table.uids[seat], message_id, next(d for d in data if d.endswith(":pa")))
    first = messenger.log
    assert first[0].startswith("answer:"), first
    assert len(first) > 1
    table.service.handle_update(update)  # Telegram delivers it again
    assert [x for x in messenger.log if x.startswith("answer:")] == [first[0]]


def test_a_press_whose_answer_fails_still_sends_its_messages() -> None:
    """The change's answer goes out with its delivery, first (issue 28): a failed answer is
    logged, and the messages the press queued still go, the change committed."""
    table, messenger = hooked_table()

    def fails(query_id: str, text: str | None = None, alert: bool = False) -> None:
        messenger.log.append(f"answer:{query_id}")
        raise OSError("network")

    messenger.answer = fails  # type: ignore[method-assign]
    seat = table.state().turn
    asked = table.state().pending
    assert asked is not None
    message_id, data = table.prompt(seat)
    messenger.log.clear()
    table.press(table.uids[seat], message_id, next(d for d in data if d.endswith(":pa")))
    assert messenger.log[0].startswith("answer:"), messenger.log
    assert any(x.startswith(("send:", "edit:")) for x in messenger.log[1:]), messenger.log
    now = table.state().pending
    assert now is None or now.id != asked.id  # the press was applied and committed


# -- 6. every button within its authority ------------------------------------------------------
def lobby(table: ServiceGame) -> str:
    table.message(table.uids[0], GROUP, "/newgame")
    chat = table.store.get(f"CHAT#{GROUP}")
    assert chat is not None
    gid = str(chat.doc["game"])
    for uid in table.uids:
        table.message(uid, uid, f"/start {gid}")
    return gid


def press_in(table: ServiceGame, uid: int, chat: int, message_id: int, data: str) -> dict[str, Any]:
    update = {
        "update_id": next(table.ids),
        "callback_query": {
            "id": f"q{uid}-{message_id}",
            "from": user(uid),
            "chat_instance": "x",
            "data": data,
            "message": {"message_id": message_id, "date": 0, "chat": {"id": chat, "type": "x"}},
        },
    }
    update["callback_query"]["message"]["chat"]["type"] = "private" if chat > 0 else "supergroup"
    table.service.handle_update(table.messenger.pressed(update))
    return update


def test_lobby_start_pressed_in_another_group_starts_nothing() -> None:
    table = ServiceGame()
    gid = lobby(table)
    intruder = 999
    table.service.is_admin = lambda chat, uid: chat == OTHER_GROUP and uid == intruder
    press_in(table, intruder, OTHER_GROUP, 1, f"L:{gid}:start")
    got = table.store.get(game_key(gid))
    assert got is not None and got.doc["phase"] == "lobby"


def test_forged_navigation_on_a_group_message_leaves_it_alone() -> None:
    table = ServiceGame()
    table.start()
    story = table.messenger.in_chat(GROUP)[-1]
    before = story.text
    seat = table.state().turn
    pending = table.state().pending
    assert pending is not None
    press_in(table, table.uids[seat], GROUP, story.message_id, f"{table.gid}:{pending.id}:~")
    assert table.messenger.messages[(GROUP, story.message_id)].text == before


def test_group_language_is_an_admin_setting_like_the_others() -> None:
    """While a game is open, its creator's and the admins' (with none, any member's: issue 25)."""
    table = ServiceGame()
    table.message(table.uids[0], GROUP, "/newgame")
    member = table.uids[2]
    press_in(table, member, GROUP, 1, f"G:{GROUP}:de")
    assert table.service.chat_lang(GROUP) == "en"


# -- 7. every update that makes the bot speak is deduplicated ------------------------------------
def test_join_delivered_twice_at_once_is_answered_once() -> None:
    table = ServiceGame()
    table.message(table.uids[0], GROUP, "/newgame")
    chat = table.store.get(f"CHAT#{GROUP}")
    assert chat is not None
    uid = table.uids[1]
    update_id = 777
    twice = {"done": False}

    def second_delivery(writes: Any, marker: int | None) -> None:
        if marker == update_id and not twice["done"]:
            twice["done"] = True
            table.message(uid, uid, f"/start {chat.doc['game']}", update_id=update_id)

    table.store.before_commit = second_delivery
    table.message(uid, uid, f"/start {chat.doc['game']}", update_id=update_id)
    assert twice["done"]
    assert len(table.messenger.in_chat(uid)) == 1


def test_read_only_commands_redelivered_answer_once() -> None:
    table = ServiceGame()
    for i, command in enumerate(("/status", "/help", "/rules", "/settings", "/scores")):
        asker = table.uids[i % 2]  # one asker's share of the group's replies is 3 (reply_budget)
        table.message(asker, GROUP, command, update_id=500 + i)
        table.message(asker, GROUP, command, update_id=500 + i)
    assert len(table.messenger.in_chat(GROUP)) == 5


def test_a_direct_reply_survives_a_crash_between_the_claim_and_the_send() -> None:
    """/help's reply is committed with the update's marker; a process killed before sending
    it leaves it to the flush timer (a redelivery finds the marker taken and stays silent)."""
    messenger = HookedMessenger()
    table = ServiceGame(messenger=messenger)
    died = {"once": False}

    def crash_before_the_send(writes: Any, marker: int | None) -> None:
        # dies before the send starts (once it has, its outcome is unknown: issue 24)
        if not died["once"] and any(w.key.startswith("ACK#") for w in writes):
            died["once"] = True
            raise Killed()

    table.store.before_commit = crash_before_the_send
    with pytest.raises(Killed):
        table.message(table.uids[0], GROUP, "/help", update_id=900)
    table.message(table.uids[0], GROUP, "/help", update_id=900)  # Telegram delivers it again
    assert table.messenger.in_chat(GROUP) == []
    table.clock.advance(120)
    table.fire_timers()
    table.fire_timers()
    assert len(table.messenger.in_chat(GROUP)) == 1  # the reply, once


# -- 8. games expire, groups and users do not ---------------------------------------------------
def test_group_settings_and_user_language_outlive_the_game_ttl() -> None:
    table = ServiceGame()
    table.service.is_admin = lambda chat, uid: True
    table.message(table.uids[0], GROUP, "/settings")
    settings = table.messenger.in_chat(GROUP)[-1]
    press_in(table, table.uids[0], GROUP, settings.message_id, f"S:{GROUP}:lang.de")
    press_in(table, table.uids[1], table.uids[1], 1, "G:u:zh-Hans")
    table.clock.advance(60 * 24 * 3600)
    assert table.service.chat_lang(GROUP) == "de"
    assert table.service.user_lang(table.uids[1], "en") == "zh-Hans"


# -- 9. the webhook answers any body ----------------------------------------------------------
def test_odd_bodies_are_answered_and_never_raise() -> None:
    table = ServiceGame()
    headers = {webhook.SECRET_HEADER: "s"}
    bodies: list[dict[str, Any]] = [
        {"headers": headers, "body": "%%% not base64", "isBase64Encoded": True},
        {"headers": headers, "body": base64.b64encode(b"\xff\xfe").decode(), "isBase64Encoded": 1},
        {"headers": headers, "body": "[" * 100_000 + "]" * 100_000},
        {"headers": headers, "body": '{"update_id": ' + "[" * 50_000 + "]" * 50_000 + "}"},
        {"headers": headers, "body": 12},
    ]
    for event in bodies:
        assert webhook.handle(event, lambda: table.service, "s")["statusCode"] in (200, 400)
    assert webhook.handle([1], lambda: table.service, "s")["statusCode"] == 400  # type: ignore[arg-type]


def test_duplicate_sends_are_counted_by_the_helpers() -> None:
    """The helpers above could catch a duplicate: a message sent twice is counted twice."""
    table, _ = hooked_table()
    run_sends(table, "X")
    table.messenger.send(GROUP, "X")
    assert sends(table, GROUP, "X") == 2
    assert Counter(m.text for m in table.messenger.in_chat(GROUP))["X"] == 2


# -- issue 24 ------------------------------------------------------------------------------------
# -- 24.3 the rate-limit cell tolerates any value -------------------------------------------------
@pytest.mark.parametrize(
    "cell",
    [
        {"tat": 3600.0},  # a writer an hour ahead, before cells said whose clock they are on
        {"tat": 1e308},
        {"tat": "inf"},
        {"tat": "nan"},
        {"tat": "soon"},
        {"tat": None},
        {"tat": [1]},
        {},
        {"tat": 3600.0, "at": "x"},
    ],
)
def test_a_bad_rate_cell_value_holds_sends_back_a_second_at_most(cell: dict[str, Any]) -> None:
    from devtools.memory_store import MemoryStore
    from infra.ports import Put
    from infra.rate_limit import RATE_KEY, SharedRateLimiter

    store = MemoryStore()
    now = 1000.0
    if "tat" in cell and isinstance(cell["tat"], float) and cell["tat"] == 3600.0:
        cell = {**cell, "tat": now + 3600.0}
    store.commit([Put(RATE_KEY, cell, None)])
    slots = SharedRateLimiter(store).reserve(4, now, now + 20)
    assert len(slots) == 4
    assert max(slots) <= now + 1.0 + 4 / 24


def test_a_writer_with_a_fast_clock_does_not_stop_the_others() -> None:
    """A function whose clock runs an hour fast books; one on the right clock books next."""
    from devtools.memory_store import MemoryStore
    from infra.rate_limit import SharedRateLimiter

    store = MemoryStore()
    now = 1000.0
    SharedRateLimiter(store).reserve(4, now + 3600, now + 3600 + 20)
    slots = SharedRateLimiter(store).reserve(4, now, now + 20)
    assert len(slots) == 4 and max(slots) <= now + 1.0


def test_the_game_sends_on_past_a_rate_cell_an_hour_ahead() -> None:
    from infra.ports import Put
    from infra.rate_limit import RATE_KEY, SharedRateLimiter

    table = ServiceGame()
    table.start()
    pipeline = table.service.pipeline
    pipeline.sleep = table.clock.advance
    pipeline.limiter = SharedRateLimiter(table.store, sleep=table.clock.advance)
    table.store.commit([Put(RATE_KEY, {"tat": table.clock.now() + 3600}, None)])
    started = table.clock.now()
    run_sends(table, "R1", "R2")
    assert [sends(table, GROUP, t) for t in ("R1", "R2")] == [1, 1]
    assert table.clock.now() - started <= 1.5


# -- 24.1 an unknown outcome is never sent again blindly -------------------------------------------
def bot_sends(bot: BotTable, *texts: str) -> None:
    def change(txn: Txn) -> None:
        for text in texts:
            txn.send(GROUP_OF_BOT, text)

    bot.service.pipeline.run(game_key(bot.gid), change, None)


def settle_later(bot: BotTable) -> None:
    for _ in range(4):
        bot.clock.advance(60)
        bot.fire_timers()
        bot.service.handle_timer(TimerRequest(game_key(bot.gid), FLUSH, bot.clock.now()))


@pytest.mark.parametrize("fault", ["lost", "kill"])
def test_a_send_telegram_carried_out_is_not_sent_again(fault: str) -> None:
    """The answer to a send is lost after Telegram delivered it (a read timeout), or the function
    dies after the send, before its acknowledgement: the message is shown once."""
    from tests.fakes.faults import AfterDelivery

    bot = BotTable(n=4)
    bot.start()
    faults = AfterDelivery(random.Random(1), methods=("sendMessage",), chats={GROUP_OF_BOT})
    faults.install(bot.api)
    setattr(faults, fault, 1.0)
    with contextlib.suppress(Killed):
        bot_sends(bot, "news 1")
    faults.active = False
    settle_later(bot)
    assert Counter(bot.api.sent)[(GROUP_OF_BOT, "news 1")] == 1


def test_a_prompt_whose_send_was_uncertain_is_shown_again_by_its_reminder_only() -> None:
    from tests.fakes.faults import AfterDelivery

    bot = BotTable(n=4, seed=3)
    faults = AfterDelivery(random.Random(1), lost=1.0, methods=("sendMessage",))
    faults.install(bot.api)
    faults.active = False
    bot.message(bot.uids[0], GROUP_OF_BOT, "/newgame")
    chat = bot.store.get(f"CHAT#{GROUP_OF_BOT}")
    assert chat is not None
    bot.gid = str(chat.doc["game"])
    for uid in bot.uids:
        bot.message(uid, uid, f"/start {bot.gid}")
    faults.active, faults.chats = True, set(bot.uids)
    bot.message(bot.uids[0], GROUP_OF_BOT, "/startgame")  # the answers to private sends are lost
    faults.active = False
    seat = bot.state().turn
    assert faults.counts["lost answer"] >= 1
    pending = bot.state().pending
    assert pending is not None
    prefix = f"{bot.gid}:{pending.id}:"

    def prompts_shown() -> list[int]:
        shown = bot.api.messages_in(bot.uids[seat])
        return [
            m.message_id for m in shown if any(d and d.startswith(prefix) for _, d in m.buttons())
        ]

    assert len(prompts_shown()) == 1  # Telegram did show it
    bot.clock.advance(2)
    bot.fire_timers()
    assert len(prompts_shown()) == 1  # not sent again
    due = bot.doc()["due"]
    bot.clock.advance(max(0.0, due["at"] - bot.clock.now()) + 0.01)  # the reminder's time
    bot.fire_timers()
    reminder = bot.api.messages_in(bot.uids[seat])[-1]
    assert "15 s" in reminder.text
    assert prompts_shown()[-1] == reminder.message_id  # the reminder carries the prompt
    assert bot.duplicates() == []
    bot.press_turn_pass()  # answered on the reminder: the reminder's message closes
    assert not bot.api.message(bot.uids[seat], reminder.message_id).buttons()


def test_a_story_message_whose_send_was_uncertain_is_merged_into_the_next() -> None:
    from tests.fakes.faults import AfterDelivery

    bot = BotTable(n=4)
    bot.start()
    faults = AfterDelivery(random.Random(1), lost=1.0, methods=("sendMessage",))
    faults.chats = {GROUP_OF_BOT}
    faults.install(bot.api)

    def stories() -> list[dict[str, Any]]:
        found = [
            e for e in bot.store.promised.values() if e.get("tag") == "story" and e["op"] == "send"
        ]
        return sorted(found, key=lambda e: int(e["seq"]))

    told = len(stories())
    for _ in range(40):
        bot.clock.advance(100)  # past the story's merge time: each story line is a new message
        bot.timeout_once()
        if len(stories()) > told:
            break
    faults.active = False
    lost = stories()[-1]
    assert (GROUP_OF_BOT, lost["text"]) in bot.api.sent  # shown, but its answer was lost
    for _ in range(40):
        bot.clock.advance(100)
        bot.timeout_once()
        if stories()[-1]["seq"] != lost["seq"]:
            break
    lines = lost["text"].rsplit("\n\n", 1)[0]  # the status at its foot (issue 27) apart
    assert stories()[-1]["text"].startswith(lines + "\n")  # its lines come again
    assert bot.duplicates() == []


# -- 24.2 flood control loses nothing and times out nobody who was not told ------------------------
def promised_in_order(bot: BotTable) -> dict[int, list[str]]:
    """Per chat, the texts of the sends the game promised, in the order it queued them."""
    by_chat: dict[int, list[str]] = {}
    for (_, _seq), e in sorted(bot.store.promised.items(), key=lambda kv: int(kv[0][1])):
        if e["op"] == "send":
            by_chat.setdefault(int(e["chat"]), []).append(e["text"])
    return by_chat


def play_attentively(bot: BotTable, max_steps: int = 3000) -> Any:
    """Every player answers as soon as their phone shows the prompt; the clock runs on only
    when nobody asked can see theirs (so a timeout is the bot's doing, never a player's)."""
    for _ in range(max_steps):
        st = bot.state()
        if st.over:
            return st
        aw = engine.awaiting(st)
        seats = [s for s in (aw.seats if aw else []) if not st.players[s].away]
        shown = [(s, found) for s in seats if (found := bot.prompt(s)) is not None]
        if not shown:
            bot.timeout_once()
            continue
        seat, (message_id, data) = shown[0]
        bot.clock.advance(0.5)
        bot.press(bot.uids[seat], message_id, bot._pick(data, st.round >= 5))
    raise AssertionError("the game did not end")


def test_a_twenty_minute_flood_wait_loses_nothing_and_times_out_nobody() -> None:
    from tests.fakes.faults import LongFlood

    bot = BotTable(n=4)
    bot.start()
    flood = LongFlood(bot.clock.now, start=bot.clock.now(), seconds=1200)
    flood.install(bot.api)
    final = play_attentively(bot)
    for _ in range(6):
        bot.clock.advance(60)
        bot.fire_timers()
    assert final.over
    assert flood.refused and flood.longest_retry_after >= 1190
    assert bot.missing() == [] and bot.duplicates() == []
    sent: dict[int, list[str]] = {}
    for chat, text in bot.api.sent:
        sent.setdefault(chat, []).append(text)
    assert sent == promised_in_order(bot)  # every promised message, in order
    assert not any(p.away for p in final.players)  # nobody was marked away
    notice = t("en", "bot.flood_hold", minutes=20)
    assert sent[GROUP_OF_BOT].count(notice) == 1  # the group is told once
    assert bot.doc()["hold"]["extended"] >= 1190


def test_a_long_hold_extends_the_pending_decision_by_the_time_held() -> None:
    from tests.fakes.faults import LongFlood

    bot = BotTable(n=4)
    bot.start()
    before = bot.doc()["due"]["deadline"]
    LongFlood(bot.clock.now, start=bot.clock.now(), seconds=300).install(bot.api)
    bot.press_turn_pass()  # the next prompt cannot go out
    after = bot.doc()["due"]["deadline"]
    assert after >= bot.clock.now() + 300  # the next decision's clock starts after the hold
    assert after > before


# -- 24.5 nothing is left live after a game -----------------------------------------------------
def live_buttons(bot: BotTable) -> list[tuple[int, int, str]]:
    """(chat, message, callback data) of every button of this game still on show."""
    chats = [GROUP_OF_BOT, *bot.uids]
    return [
        (chat, m.message_id, str(data))
        for chat in chats
        for m in bot.api.messages_in(chat)
        for _, data in m.buttons()
        if data and bot.gid in str(data)
    ]


def test_after_cancel_nothing_live_arrives_and_the_status_keeps_no_deadline() -> None:
    from tests.fakes.faults import LongFlood

    bot = BotTable(n=4)
    bot.start()
    LongFlood(bot.clock.now, start=bot.clock.now(), seconds=120).install(bot.api)
    bot.timeout_once()  # a turn runs out while Telegram holds the bot: its messages wait
    for uid in bot.uids[:3]:  # a majority of the players (handlers.game_cancel)
        bot.message(uid, GROUP_OF_BOT, "/cancel")
    for _ in range(6):
        bot.clock.advance(60)
        bot.fire_timers()
    cancelled = t("en", "lobby.cancelled")
    group = [params for method, params in bot.api.calls if params.get("chat_id") == GROUP_OF_BOT]
    ends = [i for i, params in enumerate(group) if params.get("text") == cancelled]
    assert ends
    after = [p for p in group[ends[-1] + 1 :] if p.get("text")]
    assert all(cancelled in str(p["text"]) for p in after), after  # only the status, as ended
    living = bot.api.message(GROUP_OF_BOT, bot.doc()["story"]["msg"])
    assert living.text.split("\n\n")[-1].startswith("🛑")  # the status at its foot (issue 27)
    assert live_buttons(bot) == []
    assert not [m for m in bot.api.messages_in(GROUP_OF_BOT) if "15 s left" in m.text]


def test_no_button_stays_answerable_after_game_over() -> None:
    """A player marked away keeps no "I'm back" button once the game is over; the turn's
    mention in the group says the turn is over."""
    bot = BotTable(n=4)
    bot.start()
    for _ in range(400):
        if bot.state().over:
            break
        bot.timeout_once()
    assert bot.state().over
    assert any(p.away for p in bot.state().players)  # the away notices went out
    assert live_buttons(bot) == []
    assert not [m for m in bot.api.messages_in(GROUP_OF_BOT) if "15 s left" in m.text]
