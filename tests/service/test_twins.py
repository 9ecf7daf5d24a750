"""Issue 8, a fair table: what the group sees — every message, every edit, their order and their
times — depends on public information only, and what a player sees only on their own view
(R-V1, R-V2, R-D1). Each case plays two tables through the real service that differ only in
something hidden, with the same public actions at the same moments, and compares the streams."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

import engine
from engine import Action, State
from engine.cards import BAGS, GOAL_KIND, TRADE_EFFECT_ITEMS, UNREFUSABLE_ITEMS, item_kind
from engine.rng import Rng
from handlers import action_payloads
from handlers.group_board import LIVING_EVERY_SECONDS, STORY_MERGE_SECONDS
from handlers.i18n import t
from handlers.prompts.turn import INLINE_ATTACKS
from tests.e2e.harness import BOT
from tests.service.twins import (
    NAMES,
    Record,
    Twin,
    assert_same_streams,
    deal,
    first_difference,
    give_item,
    give_occupation,
)

N = 5
PLAIN = ("thug", "bodyguard", "grand_master")  # nothing to offer outside the boost window


def payload(kind: str, **kw: object) -> str:
    return action_payloads.encode_action(Action(kind, 0, 0, **kw))  # type: ignore[arg-type]


def find_seed(test: Callable[[State], bool]) -> int:
    return next(seed for seed in range(1, 400) if test(deal(N, seed)))


def seats(st: State) -> tuple[int, int, int]:
    """The first player, the one they attack (on their left) and the next one (the first to
    declare support, R-A3)."""
    return st.turn, (st.turn + 1) % N, (st.turn + 2) % N


def plain_in_deck(st: State) -> str:
    return next(o for o in st.occ_deck if o in PLAIN)


def twins(
    seed: int, rig_a: Callable[[State], None], rig_b: Callable[[State], None]
) -> tuple[Twin, Twin]:
    a, b = Twin(N, seed, rig_a), Twin(N, seed, rig_b)
    a.start()
    b.start()
    return a, b


def diplomat_twins() -> tuple[Twin, Twin, int]:
    """A: the first player holds a face-down Diplomat; B: a plain occupation. Returns the twins
    and that player."""
    seed = find_seed(lambda st: "diplomat" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    turn = seats(deal(N, seed))[0]
    a, b = twins(
        seed,
        lambda st: give_occupation(st, turn, "diplomat"),
        lambda st: give_occupation(st, turn, plain_in_deck(st)),
    )
    return a, b, turn


# -- 1. a pass in a window ---------------------------------------------------------------------
def _priest_twins() -> tuple[Twin, Twin, int, int]:
    """A: the second to declare support (``x``) holds the Priest; B: ``x`` holds a plain
    occupation. Returns the twins, the first to declare and ``x``."""
    seed = find_seed(lambda st: "priest" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    first = seats(deal(N, seed))[2]
    x = (first + 1) % N
    a, b = twins(
        seed,
        lambda st: give_occupation(st, x, "priest"),
        lambda st: give_occupation(st, x, plain_in_deck(st)),
    )
    return a, b, first, x


def _attack(twin: Twin) -> None:
    """5 s into the first turn, its player attacks the next seat."""
    turn, target, _ = seats(twin.state())
    twin.wait(5)
    twin.press(turn, payload("attack", target=target))  # one tap (issue 27)


def test_R_D1_a_pass_in_the_priest_window_changes_nothing_the_group_sees() -> None:
    """A: the second to declare support holds the Priest and taps "Not now" 2 s into the
    window; B: nobody holds it. In both, the first to declare support does so 3 s into the
    window (asked meanwhile, issue 9): told only when the window closes."""
    a, b, first, x = _priest_twins()
    for twin, priest in ((a, True), (b, False)):
        _attack(twin)
        assert twin.state().pending.kind == "priest"  # type: ignore[union-attr]
        twin.wait(2)
        if priest:
            twin.press(x, payload("pass"))
        else:  # asked its support (issue 9), not the window
            assert payload("pass") not in twin.payloads(x)
        twin.wait(1)
        twin.press(first, payload("support", choice="neutral"))
        twin.wait(150)
    assert_same_streams(a, b, hidden={x})


def test_R_A3_a_support_declared_ahead_of_its_turn_shows_the_group_the_same() -> None:
    """Issue 9: every supporter is asked at once. A: the second to declare holds the Priest,
    B: nobody does; in both that player declares for the attacker 2 s into the Priest window,
    then changes to the defender, and the first to declare answers 4 s after the window closed:
    both are told at that moment, in order, and the group sees the same at both tables."""
    a, b, first, x = _priest_twins()
    for twin in (a, b):
        _attack(twin)
        twin.wait(2)
        twin.press(x, payload("support", choice="attacker"))
        twin.wait(1)
        twin.press(x, payload("support", choice="defender"))
        twin.run_until(twin.due() or 0)  # the window's end
        assert twin.state().pending.kind == "support"  # type: ignore[union-attr]
        twin.wait(4)
        twin.press(first, payload("support", choice="neutral"))
        fight = engine.public_view(twin.state())["fight"]
        assert fight["supports"] == {str(first): "neutral", str(x): "defender"}
        twin.wait(150)
    assert_same_streams(a, b, hidden={x})


def test_issue_27_a_pass_while_the_status_edit_is_held_back_changes_nothing_the_group_sees() -> (
    None
):
    """The group's living message (the status at its foot) is edited at most once in
    ``LIVING_EVERY_SECONDS`` (issue 27): an edit due sooner is held back and sent by its flush
    timer. A: ``x`` holds the Priest and taps "Not
    now" half a second into the window, while the status edit of the window's end is still to
    come; B: nobody holds it. The held-back edits go at the same moments at both tables."""
    a, b, first, x = _priest_twins()
    for twin, priest in ((a, True), (b, False)):
        _attack(twin)
        twin.wait(0.5)
        if priest:
            twin.press(x, payload("pass"))
        twin.wait(0.5)
        twin.press(first, payload("support", choice="neutral"))
        twin.wait(150)
    assert_same_streams(a, b, hidden={x})
    shown = [r for r in a.group() if r[1] == "editMessageText" and "📋" in str(r[3])]
    living = max({r[2] for r in shown}, key=lambda m: sum(r[2] == m for r in shown))
    times = [r[0] for r in a.group() if r[1] == "editMessageText" and r[2] == living]
    gaps = [round(y - z, 3) for z, y in itertools.pairwise(times)]
    assert min(gaps) >= LIVING_EVERY_SECONDS - 0.001, gaps
    assert LIVING_EVERY_SECONDS in gaps, f"an edit was held back: {gaps}"


def test_R_D1_the_status_moving_to_a_new_story_message_looks_alike_at_both_tables() -> None:
    """Issue 27: the status lives at the foot of the newest story message; when the story
    starts a new message, the status moves into it and the message before loses it by an edit.
    A: ``x`` holds the Priest and taps "Not now" in the window; B: nobody holds it. Past the
    story's merge time both tables start the new message, and take the foot off the one
    before, at the same moments with the same texts."""
    a, b, first, x = _priest_twins()
    for twin, priest in ((a, True), (b, False)):
        _attack(twin)
        twin.wait(1)
        if priest:
            twin.press(x, payload("pass"))
        twin.wait(1)
        twin.press(first, payload("support", choice="neutral"))
        twin.wait(STORY_MERGE_SECONDS + 60)
    assert_same_streams(a, b, hidden={x})
    sent = [r for r in a.group() if r[1] == "sendMessage" and "📋" in str(r[3])]
    assert len(sent) >= 2, "the status moved to a new story message"
    footless = [
        r
        for r in a.group()
        if r[1] == "editMessageText" and "⚔️" in str(r[3]) and "📋" not in str(r[3])
    ]
    assert footless, "the message before kept its lines alone"


# -- 2. a free use ---------------------------------------------------------------------------
def test_R_D1_an_unused_diplomat_does_not_hold_the_turn() -> None:
    """A: the first player holds an unused Diplomat and passes; B: they hold nothing to use."""
    a, b, turn = diplomat_twins()
    for twin in (a, b):
        twin.wait(5)
        twin.press(turn, payload("pass"))
        twin.wait(100)
    assert_same_streams(a, b, hidden={turn})


def test_R_D1_an_unused_clairvoyant_is_offered_in_the_turn_prompt() -> None:
    seed = find_seed(lambda st: "clairvoyant" in st.occ_deck)
    turn = seats(deal(N, seed))[0]
    a = Twin(N, seed, lambda st: give_occupation(st, turn, "clairvoyant"))
    a.start()
    assert payload("clairvoyant") in a.payloads(turn)
    a.press(turn, payload("pass"))
    assert a.state().turn != turn  # the turn moved on at once


def test_R_D1_the_turn_sent_anew_looks_the_same_whatever_the_hidden_cards() -> None:
    """Issue 25: the next player's turn comes as a new message (the "🔜 Your turn is next" one
    closed). A: the next player holds a ready, face-down Diplomat; B: a plain occupation. The
    group and every other seat see the same, call for call; the next player's own chat gets the
    same calls at the same moments (only its texts and buttons, its own cards, differ: the 🔜
    prompt offers to keep the Diplomat)."""
    seed = find_seed(lambda st: "diplomat" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    turn, nxt, _ = seats(deal(N, seed))
    a, b = twins(
        seed,
        lambda st: give_occupation(st, nxt, "diplomat"),
        lambda st: give_occupation(st, nxt, plain_in_deck(st)),
    )
    for twin in (a, b):
        twin.wait(5)
        twin.press(turn, payload("pass"))
        assert twin.state().turn == nxt
        twin.wait(3)
        twin.press(nxt, payload("pass"))
        twin.wait(100)
    assert_same_streams(a, b, hidden={nxt})
    uid = a.player(nxt).uid
    shape_a = [(at, method, msg) for at, method, msg, *_ in a.stream(uid)]
    shape_b = [(at, method, msg) for at, method, msg, *_ in b.stream(uid)]
    assert shape_a == shape_b
    sends = [r for r in a.stream(uid) if r[1] == "sendMessage"]
    assert any(t("en", "game.turn.title", round=1) in (r[3] or "") for r in sends)  # sent anew


def test_R_D1_your_turn_is_next_paused_for_a_fight_whatever_the_doctor() -> None:
    """Issue 25, 27: "🔜 Your turn is next" is paused for the fight and stays as shown (no edit),
    a press on it meanwhile answered with why it waits. A: a seat that is neither fighting nor
    next holds the Doctor and taps "Not now" in its window; B: nobody holds it. The next
    player's chat (the press while paused, and its turn coming after the tie), the group and
    every other seat see the same, call for call."""
    seed = find_seed(lambda st: "doctor" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    turn, nxt, _ = seats(deal(N, seed))
    target, x = (turn + 2) % N, (turn + 3) % N
    a, b = twins(
        seed,
        lambda st: give_occupation(st, x, "doctor"),
        lambda st: give_occupation(st, x, plain_in_deck(st)),
    )
    for twin, doctor in ((a, True), (b, False)):
        twin.wait(5)
        twin.press(turn, payload("attack", target=target))
        while twin.state().pending.kind != "doctor":  # type: ignore[union-attr]
            twin.run_until(twin.due() or 0)
        twin.wait(2)
        if doctor:
            twin.press(x, payload("pass"))
        ahead = twin.harness.game_doc()["ahead"]
        player = twin.player(nxt)
        shown = twin.harness.api.message(player.uid, int(ahead["msg"]))
        button = next(d for _, d in shown.buttons() if d and d.endswith(":pa"))
        twin.harness.press(player, player.uid, shown.message_id, button)  # paused
        twin.wait(150)
    assert_same_streams(a, b, hidden={x})
    uid = a.player(nxt).uid
    why = t("en", "game.turn.next_paused_fight", name=NAMES[turn])
    assert any(r[1] == "answerCallbackQuery" and r[3] == why for r in a.stream(uid))


def test_R_D1_a_turn_reminded_looks_the_same_whatever_the_hidden_cards() -> None:
    """Issue 27: a reminder under the prompt it reminds of (the newest message in the chat) is
    a message of its own, the prompt left as it is. A: the first player holds a ready,
    face-down Diplomat (offered in the turn's prompt); B: a plain occupation. Nobody acts: the
    turn is reminded (in the group by a mention, in private by a message below the prompt) and
    runs out. The group and every other seat see the same, call for call; the player's own chat
    gets the same calls at the same moments."""
    a, b, turn = diplomat_twins()
    for twin in (a, b):
        twin.wait(150)
        assert twin.state().turn != turn
    assert_same_streams(a, b, hidden={turn})
    uid = a.player(turn).uid
    shape_a = [(at, method, msg) for at, method, msg, *_ in a.stream(uid)]
    shape_b = [(at, method, msg) for at, method, msg, *_ in b.stream(uid)]
    assert shape_a == shape_b
    reminder = t("en", "bot.reminder", what=t("en", "game.kind.turn"), seconds=15)
    assert any(r[1] == "sendMessage" and r[3] == reminder for r in a.stream(uid)), a.stream(uid)


def test_R_D1_a_turn_reminded_and_sent_anew_looks_the_same_whatever_the_hidden_cards() -> None:
    """Issue 25 (polish): a reminder of a prompt with a message below it (here: the record's
    newest message in the chat is a later one) brings the prompt down, sent anew with its
    buttons, the one above closed. The same twins as above."""
    a, b, turn = diplomat_twins()
    for twin in (a, b):
        twin.wait(5)
        twin.below_the_prompt(turn)
        twin.wait(145)
        assert twin.state().turn != turn
    assert_same_streams(a, b, hidden={turn})
    uid = a.player(turn).uid
    shape_a = [(at, method, msg) for at, method, msg, *_ in a.stream(uid)]
    shape_b = [(at, method, msg) for at, method, msg, *_ in b.stream(uid)]
    assert shape_a == shape_b
    moved = t("en", "prompt.closed.moved")
    assert any(r[1] == "editMessageText" and moved in (r[3] or "") for r in a.stream(uid))


# -- 3. a timed-out trade answer -------------------------------------------------------------
def _plain_item(st: State) -> str:
    return next(
        c
        for c in st.pile
        if item_kind(c) not in TRADE_EFFECT_ITEMS | UNREFUSABLE_ITEMS | set(BAGS)
        and item_kind(c) not in GOAL_KIND.values()
    )


def _offer_first_item(twin: Twin, turn: int, target: int) -> float:
    """The turn's player offers their first item to ``target``; returns the answer's deadline."""
    card = twin.state().players[turn].items[0]
    twin.wait(5)
    twin.press(turn, "~tr")
    if f"~tr.{target}" in twin.payloads(turn):  # else each offer is on the trade's page
        twin.press(turn, f"~tr.{target}")
    twin.press(turn, payload("trade", target=target, card=card))
    due = twin.due()
    assert due is not None
    return due


def _at_the_last_moment(twin: Twin, due: float) -> None:
    """Just before the deadline, so a press lands when the twin's timeout would."""
    twin.run_until(due - 0.5)
    twin.harness.clock.advance(0.5)


def test_R_D1_a_forced_accept_looks_like_any_accept() -> None:
    """A: the first player offers the Black Pearl and the answer times out (R-T2: accepted);
    B: they offer an ordinary item, accepted at that same moment."""
    seed = find_seed(lambda st: "black_pearl" in st.pile)
    turn, target, _ = seats(deal(N, seed))
    a, b = twins(
        seed,
        lambda st: give_item(st, turn, "black_pearl"),
        lambda st: give_item(st, turn, _plain_item(st)),
    )
    for twin, pearl in ((a, True), (b, False)):
        due = _offer_first_item(twin, turn, target)
        if pearl:
            twin.run_until(due)
        else:
            _at_the_last_moment(twin, due)
            mine = twin.state().players[target].items[0]
            twin.press(target, payload("accept", card=mine))
        twin.wait(100)
    assert_same_streams(a, b, hidden={turn, target})


def test_R_D1_a_refusal_by_timeout_and_by_choice_look_the_same() -> None:
    seed = find_seed(lambda st: True)
    turn, target, _ = seats(deal(N, seed))
    a, b = twins(seed, lambda st: None, lambda st: None)
    for twin, pressed in ((a, False), (b, True)):
        due = _offer_first_item(twin, turn, target)
        if pressed:
            _at_the_last_moment(twin, due)
            twin.press(target, payload("refuse"))
        else:
            twin.run_until(due)
        twin.wait(60)
    assert_same_streams(a, b, hidden={target})


# -- 4. a player the bot cannot reach --------------------------------------------------------
def test_R_D1_the_unreachable_notice_does_not_tell_who_was_asked_in_a_window() -> None:
    """The first to declare support blocked the bot; A: they hold the Priest, so the Priest
    window asks them (and the bot learns it cannot reach them); B: nobody holds it. The notice
    comes when their support declaration runs out, at both tables."""
    seed = find_seed(lambda st: "priest" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    x = seats(deal(N, seed))[2]
    a, b = twins(
        seed,
        lambda st: give_occupation(st, x, "priest"),
        lambda st: give_occupation(st, x, plain_in_deck(st)),
    )
    for twin in (a, b):
        twin.harness.api.blocked_chats.add(twin.player(x).uid)
        _attack(twin)
        twin.wait(200)
    assert_same_streams(a, b, hidden={x})
    name = a.player(x).name
    notice = t("en", "bot.unreachable", name=f"<b>{name}</b>", bot=BOT)
    told = [r for r in a.group() if r[3] and notice in r[3]]
    # one story message carries it (later edits of that message keep its lines), first shown
    # with their neutral support
    assert len({r[2] for r in told}) == 1 and "😶" in (told[0][3] or "")
    assert all((r[3] or "").count(notice) == 1 for r in told)


# -- random twin games -----------------------------------------------------------------------
FREE_OR_WINDOW = ("priest", "doctor", "diplomat", "clairvoyant")
WINDOWS = ("priest", "hypnotist", "doctor", "smuggle")
PUBLIC_KINDS = ("turn", "support", "reward", "reward_take", "giveback", "gift")
Step = tuple[float, int | None, str]  # when, who presses (None: only time passes), what


def _choose(twin: Twin, seat: int, rng: Rng) -> list[str]:
    """A random answer to a public decision as presses: navigation first where needed. Only
    what is legal whatever the hidden difference: no trades, no occupations, no claims."""
    kind = twin.state().pending.kind  # type: ignore[union-attr]
    shown = [p for p in twin.payloads(seat) if not p.startswith("?")]
    if kind == "turn":
        if rng.below(2):
            return [payload("pass")]
        target = rng.below(twin.n - 1)
        target = target if target < seat else target + 1
        attack = payload("attack", target=target)  # one tap up to INLINE_ATTACKS (issue 27)
        return [attack] if twin.n - 1 <= INLINE_ATTACKS else ["~at", attack]
    if kind == "gift":
        first = shown[rng.below(len(shown))]
        twin.press(seat, first)
        rest = [p for p in twin.payloads(seat) if not p.startswith(("?", "~"))]
        return [rest[rng.below(len(rest))]]
    answers = [p for p in shown if not p.startswith("~")]
    return [answers[rng.below(len(answers))]]


def _play_a(a: Twin, x: int, seed: int) -> list[Step]:
    """Plays table A at random and returns the public script; seat ``x``'s private window passes
    (A only: at B ``x`` is never asked) are not in it."""
    rng = Rng(seed)
    script: list[Step] = []
    for _ in range(2000):
        st = a.state()
        if st.over:
            return script
        p = st.pending
        assert p is not None
        due = a.due()
        assert due is not None
        if p.window or p.kind not in PUBLIC_KINDS:
            passes = [a for a in engine.legal_actions(st, x) if a.kind == "pass"]
            if p.kind in WINDOWS and passes and rng.below(2):
                a.wait(1 + rng.below(4))
                a.press(x, payload("pass"))  # a private "Not now"
            a.run_until(due)
            script.append((due, None, ""))
            continue
        seat = p.actors[0]
        a.wait(1 + rng.below(8))
        presses = _choose(a, seat, rng)
        for wanted in presses:
            script.append((a.now, seat, wanted))
            a.press(seat, wanted)
    raise AssertionError("the game did not end")


def _replay(b: Twin, script: list[Step]) -> None:
    for at, seat, wanted in script:
        b.run_until(at)
        if seat is None:
            continue
        shown = b.payloads(seat)
        assert wanted in shown, f"B cannot press {wanted} for seat {seat} at {at}: {shown}"
        b.press(seat, wanted)


def _until(records: list[Record], end: float) -> list[Record]:
    return [r for r in records if r[0] < end]


@pytest.mark.parametrize(("n", "seed"), [(4, 11), (5, 12), (6, 13)])
def test_R_V1_random_twin_games_show_the_group_the_same(n: int, seed: int) -> None:
    """Whole games (three rounds) played at random on a deal where seat ``x`` holds a Priest,
    Doctor, Diplomat or Clairvoyant and passes in windows when it likes, then replayed on the
    same deal but for an occupation with nothing to offer: until the final reveal (R-V3) the
    group, and every player who never looked at ``x``'s occupation, sees the same."""
    rng = Rng(seed)
    for _ in range(400):
        st = deal(n, seed)
        held = [o for o in st.occ_deck if o in FREE_OR_WINDOW]
        plain = [o for o in st.occ_deck if o in PLAIN]
        if held and plain:
            break
        seed += 100
    x = rng.below(n)
    secret, other = held[rng.below(len(held))], plain[0]

    def rig(occupation: str) -> Callable[[State], None]:
        def change(st: State) -> None:
            give_occupation(st, x, occupation)
            st.options["max_rounds"] = 3

        return change

    a, b = Twin(n, seed, rig(secret)), Twin(n, seed, rig(other))
    a.start()
    b.start()
    script = _play_a(a, x, seed)
    _replay(b, script)
    assert b.state().over
    end = script[-1][0] - a.calls[0][0]  # the end, as a stream's clock times count
    group_a, group_b = _until(a.group(), end), _until(b.group(), end)
    assert len(group_a) > 20
    assert group_a == group_b, "group: " + first_difference(group_a, group_b)
    final = a.state()
    looked = {
        s
        for s, p in enumerate(final.players)
        if any(note.get("about") == x and note["k"] == "saw_occupation" for note in p.notes)
    }
    for seat in set(range(n)) - looked - {x}:
        uid = a.player(seat).uid
        sa, sb = _until(a.stream(uid), end), _until(b.stream(uid), end)
        assert sa == sb, f"seat {seat}: " + first_difference(sa, sb)


def test_R_D1_your_turn_is_next_switched_off_and_on_looks_the_same_whatever_the_hidden_cards() -> (
    None
):
    """Issue 27: "🔜 Your turn is next" closed unused three times in a row is no longer sent to
    that player (its last closing says so, with "🔜 Offer my turn ahead again"), and one tap
    brings it back. A: that player holds a ready, face-down
    Diplomat; B: a plain occupation. The group and every other seat see the same, call for
    call; that player's own chat gets the same calls at the same moments (its texts and
    buttons, its own cards, differ)."""
    from handlers.ahead_message import UNUSED_OFF

    seed = find_seed(lambda st: "diplomat" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    _, nxt, _ = seats(deal(N, seed))
    a, b = twins(
        seed,
        lambda st: give_occupation(st, nxt, "diplomat"),
        lambda st: give_occupation(st, nxt, plain_in_deck(st)),
    )
    for twin in (a, b):
        turns = 0
        while turns < N * UNUSED_OFF + 1:  # nxt's third turn answered, everyone passing
            twin.wait(4)
            twin.press(twin.state().turn, payload("pass"))
            turns += 1
        player = twin.player(nxt)
        shown = twin.harness.api.messages_in(player.uid)
        answered = next(
            m for m in reversed(shown) if any((d or "").startswith("N:") for _, d in m.buttons())
        )
        button = next(d for _, d in answered.buttons() if d and d.startswith("N:"))
        twin.wait(2)
        twin.harness.press(player, player.uid, answered.message_id, button)
        for _ in range(N):
            twin.wait(4)
            twin.press(twin.state().turn, payload("pass"))
        twin.wait(100)
    assert_same_streams(a, b, hidden={nxt})
    uid = a.player(nxt).uid
    shape_a = [(at, method, msg) for at, method, msg, *_ in a.stream(uid)]
    shape_b = [(at, method, msg) for at, method, msg, *_ in b.stream(uid)]
    assert shape_a == shape_b
    off = t("en", "prompt.closed.ahead_off", n=UNUSED_OFF)
    assert any(off in (r[3] or "") for r in a.stream(uid)), "switched off, and said so"
    done = t("en", "bot.ahead_again_done")
    assert any(r[1] == "answerCallbackQuery" and r[3] == done for r in a.stream(uid))


def test_R_D1_a_turn_chosen_ahead_and_its_waiting_edit_look_the_same_to_the_group() -> None:
    """Issue 27: a choice made on "🔜 Your turn is next" is said by the press's answer and
    shown in the message 10 s later (its flush timer). A: the next player chooses to pass ahead
    5 s into the turn before theirs; B: they choose nothing. Until that turn's player acts, the
    group and every other seat see the same, call for call."""
    seed = find_seed(lambda st: True)
    _, nxt, _ = seats(deal(N, seed))
    a, b = twins(seed, lambda st: None, lambda st: None)
    for twin, chooses in ((a, True), (b, False)):
        twin.wait(5)
        if chooses:
            player = twin.player(nxt)
            title = t("en", "game.turn.next_title").replace("<b>", "").replace("</b>", "")
            shown = next(
                m for m in twin.harness.api.messages_in(player.uid) if title in (m.text or "")
            )
            button = next(d for _, d in shown.buttons() if d and d.endswith(":pa"))
            twin.harness.press(player, player.uid, shown.message_id, button)
        twin.wait(40)
    assert engine.view(a.state(), nxt)["next_turn"]["held"] is not None  # type: ignore[index]
    held = t("en", "game.turn.next_held")
    mine = a.stream(a.player(nxt).uid)
    assert any(r[1] == "editMessageText" and held in (r[3] or "") for r in mine), "shown later"
    assert_same_streams(a, b, hidden={nxt})
