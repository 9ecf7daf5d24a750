"""Ten players press at the same moment: every press is applied exactly once (issue 3)."""

from __future__ import annotations

import threading
from pathlib import Path

import engine
from infra.sqlite_store import SqliteStore
from tests.service.service_game import ServiceGame


def test_simultaneous_presses_in_one_window_are_each_applied_once(tmp_path: Path) -> None:
    table = ServiceGame(n=10, seed=5)
    table.store = SqliteStore(str(tmp_path / "games.sqlite3"), clock=table.clock)
    table.service.store = table.store
    table.service.pipeline.store = table.store
    table.start()
    table.attack()
    fight = table.state().frames[-1]
    a, d = fight["a"], fight["d"]
    knives, whip, mixer = fight["order"][:3]  # supporters, from the attacker's left
    sides = {knives: ".ha", whip: ".hd"}

    def able(st: engine.State) -> None:
        """Five players get something to play: only they are asked in the boost window."""
        for seat, card in [(a, "dagger"), (d, "gloves"), (knives, "casting_knives")]:
            table.give(st, seat, card)
        table.give(st, whip, "whip")
        table.give(st, mixer, "poison_mixer")

    table.arrange(able)
    while (aw := engine.awaiting(table.state())) is not None and aw.kind != "boost":
        if aw.closable or not aw.seats:
            table.wait_until_due()
            continue
        message_id, data = table.prompt(aw.seats[0])
        side = sides.get(aw.seats[0], ".hn")
        answer = next(d for d in data if d.endswith(side) or d.endswith(":pa"))
        table.press(table.uids[aw.seats[0]], message_id, answer)
    aw = engine.awaiting(table.state())
    # only players with something to play are still asked (the others passed by themselves)
    assert aw is not None and aw.kind == "boost"
    assert sorted(aw.seats) == sorted([a, d, knives, whip, mixer])
    presses = []
    for s in aw.seats:
        message_id, data = table.prompt(s)
        presses.append((table.uids[s], message_id, next(d for d in data if d.endswith(":pa"))))
    version = table.store.get(f"GAME#{table.gid}").version  # type: ignore[union-attr]
    start = threading.Barrier(len(presses))

    def press(uid: int, message_id: int, data: str) -> None:
        start.wait()
        table.press(uid, message_id, data)

    threads = [threading.Thread(target=press, args=p) for p in presses]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    after = table.state()
    assert after.pending is not None and after.pending.kind == "boost"
    assert not after.pending.actors and len(after.pending.done) == 10  # every pass applied once
    assert table.store.get(f"GAME#{table.gid}").version == version + len(presses)  # type: ignore[union-attr]
