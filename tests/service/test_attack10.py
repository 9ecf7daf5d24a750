"""Attacks on the day's merges (issue 27): the living message at the story's foot, "🔜 Offer my
turn ahead again", the kept choice's delayed edit. Each test fails on the code before its fix."""

from __future__ import annotations

import engine
from handlers import fmt
from handlers.i18n import t
from handlers.store_keys import game_key
from infra.ports import Put
from tests.service.service_game import ServiceGame

FULL = "\n".join(["⏭️ a line told before"] * 180)  # 3,960 characters


def test_issue_27_a_story_send_left_uncertain_and_full_loses_no_line_and_no_status() -> None:
    """R-V1: a story message whose send is uncertain (the process died between the call and its
    answer) has its lines sent again with the next ones. They were merged without a size check,
    so that sends uncertain in a row (Telegram timing out for a while) grew one text past
    Telegram's 4,096, which was cut from its end: the newest lines and the status at its foot
    were never shown to the group."""
    table = ServiceGame(n=6)
    table.start()
    got = table.store.get(game_key(table.gid))
    assert got is not None
    got.doc["story"].update(msg=None, uncertain=True, body=FULL, seq=-99)
    table.store.commit([Put(got.key, got.doc, got.version)])
    before = len(table.group_texts())
    table.attack()
    table.flush_group()
    sent = table.group_texts()[before:]
    assert sent, "the lines go"
    assert all(fmt.size(text) <= fmt.MAX_TEXT for text in sent)
    assert all(not text.endswith("…") for text in sent), [x[-80:] for x in sent]
    assert any(text.startswith(FULL) for text in sent), "the uncertain lines come again"
    assert "⚔️" in sent[-1] and "📋" in sent[-1], sent[-1][-300:]


def test_issue_27_a_choice_made_ahead_can_be_changed_while_its_edit_waits() -> None:
    """A clumsy player taps "⏭️ Pass" on "your turn is next" and at once the attack they meant:
    the buttons on show (their message's edit waits ``KEPT_WAIT_SECONDS``, issue 27) still carry
    the decision they were shown for, which the game had already replaced by the one pending
    (it edits the message for it): the change was refused "That button is no longer active."
    for those ten seconds."""
    from tests.service.test_premove import _offer

    table = ServiceGame(n=4)
    table.start()
    _, nxt, _ = _offer(table)
    message_id, payloads = table.prompt(nxt)
    table.press_payload(nxt, "pa")  # pass, chosen ahead
    attack = next(d for d in payloads if d.split(":", 2)[2].startswith("at."))
    table.press(table.uids[nxt], message_id, attack)
    assert t("en", "game.turn.next_held") in table.messenger.answers[-1][1]
    held = engine.view(table.state(), nxt)["next_turn"]
    assert held is not None and held["held"] is not None and held["held"]["kind"] == "attack"


def test_issue_27_a_page_opened_while_the_kept_choice_waits_is_not_turned_back() -> None:
    """A clumsy player chooses ahead (the press's answer says it is kept; the message shows it
    ``KEPT_WAIT_SECONDS`` later) and opens a page of "your turn is next" meanwhile, to change
    it: the page stays under their finger (before the wait the kept edit went first and the
    page after it; with the wait the kept edit turned the page back to the first one)."""
    from handlers import action_payloads, refusals
    from handlers.private_news import KEPT_WAIT_SECONDS
    from handlers.refusals import Stale
    from tests.service.test_premove import _offer

    table = ServiceGame(n=4)
    table.start()
    _, nxt, _ = _offer(table)
    message_id, payloads = table.prompt(nxt)
    table.press_payload(nxt, "pa")  # pass, chosen ahead
    page = action_payloads.nav("tr")
    button = next(d for d in payloads if d.split(":", 2)[2] == page)
    table.press(table.uids[nxt], message_id, button)
    assert table.messenger.answers[-1][1] != refusals.text("en", Stale()), "the page opens"
    opened = table.messenger.messages[(table.uids[nxt], message_id)]
    shown = (opened.text, opened.rows)
    table.clock.advance(KEPT_WAIT_SECONDS + 0.1)
    table.fire_timers()
    now = table.messenger.messages[(table.uids[nxt], message_id)]
    assert (now.text, now.rows) == shown, now.text


def test_R_D1_a_priest_press_while_its_buttons_wait_to_go_changes_nothing_the_group_sees() -> None:
    """A: the second to declare support holds the Priest, lets the window close, presses
    "Use ⛪ Priest" 3 s later (its prompt's edit taking that button away waits
    ``KEPT_WAIT_SECONDS``; the press is refused) and declares 2 s later still, during that wait;
    B: nobody holds it, and the same player declares at the same time. The group sees the same
    at both tables (the held private edit, the refused press and its flush timer tell it
    nothing)."""
    from tests.service.test_twins import _attack, _priest_twins, payload
    from tests.service.twins import assert_same_streams

    a, b, first, x = _priest_twins()
    for twin, priest in ((a, True), (b, False)):
        _attack(twin)
        twin.run_until(twin.due() or 0)  # the window's end
        assert twin.state().pending.kind == "support"  # type: ignore[union-attr]
        twin.wait(3)
        if priest:
            assert "us" in twin.payloads(x), "its buttons still on show"
            twin.press(x, "us")
        twin.wait(2)
        twin.press(x, payload("support", choice="attacker"))
        twin.wait(3)
        twin.press(first, payload("support", choice="neutral"))
        twin.wait(150)
    assert_same_streams(a, b, hidden={x})


