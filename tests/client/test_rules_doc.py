"""docs/rules.md and docs/rules.zh.md say what the engine does (issue 12): every preset with every option
value of engine/rules.py, every play type of engine/plays.py, the bomb ladder in the engine's order, the
upgrades of engine/levels.py, and the sections on wild cards, tribute and passing A. The client's preset
choice and its one-line notes cover the same presets (the page itself: test_rules_page.py)."""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import fields
from pathlib import Path

import pytest

from engine.levels import UPGRADE_BY_PARTNER_PLACE
from engine.plays import KINDS, Play, classify
from engine.rules import PRESETS, RETURN_ANY, RETURN_TEN_OR_LOWER, RETURN_TEN_OR_LOWER_ANY_RANK, Rules

REPO = Path(__file__).resolve().parents[2]
DOCS = {"en": REPO / "docs" / "rules.md", "zh": REPO / "docs" / "rules.zh.md"}

# How each document writes an option's value.
WORDS = {
    "en": {
        None: "unlimited", True: "yes", False: "no", "first": "seat 1", "random": "a random seat",
        RETURN_TEN_OR_LOWER: "≤10, not the level rank", RETURN_TEN_OR_LOWER_ANY_RANK: "≤10",
        RETURN_ANY: "any card",
    },
    "zh": {
        None: "不限", True: "是", False: "否", "first": "1 号", "random": "随机",
        RETURN_TEN_OR_LOWER: "10 及以下，不含级牌", RETURN_TEN_OR_LOWER_ANY_RANK: "10 及以下",
        RETURN_ANY: "任意",
    },
}
ZH_COUNT = {4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十"}
ORDINAL = {2: ("2nd", "二游"), 3: ("3rd", "三游"), 4: ("4th", "末游")}


def text(lang: str) -> str:
    return DOCS[lang].read_text(encoding="utf-8")


def section(lang: str, heading: str) -> str:
    """The text under a heading, up to the next heading of the same or a higher level."""
    doc = text(lang)
    m = re.search(rf"^(#+) {re.escape(heading)}\n", doc, re.M)
    assert m, f"{DOCS[lang].name} has no heading {heading!r}"
    end = re.compile(rf"^#{{1,{len(m.group(1))}}} ", re.M).search(doc, m.end())
    return doc[m.end():end.start() if end else len(doc)]


def tables(markdown: str) -> list[list[list[str]]]:
    """Every table as rows of cells (the separator row left out)."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            found.append(rows)
            rows = []
    return found


@pytest.fixture(scope="module")
def client_text() -> dict:
    """The client's labels (client-js/src/i18n.js) as node sees them."""
    out = subprocess.run(
        ["node", "--input-type=module", "-e",
         "import('./src/i18n.js').then((m) => console.log(JSON.stringify(m.TEXT)))"],
        cwd=REPO / "client-js", capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_preset_has_its_own_section(lang):
    doc = text(lang)
    headings = re.findall(r"^### `(\w+)`$", doc, re.M)
    assert headings == list(PRESETS), f"{DOCS[lang].name}: one '### `name`' section per preset, in order"
    for name in PRESETS:
        assert {"en": "Example", "zh": "例"}[lang] in section(lang, f"`{name}`"), f"{name}: give an example"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_preset_table_holds_every_option_value_of_engine_rules(lang):
    (table,) = [t for t in tables(text(lang)) if "`standard`" in t[0]]
    header, *rows = table
    assert header[1:] == [f"`{name}`" for name in PRESETS]
    by_option = {}
    for row in rows:
        m = re.search(r"[(（]`(\w+)`[)）]", row[0])
        assert m, f"{row[0]!r}: name the option as engine/rules.py does"
        by_option[m.group(1)] = row[1:]
    options = [f.name for f in fields(Rules) if f.name != "name"]
    assert sorted(by_option) == sorted(options), "one row per rule option"
    words = WORDS[lang]
    for option, cells in by_option.items():
        for name, cell in zip(PRESETS, cells, strict=True):
            value = getattr(PRESETS[name], option)
            expected = str(value) if isinstance(value, int) and not isinstance(value, bool) else words[value]
            assert cell == expected, f"{name}.{option} is {value!r}: the {lang} table says {cell!r}"


def test_every_play_type_of_the_engine_is_in_the_play_type_tables(client_text):
    (en_table,) = tables(section("en", "Play types"))
    en_names = [re.sub(r"\s*\(.*\)$", "", row[0]).lower() for row in en_table[1:]]
    assert en_names == [k.replace("_", " ") for k in KINDS]
    (zh_table,) = tables(section("zh", "牌型"))
    assert [row[0] for row in zh_table[1:]] == [client_text["zh"]["kinds"][k] for k in KINDS]
    # each English row also gives the Chinese name the client shows at the table
    assert [re.search(r"\((.+)\)", row[0]).group(1) for row in en_table[1:]] == \
        [client_text["zh"]["kinds"][k] for k in KINDS]


def _ladder() -> list[Play]:
    """One play of each bomb-class step, built by the engine at level 2 (♥2 wild), sorted by its tier."""
    fives = "S5 S5 H5 H5 C5 C5 D5 D5".split()
    bombs = [fives[:n] for n in range(4, 9)] + [fives + ["H2"], fives + ["H2", "H2"]]
    plays = [classify(cards, 2)[0] for cards in bombs]
    plays.append(classify("C3 C4 C5 C6 C7", 2)[0])
    plays.append(classify("SB SB HR HR", 2)[0])
    assert all(p.is_bomb for p in plays)
    tiers = [p.tier for p in plays]
    assert len(set(tiers)) == len(tiers), "every step of the ladder is its own"
    return sorted(plays, key=lambda p: p.tier)


def test_the_bomb_ladder_is_written_in_the_engines_order():
    en, zh = [], []
    for p in _ladder():
        if p.kind == "bomb":
            en.append(f"{p.size}-card bomb")
            zh.append(f"{ZH_COUNT[p.size]}张炸弹")
        else:
            en.append(p.kind.replace("_", " "))
            zh.append({"straight_flush": "同花顺", "joker_bomb": "天王炸"}[p.kind])
    assert " < ".join(en) in section("en", "The bomb ladder")
    assert " < ".join(zh) in section("zh", "炸弹的大小顺序")


def test_the_upgrade_tables_are_the_engines():
    en_rows = tables(section("en", "Levels and upgrades"))[0][1:]
    zh_rows = tables(section("zh", "升级"))[0][1:]
    assert len(en_rows) == len(zh_rows) == len(UPGRADE_BY_PARTNER_PLACE)
    upgrades = sorted(UPGRADE_BY_PARTNER_PLACE.items())
    for (place, up), en_row, zh_row in zip(upgrades, en_rows, zh_rows, strict=True):
        en_place, zh_place = ORDINAL[place]
        assert en_row[0] == f"1st and {en_place}" and en_row[-1] == f"{up} level{'s' if up > 1 else ''}"
        assert zh_row[0] == f"头游和{zh_place}" and zh_row[-1] == f"{up} 级"


# The sections issue 12 asks for, each with words it cannot do without.
COVERAGE = {
    "en": {
        "Wild cards": ["hearts", "except a joker", "alone"],
        "The level card": ["level of the team that won the previous deal"],
        "Partner takeover": ["partner", "last"],
        "Tribute, return and refusal": ["Single tribute", "Double tribute", "The tribute card", "Return",
                                        "Refusal", "Who leads", "both big jokers"],
        "Levels and upgrades": ["cap"],
        "Passing A and the end of the match": ["1st+4th", "A attempts", "back to 2"],
    },
    "zh": {
        "逢人配": ["红桃", "除王以外", "单独出"],
        "级牌": ["上一局胜方的级别"],
        "接风": ["队友", "最后"],
        "进贡、还贡与抗贡": ["单贡", "双贡", "贡哪张牌", "还贡", "抗贡", "谁先出", "两张大王"],
        "升级": ["上限"],
        "过A与整场结束": ["头游+末游", "打A机会", "退回打 2"],
    },
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_wild_cards_tribute_levels_and_passing_a_are_covered(lang):
    for heading, words in COVERAGE[lang].items():
        body = section(lang, heading)
        for word in words:
            assert word in body, f"{DOCS[lang].name}, section {heading!r}: {word!r} missing"


def test_the_create_form_offers_every_preset_with_a_note_in_both_languages(client_text):
    source = (REPO / "client-js" / "src" / "rules.js").read_text(encoding="utf-8")
    m = re.search(r"export const PRESETS = \[([^\]]*)\]", source)
    assert m and re.findall(r'"(\w+)"', m.group(1)) == list(PRESETS)
    for lang in ("zh", "en"):
        assert sorted(client_text[lang]["presets"]) == sorted(PRESETS)
        notes = client_text[lang]["presetNotes"]
        assert sorted(notes) == sorted(PRESETS)
        assert len(set(notes.values())) == len(PRESETS), "each preset says what sets it apart"
