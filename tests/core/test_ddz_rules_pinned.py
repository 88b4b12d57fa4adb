"""Dou Dizhu rules pinned by direct examples, one test per rule a mutant of the core got past
(``make mutate GAME=doudizhu``, tests/mutation): every expected value is worked out by hand from
rules/doudizhu.md and the README's decisions, not computed with the code's helpers.

Rake rounding (rule 18 and the README's decision): the winner gains X x multiplier x N x 0.9
rounded down, so with N = 1 and an odd base the tenth shows; the house keeps what the losers
pay beyond what the winners gain.
"""
import pytest

from referee.core import cards as cardlib
from referee.core.games.doudizhu import rules as doudizhu
from referee.core.games.doudizhu.rules import BID, DOUDIZHU, FINISHED, PLAYING, Options
from referee.core.game import ABANDON, PASS, PLAY, Action
from referee.core.tricks import Trick


def finished(landlord, winner, base, bombs=0, plays=(2, 2, 2), options=Options()):
    """A round over: ``winner`` played out; ``bombs`` bombs or rockets were played."""
    state = DOUDIZHU.deal(options, b"settlement")
    return state._replace(phase=FINISHED, to_act=(), hands=(0, 0, 0), kitty=0, landlord=landlord, base=base,
                          bids=tuple(base if s == landlord else 0 for s in range(3)), bombs=bombs,
                          plays=plays, out=(winner,))


def rake(n):
    return Options(scoring="coins_rake", room_coefficient=n)


# (landlord, winner, base, bombs, N, coins by seat, house): X = 2 x base for the landlord, base
# for a farmer; a loser pays X x multiplier x N, a winner gains X x multiplier x N x 9/10 rounded down
RAKE = [
    # base 1, N 1, the landlord wins: farmers pay 1 each, the landlord gains 2 x 0.9 = 1.8 -> 1
    (0, 0, 1, 0, 1, (1, -1, -1), 1),
    # base 3: farmers pay 3 each, the landlord gains 6 x 0.9 = 5.4 -> 5, the house keeps 1
    (0, 0, 3, 0, 1, (5, -3, -3), 1),
    # base 3, the farmers win: the landlord pays 6, each farmer gains 3 x 0.9 = 2.7 -> 2
    (1, 0, 3, 0, 1, (2, -6, 2), 2),
    # base 1, the farmers win: each gains 0.9 -> 0, the house keeps the landlord's 2
    (2, 0, 1, 0, 1, (0, 0, -2), 2),
    # base 1, one bomb (multiplier 2), the farmers win: the landlord pays 4, each farmer 1.8 -> 1
    (0, 1, 1, 1, 1, (-4, 1, 1), 2),
    # base 3, one bomb, the landlord wins: farmers pay 6 each, the landlord gains 12 x 0.9 = 10.8 -> 10
    (2, 2, 3, 1, 1, (-6, -6, 10), 2),
    # base 3, N 3: farmers pay 9 each, the landlord gains 18 x 0.9 = 16.2 -> 16
    (0, 0, 3, 0, 3, (16, -9, -9), 2),
    # base 1, N 7, the farmers win: the landlord pays 14, each farmer 7 x 0.9 = 6.3 -> 6
    (0, 2, 1, 0, 7, (-14, 6, 6), 2),
    # base 2, three bombs (multiplier 8), N 1, the landlord wins: farmers pay 16, 32 x 0.9 = 28.8 -> 28
    (1, 1, 2, 3, 1, (-16, 28, -16), 4),
    # the seed's example, N 1000: landlord +10800, farmers -6000: nothing to round
    (0, 0, 3, 1, 1000, (10800, -6000, -6000), 1200),
]


@pytest.mark.parametrize("landlord, winner, base, bombs, n, coins, house", RAKE)
def test_ddz_rule_18_rake_rounds_the_winners_gain_down(landlord, winner, base, bombs, n, coins, house):
    settlement = DOUDIZHU.settle(finished(landlord, winner, base, bombs, options=rake(n)))
    assert settlement.seat_values == {"coins": coins}
    assert settlement.values == {"coins_house": house}
    assert all(type(c) is int for c in settlement.seat_values["coins"])
    assert type(settlement.values["coins_house"]) is int


