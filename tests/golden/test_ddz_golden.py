"""Golden transcript: one Dou Dizhu round from a fixed seed, played by fixed-rule bots, every
event and the settlement in every scoring mode, compared with the committed text file.

Rewrite the file after an intended change with ``REFEREE_REGEN_GOLDEN=1`` and review the diff.
"""
import dataclasses
import os
from pathlib import Path

import pytest

from referee.core import cards as cardlib
from referee.core import rng
from referee.core.games.doudizhu.rules import DOUDIZHU, Options
from referee.core.game import PASS

GOLDEN = Path(__file__).with_name("doudizhu_golden_1.txt")
SEED = b"referee golden transcript 1"
ENTROPY = b"caller entropy"
OPTIONS = Options()  # the first bidder is drawn from the seed (rule 6)


def bot(state, seat):
    """Pass through the whole first deal (so the transcript shows a REDEAL, rule 5); after that
    take the first legal action that is not PASS (lowest bid, lowest play), else PASS."""
    actions = [a for a, _ in DOUDIZHU.legal_actions(state, seat)]
    if state.deal_no == 0 and state.landlord < 0:
        return actions[0]
    return next((a for a in actions if a.kind != PASS), actions[0])


def describe(step, event):
    parts = [f"{step:3d}", event.type, f"seat={event.seat}"]
    if event.cards:
        parts.append("cards=" + cardlib.format_cards(event.cards).replace(" ", ","))
    if event.combo:
        c = event.combo
        parts.append(f"combo={c.kind}/main={cardlib.RANK_CHARS[c.main_rank]}/chain={c.chain}/size={c.size}")
    parts += [f"{k}={v}" for k, v in sorted(event.values.items())]
    return " ".join(parts)


def describe_settlement(settlement, scoring: str):
    lines = [f"settlement {scoring}: outcome={settlement.outcome} "
             f"winners={list(settlement.winners)} points={list(settlement.points)} house={settlement.house}",
             "  breakdown " + " ".join(f"{k}={v}" for k, v in settlement.breakdown)]
    if settlement.seat_values:  # the coin modes (rules 17-18)
        coins, house = list(settlement.seat_values["coins"]), settlement.values["coins_house"]
        lines.append(f"  coins={coins} coins_house={house}")
    return lines


def transcript():
    state = DOUDIZHU.deal(OPTIONS, SEED, ENTROPY)
    lines = ["# Dou Dizhu golden transcript (tests/golden/test_ddz_golden.py)",
             f"seed={SEED.hex()} entropy={ENTROPY.hex()} commitment={rng.commitment(SEED).hex()}",
             "options " + " ".join(f"{f.name}={getattr(OPTIONS, f.name)}"
                                   for f in dataclasses.fields(OPTIONS)),
             "bots: pass through deal 0, then the first legal action that is not PASS"]
    lines += [describe(0, e) for e in DOUDIZHU.deal_events(state)]
    while not state.finished:
        action = bot(state, state.to_act[0])
        state, events = DOUDIZHU.apply(state, action)
        lines += [describe(state.step, e) for e in events]
    for scoring in ("points", "coins_fixed_fee", "coins_rake"):
        options = dataclasses.replace(OPTIONS, scoring=scoring, room_coefficient=1000, room_fee=50)
        lines += describe_settlement(DOUDIZHU.settle(state._replace(options=options)), scoring)
    return "\n".join(lines) + "\n"


def test_ddz_golden_transcript():
    text = transcript()
    if os.environ.get("REFEREE_REGEN_GOLDEN") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
        pytest.skip(f"rewrote {GOLDEN.name}; review the diff")
    assert GOLDEN.exists(), f"missing {GOLDEN}; run with REFEREE_REGEN_GOLDEN=1 to create it"
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_ddz_golden_transcript_is_deterministic():
    assert transcript() == transcript()
