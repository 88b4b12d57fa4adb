"""比大小 (bidaxiao) rules pinned by direct examples, one test per rule a mutant of the core got
past (``tests/mutation/mutate.py run --game bidaxiao``): every expected value is worked out by
hand from rules/small-games.md rules 1-4, the README's "four children's games" section (options,
presets, decisions) and the API's documented conventions (state.proto: a view's ``table_seat``
and an event's ``seat`` are -1 when none), never computed with the game's own helpers.

Card ids (core/cards.py): suit * 13 + rank, suits S H D C, ranks 3 4 5 6 7 8 9 T J Q K A 2; so
3S is card 0 and 4S card 1.
"""
import pytest

from referee.core import cards, rng
from referee.core.games.bidaxiao.rules import BIDAXIAO, Options, resolve_round
from referee.core.decisions import Window
from referee.core.errors import InvalidAction, Reason
from referee.core.game import ABANDON, PLAY, Action

from test_bidaxiao import play_round  # every asked seat plays its card

G = BIDAXIAO


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def position(hands: list[str], options: Options = Options()):
    """A fresh round (dealt by the game) with these hands, every seat holding cards asked."""
    state = G.deal(options, b"pinned", b"", len(hands))
    masks = tuple(cards.to_mask(ids(h)) for h in hands)
    window = Window.open(s for s, m in enumerate(masks) if m)
    return state._replace(hands=masks, window=window, to_act=window.awaiting())




def played(state) -> list[tuple[int, ...]]:
    return [sv.cards["played"] for sv in G.view(state, -1).seats]


def test_the_card_ids_the_examples_use():
    assert ids("3S 4S") == (0, 1)


# --- rule 1: hand size, seats, presets ----------------------------------------------------------

@pytest.mark.parametrize("seats", [0, 2, 3, 4])
def test_bidaxiao_rule_1_the_default_deal_gives_each_seat_10_cards(seats):
    state = G.deal(G.make_options(), b"rule 1 default", b"", seats)
    assert [h.bit_count() for h in state.hands] == [10] * (seats or 2)  # default 2 seats (README)


@pytest.mark.parametrize("hand_size", [8, 10])
def test_bidaxiao_rule_1_a_hand_size_from_8_to_10_is_allowed(hand_size):
    state = G.deal(G.make_options("", {"hand_size": hand_size}), b"rule 1 bounds", b"", 4)
    assert [h.bit_count() for h in state.hands] == [hand_size] * 4


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bidaxiao_rule_1_the_short_preset_deals_8_cards(seats):
    state = G.deal(G.make_options("short"), b"rule 1 short", b"", seats)
    assert [h.bit_count() for h in state.hands] == [8] * seats


def test_bidaxiao_rule_1_the_jokers_ace_high_preset_deals_from_all_54_cards():
    # rule 1 with `jokers`: the deck is range(54), shuffled on the stream "deal", card i to seat i mod n
    options = G.make_options("jokers_ace_high")
    for n in range(8):
        seed = b"preset %d" % n
        state = G.deal(options, seed, b"", 4)
        deck = rng.Stream(rng.deal_key(seed, b""), "deal").shuffle(range(54))
        assert [cards.from_mask(h) for h in state.hands] == [tuple(sorted(deck[s:40:4])) for s in range(4)]


def test_bidaxiao_rule_3_the_jokers_ace_high_preset_puts_the_ace_above_the_king_below_the_jokers():
    options = G.make_options("jokers_ace_high")
    state, _ = play_round(position(["AS 3H", "KC 9D"], options), "AS", "KC")
    assert cards.from_mask(state.hands[0]) == tuple(sorted(ids("3H KC AS")))  # A (14) takes K (13)
    state, _ = play_round(position(["AS 3H", "BJ 9D"], options), "AS", "BJ")
    assert cards.from_mask(state.hands[1]) == tuple(sorted(ids("9D AS BJ")))  # small joker (15) takes A (14)


def test_bidaxiao_rule_3_resolve_round_counts_the_ace_as_1_unless_told_ace_high():
    ace, two = ids("AS 2C")
    assert resolve_round({0: ace, 1: two}) == {ace: 1, two: 1}  # A = 1 is the lowest: 2 takes it
    assert resolve_round({0: ace, 1: two}, True) == {ace: 0, two: 0}


# --- rule 2: face down, shown together; no table --------------------------------------------------

def test_bidaxiao_rule_2_no_card_is_known_at_the_deal():
    # a hand is secret except the cards everybody saw go into it (README): none at the deal,
    # 3S (card 0) included
    state = position(["3S 4H", "5C 9D"])
    for viewer in (-1, 0, 1):
        assert [sv.cards["known"] for sv in G.view(state, viewer).seats] == [(), ()]
    assert set(G.secret_cards(state, 0)) == set(ids("3S 4H"))
    state, _ = play_round(state, "3S", "5C")  # 5 takes 3: both cards were shown, now seat 1's known
    assert [sv.cards["known"] for sv in G.view(state, -1).seats] == [(), tuple(sorted(ids("3S 5C")))]


