"""接龙 (jielong) rules pinned by direct examples, one test per rule a mutant of the core got past
(``make mutate GAME=jielong``, tests/mutation): every expected value is worked out by hand from
rules/small-games.md rules 12-14, the README's "The four children's games" (2-4 seats, default
2; ``jokers`` false; ``max_turns`` 1000, 1..10000; preset ``jokers``) and the proto's documented
values (an event's or a view's seat is -1 when there is none), not computed with the code's
helpers.
"""
import pytest

from referee.core import cards
from referee.core.errors import InvalidAction, Reason
from referee.core.game import ABANDON, PLAY, Action
from referee.core.games.jielong.rules import JIELONG, Options

G = JIELONG


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def position(piles: list[str], train: str = "", to_act: int = 0, options: Options = Options(), **changes):
    """Piles as card text, top first; the train oldest first (its cards have been turned over)."""
    state = G.deal(options, b"pinned", b"", len(piles))
    return state._replace(piles=tuple(bytes(ids(p)) for p in piles), train=bytes(ids(train)), to_act=(to_act,),
                          revealed=sum(1 << c for c in ids(train)), **changes)


def turn(state, seat: int):
    return G.apply(state, Action(seat, PLAY))


def dealt_cards(state) -> list[int]:
    return sorted(c for p in state.piles for c in p)


# --- rule 12: 2-4 players (default 2), the deck, the face-down piles -------------------------------------

@pytest.mark.parametrize("seats", [1, 5])
def test_jielong_rule_12_two_to_four_players(seats):
    with pytest.raises(InvalidAction) as refused:
        G.deal(Options(), b"seats", b"", seats)
    assert refused.value.reason == Reason.BAD_SEAT_COUNT
    for n in (2, 3, 4):
        assert G.deal(Options(), b"seats", b"", n).num_seats == n


def test_jielong_rule_12_two_players_and_no_jokers_by_default():
    state = G.deal(G.make_options(), b"default", b"")
    assert state.num_seats == 2 and [len(p) for p in state.piles] == [26, 26]
    assert dealt_cards(state) == list(range(52))  # 3S .. 2C, no BJ (52) or RJ (53)


def test_jielong_rule_12_the_jokers_preset_deals_all_54():
    state = G.deal(G.make_options("jokers"), b"jokers", b"", 4)
    assert [len(p) for p in state.piles] == [14, 14, 13, 13]  # card i to seat i mod 4
    assert dealt_cards(state) == list(range(54))


def test_jielong_rule_12_nobody_knows_a_face_down_card_not_even_its_seat():
    # the piles are face down: before the first turn nobody knows any card, the pile's seat neither
    state = G.deal(Options(), b"secret", b"", 3)
    known = G.knowledge(state)
    assert known.public == 0 and known.seats == (0, 0, 0)
    assert [G.secret_cards(state, s) for s in range(3)] == [(), (), ()]
    assert sorted(c for p in state.piles for c in p) == list(range(52))  # the 3S (id 0) among them


def test_jielong_rule_13_a_card_that_went_through_the_train_is_public():
    state = position(["5S 9D", "3H 4C"], "KH 5C 7C 2D")
    known = G.knowledge(state)
    assert {c for c in range(54) if known.public >> c & 1} == set(ids("KH 5C 7C 2D"))
    state, _ = turn(state, 0)  # the 5S takes 5C 7C 2D 5S under the pile
    assert tuple(state.piles[0]) == ids("9D 5C 7C 2D 5S")
    known = G.knowledge(state)
    # everybody saw 5C 7C 2D 5S go there; the 9D and seat 1's pile stay unknown to all
    assert {c for c in range(54) if known.public >> c & 1} == set(ids("KH 5C 7C 2D 5S"))
    assert known.seats == (0, 0) and not known.public & sum(1 << c for c in ids("9D 3H 4C"))


def test_jielong_rule_13_seat_0_turns_first_then_in_seat_order():
    state = G.deal(Options(), b"first", b"", 3)
    assert state.to_act == (0,)
    assert G.legal_actions(state, 0) == [(Action(0, PLAY), None)]
    assert G.legal_actions(state, 1) == [] and G.legal_actions(state, 2) == []
    refused = G.check(state, Action(1, PLAY))
    assert not refused.legal and refused.reason == Reason.NOT_YOUR_TURN
    state, events = turn(state, 0)
    assert events[0].type == "PLAY" and events[0].seat == 0 and state.to_act == (1,)


