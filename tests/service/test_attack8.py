"""Attacks on this session's additions (helper attack8): the reply budget, the /cancel vote,
the press alerts' cut, through the webhook (``tests.service.webhook_table``)."""

from __future__ import annotations

import pytest

from devtools.botapi.limits import MAX_CALLBACK_ANSWER, utf16_len
from devtools.botapi.updates import chat_member
from handlers.i18n import t
from handlers.private_news import KEPT_WAIT_SECONDS
from handlers.reply_budget import GROUP_REPLIES_PER_MINUTE
from infra.telegram_markup import fit_alert
from tests.e2e.harness import Harness, Player
from tests.service.service_game import ServiceGame
from tests.service.test_riding_decisions import _attack, _defender, _EditLog, _supporters
from tests.service.webhook_table import GROUP, BotTable

SPAMMER = 9999
STRANGER = Player(uid=7690, name="Outsider")


def group_sends(bot: BotTable) -> list[str]:
    return [p["text"] for p in bot.api.calls_to("sendMessage") if p["chat_id"] == GROUP]


def test_one_spammer_cannot_spend_the_groups_replies_a_players_status_needs() -> None:
    """A member with no seat sends distinct commands (/rules with args, /scores, /help, ...):
    each reply differs, so none is taken for another. Before: his six used the group's minute,
    and a player's /status right after was dropped."""
    bot = BotTable(n=4)
    bot.start()
    spam = ["/help", "/scores", "/rules 1", "/rules 2", "/rules 3", "/newgame", "/settings"]
    for i in range(3 * GROUP_REPLIES_PER_MINUTE):
        bot.message(SPAMMER, GROUP, spam[i % len(spam)] + " " * (i // len(spam)))
        bot.clock.advance(0.5)
    bot.press_turn_pass()  # a real event: the status changes
    before = len(group_sends(bot))
    bot.message(bot.uids[1], GROUP, "/status")
    assert len(group_sends(bot)) == before + 1


# -- joining a lobby: getChatMember (handlers.lobby.cmd_start_private) -------------------------
def _lobby() -> tuple[Harness, str]:
    players = [Player(uid=7600 + i, name=f"Rider {i}") for i in range(3)]
    h = Harness(players, seed=2)
    h.service.is_member = h.messenger.is_member  # as deployed (handlers.runtime)
    h.open_lobby_and_join()
    return h, h.last_gid


def _seated(h: Harness) -> list[int]:
    return [p["uid"] for p in h.game_doc()["players"]]


@pytest.mark.parametrize("status", ["creator", "administrator"])
def test_the_groups_creator_and_admins_take_a_seat(status: str) -> None:
    h, gid = _lobby()
    h.api.set_member_status(h.group, STRANGER.uid, status)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)


def test_a_restricted_user_still_in_the_group_takes_a_seat() -> None:
    """A member muted by the group's admins is still its member (is_member: true)."""
    h, gid = _lobby()
    h.api.set_member_status(h.group, STRANGER.uid, "restricted", is_member=True)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)


def test_telegram_down_while_asking_seats_the_player_within_the_invocation() -> None:
    """getChatMember answering 502 for a minute: the join is not lost, nor held past the
    invocation's time (the player is seated: never kept out by the bot's blindness)."""
    h, gid = _lobby()
    h.api.inject_outage(3.0)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)
    assert not h.errors


# -- a press's alert cut to Telegram's 200 (infra.telegram_markup.fit_alert) -------------------
@pytest.mark.parametrize(
    "text",
    [
        "🐴" * 150,  # surrogate pairs only, no space: the cut must not split one
        "a" + "🐴" * 150,  # a pair straddling the 200th unit
        "word " * 30 + "🐴" * 100,
        "x" * 500,
        "Ein sehr langer Name " + "👨‍👩‍👧‍👦" * 40,  # joined emoji
        "\n".join(["Zeile"] * 60),  # newlines, no spaces
    ],
)
def test_a_cut_alert_is_within_telegrams_limit_and_valid_utf16(text: str) -> None:
    cut = fit_alert(text)
    assert cut is not None and cut.endswith("…")
    assert utf16_len(cut) <= MAX_CALLBACK_ANSWER
    cut.encode("utf-16-le")  # a lone surrogate would raise
    assert text.startswith(cut[:-1])
    assert utf16_len(cut) >= MAX_CALLBACK_ANSWER - 12  # not cut far shorter than needed


