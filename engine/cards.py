"""The cards of the game: item card ids, kinds, occupations, associations (docs/rules.md §1)."""

from __future__ import annotations

ORDER = "order"
BROTHERHOOD = "brotherhood"
ASSOCIATIONS = (ORDER, BROTHERHOOD)
GOAL_KIND = {ORDER: "key", BROTHERHOOD: "goblet"}
BAG_OF = {ORDER: "bag_key", BROTHERHOOD: "bag_goblet"}

KEYS = ("key1", "key2", "key3")
GOBLETS = ("goblet1", "goblet2", "goblet3")
BAGS = ("bag_key", "bag_goblet")
# The items that are one card each, by name (a name is also the card's id and its kind).
DAGGER = "dagger"
GLOVES = "gloves"
POISON_RING = "poison_ring"
CASTING_KNIVES = "casting_knives"
WHIP = "whip"
TOME = "tome"
PRIVILEGE = "privilege"
COAT = "coat"
MONOCLE = "monocle"
SEXTANT = "sextant"
BLACK_PEARL = "black_pearl"
BROKEN_MIRROR = "broken_mirror"
COAT_OF_ARMS = "coat_of_arms"
SINGLE_ITEMS = (
    DAGGER,
    GLOVES,
    POISON_RING,
    CASTING_KNIVES,
    WHIP,
    TOME,
    PRIVILEGE,
    COAT,
    MONOCLE,
    SEXTANT,
    BLACK_PEARL,
    BROKEN_MIRROR,
    COAT_OF_ARMS,
)
ALL_ITEMS: tuple[str, ...] = KEYS + GOBLETS + BAGS + SINGLE_ITEMS
assert len(ALL_ITEMS) == 21

# R-S6: the advanced items are never dealt at the start and are left out with items=beginner.
ADVANCED_ITEMS = frozenset({BROKEN_MIRROR, SEXTANT, COAT, TOME, COAT_OF_ARMS})
STARTER_ITEMS: tuple[str, ...] = tuple(
    c for c in ALL_ITEMS if c not in ADVANCED_ITEMS and c not in BAGS
)

ITEM_KINDS: tuple[str, ...] = ("key", "goblet", *BAGS, *SINGLE_ITEMS)
TRADE_EFFECT_ITEMS = frozenset({*BAGS, PRIVILEGE, MONOCLE, TOME, COAT, SEXTANT})
UNREFUSABLE_ITEMS = frozenset({BLACK_PEARL, BROKEN_MIRROR})

DIPLOMAT = "diplomat"
DOCTOR = "doctor"
DUELIST = "duelist"
POISON_MIXER = "poison_mixer"
GRAND_MASTER = "grand_master"
CLAIRVOYANT = "clairvoyant"
HYPNOTIST = "hypnotist"
BODYGUARD = "bodyguard"
PRIEST = "priest"
THUG = "thug"
OCCUPATIONS: tuple[str, ...] = (
    DIPLOMAT,
    DOCTOR,
    DUELIST,
    POISON_MIXER,
    GRAND_MASTER,
    CLAIRVOYANT,
    HYPNOTIST,
    BODYGUARD,
    PRIEST,
    THUG,
)
ALWAYS_OCCUPATIONS = frozenset({GRAND_MASTER, HYPNOTIST, BODYGUARD, THUG})

# Diplomat names an item; before the pile runs out both Bags answer to the one name "bag".
BAG_NAME = "bag"


def item_kind(card: str) -> str:
    """Keys and Goblets are three identical cards each; every other card is its own kind."""
    if card[-1].isdigit():
        return card.rstrip("0123456789")
    return card


def hand_limit(player_count: int) -> int:
    """R-S7."""
    if player_count == 3:
        return 8
    if player_count == 4:
        return 6
    return 5


def association_split(player_count: int) -> int:
    """R-S2: cards per association shuffled in."""
    return {3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4, 9: 5, 10: 5}[player_count]
