"""The group's settings as text (the /settings message, the lobby) and as the menu's buttons."""

from __future__ import annotations

from handlers import callback_data
from handlers.group_settings import AI_FILL_CHOICES, DEADLINE_BOUNDS, DEADLINE_KINDS, GroupSettings
from handlers.i18n import LANGUAGES, t
from infra.ports import Rows

TOGGLES = ("smuggling", "fortune_telling", "advanced_three", "personal_scores")


def settings_summary(s: GroupSettings, lang: str, menu: bool = False) -> str:
    """``menu``: the /settings menu's, which says under the deadlines what longer windows cost
    (``waits_note``)."""
    on, off = t(lang, "settings.on"), t(lang, "settings.off")
    lines = [
        t(lang, "settings.items", value=t(lang, f"settings.items.{s.items}")),
        *(t(lang, f"settings.{k}", value=on if getattr(s, k) else off) for k in TOGGLES),
        t(lang, "settings.deadlines", **{k: duration(lang, s.seconds(k)) for k in DEADLINE_KINDS}),
        waits_note(s, lang) if menu else "",
        t(lang, "settings.ai_fill", value=_ai_fill_value(s, lang)),
        t(lang, "settings.ai_takeover", value=on if s.ai_takeover else off),
        t(lang, "settings.ai_level", value=t(lang, f"settings.ai_level.{s.ai_level}")),
    ]
    return t(lang, "settings.title") + "\n" + "\n".join(line for line in lines if line)


def settings_menu_text(s: GroupSettings, lang: str, in_lobby: bool) -> str:
    """The /settings menu's text: under an open lobby, which lists the settings already, only
    the title and what the lobby and the 🤖 numbers are (issue 25: the block was printed twice);
    else the settings in full."""
    if in_lobby:
        lines = [t(lang, "settings.title"), t(lang, "settings.in_lobby"), waits_note(s, lang)]
        return "\n".join(line for line in lines if line)
    return settings_summary(s, lang, menu=True)


def duration(lang: str, seconds: int) -> str:
    """A deadline as a reader counts it: whole minutes in minutes (10分钟, "10 min"), else in
    seconds (a zh-Hans newcomer read "回合600秒")."""
    if seconds >= 60 and seconds % 60 == 0:
        return t(lang, "settings.duration.minutes", n=seconds // 60)
    return t(lang, "settings.duration.seconds", n=seconds)


def waits_note(s: GroupSettings, lang: str) -> str:
    """Windows or the boost set longer than the default: every fight waits them out in full,
    whoever holds what (R-D1), which the menu says under them; else nothing."""
    longer = any(s.seconds(k) > DEADLINE_BOUNDS[k][0] for k in ("window", "boost"))
    return t(lang, "settings.waits_in_full") if longer else ""


def _ai_fill_value(s: GroupSettings, lang: str) -> str:
    if not s.ai_fill:
        return t(lang, "settings.ai_fill.off")
    return t(lang, "settings.ai_fill.to", count=s.ai_fill)


def settings_version(s: GroupSettings) -> str:
    """The version a settings menu's buttons carried before ``button_version``: all the
    settings it shows (a press on such a button is still taken while they are unchanged)."""
    return callback_data.version_of(s.model_dump())


def button_version(s: GroupSettings, what: str) -> str:
    """The version a settings button carries: the one setting its press changes, as its label
    shows it (a button that sets a value, an AI fill or a language, depends on none). A menu
    whose edit Telegram holds (a group's 20 messages a minute: a newcomer setting five
    deadlines and the AI fill in a lobby) shows older settings; a press on another of its
    buttons does what its label says, not "That button is no longer active"."""
    shown: object = None
    if what == "items":
        shown = s.items
    elif what in (*TOGGLES, "ai_takeover"):
        shown = getattr(s, what)
    elif what == "ai_level":
        shown = s.ai_level
    elif what == "ai_fill":  # a menu from before the choices had a button each
        shown = s.ai_fill
    elif what.startswith("d.") and what[2:] in DEADLINE_KINDS:
        shown = s.seconds(what[2:])
    return callback_data.version_of([what, shown])


def settings_rows(s: GroupSettings, lang: str, chat_id: int) -> Rows:
    on, off = "✅", "▫️"

    def button(label: str, what: str) -> list[str]:
        return [label, "d", callback_data.settings(chat_id, what, button_version(s, what))]

    def deadline(k: str) -> list[str]:
        return button(t(lang, f"settings.button.{k}", time=duration(lang, s.seconds(k))), f"d.{k}")

    items = t(lang, f"settings.items.{s.items}")
    key = "settings.button.ai_fill"
    level = t(lang, f"settings.ai_level.{s.ai_level}")
    return [
        [button(t(lang, "settings.button.items", value=items), "items")],
        *(
            [button(f"{on if getattr(s, k) else off} {t(lang, f'settings.button.{k}')}", k)]
            for k in TOGGLES
        ),
        # two deadlines to a row, "no AI" alone and three numbers to a row: on a phone (a 390 px
        # screen) a row of three cut "Unterstützung 30s" and a row of seven "🤖 no AI" to "✅…"
        # (Telegram cuts a label that does not fit, as the local table does)
        *(
            [deadline(k) for k in DEADLINE_KINDS[i : i + 2]]
            for i in range(0, len(DEADLINE_KINDS), 2)
        ),
        # every AI fill one press away (issue 25: one button stepping 0, 3, 4, 5 took three)
        *(
            [
                button(
                    # "✅ 🤖 no AI", not "✅ 0"
                    (f"{on} " if n == s.ai_fill else "") + (str(n) if n else t(lang, f"{key}_off")),
                    f"ai_fill.{n}",
                )
                for n in choices
            ]
            for choices in (AI_FILL_CHOICES[:1], AI_FILL_CHOICES[1:4], AI_FILL_CHOICES[4:])
        ),
        [
            button(
                f"{on if s.ai_takeover else off} {t(lang, 'settings.button.ai_takeover')}",
                "ai_takeover",
            )
        ],
        [button(t(lang, "settings.button.ai_level", value=level), "ai_level")],
        [
            button(f"{on if code == lang else '🌐'} {t(code, 'language.name')}", f"lang.{code}")
            for code in LANGUAGES
        ],
    ]
