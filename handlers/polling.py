"""The bot on long polling: the CoachRideBot over a Bot API, a SQLite file and in-process timers.

``make run`` uses it with Telegram (a token) and with the local table (devtools.localtable).
Everything game-related runs on one thread: timers only queue their requests (and may wake the
poll), and the polling loop applies them between updates. Updates come through
``infra.telegram_polling`` (python-telegram-bot), whose refusals are ``infra.bot_api``'s.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from dataclasses import replace

from handlers.app import CoachRideBot
from handlers.i18n import t
from handlers.runtime import bot_username
from handlers.store_keys import FLUSH, REPLY_PREFIX
from infra import bot_api, logs
from infra.bot_api import InvalidToken, NetworkError, RetryAfter, TelegramError
from infra.ports import TimerRequest, Timers
from infra.settings import Settings
from infra.sqlite_store import SqliteStore
from infra.telegram_messenger import TelegramGateway, TelegramMessenger
from infra.telegram_polling import PollingConflict, TelegramPoller
from infra.timers import LocalTimers, SystemClock

log = logging.getLogger("coachride")

POLL_SECONDS = 1
# After a failed poll (Telegram's 5xx, no network) the next waits 0.5 s, then twice as long each
# time, up to this: never a hot loop of requests and warning lines against an outage.
FIRST_RETRY_SECONDS = 0.5
MAX_RETRY_SECONDS = 30.0
TIMER_RETRY_SECONDS = 5.0  # a timer that raised (a transient fault) is tried again then


class StartupError(Exception):
    """Why the bot cannot start, in one sentence for the terminal (never the token: Telegram's
    error texts may echo the request path, ``/bot<TOKEN>/…``)."""


def refused(error: Exception) -> StartupError:
    """Any other refusal at startup: its text, redacted, without its traceback."""
    return StartupError(t("en", "local.refused", reason=logs.redact(str(error))))


def conflicted(conflict: PollingConflict) -> StartupError:
    """409 to ``getUpdates``: another process polls with the token (a second ``make run`` or
    local table started by mistake), or a webhook was set. This process stops, with the cause
    in one sentence: two pollers would each get some of the updates (Telegram gives each to
    whichever request waits) and run their games' timers twice; with a webhook set, the
    updates go there. Telegram terminates the *older* of two ``getUpdates``, so the process
    that stops is the one another took over from, and the other one goes on alone."""
    log.error("polling: 409 Conflict from Telegram (%s)", logs.redact(conflict.message))
    key = "local.webhook_conflict" if conflict.webhook else "local.poll_conflict"
    return StartupError(t("en", key, reason=logs.redact(conflict.message)))


def rearm_timers(store: SqliteStore, timers: Timers) -> int:
    """In-process timers die with the process: on start, every open lobby and running game
    gets its next deadline back (a late one fires at once), and every game or chat's direct
    replies with messages still to send get a flush (what a dead process left unsent)."""
    armed = 0
    for key in [*store.keys("GAME#"), *store.keys(REPLY_PREFIX)]:
        got = store.get(key)
        if got is None:
            continue
        due = got.doc.get("due")
        if due and got.doc.get("phase") in ("lobby", "playing"):
            timers.schedule(TimerRequest(key, due["dec"], due["at"]))
            armed += 1
        if got.doc.get("outbox"):
            timers.schedule(TimerRequest(key, FLUSH, 0.0))
            armed += 1
    return armed


class Runner:
    """The bot over a Bot API, a SQLite file and in-process timers: ``updates``
    (``infra.telegram_polling``, on python-telegram-bot) polls; the gateway sends through
    ``infra.bot_api`` at the same base URL, as in Lambda."""

    def __init__(
        self, settings: Settings, updates: TelegramPoller, wake: Callable[[], None] | None = None
    ):
        logs.protect(updates.token)
        self.updates = updates
        self.messenger = TelegramMessenger(TelegramGateway(bot_api.BotApi(updates.base_url)))
        # Errors become one sentence ``from None``: a chained traceback would print their text.
        try:
            self.username = bot_username(self.messenger)
        except InvalidToken:
            raise StartupError(t("en", "local.bad_token")) from None
        except NetworkError:
            raise StartupError(
                t("en", "local.no_network", url=settings.telegram_api_base_url)
            ) from None
        except TelegramError as exc:
            raise refused(exc) from None
        self.due: queue.Queue[TimerRequest] = queue.Queue()

        def timer_fired(request: TimerRequest) -> None:
            self.due.put(request)
            if wake is not None:
                wake()

        clock = SystemClock()
        self.timers = LocalTimers(timer_fired)
        self.store = SqliteStore(settings.db_path, clock=clock)
        self.service = CoachRideBot(
            self.store,
            self.messenger,
            self.timers,
            clock,
            bot_username=self.username,
            time_scale=settings.game_time_scale,
            is_admin=self.messenger.is_admin,
            is_member=self.messenger.is_member,
        )
        rearm_timers(self.store, self.timers)
        try:
            updates.delete_webhook()
        except InvalidToken:
            raise StartupError(t("en", "local.bad_token")) from None
        except TelegramError as exc:
            raise refused(exc) from None

    def poll_forever(
        self, poll_seconds: int = POLL_SECONDS, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        offset = 0
        failures = 0
        try:
            while True:
                try:
                    updates = self.updates.get_updates(offset, poll_seconds)
                except NetworkError as error:
                    wait = min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2**failures)
                    failures = min(failures + 1, 16)
                    reason = logs.redact(str(error))  # its text may hold the URL, the token
                    log.warning("polling failed (%s); retrying in %.1f s", reason, wait)
                    sleep(wait)
                    continue
                except RetryAfter as flood:  # flood control: not a refusal, a wait
                    wait = flood.retry_after
                    log.warning("polling: flood control, waiting %.1f s", wait)
                    sleep(wait)
                    continue
                except PollingConflict as conflict:
                    raise conflicted(conflict) from None
                except TelegramError as exc:  # a refusal: the same request is refused again
                    raise refused(exc) from None
                failures = 0
                for update in updates:
                    offset = int(update["update_id"]) + 1
                    self.service.handle_update(update)
                while not self.due.empty():
                    self._wake_up(self.due.get_nowait())
        finally:
            self.timers.close()

    def _wake_up(self, request: TimerRequest) -> None:
        """A timer's request; a transient fault (SQLite busy, ...) raises, as the timer Lambda
        needs (SQS delivers it again): here it is tried again later, not the end of the bot."""
        try:
            self.service.handle_timer(request)
        except Exception:
            log.exception("a timer failed; trying it again in %.0f s", TIMER_RETRY_SECONDS)
            self.timers.schedule(replace(request, due_at=time.time() + TIMER_RETRY_SECONDS))
