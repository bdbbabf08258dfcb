"""Real server messages for the table page's debug mode (``table.html?fixture=NAME``).

Plays real deals of every game with the engine and writes, at interesting moments (bidding,
the call, the chien and the écart, poignée, play, the 2-player piles, the Austrian talon, the
end of a deal), what the server would send that seat: a ``state`` message holding the table
info and ``deal.view(seat).to_json()``, then a ``deal_over`` message at the end. For every card
of the hand the engine refuses, the fixture also keeps the engine's message, so the page can
show the rule's reason without a server.

    python tests/web/fixtures.py [OUT_DIR]     # default: src/atout/web/static/fixtures
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from atout.engine.errors import IllegalActionError
from atout.engine.refusals import refusal_text
from atout.games import Deal, new_deal
from atout.presets import rules_for
from atout.rules import Rules
from atout.scoring.breakdown import breakdown_json

OUT = Path(__file__).resolve().parents[2] / "src" / "atout" / "web" / "static" / "fixtures"
NAMES = ("Ann", "Bob", "Chloé", "Dmitri", "Eve")

Moment = Callable[[Deal], bool]


@dataclass(frozen=True)
class Fixture:
    """One moment to capture: which game, which seed and bidding, and when to stop."""

    name: str
    about: str
    rules: Rules
    preset: str
    moment: Moment
    bid: str = "garde"  # what the first bidder bids; everyone else passes
    seed: int = 1
    seat: Callable[[Deal], int] | None = None  # whose view (default: the player to act)
    prefer: tuple[str, ...] = ()  # action words chosen whenever legal (poignée, chelem...)


def phase(name: str) -> Moment:
    return lambda deal: str(deal.phase) == name


def playing(min_cards_on_table: int, min_tricks: int = 0) -> Moment:
    def at(deal: Deal) -> bool:
        view = deal.view(max(deal.current_player, 0))
        return (
            str(deal.phase) == "play"
            and len(view.trick) >= min_cards_on_table
            and len(view.tricks) >= min_tricks
        )

    return at


def over(deal: Deal) -> bool:
    return deal.is_over()


def taker(deal: Deal) -> int:
    view = deal.view(0)
    seat = getattr(view, "taker", None)
    if seat is None:
        seat = getattr(view, "declarer", None)
    return int(seat) if seat is not None else 0


def other_than_taker(deal: Deal) -> int:
    return (taker(deal) + 1) % deal.n


def facts(rules: Rules) -> dict[str, Any]:
    """The numbers the page shows but does not compute (the contract's table ``facts``)."""
    french = rules.game == "french" and rules.players >= 3
    return {
        "contracts": [{"name": c, "multiplier": rules.multiplier(c)} for c in rules.contracts]
        if french
        else [],
        "thresholds": [rules.threshold(b) for b in range(4)] if rules.game == "french" else None,
        "poignee_levels": list(rules.poignee_levels()) if french else None,
    }


def table_info(fixture: Fixture, deal: Deal, history: list[list[int]]) -> dict[str, Any]:
    n = deal.n
    seats = [
        {
            "seat": s,
            "kind": "human" if s % 2 == 0 else "bot",
            "name": NAMES[s],
            "bot": None if s % 2 == 0 else "expert:fast",
            "connected": s != 2,
            "replaced_by_bot": False,
        }
        for s in range(n)
    ]
    totals = [sum(row[s] for row in history) for s in range(n)]
    return {
        "table_id": f"fixture-{fixture.name}",
        "game": fixture.rules.game,
        "players": n,
        "preset": fixture.preset,
        "rules": fixture.rules.to_dict(),
        "seats": seats,
        "deal_no": len(history) + 1,
        "state": "between_deals" if deal.is_over() else "playing",
        "totals": totals,
        "history": history,
        "facts": facts(fixture.rules),
    }


def refusals(deal: Deal, seat: int) -> dict[str, dict[str, Any]]:
    """The engine's message for each card of the hand it would refuse to see played now."""
    if deal.current_player != seat or str(deal.phase) not in ("play", "discard"):
        return {}
    view = deal.view(seat)
    verb = "play" if str(deal.phase) == "play" else "discard"
    legal = {deal.action_name(a) for a in deal.legal_actions()}
    out: dict[str, dict[str, Any]] = {}
    for card in view.to_json()["hand"]:
        words = f"{verb} {card}"
        if words in legal:
            continue
        try:
            deal.clone().apply(deal.parse(words))
        except IllegalActionError as error:
            # what the server sends: the refusal code, its params and its words
            out[words] = {
                "message": refusal_text(error.code, error.params, deal.rules.game),
                "rule": error.rule,
                "reason": error.code,
                "params": error.params,
            }
    return out


def choose(deal: Deal, fixture: Fixture, rng: random.Random) -> int:
    actions = deal.legal_actions()
    words = {deal.action_name(a): a for a in actions}
    for wanted in fixture.prefer:
        if wanted in words:
            return words[wanted]
    if str(deal.phase) == "bidding":
        bids = [b for _, b in deal.view(0).to_json().get("bids", [])]
        if not bids and fixture.bid in words:
            return words[fixture.bid]
        return words["pass"]
    return rng.choice(actions)


def capture(fixture: Fixture) -> dict[str, Any]:
    """Play until the moment; the messages the chosen seat would receive then."""
    rng = random.Random(fixture.seed)
    deal = new_deal(fixture.rules, rng=rng)
    for _ in range(400):
        if fixture.moment(deal):
            break
        deal.apply(choose(deal, fixture, rng))
    else:
        raise SystemExit(f"{fixture.name}: the moment never came")
    if fixture.seat is not None:
        seat = fixture.seat(deal)
    else:
        seat = deal.current_player if deal.current_player >= 0 else 0
    earlier = [[round(10 * (s - 1.5) * (d + 1)) for s in range(deal.n)] for d in range(2)]
    for row in earlier:
        row[-1] -= sum(row)  # a zero-sum running total, as French scores are
    history = earlier
    if deal.is_over():
        history = [*earlier, list(deal.scores())]
    table = table_info(fixture, deal, history)
    seq = len(deal.history)
    messages: list[dict[str, Any]] = [
        {
            "type": "state",
            "seq": seq,
            "seat": seat,
            "table": table,
            "deal_no": len(earlier) + 1,
            "view": deal.view(seat).to_json(),
            "totals": table["totals"],
        }
    ]
    if deal.is_over():
        end = [e for e in deal.view(seat).to_json()["events"] if e["kind"] == "end"]
        messages.append(
            {
                "type": "deal_over",
                "seq": seq,
                "deal_no": len(earlier) + 1,
                "scores": list(deal.scores()),
                "totals": table["totals"],
                "summary": end[-1]["summary"] if end else None,
                "breakdown": None if deal.summary is None else breakdown_json(deal.summary),
                "outcome": deal.outcome,
            }
        )
    return {
        "name": fixture.name,
        "about": fixture.about,
        "messages": messages,
        "refusals": refusals(deal, seat),
    }


FFT4 = rules_for("fft", players=4)
FIXTURES = (
    Fixture("fft4-bidding", "4 players, first to bid", FFT4, "fft", phase("bidding")),
    Fixture("fft4-bidding-late", "4 players, a garde to overbid", FFT4, "fft", lambda d: len(d.history) == 2),
    Fixture("fft4-ecart", "4 players, the taker makes the écart", FFT4, "fft", phase("discard"), seed=2),
    Fixture(
        "fft4-chien-defender",
        "4 players, a defender sees the chien",
        FFT4,
        "fft",
        phase("discard"),
        seed=2,
        seat=other_than_taker,
    ),
    Fixture("fft4-chelem", "4 players, the chelem decision", FFT4, "fft", phase("chelem"), seed=3),
    Fixture("fft4-poignee", "4 players, a poignée may be shown", FFT4, "fft", phase("poignee"), seed=5),
    Fixture(
        "fft4-show",
        "4 players, choosing the trumps a poignée shows",
        FFT4,
        "fft",
        lambda deal: (
            str(deal.phase) == "poignee" and deal.action_name(deal.legal_actions()[0]) == "show_default"
        ),
        seed=37,
        prefer=("poignee simple",),
    ),
    Fixture("fft4-lead", "4 players, leading the first trick", FFT4, "fft", playing(0), seed=4),
    Fixture(
        "fft4-follow",
        "4 players, following in the middle of the deal",
        FFT4,
        "fft",
        playing(2, 6),
        seed=6,
        prefer=("poignee simple",),
    ),
    Fixture("fft4-end", "4 players, the end of a deal", FFT4, "fft", over, seed=7, seat=lambda d: 0),
    Fixture("fft4-all-passed", "4 players, everyone passed", FFT4, "fft", over, bid="pass", seat=lambda d: 0),
    Fixture("fft3-play", "3 players, play", rules_for("fft", players=3), "fft", playing(1, 3), seed=8),
    Fixture(
        "fft5-call", "5 players, the taker calls a king", rules_for("fft", players=5), "fft", phase("call")
    ),
    Fixture(
        "fft5-play",
        "5 players, play after the call",
        rules_for("fft", players=5),
        "fft",
        playing(3, 4),
        seed=9,
    ),
    Fixture(
        "fft5-dead-end",
        "5 players with a dead player, the end",
        rules_for("fft", players=5, five_player_mode="dead_player"),
        "fft",
        over,
        seed=10,
        seat=lambda d: 1,
    ),
    Fixture("two-play", "2 players, the piles", Rules(players=2), "fft", playing(1, 4), seed=11),
    Fixture("two-lead", "2 players, the first lead", Rules(players=2), "fft", playing(0), seed=12),
    Fixture("two-end", "2 players, the end", Rules(players=2), "fft", over, seed=13, seat=lambda d: 0),
    Fixture(
        "tarock-bidding",
        "Austrian Tarock, bidding",
        rules_for("tarock"),
        "tarock",
        phase("bidding"),
        bid="threesome",
    ),
    Fixture(
        "tarock-talon",
        "Austrian Tarock, the talon halves",
        rules_for("tarock"),
        "tarock",
        phase("talon"),
        bid="threesome",
        seed=2,
    ),
    Fixture(
        "tarock-discard",
        "Austrian Tarock, the declarer discards",
        rules_for("tarock"),
        "tarock",
        phase("discard"),
        bid="threesome",
        seed=3,
    ),
    Fixture(
        "tarock-game",
        "Austrian Tarock, choosing the game",
        rules_for("tarock", austrian_allow_game2=True),  # the tarock preset has no game to choose
        "tarock",
        phase("game"),
        bid="threesome",
        seed=4,
    ),
    Fixture(
        "tarock-play",
        "Austrian Tarock, play",
        rules_for("tarock"),
        "tarock",
        playing(1, 5),
        bid="solo",
        seed=5,
    ),
    Fixture(
        "tarock-end",
        "Austrian Tarock, the end",
        rules_for("tarock"),
        "tarock",
        over,
        bid="threesome",
        seed=6,
        seat=lambda d: 0,
    ),
    # every screen of every game, for the layout tests (tests/web/test_screens.py)
    Fixture("fft3-bidding", "3 players, bidding", rules_for("fft", players=3), "fft", phase("bidding")),
    Fixture(
        "fft3-ecart", "3 players, the écart", rules_for("fft", players=3), "fft", phase("discard"), seed=2
    ),
    Fixture(
        "fft3-chien",
        "3 players, a defender sees the chien",
        rules_for("fft", players=3),
        "fft",
        phase("discard"),
        seed=2,
        seat=other_than_taker,
    ),
    Fixture(
        "fft3-end", "3 players, the end", rules_for("fft", players=3), "fft", over, seed=3, seat=lambda d: 0
    ),
    Fixture("fft5-bidding", "5 players, bidding", rules_for("fft", players=5), "fft", phase("bidding")),
    Fixture(
        "fft5-ecart", "5 players, the écart", rules_for("fft", players=5), "fft", phase("discard"), seed=2
    ),
    Fixture(
        "fft5-chien",
        "5 players, a defender sees the chien",
        rules_for("fft", players=5),
        "fft",
        phase("discard"),
        seed=2,
        seat=other_than_taker,
    ),
    Fixture(
        "fft5-trick4",
        "5 players, four cards on the table",
        rules_for("fft", players=5),
        "fft",
        playing(4, 2),
        seed=9,
    ),
    Fixture(
        "fft5-end", "5 players, the end", rules_for("fft", players=5), "fft", over, seed=3, seat=lambda d: 0
    ),
    Fixture("fft4-trick3", "4 players, three cards on the table", FFT4, "fft", playing(3, 3), seed=6),
    Fixture(
        "fft3-trick2",
        "3 players, two cards on the table",
        rules_for("fft", players=3),
        "fft",
        playing(2, 2),
        seed=8,
    ),
    Fixture(
        "tarock-trick2",
        "Austrian Tarock, two cards on the table",
        rules_for("tarock"),
        "tarock",
        playing(2, 3),
        bid="solo",
        seed=5,
    ),
)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    index = []
    for fixture in FIXTURES:
        data = capture(fixture)
        (out / f"{fixture.name}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        index.append({"name": fixture.name, "about": fixture.about})
    (out / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(index)} fixtures written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