def test_ddz_rule_18_rake_on_a_spring_rounds_after_doubling():
    # base 3, spring (rule 15, multiplier 2), N 1: farmers pay 3 x 2 = 6 each, the landlord gains
    # 6 x 2 x 0.9 = 10.8 -> 10; the house keeps 2
    settlement = DOUDIZHU.settle(finished(0, 0, 3, plays=(3, 0, 0), options=rake(1)))
    assert settlement.seat_values == {"coins": (10, -6, -6)} and settlement.values == {"coins_house": 2}


# --- rule 13: the rocket doubles, by itself --------------------------------------------------------

def position(hands, landlord=0, base=1, options=Options()):
    state = DOUDIZHU.deal(options, b"settlement")
    return state._replace(phase=PLAYING, hands=tuple(cardlib.to_mask(cardlib.parse_cards(h)) for h in hands),
                          kitty=0, bids=tuple(base if s == landlord else 0 for s in range(3)), landlord=landlord,
                          base=base, to_act=(landlord,), trick=Trick(landlord), plays=(1, 1, 1))


def play(state, seat, text):
    return DOUDIZHU.apply(state, Action(seat, PLAY, cardlib.parse_cards(text)))


def test_ddz_rule_13_the_rocket_doubles_the_multiplier():
    # base 1, the rocket the only bomb-like play: multiplier 2, the landlord wins 2 x 1 x 2 = 4
    state = position(("BJ RJ 5S", "4S", "4H"))
    state, events = play(state, 0, "BJ RJ")
    assert [(e.type, e.values) for e in events if e.type == "BOMB"] == [("BOMB", {"multiplier": 2})]
    assert DOUDIZHU.view(state, 0).counters["multiplier"] == 2
    for seat in (1, 2):
        state, _ = DOUDIZHU.apply(state, Action(seat, PASS))
    state, _ = play(state, 0, "5S")
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (4, -2, -2)
    assert dict(settlement.breakdown)["multiplier"] == 2


def test_ddz_rule_13_a_farmers_rocket_doubles_the_landlords_loss():
    # base 3, a farmer plays the rocket out: multiplier 2, the landlord (two hands played: no
    # anti-spring) loses 2 x 3 x 2 = 12, each farmer gains 6
    state = position(("3S 4S", "BJ RJ", "5S"))._replace(to_act=(1,), trick=Trick(1), plays=(2, 1, 1))
    state, events = play(state, 1, "BJ RJ")
    assert [e.values for e in events if e.type == "BOMB"] == [{"multiplier": 2}]
    settlement = DOUDIZHU.settle(state._replace(base=3))
    assert settlement.points == (-12, 6, 6)


# --- the combination table: chain lengths (a hand given to `referee legal` or Classify may hold
# more cards than a player's 20) ---------------------------------------------------------------

def test_ddz_table_a_trio_straight_is_two_to_six_trios():
    seven = "333444555666777888999"
    assert DOUDIZHU.classify(seven, Options()) == []
    moves = doudizhu.legal_rank_strings(seven, "")
    assert "333444555666777888" in moves and "444555666777888999" in moves  # six trios
    assert seven not in moves  # nor any other 21 cards: 4 x 5 + 1, 5 x 4 + 1
    assert max(len(m) for m in moves) == 20


def test_ddz_table_a_pair_straight_is_three_to_ten_pairs():
    eleven = "33445566778899TTJJQQKK"
    assert DOUDIZHU.classify(eleven, Options()) == []
    moves = doudizhu.legal_rank_strings(eleven, "")
    assert "33445566778899TTJJQQ" in moves and "445566778899TTJJQQKK" in moves and eleven not in moves


def test_ddz_table_a_straight_is_five_to_twelve_cards_from_3_to_a():
    moves = doudizhu.legal_rank_strings("3456789TJQKA2", "")
    assert "3456789TJQKA" in moves and "456789TJQKA2" not in moves
    assert [m for m in moves if len(m) == 12] == ["3456789TJQKA"]


# --- views (rule 7): roles and teams only once the landlord is known ------------------------------

def test_ddz_rule_7_no_role_or_team_while_bidding():
    state = DOUDIZHU.deal(Options(first_bidder=0), b"pinned")
    state, _ = DOUDIZHU.apply(state, Action(0, BID, value=1))
    for viewer in (-1, 0, 1, 2):
        assert [(s.role, s.team) for s in DOUDIZHU.view(state, viewer).seats] == [("", -1)] * 3
    state, _ = DOUDIZHU.apply(state, Action(1, PASS))
    state, _ = DOUDIZHU.apply(state, Action(2, PASS))
    assert [(s.role, s.team) for s in DOUDIZHU.view(state, 2).seats] == [("landlord", 0), ("farmer", 1),
                                                                        ("farmer", 1)]


