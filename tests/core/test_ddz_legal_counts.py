"""Perft-style legal-move counts (spec rules 8, 10-12) and a brute-force oracle.

Each fixed count is derived by hand in its comment. The oracle enumerates every sub-multiset of
the hand, classifies it with the spec classifier written below from rules/doudizhu.md (the
combination table and rules 10-11, nothing of the code under test) and keeps it when some
reading beats the table (any reading on a free lead, rule 11i); the generator
(``legal_rank_strings``, ``legal_plays``) must agree with it as a set of rank strings and list
each multiset once (rule 12). Every test runs on both twins of the hot path (fixture ``hot``).
"""
import functools
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.games.doudizhu import rules as doudizhu
from referee.core.cards import format_ranks
from referee.core.games.doudizhu.rules import Options

ROCKET_KICKERS = Options(rocket_as_kickers=True)

# (hand, last played; "" is a free lead, expected count, options)
COUNTS = [
    # singles 3, 4 (2) + pair 33 (1) + trio 333 (1) + trio+single 3334 (1) = 5
    ("3334", "", 5, Options()),
    # singles 7 + straights of 5: 34567 45678 56789 (3), of 6: 2, of 7: 1 = 13
    ("3456789", "", 13, Options()),
    # singles 5 B R (3) + pair 55 + trio 555 + bomb 5555 (3) + trio+single 555B 555R (2)
    # + rocket BR (1) = 9; 5555+BR is no four+two by default (rule 11b)
    ("5555BR", "", 9, Options()),
    # ... and 10 when the rocket may be kickers: + four+two singles 5555BR
    ("5555BR", "", 10, ROCKET_KICKERS),
    # singles 3 4 5 (3) + pairs 33 44 55 (3) + trios 333 444 (2)
    # + trio+single 333+4|5, 444+3|5 (4) + trio+pair 333+44|55, 444+33|55 (4)
    # + trio straight 333444 (1) + pair straight 334455 (1) + airplane 333444+55 (1) = 19
    ("33344455", "", 19, Options()),
    # singles 4 + pairs 4 + trios 4 + trio straights 34 45 56 345 456 3456 (6)
    # + trio+single 4 trios x 3 other ranks (12) + trio+pair 4 x 3 (12)
    # + airplane+singles of 2: 3 bodies x {aa, ab, bb} of the 2 other ranks (9)
    # + airplane+pairs of 2: 3 bodies x 1 (3) + pair straights 345 456 3456 (3) = 57;
    # 345+666 and 456+333 are the multiset of the trio straight 3456, listed once (rules 11i, 12)
    ("333444555666", "", 57, Options()),
    # the issue's example: pairs above 44: TT 22 (33 is lower); no bomb; rocket BR = 3
    ("3334569TTJQKA22BR", "44", 3, Options()),
    # a 20-card hand on the airplane 333444+56 (main 4): bodies of two trios above 4:
    # 56 67 78 (3). For each body the other ranks hold two trios, a pair (99) and six
    # singles (T J Q K A 2): wings = a pair of one rank (3 ranks with >= 2 cards)
    # + two different ranks C(9, 2) = 36, so 39 a body: 3 x 39 = 117; no bomb, no rocket
    ("55566677788899TJQKA2", "33344456", 117, Options()),
    # four+two singles on 3333+45: 4444 + two of {5555, 6, 7} (55 56 57 67: 4),
    # 5555 + two of {4444, 6, 7} (4), + bombs 4444 5555 (2) = 10
    ("4444555567", "333345", 10, Options()),
    # straights of 5 ending above 7: 45678 .. TJQKA (7) + rocket (1) = 8
    ("3456789TJQKA2BR", "34567", 8, Options()),
    # trio+pair on 33344: 444 + 55|66|77, 555 + 44|66|77 = 6
    ("4445556677", "33344", 6, Options()),
    # on the bomb 2222 only the rocket: 1; on the rocket nothing: 0
    ("33334444BR", "2222", 1, Options()),
    ("33334444BR", "BR", 0, Options()),
]


# --- the spec classifier (rules/doudizhu.md) ----------------------------------------------------
# ranks 0..14 = 3 4 5 6 7 8 9 T J Q K A 2, small joker, big joker; a reading is (kind, main rank,
# number of cards): rule 10 compares the kind, the number of cards and the main rank only

ACE, SMALL, BIG = 11, 13, 14
RANKS = "3456789TJQKA2BR"
CHAINS = {1: ("straight", 5, 12), 2: ("pair_straight", 3, 10), 3: ("trio_straight", 2, 6)}  # the table
BODY = {"single": 1, "pair": 2, "trio": 3, "bomb": 4, "rocket": 2, "trio_single": 3, "trio_pair": 3,
        "four_two_singles": 4, "four_two_pairs": 4}


def runs(counts, width, links):
    """The highest rank of every ``links`` consecutive ranks within 3..A (rule 11g: no 2, no joker)
    holding exactly ``width`` cards each."""
    return [low + links - 1 for low in range(0, ACE - links + 2)
            if all(counts[r] == width for r in range(low, low + links))]


