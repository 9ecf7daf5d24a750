"""Decision prompts (issue #4): every pending decision renders for every asked seat in every
language, the buttons are exactly the legal actions, and the pages fit Telegram's limits."""

from __future__ import annotations

import html
from collections import deque

import pytest

import engine
from devtools.botapi.html import parse_telegram_html, utf16_len
from devtools.botapi.limits import MAX_CALLBACK_ANSWER, MAX_TEXT
from engine import Action, State
from engine.api import validate
from engine.cards import ALL_ITEMS, item_kind
from handlers import action_payloads, prompts
from handlers.action_payloads import Act, Info, Nav
from handlers.i18n import LANGUAGES
from handlers.prompts.base import MAX_BUTTONS, MAX_PER_ROW, fits
from tests.unit import playouts

CLAIMS = ("claim", "claim_other")
COMMON = ("turn", "boost", "support", "priest", "hypnotist", "doctor", "trade_answer", "smuggle")
PREFIX = f"{'g' * 10}:{'9' * 6}:"  # the longest "<game id>:<decision id>:" the service adds
_ITEMS = frozenset(ALL_ITEMS)


def render(
    st: State, seat: int, lang: str, nav: str = "", left: int | None = None
) -> prompts.Prompt:
    """The prompt as the service renders it: from the seat's view and legal actions."""
    view, legal = engine.view(st, seat), engine.legal_actions(st, seat)
    return prompts.render_prompt(view, legal, lang, nav, left)


def check_text(text: str) -> None:
    plain, problems = parse_telegram_html(text)
    assert not problems, (problems, text)
    assert 1 <= utf16_len(plain) <= MAX_TEXT
    assert utf16_len(text) <= MAX_TEXT


def same_choice(a: Action) -> tuple[object, ...]:
    """Keys (and Goblets) are interchangeable cards: a prompt offers one button per kind."""

    def norm(card: str | None) -> str | None:
        return item_kind(card) if card in _ITEMS else card

    return (a.kind, a.target, norm(a.card), a.choice, tuple(norm(c) for c in a.cards), a.seats)


def walk(st: State, seat: int, lang: str) -> tuple[set[tuple[object, ...]], list[Action], int]:
    """Every page reachable from the root: its checks, the actions its buttons carry."""
    p = st.pending
    assert p is not None
    reached: set[tuple[object, ...]] = set()
    claims: list[Action] = []
    seen: set[str] = set()
    queue = deque(["~"])
    while queue:
        nav = queue.popleft()
        if nav in seen:
            continue
        seen.add(nav)
        pr = render(st, seat, lang, nav, 42)
        check_text(pr.text)
        buttons = [b for row in pr.rows for b in row]
        assert pr.rows and all(pr.rows) and buttons, (p.kind, nav)
        assert all(len(row) <= MAX_PER_ROW for row in pr.rows)
        assert len(buttons) <= MAX_BUTTONS
        for label, payload in buttons:
            assert label.strip()
            assert len(payload.encode()) <= action_payloads.MAX_PAYLOAD
            assert len((PREFIX + payload).encode()) <= 64
            parsed = action_payloads.parse_payload(payload)
            if isinstance(parsed, Nav):
                if _few_allies(parsed.path):
                    queue.append(payload)
            elif isinstance(parsed, Info):
                alert = prompts.render_info(lang, parsed)
                assert 0 < len(alert) <= MAX_CALLBACK_ANSWER
            else:
                assert isinstance(parsed, Act)
                action = action_payloads.decode_action(parsed.payload, seat, p.id)
                validate(st, action)
                if action.kind in CLAIMS:
                    claims.append(action)
                else:
                    reached.add(same_choice(action))
    return reached, claims, len(seen)


def _few_allies(path: str) -> bool:
    """The ally multi-select has 2^(n-1) pages: walk those naming at most one player (the
    multi-select test below checks a bigger set)."""
    head, _, rest = path.partition(".")
    mask = rest.split(".")[0]
    return head not in ("cl", "fo") or not mask.isdigit() or int(mask).bit_count() <= 1


def check_decision(st: State, seat: int, lang: str) -> None:
    legal = engine.legal_actions(st, seat)
    reached, claims, _ = walk(st, seat, lang)
    expected = {same_choice(a) for a in legal if a.kind not in CLAIMS}
    assert reached == expected, (st.pending and st.pending.kind, reached ^ expected)
    for kind in CLAIMS:
        offered = Action(kind, seat, legal[0].decision) in legal
        assert offered == any(c.kind == kind for c in claims), kind