# --- rule 12: `referee legal` reads cards with suits (the fast text path of the hot module) -------

def test_ddz_rule_12_the_text_path_reads_every_card_of_the_deck(hot):
    deck = "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C " \
           "10S 10H 10D 10C JS JH JD JC QS QH QD QC KS KH KD KC AS AH AD AC 2S 2H 2D 2C BJ RJ"
    every_rank = sum(4 << (3 * r) for r in range(13)) + (1 << 39) + (1 << 42)  # 3 bits a rank
    assert hot.text_counts(deck) == every_rank
    assert hot.text_counts("3C BJ") == (1 << 0) + (1 << 39) and hot.text_counts("4C RJ") == (1 << 3) + (1 << 42)


# --- rule 15: spring and anti-spring count the hands each seat played, from none at the deal ------

def test_ddz_rule_15_no_seat_has_played_at_the_deal():
    state = DOUDIZHU.deal(Options(first_bidder=1), b"pinned")
    assert [s.counters["plays"] for s in DOUDIZHU.view(state, 0).seats] == [0, 0, 0]
    for action in (Action(1, BID, value=3),):
        state, _ = DOUDIZHU.apply(state, action)
    assert [s.counters["plays"] for s in DOUDIZHU.view(state, 0).seats] == [0, 0, 0]
    lowest = min(cardlib.from_mask(state.hands[1]))
    state, _ = DOUDIZHU.apply(state, Action(1, PLAY, (lowest,)))
    assert [s.counters["plays"] for s in DOUDIZHU.view(state, 0).seats] == [0, 1, 0]


# --- rule 10: a play that does not beat the table is refused, naming the table --------------------

def test_ddz_rule_10_the_refusal_names_the_play_to_beat():
    state = position(("3S", "5S 5H", "4S"))._replace(to_act=(2,), trick=Trick(0, doudizhu.choose_reading(
        doudizhu.classify(doudizhu.parse_hand("7")), 0)[0], 0))
    verdict = DOUDIZHU.check(state, Action(2, PLAY, cardlib.parse_cards("4S")))
    assert verdict.reason == "DOES_NOT_BEAT" and verdict.message == "4S does not beat 7"


# --- rule 16: an escape in points mode moves no coins -------------------------------------------

def test_ddz_rule_16_an_escape_in_points_mode_has_no_coins():
    state = DOUDIZHU.deal(Options(first_bidder=0), b"pinned")
    state, _ = DOUDIZHU.apply(state, Action(0, BID, value=2))
    state, _ = DOUDIZHU.apply(state, Action(2, ABANDON))
    settlement = DOUDIZHU.settle(state)
    assert settlement.points == (0, 0, -6) and settlement.house == 6  # 2 x 1 x 3
    assert settlement.seat_values == {} and settlement.values == {} and state.options.scoring == "points"


# --- rule 6: the first bidder option is a seat, 0-2, or -1 (drawn) --------------------------------

@pytest.mark.parametrize("first", [-1, 0, 1, 2])
def test_ddz_rule_6_first_bidder_option_takes_every_seat(first):
    assert DOUDIZHU.make_options("", {"first_bidder": first}).first_bidder == first


@pytest.mark.parametrize("first", [-2, 3])
def test_ddz_rule_6_first_bidder_option_refuses_other_seats(first):
    with pytest.raises(doudizhu.InvalidAction) as error:
        DOUDIZHU.make_options("", {"first_bidder": first})
    assert error.value.reason == "BAD_OPTION"


# --- rule 16: an escape ends the round with a table-wide FINISH ------------------------------------

def test_ddz_rule_16_an_escape_finishes_the_round_for_the_whole_table():
    state = DOUDIZHU.deal(Options(first_bidder=0), b"pinned")
    state, events = DOUDIZHU.apply(state, Action(1, ABANDON))
    assert [(e.type, e.seat, e.values) for e in events] == [("ABANDON", 1, {}), ("FINISH", -1, {"abandoned": 1})]


# --- rule 12: hints carry the reading of their cards (chain 1 for a set) ----------------------------

