"""The path from an update to a committed game: dedupe, conflicts, crashes, timers (issue 3)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import engine
from infra.ports import Delete, Put
from tests.service.service_game import ServiceGame


def test_duplicate_delivery_is_applied_once_and_sends_nothing_new() -> None:
    table = ServiceGame()
    table.start()
    seat = table.state().turn
    message_id, data = table.prompt(seat)
    pass_button = next(d for d in data if d.endswith(":pa"))
    update = table.press(table.uids[seat], message_id, pass_button)
    version = table.store.get(f"GAME#{table.gid}").version  # type: ignore[union-attr]
    sent = dict(table.messenger.calls)
    table.service.handle_update(update)
    assert table.store.get(f"GAME#{table.gid}").version == version  # type: ignore[union-attr]
    assert table.messenger.calls.get("sendMessage") == sent.get("sendMessage")


def test_conflict_between_read_and_write_is_retried_and_nothing_is_lost() -> None:
    table = ServiceGame()
    table.start()
    st = table.state()
    seat = st.turn
    message_id, data = table.prompt(seat)
    injected = {"done": False}

    def second_writer(writes: Sequence[Put | Delete], update_id: int | None) -> None:
        """Another Lambda commits a change to the same game between our read and write."""
        if injected["done"] or not any(w.key == f"GAME#{table.gid}" for w in writes):
            return
        injected["done"] = True
        current = table.store.get(f"GAME#{table.gid}")
        assert current is not None
        doc = dict(current.doc, touched_by_other=True)
        table.store.before_commit = None
        table.store.commit([Put(current.key, doc, current.version)])

    table.store.before_commit = second_writer
    table.press(table.uids[seat], message_id, next(d for d in data if d.endswith(":pa")))
    doc = table.doc()
    assert injected["done"]
    assert doc.get("touched_by_other") is True  # the other writer's change survived
    after = engine.State.from_dict(doc["engine"])
    assert after.pending is not None and st.pending is not None
    assert after.pending.id != st.pending.id  # and our pass was applied


def test_crash_after_commit_loses_no_message() -> None:
    table = ServiceGame()
    table.start()
    seat = table.state().turn
    message_id, data = table.prompt(seat)

    def crash(writes: Sequence[Put | Delete], update_id: int | None) -> None:
        if any(w.key == f"GAME#{table.gid}" for w in writes):
            table.store.after_commit = None
            raise RuntimeError("the Lambda died after the commit")

    table.store.after_commit = crash

    def sends() -> int:
        methods = ("sendMessage", "editMessageText", "pinChatMessage")  # the status is pinned
        return sum(table.messenger.calls.get(m, 0) for m in methods)

    before = sends()
    table.press(table.uids[seat], message_id, next(d for d in data if d.endswith(":pa")))
    assert sends() == before  # the process died: nothing went out
    promised = [e["seq"] for e in table.doc()["outbox"]]
    assert promised, "what was promised is in the outbox"
    table.clock.advance(30)
    table.fire_timers()  # the next process to touch the game (here a timer) finishes the sends
    assert sends() == before + len(promised)
    table.clock.advance(1)
    table.fire_timers()
    assert sends() == before + len(promised)  # and nothing is sent twice


def test_stale_and_duplicate_timers_are_harmless() -> None:
    table = ServiceGame()
    table.start()
    table.wait_until_due()  # the first turn times out: pass
    version = table.store.get(f"GAME#{table.gid}").version  # type: ignore[union-attr]
    from infra.ports import TimerRequest

    table.service.handle_timer(TimerRequest(f"GAME#{table.gid}", 1, table.clock.now() - 5))
    table.service.handle_timer(TimerRequest(f"GAME#{table.gid}", 1, table.clock.now() - 5))
    assert table.store.get(f"GAME#{table.gid}").version == version  # type: ignore[union-attr]


def test_early_timer_does_not_apply_the_timeout() -> None:
    table = ServiceGame()
    table.start()
    st = table.state()
    from infra.ports import TimerRequest

    assert st.pending is not None
    table.service.handle_timer(TimerRequest(f"GAME#{table.gid}", st.pending.id, table.clock.now()))
    assert table.state().pending.id == st.pending.id  # type: ignore[union-attr]


def test_stale_press_reads_once_and_writes_only_its_update_marker() -> None:
    """The marker alone, so a redelivery of the press is not answered a second time."""
    table = ServiceGame()
    table.start()
    seat = table.state().turn
    message_id, data = table.prompt(seat)
    button = next(d for d in data if d.endswith(":pa"))
    table.press(table.uids[seat], message_id, button)
    reads, writes = table.store.stats.reads, table.store.stats.writes
    table.press(table.uids[seat], message_id, button)
    assert (table.store.stats.reads - reads, table.store.stats.writes - writes) == (1, 1)
    assert table.messenger.answers[-1][1]  # a toast explains it


@pytest.mark.parametrize("n", [3, 6])
def test_R_D1_window_nobody_can_use_lasts_its_minimum(n: int) -> None:
    """An attack opens the Priest window; it closes at its minimum, never at once."""
    table = ServiceGame(n=n)
    table.start()
    table.attack()
    st = table.state()
    aw = engine.awaiting(st)
    assert aw is not None and aw.kind == "priest"
    opened = table.doc()["dec"]["opened"]
    due = table.doc()["due"]["at"]
    assert due - opened >= 5 - 1e-6


def test_private_language_change_follows_into_the_running_game() -> None:
    table = ServiceGame()
    table.start()
    uid = table.uids[1]
    table.message(uid, uid, "/language")
    shown = table.messenger.in_chat(uid)[-1]
    german = next(b[2] for row in shown.rows or [] for b in row if b[2].endswith(":de"))
    table.press(uid, shown.message_id, german)
    assert next(p for p in table.doc()["players"] if p["uid"] == uid)["lang"] == "de"


def test_R_D2_away_player_is_played_by_an_ai_and_comes_back_with_the_button() -> None:
    table = ServiceGame(n=4)
    table.start()
    for _ in range(200):  # nobody presses anything: deadlines pass until someone is away
        if any(p.away for p in table.state().players):
            break
        table.wait_until_due()
    st = table.state()
    away = next(s for s, p in enumerate(st.players) if p.away)
    uid = table.uids[away]
    notice = next(
        m for m in table.messenger.in_chat(uid) if m.rows and m.rows[0][0][2].startswith("B:")
    )
    assert not table.state().over
    assert not [
        m for m in table.messenger.in_chat(uid) if m.message_id > notice.message_id and m.rows
    ]
    table.press(uid, notice.message_id, notice.rows[0][0][2])  # type: ignore[index]
    assert not table.state().players[away].away


def test_R_D1_hidden_windows_close_at_the_same_time_whoever_could_act() -> None:
    """A Priest/Hypnotist/Doctor window lasts its full time even when nobody holds the card, and
    no longer when someone does and hesitates: its length tells the table nothing."""
    table = ServiceGame(n=5)
    table.start()
    table.attack()
    aw = engine.awaiting(table.state())
    assert aw is not None and aw.kind == "priest"
    doc = table.doc()
    length = doc["due"]["at"] - doc["dec"]["opened"]
    from handlers.group_settings import GroupSettings

    expected = GroupSettings.model_validate(doc["settings"]).deadlines.window
    assert abs(length - expected) < 1e-6  # the same with or without a Priest at the table