def test_an_alert_starting_with_a_space_keeps_its_words() -> None:
    """A leading space (a name that is only a space, a locale line) and one long word: the
    cut kept nothing but '…' before."""
    cut = fit_alert(" " + "y" * 300)
    assert cut is not None and len(cut) > 100


# -- a support declared ahead, its prompt's edit deferred (handlers.private_news) --------------
def _edits_of(log: _EditLog, table: ServiceGame, seat: int, prompt: int) -> list[str]:
    return [e[2] for e in log.edits if e[:2] == (table.uids[seat], prompt)]


def test_a_support_changed_within_the_wait_shows_the_last_choice_once() -> None:
    """su.ha, then su.hd 3 s later: the prompt shows the defender's side, in one edit."""
    log = _EditLog()
    table = ServiceGame(n=5, messenger=log)
    table.start()
    attacker, defender, _ = _attack(table, priest=_defender(table))
    third = _supporters(table, attacker)[2]
    prompt, _ = table.prompt(third)
    log.edits.clear()
    table.press_payload(third, "su.ha")
    table.clock.advance(3.0)
    table.press_payload(third, "su.hd")
    assert "Kept until your turn" in table.messenger.answers[-1][1]
    assert _edits_of(log, table, third, prompt) == []
    table.clock.advance(KEPT_WAIT_SECONDS + 0.01)
    table.fire_timers()
    mine = _edits_of(log, table, third, prompt)
    name = f"<b>{table.state().players[defender].name}</b>"
    assert len(mine) == 1, mine
    assert t("en", "game.support.held.defender", name=name) in mine[0]


def test_a_support_declared_as_the_priest_window_closes_is_one_edit() -> None:
    """The press lands just before the Priest window's deadline: the window closing inside the
    wait closes the prompt instead (one edit, never the kept text then the closed one)."""
    log = _EditLog()
    table = ServiceGame(n=5, messenger=log)
    table.start()
    attacker, _, _ = _attack(table, priest=_defender(table))
    third = _supporters(table, attacker)[2]
    prompt, _ = table.prompt(third)
    due = float(table.doc()["due"]["at"])
    table.clock.advance(max(0.0, due - table.clock.now() - 0.01))
    log.edits.clear()
    window = table.doc()["due"]
    table.press_payload(third, "su.ha")
    table.clock.advance(0.02)
    table.fire_timers()  # the window closes
    assert table.doc()["due"] != window
    table.clock.advance(KEPT_WAIT_SECONDS + 0.01)
    table.fire_timers()
    mine = _edits_of(log, table, third, prompt)
    assert len(mine) <= 1, mine


# -- /cancel of a game under way (handlers.game_cancel) ----------------------------------------
def test_the_players_still_at_the_table_may_end_it_when_others_left_the_group() -> None:
    """Two of four left the group (marked away, R-D2): they can no longer vote there. Before,
    the majority still counted them (3 of 4), so the two left at the table could never end it."""
    bot = BotTable(n=4)
    bot.start()
    for leaver in bot.uids[2:]:
        bot.deliver(chat_member(next(bot.ids), GROUP, leaver, "P"))
    assert all(p.away for p in bot.state().players[2:])
    bot.message(bot.uids[0], GROUP, "/cancel")
    assert bot.doc()["phase"] == "playing"  # one of the two is no majority
    bot.message(bot.uids[1], GROUP, "/cancel")
    assert bot.doc()["phase"] == "cancelled"


def test_votes_of_a_game_cancelled_do_not_count_in_the_next() -> None:
    bot = BotTable(n=4)
    bot.service.is_admin = lambda chat, uid: uid == 4242
    bot.start()
    for uid in bot.uids[:2]:
        bot.message(uid, GROUP, "/cancel")
    bot.message(4242, GROUP, "/cancel")
    assert bot.doc()["phase"] == "cancelled"
    bot.start()  # a new game, the same players
    bot.message(bot.uids[0], GROUP, "/cancel")
    assert bot.doc()["phase"] == "playing"