def test_ddz_rule_12_each_hint_is_read_as_classify_reads_its_cards():
    state = position(("3S 3H 3D 3C 4S 4H 5S 6S 7S 8S BJ RJ", "9S", "9H"))
    hints = DOUDIZHU.legal_actions(state, 0)
    assert hints
    for action, combo in hints:
        text = cardlib.format_ranks(cardlib.ranks_of(action.cards))
        readings = {(c.kind, c.main_rank, c.chain, c.size) for c in DOUDIZHU.classify(text, Options())}
        assert (combo.kind, combo.main_rank, combo.chain, combo.size) in readings, text
    sets = [combo for _, combo in hints if combo.kind in ("single", "pair", "trio", "bomb", "rocket")]
    assert sets and all(combo.chain == 1 for combo in sets)


# --- rule 12: how `referee legal` reads a text -----------------------------------------------------

@pytest.mark.parametrize("text, ranks", [("BK", "KB"), ("bk", "KB"), ("RK", "KR"), ("3BK", "3KB")])
def test_ddz_rule_12_a_rank_string_with_a_joker_and_a_king_is_two_cards(text, ranks):
    # B and R are the jokers' ranks, BJ and RJ their cards: BK is the small joker and a king
    assert doudizhu.legal_rank_strings(text, "") == sorted({ranks[i] for i in range(len(ranks))},
                                                           key="3456789TJQKA2BR".index)


def test_ddz_rule_12_the_text_path_reads_leading_and_doubled_separators(hot):
    expected = (1 << 0) + (1 << 3) + (1 << 39)  # 3, 4, the small joker
    for text in (" 3S 4H BJ", ",3S,,4H BJ", "  3S  4H  BJ  ", " 34B", ",3,4,B"):
        assert hot.text_counts(text) == expected, text


def test_ddz_rule_12_the_json_answer_refuses_an_unknown_card():
    with pytest.raises(doudizhu.InvalidAction) as error:
        doudizhu.legal_moves_json("3X", "")
    assert error.value.reason == "UNKNOWN_CARD"
    assert doudizhu.legal_moves_json("3S 3H", "") == '{"moves": ["3", "33"]}'


@pytest.mark.parametrize("text, reason", [
    ("3:", "UNKNOWN_CARD"), ("3/", "UNKNOWN_CARD"), ("3@", "UNKNOWN_CARD"), ("3[", "UNKNOWN_CARD"),
    ("3`", "UNKNOWN_CARD"), ("3{", "UNKNOWN_CARD"),  # the characters next to the rank characters
    ("BS", "UNKNOWN_CARD"), ("RD 3H", "UNKNOWN_CARD"),  # a joker has no suit
    ("BJ BJ", "DUPLICATE_CARD"), ("rj RJ", "DUPLICATE_CARD"),  # one deck: one card of each joker
    ("3H 3H", "DUPLICATE_CARD"), ("AC 5D AC", "DUPLICATE_CARD"),  # one deck: every card once
    ("CJ", "UNKNOWN_CARD"), ("SJ 3S", "UNKNOWN_CARD"),  # BJ and RJ are the jokers, no other letter
])
def test_ddz_rule_12_texts_that_are_no_hand_are_refused(hot, text, reason):
    assert hot.text_counts(text) == -1  # the fast path leaves them to the reference, whose error it is
    with pytest.raises(doudizhu.InvalidAction) as error:
        doudizhu.legal_rank_strings(text, "")
    assert error.value.reason == reason


# --- rule 11e: single wings, at most three of a rank ------------------------------------------------

def test_ddz_rule_11e_four_wings_of_one_rank_are_no_airplane():
    # 3456 + 7777: the body of four trios wants four wings, but four 7s are one rank too many
    assert "3334445556667777" not in doudizhu.legal_rank_strings("3334445556667777", "")
    assert DOUDIZHU.classify("3334445556667777", Options()) == []
    assert "3334445556667779" in doudizhu.legal_rank_strings("3334445556667779", "")  # three 7s may


# --- rule 11i: the edges of the airplane readings ------------------------------------------------------

def test_ddz_rule_11i_an_airplane_up_to_the_ace_with_three_2s_as_wings():
    # QKA + 222: no body may hold the 2, so this is the only reading, and it is a legal lead
    assert "QQQKKKAAA222" in doudizhu.legal_rank_strings("QQQKKKAAA222", "")
    assert [(c.kind, c.main_rank) for c in DOUDIZHU.classify("QQQKKKAAA222", Options())] == \
        [("airplane_singles", 11)]


def test_ddz_rule_12_a_multiset_with_several_readings_is_listed_once_up_to_the_ace():
    # JQKA as a trio straight, JQK + AAA and QKA + JJJ as airplanes: one multiset, one hint
    moves = doudizhu.legal_rank_strings("JJJQQQKKKAAA", "")
    assert moves.count("JJJQQQKKKAAA") == 1 and len(moves) == len(set(moves))


