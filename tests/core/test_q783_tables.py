"""Q783 tables: cross-type comparisons (rules 5.2-5.4), the payment of every play under each
scoring option (7.2-7.4), and the legal plays of both twins of ``q783_hot`` against an oracle
written from the spec (brute force over the cards: it shares no code with the hot path)."""
from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import cards as cardlib
from referee.core import speedups
from referee.core.games.q783 import rules as q783
from referee.core.games.q783.rules import Q783


from q783_tables import opts, twin  # noqa: F401 - twin: a fixture


def beats(a: str, b: str, options) -> bool:
    return Q783.compare(a, b, options)[0]


# --- cross-type comparisons ------------------------------------------------------------------------

FOUR, PURE, MIXED, THREE = "4S 4H 4D 4C", "QH 7H 8H 3H", "QS 7H 8H 3H", "QS QH QD"
EIGHT = "4S 4H 4D 4C 4S 4H 4D 4C"
PURE2, MIXED2, SEVEN = "QH QH 7H 7H 8H 8H 3H 3H", "QS QH 7H 7H 8H 8H 3H 3H", "QS QH QD QC QS QH QD"

# (higher, lower, options): higher beats lower, lower does not beat higher
ORDER_TABLE = [
    (FOUR, PURE, {}), (PURE, MIXED, {}), (MIXED, THREE, {}),  # 4-same > pure Q783 > mixed Q783 > 3-same
    (MIXED, "6S 6H 6D", {"triple_bomb": True}),
    (EIGHT, PURE2, {"double_q783": True}), (PURE2, MIXED2, {"double_q783": True}),
    (MIXED2, SEVEN, {"double_q783": True}),  # 8-same > pure double > mixed double > 7-same
    (PURE, FOUR, {"preset": "378q"}), (FOUR, MIXED, {"preset": "378q"}),  # the 378Q order
    ("QS QH QD QC QS", PURE, {"preset": "378q"}), (MIXED, THREE, {"preset": "378q"}),
    (EIGHT, PURE2, {"preset": "378q", "double_q783": True}), (MIXED2, SEVEN, {"preset": "378q", "double_q783": True}),
    (PURE, EIGHT, {"preset": "378q", "pure_378q_top": True}),
    (PURE, PURE2, {"preset": "378q", "double_q783": True, "pure_378q_top": True}),
    ("QS 7S 8S 3S", PURE, {"pure_suit_order": True}), (PURE, "QC 7C 8C 3C", {"pure_suit_order": True}),
    ("QC 7C 8C 3C", "QD 7D 8D 3D", {"pure_suit_order": True}),
    ("QS", "7S", {}), ("3S", "QS", {"preset": "378q"}), ("4S", "2S", {"two_low": True}),
    ("QS QS QH QH QD QD QC QC", EIGHT, {}),  # the largest bomb: eight Qs
    ("4S 4H", "QS", {"more_cards_beat": True}),
]

# (a, b, options): neither beats the other
EQUAL_TABLE = [
    (PURE, "QS 7S 8S 3S", {}), (MIXED, "QD 7C 8C 3C", {}), (MIXED, "QD 7C 8C 3C", {"pure_suit_order": True}),
    (PURE2, "QS QS 7S 7S 8S 8S 3S 3S", {"double_q783": True, "pure_suit_order": True}),
    ("QS QH", "QD QC", {}), ("QS QH", "4S", {}), ("QS QH QD", "4S 4H", {}),
    (PURE, "QS 7S 8S 3S", {"preset": "378q", "pure_378q_top": True}),
]


def _options(spec: dict) -> q783.Options:
    spec = dict(spec)
    return Q783.make_options(spec.pop("preset", "q783"), spec)


@pytest.mark.parametrize("higher, lower, spec", ORDER_TABLE)
def test_q783_cross_type_order(twin, higher, lower, spec):
    options = _options(spec)
    assert beats(higher, lower, options) and not beats(lower, higher, options)


@pytest.mark.parametrize("a, b, spec", EQUAL_TABLE)
def test_q783_plays_that_do_not_beat_each_other(twin, a, b, spec):
    options = _options(spec)
    assert not beats(a, b, options) and not beats(b, a, options)


# --- payments ----------------------------------------------------------------------------------------

PLAYS = {"single": "4S", "pair": "QS QH", "trio": "QS QH QD", "triple_bomb": "6S 6H 6D", "mixed": MIXED,
         "pure": PURE, "bomb4": FOUR, "bomb5": "4S 4H 4D 4C 4S", "bomb6": "4S 4H 4D 4C 4S 4H",
         "bomb7": "4S 4H 4D 4C 4S 4H 4D", "bomb8": EIGHT, "mixed_double": MIXED2, "pure_double": PURE2}