# --- the view: no table (the proto: table_seat -1 when none) ------------------------------------------

def test_jielong_rule_13_the_train_is_public_and_there_is_no_table():
    state = position(["5S 9D", "3H 4C"], "KH")
    for s in range(2):
        state, _ = turn(state, s)
        for view in G.views(state, range(-1, 2)):
            assert view.table is None and view.table_seat == -1 and view.table_cards == ()
            assert view.public_cards["train"] == ids("KH 5S 3H")[:2 + s]
            assert view.hand == ()


# --- rule 14: the turn limit (default 1000, 1..10000) -----------------------------------------------------

def test_jielong_rule_14_the_game_ends_after_1000_turns_by_default():
    state = position(["5S 6S 7S", "3H 4C"], "KH", turns=998)
    assert G.view(state, -1).counters["max_turns"] == 1000
    state, events = turn(state, 0)  # turn 999
    assert not state.finished and state.turns == 999 and state.to_act == (1,)
    state, events = turn(state, 1)  # turn 1000
    assert state.finished and events[-1].type == "FINISH"
    assert events[-1].values == {"winners": 0b01, "turns": 1000}  # piles 2 and 1


@pytest.mark.parametrize("value, allowed", [(0, False), (1, True), (10000, True), (10001, False)])
def test_jielong_rule_14_max_turns_is_1_to_10000(value, allowed):
    if not allowed:
        with pytest.raises(InvalidAction) as refused:
            G.make_options(overrides={"max_turns": value})
        assert refused.value.reason == Reason.BAD_OPTION
        return
    options = G.make_options(overrides={"max_turns": value})
    state = position(["5S 6S", "3H 4C"], "KH", options=options, turns=value - 1)
    state, events = turn(state, 0)
    assert state.finished and events[-1].values["turns"] == value


# --- rule 14: the end, the winner; the README's settlement ------------------------------------------------

def test_jielong_rule_14_the_finish_is_no_seats_event():
    state, events = turn(position(["5S", "3H 4C"], "KH"), 0)
    assert [e.type for e in events] == ["PLAY", "OUT", "FINISH"]
    assert events[-1].seat == -1  # -1: none (proto)


@pytest.mark.parametrize("piles, winners, bitmask, points, outcome", [
    # after seat 0's turn: piles 2, 2: everybody tied, nobody pays
    (["5S 6S 7S", "3H 4C"], (0, 1), 0b11, (0, 0), "tie"),
    # piles 3, 2, 2: seat 0 has most
    (["5S 6S 7S 8S", "3H 4C", "9D 8D"], (0,), 0b001, (2, -1, -1), "most_cards"),
    # piles 3, 3, 1: seats 0 and 1 share the win, seat 2 pays each of them
    (["5S 6S 7S 8S", "3H 4C 2C", "9D"], (0, 1), 0b011, (1, 1, -2), "most_cards"),
    # piles 1, 1, 1, 1: all four tied
    (["5S 6S", "3H", "4C", "9D"], (0, 1, 2, 3), 0b1111, (0, 0, 0, 0), "tie"),
])
def test_jielong_rule_14_most_cards_wins_and_all_tied_is_a_tie(piles, winners, bitmask, points, outcome):
    state, events = turn(position(piles, "KH", options=Options(max_turns=1)), 0)
    assert state.finished and events[-1].values == {"winners": bitmask, "turns": 1}
    settlement = G.settle(state)
    assert settlement.winners == winners and settlement.points == points and settlement.outcome == outcome


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_jielong_rule_14_seat_0_leaving_pays_each_other_seat(seats):
    state, events = G.apply(G.deal(Options(), b"leave", b"", seats), Action(0, ABANDON))
    assert [(e.type, e.seat) for e in events] == [("ABANDON", 0)]
    settlement = G.settle(state)
    assert settlement.points == (-(seats - 1),) + (1,) * (seats - 1)
    assert settlement.outcome == "abandoned" and settlement.winners == ()
