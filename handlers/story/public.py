"""The group's story (R-V1): one message for the public events of one step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from engine.actions import Event
from engine.cards import (
    COAT_OF_ARMS,
    DIPLOMAT,
    DOCTOR,
    DUELIST,
    HYPNOTIST,
    OCCUPATIONS,
    POISON_MIXER,
    POISON_RING,
    PRIEST,
)
from engine.view_types import FinalResult
from handlers import fmt
from handlers.card_labels import association_label, drink_label, occupation_label
from handlers.i18n import t
from handlers.story.table import final_lines

Fight = tuple[int, int] | None
# A line for one of these names the occupation its seat just used: the "reveals" line goes.
_NAMES_OCCUPATION = ("priest_stopped", "doctor_cancelled", "hypnotized", "diplomat", "played")


class Teller:
    """Renders one public event at a time, remembering which fight the events belong to."""

    def __init__(self, table: fmt.Table, lang: str, fight: Fight) -> None:
        self.table = table
        self.lang = lang
        self.fight = fight

    def t(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    def n(self, seat: int) -> str:
        return fmt.name(self.table, seat)

    def side(self, choice: str) -> str:
        """The name of the fight's attacker or defender."""
        if self.fight is None:
            return self.t(f"game.side.{choice}")
        return self.n(self.fight[0] if choice == "attacker" else self.fight[1])

    def occ(self, occupation: str) -> str:
        return occupation_label(self.lang, occupation)

    def item(self, card: str) -> str:
        return fmt.public_item(self.lang, card)

    def line(self, e: Event) -> str | None:
        """The story's line for one public event (None: the event has no line of its own)."""
        tell = LINES.get(e.kind)
        if tell is None:
            return None  # game_started (the seat order has its own message), fight_over
        d: dict[str, Any] = e.data
        seat = d.get("seat")
        name = self.n(seat) if isinstance(seat, int) else ""
        target = self.n(d["target"]) if isinstance(d.get("target"), int) else ""
        return tell(self, Said(e.kind, d, name, target))

    def _played(self, name: str, d: dict[str, Any]) -> str:
        card = d["card"]
        label = self.occ(card) if card in OCCUPATIONS else self.item(card)
        if card == POISON_MIXER:
            return self.t(
                "game.story.played_mixer", name=name, label=label, winner=self.side(d["choice"])
            )
        if card == DUELIST:
            return self.t("game.story.played_duelist", name=name, label=label)
        return self.t("game.story.played", name=name, label=label)

    def _count(self, d: dict[str, Any]) -> str:
        """R-W3/R-W4 at a claim, all revealed (R-V3): each counted seat's goal items, the
        declarer's Drink of Power, the total against the three needed."""
        side = association_label(self.lang, d["side"])
        parts = []
        for x in d["seats"]:
            name = self.n(x["seat"])
            if not x["ally"]:
                parts.append(self.t("game.story.count.not_ally", name=name, side=side))
            elif x["goal"] == 0:
                parts.append(self.t("game.story.count.none", name=name))
            else:
                parts.append(self.t("game.story.count.seat", name=name, count=x["goal"]))
        drink = drink_label(self.lang)
        if d["drink"]:  # one that does not count is no term of the sum: its own line says why
            parts.append(self.t("game.story.count.drink", drink=drink, count=int(d["drink"])))
        out = [
            self.t(
                "game.story.count",
                goal=fmt.goal_label(self.lang, d["side"]),
                parts=" + ".join(parts),
                total=d["total"],
                needed=d["needed"],
            )
        ]
        if d["drink"] is not None:
            key = "game.story.count.drink_counts" if d["drink"] else "game.story.count.drink_not"
            out.append(self.t(key, name=self.n(d["seat"]), drink=drink, side=side))
        why = d.get("why")
        if why is not None:  # issue 25: a failing tally says why in words, not by a ✗ alone
            named = [x["seat"] for x in d["seats"] if x["seat"] != d["seat"]]
            if why == "not_ally":
                named = [s for s in named if not _seat(d, s)["ally"]]
            elif why == "none":
                named = [s for s in named if _seat(d, s)["goal"] == 0]
            out.append(
                self.t(
                    f"game.story.count.fail_{why}",
                    side=side,
                    goal=fmt.goal_label(self.lang, d["side"]),
                    names=fmt.names(self.table, self.lang, named),
                    total=d["total"],
                    needed=d["needed"],
                )
            )
        return "\n".join(out)

    def _result(self, d: dict[str, Any]) -> str:
        self.fight = (d["seat"], d["target"])
        winner = self.n(d["winner"]) if d["winner"] is not None else ""
        return self.t(
            f"game.story.result.{d['how']}",
            attacker=self.n(d["seat"]),
            defender=self.n(d["target"]),
            attack=d["attack"],
            defence=d["defence"],
            winner=winner,
            ring=self.item(POISON_RING),
            mixer=self.occ(POISON_MIXER),
        )


