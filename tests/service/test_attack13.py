"""Attack 13 on prompts closed late (``handlers.late_prompts``). One whose decision ends while
another process is sending it (its ack ``ACK_SENDING``), or whose game is cancelled meanwhile,
must not stay on show as a live question: once its id is known it is edited closed. And one
left closed for the flush timer holds no deadline: nobody waits for it (R-D1)."""

from __future__ import annotations

from collections.abc import Callable

from handlers.i18n import t
from handlers.message_tags import Kind
from handlers.store_keys import game_key
from handlers.transaction import Txn
from tests.service.service_game import GROUP, ServiceGame
from tests.service.test_queue_hold import BookedFull


class DuringSend:
    """While Telegram takes the first send to ``chat`` whose text passes ``match`` (its
    sender's ack says ``ACK_SENDING``), another process runs ``meanwhile``."""

    def __init__(self, table: ServiceGame) -> None:
        self.real = table.messenger.send
        self.chat: int | None = None
        self.match: Callable[[str], bool] = lambda _: False
        self.meanwhile: Callable[[], None] | None = None

        def send(chat_id: int, text: str, rows=None, reply_to=None):  # type: ignore[no-untyped-def]
            go = self.meanwhile
            if go is not None and (self.chat is None or chat_id == self.chat) and self.match(text):
                self.meanwhile, self.chat = None, chat_id
                go()  # another process, while this call is under way
            return self.real(chat_id, text, rows, reply_to)

        table.messenger.send = send  # type: ignore[method-assign]


def _seated() -> ServiceGame:
    table = ServiceGame(n=4)
    table.board()
    return table


def test_your_turn_is_next_under_way_when_the_turn_came_is_edited_closed() -> None:
    """ "🔜 Your turn is next" whose send is under way in one process while another ends the
    turn before: once it arrived, it is edited to say the turn came; none of its buttons stays
    live for a turn already started."""
    table = _seated()
    hook = DuringSend(table)
    hook.match = lambda text: "Your turn is next" in text

    def end_turn() -> None:
        table.press_payload(table.state().turn, "pa")  # the turn before theirs ends

    hook.meanwhile = end_turn
    table.message(table.uids[0], GROUP, "/startgame")
    assert hook.meanwhile is None and hook.chat is not None, "the hook ran"
    for _ in range(3):  # the flush timers
        table.clock.advance(30)
        table.fire_timers()
    pending = table.state().pending
    assert pending is not None
    live = f"{table.gid}:{pending.id}:"
    shown = table.messenger.in_chat(hook.chat)
    stale = [b[2] for m in shown for row in m.rows or [] for b in row if not b[2].startswith(live)]
    assert not stale, f"buttons of a decision that is over stay on show: {stale}"
    came = t("en", "prompt.closed.turn_came")
    assert any(m.text.startswith(came) for m in shown), "it says the turn came"


def test_a_prompt_under_way_when_the_game_is_cancelled_is_edited_closed() -> None:
    """The turn's prompt whose send is under way in one process while the table votes /cancel
    in another: once it arrived it is edited closed (cancelled); no button of a game that is
    over stays on show (dropping it from the outbox stops no sender already at it)."""
    table = _seated()
    hook = DuringSend(table)
    hook.match = lambda text: "Your turn</b>" in text and "next" not in text

    def cancel() -> None:
        for uid in table.uids[:3]:  # a majority of four
            table.message(uid, GROUP, "/cancel")

    hook.meanwhile = cancel
    table.message(table.uids[0], GROUP, "/startgame")
    assert hook.meanwhile is None and hook.chat is not None, "the hook ran"
    assert table.doc()["phase"] == "cancelled"
    for _ in range(3):  # the flush timers
        table.clock.advance(30)
        table.fire_timers()
    shown = table.messenger.in_chat(hook.chat)
    live = [b[2] for m in shown for row in m.rows or [] for b in row]
    assert not live, f"buttons of a cancelled game stay on show: {live}"


def test_a_prompt_closed_late_and_left_for_the_flush_holds_no_deadline_R_D1() -> None:
    """A prompt that Telegram failed and whose decision ended meanwhile is sent closed
    (``late_prompts``); left for the flush timer by a full budget, nobody waits for it, and for
    a window's it exists only because someone was asked (who a window asks is secret): the
    game's deadline does not move for it, as it moves for none of the pending window's own
    prompts (R-D1)."""
    table = ServiceGame()
    table.start()
    doc = table.doc()
    deadline = float(doc["due"]["deadline"])
    seat = (table.state().turn + 1) % table.n
    chat = table.uids[seat]
    table.service.pipeline.limiter = BookedFull()

    def change(txn: Txn) -> None:  # as ``late_prompts`` leaves a window's prompt closed late
        txn.send(chat, "⛪ Priest\n⌛ Time ran out", None, tag=Kind.CLOSED)

    table.service.pipeline.run(game_key(table.gid), change, None)  # type: ignore[arg-type]
    after = table.doc()
    assert any(e["chat"] == chat for e in after["outbox"]), "still to send, by the flush"
    assert str(chat) not in (after.get("hold") or {}).get("chats", {})
    assert float(after["due"]["deadline"]) == deadline, "the deadline moved for it"