@pytest.mark.parametrize("seed", range(10))
def test_every_decision_renders_with_exactly_the_legal_actions(seed: int) -> None:
    kinds: set[str] = set()
    for i, step in enumerate(playouts.game(seed, n=3 + seed % 8)):
        st = step.before
        aw = engine.awaiting(st)
        assert aw is not None
        for seat in aw.seats:
            # every language for the rarer decisions, one in turn for the common ones
            langs = [LANGUAGES[i % 3]] if aw.kind in COMMON else LANGUAGES
            for lang in langs:
                check_decision(st, seat, lang)
            kinds.add(aw.kind)
        if step.seat is not None:
            check_text(
                prompts.render_answered(
                    engine.view(st, step.seat),
                    engine.legal_actions(st, step.seat),
                    step.action,
                    LANGUAGES[i % 3],
                )
            )
    assert {"turn", "trade_answer", "support", "boost"} <= kinds


def test_all_decision_kinds_were_rendered() -> None:
    """Seeds 100… reach every decision kind, the rare ones (a Diplomat's forced trade, the
    Priest's tribute, gifts over the hand limit, advanced 3-player looks) included."""
    kinds: set[str] = set()
    for seed in range(100, 160):
        for step in playouts.game(seed):
            aw = engine.awaiting(step.before)
            assert aw is not None
            if aw.kind in kinds or not aw.seats:
                continue
            kinds.add(aw.kind)
            for seat in aw.seats:
                for lang in LANGUAGES:
                    check_decision(step.before, seat, lang)
        if kinds >= set(prompts.PAGES):
            break
    assert kinds == set(prompts.PAGES)


def test_claim_multi_select_carries_the_chosen_allies() -> None:
    for step in playouts.game(7, n=6):
        st = step.before
        p = st.pending
        assert p is not None
        if p.kind != "turn" or Action("claim", p.actors[0], p.id) not in engine.legal_actions(
            st, p.actors[0]
        ):
            continue
        seat = p.actors[0]
        others = [s for s in range(st.n) if s != seat]
        mask = (1 << others[0]) | (1 << others[3])
        page = render(st, seat, "en", f"~cl.{mask}")
        toggles = [pl for row in page.rows for _, pl in row if pl.startswith("~cl.")]
        assert f"~cl.{mask ^ (1 << others[1])}" in toggles
        confirm = render(st, seat, "en", f"~cl.{mask}.ok")
        acts = [pl for row in confirm.rows for _, pl in row if not pl.startswith(("~", "?"))]
        assert len(acts) == 1
        action = action_payloads.decode_action(acts[0], seat, p.id)
        assert action == Action("claim", seat, p.id, seats=(others[0], others[3]))
        validate(st, action)
        return
    pytest.fail("no claim was offered in this game")


def test_unknown_or_stale_navigation_falls_back_to_the_root() -> None:
    st, _ = playouts.started(3, n=5)
    seat = st.turn
    root = render(st, seat, "en")
    for nav in ("~zz", "~cl.99999", f"~cl.{1 << seat}", "~so", "~dp", "~c.k1", "~gf.dg"):
        assert render(st, seat, "en", nav) == root, nav
    trade = render(st, seat, "en", "~tr")
    for nav in ("~tr.9", "~tr.x", f"~tr.{seat}"):
        assert render(st, seat, "en", nav) == trade, nav


def test_a_seat_that_is_not_asked_gets_no_buttons() -> None:
    st, _ = playouts.started(3, n=5)
    other = (st.turn + 2) % st.n  # the next seat may choose its turn ahead (engine.premove)
    pr = render(st, other, "de")
    assert pr.rows == []
    check_text(pr.text)


def test_prompts_show_the_time_left_and_escape_names() -> None:
    st, _ = playouts.started(1, n=4)
    seat = st.turn
    target = 1 if seat != 1 else 2
    raw = st.players[target].name
    text = render(st, seat, "en", f"~tr.{target}", 17).text
    check_text(text)
    assert "17" in text
    assert html.escape(raw) in text and raw not in text
    pages = render(st, seat, "en", "~tr").rows
    assert any(raw in label for row in pages for label, _ in row)  # labels are plain


def test_turn_prompt_lists_declaring_victory_only_with_its_button() -> None:
    """Issue 25: "declare victory" is named only when a Declare button is there."""
    from engine.cards import ORDER
    from handlers.i18n import t
    from tests.unit.engine_helpers import table

    plain = table(4, assoc=[ORDER] * 4, hands={0: ["dagger"]})
    claim = table(4, assoc=[ORDER] * 4, hands={0: ["key1", "key2", "key3"]})
    for st, can in ((plain, False), (claim, True)):
        legal = engine.legal_actions(st, 0)
        assert any(a.kind == "claim" for a in legal) is can
        pr = prompts.render_prompt(engine.view(st, 0), legal, "en")
        buttons = [label for row in pr.rows for label, _ in row]
        assert (t("en", "game.btn.claim") in buttons) is can
        assert ("declare victory" in pr.text) is can


