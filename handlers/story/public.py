"""The group's story (R-V1): one message for the public events of one step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
from engine.event_shapes import (
    ClaimCountData,
    ClaimData,
    CountedSeat,
    DeadlineData,
    DiplomatData,
    DrawEmptyData,
    DrewData,
    EffectsData,
    FightResultData,
    GameOverData,
    GiftData,
    OccupationData,
    PairData,
    PlayedData,
    PriestStoppedData,
    RevealedData,
    RewardData,
    SextantData,
    SupportData,
    TradeDoneData,
    TurnData,
)
from engine.events import data_as, seat_of, target_of
from engine.kinds import EventKind as K
from handlers import fmt
from handlers.card_labels import association_label, drink_label, occupation_label
from handlers.i18n import t
from handlers.story.table import final_lines

Fight = tuple[int, int] | None
# A line for one of these names the occupation its seat just used: the "reveals" line goes.
_NAMES_OCCUPATION = (K.PRIEST_STOPPED, K.DOCTOR_CANCELLED, K.HYPNOTIZED, K.DIPLOMAT, K.PLAYED)


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
        seat, target = seat_of(e), target_of(e)
        name = self.n(seat) if seat is not None else ""
        return tell(self, Said(e.kind, e, name, self.n(target) if target is not None else ""))

    def _played(self, name: str, d: PlayedData) -> str:
        card, choice = d["card"], d["choice"]
        label = self.occ(card) if card in OCCUPATIONS else self.item(card)
        if card == POISON_MIXER and choice is not None:  # the Mixer names the side it makes win
            winner = self.side(choice)
            return self.t("game.story.played_mixer", name=name, label=label, winner=winner)
        if card == DUELIST:
            return self.t("game.story.played_duelist", name=name, label=label)
        return self.t("game.story.played", name=name, label=label)

    def _count(self, d: ClaimCountData) -> str:
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

    def _result(self, d: FightResultData) -> str:
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
    """One public event as its line needs it: kind, the event (its data read typed, by the
    line's shape: ``engine.events.data_as``), the names of its seat and target."""

    kind: K
    event: Event
    name: str
    target: str


def _named(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}", name=e.name, target=e.target)


def _with_coat(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}", name=e.name, target=e.target, coat=tl.item("coat"))


def _with_tome(tl: Teller, e: Said) -> str:
    return tl.t(f"game.story.{e.kind}", name=e.name, target=e.target, tome=tl.item("tome"))


def _turn(tl: Teller, e: Said) -> str:
    return tl.t("game.story.turn", name=e.name, round=data_as(e.event, TurnData)["round"])


def _trade_done(tl: Teller, e: Said) -> str | None:
    forced = data_as(e.event, TradeDoneData)["forced"]
    return tl.t("game.story.trade_forced", name=e.name, target=e.target) if forced else None


def _effects(tl: Teller, e: Said) -> str:
    return "\n".join(
        tl.t(
            "game.story.effect",
            receiver=tl.n(x["receiver"]),
            giver=tl.n(x["giver"]),
            item=tl.item(x["item"]),
        )
        for x in data_as(e.event, EffectsData)["items"]
    )


def _drew(tl: Teller, e: Said) -> str:
    reason = data_as(e.event, DrawEmptyData)["reason"]
    pile = data_as(e.event, DrewData)["pile"] if e.kind == K.DREW else 0
    return tl.t(f"game.story.{e.kind}.{reason}", name=e.name, pile=pile)


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
    direction = tl.t(f"game.dir.{data_as(e.event, SextantData)['direction']}")
    return tl.t("game.story.sextant", name=e.name, direction=direction, sextant=tl.item("sextant"))


def _sextant_passed(tl: Teller, e: Said) -> str:
    return tl.t("game.story.sextant_passed")


def _occupation_used(tl: Teller, e: Said) -> str:
    label = tl.occ(data_as(e.event, OccupationData)["occupation"])
    return tl.t("game.story.occupation_used", name=e.name, label=label)


def _diplomat(tl: Teller, e: Said) -> str:
    return tl.t(
        "game.story.diplomat",
        name=e.name,
        target=e.target,
        label=tl.occ(DIPLOMAT),
        item=fmt.item_name(tl.lang, data_as(e.event, DiplomatData)["name"]),
    )


def _priest_stopped(tl: Teller, e: Said) -> str:
    attacker = tl.n(data_as(e.event, PriestStoppedData)["attacker"])
    return tl.t("game.story.priest_stopped", name=e.name, attacker=attacker, label=tl.occ(PRIEST))


def _gift(tl: Teller, e: Said) -> str:
    key = f"game.story.gift.{data_as(e.event, GiftData)['reason']}"
    return tl.t(key, name=e.name, target=e.target, label=tl.occ(PRIEST))


def _support(tl: Teller, e: Said) -> str:
    side = data_as(e.event, SupportData)["side"]
    return tl.t(f"game.story.support.{side}", name=e.name, side=tl.side(side))


def _hypnotized(tl: Teller, e: Said) -> str:
    return tl.t("game.story.hypnotized", name=e.name, target=e.target, label=tl.occ(HYPNOTIST))


def _played(tl: Teller, e: Said) -> str:
    return tl._played(e.name, data_as(e.event, PlayedData))


def _fight_result(tl: Teller, e: Said) -> str:
    return tl._result(data_as(e.event, FightResultData))


def _doctor_cancelled(tl: Teller, e: Said) -> str:
    return tl.t("game.story.doctor_cancelled", name=e.name, label=tl.occ(DOCTOR))


def _reward(tl: Teller, e: Said) -> str:
    choice = data_as(e.event, RewardData)["choice"]
    return tl.t(f"game.story.reward.{choice}", name=e.name, target=e.target)


def _claim(tl: Teller, e: Said) -> str:
    named = data_as(e.event, ClaimData)["named"]
    key = f"game.story.{e.kind}" if named else f"game.story.{e.kind}_alone"
    return tl.t(key, name=e.name, names=fmt.names(tl.table, tl.lang, named))


def _claim_solo(tl: Teller, e: Said) -> str:
    return tl.t("game.story.claim_solo", name=e.name, coa=tl.item(COAT_OF_ARMS))


def _seat(d: ClaimCountData, seat: int) -> CountedSeat:
    return next(x for x in d["seats"] if x["seat"] == seat)


def _claim_count(tl: Teller, e: Said) -> str:
    return tl._count(data_as(e.event, ClaimCountData))


def _revealed(tl: Teller, e: Said) -> str:
    shown = data_as(e.event, RevealedData)
    assoc = fmt.join(tl.lang, [association_label(tl.lang, a) for a in shown["assoc"]])
    items = fmt.cards(tl.lang, shown["items"])
    return tl.t("game.story.revealed", name=e.name, assoc=assoc, items=items)


def _deadline(tl: Teller, e: Said) -> str:
    ran_out = data_as(e.event, DeadlineData)["decision_kind"]
    kind = "trade_settling" if ran_out == "smuggle" else ran_out
    return tl.t("game.story.deadline", what=tl.t(f"game.kind.{kind}"))


def _game_over(tl: Teller, e: Said) -> str:
    over = data_as(e.event, GameOverData)
    return "\n".join(final_lines(tl.table, tl.lang, over, over["reveal"]))


# Every public event kind (engine.EventKind) with a line of its own, and what writes it; the
# others (``SILENT``: the seat order has its own message; a fight's end is told by its result)
# have none.
SILENT = frozenset({K.GAME_STARTED, K.FIGHT_OVER})
LINES: dict[K, Callable[[Teller, Said], str | None]] = {
    K.TURN: _turn,
    **dict.fromkeys(
        (K.PASSED, K.TRADE_OFFERED, K.TRADE_ACCEPTED, K.TRADE_REFUSED, K.ATTACK, K.BACK), _named
    ),
    **dict.fromkeys(
        (K.ITEM_TAKEN, K.PILE_ARRANGED, K.AWAY, K.COAT_SWAPPED, K.COAT_KEPT), _with_coat
    ),
    **dict.fromkeys((K.TOME_SWAPPED, K.TOME_KEPT), _with_tome),
    K.TRADE_DONE: _trade_done,
    K.EFFECTS: _effects,
    K.DREW: _drew,
    K.DRAW_EMPTY: _drew,
    K.BAGS_TURNED: _bags_turned,
    K.COAT_EMPTY: _coat_empty,
    K.SEXTANT: _sextant,
    K.SEXTANT_PASSED: _sextant_passed,
    K.OCCUPATION_USED: _occupation_used,
    K.DIPLOMAT: _diplomat,
    K.DIPLOMAT_MISSED: _named,
    K.PRIEST_STOPPED: _priest_stopped,
    K.GIFT: _gift,
    K.SUPPORT: _support,
    K.HYPNOTIZED: _hypnotized,
    K.PLAYED: _played,
    K.FIGHT_RESULT: _fight_result,
    K.DOCTOR_CANCELLED: _doctor_cancelled,
    K.REWARD: _reward,
    K.CLAIM: _claim,
    K.CLAIM_OTHER: _claim,
    K.CLAIM_SOLO: _claim_solo,
    K.CLAIM_COUNT: _claim_count,
    K.REVEALED: _revealed,
    K.DEADLINE: _deadline,
    K.GAME_OVER: _game_over,
}


def _first_fight(events: list[Event], table: fmt.Table) -> Fight:
    """The fight a batch starts in: named by its result if the batch gets that far, else by the
    table after it (supports and windows only happen inside the fight still open)."""
    for e in events:
        if e.kind == K.ATTACK:
            break
        if e.kind in (K.FIGHT_RESULT, K.FIGHT_OVER):
            fight = data_as(e, PairData)
            return fight["seat"], fight["target"]
    open_fight = table["fight"]
    return (open_fight["attacker"], open_fight["defender"]) if open_fight else None


def public_text(pub: list[Event], table: fmt.Table, lang: str) -> str | None:
    """One message for a step's public events (``engine.public_events``), or None if there is
    nothing to tell; ``table`` is the public view after the step."""
    teller = Teller(table, lang, _first_fight(pub, table))
    out: list[str] = []
    for i, e in enumerate(pub):
        if e.kind == K.ATTACK:
            attack = data_as(e, PairData)
            teller.fight = (attack["seat"], attack["target"])
        nxt = pub[i + 1] if i + 1 < len(pub) else None
        if (
            e.kind == K.OCCUPATION_USED
            and nxt is not None
            and nxt.kind in _NAMES_OCCUPATION
            and seat_of(nxt) == seat_of(e)
        ):
            continue
        line = teller.line(e)
        if line:
            out.append(line)
    return fmt.truncate("\n".join(out)) if out else None