PAYMENTS = {  # rule 7.2 by_type, 7.4 by_type_378q
    "by_type": {"single": 5, "pair": 5, "trio": 5, "triple_bomb": 30, "mixed": 20, "pure": 40, "bomb4": 40,
                "bomb5": 50, "bomb6": 60, "bomb7": 70, "bomb8": 80, "mixed_double": 40, "pure_double": 80},
    "by_type_378q": {"single": 5, "pair": 10, "trio": 15, "triple_bomb": 30, "mixed": 10, "pure": 10,
                     "bomb4": 40, "bomb5": 50, "bomb6": 60, "bomb7": 70, "bomb8": 80, "mixed_double": 20,
                     "pure_double": 20},
}


def _play(name: str, options) -> int:
    """The play of PLAYS[name] (a trio read without triple_bomb: with it three of a kind is a bomb)."""
    if name == "trio":
        options = dataclasses.replace(options, triple_bomb=False)
    return q783.play_of(cardlib.to_mask(cardlib.parse_cards(PLAYS[name], 2)), q783.rules_of(options))


@pytest.mark.parametrize("payment", sorted(PAYMENTS))
def test_q783_payment_table(twin, payment):
    options = opts(payment=payment, triple_bomb=True, double_q783=True)
    for name, amount in PAYMENTS[payment].items():
        play = _play(name, options)
        assert play and q783.trick_amount(play, 9, options) == amount, name
        assert q783.play_amount(play, options) == amount, name  # pay_on_pass pays the same on each pass


def test_q783_payment_table_by_count(twin):
    options = opts(payment="by_count", triple_bomb=True, double_q783=True)
    for name in PLAYS:
        play = _play(name, options)
        for cards in (1, 4, 11):
            assert q783.trick_amount(play, cards, options) == 5 * cards  # all the winner played in the trick
        assert q783.play_amount(play, options) == 5 * len(PLAYS[name].split())  # pay_on_pass: this play's cards


# --- legal plays against an oracle ----------------------------------------------------------------------

LADDERS = {"q783": ["triple", "mixed", "pure", "b4", "b5", "b6", "b7", "mixed2", "pure2", "b8"],
           "378q": ["triple", "mixed", "b4", "pure", "b5", "b6", "b7", "mixed2", "pure2", "b8"]}
SUIT_RANK = {"D": 0, "C": 1, "H": 2, "S": 3}


def _card(c: int) -> tuple[str, str]:
    text = cardlib.format_card(c)
    return text[0], text[1]


def oracle_read(ids, options) -> tuple | None:
    """(class, size, rank, suit) of a card list as rules 4.1-4.6 read it, or None."""
    order = q783.rank_order(options)
    cards = [_card(c) for c in ids]
    if not cards or any(r not in order for r, _ in cards):
        return None
    ranks = sorted(r for r, _ in cards)
    suits = {s for _, s in cards}
    pure = len(suits) == 1
    if ranks == sorted("Q783"):
        return ("pure" if pure else "mixed", 4, "", suits.pop() if pure else "")
    if ranks == sorted("QQ778833") and options.double_q783:
        return ("pure2" if pure else "mixed2", 8, "", "")
    if len(set(ranks)) != 1:
        return None
    n = len(ranks)
    kind = f"b{n}" if n >= 4 else ("triple" if n == 3 and options.triple_bomb else "set")
    return (kind, n, ranks[0], "")


def oracle_beats(play, table, options) -> bool:
    if table is None:
        return True
    order = q783.rank_order(options)
    strength = {r: len(order) - i for i, r in enumerate(order)}
    ladder = list(LADDERS[options.rules])
    if options.pure_378q_top:
        ladder.remove("pure")
        ladder.append("pure")
    if table[0] == "set":
        if play[0] != "set":
            return True
        if play[1] == table[1]:
            return strength[play[2]] > strength[table[2]]
        return options.more_cards_beat and play[1] > table[1]
    if play[0] == "set":
        return False
    if play[0] != table[0]:
        return ladder.index(play[0]) > ladder.index(table[0])
    if play[0] == "triple" or play[0].startswith("b"):
        return strength[play[2]] > strength[table[2]]
    return play[0] == "pure" and options.pure_suit_order and SUIT_RANK[play[3]] > SUIT_RANK[table[3]]