def test_the_two_bags_info_buttons_differ_and_the_diplomat_item_page_stays_short() -> None:
    """Issue 25: two identical "ℹ️👜" buttons stood for different Secret Bags; the Diplomat's
    item page had 31 buttons (15 names, 16 ℹ️)."""
    from tests.unit.engine_helpers import table

    st = table(4, hands={0: ["bag_key", "bag_goblet", "dagger"]}, occ={0: "diplomat"})
    legal = engine.legal_actions(st, 0)
    root = prompts.render_prompt(engine.view(st, 0), legal, "en")
    infos = [label for row in root.rows for label, p in row if p.startswith("?i.")]
    assert len(infos) == len(set(infos)) == 2 + 1  # both Bags, the Dagger
    page = prompts.render_prompt(engine.view(st, 0), legal, "en", action_payloads.nav("dp", 1))
    total = sum(len(row) for row in page.rows)
    names = [p for row in page.rows for _, p in row if not p.startswith(("?", "~"))]
    assert names and total <= len(names) + 2  # the names, the Diplomat's ℹ️, Back


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R_A9_the_giveback_prompt_names_the_only_item_taken(lang: str) -> None:
    """The loser's only item is taken without a one-button pick: the winner's give-back prompt
    says what they took, from whom."""
    from engine.fight import ATTACKER
    from handlers import fmt
    from tests.unit.engine_helpers import Game

    g = Game.make(4, hands={0: ["dagger", "whip"], 1: ["key2"]})
    g.fight(0, 1, {2: ATTACKER}).act(0, "take")
    assert g.kind == "giveback"
    pr = render(g.st, 0, lang)
    check_text(pr.text)
    from handlers.i18n import t

    took = t(lang, "game.giveback.took", card=fmt.cards(lang, ["key2"]), name="<b>p1</b>")
    assert took in pr.text.split("\n")  # the line naming the item taken, and from whom


def test_R_T3_the_bag_for_bag_line_is_shown_only_to_who_holds_the_other_bag() -> None:
    """Issue 25 item 7 (a newcomer's game): a trade offer told a player holding no Secret Bag
    that a Bag cannot be traded for the other one: a line about nothing their buttons offer."""
    from collections import Counter

    from engine.cards import BAGS
    from handlers.i18n import t

    line = t("en", "game.answer_trade.no_bag")
    seen: Counter[tuple[bool, bool]] = Counter()
    for seed in range(40):
        for step in playouts.game(seed, n=3 + seed % 8):
            st = step.before
            p = st.pending
            if p is None or p.kind != "trade_answer" or p.data.get("card") not in BAGS:
                continue
            if engine.public_view(st)["bags_are_goals"]:
                continue
            for seat in engine.awaiting(st).seats:  # type: ignore[union-attr]
                holds = any(c in BAGS for c in engine.view(st, seat)["me"]["items"])
                shown = line in render(st, seat, "en").text
                assert shown == holds
                seen[holds, shown] += 1
    assert seen[True, True] and seen[False, False], seen  # both cases were met


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8])
def test_each_player_to_attack_is_one_tap_on_the_turns_first_page_up_to_five(n: int) -> None:
    """Issue 27: the attack's page of targets was an edit of its own (~20 a 5-player game). Up
    to four others, each is a button on the turn's first page, carrying the attack itself; at a
    larger table an "Attack…" page lists them as before."""
    from handlers.i18n import t
    from handlers.prompts.turn import INLINE_ATTACKS

    st, _ = playouts.started(3, n=n)
    seat = st.turn
    root = render(st, seat, "en")
    payloads = [p for row in root.rows for _, p in row]
    attacks = [a for a in engine.legal_actions(st, seat) if a.kind == "attack"]
    inline = {action_payloads.encode_action(a) for a in attacks}
    labels = {label for row in root.rows for label, p in row if p in inline}
    if n - 1 <= INLINE_ATTACKS:
        assert inline <= set(payloads) and len(inline) == n - 1
        # no item count on them: "your turn is next" would be edited whenever one changes
        assert all(label.startswith("⚔️ ") and "🎒" not in label for label in labels), labels
        assert action_payloads.nav("at") not in payloads
    else:
        assert not inline & set(payloads)
        assert action_payloads.nav("at") in payloads
        assert t("en", "game.btn.attack") in {label for row in root.rows for label, _ in row}


