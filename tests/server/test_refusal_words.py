"""An illegal play is refused with the engine's code and params (rule book §3.8), and its message
speaks to a person: no seat counted from 0, no card code; the params name only the mover's own
card and the trick's public cards."""

from __future__ import annotations

import random
import re
from typing import Any

from atout.engine.errors import REFUSAL_CODES

CARD_CODE = re.compile(r"\b(T\d+|EX|\d+[SHDC]|[KQCJ][SHDC])\b")


def test_an_illegal_play_gets_its_code_and_words(server: Any) -> None:
    created = server.create(
        preset="fft", players=2, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    )
    ann = server.connect(created["table_id"], created["token"], 0)
    rng = random.Random(5)
    seen: list[dict[str, Any]] = []
    for _ in range(400):
        message = ann.recv(20.0)
        view = message.get("view")
        if message["type"] not in ("state", "update") or not view or view["current_player"] != 0:
            continue
        legal = view["legal_actions"]
        if not legal:
            continue
        refused = [c for c in view["hand"] if f"play {c}" not in legal]
        if view["phase"] == "play" and refused and view["trick"]:
            card = refused[0]
            error = ann.error_for({"type": "action", "seq": message["seq"], "action": f"play {card}"})
            assert error["code"] == "illegal" and error["reason"] in REFUSAL_CODES, error
            assert error["rule"].startswith("rule book §3.8")
            assert not CARD_CODE.search(error["message"]), error["message"]
            assert not re.search(r"\bseat \d", error["message"]), error["message"]
            trick = view["trick"]
            public = {p["card"] for p in trick}
            led = trick[0]["card"]
            public.add("T" if led.startswith("T") else led[-1])
            for name, value in error["params"].items():
                assert value == card or value in public, (name, value, view)
            if error["reason"] == "follow_suit":
                assert error["params"] == {"suit": led[-1]}
                assert error["message"].startswith("You must follow ")
            seen.append(error)
            if len(seen) >= 3:
                break
        ann.send({"type": "action", "seq": message["seq"], "action": rng.choice(legal)})
    assert seen, "no illegal card was found to try"
    ann.close()


def test_a_bad_field_is_refused_with_a_code_the_page_puts_into_words(server: Any) -> None:
    """The lobby's form gets each field's problem as a code and params, beside the field's path:
    a name too long (at most 40 characters), an option left empty (a whole number), a value an
    option does not take (the values it takes)."""
    seats = [{"kind": "human", "name": "A" * 41}, {"kind": "bot", "bot": "random"}]
    body = server.post("/api/tables", {"preset": "fft", "players": 2, "seats": seats}).json()
    assert body["field"] == "seats.0.name"
    assert (body["code"], body["params"]) == ("too_long", {"max": 40})
    body = server.post("/api/tables", {"preset": "fft", "options": {"misere_bonus": None}}).json()
    assert (body["field"], body["code"], body["params"]) == ("options.misere_bonus", "whole_number", {})
    body = server.post("/api/tables", {"preset": "fft", "options": {"round_margin_to": 3}}).json()
    assert (body["field"], body["code"]) == ("options.round_margin_to", "one_of")
    assert body["params"] == {"values": "1, 5 or 10"}
    body = server.post("/api/tables", {"preset": "fft", "options": {"colour": "red"}}).json()
    assert (body["field"], body["code"]) == ("options.colour", "unknown_option")
    body = server.post("/api/tables", {"preset": "nothing"}).json()
    assert (body["field"], body["code"]) == ("preset", "unknown_preset")
