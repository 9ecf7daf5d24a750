"""The group's story, private news and the other texts (issue #4, docs/rules.md R-V1…R-V3).

The leak test is structural: at every step of many random games it lists the cards that are
secret at that moment (items in hands and in the pile, associations, face-down occupations and
the occupation deck) and checks that the group's text names none of them, unless that step's
public events make the card public (played fight cards, announced trade effects, reveals, the
end of the game)."""

from __future__ import annotations

import functools
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from devtools.botapi.html import parse_telegram_html, utf16_len
from devtools.botapi.limits import MAX_TEXT
from engine import Event, State, events_for, public_events, public_view, view
from engine.cards import ALL_ITEMS, ASSOCIATIONS, BAGS, OCCUPATIONS, item_kind
from engine.rng import Rng
from handlers import i18n, story
from handlers.i18n import LANGUAGES, t
from handlers.story.notes import note_text
from tests.unit import playouts

ROOT = Path(__file__).resolve().parents[2]
LOCALES = Path(i18n.__file__).parent / "locales"
# Public events that tell nothing a line could add (the seat order has its own message).
# The turn chosen ahead (engine.premove) is told in its own prompt as it closes, not as news.
SILENT = {"game_started", "fight_over", "premove_played", "premove_dropped", "premove_kept"}


def check_text(text: str) -> None:
    plain, problems = parse_telegram_html(text)
    assert not problems, (problems, text)
    assert 1 <= utf16_len(plain) <= MAX_TEXT


def engine_event_kinds() -> set[str]:
    """Every event kind the engine can emit, read from its source."""
    pattern = re.compile(
        r'(?:ctx|self)\.public\(\s*"(\w+)"|(?:ctx|self)\.private\([^"]*?"(\w+)"|Event\(\s*"(\w+)"'
        r"|Event\(\s*EventKind\.(\w+)"
    )
    kinds: set[str] = set()
    for path in (ROOT / "engine").glob("*.py"):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            kinds.add(next(g for g in match.groups() if g).lower())
    return kinds


def test_the_engine_event_list_is_read() -> None:
    kinds = engine_event_kinds()
    assert {"turn", "effects", "revealed", "game_over", "dealt", "occupation_seen"} <= kinds
    assert len(kinds) >= 50


# -- every event kind renders -------------------------------------------------------------------
@functools.cache
def examples() -> tuple[dict[str, tuple[Event, State]], list[tuple[list[Event], State]]]:
    """One (event, state after) per kind seen in random games, and every step's batch."""
    seen: dict[str, tuple[Event, State]] = {}
    batches: list[tuple[list[Event], State]] = []
    wanted = engine_event_kinds() - {e.kind for e in SYNTHETIC}
    for seed in range(40):
        st, events = playouts.started(seed)
        for e in events:
            seen.setdefault(e.kind, (e, st))
        for step in playouts.game(seed):
            batches.append((step.events, step.after))
            for e in step.events:
                seen.setdefault(e.kind, (e, step.after))
        if seed >= 8 and wanted <= set(seen):
            break
    return seen, batches


