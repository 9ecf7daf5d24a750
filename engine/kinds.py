"""Every kind of action a player (or the clock) takes, of decision the game waits for and of event
it tells, by name.

The values are the strings stored in game documents and compared by the conversation layer, so
a member equals its string (``DecisionKind.TURN == "turn"``) and a stored document loads
unchanged. ``Action``, ``Pending`` and ``Awaiting`` hold members; ``Ctx.open`` and
``Ctx.public`` / ``Ctx.private`` take only these: a misspelt kind fails where it is made, not
where it is shown.
"""

from __future__ import annotations

from enum import StrEnum


class ActionKind(StrEnum):
    ACCEPT = "accept"
    ATTACK = "attack"
    CLAIM = "claim"
    CLAIM_OTHER = "claim_other"  # R-W7: fortune telling, the other side's win
    CLAIRVOYANT = "clairvoyant"
    DIPLOMAT = "diplomat"
    DIRECTION = "direction"
    END = "end"
    GIFT = "gift"
    GIVE = "give"
    HYPNOTIZE = "hypnotize"
    KEEP_USE = "keep_use"  # engine.premove: ask first, the free use kept
    LOOK = "look"
    ORDER = "order"
    PASS = "pass"
    PLAY = "play"
    REFUSE = "refuse"
    SKIP = "skip"
    SOLO = "solo"
    SUPPORT = "support"
    SWAP = "swap"
    TAKE = "take"
    TIMEOUT = "timeout"  # the clock's: a deadline passed (seat None)
    TRADE = "trade"
    USE = "use"


class DecisionKind(StrEnum):
    BOOST = "boost"
    CLAIRVOYANT = "clairvoyant"
    COAT = "coat"
    DIPLOMAT_GIVE = "diplomat_give"
    DOCTOR = "doctor"
    GIFT = "gift"
    GIVEBACK = "giveback"
    HYPNOTIST = "hypnotist"
    LOOK_POS = "look_pos"
    PRIEST = "priest"
    PRIEST_TRIBUTE = "priest_tribute"
    REWARD = "reward"
    REWARD_TAKE = "reward_take"
    SEXTANT_DIR = "sextant_dir"
    SEXTANT_PASS = "sextant_pass"
    SMUGGLE = "smuggle"
    SUPPORT = "support"
    TOME = "tome"
    TRADE_ANSWER = "trade_answer"
    TURN = "turn"


class EventKind(StrEnum):
    ASSOCIATION_SEEN = "association_seen"
    ATTACK = "attack"
    AWAY = "away"
    BACK = "back"
    BAGS_TURNED = "bags_turned"
    CLAIM = "claim"
    CLAIM_COUNT = "claim_count"
    CLAIM_OTHER = "claim_other"
    CLAIM_SOLO = "claim_solo"
    COAT_EMPTY = "coat_empty"
    COAT_KEPT = "coat_kept"
    COAT_SWAPPED = "coat_swapped"
    DEADLINE = "deadline"
    DEALT = "dealt"
    DECK_SEEN = "deck_seen"
    DIPLOMAT = "diplomat"
    DIPLOMAT_MISSED = "diplomat_missed"
    DOCTOR_CANCELLED = "doctor_cancelled"
    DRAW_EMPTY = "draw_empty"
    DREW = "drew"
    DREW_CARD = "drew_card"
    EFFECTS = "effects"
    FIGHT_OVER = "fight_over"
    FIGHT_RESULT = "fight_result"
    GAME_OVER = "game_over"
    GAME_STARTED = "game_started"
    GIFT = "gift"
    HYPNOTIZED = "hypnotized"
    ITEM_LOST = "item_lost"
    ITEM_TAKEN = "item_taken"
    ITEMS_SEEN = "items_seen"
    OCCUPATION_RECEIVED = "occupation_received"
    OCCUPATION_SEEN = "occupation_seen"
    OCCUPATION_TAKEN = "occupation_taken"
    OCCUPATION_USED = "occupation_used"
    OFFERED = "offered"
    PASSED = "passed"
    PILE_ARRANGED = "pile_arranged"
    PILE_SEEN = "pile_seen"
    PLAYED = "played"
    PREMOVE_DROPPED = "premove_dropped"
    PREMOVE_PLAYED = "premove_played"
    PREMOVE_KEPT = "premove_kept"
    PRIEST_STOPPED = "priest_stopped"
    # to the attacker alone: the Priest stopped them and they hold too few items to give one
    PRIEST_NO_TRIBUTE = "priest_no_tribute"
    RECEIVED = "received"
    REVEALED = "revealed"
    REWARD = "reward"
    SEXTANT = "sextant"
    SEXTANT_PASSED = "sextant_passed"
    SUPPORT = "support"
    TOME_KEPT = "tome_kept"
    TOME_SWAPPED = "tome_swapped"
    TRADE_ACCEPTED = "trade_accepted"
    TRADE_DONE = "trade_done"
    TRADE_OFFERED = "trade_offered"
    TRADE_REFUSED = "trade_refused"
    TURN = "turn"