@dataclass(frozen=True)
class Said:
    """One public event as its line needs it: kind, data, the names of its seat and target."""

    kind: str
    d: dict[str, Any]
    name: str
    target: str


def _named(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}", name=e.name, target=e.target)


def _with_coat(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}", name=e.name, target=e.target, coat=tl.item("coat"))


def _with_tome(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}", name=e.name, target=e.target, tome=tl.item("tome"))


def _turn(tl: Teller, e: Said) -> str:
    return tl.t("game.story.turn", name=e.name, round=e.d["round"])


def _trade_done(tl: Teller, e: Said) -> str | None:
    return tl.t("game.story.trade_forced", name=e.name, target=e.target) if e.d["forced"] else None


def _effects(tl: Teller, e: Said) -> str:
    return "\n".join(
        tl.t(
            "game.story.effect",
            receiver=tl.n(x["receiver"]),
            giver=tl.n(x["giver"]),
            item=tl.item(x["item"]),
        )
        for x in e.d["items"]
    )


def _drew(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}.{e.d['reason']}", name=e.name, pile=e.d.get("pile", 0))


def _bags_turned(tl: Teller, e: Said) -> str:
    return tl.t(
        "game.story.bags_turned",
        bag=tl.item("bag_key"),
        key_item=tl.item("key"),
        goblet_item=tl.item("goblet"),
    )


def _coat_empty(tl: Teller, e: Said) -> str:
    return tl.t("game.story.coat_empty", name=e.name, coat=tl.item("coat"))


def _sextant(tl: Teller, e: Said) -> str:
    direction = tl.t(f"game.dir.{e.d['direction']}")
    return tl.t("game.story.sextant", name=e.name, direction=direction, sextant=tl.item("sextant"))


def _sextant_passed(tl: Teller, e: Said) -> str:
    return tl.t("game.story.sextant_passed")


def _occupation_used(tl: Teller, e: Said) -> str:
    return tl.t("game.story.occupation_used", name=e.name, label=tl.occ(e.d["occupation"]))


def _diplomat(tl: Teller, e: Said) -> str:
    return tl.t(
        "game.story.diplomat",
        name=e.name,
        target=e.target,
        label=tl.occ(DIPLOMAT),
        item=fmt.item_name(tl.lang, e.d["name"]),
    )


def _priest_stopped(tl: Teller, e: Said) -> str:
    attacker = tl.n(e.d["attacker"])
    return tl.t("game.story.priest_stopped", name=e.name, attacker=attacker, label=tl.occ(PRIEST))


def _gift(tl: Teller, e: Said) -> str:
    key = f"game.story.gift.{e.d['reason']}"
    return tl.t(key, name=e.name, target=e.target, label=tl.occ(PRIEST))


def _support(tl: Teller, e: Said) -> str:
    side = e.d["side"]
    return tl.t(f"game.story.support.{side}", name=e.name, side=tl.side(side))


def _hypnotized(tl: Teller, e: Said) -> str:
    return tl.t("game.story.hypnotized", name=e.name, target=e.target, label=tl.occ(HYPNOTIST))


def _played(tl: Teller, e: Said) -> str:
    return tl._played(e.name, e.d)


def _fight_result(tl: Teller, e: Said) -> str:
    return tl._result(e.d)


def _doctor_cancelled(tl: Teller, e: Said) -> str:
    return tl.t("game.story.doctor_cancelled", name=e.name, label=tl.occ(DOCTOR))


