"""docs/protocol.md stays true to the code: every example validates, every message and error is there."""

from __future__ import annotations

import json
import re
from pathlib import Path

from server import protocol as P

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "protocol.md").read_text()
EXAMPLES = [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", DOC, re.S)]


def test_every_example_is_a_valid_message() -> None:
    assert len(EXAMPLES) > 20
    client = server = 0
    for ex in EXAMPLES:
        if ex["type"] in P.CLIENT_TYPES:
            P.CLIENT_ADAPTER.validate_python(ex)
            client += 1
        else:
            P.SERVER_ADAPTER.validate_python(ex)
            server += 1
    assert client and server


def test_every_message_type_is_documented_with_an_example() -> None:
    shown = {ex["type"] for ex in EXAMPLES}
    server_types = {m.model_fields["type"].default for m in P.SERVER_MODELS}
    assert set(P.CLIENT_TYPES) <= shown
    assert server_types <= shown
    for t in [*P.CLIENT_TYPES, *server_types]:
        assert f"### {t}" in DOC or re.search(rf"### \w+ / {t}\b|### {t} /", DOC), t


def test_every_error_code_in_the_code_is_documented() -> None:
    sources = "".join((REPO / "server" / f).read_text()
                      for f in ("app.py", "rooms.py", "changes.py", "limits.py"))
    raised = r'(?:RoomError|ClientError|ChangeError|IllegalAction|Limited)\(\s*"(\w+)"'
    codes = set(re.findall(raised, sources))
    codes |= set(re.findall(r'self\.error\(conn, [^,]+, "(\w+)"', sources))
    codes |= set(re.findall(r'P\.Error\(code="(\w+)"', sources))
    from engine.game import ERROR_CODES

    codes |= set(ERROR_CODES)
    assert len(codes) > 25
    documented = DOC.split("All codes:", 1)[1].split("###", 1)[0]
    missing = sorted(c for c in codes if f"`{c}`" not in documented)
    assert not missing, f"error codes missing from docs/protocol.md: {missing}"