# Kinds a few dozen random games may miss, with data shaped as the engine emits them.
SYNTHETIC = [
    Event("away", None, {"seat": 1}),
    Event("back", None, {"seat": 1}),
    Event("coat_empty", None, {"seat": 2}),
    Event("claim_solo", None, {"seat": 0}),
    Event("draw_empty", None, {"seat": 0, "reason": "tie"}),
    Event("draw_empty", None, {"seat": 0, "reason": "bag"}),
    Event("drew", None, {"seat": 0, "reason": "tie", "pile": 3}),
    Event("trade_done", None, {"seat": 0, "target": 1, "forced": True}),
    Event("gift", None, {"seat": 0, "target": 1, "reason": "priest"}),
    Event("gift", None, {"seat": 0, "target": 1, "reason": "hand_limit"}),
    Event("played", None, {"seat": 2, "card": "duelist", "choice": None}),
    Event("played", None, {"seat": 2, "card": "poison_mixer", "choice": "defender"}),
    Event("claim", None, {"seat": 0, "named": []}),
    Event("claim_other", None, {"seat": 0, "named": []}),
    Event("deadline", None, {"decision": 3, "decision_kind": "smuggle", "window": True}),
    Event("association_seen", (0,), {"about": 1, "assoc": "order", "position": 2, "how": "fight"}),
    Event("occupation_received", (0,), {"seat": 0, "source": 1, "occupation": "priest"}),
    Event("occupation_taken", (0,), {"seat": 0, "occupation": "thug"}),
    Event("deck_seen", (0,), {"cards": ["thug", "doctor"]}),
]
SYNTHETIC += [
    Event("fight_result", None, dict(seat=0, target=1, attack=2, defence=2, winner=w, how=how))
    for w, how in ((None, "tie"), (1, "poison_ring"), (0, "poison_mixer"), (0, "strength"))
]
SYNTHETIC += [
    Event(
        "premove_played", (1,), {"seat": 1, "action": {"kind": "pass", "seat": 1, "decision": 3}}
    ),
    Event(
        "premove_dropped",
        (1,),
        {"seat": 1, "action": {"kind": "pass", "seat": 1, "decision": 3}, "why": "cards"},
    ),
    Event("premove_kept", (1,), {"seat": 1, "action": {"kind": "pass", "seat": 1, "decision": 3}}),
]
SYNTHETIC += [
    Event("received", (1,), {"seat": 1, "source": 0, "card": "dagger", "how": how})
    for how in ("trade", "sextant", "priest", "giveback", "gift")
]


def public_text(events: list[Event], st: State, lang: str) -> str | None:
    return story.public_text(public_events(events), public_view(st), lang)


def private_texts(events: list[Event], st: State, lang: str) -> dict[int, str]:
    texts = {
        s: story.private_text(events_for(events, s), public_view(st), lang) for s in range(st.n)
    }
    return {s: text for s, text in texts.items() if text}


def _render(e: Event, st: State, lang: str) -> str | None:
    if e.to is None:
        return public_text([e], st, lang)
    return private_texts([e], st, lang).get(e.to[0])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_kind_renders(lang: str) -> None:
    seen, _ = examples()
    missing = engine_event_kinds() - set(seen) - {e.kind for e in SYNTHETIC}
    assert not missing, f"no example for {missing}"
    st, _ = playouts.started(5, n=5)
    cases = [*seen.values(), *((e, st) for e in SYNTHETIC)]
    for e, after in cases:
        text = _render(e, after, lang)
        if e.kind in SILENT or (e.kind == "trade_done" and not e.data["forced"]):
            assert text is None, e
            continue
        assert text, e
        check_text(text)


def test_private_news_goes_only_to_its_audience() -> None:
    for events, after in examples()[1][:3000]:
        texts = private_texts(events, after, "en")
        told = {s for e in events if e.to is not None for s in e.to}
        assert set(texts) <= told
        for text in texts.values():
            check_text(text)


def test_one_message_per_step() -> None:
    for i, (events, after) in enumerate(examples()[1]):
        text = public_text(events, after, LANGUAGES[i % 3])
        public = [e for e in events if e.to is None and e.kind not in SILENT]
        if text is None:
            assert all(e.kind == "trade_done" for e in public), public
        else:
            check_text(text)


# -- the leak test ----------------------------------------------------------------------------
@functools.cache
def _names(lang: str) -> dict[tuple[str, str], str]:
    """Every card name a text could give away, keyed by (kind of card, id)."""
    names = {("item", k): t(lang, f"item.{k}.name") for k in {item_kind(c) for c in ALL_ITEMS}}
    names[("item", "bag")] = t(lang, "item.bag.name")
    names.update({("occupation", o): t(lang, f"occupation.{o}.name") for o in OCCUPATIONS})
    names.update({("assoc", a): t(lang, f"association.{a}.name") for a in ASSOCIATIONS})
    return names


