"""Guandan rules engine: pure Python, no I/O, deterministic given a seed."""

from .cards import Card, format_cards, parse_cards, wild_card
from .moves import HandIndex, Shape, expand, legal_plays, play_groups, shapes
from .plays import KINDS, Play, beats, classify
from .rules import PRESETS, Rules, preset

__all__ = [
    "Card", "parse_cards", "format_cards", "wild_card",
    "Play", "KINDS", "beats", "classify",
    "legal_plays", "play_groups", "shapes", "expand", "HandIndex", "Shape",
    "Rules", "PRESETS", "preset",
]
