"""What players read, from a reviewer's recorded game (``devtools.transcript --players 5
--seed 3``, issue 25): lines that said again what the line above them says."""

from __future__ import annotations

import engine
from engine.turn import matching_card
from handlers import action_payloads
from handlers.card_labels import card_label
from handlers.i18n import t
from tests.service.test_premove import _diplomat_table


def test_a_diplomat_is_not_told_again_what_the_forced_trade_gave_them() -> None:
    """The Diplomat's answered prompt says "✔️ You give 🧭 Sextant for 🏆 Goblet."; the news
    "📥 You received 🏆 Goblet from P4." below it said it again (a partner who accepts a trade
    was spared it already, issue 27)."""
    table, now, _ = _diplomat_table()
    st = table.state()
    assert st.pending is not None
    demands = [
        a
        for a in engine.legal_actions(st, now)
        if a.kind == "diplomat"
        and a.target is not None
        and matching_card(st, a.target, a.card or "") is not None
    ]
    demand = demands[0]
    assert demand.target is not None
    target, card = demand.target, matching_card(st, demand.target, demand.card or "")
    assert card is not None
    turn_id, _ = table.prompt(now)
    payload = action_payloads.encode_action(demand)
    chat = table.uids[now]
    since = len(table.messenger.api.messages_in(chat))
    table.press(chat, turn_id, f"{table.gid}:{st.pending.id}:{payload}")
    asked = 0
    while table.state().pending.kind == "diplomat_give":  # type: ignore[union-attr]
        table.press_payload(now, "gv", prefix=True)
        asked += 1
    assert asked == 1
    shown = "\n".join(m.text for m in table.messenger.api.messages_in(chat)[since - 1 :])
    got = card_label("en", card)
    assert f"for {got}." in shown, shown  # the answer line says what came back
    name = table.state().players[target].name
    again = t("en", "game.private.received.trade", card=got, name=name)
    assert again not in shown, shown