def _secrets(*states: State) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for st in states:
        for p in st.players:
            out |= {_item(c) for c in p.items} | {("item", item_kind(c)) for c in p.items}
            out |= {("assoc", a) for a in p.assoc}
            if not p.occ_up:
                out.add(("occupation", p.occupation))
        out |= {_item(c) for c in st.pile} | {("item", item_kind(c)) for c in st.pile}
        out |= {("occupation", o) for o in st.occ_deck}
    return out


def _face_up(*states: State) -> set[tuple[str, str]]:
    return {("occupation", p.occupation) for st in states for p in st.players if p.occ_up}


def _made_public(events: list[Event]) -> set[tuple[str, str]]:
    """What R-V1 makes public in this step's events."""
    out: set[tuple[str, str]] = set()
    for e in events:
        if e.to is not None:
            continue
        d: dict[str, Any] = e.data
        k = e.kind
        if k == "effects":
            out |= {_item(x["item"]) for x in d["items"]}
        elif k == "played":
            out.add(("occupation", d["card"]) if d["card"] in OCCUPATIONS else _item(d["card"]))
        elif k == "diplomat":
            out |= {_item(d["name"]), ("occupation", "diplomat")}
        elif k == "revealed":
            out |= {("item", item_kind(c)) for c in d["items"]} | {_item(c) for c in d["items"]}
            out |= {("assoc", a) for a in d["assoc"]}
        elif k == "game_over":
            for r in d["reveal"]:
                out |= {("item", item_kind(c)) for c in r["items"]} | {_item(c) for c in r["items"]}
                out |= {("assoc", a) for a in r["assoc"]} | {("occupation", r["occupation"])}
            out |= {("assoc", a) for a in d["boxed_assoc"]} | {("item", "coat_of_arms")}
        elif k == "occupation_used":
            out.add(("occupation", d["occupation"]))
        elif k == "bags_turned":
            out |= {("item", "bag"), ("item", "key"), ("item", "goblet")}
        elif k.startswith(("tome_", "coat_", "sextant")):
            out.add(("item", k.split("_")[0]))
        elif k == "fight_result" and d["how"] == "poison_ring":
            out.add(("item", "poison_ring"))
        elif k == "fight_result" and d["how"] == "poison_mixer":
            out.add(("occupation", "poison_mixer"))
        elif k in _OCC_OF:
            out.add(("occupation", _OCC_OF[k]))
        elif k == "gift" and d["reason"] == "priest":
            out.add(("occupation", "priest"))
        elif k == "claim_solo":
            out.add(("item", "coat_of_arms"))
    return out


_OCC_OF = {"priest_stopped": "priest", "doctor_cancelled": "doctor", "hypnotized": "hypnotist"}


def _item(name: str) -> tuple[str, str]:
    """A Bag in a public text is only "Secret Bag" (which one stays secret)."""
    return ("item", "bag") if name in (*BAGS, "bag") else ("item", item_kind(name))


def leaked(
    text: str, secret: set[tuple[str, str]], allowed: set[tuple[str, str]], lang: str
) -> list[str]:
    """The secret names in ``text`` once every allowed name is blanked out (an allowed "Coat of
    Arms of the Loge" contains the secret "Coat")."""
    names = _names(lang)
    for key in sorted(allowed, key=lambda k: -len(names.get(k, ""))):
        if key in names:
            text = text.replace(names[key], "▮")
    return sorted(names[k] for k in secret - allowed if names[k] in text)


def _fight_cards(st: State) -> set[tuple[str, str]]:
    fight = public_view(st)["fight"]
    if fight is None:
        return set()
    return {("occupation", c) if c in OCCUPATIONS else _item(c) for _, c, _ in fight["played"]}