def oracle_moves(hand, table, options) -> list[str]:
    """Every way to take a combination from the hand, by brute force, as rank strings."""
    order = q783.rank_order(options)
    by_rank = {r: [c for c in hand if _card(c)[0] == r] for r in order}
    candidates = []
    for ids in by_rank.values():
        candidates += [ids[:n] for n in range(1, len(ids) + 1)]
    # a Q783: one card of each rank, every choice of suits (4.3, 4.4)
    quad = [list({_card(c)[1]: c for c in by_rank[r]}.values()) for r in "Q783"]
    candidates += [list(choice) for choice in itertools.product(*quad)]
    if options.double_q783:  # 4.5: pure when all eight are of one suit, mixed when some choice is not
        for suit in "SHDC":
            pure = [[c for c in by_rank[r] if _card(c)[1] == suit][:2] for r in "Q783"]
            if all(len(ids) == 2 for ids in pure):
                candidates.append(sum(pure, []))
        pairs = [list({tuple(sorted(_card(c)[1] for c in pair)): pair
                       for pair in itertools.combinations(by_rank[r], 2)}.values()) for r in "Q783"]
        for choice in itertools.product(*pairs):
            ids = sum(choice, ())
            if len({_card(c)[1] for c in ids}) > 1:
                candidates.append(list(ids))
                break
    moves = set()
    for ids in candidates:
        play = oracle_read(ids, options)
        if play and oracle_beats(play, table, options):
            text = "".join(sorted((_card(c)[0] for c in ids), key=order.index))
            moves.add(text + ("*" if play[0] in ("pure", "pure2") else ""))
    return sorted(moves)


OPTION_SETS = [opts(), opts("378q"), opts(triple_bomb=True, double_q783=True), opts(two_low=True, decks=1),
               opts(more_cards_beat=True, pure_suit_order=True), opts("378q", two_378q="between", double_q783=True),
               opts("378q", pure_378q_top=True, double_q783=True, triple_bomb=True),
               opts("378q", two_378q="removed", ace_scores=True), opts(ace_scores=True, more_cards_beat=True)]


def _random_case(rnd: random.Random, options):
    deck = list(q783.deck_of(options, False))
    if rnd.random() < 0.5:  # a hand rich in Q 7 8 3 of few suits, for pure and double Q783s
        deck = [c for c in deck if _card(c)[0] in "Q783" and _card(c)[1] in "HS"] * 2 + deck
    hand = sorted(set(rnd.sample(deck, rnd.randint(1, 27))))
    rest = [c for c in q783.deck_of(options, False) if c not in hand]
    table_ids = None
    if rnd.random() < 0.7:
        other = sorted(rnd.sample(rest, min(len(rest), 20)))
        plays = oracle_candidates(other, options)
        table_ids = rnd.choice(plays) if plays else None
    return hand, table_ids


def oracle_candidates(hand, options) -> list[list[int]]:
    order = q783.rank_order(options)
    by_rank = {r: [c for c in hand if _card(c)[0] == r] for r in order}
    out = [ids[:n] for ids in by_rank.values() for n in range(1, len(ids) + 1)]
    quad = [by_rank[r] for r in "Q783"]
    out += [list(choice) for choice in itertools.islice(itertools.product(*quad), 20)]
    return out


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), which=st.integers(0, len(OPTION_SETS) - 1))
def test_q783_legal_plays_match_the_oracle(seed, which):
    options = OPTION_SETS[which]
    rnd = random.Random(seed)
    hand, table_ids = _random_case(rnd, options)
    table_play = oracle_read(table_ids, options) if table_ids else None
    hand_text = cardlib.format_cards(hand)
    table_text = cardlib.format_cards(table_ids) if table_ids else ""
    expected = oracle_moves(hand, table_play, options)
    for name in ("interpreted", "compiled"):
        module = speedups.interpreted("games.q783.hot") if name == "interpreted" else speedups.load("games.q783.hot")
        original, q783.hot = q783.hot, module
        try:
            assert Q783.hint_strings(hand_text, table_text, options) == expected, (name, hand_text, table_text)
        finally:
            q783.hot = original


def test_q783_legal_actions_are_the_hint_strings(twin):
    """LegalActions and ``referee legal`` list the same plays (one action per pure suit under
    pure_suit_order, one string)."""
    rnd = random.Random(8)
    for options in OPTION_SETS:
        for _ in range(20):
            state = Q783.deal(options, bytes([rnd.randrange(256)]) * 4, b"")
            seat = state.to_act[0]
            actions = Q783.legal_actions(state, seat)
            texts = set()
            for action, combo in actions[0:]:
                ranks = "".join(sorted((_card(c)[0] for c in action.cards), key=q783.rank_order(options).index))
                texts.add(ranks + ("*" if combo.kind.startswith("pure") else ""))
            hand = cardlib.format_cards(cardlib.from_mask(state.hands[seat]))
            assert sorted(texts) == Q783.hint_strings(hand, "", options)
