"""Q783 (q783) extras: the deal verifier of ``referee verify`` and the bench line of the compiled
legal-move generator."""
from __future__ import annotations

import random

from referee.core import cards, speedups
from referee.core.games.q783 import rules as q783

from ..bench import per_call


def core_ratio(seconds: float = 1.0, hands: int = 200, seed: int = 7) -> dict:
    """Legal plays per call, compiled vs interpreted, on random 20-card hands of two packs'
    play cards (a free lead, and an answer to a random lead of another hand)."""
    compiled, pure = speedups.load("games.q783.hot"), speedups.interpreted("games.q783.hot")
    options = q783.Options(double_q783=True, triple_bomb=True)
    rules = q783.rules_of(options)
    deck = q783.deck_of(options, False)
    rnd = random.Random(seed)

    def hand_args():
        lo, hi = q783.halves(cards.to_mask(rnd.sample(deck, 20)))
        return pure.hand_counts(lo, hi, rules.order), pure.combo_suits(lo, hi)

    leads, responses = [], []
    for _ in range(hands):
        counts, info = hand_args()
        leads.append((counts, info, 0, rules.order, rules.ladder, rules.flags))
        other = hand_args()
        table = rnd.choice(pure.legal_plays(*other, 0, rules.order, rules.ladder, rules.flags))
        responses.append((counts, info, table, rules.order, rules.ladder, rules.flags))
    result = {"compiled_loaded": compiled is not pure}
    for name, cases in (("lead", leads), ("response", responses)):
        t_pure = per_call(pure.legal_plays, cases, seconds / 4)
        t_compiled = per_call(compiled.legal_plays, cases, seconds / 4)
        result[name] = {"interpreted_us": round(t_pure * 1e6, 2), "compiled_us": round(t_compiled * 1e6, 3),
                        "ratio": round(t_pure / t_compiled, 1)}
    return result


def bench(seconds: float) -> tuple[list, dict]:
    core = core_ratio(seconds)
    rows = [(f"q783 legal plays, 20-card {name}", core[name]["interpreted_us"], core[name]["compiled_us"], "us",
             core[name]["ratio"], ">= 20x (interpreted / compiled)") for name in ("lead", "response")]
    return rows, {"core": core}


# --- deal verification (referee verify), written from the README, not from core/q783.py ----------
RANKS = "3456789TJQKA2"


def _dealt_cards(options: dict, with_score_cards: bool) -> list[int]:
    """The cards a Q783 deal shuffles, ascending ids: every card of ``decks`` packs but the score
    cards (5 10 K and the jokers, A too under ``ace_scores``; dealt only with
    ``with_score_cards``) and the 2s under ``two_378q = removed`` (378q rules)."""
    score_ranks = "5TK" + ("A" if options.get("ace_scores") else "")
    removed = options.get("rules") == "378q" and options.get("two_378q") == "removed"
    out = []
    for card in range(options.get("decks", 2) * 54):
        k = card % 54
        rank = "J" if k >= 52 else RANKS[k % 13]  # a joker scores
        score = k >= 52 or rank in score_ranks
        if (rank == "2" and removed) or (score and not with_score_cards):
            continue
        out.append(card)
    return out


def _is_score_card(card: int, options: dict) -> bool:
    k = card % 54
    return k >= 52 or RANKS[k % 13] in "5TK" + ("A" if options.get("ace_scores") else "")


def verify_deal(record: dict, key: bytes, stream) -> dict:
    """Q783's layout: the cards of ``_dealt_cards`` (score cards too under ``drawn_bank`` in a
    大局's first 小局) shuffled on the stream ``deal``; card i goes to seat (dealer + i) mod
    seats; the dealer is seat 0 in the first 小局. The first lead is there the seat dealt the
    earliest ♥3 (id 13 or 67), or the earliest score card under ``first_score_card_drawer``; later
    the dealer. Returns check name -> a problem, or "" when it holds."""
    options, seats, values = record["options"], record["seats"], record["values"]
    first = record["round"] == 0
    dealer = values.get("dealer", 0)
    deck = stream(key, "deal").shuffle(_dealt_cards(options, first and bool(options.get("drawn_bank"))))
    expected = {f"seat{s}": deck[(s - dealer) % seats::seats] for s in range(seats)}
    found = {"cards": "" if record["cards"] == expected else "the cards differ from the seed's"}
    if first:
        found["dealer"] = "" if dealer == 0 else "the first 小局 is dealt from seat 0"
        if options.get("first_lead") == "first_score_card_drawer":
            index = next(i for i, c in enumerate(deck) if _is_score_card(c, options))
        else:
            index = next(i for i, c in enumerate(deck) if c % 54 == 13)
        lead = (dealer + index) % seats
    else:
        lead = dealer
    found["first_lead"] = "" if values.get("first_lead") == lead else f"the first lead is not the seed's ({lead})"
    return found