def test_the_group_never_reads_a_secret() -> None:
    checked = 0
    for seed in range(200, 215):
        st0, _ = playouts.started(seed)
        public0 = {("item", item_kind(c)) for c in st0.removed}
        for lang in LANGUAGES:
            text = story.seat_order_text(public_view(st0), lang)
            assert not leaked(text, _secrets(st0), public0, lang)
        for i, step in enumerate(playouts.game(seed)):
            secret = _secrets(step.before, step.after)
            allowed = _made_public(step.events) | _face_up(step.before, step.after)
            for lang in LANGUAGES:
                text = public_text(step.events, step.after, lang)
                if text is not None:
                    assert not leaked(text, secret, allowed, lang), (text, step.events)
                    checked += 1
            if not step.after.over:
                lang = LANGUAGES[i % 3]
                status = story.status_text(public_view(step.after), lang, 12)
                shown = _fight_cards(step.after) | _face_up(step.after)
                assert not leaked(status, secret, shown, lang), status
    assert checked > 1000


def test_the_leak_check_would_see_a_leak() -> None:
    st, _ = playouts.started(1, n=4)
    card = next(c for p in st.players for c in p.items if c not in BAGS)
    text = f"{t('en', 'game.story.passed', name='x')} {t('en', f'item.{item_kind(card)}.name')}"
    assert leaked(text, _secrets(st), set(), "en")
    assert not leaked(text, _secrets(st), {_item(card)}, "en")


# -- the other texts --------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_dossier_notes_status_and_final_texts_fit(lang: str) -> None:
    for seed in (11, 12, 13, 14):
        st, _ = playouts.started(seed)
        check_text(story.seat_order_text(public_view(st), lang))
        for seat in range(st.n):
            check_text(story.dossier_text(view(st, seat), lang))
        last = st
        for step in playouts.game(seed):
            last = step.after
        for seat in range(last.n):
            check_text(story.notes_text(view(last, seat), lang))
        check_text(story.status_text(public_view(last), lang, None))
        check_text(story.final_text(public_view(last), lang))


def test_long_notebooks_drop_the_oldest_entries() -> None:
    st, _ = playouts.started(2, n=10)
    me = st.players[0]
    for i in range(400):
        me.notes.append(
            {
                "k": "saw_items",
                "turn": i,
                "round": i // 10 + 1,
                "about": 1,
                "cards": ["key1", "goblet2", "coat_of_arms"],
                "how": "fight",
            }
        )
    for lang in LANGUAGES:
        text = story.notes_text(view(st, 0), lang)
        check_text(text)
        assert t(lang, "game.notes.truncated", count=0).split("0")[0] in text
        assert text.endswith(note_text(public_view(st), lang, me.notes[-1]))  # the newest are kept


def test_the_final_text_reveals_everything() -> None:
    for seed in range(300, 330):
        for step in playouts.game(seed):
            if step.after.over and step.after.result and step.after.result["how"] != "exhausted":
                st = step.after
                text = story.final_text(public_view(st), "en")
                check_text(text)
                for p in st.players:
                    assert t("en", f"occupation.{p.occupation}.name") in text
                    assert t("en", f"association.{p.association}.name") in text
                return
    pytest.fail("no game ended with a claim")


# -- catalogs ---------------------------------------------------------------------------------
def _placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_game_catalogs_match_in_all_three_languages() -> None:
    parts = {}
    for lang in LANGUAGES:
        raw = (LOCALES / f"{lang}.game.json").read_text(encoding="utf-8")
        pairs = json.loads(raw, object_pairs_hook=list)
        keys = [k for k, _ in pairs]
        assert keys == sorted(keys) and len(keys) == len(set(keys)), lang
        assert all(k.startswith("game.") and isinstance(v, str) and v.strip() for k, v in pairs)
        parts[lang] = dict(pairs)
    for lang in LANGUAGES:
        assert set(parts[lang]) == set(parts["en"]), set(parts[lang]) ^ set(parts["en"])
        for key, template in parts["en"].items():
            assert _placeholders(parts[lang][key]) == _placeholders(template), (lang, key)


def test_every_key_the_code_names_exists() -> None:
    sources = [ROOT / "handlers" / "fmt.py"]
    sources += [*(ROOT / "handlers" / "prompts").glob("*.py")]
    sources += [*(ROOT / "handlers" / "story").glob("*.py")]
    keys = set()
    for path in sources:
        keys |= set(re.findall(r'"(game\.[a-z_.]+[a-z_])"', path.read_text(encoding="utf-8")))
    assert len(keys) > 100
    for lang in LANGUAGES:
        missing = keys - set(i18n.catalog(lang))
        assert not missing, (lang, missing)


