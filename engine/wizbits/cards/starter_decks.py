"""The two starter decks of the Fly: Step Forward set. Pure data: 60 cards each."""

from __future__ import annotations

from dataclasses import dataclass

from engine.wizbits.decklist import Deck


@dataclass(frozen=True)
class StarterDeck:
    """A ready-made deck a seat can choose.

    Attributes:
        deck_id: The stable id used in game options.
        name: The display name.
        summary: One sentence on how the deck plays.
        deck: The cards and the Main Character.
    """

    deck_id: str
    name: str
    summary: str
    deck: Deck


EMBER_DAWN = StarterDeck(
    "ember-dawn", "Ember Dawn",
    "Fire and Light: strike early with damage and strong attackers, heal your Main Character to stay safe.",
    Deck.of({
        # Characters: 17
        "cinderwing-archmage": 2, "emberbeetle-squire": 4, "ashmoth-duelist": 3,
        "dawnfly-oracle": 3, "glowworm-warden": 3, "lantern-mantis-paladin": 2,
        # Elements: 19
        "sparkswarm-volley": 4, "kindled-resolve": 4, "wildfire-cascade": 2,
        "morning-chorus": 3, "sunlit-insight": 3, "radiant-verdict": 3,
        # Non-Elements: 24
        "flickerwand": 4, "bellows-of-the-hive": 3, "halo-lantern": 2, "prism-kite": 4,
        "sunglass-monocle": 3, "empty-thimble": 4, "wayfarers-compass": 4,
    }, main="cinderwing-archmage"),
)

TIDAL_DUSK = StarterDeck(
    "tidal-dusk", "Tidal Dusk",
    "Water and Shadow: counter the opponent's plays, empty their hand and deck, and win the long game.",
    Deck.of({
        # Characters: 18
        "tidewhisper-sage": 2, "pondskater-scout": 4, "mayfly-tidecaller": 3,
        "duskmoth-hexer": 2, "gloomgnat-swarm": 4, "nightcrawler-assassin": 3,
        # Elements: 20
        "undertow-refusal": 3, "ripple-of-doubt": 3, "tidal-recall": 3, "whispered-dread": 3,
        "moth-eaten-memory": 2, "eclipse-sting": 3, "quiet-between-wings": 3,
        # Non-Elements: 22
        "dewdrop-orb": 4, "tidepool-hourglass": 2, "net-of-still-water": 3, "cobweb-cloak": 3,
        "grim-music-box": 3, "riddle-cube": 3, "empty-thimble": 4,
    }, main="tidewhisper-sage"),
)

STARTER_DECKS: dict[str, StarterDeck] = {deck.deck_id: deck for deck in (EMBER_DAWN, TIDAL_DUSK)}
"""The starter decks by id."""
