"""Callback payloads: every legal action survives the round trip in ≤ 40 bytes; garbage is
rejected with BadPayload and nothing else (issue #4)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Action
from engine.cards import ASSOCIATIONS, BAG_NAME, ITEM_KINDS, OCCUPATIONS
from handlers import action_payloads
from handlers.action_payloads import Act, BadPayload, Info, Nav
from tests.unit import playouts

SEEDS = range(12)


def _claim_variants(st: engine.State, a: Action) -> list[Action]:
    others = [s for s in range(st.n) if s != a.seat]
    picks = [(), tuple(others), tuple(others[:1]), tuple(reversed(others[:3]))]
    return [Action(a.kind, a.seat, a.decision, seats=p) for p in picks]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_round_trips(seed: int) -> None:
    kinds: set[str] = set()
    for step in playouts.game(seed):
        st = step.before
        aw = engine.awaiting(st)
        assert aw is not None
        for seat in aw.seats:
            for a in engine.legal_actions(st, seat):
                for action in _claim_variants(st, a) if a.kind in ("claim", "claim_other") else [a]:
                    payload = action_payloads.encode_action(action)
                    assert 0 < len(payload.encode()) <= action_payloads.MAX_PAYLOAD, payload
                    assert isinstance(action_payloads.parse_payload(payload), Act)
                    decision = 123456  # the decision and seat come from the press, not the payload
                    back = action_payloads.decode_action(payload, seat, decision)
                    assert back == Action(**{**_fields(action), "decision": decision})
                    kinds.add(action.kind)
    assert {"pass", "trade", "attack", "support", "play"} <= kinds


def _fields(a: Action) -> dict[str, object]:
    return {
        "kind": a.kind,
        "seat": a.seat,
        "decision": a.decision,
        "target": a.target,
        "card": a.card,
        "choice": a.choice,
        "cards": a.cards,
        "seats": a.seats,
    }


def test_the_longest_payloads_fit() -> None:
    longest = [
        Action("claim", 0, 1, seats=tuple(range(1, 10))),
        Action("order", 0, 1, cards=("casting_knives", "coat_of_arms")),
        Action("play", 0, 1, card="poison_mixer", choice="defender"),
        Action("gift", 0, 1, card="broken_mirror", target=9),
    ]
    for a in longest:
        payload = action_payloads.encode_action(a)
        assert len(payload.encode()) <= action_payloads.MAX_PAYLOAD
        # with the service's "<game id ≤ 10>:<decision ≤ 6 digits>:" prefix, within Telegram's 64
        assert len(f"{'g' * 10}:{'9' * 6}:{payload}".encode()) <= 64
        assert action_payloads.decode_action(payload, 0, 1) == a


def test_info_payloads_name_every_card() -> None:
    for kind in (*ITEM_KINDS, BAG_NAME):
        assert action_payloads.parse_payload(action_payloads.info_item(kind)) == Info("item", kind)
    for occ in OCCUPATIONS:
        assert action_payloads.parse_payload(action_payloads.info_occupation(occ)) == Info(
            "occupation", occ
        )
    for assoc in ASSOCIATIONS:
        assert action_payloads.parse_payload(action_payloads.info_association(assoc)) == Info(
            "association", assoc
        )
    assert action_payloads.parse_payload(action_payloads.INFO_DRINK) == Info("drink", "drink")


def test_navigation_payloads_keep_their_path() -> None:
    assert action_payloads.parse_payload("~") == Nav("")
    assert action_payloads.parse_payload(action_payloads.nav("cl", 1023, "ok")) == Nav("cl.1023.ok")
    assert action_payloads.parse_payload(action_payloads.nav("tr", 3)) == Nav("tr.3")


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "x",
        "tr.",
        "tr.t",
        "tr.t10",
        "tr.ck1.t3",  # fields out of order
        "tr.t3.t4",
        "tr.czz",
        "or.sk1,,g2",
        "cl.n1a",
        "?",
        "?i",
        "?i.Th",  # an occupation is not an item
        "?o.k1",  # a card id is not an item kind
        "?x.k",
        "~tr 3",
        "~ü",
        "pa" * 30,
        "pä",
    ],
)
def test_garbage_is_a_bad_payload(payload: str) -> None:
    with pytest.raises(BadPayload):
        action_payloads.parse_payload(payload)


def test_navigation_and_info_do_not_decode_to_actions() -> None:
    for payload in ("~", "~tr.3", "?i.k", "?d"):
        with pytest.raises(BadPayload):
            action_payloads.decode_action(payload, 0, 1)


def test_actions_without_buttons_are_not_encoded() -> None:
    with pytest.raises(ValueError):
        action_payloads.encode_action(Action(engine.TIMEOUT, None, 1))
    with pytest.raises(ValueError):
        action_payloads.encode_action(Action("play", 0, 1, card="no_such_card"))


_ALPHABET = "".join(
    sorted(set("~?.,tchsn0123456789" + "".join(action_payloads._KIND_OF) + "kgbdDPpa"))
)
_GRAMMARISH = st.lists(
    st.sampled_from(
        [
            *action_payloads._KIND_OF,
            *(f".{tag}" for tag in "tchsn"),
            *action_payloads._WORD,
            ".",
            ",",
            "~",
            "?",
            "i.",
            "o.",
            "a.",
        ]
    ),
    max_size=8,
).map("".join)


def _check(payload: str) -> None:
    try:
        parsed = action_payloads.parse_payload(payload)
    except BadPayload:
        return
    assert isinstance(parsed, Act | Nav | Info)
    if isinstance(parsed, Act):
        action = action_payloads.decode_action(parsed.payload, 3, 7)
        assert (action.seat, action.decision) == (3, 7)
        assert action_payloads.decode_action(action_payloads.encode_action(action), 3, 7) == action


@settings(max_examples=600, deadline=None)
@given(st.text())
def test_arbitrary_text_parses_or_is_a_bad_payload(payload: str) -> None:
    _check(payload)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_GRAMMARISH, st.text(alphabet=_ALPHABET, max_size=24)))
def test_payload_like_text_parses_or_is_a_bad_payload(payload: str) -> None:
    _check(payload)


def test_codes_are_unique_and_short() -> None:
    assert len(set(action_payloads._KIND_OF)) == len(action_payloads._KIND_OF)
    for word, short in itertools.chain(action_payloads._VOCAB.items()):
        assert action_payloads.word(action_payloads.code(word)) == word
        assert 1 <= len(short) <= 2 and short.isalnum()
