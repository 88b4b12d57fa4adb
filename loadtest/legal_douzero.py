"""DouZero's legal moves behind the JSONL contract of ``referee legal --game doudizhu --jsonl``.

A standalone baseline for ``legal_vs_douzero.py``; the package never imports it and CI never
runs it. It needs DouZero in its own environment, not the project's:

    python3 -m venv /tmp/dz && /tmp/dz/bin/pip install rlcard && /tmp/dz/bin/pip install --no-deps douzero
    /tmp/dz/bin/python loadtest/legal_douzero.py < cases.jsonl

One JSON object a line in, ``{"hand": "...", "last": "...", "context": ..., "options": ...}``
(cards ``3S TH BJ`` or a rank string ``33344BR``; ``last`` "" is a free lead); one line out,
``{"moves": [...]}``: DouZero's own ``GameEnv.get_legal_card_play_actions`` (MovesGener, then
move_detector's reading of the last move and move_selector's filter), answered in our format:
each distinct play once as a rank string (3 -> R), the list sorted the way ours is, passing not
listed. DouZero has no declared reading nor options, so ``context`` and ``options`` are
ignored: its rules are its own (rule 11 of rules/doudizhu.md says where they differ).
Bad input: ``{"error": ..., "reason": ...}``.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import types

RANK_CHARS = "3456789TJQKA2BR"
# DouZero's card values, in our rank order: 3..14 (A), 17 the 2, 20 the small, 30 the big joker
DOUZERO_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
CHAR_OF_VALUE = dict(zip(DOUZERO_VALUES, RANK_CHARS))
VALUE_OF_CHAR = dict(zip(RANK_CHARS, DOUZERO_VALUES))
SUITS = "SHDC"


def douzero_game():
    """``douzero.env.game`` without running ``douzero/env/__init__.py`` (it imports numpy and the
    training environment): only the move generator, detector and selector are loaded."""
    spec = importlib.util.find_spec("douzero")
    if spec is None:
        raise SystemExit("douzero is not installed in this Python (see the module docstring)")
    env = types.ModuleType("douzero.env")
    env.__path__ = [f"{spec.submodule_search_locations[0]}/env"]
    sys.modules["douzero.env"] = env
    return importlib.import_module("douzero.env.game")


class BadInput(ValueError):
    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def parse(text: str) -> list[int]:
    """DouZero card values of a hand given as cards (``3S TH BJ``) or as a rank string."""
    tokens = text.replace(",", " ").upper().split()
    if tokens and all(len(t) >= 2 and (t[-1] in SUITS or t in ("BJ", "RJ")) for t in tokens):
        chars = ["B" if t == "BJ" else "R" if t == "RJ" else t[:-1].replace("10", "T") for t in tokens]
    else:
        chars = [c for c in "".join(tokens).replace("10", "T")]
    try:
        values = sorted(VALUE_OF_CHAR[c] for c in chars)
    except KeyError as error:
        raise BadInput(f"unknown rank {error.args[0]!r} in {text!r}", "UNKNOWN_CARD") from None
    for v in set(values):
        if values.count(v) > (1 if v >= 20 else 4):
            raise BadInput(f"too many cards of rank {CHAR_OF_VALUE[v]} in {text!r}", "DUPLICATE_CARD")
    return values


def main() -> int:
    game = douzero_game()
    get_legal = game.GameEnv.get_legal_card_play_actions
    detector = game.md
    info = types.SimpleNamespace(player_hand_cards=[])
    env = types.SimpleNamespace(acting_player_position="landlord", info_sets={"landlord": info},
                                card_play_action_seq=[])
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            info.player_hand_cards = parse(request["hand"])
            last = parse(request.get("last") or "")
            if last and detector.get_move_type(last)["type"] == detector.TYPE_15_WRONG:
                raise BadInput(f"{request['last']!r} is not a combination", "NOT_A_COMBINATION")
            env.card_play_action_seq = [last] if last else []
            moves = sorted({tuple(m) for m in get_legal(env) if m})
            answer = {"moves": ["".join(CHAR_OF_VALUE[v] for v in m) for m in moves]}
        except BadInput as error:
            answer = {"error": str(error), "reason": error.reason}
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            answer = {"error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
