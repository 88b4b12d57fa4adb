"""出一样的花色 (tonghua) rules pinned by direct examples, one test per rule a mutant of the core got
past (``make mutate GAME=tonghua``, tests/mutation): every expected value is worked out by hand
from rules/small-games.md rules 5-8, the README's "The four children's games" and the proto's
documented values (an event's or a view's seat is -1 when there is none), not computed with the
code's helpers.

Card ids: suit * 13 + rank, suits S H D C, ranks 3 4 5 6 7 8 9 T J Q K A 2; a suit is 13
consecutive ids, the 3 first and the 2 last.
"""
import pytest

from referee.core import cards
from referee.core.errors import InvalidAction, Reason
from referee.core.game import ABANDON, PLAY, Action
from referee.core.games.tonghua.rules import FOLLOW_SUIT, NOT_HIGHER, TONGHUA, Options

G = TONGHUA
SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}


def ids(text: str) -> tuple[int, ...]:
    return cards.parse_cards(text)


def mask(text: str) -> int:
    return sum(1 << c for c in ids(text))


def position(hands: list[str], to_act: int, options: Options = Options(), done: str = "", won=None):
    """A game with these hands (card text per seat), ``to_act`` to lead; ``done`` the cards of
    finished rounds (a later round: the lead is free), ``won`` the rounds won per seat."""
    state = G.deal(options, b"pinned", b"", len(hands))
    masks = tuple(mask(h) for h in hands)
    in_round = sum(1 << s for s, m in enumerate(masks) if m)
    return state._replace(hands=masks, in_round=in_round, to_act=(to_act,), done=mask(done),
                          won=tuple(won) if won else (0,) * len(hands))


def play(state, seat: int, card: str):
    return G.apply(state, Action(seat, PLAY, ids(card)))


def legal(state, seat: int) -> set[int]:
    return {a.cards[0] for a, _ in G.legal_actions(state, seat)}


# --- rule 5: 2-4 players, default 2 (README) -------------------------------------------------------

@pytest.mark.parametrize("seats", [1, 5])
def test_tonghua_rule_5_two_to_four_players(seats):
    with pytest.raises(InvalidAction) as refused:
        G.deal(Options(), b"seats", b"", seats)
    assert refused.value.reason == Reason.BAD_SEAT_COUNT
    for n in (2, 3, 4):
        assert G.deal(Options(), b"seats", b"", n).num_seats == n


def test_tonghua_rule_5_two_players_by_default():
    state = G.deal(G.make_options(), b"default", b"")
    assert state.num_seats == 2 and [h.bit_count() for h in state.hands] == [26, 26]


# --- rule 6: a round is played in one suit -----------------------------------------------------------

# the whole suit, 3 to 2, with the led king and the queen seat 0 keeps left out by hand
FOLLOWS = {
    "S": "3S 4S 5S 6S 7S 8S 9S TS JS AS 2S",
    "H": "3H 4H 5H 6H 7H 8H 9H TH JH AH",  # the 2H is set aside with the first round
    "D": "3D 4D 5D 6D 7D 8D 9D TD JD AD 2D",
    "C": "3C 4C 5C 6C 7C 8C 9C TC JC AC 2C",
}


@pytest.mark.parametrize("suit", "SHDC")
def test_tonghua_rule_6_the_follower_may_play_every_card_of_the_suit_and_nothing_else(suit):
    # seat 1 holds every card but the 2H (a finished round), the KX seat 0 leads and the QX it keeps
    keep = f"K{suit} Q{suit}"
    rest = " ".join(cards.format_card(c) for c in range(52) if c not in ids(keep + " 2H"))
    state = position([keep, rest], 0, done="2H", won=(1, 0))
    state, _ = play(state, 0, f"K{suit}")
    assert G.view(state, -1).counters["suit"] == SUIT[suit]
    assert legal(state, 1) == set(ids(FOLLOWS[suit]))
    other = "3H" if suit != "H" else "3D"
    refused = G.check(state, Action(1, PLAY, ids(other)))
    assert not refused.legal and refused.reason == FOLLOW_SUIT


def test_tonghua_rule_6_the_two_of_the_suit_follows_suit():
    # the 2 is the last id of its suit: a spade round, seat 1 holds the 2S and the 3H after it
    state = position(["KS 5D", "2S 3H"], 0, done="2H", won=(1, 0))
    state, events = play(state, 0, "KS")
    assert [e.type for e in events] == ["PLAY"] and state.to_act == (1,)
    assert legal(state, 1) == set(ids("2S"))


@pytest.mark.parametrize("lead, follower", [("KS", "3H 2D"), ("KH", "2S 3D"), ("KD", "AH 3C"), ("KC", "AD 2D")])
def test_tonghua_rule_7_the_neighbouring_cards_of_other_suits_do_not_follow(lead, follower):
    # the follower holds only cards of the suits around the led one, next to its 3 or its 2
    # (the 2 of the suit before, the 3 of the suit after, their aces): it has none of the suit
    # and wins the round when its turn comes
    state = position([lead + " 5S 6C", follower], 0, done="2H", won=(1, 0))
    state, events = play(state, 0, lead)
    won = [e for e in events if e.type == "ROUND_WON"]
    assert len(won) == 1 and won[0].seat == 1 and won[0].cards == ids(lead)
    assert state.won == (1, 1) and state.to_act == (1,)


# --- the view of a round: the table is the round's last card and its seat (module docstring) -------

