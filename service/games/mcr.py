"""国标麻将 (mcr) extras: the stateless fan calculator as ``referee.mcr.v1.McrService``, the
``referee fan`` command and the fan bench line. (The protobuf modules are imported where they
are used, so the CLI starts without them.)"""
from __future__ import annotations

from referee.core import speedups
from referee.core.games.mcr import fans as mcr
from referee.core.errors import InvalidAction, Reason

MAX_TILE_TEXT = 2000  # characters of concealed tile text in one request


def fan_request(msg) -> dict:
    """The request as the calculator's hand description (the ``referee fan`` JSON fields)."""
    if len(msg.melds) > 4 or len(msg.concealed) > 14 or sum(map(len, msg.concealed)) > MAX_TILE_TEXT:
        raise InvalidAction("at most 4 melds and 14 concealed tiles", Reason.MALFORMED_REQUEST)
    concealed = [name for text in msg.concealed for name in text.split()]
    return {"melds": [[m.type, m.tile, m.offer] for m in msg.melds], "concealed": concealed,
            "win_tile": msg.win_tile, "self_drawn": msg.self_drawn, "fourth_tile": msg.fourth_tile,
            "kong_related": msg.kong_related, "wall_last": msg.wall_last, "seat_wind": msg.seat_wind,
            "prevalent_wind": msg.prevalent_wind, "flowers": msg.flowers}


def fan_response(result):
    """A core FanResult as a ``referee.mcr.v1.CalculateFansResponse``."""
    from referee.mcr.v1 import mcr_pb2

    return mcr_pb2.CalculateFansResponse(
        fans=[mcr_pb2.Fan(id=f.id, name_cn=f.name_cn, name_en=f.name_en, points=f.points, count=f.count)
              for f in result.fans],
        points=result.points, total=result.total)


class McrServicer:
    """``referee.mcr.v1.McrService``, stateless: the fans of a described hand."""

    def CalculateFans(self, request, context):
        hand = mcr.Hand.from_request(fan_request(request))
        minimum = request.min_points if request.HasField("min_points") else mcr.MIN_POINTS
        return fan_response(mcr.calculate_fans(hand, minimum))


def services() -> list:
    from referee.mcr.v1 import mcr_pb2

    return [(mcr_pb2.DESCRIPTOR.services_by_name["McrService"], McrServicer())]


# --- the CLI -----------------------------------------------------------------------------------
def cmd_fan(args) -> int:
    """`referee fan --jsonl`: one mcr hand a line -> {"fans": [...], "total": N} or {"error": ...}
    (the request's ``id`` echoed first, as every --jsonl command does)."""
    from .. import jsonl

    return jsonl.serve(mcr.fan_answer, lambda error: {"error": "BAD_INPUT", "message": f"not a JSON line: {error}"},
                       None if args.jsonl else [args.hand])


def add_commands(sub) -> None:
    p = sub.add_parser("fan", help='mcr fans: one JSON hand a line -> {"fans": [...], "total": N}')
    p.add_argument("--jsonl", action="store_true", help="JSON lines on stdin -> JSON lines on stdout")
    p.add_argument("--hand", default="", help="one hand as JSON (without --jsonl)")
    p.set_defaults(func=cmd_fan)


# --- the bench ---------------------------------------------------------------------------------
def bench(seconds: float) -> tuple[list, dict]:
    """MCR fan calculations per hand: ours (request dict -> answer) vs PyMahjongGB's calculator
    (target: at least as fast)."""
    ours, theirs = mcr.bench_fans(mcr.fan_benchmark_cases())
    result = {"compiled_loaded": speedups.loaded().get("mcr_hot", False), "ours_us": round(ours * 1e6, 2)}
    if theirs is None:
        return [("mcr fans per hand (PyMahjongGB not installed)", None, ours * 1e6, "us", None, "")], {"fans": result}
    result.update(pymahjonggb_us=round(theirs * 1e6, 2), speedup=round(theirs / ours, 2))
    return ([("mcr fans per hand vs PyMahjongGB", theirs * 1e6, ours * 1e6, "us", theirs / ours,
              ">= 1x (PyMahjongGB / ours)")], {"fans": result})


# --- deal verification (referee verify), written from the README, not from core/mcr_game.py ---
def verify_deal(record: dict, key: bytes, stream) -> dict:
    """MCR's layout: the wall is ``shuffle(range(144))`` on the stream ``wall`` (tile ids: kind
    * 4 + copy, flowers 136-143); in a match's first hand an option dealer of -1 draws the
    dealer as ``randbelow(4)`` on the stream ``dealer``. Returns check name -> a problem or ""."""
    wall = stream(key, "wall").shuffle(range(144))
    found = {"cards": "" if record["cards"].get("wall") == wall else "the wall differs from the seed's"}
    if record["round"] == 0 and record["options"].get("dealer") == -1:
        dealer = stream(key, "dealer").randbelow(4)
        found["dealer"] = "" if record["values"].get("dealer") == dealer else f"the dealer is not the seed's ({dealer})"
    return found