def test_each_offer_is_one_tap_on_the_trades_page_while_they_are_few() -> None:
    """Issue 27: the item's page after the player's was an edit of its own. Up to
    INLINE_OFFERS (an item to a player), the trade's page offers each at once, naming both;
    more, and it asks whom first, then which item, as before."""
    from handlers.i18n import t
    from handlers.prompts.turn import INLINE_OFFERS
    from tests.unit.engine_helpers import table

    few = table(5, hands={0: ["dagger", "gloves"]})
    many = table(5, hands={0: ["dagger", "gloves", "whip", "monocle"]})
    for st, inline in ((few, True), (many, False)):
        legal = engine.legal_actions(st, 0)
        trades = {action_payloads.encode_action(a) for a in legal if a.kind == "trade"}
        assert (len(trades) <= INLINE_OFFERS) is inline
        page = prompts.render_prompt(engine.view(st, 0), legal, "en", action_payloads.nav("tr"))
        payloads = {p for row in page.rows for _, p in row}
        if inline:
            assert trades <= payloads, "every offer, one tap"
            assert t("en", "game.trade.pick_offer") in page.text
            labels = [label for row in page.rows for label, p in row if p in trades]
            assert all("→" in label and "🎒" in label for label in labels), labels
        else:
            assert not trades & payloads
            assert action_payloads.nav("tr", 1) in payloads


def test_the_poison_mixers_buttons_each_have_a_row_of_their_own() -> None:
    """ "🧪 Giftmischer: 🤖 Elfriede gewinnt" two to a row was cut off on a phone (a newcomer's
    game at the local table, 390 px): each Poison Mixer choice names a winner, so it gets the
    keyboard's whole width."""
    from engine.cards import POISON_MIXER

    for seed in range(40):
        for step in playouts.game(seed, n=5):
            aw = engine.awaiting(step.before)
            if aw is None or aw.kind != "boost":
                continue
            for seat in aw.seats:
                legal = engine.legal_actions(step.before, seat)
                if any(a.card == POISON_MIXER for a in legal):
                    pr = prompts.render_prompt(engine.view(step.before, seat), legal, "de")
                    rows = [row for row in pr.rows if any("Giftmischer" in b[0] for b in row)]
                    assert len(rows) == 2 and all(len(row) == 1 for row in rows), pr.rows
                    return
    raise AssertionError("no boost window offered the Poison Mixer in 40 games")


def test_a_trade_answers_long_labels_each_have_a_row_of_their_own() -> None:
    """ "✅ Annehmen, 👜 Geheimer Koffer (Schlüssel) geben" two to a row was cut off on a phone
    (a newcomer's game at the local table, 390 px): card buttons are two to a row only when
    every label fits half the keyboard (``fits``, the phone's keyboard as Chromium draws it)."""
    checked = 0
    for seed in range(12):
        for step in playouts.game(seed, n=5):
            aw = engine.awaiting(step.before)
            if aw is None or aw.kind != "trade_answer":
                continue
            for seat in aw.seats:
                view, legal = (
                    engine.view(step.before, seat),
                    engine.legal_actions(step.before, seat),
                )
                pr = prompts.render_prompt(view, legal, "de")
                accept = [row for row in pr.rows if any(b[1].startswith("ac.") for b in row)]
                wide = not fits([b[0] for row in accept for b in row], 2)
                assert not wide or all(len(row) == 1 for row in accept), pr.rows
                checked += wide
    assert checked >= 3, "too few trades with a long label to check"


def test_info_buttons_each_fit_a_phones_row_whole() -> None:
    """A row of "ℹ️" buttons is cut to the phone's width as measured in Chromium at 390 px: eight
    a row cut "ℹ️👜🏆" to "ℹ️…" (the CI run of the phone test). No row of a page's ℹ️ buttons is
    wider than the keyboard, and a row holds as many as fit."""
    from engine.cards import ITEM_KINDS
    from handlers.prompts.base import info_row

    for lang in ("en", "de", "zh-Hans"):
        rows = info_row(lang, [action_payloads.info_item(k) for k in ITEM_KINDS])
        assert len(rows) > 1
        for row in rows:
            assert fits([label for label, _ in row], len(row)), row
        labels = [b[0] for row in rows for b in row]
        assert "ℹ️👜🏆" in labels and len(rows[0]) == 4  # four a row, not eight
        assert not fits(labels, 5)