def test_tonghua_rule_6_the_table_shows_the_rounds_last_card_and_each_seat_its_own():
    state = position(["2H 5H 5S", "7H 9H 3S", "4H 6H KC"], 0)
    view = G.view(state, -1)
    assert view.table_seat == -1 and view.table_cards == () and view.table is None  # -1: none (proto)
    assert view.counters["suit"] == -1  # before the lead (ListGames: "-1 before the lead")
    for seat, card in ((0, "2H"), (1, "9H"), (2, "4H")):
        state, _ = play(state, seat, card)
    assert state.to_act == (0,)  # seat 0 still holds the 5H: the round goes on
    for view in G.views(state, range(-1, 3)):
        assert view.table_seat == 2 and view.table_cards == ids("4H")
        assert view.public_cards["round"] == ids("2H 9H 4H")
        assert [sv.cards["round"] for sv in view.seats] == [ids("2H"), ids("9H"), ids("4H")]
        assert view.counters["suit"] == 1
    state, _ = play(state, 0, "5H")
    assert G.view(state, -1).table_seat == 0 and G.view(state, -1).table_cards == ids("5H")
    assert [sv.cards["round"] for sv in G.view(state, 1).seats] == [ids("2H 5H"), ids("9H"), ids("4H")]


def test_tonghua_rule_7_after_a_round_the_table_is_empty_and_the_suit_unset():
    state = position(["2H 5S", "3S 9D", "4H KD"], 0)
    state, events = play(state, 0, "2H")  # seat 1 has no heart: it wins the round
    assert [e.type for e in events] == ["PLAY", "ROUND_WON"]
    view = G.view(state, 1)
    assert view.counters["suit"] == -1 and view.counters["rounds"] == 1
    assert view.table_seat == -1 and view.table_cards == () and view.public_cards["round"] == ()
    assert view.public_cards["done"] == ids("2H")


# --- rule 7, option ascending --------------------------------------------------------------------------

def test_tonghua_rule_7_ascending_compares_with_the_rounds_previous_card_not_its_lead():
    options = Options(ascending=True)
    state = position(["5H 5S", "9H 3S", "7H JH KC"], 0, options, done="2H", won=(1, 0, 0))
    state, _ = play(state, 0, "5H")
    state, _ = play(state, 1, "9H")
    assert state.to_act == (2,)
    assert legal(state, 2) == set(ids("JH"))  # the 7H beats the 5H led, not the 9H before it
    refused = G.check(state, Action(2, PLAY, ids("7H")))
    assert not refused.legal and refused.reason == NOT_HIGHER
    assert "9H" in refused.message and "5H" not in refused.message  # higher than the previous card


def test_tonghua_rule_7_ascending_a_seat_with_only_lower_cards_wins_the_round():
    options = Options(ascending=True)
    state = position(["5H 5S", "9H 3S", "7H 6H KC"], 0, options, done="2H", won=(1, 0, 0))
    state, _ = play(state, 0, "5H")
    state, events = play(state, 1, "9H")  # seat 2 holds hearts 7 and 6, none above 9
    won = [e for e in events if e.type == "ROUND_WON"]
    assert len(won) == 1 and won[0].seat == 2 and state.won == (1, 0, 1) and state.to_act == (2,)


def test_tonghua_rule_7_the_ascending_preset_plays_ascending():
    options = G.make_options("ascending")
    state = position(["5H 5S", "3H 9H", "4H KC"], 0, options, done="2H", won=(1, 0, 0))
    state, _ = play(state, 0, "5H")
    refused = G.check(state, Action(1, PLAY, ids("3H")))
    assert not refused.legal and refused.reason == NOT_HIGHER
    assert legal(state, 1) == set(ids("9H"))


# --- rule 8: the end, the winner; the README's settlement ----------------------------------------------

def test_tonghua_rule_8_the_finish_names_the_winners_and_no_seat():
    # seat 1 won the first round and leads its last card: only seat 0 holds cards, the game is over
    state = position(["5S 6S", "7D"], 1, done="2H", won=(0, 1))
    state, events = play(state, 1, "7D")
    assert [e.type for e in events] == ["PLAY", "OUT", "FINISH"]
    finish = events[-1]
    assert finish.seat == -1  # -1: no seat (proto)
    assert finish.values == {"winners": 0b10, "open_round": 1}
    settlement = G.settle(state)
    assert settlement.winners == (1,) and settlement.points == (-1, 1) and settlement.outcome == "most_rounds"


def test_tonghua_rule_8_the_finish_bitmask_has_a_bit_per_winning_seat():
    # seats 0 and 2 won a round each, seat 1 none; seat 0 is out, seat 2 leads its last card:
    # only seat 1 holds cards, the game is over and the open round is won by nobody
    state = position(["", "5S", "7D"], 2, done="2H TC", won=(1, 0, 1))
    state, events = play(state, 2, "7D")
    assert events[-1].type == "FINISH" and events[-1].seat == -1
    assert events[-1].values["winners"] == 0b101
    assert G.settle(state).points == (1, -2, 1)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_tonghua_rule_8_seat_0_leaving_pays_each_other_seat(seats):
    state = G.deal(Options(), b"leave", b"", seats)
    state, events = G.apply(state, Action(0, ABANDON))
    assert [(e.type, e.seat) for e in events] == [("ABANDON", 0)]
    settlement = G.settle(state)
    assert settlement.points == (-(seats - 1),) + (1,) * (seats - 1)
    assert settlement.outcome == "abandoned" and settlement.winners == ()
