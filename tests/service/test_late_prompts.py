"""A window's prompt that Telegram failed to take is sent again later: if its window closed
meanwhile, it arrives in its closed form (no buttons, what happened), never as a live question
with a deadline already past; privately, the group sees nothing of it (R-D1)."""

from __future__ import annotations

import pytest

from handlers import lobby
from tests.service.service_game import ServiceGame


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