def singles_ok(rest, rocket_kickers):
    """Single kickers (rules 11b, 11e): no rank more than three times, the two jokers only when allowed."""
    return max(rest) <= 3 and (rocket_kickers or not (rest[SMALL] and rest[BIG]))


def pairs_of(rest):
    """How many pairs ``rest`` is when it is only pairs of different ranks (rules 11d, 11f), else 0;
    the two jokers are no pair."""
    held = [c for c in rest if c]
    return len(held) if all(c == 2 for c in held) and not (rest[SMALL] or rest[BIG]) else 0


@functools.lru_cache(maxsize=1 << 18)
def spec_readings(counts, rocket_kickers=False):
    """Every reading of a rank multiset (a tuple of 15 counts) by the combination table and rule 11."""
    total, held = sum(counts), [r for r, c in enumerate(counts) if c]
    if held == [SMALL, BIG] and total == 2:
        return frozenset({("rocket", BIG, 2)})
    if len(held) == 1:
        return frozenset({({1: "single", 2: "pair", 3: "trio", 4: "bomb"}[total], held[0], total)})
    found = set()
    if total in (4, 5, 6, 8):  # a trio or a four with kickers
        for r in held:
            rest = counts[:r] + (0,) + counts[r + 1:]  # rule 11a: no kicker of the body's rank
            if counts[r] == 3 and total == 4:
                found.add(("trio_single", r, 4))
            elif counts[r] == 3 and total == 5 and pairs_of(rest) == 1:
                found.add(("trio_pair", r, 5))
            elif counts[r] == 4 and total == 6 and singles_ok(rest, rocket_kickers):
                found.add(("four_two_singles", r, 6))  # rule 11c: the two may be a pair
            elif counts[r] == 4 and total == 8 and pairs_of(rest) == 2:
                found.add(("four_two_pairs", r, 8))
    for width, (kind, shortest, longest) in CHAINS.items():
        if total % width == 0 and shortest <= total // width <= longest:
            found.update((kind, high, total) for high in runs(counts, width, total // width))
    for links in range(2, 7):  # airplanes: a trio straight of n (2-6) and n wings
        if total not in (4 * links, 5 * links):
            continue
        for high in runs(counts, 3, links):
            rest = tuple(0 if high - links < r <= high else c for r, c in enumerate(counts))
            if total == 4 * links and singles_ok(rest, rocket_kickers):
                found.add(("airplane_singles", high, total))
            if total == 5 * links and pairs_of(rest) == links:
                found.add(("airplane_pairs", high, total))
    return frozenset(found)


def spec_beats(reading, table):
    """Rule 10: the rocket beats everything (and nothing beats it), a bomb every non-bomb and lower
    bombs; otherwise the same kind and number of cards with a higher main rank. ``table`` None:
    a free lead."""
    kind, main, size = reading
    if table is None:
        return True
    if table[0] == "rocket" or kind == "rocket":
        return kind == "rocket" and table[0] != "rocket"
    if kind == "bomb" and table[0] != "bomb":
        return True
    return (kind, size) == (table[0], table[2]) and main > table[1]


def spec_led_reading(text):
    """Rule 11i: a play on the table is read as when led: the largest body, then the highest main."""
    readings = spec_readings(tuple(rank_counts(text)))
    assert readings, text
    return max(readings, key=lambda reading: (BODY.get(reading[0], reading[2] if "airplane" not in reading[0]
                                                       else reading[2] * 3 // (4 if "singles" in reading[0] else 5)),
                                              reading[1]))


def rank_counts(text):
    counts = [0] * 15
    for char in text:
        counts[RANKS.index(char)] += 1
    return counts


def table_of(hot, play):
    """A packed play the generator made, as the spec reading a hand must answer; None: a lead."""
    if not play:
        return None
    return hot.KIND_NAMES[hot.play_kind(play)], hot.play_main(play), hot.card_total(hot.play_counts(play))


def oracle(hot, hand_text, last_text, options=Options()):
    """Rank strings of every sub-multiset of the hand (a rank string) that may be played on
    ``last_text`` (a rank string read as when led; empty: a free lead)."""
    table = spec_led_reading(last_text) if last_text else None
    packed = sum(c << (3 * r) for r, c in enumerate(rank_counts(hand_text)))
    return oracle_counts(packed, [table], options.rocket_as_kickers)[table]


def oracle_counts(hand, tables, rocket_kickers):
    """For each table (a spec reading, None for a free lead), the rank strings of the hand's
    sub-multisets with a reading that beats it."""
    counts = [(hand >> (3 * r)) & 7 for r in range(15)]
    found = {table: set() for table in tables}
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if not any(sub):
            continue
        readings = spec_readings(sub, rocket_kickers)
        if not readings:
            continue
        text = format_ranks(r for r, c in enumerate(sub) for _ in range(c))
        for table in tables:
            if any(spec_beats(reading, table) for reading in readings):
                found[table].add(text)
    return found


def generated(hot, hand, table, rocket_kickers):
    plays = doudizhu.legal_plays(hand, table, Options(rocket_as_kickers=rocket_kickers))
    texts = [doudizhu.format_play(p) for p in plays]
    assert len(texts) == len(set(texts)), "rule 12: each multiset once"
    assert plays == sorted(plays)
    return set(texts)


@pytest.mark.parametrize("hand, last, count, options", COUNTS,
                         ids=[f"{h}-on-{t or 'lead'}{'-rk' if o.rocket_as_kickers else ''}"
                              for h, t, _, o in COUNTS])
def test_ddz_rule_12_legal_counts(hot, hand, last, count, options):
    strings = doudizhu.legal_rank_strings(hand, last, options)
    assert len(strings) == count
    assert len(set(strings)) == count
    assert strings == sorted(strings, key=lambda s: [doudizhu.cardlib.RANK_CHARS.index(c) for c in s])
    assert set(strings) == oracle(hot, hand, last, options)
    table = 0
    if last:
        table, _ = doudizhu.choose_reading(doudizhu.classify(doudizhu.parse_hand(last), options), 0)
    assert generated(hot, doudizhu.parse_hand(hand), table, options.rocket_as_kickers) == set(strings)


def test_ddz_rule_12_issue_example(hot):
    assert doudizhu.legal_rank_strings("3334569TTJQKA22BR", "44") == ["TT", "22", "BR"]


def test_ddz_rule_11i_last_play_read_as_when_led(hot):
    # 333444555666 on the table is the trio chain 3456 (largest body), so 444555666777 beats
    # it as a trio chain while 3333 (a bomb) and the rocket always do
    assert doudizhu.legal_rank_strings("444555666777BR", "333444555666") == ["444555666777", "BR"]


def test_ddz_rule_11i_last_play_read_as_its_named_kind(hot):
    # read as an airplane, 333444555666 is 456 + 333 (main 6): body 567 with wings 444 or 448
    # beats it (2); read as the trio chain 3456, only the chain 4567 does (1)
    hand = "4445556667778"
    assert doudizhu.legal_rank_strings(hand, "333444555666", last_kind="airplane_singles") \
        == ["444555666777", "445556667778"]
    assert doudizhu.legal_rank_strings(hand, "333444555666", last_kind="trio_straight") \
        == ["444555666777"]
    assert doudizhu.legal_rank_strings(hand, "333444555666") == ["444555666777"]
    with pytest.raises(doudizhu.InvalidAction) as error:
        doudizhu.legal_rank_strings("444555666777", "333444555666", last_kind="bomb")
    assert error.value.reason == doudizhu.DECLARED_READING_INVALID


def test_ddz_rule_12_last_play_must_be_a_combination():
    with pytest.raises(doudizhu.InvalidAction) as error:
        doudizhu.legal_rank_strings("3334", "34")
    assert error.value.reason == doudizhu.Reason.NOT_A_COMBINATION


# 20-card hands with long chains, airplanes with trio wings next to the body, bombs and jokers
AIRPLANE_SINGLES = doudizhu.Kind.AIRPLANE_SINGLES
RICH_HANDS = ["333444555666777889TJ", "3334445556667778BR22", "33445566778899TTJJQQ",
              "3333444455556666BR2A"]


@pytest.mark.parametrize("hand", RICH_HANDS)
def test_ddz_rule_11i_generator_matches_oracle_on_rich_hands(hot, hand):
    packed = doudizhu.parse_hand(hand)
    tables = [0] + [p for p in doudizhu.legal_plays(packed, 0)
                    if hot.play_kind(p) >= AIRPLANE_SINGLES][::7][:12]
    for rocket_kickers in (False, True):
        expected = oracle_counts(packed, [table_of(hot, t) for t in tables], rocket_kickers)
        for table in tables:
            assert generated(hot, packed, table, rocket_kickers) == expected[table_of(hot, table)], \
                doudizhu.format_play(table) if table else "lead"


DECK_RANKS = [r for r in range(13) for _ in range(4)] + [13, 14]
hands = st.lists(st.sampled_from(range(54)), min_size=8, max_size=20, unique=True)


def packed_hand(cards):
    return sum(1 << (3 * DECK_RANKS[c]) for c in cards)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # the twin is fixed per run
@given(hands, hands, st.booleans(), st.randoms(use_true_random=False))
def test_ddz_rule_12_generator_matches_oracle_on_random_hands(hot, cards, other, rocket_kickers, rnd):
    hand = packed_hand(cards)
    candidates = hot.legal_plays(packed_hand(other), 0, rocket_kickers)
    tables = [0] + rnd.sample(candidates, min(6, len(candidates)))
    expected = oracle_counts(hand, [table_of(hot, t) for t in tables], rocket_kickers)
    for table in tables:
        assert generated(hot, hand, table, rocket_kickers) == expected[table_of(hot, table)]