def test_ddz_rule_11i_a_table_read_as_led_takes_the_higher_of_two_airplanes():
    # 3334445556667779 is 3456 + 7779 (main 6) or 4567 + 3339 (main 7), bodies of 12 both:
    # read as led it is the one with the higher main, 7, which 4567 + 889T does not beat
    table = "3334445556667779"
    assert doudizhu.legal_rank_strings("444555666777889T", table) == []
    assert doudizhu.legal_rank_strings("335556667778889T", table) == ["335556667778889T"]  # 5678: main 8


# --- rule 10: answers to chains longer than the shortest ----------------------------------------------

@pytest.mark.parametrize("hand, table, count", [
    # straights of 7 ending above 9: 456789T 56789TJ 6789TJQ 789TJQK 89TJQKA
    ("3456789TJQKA", "3456789", 5),
    # pair straights of 3 ending above 5: 445566 556677 667788 778899
    ("33445566778899", "334455", 4),
    # pair straights of 4 ending above 6: 44556677 55667788 66778899
    ("33445566778899", "33445566", 3),
    # trio straights of 3 ending above 5: 444555666 555666777
    ("333444555666777", "333444555", 2),
])
def test_ddz_rule_10_a_chain_is_answered_by_a_chain_as_long(hand, table, count):
    moves = doudizhu.legal_rank_strings(hand, table)
    assert len(moves) == count and all(len(m) == len(table) for m in moves)


# --- options: the ranges of the README ---------------------------------------------------------------

@pytest.mark.parametrize("name, lowest, highest", [("room_coefficient", 1, 1_000_000), ("room_fee", 0, 1_000_000)])
def test_ddz_coin_options_take_their_whole_range(name, lowest, highest):
    for value in (lowest, highest):
        assert getattr(DOUDIZHU.make_options("", {name: value}), name) == value
    for value in (lowest - 1, highest + 1):
        with pytest.raises(doudizhu.InvalidAction):
            DOUDIZHU.make_options("", {name: value})


# --- errors echo at most 40 characters of the caller's input (README, trust model) ---------------

def test_ddz_compare_echoes_at_most_40_characters():
    text = "3S 4S 6S 8S TS QS AS 3H 5H 7H 9H JH KH 2H 4D"  # 45 characters, no combination
    for a, b in ((text, "3"), ("3", text)):
        with pytest.raises(doudizhu.InvalidAction) as error:
            DOUDIZHU.compare(a, b, Options())
        assert repr(text[:40]) in str(error.value) and text[:41] not in str(error.value)


# --- the combination table: airplanes of two to six trios, never through the 2 ----------------------

def test_ddz_table_an_airplane_has_two_to_six_trios():
    six = "333444555666777888" + "9TJQKA"  # six trios and six wings: 24 cards (a `referee legal` hand)
    assert "333444555666777888" + "9TJQKA" in doudizhu.legal_rank_strings(six, "")
    assert [c.kind for c in DOUDIZHU.classify(six, Options())] == ["airplane_singles"]
    seven = "333444555666777888999" + "TJQKA2B"  # seven trios and seven wings: 28 cards
    moves = doudizhu.legal_rank_strings(seven, "")
    assert seven not in moves and max(len(m) for m in moves) == 24
    assert DOUDIZHU.classify(seven, Options()) == []


def test_ddz_rule_11g_no_airplane_body_holds_the_2():
    moves = doudizhu.legal_rank_strings("AAA22234", "")
    assert "34AAA222" not in moves and "AAA222" not in moves
    assert doudizhu.legal_rank_strings("KKKAAA222345", "").count("345KKKAAA222") == 0


# --- rule 11i: a table named by its reading, in the JSON answer too ---------------------------------

def test_ddz_rule_11i_the_json_answer_reads_the_table_as_named():
    hand = "4445556667778"
    assert doudizhu.legal_moves_json(hand, "333444555666", last_kind="airplane_singles") == \
        '{"moves": ["444555666777", "445556667778"]}'
    assert doudizhu.legal_moves_json(hand, "333444555666", last_kind="trio_straight") == \
        '{"moves": ["444555666777"]}'


# --- a state token's bytes: what is no packed state is refused ---------------------------------------

