"""Texts for the table and for each player: the public story (R-V1), private news, the status,
the seat order, dossiers, notebooks, and the final reveal."""

from handlers.story.notes import dossier_text, notes_text
from handlers.story.private import private_text
from handlers.story.public import public_text
from handlers.story.summary import game_over_text
from handlers.story.table import final_text, seat_order_text, status_text

__all__ = [
    "dossier_text",
    "final_text",
    "game_over_text",
    "notes_text",
    "private_text",
    "public_text",
    "seat_order_text",
    "status_text",
]