def test_bidaxiao_rule_2_the_card_played_is_shown_even_the_3_of_spades():
    state, _ = play_round(position(["3S 4H", "5C 9D"]), "3S", "5C")
    assert played(state) == [ids("3S"), ids("5C")]


def test_bidaxiao_rule_2_a_seat_out_of_the_game_played_nothing_in_the_last_round():
    state, _ = play_round(position(["KS 3H", "5C 9D", "4H"]), "KS", "5C", "4H")
    assert played(state) == [ids("KS"), ids("5C"), ids("4H")]  # seat 2 played its last card: out
    state, _ = play_round(state, "3H", "9D")  # seats 0 and 1 only
    assert not state.finished
    assert played(state) == [ids("3H"), ids("9D"), ()]


def test_bidaxiao_rule_2_the_cards_are_never_on_a_table_table_seat_is_minus_1():
    state = position(["KS 3H", "5C 9D"])
    states = [state, G.apply(state, Action(0, PLAY, ids("KS")))[0], play_round(state, "KS", "5C")[0]]
    for state in states:  # dealt, one card face down, a round shown
        for view in G.views(state, (-1, 0, 1)):
            assert (view.table, view.table_seat, view.table_cards) == (None, -1, ())


# --- rule 4: the end, the round limit, the winners ------------------------------------------------

def test_bidaxiao_rule_4_the_last_seat_holding_cards_wins_and_finish_names_no_seat():
    state, events = play_round(position(["3H", "KS 9D"]), "3H", "KS")  # K takes 3: seat 0 is out
    assert state.finished
    finish = events[-1]
    assert finish.type == "FINISH" and finish.seat == -1  # the round's end concerns no one seat
    assert finish.values == {"winners": 0b10, "rounds": 1}  # seat 1: bit 1
    assert G.settle(state).winners == (1,) and G.settle(state).points == (-1, 1)


def test_bidaxiao_rule_4_seats_tied_on_most_cards_at_the_limit_are_all_in_the_winners_mask():
    options = G.make_options("", {"max_rounds": 1})  # 1 is allowed
    state, events = play_round(position(["KS 3H", "KC 9D 2D", "4H 2S"], options), "KS", "KC", "4H")
    # K and K tie: seats 0 and 1 take back their own, the 4H goes to seat 0: 3, 3 and 1 cards
    assert state.finished and events[-1].type == "FINISH" and events[-1].seat == -1
    assert events[-1].values == {"winners": 0b011, "rounds": 1}
    settlement = G.settle(state)
    assert settlement.winners == (0, 1) and settlement.points == (1, 1, -2)
    assert dict(settlement.breakdown) == {"rounds": 1, "cards": 3}


def test_bidaxiao_rule_4_the_default_limit_is_200_rounds():
    # all cards equal every round: each takes his own back, nobody ever runs out
    state = position(["7S 7H", "7C 7D"], G.make_options())
    assert G.view(state, -1).counters == {"rounds": 0, "max_rounds": 200}
    for _ in range(199):
        state, _ = play_round(state, "7S", "7C")
        assert not state.finished
    assert G.view(state, -1).counters == {"rounds": 199, "max_rounds": 200}
    state, events = play_round(state, "7S", "7C")
    assert state.finished and events[-1].type == "FINISH" and events[-1].values == {"winners": 0b11, "rounds": 200}
    settlement = G.settle(state)
    assert settlement.winners == (0, 1) and settlement.points == (0, 0) and settlement.outcome == "tie"


@pytest.mark.parametrize("max_rounds", [1, 2000])
def test_bidaxiao_rule_4_max_rounds_from_1_to_2000_is_allowed(max_rounds):
    options = G.make_options("", {"max_rounds": max_rounds})
    state = G.deal(options, b"limit", b"", 2)
    assert G.view(state, -1).counters["max_rounds"] == max_rounds


@pytest.mark.parametrize("option, value", [("max_rounds", 0), ("max_rounds", 2001), ("hand_size", 7),
                                           ("hand_size", 11)])
def test_bidaxiao_rules_1_and_4_options_out_of_range_are_refused(option, value):
    with pytest.raises(InvalidAction) as caught:
        G.make_options("", {option: value})
    assert caught.value.reason == Reason.BAD_OPTION


def test_bidaxiao_rule_4_seat_0_leaving_pays_each_other_seat():
    # README: ABANDON, the leaver pays 1 point to each other seat, also when the leaver is seat 0
    state, events = G.apply(position(["KS", "5C", "4H"]), Action(0, ABANDON))
    assert state.finished and [(e.type, e.seat) for e in events] == [("ABANDON", 0)]
    settlement = G.settle(state)
    assert settlement.points == (-2, 1, 1) and settlement.winners == () and settlement.outcome == "abandoned"
    assert dict(settlement.breakdown) == {"left": 0}