def test_ddz_unpack_refuses_what_pack_never_writes():
    import marshal

    state = DOUDIZHU.deal(Options(first_bidder=0), b"pinned")
    packed = DOUDIZHU.pack(state)
    # the version byte 2, then marshal format 2 of the fields in declared order, records flattened
    assert packed[0] == 2
    values = marshal.loads(packed[1:])
    assert values == ((False, "points", 1, 0, 0), b"pinned", b"", (0, (0, 0, 0), None, 0), 0, 0, state.hands,
                      state.kitty, 0, (-1, -1, -1), (0,), ((0, 0, -1, 0), (1, 0, -1, 0), (2, 0, -1, 0)), -1, 0, 0,
                      (-1, 0, -1, 0, 0, 0), 0, (0, 0, 0), (), -1, 0)
    assert len(values) == len(doudizhu.State._fields)
    assert packed == b"\x02" + marshal.dumps(values, 2)
    assert DOUDIZHU.unpack(packed) == state

    def with_field(name, value):
        i = doudizhu.State._fields.index(name)
        return values[:i] + (value,) + values[i + 1:]

    def refused(data, check=False):
        with pytest.raises(doudizhu.InvalidAction) as error:
            DOUDIZHU.codec.unpack(data, check=check)
        assert error.value.reason == "STATE_TOKEN_INVALID"

    # no state's shape: a list, a field short or over, a record short or not a tuple
    for bad in (list(values), values[:-1], values + (0,), with_field("trick", list(values[15])),
                with_field("trick", values[15][:5]), with_field("match", values[3][:3]),
                with_field("options", values[0][:4]), with_field("asking", ((0, 0, -1),))):
        refused(b"\x02" + marshal.dumps(bad, 2))
    refused(b"\x03" + packed[1:])  # a version no release wrote
    refused(packed[1:])  # no version byte: the release format, whose layout has no ``asking``
    refused(packed[:-1])
    # checked against the declarations: more per-seat entries than seats, a phase out of range
    for bad in (with_field("hands", values[6] + (0,)), with_field("bids", (-1,) * 4),
                with_field("plays", (0,) * 4), with_field("phase", 3)):
        refused(b"\x02" + marshal.dumps(bad, 2), check=True)


# --- rule 16: the escape penalty is base x multiplier x 3 from a bid of 1 --------------------------

def test_ddz_rule_16_an_escape_after_a_bid_of_1_and_a_bomb_costs_6():
    state = position(("5S", "4S", "6S"), base=1)._replace(bombs=1)
    state, _ = DOUDIZHU.apply(state, Action(1, ABANDON))
    assert DOUDIZHU.settle(state).points == (0, -6, 0)  # 1 x 2 x 3


# --- rule 12: the JSON answer of a long list of long plays -------------------------------------------

def test_ddz_rule_12_the_json_answer_holds_seven_plays_of_thirty_cards():
    # 456789 + six pairs of {3, T, J, Q, K, A, 2} (the 333 gives a pair: 3 is no body rank): 7 plays
    hand = "333444555666777888999TTJJQQKKAA22"
    table = "333444555666777888TTJJQQKKAA22"  # airplane of 345678 + six pairs, main 8
    moves = doudizhu.legal_rank_strings(hand, table)
    assert len(moves) == 7 and all(len(m) == 30 for m in moves)
    import json

    assert json.loads(doudizhu.legal_moves_json(hand, table)) == {"moves": moves}


# --- the errors say what was read -------------------------------------------------------------------

def test_ddz_rule_11i_a_named_reading_that_does_not_fit_says_so():
    with pytest.raises(doudizhu.InvalidAction) as error:
        doudizhu.legal_rank_strings("3", "34", last_kind="pair")
    assert str(error.value).endswith("is not a combination read as pair")
    with pytest.raises(doudizhu.InvalidAction) as error:
        doudizhu.legal_rank_strings("3", "34")
    assert str(error.value).endswith("is not a combination")


def test_ddz_rule_5_an_old_bidding_state_asks_the_seats_that_have_not_bid_in_turn():
    """Legacy tokens (before the asking queue): the seats still to bid are those whose bid is -1,
    in turn from the first bidder; outside bidding nobody."""
    from referee.core.games.doudizhu import rules as ddz

    asked = ddz._bids_to_ask(1, (-1, 3, -1), ddz.BIDDING)
    assert [a[0] for a in asked] == [2, 0]
    assert [a[0] for a in ddz._bids_to_ask(0, (-1, -1, -1), ddz.BIDDING)] == [0, 1, 2]
    assert ddz._bids_to_ask(0, (-1, -1, -1), ddz.BIDDING + 1) == ()
