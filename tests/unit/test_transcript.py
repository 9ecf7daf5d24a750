"""Issue 25: a whole recorded game, group and every private chat, printed as its players read
it (devtools.transcript), in the language they play in."""

from __future__ import annotations

import pytest

from devtools import transcript
from handlers.i18n import t


@pytest.mark.parametrize("lang", ["zh-Hans", "de"])
def test_a_transcript_prints_every_chat_as_its_reader_sees_it(lang: str) -> None:
    game = transcript.play(players=3, seed=4, lang=lang)
    text = game.render()
    st = game.table.state()
    assert st.over
    heads = [line for line in text.splitlines() if line.startswith("==== ")]
    assert heads[0].startswith("==== GROUP") and len(heads) == 1 + 3
    for seat, uid in enumerate(game.table.uids):
        shown = game.messenger.api.messages_in(uid)
        assert f"seat {seat + 1}, {st.players[seat].name} ({len(shown)} messages)" in text
        assert all(m.text in text for m in shown), "each message as its chat shows it now"
    title = t(lang, "lobby.title").replace("<b>", "").replace("</b>", "")
    assert title in text, "the reader's language, after Telegram's parsing"
    assert "<b>" not in text and "<tg-time" not in text
    assert t("en", "lobby.title").replace("<b>", "").replace("</b>", "") not in text


def test_the_command_prints_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert transcript.main(["--players", "3", "--seed", "4", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("==== GROUP") and "PRIVATE CHAT of seat 3" in out
