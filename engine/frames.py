"""The frames of ``State.frames``: what is being resolved, innermost last — a player's turn, a
trade inside it, a fight inside it. Each kind is a ``TypedDict``: plain JSON dicts at run time (as
cheap as before, stored as they are), checked by mypy at every access.

Keys a frame gains while it is resolved (a fight's supports once the Priest window opens, a
trade's effects once the items changed hands) are ``NotRequired``.

Games stored before the frames were typed used short keys (``a``, ``d``, ``sup``, ``si``, …);
``migrate`` renames them, and ``State.from_dict`` applies it to every frame it loads.
"""

from typing import Any, Literal, NotRequired, TypedDict


class TurnFrame(TypedDict):
    """§4: the turn of ``seat``; stage start → act → after → end."""

    kind: Literal["turn"]
    seat: int
    stage: str
    premove: NotRequired[dict[str, Any]]  # the next seat's action chosen ahead (engine.premove)
    premove_keep: NotRequired[bool]  # ... and it keeps a face-down free use: ask it first
    chosen: NotRequired[dict[str, Any]]  # this seat's own action chosen ahead, played as it opens
    chosen_keep: NotRequired[bool]
    kept: NotRequired[dict[str, Any]]  # chosen ahead, offered as one tap with the free uses


class TradeFrame(TypedDict):
    """R-T1…R-T9: ``trader`` offers ``trader_card`` to ``partner``, who answers with
    ``partner_card`` (a Diplomat's exchange is ``forced``: no answer); stage offer → swap →
    smuggle → resolve."""

    kind: Literal["trade"]
    trader: int
    partner: int
    trader_card: str
    partner_card: str | None
    forced: bool
    stage: str
    effects: NotRequired[list[list[Any]]]  # [giver, card, receiver] whose trade effect fires
    effects_done: NotRequired[int]  # how many of ``effects`` were resolved, in order


class FightFrame(TypedDict):
    """R-A1…R-A10: ``attacker`` attacks ``defender``; stage priest → support → hypnotist → boost
    → result → doctor → reward → end (priest_tribute when the Priest stops it)."""

    kind: Literal["fight"]
    attacker: int
    defender: int
    stage: str
    support_order: NotRequired[list[int]]  # R-A3: the supporters, from the attacker's left
    supports: NotRequired[dict[str, str]]  # seat (as str) → side, told in order
    supports_told: NotRequired[int]  # how many of ``support_order`` were told
    held_supports: NotRequired[dict[str, str]]  # declared ahead of their turn, not told yet
    priest_passed: NotRequired[list[int]]  # supporters who said "not now" to their Priest
    hypnotized: NotRequired[int | None]  # R-A4: the seat whose support counts nothing
    played: NotRequired[list[list[Any]]]  # R-A5: [seat, card, choice] in the boost window
    duelist: NotRequired[int | None]  # the seat who played the Duelist
    mixer_side: NotRequired[str | None]  # the side the Poison Mixer made win
    winner: NotRequired[int | None]  # None: a tie
    cancelled: NotRequired[bool]  # R-A8: the Doctor cancelled the outcome
    early_reward: NotRequired[str]  # the winner's reward chosen during the Doctor window
    priest: NotRequired[int]  # R-A2: the seat whose Priest stopped the fight


Frame = TurnFrame | TradeFrame | FightFrame


def fight_on_top(frames: list[Frame]) -> FightFrame:
    """The innermost frame, which the caller knows is a fight (a fight decision is pending)."""
    f = frames[-1]
    assert f["kind"] == "fight", f["kind"]
    return f


def trade_on_top(frames: list[Frame]) -> TradeFrame:
    """The innermost frame, which the caller knows is a trade."""
    f = frames[-1]
    assert f["kind"] == "trade", f["kind"]
    return f


def turn_on_top(frames: list[Frame]) -> TurnFrame:
    """The innermost frame, which the caller knows is a turn."""
    f = frames[-1]
    assert f["kind"] == "turn", f["kind"]
    return f


def innermost_fight(frames: list[Frame]) -> FightFrame | None:
    """The fight being resolved (the innermost), if any."""
    for f in reversed(frames):
        if f["kind"] == "fight":
            return f
    return None


def innermost_trade(frames: list[Frame]) -> TradeFrame | None:
    """The trade being resolved (the innermost), if any."""
    for f in reversed(frames):
        if f["kind"] == "trade":
            return f
    return None


# The short keys of games stored before the frames were typed, per frame kind.
_OLD_KEYS: dict[str, dict[str, str]] = {
    "turn": {},
    "trade": {
        "a": "trader",
        "b": "partner",
        "ca": "trader_card",
        "cb": "partner_card",
        "fire": "effects",
        "i": "effects_done",
    },
    "fight": {
        "a": "attacker",
        "d": "defender",
        "order": "support_order",
        "sup": "supports",
        "si": "supports_told",
        "held": "held_supports",
        "passed": "priest_passed",
        "hyp": "hypnotized",
        "duel": "duelist",
        "mixer": "mixer_side",
        "early": "early_reward",
    },
}


def stored_before_typed(stored: dict[str, Any]) -> bool:
    """The frame was stored with the old short keys."""
    return "t" in stored


def migrate(stored: dict[str, Any]) -> Frame:
    """A frame as loaded: one stored with the old short keys (its kind under ``t``) renamed."""
    if not stored_before_typed(stored):
        return stored  # type: ignore[return-value]  # stored by this code: already typed
    renames = _OLD_KEYS[stored["t"]]
    out = {"kind": stored["t"]}
    out.update((renames.get(k, k), v) for k, v in stored.items() if k != "t")
    return out  # type: ignore[return-value]
