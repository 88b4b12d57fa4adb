"""The shipped States as the release wrote them, declared for the state codec by path: their
classes are not annotated yet, so ``StateCodec(State, fields=DECLARED[game_id])`` gives each
field its bounds from outside. The codec so declared writes the release's bytes after its
version byte (test_codec.py checks it on every game while the games write the release format,
bench_codec.py times it against the hand-written pack).
"""
from __future__ import annotations

from typing import Annotated

from referee.core.codec import Blob, Choice, Index, Int64, Mask, OneOf, Seq, Small, StateCodec, game_context
from referee.core.mcr_fans import NUM_FANS

SEAT = Index("seats", 0)
SEATS = Seq(SEAT, "seats")
CARD = Index("cards", 0)
PLAY = Mask(64)  # a hot module's packed play: an unsigned 64-bit word
TRICK = {"trick.top": PLAY, "trick.top_cards": Mask(), "trick.passed": Mask("seats")}
WINDOW = {"window.asked": SEATS}


def common(phases: int, carry) -> dict:
    return {"match.totals": Seq(Int64, "seats"), "match.carry": carry, "phase": Index(phases, 0),
            "to_act": SEATS, "abandoned": Index("seats")}


NO_CARRY = Seq(Small, 0)

DECLARED = {
    "doudizhu": {**common(3, Seq(SEAT, 1)), **TRICK, "first_bidder": SEAT, "hands": Seq(Mask(), "seats"),
                 "kitty": Mask(), "bids": Seq(Index(4), "seats"), "landlord": Index("seats"), "base": Index(4, 0),
                 "bombs": Index(16, 0), "played": Mask(), "plays": Seq(Small, "seats"), "out": SEATS},
    "q783": {**common(2, OneOf(NO_CARRY, tuple[Annotated[int, SEAT], Annotated[tuple, Seq(Small, "seats")]])),
             **TRICK, "num_seats": Index(7, 3), "dealer": SEAT, "first_lead": SEAT, "hands": Seq(Mask(), "seats"),
             "score_cards": Seq(Mask(), "seats"), "set_aside": Mask(), "banks": Seq(Small, "seats"),
             "opening": Seq(Small, "seats"), "played": Mask(), "out": SEATS, "trick_cards": Seq(Small, "seats"),
             "winners": SEATS, "outcome": Index(7, 0), "exhausted": Mask("seats")},
    "mcr": {**common(4, Seq(Index(4, 0), 2)), **WINDOW, "dealer": Index(4, 0), "prevalent_wind": Index(4, 0),
            "wall": Blob("cards"), "front": Index(145, 0), "back": Index(145, 0), "hands": Seq(Mask(), "seats"),
            "melds": Seq(Seq(Seq(Index("cards"), 7), 4), "seats"),
            "discards": Seq(Seq(CARD, "cards"), "seats", total="cards"),
            "flowers": Seq(Seq(CARD, 8), "seats", total=8), "turn": SEAT, "drawn": Index("cards"),
            "tile": Index("cards"),
            "window.answers": Seq(OneOf(None, Seq(OneOf(Choice("PASS", "CHOW", "PUNG", "KONG", "WIN"), CARD), 5)),
                                  "seats"),
            "winner": Index("seats"), "payer": Index("seats"),
            "fans": Seq(tuple[Annotated[int, Index(NUM_FANS + 1, 0)], Annotated[int, Small]], NUM_FANS + 1),
            "outcome": Index(6, 0)},
    "bidaxiao": {**common(2, NO_CARRY), **WINDOW, "num_seats": Index(5, 2), "hands": Seq(Mask(), "seats"),
                 "revealed": Mask(), "last": Seq(Index("cards"), "seats"),
                 "window.answers": Seq(OneOf(None, CARD), "seats")},
    "coushu": {**common(2, NO_CARRY), "num_seats": Index(3, 2), "hands": Seq(Mask(), "seats"),
               "pending": Index("cards"), "leader": SEAT, "dead": Mask(), "pairs": Mask()},
    "jielong": {**common(2, NO_CARRY), "num_seats": Index(5, 2), "piles": Seq(Blob("cards"), "seats", total="cards"),
                "train": Blob("cards"), "revealed": Mask()},
    "tonghua": {**common(2, NO_CARRY), "num_seats": Index(5, 2), "hands": Seq(Mask(), "seats"), "suit": Index(4),
                "round_cards": Seq(CARD, 13), "round_seats": Seq(SEAT, 13), "in_round": Mask("seats"), "done": Mask(),
                "won": Seq(Small, "seats")},
}


def release_codec(game, version: int = 2) -> StateCodec:
    """A codec of ``game``'s State as released, reading the release format as its version 1."""
    state_type = type(game.deal(game.make_options(), b"declared", b""))
    return StateCodec(state_type, version=version, context=game_context(game), fields=DECLARED[game.id],
                      legacy={1: state_type._fields})
