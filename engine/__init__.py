"""Guandan rules engine: pure Python, no I/O, deterministic given a seed."""

from .cards import Card, format_cards, parse_cards, wild_card
from .game import ERROR_CODES, PHASES, Game, IllegalAction, deal_hands
from .layout import lay_out
from .levels import Settlement, settle_deal
from .moves import HandIndex, Shape, expand, legal_plays, play_groups, shapes
from .plays import KINDS, Play, beats, classify
from .rules import PRESETS, Rules, preset, resolve_rules
from .tribute import Gift, TributePlan, return_choices, tribute_card, tribute_plan

__all__ = [
    "Card", "parse_cards", "format_cards", "wild_card",
    "Play", "KINDS", "beats", "classify", "lay_out",
    "legal_plays", "play_groups", "shapes", "expand", "HandIndex", "Shape",
    "Rules", "PRESETS", "preset", "resolve_rules",
    "Game", "IllegalAction", "deal_hands", "ERROR_CODES", "PHASES",
    "tribute_plan", "return_choices", "tribute_card", "TributePlan", "Gift",
    "settle_deal", "Settlement",
]