def test_issue_27_a_game_cancelled_while_the_kept_choice_waits_stays_closed() -> None:
    """/cancel within ``KEPT_WAIT_SECONDS`` of a choice made ahead: its message says the game
    was cancelled, and the held edit showing the choice kept (with live buttons) never goes."""
    from handlers.private_news import KEPT_WAIT_SECONDS
    from tests.service.service_game import GROUP
    from tests.service.test_premove import _offer

    table = ServiceGame(n=4)
    table.start()
    _, nxt, _ = _offer(table)
    message_id, _ = table.prompt(nxt)
    table.press_payload(nxt, "pa")  # pass, chosen ahead
    for uid in table.uids[:3]:  # a majority cancels
        table.message(uid, GROUP, "/cancel")
    assert table.doc()["phase"] == "cancelled"
    table.clock.advance(KEPT_WAIT_SECONDS + 0.1)
    table.fire_timers()
    shown = table.messenger.messages[(table.uids[nxt], message_id)]
    assert not shown.rows and t("en", "game.turn.next_held") not in shown.text, shown.text


def test_a_creator_flipping_the_settings_menu_never_makes_telegram_hold_the_group() -> None:
    """Telegram's 20 messages a minute in a group count its edits (devtools/botapi, today): the
    game's creator (who may open /settings during their game) pressing its buttons over and
    over edited the menu in the group each time, unrationed ("edits are not rationed",
    ``handlers.reply_budget``), until Telegram held the group and the game's story with it."""
    from devtools.botapi.updates import callback_update
    from tests.service.webhook_table import GROUP as BOT_GROUP
    from tests.service.webhook_table import BotTable

    bot = BotTable(n=4)
    bot.start()
    creator = bot.uids[0]
    bot.message(creator, BOT_GROUP, "/settings")
    menu = next(m for m in reversed(bot.api.messages_in(BOT_GROUP)) if m.buttons())
    for i in range(30):  # 30 presses in 15 s
        data = next(
            d for _, d in bot.api.message(BOT_GROUP, menu.message_id).buttons() if d and ":" in d
        )
        update = callback_update(next(bot.ids), creator, "P", BOT_GROUP, menu.message_id, data)
        bot.api.pressed(update)
        bot.deliver(update)
        bot.clock.advance(0.5)
        if i % 5 == 4:
            bot.press_turn_pass()  # the game goes on meanwhile
    edits = [p for p in bot.api.calls_to("editMessageText") if p["message_id"] == menu.message_id]
    assert edits, "the menu shows the settings changed"
    assert bot.api.limits is not None
    assert bot.api.limits.by_reason["group"] == 0  # Telegram never held the group


def test_a_stranger_joining_and_leaving_a_lobby_never_makes_telegram_hold_the_group() -> None:
    """Telegram's 20 messages a minute in a group count its edits (devtools/botapi, today), and
    every join and leave edits the lobby message: a stranger joining (the lobby's private link)
    and leaving (its button) over and over, 30 edits in 15 s, made Telegram hold the group, the
    lobby as the players joined and the game's first messages with it."""
    from devtools.botapi.updates import callback_update
    from tests.service.webhook_table import GROUP as BOT_GROUP
    from tests.service.webhook_table import BotTable

    bot = BotTable(n=4)
    bot.message(bot.uids[0], BOT_GROUP, "/newgame")
    chat = bot.store.get(f"CHAT#{BOT_GROUP}")
    assert chat is not None
    bot.gid = str(chat.doc["game"])
    griefer = 9999
    for _ in range(15):
        bot.message(griefer, griefer, f"/start {bot.gid}")
        bot.clock.advance(0.5)
        lobby = bot.doc()["lobby_msg"]
        shown = bot.api.message(BOT_GROUP, lobby)
        leave = next(d for _, d in shown.buttons() if d and d.endswith(":leave"))
        update = callback_update(next(bot.ids), griefer, "G", BOT_GROUP, lobby, leave)
        bot.api.pressed(update)
        bot.deliver(update)
        bot.clock.advance(0.5)
    for uid in bot.uids:
        bot.message(uid, uid, f"/start {bot.gid}")
    bot.message(bot.uids[0], BOT_GROUP, "/startgame")
    bot.clock.advance(31)
    bot.fire_timers()
    assert bot.doc()["phase"] == "playing"
    assert bot.api.limits is not None
    assert bot.api.limits.by_reason["group"] == 0  # Telegram never held the group


def test_issue_27_a_forged_offer_again_button_changes_nothing_it_should_not() -> None:
    """ "🔜 Offer my turn ahead again" (``N:<game>``) forged: by a stranger in their private
    chat, by a player in the group, or after the game was cancelled. Only a seated player's
    own press in their private chat changes anything (their own offers)."""
    from handlers import refusals
    from handlers.callback_data import ahead_again
    from handlers.refusals import Stale
    from tests.service.service_game import GROUP

    table = ServiceGame(n=4)
    table.start()
    data = ahead_again(table.gid)
    before = table.doc()
    group = len(table.group_texts())
    table.press(999, 1, data)  # a stranger, in their own chat
    table.press(table.uids[1], 1, data, chat=GROUP)  # a player, in the group
    after = table.doc()
    assert after.get("ahead_unused", {}) == before.get("ahead_unused", {})
    assert after.get("outbox", []) == before.get("outbox", [])
    assert len(table.group_texts()) == group
    for uid in table.uids[:3]:
        table.message(uid, GROUP, "/cancel")
    table.press(table.uids[1], 1, data)
    assert table.messenger.answers[-1][1] == refusals.toast("en", Stale())[0]
