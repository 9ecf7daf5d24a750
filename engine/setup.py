"""R-S1…R-S8: a new game for 3–10 players."""

from __future__ import annotations

from typing import Any

from engine.actions import Event
from engine.cards import (
    ADVANCED_ITEMS,
    ALL_ITEMS,
    BAGS,
    BLACK_PEARL,
    BROTHERHOOD,
    OCCUPATIONS,
    ORDER,
    STARTER_ITEMS,
    association_split,
)
from engine.kinds import EventKind
from engine.rng import KEYED, KeyedRng, deal_key
from engine.state import Json, Player, State

DEFAULT_OPTIONS: Json = {
    "items": "full",  # R-S6: "full" or "beginner"
    "smuggling": False,  # R-T9
    "fortune_telling": False,  # R-W7
    "advanced_three": False,  # §7, only at 3 players
    "personal_scores": False,  # §7
    "max_rounds": 60,  # the engine's guard against a table that never claims
}


MIN_PLAYERS, MAX_PLAYERS = 3, 10


class SetupError(ValueError):
    pass


def normalize_options(options: dict[str, Any] | None) -> Json:
    opts = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise SetupError(f"unknown option {key!r}")
        opts[key] = value
    if opts["items"] not in ("full", "beginner"):
        raise SetupError("items must be 'full' or 'beginner'")
    for flag in ("smuggling", "fortune_telling", "advanced_three", "personal_scores"):
        opts[flag] = bool(opts[flag])
    if not isinstance(opts["max_rounds"], int) or opts["max_rounds"] < 1:
        raise SetupError("max_rounds must be a positive integer")
    return opts


def removed_items(n: int, items_option: str) -> list[str]:
    removed = []
    if n == 3:
        removed.append(BLACK_PEARL)  # R-S4
    if n == 10:
        removed.append("coat")
    if items_option == "beginner":
        removed += [c for c in ALL_ITEMS if c in ADVANCED_ITEMS and c not in removed]
    return removed


def new_game(
    names: list[str], seed: int, options: dict[str, Any] | None = None
) -> tuple[State, list[Event]]:
    n = len(names)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise SetupError("the game needs 3 to 10 players")
    opts = normalize_options(options)
    advanced_three = opts["advanced_three"] and n == 3
    opts["advanced_three"] = advanced_three
    rng = KeyedRng(deal_key(seed))  # engine.rng: the whole seed keys the stream

    occupations = list(OCCUPATIONS)
    rng.shuffle(occupations)  # R-S1

    if advanced_three:
        assoc_cards = [ORDER] * 5 + [BROTHERHOOD] * 5
        rng.shuffle(assoc_cards)
        hands = [assoc_cards[3 * i : 3 * i + 3] for i in range(3)]
        boxed = assoc_cards[9:]
    else:
        k = association_split(n)  # R-S2
        assoc_cards = [ORDER] * k + [BROTHERHOOD] * k
        rng.shuffle(assoc_cards)
        hands = [[assoc_cards[i]] for i in range(n)]
        boxed = assoc_cards[n:]

    removed = removed_items(n, opts["items"])
    starters = [c for c in STARTER_ITEMS if c not in removed]
    rng.shuffle(starters)
    if n == 3:
        dealt = starters[:4] + list(BAGS)
        rest = starters[4:]
        rng.shuffle(dealt)
        item_hands = [dealt[0:2], dealt[2:4], dealt[4:6]]
    else:
        dealt = starters[: n - 2] + list(BAGS)  # R-S5
        rest = starters[n - 2 :]
        rng.shuffle(dealt)
        item_hands = [[c] for c in dealt]
    pile = rest + [c for c in ALL_ITEMS if c in ADVANCED_ITEMS and c not in removed]
    rng.shuffle(pile)

    players = [
        Player(
            name=names[i],
            assoc=hands[i],
            occupation=occupations[i],
            items=item_hands[i],
            drink=n % 2 == 1,  # R-S3
        )
        for i in range(n)
    ]
    first = rng.below(n)  # R-S8
    st = State(
        options=opts,
        seed=seed,
        rng=rng.state,
        rng_kind=KEYED,
        players=players,
        pile=pile,
        occ_deck=occupations[n:],
        boxed_assoc=boxed,
        removed=removed,
        turn=first,
        first=first,
        frames=[{"kind": "turn", "seat": first, "stage": "start"}],
    )
    events = [
        Event(
            EventKind.GAME_STARTED,
            None,
            {
                "seats": list(range(n)),
                "first": first,
                "items": [len(p.items) for p in players],
                "drinks": n % 2 == 1,
                "pile": len(pile),
                "removed": list(removed),
            },
        )
    ]
    for seat, p in enumerate(players):
        p.notes.append(
            {
                "k": "dealt",
                "turn": 0,
                "round": 1,
                "h": 0,
                "assoc": list(p.assoc),
                "occupation": p.occupation,
                "items": list(p.items),
            }
        )
        events.append(
            Event(
                EventKind.DEALT,
                (seat,),
                {
                    "seat": seat,
                    "assoc": list(p.assoc),
                    "occupation": p.occupation,
                    "items": list(p.items),
                    "drink": p.drink,
                },
            )
        )
    return st, events
