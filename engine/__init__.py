"""Coach Ride to Devil's Castle, pure: state and action in, new state and events out."""

from engine.actions import (
    TIMEOUT,
    Action,
    Event,
    GameOver,
    Illegal,
    NotYourTurn,
    Rejected,
    Stale,
)
from engine.api import (
    Awaiting,
    apply,
    asked,
    awaiting,
    come_back,
    default_action,
    legal_actions,
    mark_away,
    new_game,
    timeout_action,
)
from engine.kinds import DecisionKind, EventKind
from engine.setup import DEFAULT_OPTIONS, SetupError
from engine.state import Pending, Player, State, upgrade_stored_state
from engine.views import current_fight, events_for, public_events, public_view, view

__all__ = [
    "DEFAULT_OPTIONS",
    "TIMEOUT",
    "Action",
    "Awaiting",
    "DecisionKind",
    "Event",
    "EventKind",
    "GameOver",
    "Illegal",
    "NotYourTurn",
    "Pending",
    "Player",
    "Rejected",
    "SetupError",
    "Stale",
    "State",
    "apply",
    "asked",
    "awaiting",
    "come_back",
    "current_fight",
    "default_action",
    "events_for",
    "legal_actions",
    "mark_away",
    "new_game",
    "public_events",
    "public_view",
    "timeout_action",
    "upgrade_stored_state",
    "view",
]
