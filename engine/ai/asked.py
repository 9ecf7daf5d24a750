"""What an AI passenger is asked now: the seat's view and legal actions, as policies take them."""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.api import legal_actions
from engine.state import State
from engine.views import view


def asked(st: State, seat: int) -> tuple[dict[str, Any], list[Action]]:
    """``seat``'s view and legal actions on the pending decision. A supporter holding the Priest,
    asked before its turn (R-A3), is asked the window's question now (use it or pass: its view
    shows the window's decision with the fight's sides) and its support when its turn comes."""
    seen, legal = view(st, seat), legal_actions(st, seat)
    own, p = seen["decision"], st.pending
    if p is not None and p.window and own and own["data"].get("turn") not in (None, seat):
        data = {k: own["data"][k] for k in ("attacker", "defender")}
        seen = {**seen, "decision": {**own, "kind": p.kind, "data": data}}
        legal = [a for a in legal if a.kind in ("use", "pass")]
    return seen, legal
