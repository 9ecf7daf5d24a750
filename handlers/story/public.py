"""The group's story (R-V1): one message for the public events of one step."""

from __future__ import annotations

from typing import Any

from engine.actions import Event
from engine.cards import DIPLOMAT, DOCTOR, DUELIST, HYPNOTIST, OCCUPATIONS, POISON_MIXER, PRIEST
from handlers import fmt
from handlers.cards import association_label, drink_label, occupation_label
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
        d: dict[str, Any] = e.data
        seat = d.get("seat")
        name = self.n(seat) if isinstance(seat, int) else ""
        target = self.n(d["target"]) if isinstance(d.get("target"), int) else ""
        k = e.kind
        if k == "turn":
            return self.t("game.story.turn", name=name, round=d["round"])
        if k in ("passed", "trade_offered", "trade_accepted", "trade_refused", "attack", "back"):
            return self.t(f"game.story.{k}", name=name, target=target)
        if k in ("item_taken", "pile_arranged", "away", "coat_swapped", "coat_kept"):
            return self.t(f"game.story.{k}", name=name, target=target, coat=self.item("coat"))
        if k in ("tome_swapped", "tome_kept"):
            return self.t(f"game.story.{k}", name=name, target=target, tome=self.item("tome"))
        if k == "trade_done":
            return (
                self.t("game.story.trade_forced", name=name, target=target) if d["forced"] else None
            )
        if k == "effects":
            return "\n".join(
                self.t(
                    "game.story.effect",
                    receiver=self.n(x["receiver"]),
                    giver=self.n(x["giver"]),
                    item=self.item(x["item"]),
                )
                for x in d["items"]
            )
        if k in ("drew", "draw_empty"):
            return self.t(f"game.story.{k}.{d['reason']}", name=name, pile=d.get("pile", 0))
        if k == "bags_turned":
            return self.t(
                "game.story.bags_turned",
                bag=self.item("bag_key"),
                key_item=self.item("key"),
                goblet_item=self.item("goblet"),
            )
        if k == "coat_empty":
            return self.t("game.story.coat_empty", name=name, coat=self.item("coat"))
        if k == "sextant":
            direction = self.t(f"game.dir.{d['direction']}")
            return self.t(
                "game.story.sextant", name=name, direction=direction, sextant=self.item("sextant")
            )
        if k == "sextant_passed":
            return self.t("game.story.sextant_passed")
        if k == "occupation_used":
            return self.t("game.story.occupation_used", name=name, label=self.occ(d["occupation"]))
        if k == "diplomat":
            return self.t(
                "game.story.diplomat",
                name=name,
                target=target,
                label=self.occ(DIPLOMAT),
                item=fmt.item_name(self.lang, d["name"]),
            )
        if k == "diplomat_missed":
            return self.t("game.story.diplomat_missed", name=name, target=target)
        if k == "priest_stopped":
            return self.t(
                "game.story.priest_stopped",
                name=name,
                attacker=self.n(d["attacker"]),
                label=self.occ(PRIEST),
            )
        if k == "gift":
            return self.t(
                f"game.story.gift.{d['reason']}", name=name, target=target, label=self.occ(PRIEST)
            )
        if k == "support":
            return self.t(f"game.story.support.{d['side']}", name=name, side=self.side(d["side"]))
        if k == "hypnotized":
            return self.t(
                "game.story.hypnotized", name=name, target=target, label=self.occ(HYPNOTIST)
            )
        if k == "played":
            return self._played(name, d)
        if k == "fight_result":
            return self._result(d)
        if k == "doctor_cancelled":
            return self.t("game.story.doctor_cancelled", name=name, label=self.occ(DOCTOR))
        if k == "reward":
            return self.t(f"game.story.reward.{d['choice']}", name=name, target=target)
        if k in ("claim", "claim_other"):
            named = d["named"]
            key = f"game.story.{k}" if named else f"game.story.{k}_alone"
            return self.t(key, name=name, names=fmt.names(self.table, self.lang, named))
        if k == "claim_solo":
            return self.t("game.story.claim_solo", name=name, coa=self.item("coat_of_arms"))
        if k == "claim_count":
            return self._count(d)
        if k == "revealed":
            assoc = fmt.join(self.lang, [association_label(self.lang, a) for a in d["assoc"]])
            items = fmt.cards(self.lang, d["items"])
            return self.t("game.story.revealed", name=name, assoc=assoc, items=items)
        if k == "deadline":
            kind = "trade_settling" if d["decision_kind"] == "smuggle" else d["decision_kind"]
            return self.t("game.story.deadline", what=self.t(f"game.kind.{kind}"))
        if k == "game_over":
            return "\n".join(final_lines(self.table, self.lang, d, d["reveal"]))
        return None  # game_started (the seat order has its own message), fight_over

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
        if d["drink"] is not None:
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
            ring=self.item("poison_ring"),
            mixer=self.occ(POISON_MIXER),
        )


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