# -- the leak test through the service: sends, edits and callback answers ----------------------
_ITEM_NAMES = {"bag", *BAGS, *(item_kind(c) for c in ALL_ITEMS)}


def _cards_in(value: Any) -> set[tuple[str, str]]:
    """Every card a view names (what its seat may see)."""
    out: set[tuple[str, str]] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= _cards_in(v)
    elif isinstance(value, str):
        if (
            value in ALL_ITEMS
            or value in (*BAGS, "bag")
            or value in {item_kind(c) for c in ALL_ITEMS}
        ):
            out |= {_item(value), ("item", item_kind(value))}
        elif value in OCCUPATIONS:
            out.add(("occupation", value))
        elif value in ASSOCIATIONS:
            out.add(("assoc", value))
    return out


@pytest.mark.parametrize("seed", [21, 22])
def test_no_secret_in_any_group_send_or_edit_nor_in_a_callback_answer(seed: int) -> None:
    """Issue 8: the structural leak test, through the real service and the fake Bot API. Every
    message sent to the group and every edit of one names no card that is secret at that step
    (unless R-V1 made it public then or earlier); every callback answer (a toast or a card's
    alert) names only cards public so far or seen in the presser's own view."""
    import engine
    from tests.service.twins import GROUP, Twin

    events: list[Event] = []
    apply = engine.apply

    def recording(*args: Any, **kw: Any) -> Any:
        st, evs = apply(*args, **kw)
        events.extend(evs)
        return st, evs

    def short_game(st: State) -> None:
        st.options["max_rounds"] = 4

    patch = pytest.MonkeyPatch()
    patch.setattr(engine, "apply", recording)
    try:
        twin = Twin(5, seed, short_game)
        twin.start()
        rng = Rng(seed)
        ever = {("item", item_kind(c)) for c in twin.state().removed}
        checked = {"group": 0, "answers": 0}
        for _ in range(3000):
            before = twin.state()
            if before.over:
                break
            events.clear()
            first_call = len(twin.calls)
            pressed = _press_something(twin, rng)
            after = twin.state()
            ever |= _made_public(events) | _face_up(before, after)
            ever |= _fight_cards(before) | _fight_cards(after)
            secret = _secrets(before, after)
            for _, method, params in twin.calls[first_call:]:
                text = str(params.get("text") or "")
                if method in ("sendMessage", "editMessageText") and params["chat_id"] == GROUP:
                    assert not leaked(text, secret, ever, "en"), (method, text)
                    checked["group"] += 1
                elif method == "answerCallbackQuery" and text and pressed is not None:
                    if params.get("show_alert"):
                        text = text.split(": ", 1)[0]  # the card; its rule text is public
                    mine = _cards_in(view(before, pressed)) | _cards_in(view(after, pressed))
                    assert not leaked(text, secret, ever | mine, "en"), text
                    checked["answers"] += 1
        assert twin.state().over
    finally:
        patch.undo()
    assert checked["group"] > 10 and checked["answers"] > 5, checked


def _press_something(twin: Any, rng: Rng) -> int | None:
    """One random press on a shown button (now and then a card's ℹ️), or, when nobody may act,
    time passing to the deadline. Returns the seat that pressed."""
    import engine

    st = twin.state()
    aw = engine.awaiting(st)
    assert aw is not None
    if not aw.seats:
        twin.run_until(twin.due())
        return None
    seat = aw.seats[rng.below(len(aw.seats))]
    twin.wait(1)
    shown = twin.payloads(seat)
    info = [p for p in shown if p.startswith("?")]
    choices = [p for p in shown if not p.startswith("?")]
    if info and rng.below(3) == 0:
        twin.press(seat, info[rng.below(len(info))])
    elif choices:
        twin.press(seat, choices[rng.below(len(choices))])
    else:
        twin.run_until(twin.due())
        return None
    return seat
