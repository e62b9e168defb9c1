"""Dockerfile and docker-compose.yml: parsed and checked against the CLI and scripts/run.sh."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from server.cli import parse_args

REPO = Path(__file__).resolve().parents[2]


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with line continuations joined and comments dropped."""
    text = (REPO / "Dockerfile").read_text()
    logical, buf = [], ""
    for line in text.splitlines():
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        logical.append(buf + line)
        buf = ""
    out = []
    for line in logical:
        word, _, rest = line.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def test_dockerfile_builds_client_installs_and_runs_the_server() -> None:
    ins = dockerfile_instructions()
    froms = [a for i, a in ins if i == "FROM"]
    assert froms[0].startswith("node:") and froms[-1].startswith("python:3.11")
    runs = " ".join(a for i, a in ins if i == "RUN")
    assert "npm ci && npm run build" in runs and "pip install" in runs and "-e ." in runs
    cmd = json.loads(next(a for i, a in ins if i == "CMD"))
    assert cmd[0] == "guandan-server"
    args = parse_args(cmd[1:])
    assert args.host == "0.0.0.0"
    assert str(args.port) in [a for i, a in ins if i == "EXPOSE"]
    env = dict(re.findall(r"(\w+)=(\S+)", " ".join(a for i, a in ins if i == "ENV")))
    assert env["REDIS_URL"].startswith("redis://redis:")


def test_run_script_does_the_same_steps() -> None:
    run = (REPO / "scripts" / "run.sh").read_text()
    assert "pip install -q -e ." in run and "npm ci && npm run build" in run
    assert 'exec guandan-server "$@"' in run


def test_compose_has_persistent_redis_and_the_server() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    redis, server = compose["services"]["redis"], compose["services"]["server"]
    cmd = redis["command"]
    assert cmd[0] == "redis-server" and cmd[cmd.index("--appendonly") + 1] == "yes"
    volume = redis["volumes"][0]
    assert volume.endswith(":/data") and volume.split(":")[0] in compose["volumes"]
    assert server["build"] == "."
    docker_cmd = json.loads(next(a for i, a in dockerfile_instructions() if i == "CMD"))
    assert server["command"] == docker_cmd
    args = parse_args(server["command"][1:])
    assert server["ports"] == [f"{args.port}:{args.port}"]
    url = server["environment"]["REDIS_URL"]
    assert url.startswith("redis://redis:6379") and "redis" in server["depends_on"]