def _reward(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.reward.{e.d['choice']}", name=e.name, target=e.target)


def _claim(tl: Teller, e: Said) -> str:
    named = e.d["named"]
    key = f"game.story.{e.kind}" if named else f"game.story.{e.kind}_alone"
    return tl.t(key, name=e.name, names=fmt.names(tl.table, tl.lang, named))


def _claim_solo(tl: Teller, e: Said) -> str:
    return tl.t("game.story.claim_solo", name=e.name, coa=tl.item(COAT_OF_ARMS))


def _seat(d: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(x for x in d["seats"] if x["seat"] == seat)


def _claim_count(tl: Teller, e: Said) -> str:
    return tl._count(e.d)


def _revealed(tl: Teller, e: Said) -> str:
    assoc = fmt.join(tl.lang, [association_label(tl.lang, a) for a in e.d["assoc"]])
    items = fmt.cards(tl.lang, e.d["items"])
    return tl.t("game.story.revealed", name=e.name, assoc=assoc, items=items)


def _deadline(tl: Teller, e: Said) -> str:
    kind = "trade_settling" if e.d["decision_kind"] == "smuggle" else e.d["decision_kind"]
    return tl.t("game.story.deadline", what=tl.t(f"game.kind.{kind}"))


def _game_over(tl: Teller, e: Said) -> str:
    return "\n".join(final_lines(tl.table, tl.lang, cast(FinalResult, e.d), e.d["reveal"]))


# Every public event kind (engine.EventKind) with a line of its own, and what writes it; the
# others (game_started: the seat order has its own message; fight_over) have none.
LINES: dict[str, Callable[[Teller, Said], str | None]] = {
    "turn": _turn,
    **dict.fromkeys(
        ("passed", "trade_offered", "trade_accepted", "trade_refused", "attack", "back"), _named
    ),
    **dict.fromkeys(
        ("item_taken", "pile_arranged", "away", "coat_swapped", "coat_kept"), _with_coat
    ),
    **dict.fromkeys(("tome_swapped", "tome_kept"), _with_tome),
    "trade_done": _trade_done,
    "effects": _effects,
    "drew": _drew,
    "draw_empty": _drew,
    "bags_turned": _bags_turned,
    "coat_empty": _coat_empty,
    "sextant": _sextant,
    "sextant_passed": _sextant_passed,
    "occupation_used": _occupation_used,
    "diplomat": _diplomat,
    "diplomat_missed": _named,
    "priest_stopped": _priest_stopped,
    "gift": _gift,
    "support": _support,
    "hypnotized": _hypnotized,
    "played": _played,
    "fight_result": _fight_result,
    "doctor_cancelled": _doctor_cancelled,
    "reward": _reward,
    "claim": _claim,
    "claim_other": _claim,
    "claim_solo": _claim_solo,
    "claim_count": _claim_count,
    "revealed": _revealed,
    "deadline": _deadline,
    "game_over": _game_over,
}


def _first_fight(events: list[Event], table: fmt.Table) -> Fight:
    """The fight a batch starts in: named by its result if the batch gets that far, else by the
    table after it (supports and windows only happen inside the fight still open)."""
    for e in events:
        if e.kind == "attack":
            break
        if e.kind in ("fight_result", "fight_over"):
            return int(e.data["seat"]), int(e.data["target"])
    fight = table["fight"]
    return (int(fight["attacker"]), int(fight["defender"])) if fight else None


def public_text(pub: list[Event], table: fmt.Table, lang: str) -> str | None:
    """One message for a step's public events (``engine.public_events``), or None if there is
    nothing to tell; ``table`` is the public view after the step."""
    teller = Teller(table, lang, _first_fight(pub, table))
    out: list[str] = []
    for i, e in enumerate(pub):
        if e.kind == "attack":
            teller.fight = (e.data["seat"], e.data["target"])
        nxt = pub[i + 1] if i + 1 < len(pub) else None
        if (
            e.kind == "occupation_used"
            and nxt is not None
            and nxt.kind in _NAMES_OCCUPATION
            and nxt.data.get("seat") == e.data["seat"]
        ):
            continue
        line = teller.line(e)
        if line:
            out.append(line)
    return fmt.truncate("\n".join(out)) if out else None
