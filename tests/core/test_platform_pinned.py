"""The shared pieces pinned by direct examples (``make mutate GAME=platform`` found them
untested): the deal's random stream re-derived from its documented algorithm (core/rng.py's
docstring, README "Provably fair dealing"), the seats helpers on tables of 4 and 6 (够级's
对头), the error messages' 40-character echo (DESIGN: errors), the declared defaults.
Expected values are worked out here, not with the helpers under test.
"""
import hashlib
import struct

import pytest

from referee.core import rng, seats
from referee.core.cards import PokerNotation
from referee.core.errors import InvalidAction, Reason, UnknownName
from referee.core.game import Meld
from referee.core.registry import GAMES

KEY = hashlib.sha256(b"platform pinned").digest()


class Oracle:
    """The stream as documented: block i = sha256(key || label || i as 8 bytes big-endian), its
    four 8-byte big-endian words in order; randbelow(n) rejects words >= n * floor(2^64 / n);
    shuffle is Fisher-Yates from the last index down, swapping i with randbelow(i + 1)."""

    def __init__(self, key: bytes, label: str):
        self.words, self.block, self.prefix = [], 0, key + label.encode()

    def word(self) -> int:
        if not self.words:
            digest = hashlib.sha256(self.prefix + struct.pack(">Q", self.block)).digest()
            self.words = [int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8)]
            self.block += 1
        return self.words.pop(0)

    def randbelow(self, n: int) -> int:
        bound = n * (2**64 // n)
        while True:
            w = self.word()
            if w < bound:
                return w % n

    def shuffle(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@pytest.mark.parametrize("n", [1, 3, 54, 144, 2**63 + 1, 2**64 - 1])
def test_rng_randbelow_rejects_the_words_that_would_bias(n):
    # n = 2^63 + 1: floor(2^64 / n) = 1, so about half the words are rejected; n = 2^64 - 1:
    # only the word 2^64 - 1 is; small n almost never
    stream, oracle = rng.Stream(KEY, "numbers"), Oracle(KEY, "numbers")
    assert [stream.randbelow(n) for _ in range(64)] == [oracle.randbelow(n) for _ in range(64)]


def test_rng_shuffle_is_the_documented_fisher_yates_and_draws_nothing_more():
    stream, oracle = rng.Stream(KEY, "deck"), Oracle(KEY, "deck")
    assert stream.shuffle(range(54)) == oracle.shuffle(list(range(54)))
    # the next number drawn after a shuffle is the oracle's: no draw for index 0
    assert stream.randbelow(2**63 + 1) == oracle.randbelow(2**63 + 1)


def test_rng_split_entropy_inverts_entropy():
    for owner, parts in ((b"owner", (b"a", b"", b"ccc")), (b"", (b"\x00" * 32,)), (b"x" * 256, ())):
        combined = rng.entropy(owner, parts)
        assert rng.split_entropy(combined) == (owner, parts)
    # the documented layout, written out by hand for one case
    combined = b"referee/v1/seats" + b"\x00\x00\x00\x02ow" + b"\x02" + b"\x00\x00\x00\x01a" + b"\x00\x00\x00\x00"
    assert rng.entropy(b"ow", (b"a", b"")) == combined
    assert rng.split_entropy(combined) == (b"ow", (b"a", b""))


@pytest.mark.parametrize("combined", [
    b"referee/v1/seats\x00\x00",  # the owner's length cut short: struct.error
    b"referee/v1/seats\x00\x00\x00\x00",  # no seat count: IndexError
    b"referee/v1/seats\x00\x00\x00\x00\x01\x00",  # a seat's length cut short: struct.error
])
def test_rng_an_owners_entropy_that_only_looks_like_the_encoding_is_the_owners(combined):
    assert rng.split_entropy(combined) == (combined, ())


def test_seats_all_seats_is_every_seat():
    assert [seats.all_seats(n) for n in (2, 3, 4, 6, 7)] == [0b11, 0b111, 0b1111, 0b111111, 0b1111111]


def test_seats_in_order_starts_at_first_and_takes_every_seat_by_default():
    assert seats.in_order(2, 4) == (2, 3, 0, 1)
    assert seats.in_order(0, 6) == (0, 1, 2, 3, 4, 5)
    assert seats.in_order(5, 6, among=0b100101) == (5, 0, 2)


def test_seats_next_seat_skips_the_seats_that_are_out():
    assert seats.next_seat(3, 4) == 0
    assert seats.next_seat(1, 6, among=0b100001) == 5
    assert seats.next_seat(1, 6, among=0b100001, step=-1) == 0
    assert seats.next_seat(2, 4, among=0b0100) == 2  # only itself left
    assert seats.next_seat(2, 4, among=0) == -1


@pytest.mark.parametrize("n, seat, across", [(4, 0, 2), (4, 3, 1), (6, 0, 3), (6, 1, 4), (6, 5, 2)])
def test_seats_opposite_is_across_the_table(n, seat, across):
    # 够级 (6 seats): 1 and 4, 2 and 5, 3 and 6 are 对头 (seats 0-3, 1-4, 2-5)
    found = seats.opposite(seat, n)
    assert found == across and type(found) is int


def test_cards_a_poker_notation_is_one_deck_by_default():
    notation = PokerNotation()
    assert notation.decks == 1 and notation.id_count == 54


def test_game_a_meld_claimed_from_nobody_says_minus_one():
    assert Meld("kong", (1, 2, 3, 4)).from_seat == -1


def test_errors_echo_at_most_40_characters_of_the_callers_text():
    game = GAMES["doudizhu"]
    with pytest.raises(UnknownName) as unknown:
        game.make_options("p" * 41 + "q")
    assert unknown.value.reason == Reason.UNKNOWN_PRESET and repr("p" * 40) in str(unknown.value)
    assert "p" * 41 not in str(unknown.value)
    name = next(i.name for i in game.option_infos() if i.type == "int")
    with pytest.raises(InvalidAction) as bad:
        game.make_options("", {name: 10**60})
    assert bad.value.reason == Reason.BAD_OPTION and repr("1" + "0" * 39) in str(bad.value)
    assert "0" * 40 not in str(bad.value)


def test_rng_limits_are_the_documented_ones():
    # README "Provably fair dealing": a 32-byte server seed, caller seeds (test servers) up to
    # 64 bytes, the owner's entropy up to 256 bytes and each seat's up to 32
    assert (rng.SEED_BYTES, rng.MAX_SEED_BYTES, rng.MAX_ENTROPY_BYTES, rng.MAX_SEAT_ENTROPY_BYTES) == (32, 64, 256, 32)
    assert len(rng.new_seed()) == 32


def test_decisions_a_window_opened_at_the_step_before_its_first_answer():
    """A sealed answer belongs to the decision awaited: the window opened at the step where no
    asked seat had answered yet, and stays at it while answers come in."""
    from referee.core.games.bidaxiao.rules import BIDAXIAO
    from referee.core.game import PLAY

    state = BIDAXIAO.deal(BIDAXIAO.make_options(), b"window", b"", 3)
    phase = BIDAXIAO.phases[state.phase]
    assert phase.simultaneous
    opened = state.step
    assert phase.opened_at(state) == opened
    for n, seat in enumerate((2, 0), 1):
        card = next(a for a, _ in BIDAXIAO.legal_actions(state, seat) if a.kind == PLAY)
        state, _ = BIDAXIAO.apply(state, card)
        assert state.step == opened + n and phase.opened_at(state) == opened
    card = next(a for a, _ in BIDAXIAO.legal_actions(state, 1) if a.kind == PLAY)
    state, _ = BIDAXIAO.apply(state, card)  # the round resolves, the next window opens
    assert phase.opened_at(state) == state.step > opened


def test_game_an_unknown_rank_index_names_the_range():
    from referee.core.game import PLAY, Action

    game = GAMES["doudizhu"]
    verdict = game._bad_cards(Action(0, PLAY, (), (15,)))
    assert verdict.reason == Reason.UNKNOWN_CARD and verdict.message == "rank indexes are 0..14"
    verdict = game._bad_cards(Action(0, PLAY, (54,)))
    assert verdict.reason == Reason.UNKNOWN_CARD and verdict.message == "card ids are 0..53"


def test_seats_next_seat_takes_every_seat_by_default_and_team_mask_is_the_teams_seats():
    assert [seats.next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert seats.next_seat(0, 4, step=-1) == 3
    assert seats.team_mask((0, 1, 0, 1), 0) == 0b0101 and seats.team_mask((0, 1, 0, 1), 1) == 0b1010
    assert seats.team_mask((0, 1, 2, 0, 1, 2), 2) == 0b100100


def test_cards_masks_past_256_bits_and_rank_counts():
    from referee.core import cards

    ids = (0, 1, 53, 255, 256, 300)
    assert cards.from_mask(sum(1 << i for i in ids)) == ids
    assert cards.from_mask(1 << 255) == (255,)
    # 3S 3H 3D and the small joker: three 3s (rank 0) and one joker (rank 13)
    counts = cards.rank_counts((0, 13, 26, 52))
    assert counts[0] == 3 and counts[13] == 1 and sum(counts) == 4


def test_cards_one_deck_unless_told_and_the_nth_copy_goes_to_deck_n():
    from referee.core import cards

    with pytest.raises(InvalidAction) as refused:
        cards.parse_cards("3S 3S")
    assert refused.value.reason == Reason.DUPLICATE_CARD
    assert cards.parse_cards("3S 3S", 2) == (0, 54)


def test_cards_a_lone_suit_letter_is_read_as_a_rank_string():
    from referee.core import cards

    # cards are a rank and a suit (README: card notation); "S" alone is no card, and no rank
    with pytest.raises(InvalidAction) as refused:
        cards.parse_cards_or_ranks("S")
    assert refused.value.reason == Reason.UNKNOWN_CARD and "unknown rank 'S'" in str(refused.value)


def test_game_cards_not_in_hand_are_named():
    from referee.core.game import PLAY, Action, held

    # card 5 is 8S (ids 0..12 are 3S..2S), card 18 is 8H
    verdict = held(1 << 18, Action(0, PLAY, (5, 18)), PokerNotation())
    assert verdict.reason == Reason.CARDS_NOT_IN_HAND and verdict.message == "not in hand: 8S"


def test_game_defaults_say_none_with_minus_one():
    # state.proto: an event's seat, a seat's team are -1 when none
    from referee.core.game import Event, SeatView

    assert Event("FINISH").seat == -1
    assert SeatView._field_defaults["team"] == -1


def test_game_views_take_the_spectator_and_refuse_other_seats():
    game = GAMES["doudizhu"]
    state = game.deal(game.make_options(), b"views")
    assert len(game.views(state, (-1, 0, 2))) == 3
    for seat in (-2, 3):
        with pytest.raises(InvalidAction) as refused:
            game.views(state, (seat,))
        assert refused.value.reason == Reason.BAD_SEAT


def test_game_an_option_out_of_range_names_the_range():
    game = GAMES["bidaxiao"]
    with pytest.raises(InvalidAction) as refused:
        game.make_options("", {"hand_size": 11})
    assert str(refused.value).endswith("is not allowed (int 8..10)")
    with pytest.raises(InvalidAction) as refused:
        game.make_options("", {"jokers": 1})
    assert str(refused.value).endswith("is not allowed (bool)")


# --- the shared trick flow (core/tricks.py) under a game whose pass bars the rest of the trick:
# Q783's pass_bars_trick (rule 6.2's variant), individual seats; singles 4 < 6 < 9 < T < J < A < 2

def test_tricks_a_trick_starts_with_nobody_on_top():
    from referee.core.tricks import Trick

    assert Trick() == Trick(-1, 0, -1, 0, 0, 0) == (-1, 0, -1, 0, 0, 0) and Trick(3).top_seat == -1
    assert Trick._fields == ("leader", "top", "top_seat", "top_cards", "passed", "barred")


def test_tricks_with_bars_the_turn_skips_every_seat_that_passed_in_the_trick():
    from q783_tables import opts, run, table

    options = opts(individual=True, pass_bars_trick=True)
    hands = ("4S 5S", "5H 5D", "6S 6H", "5C 6D", "9S 9H", "4H 4D")
    state, events = run(table(*hands, options=options), (0, "4S"), (1, None), (2, "6S"), (3, None), (4, "9S"),
                        (5, None), (0, None))
    # seats 1, 3, 5 and 0 passed, seat 4 is on top: seat 2 is the only one left to answer
    assert state.to_act == (2,) and not [e for e in events if e.type == "TRICK_WON"]
    # passed: the seats that passed on seat 4's 9S (5, 0); barred: every seat that passed in the trick
    assert (state.trick.top_seat, state.trick.passed, state.trick.barred) == (4, 0b100001, 0b101011)
    state, events = run(state, (2, None))
    assert [e.seat for e in events if e.type == "TRICK_WON"] == [4]


def test_tricks_without_bars_a_pass_bars_nobody():
    from q783_tables import opts, run, table

    options = opts(individual=True)  # rule 6.2: a seat that passed may answer a later play
    hands = ("4S 5S", "5H 9D", "6S 6H", "5C 6D")
    state, _ = run(table(*hands, options=options), (0, "4S"), (1, None), (2, "6S"), (3, None), (0, None))
    assert state.to_act == (1,)  # seat 1 passed on the 4S and answers the 6S
    assert (state.trick.top_seat, state.trick.passed, state.trick.barred) == (2, 0b1001, 0)


def test_tricks_with_bars_a_play_nobody_may_answer_wins_the_trick_at_once():
    from q783_tables import opts, run, table

    options = opts(individual=True, pass_bars_trick=True)
    # seat 0 leads its last card and is out; seat 1 passes (barred); seat 2's play has nobody left
    state, events = run(table("4S", "9S 2D", "6S JS", options=options), (0, "4S"), (1, None), (2, "6S"))
    assert [e.seat for e in events if e.type == "TRICK_WON"] == [2]  # (then the 小局 ends: 8.2)


def test_game_no_seat_outside_the_table_may_act_not_even_to_abandon():
    from referee.core.game import ABANDON, PASS, Action

    game = GAMES["doudizhu"]
    state = game.deal(game.make_options(), b"seats")
    for seat in (-1, 3):
        for kind in (ABANDON, PASS):
            verdict = game.check(state, Action(seat, kind))
            assert not verdict.legal and verdict.reason == Reason.BAD_SEAT, (seat, kind)


def test_game_value_defaults_a_settlement_and_a_match_start_from():
    import dataclasses

    from referee.core.game import Match, Settlement

    settlement = Settlement((1, -1), (0,), "won", ())
    assert (settlement.house, settlement.seat_values, settlement.values) == (0, {}, {})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settlement.points = (0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settlement.seat_values = {"coins": (1, -1)}
    assert settlement == Settlement((1, -1), (0,), "won", (), 0, {}, {})  # a value: equal by its fields
    assert settlement != Settlement((1, -1), (0,), "won", (), 0, {"coins": (1, -1)}, {"coins_house": 0})
    assert Match() == (0, (), None, 0) and Match().round == 0


def test_game_a_settlement_is_a_hashable_value():
    from referee.core.game import Settlement

    settlement = Settlement((1, -1), (0,), "won", (), 0, {"coins": (1, -1)})
    assert hash(settlement) == hash(Settlement((1, -1), (0,), "won", (), 0, {"coins": (1, -1)}))
    with pytest.raises(TypeError):  # a value: its mappings cannot change
        settlement.seat_values["coins"] = (0, 0)


def test_seats_alternating_teams_are_two_by_default():
    assert seats.alternating_teams(6) == (0, 1, 0, 1, 0, 1)
    assert seats.alternating_teams(6, 3) == (0, 1, 2, 0, 1, 2)


def test_cards_the_jokers_have_no_suit():
    from referee.core import cards

    assert [cards.card_suit(k) for k in (0, 12, 13, 51, 52, 53)] == [0, 0, 1, 3, None, None]


def test_seats_of_a_mask_ascending():
    assert seats.seats_of(0b101010) == (1, 3, 5) and seats.seats_of(0) == ()


def test_game_a_match_over_starts_the_tables_next_match():
    from referee.core.game import ABANDON, Action, Match

    game = GAMES["mcr"]
    state = game.deal(game.make_options("", {"hands": 2}), b"match")
    state, _ = game.apply(state, Action(0, ABANDON))
    second = game.deal(state.options, b"match 2", b"", 0, game.next_round(state))
    assert (second.match.round, second.match.number) == (1, 0)
    second, _ = game.apply(second, Action(1, ABANDON))
    assert game.match_over(second)
    assert game.next_round(second) == Match(0, (0, 0, 0, 0), None, 1)  # totals reset, carry from nothing
    third = game.deal(second.options, b"match 3", b"", 0, game.next_round(second))
    assert third.match.number == 1 and not third.finished


def test_game_a_void_round_is_played_again_and_a_void_match_restarts():
    from referee.core.game import ABANDON, Action, Match

    class Void(type(GAMES["tonghua"])):  # the platform's rule, on a game whose rounds can be declared void
        void_round = void_match = False

        def round_counts(self, state):
            return not self.void_round

        def voids_match(self, state):
            return self.void_match

    game = Void()
    state = game.deal(game.make_options(), b"void", b"", 2, Match(3, (5, -5), None, 2))
    state, _ = game.apply(state, Action(0, ABANDON))
    assert game.next_round(state) == Match(4, (4, -4), None, 2)  # the leaver pays 1
    game.void_round = True
    assert game.next_round(state) == Match(3, (5, -5), None, 2)  # not counted: the same round again
    game.void_match = True
    assert game.next_round(state) == Match(0, (0, 0), None, 3)


def test_game_an_options_range_is_written_from_its_bounds():
    from referee.core.game import OptionInfo, _range_text

    def info(**bounds):
        return OptionInfo(**{"name": "n", "type": "int", "default": 1, "help": "", "allowed": (),
                             "minimum": None, "maximum": None, **bounds})

    assert _range_text(info(minimum=1, maximum=9)) == " 1..9"
    assert _range_text(info(minimum=1)) == " >= 1"
    assert _range_text(info(maximum=9)) == " <= 9"
    assert _range_text(info()) == ""
    assert _range_text(info(allowed=(0, 5, 10))) == ": 0, 5, 10"


def test_cards_the_numbers_of_the_childrens_games():
    from referee.core import cards

    # small-games.md: A = 1, 2..10 at face value, J 11, Q 12, K 13; the jokers 14 (small) and 15
    faces = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S BJ RJ"
    assert [cards.card_number(c) for c in cards.parse_cards(faces)] == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 14, 15]


def test_game_capabilities_are_the_methods_a_game_implements():
    # README, the API: ListGames' capabilities say which of Classify, Compare and hints a game
    # answers (the others are UNIMPLEMENTED), then its own extras
    assert GAMES["doudizhu"].capabilities() == ("classify", "compare", "hints")
    assert GAMES["q783"].capabilities() == ("classify", "compare", "hints")
    assert GAMES["mcr"].capabilities() == ("fans",)
    assert GAMES["bidaxiao"].capabilities() == ()


def test_game_an_unknown_kind_is_echoed_to_20_characters_with_the_kinds():
    from referee.core.game import Action

    game = GAMES["doudizhu"]
    verdict = game.check(game.deal(game.make_options(), b"kinds"), Action(0, "X" * 30))
    assert verdict.reason == Reason.BAD_ACTION
    assert verdict.message == f"doudizhu has no action {'X' * 20!r} (kinds: ABANDON, BID, PASS, PLAY, TIMEOUT)"


def test_cards_formatted_by_rank_then_suit_then_deck():
    from referee.core import cards

    # 3H (13) given before 3S (0): written 3S 3H; two decks: 3S of deck 1 (54) after deck 0's
    assert cards.format_cards((13, 0)) == "3S 3H"
    assert cards.format_cards((54, 13, 0)) == "3S 3S 3H"
    assert cards.from_mask(1 << 256) == (256,)
    assert cards.from_mask(0xFF << 248) == tuple(range(248, 256)) and cards.from_mask(0xFF) == tuple(range(8))


def test_rng_randbelow_needs_a_positive_bound_and_the_stream_goes_on_after_a_shuffle():
    with pytest.raises(ValueError):
        rng.Stream(KEY, "zero").randbelow(0)
    stream, oracle = rng.Stream(KEY, "after"), Oracle(KEY, "after")
    stream.shuffle(range(10))
    oracle.shuffle(list(range(10)))
    assert [stream.randbelow(1000) for _ in range(8)] == [oracle.randbelow(1000) for _ in range(8)]


def test_game_option_infos_are_values_and_unknown_names_are_cut_at_40():
    import dataclasses

    from referee.core.game import OptionInfo

    info = OptionInfo("n", "int", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.default = 2
    assert hash(info) == hash(OptionInfo("n", "int", 1))
    with pytest.raises(InvalidAction) as refused:
        GAMES["doudizhu"].make_options("", {"o" * 41 + "x": 1})
    assert refused.value.reason == Reason.BAD_OPTION and repr("o" * 40) in str(refused.value)
    assert "o" * 41 not in str(refused.value)


def test_game_negative_card_ids_and_ranks_are_unknown():
    from referee.core.game import PLAY, Action

    game = GAMES["doudizhu"]
    assert game._bad_cards(Action(0, PLAY, (-1,))).reason == Reason.UNKNOWN_CARD
    assert game._bad_cards(Action(0, PLAY, (), (-1,))).reason == Reason.UNKNOWN_CARD


# --- make mutate GAME=platform, second step: asking.py, game.py, tricks.py ----------------------

def test_asking_queue_in_order_goes_by_step_from_the_first_seat_and_keeps_only_among():
    from referee.core.asking import Ask, queue_in_order
    # 6 seats from seat 4 counter-clockwise (step -1): 4 3 2 1 0 5, of which among = {0, 2, 3, 5}
    assert queue_in_order(4, 6, task=2, among=0b101101, step=-1) == (Ask(3, 2), Ask(2, 2), Ask(0, 2), Ask(5, 2))
    # clockwise from 4 with a step of 2 (every other seat of 6, each seat visited twice in 6 steps)
    assert [a.seat for a in queue_in_order(1, 6, step=2)] == [1, 3, 5, 1, 3, 5]
    assert [a.seat for a in queue_in_order(2, 5, among=0b11010)] == [3, 4, 1]


def test_asking_check_and_legal_answer_the_head_of_the_queue_not_its_tail():
    from typing import NamedTuple

    from referee.core.asking import Ask, AskInTurn
    from referee.core.game import Action, Verdict

    class S(NamedTuple):
        asking: tuple = ()
        to_act: tuple = ()

    seen = []
    phase = AskInTurn("ask", ("BID",), legal=lambda s, ask: [ask.task],
                      check=lambda s, a, ask: seen.append(ask) or Verdict.ok(),
                      answer=lambda s, a, v, ask, events: s, resolve=lambda s, events: s)
    state = S(asking=(Ask(1, task=7), Ask(2, task=9)), to_act=(1,))
    assert phase.legal(None, state, 1) == [7]
    phase.check(None, state, Action(1, "BID", value=1))
    assert seen == [Ask(1, task=7)]


def test_asking_codec_refuses_an_ask_of_no_seat():
    from typing import Annotated, NamedTuple

    from referee.core.asking import Ask
    from referee.core.codec import Seq, StateCodec

    class S(NamedTuple):
        asking: Annotated[tuple, Seq(Ask, "seats")] = ()

    codec = StateCodec(S, version=2, context={"seats": 3, "cards": 54}, localns={"Ask": Ask})
    assert codec.conforms(S((Ask(0), Ask(2, 1, 0, 3)))) == []
    assert codec.conforms(S((Ask(-1),)))  # the asked seat is a seat (Index("seats", 0)), never -1
    assert codec.conforms(S((Ask(0, to=-1),))) == []  # `to` may be no seat


def test_match_round_and_number_are_never_negative_in_a_token():
    from typing import NamedTuple

    from referee.core.codec import StateCodec
    from referee.core.game import Match

    class S(NamedTuple):
        match: Match = Match()

    codec = StateCodec(S, version=2, context={"seats": 4, "cards": 52}, fields={"match.carry": None})
    assert codec.conforms(S(Match(0, (0,) * 4))) == []
    assert codec.conforms(S(Match(-1, (0,) * 4)))
    assert codec.conforms(S(Match(0, (0,) * 4, None, -1)))


def test_knowledge_of_a_spectator_is_the_public_cards_only():
    from referee.core.game import Knowledge

    known = Knowledge(public=0b0001, seats=(0b0010, 0b0100, 0b1000))
    assert known.allowed(-1) == 0b0001  # not the last seat's cards (seats[-1])
    assert known.allowed(2) == 0b1001 and known.allowed(0) == 0b0011


def test_trick_top_is_a_64_bit_word_in_the_codec():
    from typing import NamedTuple

    from referee.core.codec import StateCodec
    from referee.core.tricks import Trick

    class S(NamedTuple):
        trick: Trick = Trick()

    codec = StateCodec(S, version=2, context={"seats": 3, "cards": 54})
    assert codec.conforms(S(Trick(0, (1 << 64) - 1, 0))) == []  # every bit of the word, the 64th too
    assert codec.conforms(S(Trick(0, 1 << 64, 0)))  # a 65th bit: no play of any game


def test_decision_window_asks_only_seats_in_a_token():
    from typing import NamedTuple

    from referee.core.codec import Index, OneOf, Seq, StateCodec
    from referee.core.decisions import Window

    class S(NamedTuple):
        window: Window = Window()

    codec = StateCodec(S, version=2, context={"seats": 4, "cards": 136},
                       fields={"window.answers": Seq(OneOf(None, Index(3, 0)), "seats")})
    assert codec.conforms(S(Window.open((1, 3)))) == []
    assert codec.conforms(S(Window((-1,), (None,))))  # an asked seat is a seat, never -1


def test_game_the_default_action_passes_where_the_seat_may_pass_else_takes_the_first_legal():
    """Game.default_action (a timeout, autoplay): PASS whenever it is legal, even listed after
    plays; otherwise the first legal action. Checked along random rounds of every game that
    keeps the platform's default, at states where PASS and other actions are both legal."""
    import random

    from referee.core.game import PASS, Game

    games = [g for g in GAMES.values() if type(g).default_action is Game.default_action]
    assert {"gouji", "q783", "chuanpai"} <= {g.id for g in games}
    rng_, both = random.Random(11), 0
    for game in games:
        for r in range(3):
            state = game.deal(game.make_options(), f"default {r}".encode(), b"")
            for _ in range(400):
                if state.finished:
                    break
                seat = state.to_act[0]
                legal = [a for a, _ in game.legal_actions(state, seat)]
                chosen = game.default_action(state, seat)
                if any(a.kind == PASS for a in legal):
                    assert chosen.kind == PASS, (game.id, legal)
                    both += any(a.kind != PASS for a in legal)
                else:
                    assert chosen == legal[0], game.id
                state, _ = game.apply(state, rng_.choice(legal))
    assert both > 20  # the states that tell a PASS from the first play were met
