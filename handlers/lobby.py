"""Lobby, settings, language and the other commands around a game (issue: the conversation)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import engine
from engine.setup import MAX_PLAYERS, MIN_PLAYERS
from handlers import story
from handlers.group_settings import AI_FILL_CHOICES, DEADLINE_CHOICES, DEADLINE_KINDS, GroupSettings
from handlers.i18n import LANGUAGES, t
from handlers.messenger import Rows
from handlers.play import Table
from handlers.rules_help import rules_text
from handlers.service import Txn, chat_key, game_key, new_game_id, user_key
from handlers.updates import ButtonPress, CommandMsg

if TYPE_CHECKING:
    from handlers.app import Service

BUTTON_PREFIXES = {"L", "S", "G", "B"}  # lobby, settings, language, back from away
LANGUAGE_CHOSEN = "language_chosen"  # in the chat document, once the group picked a language
ACTIVE = ("lobby", "playing")


def _name(p: dict[str, Any]) -> str:
    return html.escape(p["name"], quote=False)


# -- /newgame, joining, leaving, starting ---------------------------------------------------
def cmd_newgame(svc: Service, cmd: CommandMsg, lang: str) -> None:
    settings, chat_doc, chat_version = svc.chat_settings(cmd.chat_id)
    if chat_doc.get("game"):
        running = svc.store.get(game_key(chat_doc["game"]))
        if running and running.doc.get("phase") in ACTIVE:
            svc.messenger.send(cmd.chat_id, t(lang, "lobby.already_running"))
            return
    if not chat_doc.get(LANGUAGE_CHOSEN):
        # Until the group picks a language (/settings, /language), it speaks its creator's.
        creator_lang = svc.user_lang(cmd.user.id, cmd.user.language_code)
        settings = settings.model_copy(update={"language": creator_lang})
        chat_doc["settings"] = settings.model_dump()
    gid = new_game_id()
    now = svc.clock.now()
    doc = {
        "gid": gid,
        "chat": cmd.chat_id,
        "phase": "lobby",
        "creator": cmd.user.id,
        "players": [],
        "settings": settings.model_dump(),
        "touched": now,
        "engine": None,
        "seq": 0,
        "outbox": [],
    }

    def change(txn: Txn) -> None:
        chat_doc["game"] = gid
        chat_doc.setdefault("settings", settings.model_dump())
        txn.put(chat_key(cmd.chat_id), chat_doc, chat_version)
        _lobby_due(txn, settings)
        txn.send(cmd.chat_id, lobby_text(svc, txn.doc), lobby_rows(svc, txn.doc), tag="lobby")

    svc.pipeline.run(game_key(gid), change, cmd.update_id, create=doc)


def _lobby_due(txn: Txn, settings: GroupSettings) -> None:
    txn.doc["touched"] = txn.now
    txn.doc["due"] = {"dec": 0, "at": txn.now + settings.lobby_minutes * 60}


def lobby_text(svc: Service, doc: dict[str, Any]) -> str:
    settings = GroupSettings.model_validate(doc["settings"])
    lang = settings.language
    names = "\n".join(f"{i + 1}. {_name(p)}" for i, p in enumerate(doc["players"])) or t(
        lang, "lobby.nobody"
    )
    return "\n\n".join(
        [
            t(lang, "lobby.title"),
            t(lang, "lobby.players", count=len(doc["players"]), max=MAX_PLAYERS) + "\n" + names,
            settings_summary(settings, lang),
            *([t(lang, "lobby.ai_fill", count=settings.ai_fill)] if settings.ai_fill else []),
            t(lang, "lobby.how_to_join", minutes=settings.lobby_minutes),
        ]
    )


def lobby_rows(svc: Service, doc: dict[str, Any]) -> Rows:
    lang = GroupSettings.model_validate(doc["settings"]).language
    gid = doc["gid"]
    return [
        [[t(lang, "lobby.join"), "u", f"https://t.me/{svc.bot_username}?start={gid}"]],
        [
            [t(lang, "lobby.leave"), "d", f"L:{gid}:leave"],
            [t(lang, "lobby.start"), "d", f"L:{gid}:start"],
        ],
    ]


def _refresh_lobby(svc: Service, txn: Txn) -> None:
    msg = txn.doc.get("lobby_msg")
    if msg:
        txn.edit(
            txn.doc["chat"],
            msg,
            lobby_text(svc, txn.doc),
            lobby_rows(svc, txn.doc),
            tag="lobby_edit",
        )
    else:
        txn.send(txn.doc["chat"], lobby_text(svc, txn.doc), lobby_rows(svc, txn.doc), tag="lobby")


def cmd_start_private(svc: Service, cmd: CommandMsg, lang: str) -> None:
    gid = cmd.args
    if not gid:
        svc.messenger.send(cmd.chat_id, t(lang, "bot.welcome", bot=svc.bot_username))
        return
    user = svc.store.get(user_key(cmd.user.id))
    user_doc = dict(user.doc) if user else {}
    other = user_doc.get("game")
    if other and other != gid:
        busy = svc.store.get(game_key(other))
        if busy and busy.doc.get("phase") in ACTIVE:
            svc.messenger.send(cmd.chat_id, t(lang, "lobby.in_other_game"))
            return

    def change(txn: Txn) -> None:
        doc = txn.doc
        if doc["phase"] != "lobby":
            txn.send(cmd.chat_id, t(lang, "lobby.not_open"))
            return
        if any(p["uid"] == cmd.user.id for p in doc["players"]):
            txn.send(cmd.chat_id, t(lang, "lobby.already_joined"))
            return
        if len(doc["players"]) >= MAX_PLAYERS:
            txn.send(cmd.chat_id, t(lang, "lobby.full"))
            return
        doc["players"].append({"uid": cmd.user.id, "name": cmd.user.name, "lang": lang})
        txn.put(user_key(cmd.user.id), {**user_doc, "game": gid}, user.version if user else None)
        _lobby_due(txn, GroupSettings.model_validate(doc["settings"]))
        txn.send(cmd.chat_id, t(lang, "lobby.joined"))
        _refresh_lobby(svc, txn)

    if svc.pipeline.run(game_key(gid), change, cmd.update_id) is None:
        svc.messenger.send(cmd.chat_id, t(lang, "lobby.not_open"))


def remove_player(svc: Service, txn: Txn, uid: int) -> None:
    doc = txn.doc
    before = len(doc["players"])
    doc["players"] = [p for p in doc["players"] if p["uid"] != uid]
    if len(doc["players"]) == before:
        return
    _clear_pointer(svc, txn, uid)
    _refresh_lobby(svc, txn)


def _clear_pointer(svc: Service, txn: Txn, uid: int) -> None:
    user = svc.store.get(user_key(uid))
    if user and user.doc.get("game") == txn.doc["gid"]:
        txn.put(user_key(uid), {**user.doc, "game": None}, user.version)
    txn.changed = True


def _may_manage(svc: Service, doc: dict[str, Any] | None, chat_id: int, uid: int) -> bool:
    return (doc is not None and doc.get("creator") == uid) or svc.is_admin(chat_id, uid)


def cmd_startgame(svc: Service, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = svc.chat_settings(cmd.chat_id)
    gid = chat_doc.get("game")
    if not gid:
        svc.messenger.send(cmd.chat_id, t(lang, "lobby.no_lobby"))
        return
    _start(svc, gid, cmd.chat_id, cmd.user.id, cmd.update_id, lang, None)


def _start(
    svc: Service, gid: str, chat_id: int, uid: int, update_id: int, lang: str, query: str | None
) -> None:
    def change(txn: Txn) -> None:
        doc = txn.doc
        if doc["phase"] != "lobby" or doc["chat"] != chat_id:
            txn.toast = (t(lang, "lobby.not_open"), False)
            return
        if not _may_manage(svc, doc, doc["chat"], uid):
            txn.toast = (t(lang, "lobby.only_creator"), True)
            if query is None:
                txn.send(chat_id, t(lang, "lobby.only_creator"))
            return
        fill = GroupSettings.model_validate(doc["settings"]).ai_fill
        if max(len(doc["players"]), fill) < MIN_PLAYERS or not doc["players"]:
            txn.toast = (t(lang, "lobby.too_few", min=MIN_PLAYERS), True)
            if query is None:
                txn.send(chat_id, t(lang, "lobby.too_few", min=MIN_PLAYERS))
            return
        start_game(svc, txn)

    if svc.pipeline.run(game_key(gid), change, update_id, query=query) is None and query:
        svc.messenger.answer(query, t(lang, "lobby.not_open"))


def start_game(svc: Service, txn: Txn) -> None:
    doc = txn.doc
    settings = GroupSettings.model_validate(doc["settings"])
    seed = int.from_bytes(doc["gid"].encode()[:8], "big") ^ int(txn.now * 1000)
    add_ai_passengers(doc, settings, seed)
    names = [p["name"] for p in doc["players"]]
    state, events = engine.new_game(names, seed, settings.engine_options())
    doc["phase"] = "playing"
    doc["engine"] = state.to_dict()
    doc["due"] = None
    if doc.get("lobby_msg"):
        txn.edit(
            doc["chat"],
            doc["lobby_msg"],
            lobby_text(svc, doc) + "\n\n" + t(settings.language, "lobby.started"),
            None,
            tag="lobby_edit",
        )
    table = Table(txn, svc.scale, svc.bot_username)
    txn.send(
        doc["chat"],
        story.seat_order_text(engine.public_view(state), settings.language),
        tag="start",
    )
    for seat in range(state.n):
        if table.is_ai(seat):
            continue  # an AI passenger has no chat: writing to it would mark it unreachable
        txn.send(
            table.chat_of(seat),
            story.dossier_text(engine.view(state, seat), table.lang_of(seat)),
            tag="dossier",
        )
    table.events = [e for e in events if e.kind not in ("game_started", "dealt")]
    table.settle()
    txn.changed = True
    svc.after_play(txn, table)


def add_ai_passengers(doc: dict[str, Any], settings: GroupSettings, seed: int) -> None:
    """Fill the table up to the chosen size with AI passengers, marked and named as such.
    They sit among the humans at random, so the seat gives nothing away."""
    lang = settings.language
    names = t(lang, "ai.names").split(",")
    missing = max(0, min(MAX_PLAYERS, settings.ai_fill) - len(doc["players"]))
    for i in range(missing):
        name = t(lang, "ai.marker", name=names[(seed + i) % len(names)])
        slot = (seed >> (4 * i)) % (len(doc["players"]) + 1)
        doc["players"].insert(slot, {"uid": -(i + 1), "name": name, "lang": lang, "ai": True})


def finish_game(svc: Service, txn: Txn, table: Table) -> None:
    doc = txn.doc
    doc["phase"] = "over"
    doc["due"] = None
    result = table.state.result or {}
    chat = svc.store.get(chat_key(doc["chat"]))
    chat_doc = dict(chat.doc) if chat else {"settings": doc["settings"], "scores": {}}
    if chat_doc.get("game") == doc["gid"]:
        chat_doc["game"] = None
    scores = result.get("scores")
    if scores:
        totals = dict(chat_doc.get("scores", {}))
        for seat, pts in enumerate(scores):
            p = doc["players"][seat]
            if p.get("ai"):
                continue
            entry = totals.get(str(p["uid"]), {"name": p["name"], "points": 0, "games": 0})
            entry["points"] += pts
            entry["games"] += 1
            entry["name"] = p["name"]
            totals[str(p["uid"])] = entry
        chat_doc["scores"] = totals
    txn.put(chat_key(doc["chat"]), chat_doc, chat.version if chat else None)
    for p in doc["players"]:
        if not p.get("ai"):
            _clear_pointer(svc, txn, p["uid"])
    for seat in range(table.state.n):
        if not table.no_chat(seat):
            final_view = engine.view(table.state, seat)
            txn.send(table.chat_of(seat), story.game_over_text(final_view, table.lang_of(seat)))


def expire_if_due(svc: Service, txn: Txn) -> None:
    doc = txn.doc
    settings = GroupSettings.model_validate(doc["settings"])
    if txn.now < doc["touched"] + settings.lobby_minutes * 60:
        return
    _cancel(svc, txn, "lobby.expired")


def _cancel(svc: Service, txn: Txn, key: str) -> None:
    doc = txn.doc
    lang = GroupSettings.model_validate(doc["settings"]).language
    doc["phase"] = "cancelled"
    doc["due"] = None
    chat = svc.store.get(chat_key(doc["chat"]))
    if chat and chat.doc.get("game") == doc["gid"]:
        txn.put(chat_key(doc["chat"]), {**chat.doc, "game": None}, chat.version)
    for p in doc["players"]:
        if not p.get("ai"):
            _clear_pointer(svc, txn, p["uid"])
    if doc.get("lobby_msg") and doc.get("engine") is None:
        txn.edit(doc["chat"], doc["lobby_msg"], lobby_text(svc, doc), None, tag="lobby_edit")
    txn.send(doc["chat"], t(lang, key))


def cmd_cancel(svc: Service, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = svc.chat_settings(cmd.chat_id)
    gid = chat_doc.get("game")
    if not gid:
        svc.messenger.send(cmd.chat_id, t(lang, "lobby.no_game"))
        return

    def change(txn: Txn) -> None:
        if txn.doc["phase"] not in ACTIVE:
            return
        if not _may_manage(svc, txn.doc, cmd.chat_id, cmd.user.id):
            txn.send(cmd.chat_id, t(lang, "lobby.only_creator"))
            return
        if txn.doc["phase"] == "playing":
            table = Table(txn, svc.scale, svc.bot_username)
            table.cancel()
            txn.send(cmd.chat_id, story.final_text(engine.public_view(table.state), lang))
        _cancel(svc, txn, "lobby.cancelled")

    svc.pipeline.run(game_key(gid), change, cmd.update_id)


# -- buttons --------------------------------------------------------------------------------
def press(svc: Service, p: ButtonPress, prefix: str, rest: str) -> str:
    lang = svc.user_lang(p.user.id, p.user.language_code)
    if prefix == "L":
        gid, _, what = rest.partition(":")
        if what == "start":
            _start(svc, gid, p.chat_id, p.user.id, p.update_id, lang, p.query_id)
            return "lobby_start"
        if what == "leave":

            def change(txn: Txn) -> None:
                if txn.doc["phase"] == "lobby" and txn.doc["chat"] == p.chat_id:
                    remove_player(svc, txn, p.user.id)

            if svc.pipeline.run(game_key(gid), change, p.update_id, query=p.query_id) is None:
                svc.messenger.answer(p.query_id)
            return "lobby_leave"
    if prefix == "S":
        return _settings_press(svc, p, rest, lang)
    if prefix == "B":
        return _back_press(svc, p, rest, lang)
    if prefix == "G":
        return _language_press(svc, p, rest, lang)
    svc.messenger.answer(p.query_id)
    return "garbage"


def _back_press(svc: Service, p: ButtonPress, gid: str, lang: str) -> str:
    """R-D2: the player marked away is back; their decisions are theirs again."""
    if p.chat_id != p.user.id:  # the button lives in the player's private chat
        svc.messenger.answer(p.query_id)
        return "garbage"

    def change(txn: Txn) -> None:
        if txn.doc.get("phase") != "playing":
            return
        table = Table(txn, svc.scale, svc.bot_username)
        seat = table.seat_of(p.user.id)
        if seat is None or not table.come_back(seat):
            return
        table.reachable_again(p.user.id)
        table.settle()
        txn.changed = True
        txn.edit(p.chat_id, p.message_id, t(lang, "bot.back_done"), None)
        svc.after_play(txn, table)

    if svc.pipeline.run(game_key(gid), change, p.update_id, query=p.query_id) is None:
        svc.messenger.answer(p.query_id)
    return "back"


# -- /settings --------------------------------------------------------------------------------
TOGGLES = ("smuggling", "fortune_telling", "advanced_three", "personal_scores")


def settings_summary(s: GroupSettings, lang: str) -> str:
    on, off = t(lang, "settings.on"), t(lang, "settings.off")
    lines = [
        t(lang, "settings.items", value=t(lang, f"settings.items.{s.items}")),
        *(t(lang, f"settings.{k}", value=on if getattr(s, k) else off) for k in TOGGLES),
        t(lang, "settings.deadlines", **{k: s.seconds(k) for k in DEADLINE_KINDS}),
        t(lang, "settings.ai_fill", value=_ai_fill_value(s, lang)),
        t(lang, "settings.ai_takeover", value=on if s.ai_takeover else off),
        t(lang, "settings.ai_level", value=t(lang, f"settings.ai_level.{s.ai_level}")),
    ]
    return t(lang, "settings.title") + "\n" + "\n".join(lines)


def _ai_fill_value(s: GroupSettings, lang: str) -> str:
    if not s.ai_fill:
        return t(lang, "settings.ai_fill.off")
    return t(lang, "settings.ai_fill.to", count=s.ai_fill)


def settings_rows(s: GroupSettings, lang: str, chat_id: int) -> Rows:
    on, off = "✅", "▫️"
    rows: Rows = [
        [
            [
                t(lang, "settings.button.items", value=t(lang, f"settings.items.{s.items}")),
                "d",
                f"S:{chat_id}:items",
            ]
        ]
    ]
    rows += [
        [
            [
                f"{on if getattr(s, k) else off} {t(lang, f'settings.button.{k}')}",
                "d",
                f"S:{chat_id}:{k}",
            ]
        ]
        for k in TOGGLES
    ]
    rows += [
        [
            [t(lang, f"settings.button.{k}", seconds=s.seconds(k)), "d", f"S:{chat_id}:d.{k}"]
            for k in DEADLINE_KINDS[:3]
        ],
        [
            [t(lang, f"settings.button.{k}", seconds=s.seconds(k)), "d", f"S:{chat_id}:d.{k}"]
            for k in DEADLINE_KINDS[3:]
        ],
        [
            [
                t(lang, "settings.button.ai_fill", value=_ai_fill_value(s, lang)),
                "d",
                f"S:{chat_id}:ai_fill",
            ],
            [
                f"{on if s.ai_takeover else off} {t(lang, 'settings.button.ai_takeover')}",
                "d",
                f"S:{chat_id}:ai_takeover",
            ],
        ],
        [
            [
                t(
                    lang,
                    "settings.button.ai_level",
                    value=t(lang, f"settings.ai_level.{s.ai_level}"),
                ),
                "d",
                f"S:{chat_id}:ai_level",
            ]
        ],
        [[f"🌐 {t(code, 'language.name')}", "d", f"S:{chat_id}:lang.{code}"] for code in LANGUAGES],
    ]
    return rows


def cmd_settings(svc: Service, cmd: CommandMsg, lang: str) -> None:
    s, _, _ = svc.chat_settings(cmd.chat_id)
    svc.messenger.send(cmd.chat_id, settings_summary(s, lang), settings_rows(s, lang, cmd.chat_id))


def _next(values: tuple[int, ...], current: int) -> int:
    bigger = [v for v in values if v > current]
    return bigger[0] if bigger else values[0]


def _settings_press(svc: Service, p: ButtonPress, rest: str, lang: str) -> str:
    chat_s, _, what = rest.partition(":")
    if not chat_s.lstrip("-").isdigit() or int(chat_s) != p.chat_id:
        svc.messenger.answer(p.query_id)
        return "garbage"
    chat_id = p.chat_id
    settings, chat_doc, _ = svc.chat_settings(chat_id)
    lobby_doc = None
    if chat_doc.get("game"):
        g = svc.store.get(game_key(chat_doc["game"]))
        lobby_doc = g.doc if g else None
    if not _may_manage(svc, lobby_doc, chat_id, p.user.id):
        svc.messenger.answer(p.query_id, t(lang, "settings.only_admin"), True)
        return "denied"
    data = settings.model_dump()
    if what == "items":
        data["items"] = "beginner" if settings.items == "full" else "full"
    elif what in (*TOGGLES, "ai_takeover"):
        data[what] = not data[what]
    elif what == "ai_fill":
        data["ai_fill"] = _next(AI_FILL_CHOICES, settings.ai_fill)
    elif what == "ai_level":
        data["ai_level"] = "expert" if settings.ai_level == "ai" else "ai"
    elif what.startswith("d.") and what[2:] in DEADLINE_CHOICES:
        k = what[2:]
        data["deadlines"][k] = _next(DEADLINE_CHOICES[k], settings.seconds(k))
    elif what.startswith("lang.") and what[5:] in LANGUAGES:
        data["language"] = what[5:]
    else:
        svc.messenger.answer(p.query_id)
        return "garbage"
    new = GroupSettings.model_validate(data)
    saved = (t(new.language, "settings.saved"), False)
    chose = what.startswith("lang.")
    if not _save_settings(svc, chat_id, new, p.update_id, p.query_id, saved, chose_language=chose):
        return "duplicate"
    svc.messenger.edit(
        chat_id,
        p.message_id,
        settings_summary(new, new.language),
        settings_rows(new, new.language, chat_id),
    )
    return "settings"


def _save_settings(
    svc: Service,
    chat_id: int,
    new: GroupSettings,
    update_id: int,
    query: str,
    toast: tuple[str, bool],
    *,
    chose_language: bool = False,
) -> bool:
    """The chat document holds the settings; an open lobby shows (and later uses) them.
    The press is answered as soon as they are saved. False for a redelivered press."""

    def change(txn: Txn) -> None:
        txn.doc["settings"] = new.model_dump()
        if chose_language:
            txn.doc[LANGUAGE_CHOSEN] = True
        txn.toast = toast
        txn.changed = True

    done = svc.pipeline.run(
        chat_key(chat_id),
        change,
        update_id,
        create={"settings": {}, "scores": {}, "game": None},
        query=query,
    )
    if done is None:
        return False
    _, chat_doc, _ = svc.chat_settings(chat_id)
    gid = chat_doc.get("game")
    if gid:

        def lobby_change(txn: Txn) -> None:
            if txn.doc["phase"] == "lobby":
                txn.doc["settings"] = new.model_dump()
                _refresh_lobby(svc, txn)

        svc.pipeline.run(game_key(gid), lobby_change, None)
    return True


# -- /language --------------------------------------------------------------------------------
def _language_rows(target: str) -> Rows:
    return [[[t(code, "language.name"), "d", f"G:{target}:{code}"] for code in LANGUAGES]]


def cmd_language(svc: Service, cmd: CommandMsg, lang: str) -> None:
    target = "u" if cmd.chat_type == "private" else str(cmd.chat_id)
    svc.messenger.send(cmd.chat_id, t(lang, "language.choose"), _language_rows(target))


def _language_press(svc: Service, p: ButtonPress, rest: str, lang: str) -> str:
    target, _, code = rest.partition(":")
    if code not in LANGUAGES:
        svc.messenger.answer(p.query_id)
        return "garbage"
    chosen = (t(code, "language.set"), False)
    if target == "u" and p.chat_id == p.user.id:

        def change(txn: Txn) -> None:
            txn.doc["lang"] = code
            txn.toast = chosen
            txn.changed = True

        done = svc.pipeline.run(
            user_key(p.user.id), change, p.update_id, create={"game": None}, query=p.query_id
        )
        if done is None:
            return "duplicate"
        gid = done.doc.get("game")
        if gid:

            def in_game(txn: Txn) -> None:
                """Prompts and news of a running game follow the new language from now on."""
                for player in txn.doc.get("players", []):
                    if player["uid"] == p.user.id and player.get("lang") != code:
                        player["lang"] = code
                        txn.changed = True

            svc.pipeline.run(game_key(gid), in_game, None)
    elif target.lstrip("-").isdigit() and int(target) == p.chat_id:
        settings, _, _ = svc.chat_settings(p.chat_id)
        running = _running(svc, p.chat_id)
        if not _may_manage(svc, running, p.chat_id, p.user.id):  # like every other setting
            svc.messenger.answer(p.query_id, t(lang, "settings.only_admin"), True)
            return "denied"
        new = settings.model_copy(update={"language": code})
        if not _save_settings(
            svc, p.chat_id, new, p.update_id, p.query_id, chosen, chose_language=True
        ):
            return "duplicate"
    else:
        svc.messenger.answer(p.query_id)
        return "garbage"
    svc.messenger.edit(p.chat_id, p.message_id, t(code, "language.set"), None)
    return "language"


# -- information ------------------------------------------------------------------------------
def _running(svc: Service, chat_id: int) -> dict[str, Any] | None:
    _, chat_doc, _ = svc.chat_settings(chat_id)
    if not chat_doc.get("game"):
        return None
    g = svc.store.get(game_key(chat_doc["game"]))
    return g.doc if g and g.doc.get("phase") in ACTIVE else None


def cmd_status(svc: Service, cmd: CommandMsg, lang: str) -> None:
    doc = _running(svc, cmd.chat_id)
    if doc is None:
        svc.messenger.send(cmd.chat_id, t(lang, "lobby.no_game"))
    elif doc["phase"] == "lobby":
        svc.messenger.send(cmd.chat_id, lobby_text(svc, doc), lobby_rows(svc, doc))
    else:
        shown = (doc.get("status") or {}).get("text")
        st = engine.State.from_dict(doc["engine"])
        svc.messenger.send(cmd.chat_id, shown or story.status_text(engine.public_view(st), lang))


def cmd_rules(svc: Service, cmd: CommandMsg, lang: str) -> None:
    svc.messenger.send(cmd.chat_id, rules_text(lang, cmd.args))


def cmd_help(svc: Service, cmd: CommandMsg, lang: str) -> None:
    key = "help.private" if cmd.chat_type == "private" else "help.group"
    svc.messenger.send(cmd.chat_id, t(lang, key))


def cmd_scores(svc: Service, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = svc.chat_settings(cmd.chat_id)
    totals = sorted(chat_doc.get("scores", {}).values(), key=lambda e: -e["points"])
    if not totals:
        svc.messenger.send(cmd.chat_id, t(lang, "scores.none"))
        return
    lines = [
        t(
            lang,
            "scores.line",
            rank=i + 1,
            name=html.escape(e["name"], quote=False),
            points=e["points"],
            games=e["games"],
        )
        for i, e in enumerate(totals[:30])
    ]
    svc.messenger.send(cmd.chat_id, t(lang, "scores.title") + "\n" + "\n".join(lines))


def cmd_notes(svc: Service, cmd: CommandMsg, lang: str) -> None:
    user = svc.store.get(user_key(cmd.user.id))
    gid = user.doc.get("game") if user else None
    g = svc.store.get(game_key(gid)) if gid else None
    if g is None or g.doc.get("phase") != "playing":
        svc.messenger.send(cmd.chat_id, t(lang, "notes.no_game"))
        return
    seat = next((i for i, p in enumerate(g.doc["players"]) if p["uid"] == cmd.user.id), None)
    if seat is None:
        svc.messenger.send(cmd.chat_id, t(lang, "notes.no_game"))
        return
    st = engine.State.from_dict(g.doc["engine"])
    svc.messenger.send(cmd.chat_id, story.notes_text(engine.view(st, seat), lang))
