"""The platform's configured phases on a bare state: the trick flow's turn order (who is active,
who is asked next, bars and lifted bars, a trick closed at once by another winner, who leads
next, the direction of play, no passes), the beaten play handed to the game, the ask-in-turn
queue (early stop, asking again, obligations added) and per-viewer ``to_act``. Every expected
seat is worked out here from the configuration, not with the flow under test.
"""
from __future__ import annotations

from typing import NamedTuple

from referee.core import cards
from referee.core.asking import Ask, AskInTurn, queue_in_order
from referee.core.decisions import DecisionPhase, Window
from referee.core.game import PASS, PLAY, Action, Event, Finished, Game, Knowledge, Moves, Verdict
from referee.core.tricks import Trick, TrickMove, TrickPlay


class S(NamedTuple):
    hands: tuple[int, ...]
    trick: Trick = Trick(0)
    played: int = 0
    out: tuple[int, ...] = ()
    to_act: tuple[int, ...] = (0,)
    asking: tuple = ()
    log: tuple = ()  # what the configured functions were handed
    phase: int = 0

    @property
    def num_seats(self) -> int:
        return len(self.hands)


class G:
    notation = cards.PokerNotation(1)


def single(state, action, mask):
    """Any single card beats a lower one (packed play: rank + 1)."""
    if mask.bit_count() != 1:
        return Verdict.no("BAD_ACTION", "one card")
    card = cards.from_mask(mask)[0]
    play = cards.card_rank(card) + 1
    if state.trick.top and play <= state.trick.top:
        return Verdict.no("DOES_NOT_BEAT", "lower")
    return Verdict.ok("single", action=Action(action.seat, PLAY, (card,)), detail=play)


def flow(**config) -> TrickPlay:
    base = dict(read_play=single, legal_plays=lambda s, seat: [], round_over=lambda s: False,
                finish=lambda s, events: s._replace(to_act=()))
    return TrickPlay("play", **{**base, **config})


def hands(*texts: str) -> tuple[int, ...]:
    return tuple(cards.to_mask(cards.parse_cards(t)) if t else 0 for t in texts)


def play(phase, state, seat, text):
    action = Action(seat, PLAY, tuple(cards.parse_cards(text)))
    verdict = phase.check(G, state, action)
    assert verdict.legal, verdict
    return phase.apply(G, state, verdict.action, verdict)


def pass_(phase, state, seat):
    return phase.apply(G, state, Action(seat, PASS), phase.check(G, state, Action(seat, PASS)))


SIX = hands("3S 9S", "4S 9H", "5S 9D", "6S 9C", "7S TS", "8S TH")


def test_by_default_the_next_seat_holding_cards_answers_and_passes_do_not_bar():
    phase = flow()
    state, events = play(phase, S(SIX), 0, "3S")
    assert state.to_act == (1,) and [e.type for e in events] == ["PLAY"]
    state, _ = pass_(phase, state, 1)
    assert state.to_act == (2,) and state.trick.passed == 0b10 and state.trick.barred == 0
    state, _ = play(phase, state, 2, "5S")  # a play: the passes on the old top no longer count
    assert state.trick.passed == 0 and state.to_act == (3,)
    for seat in (3, 4, 5, 0):
        state, events = pass_(phase, state, seat)
    assert state.to_act == (1,)  # seat 1 passed on 3S, not on 5S: asked again
    state, events = pass_(phase, state, 1)
    assert [e.type for e in events] == ["PASS", "TRICK_WON"] and events[-1].seat == 2
    assert state.trick == Trick(2) and state.to_act == (2,)


def test_a_bar_keeps_a_seat_out_until_a_play_lifts_it():
    opposite = lambda s: (s + 3) % 6
    phase = flow(bars=lambda s: True, lifts_bar=lambda s, seat, trick: trick.top_seat == opposite(seat))
    state, _ = play(phase, S(SIX), 0, "3S")
    state, _ = pass_(phase, state, 1)
    assert state.trick.barred == 0b10
    state, _ = play(phase, state, 2, "5S")
    assert state.to_act == (3,)
    state, _ = pass_(phase, state, 3)
    state, _ = play(phase, state, 4, "7S")  # seat 1's 对头 is 4: its bar is lifted on this play
    assert state.to_act == (5,)
    state, _ = pass_(phase, state, 5)
    assert state.to_act == (0,)
    state, _ = pass_(phase, state, 0)
    assert state.to_act == (1,)  # barred, but asked on its 对头's play; 2 and 3 are not asked again
    state, _ = play(phase, state, 1, "9H")  # seat 1 plays: 2 and 4 never passed, 3 5 0 are barred
    assert state.to_act == (2,)
    state, _ = pass_(phase, state, 2)
    assert state.to_act == (4,)  # 3 is barred (its 对头 is 0, not 1)
    state, events = pass_(phase, state, 4)
    assert events[-1].type == "TRICK_WON" and events[-1].seat == 1  # 5 and 0 barred, 1's 对头 4 passed


def test_who_is_asked_next_and_the_direction_are_configured():
    backwards = flow(step=-1)
    state, _ = play(backwards, S(SIX), 0, "3S")
    assert state.to_act == (5,)
    skip_one = flow(next_asked=lambda s, seat, eligible: max(c for c in range(6) if eligible >> c & 1))
    state, _ = play(skip_one, S(SIX), 0, "3S")
    assert state.to_act == (5,)
    state, _ = pass_(skip_one, state, 5)
    assert state.to_act == (4,)


def test_active_seats_and_who_leads_after_the_trick():
    phase = flow(active=lambda s: 0b000111, next_leader=lambda s, trick, winner: (winner + 2) % 3)
    state, _ = play(phase, S(SIX), 0, "3S")
    assert state.to_act == (1,)
    state, _ = pass_(phase, state, 1)
    state, events = pass_(phase, state, 2)
    assert [(e.type, e.seat) for e in events] == [("PASS", 2), ("TRICK_WON", 0), ("LEAD", 2)]
    assert events[-1].values == {"from": 0} and state.to_act == (2,)


def test_a_trick_closed_at_once_may_name_another_winner_and_event():
    ten = cards.RANKS.index("T") + 1
    phase = flow(closes=lambda s, seat: (seat + 1) % 6 if s.trick.top == ten else -1,
                 won_event=lambda s, trick, winner: Event("ROUND_WON", winner, values={"top": trick.top}))
    state, events = play(phase, S(SIX), 4, "TS")  # closes at once: seat 5 wins and leads
    assert [(e.type, e.seat, dict(e.values)) for e in events[1:]] == [("ROUND_WON", 5, {"top": ten})]
    assert state.trick == Trick(5) and state.to_act == (5,)
    state, events = play(phase, S(SIX), 4, "7S")  # no close: the next seat answers
    assert [e.type for e in events] == ["PLAY"] and state.to_act == (5,) and state.trick.top_seat == 4


def test_the_game_is_handed_the_play_it_beat_and_the_round_may_end_on_a_last_card():
    seen = []

    def after_play(state, seat, verdict, beaten, events):
        seen.append((seat, beaten.top, beaten.top_seat))
        return state

    phase = flow(after_play=after_play, round_over=lambda s: bool(s.out))
    state, _ = play(phase, S(hands("3S", "4S 5S", "9S")), 0, "3S")
    assert seen == [(0, 0, -1)] and state.out == (0,) and state.to_act == ()  # finished at once
    phase = flow(after_play=after_play, round_over=lambda s: bool(s.out), plays_out_trick=lambda s: True)
    state, events = play(phase, S(hands("3S", "4S 5S", "9S")), 0, "3S")
    assert [e.type for e in events] == ["PLAY", "OUT"] and events[-1].values == {"place": 1}
    state, _ = play(phase, state, 1, "4S")
    assert seen[-1] == (1, cards.card_rank(cards.parse_cards("3S")[0]) + 1, 0)


def test_without_passes_and_with_an_extra_kind():
    def check_knock(state, action):
        return Verdict.ok("knock")

    def apply_knock(phase, state, action, verdict, events):
        return phase.ask_next(state._replace(log=state.log + (action.seat,)), action.seat, events)

    phase = flow(can_pass=False, extra={"KNOCK": TrickMove(check_knock, apply_knock,
                                                           lambda s, seat: [(Action(seat, "KNOCK"), None)])})
    assert phase.kinds == frozenset((PLAY, "KNOCK"))
    state, _ = play(phase, S(SIX), 0, "3S")
    assert [a.kind for a, _ in phase.legal(G, state, 1)] == ["KNOCK"]
    state, events = phase.apply(G, state, Action(1, "KNOCK"), Verdict.ok("knock"))
    assert state.log == (1,) and state.to_act == (2,) and events == []


# --- asking in turn -------------------------------------------------------------------------------

def asked_phase(**config) -> AskInTurn:
    base = dict(legal=lambda s, ask: [(Action(ask.seat, PASS), None)], check=lambda s, a, ask: Verdict.ok("ok"),
                answer=lambda s, a, v, ask, events: s._replace(log=s.log + ((ask.seat, a.value),)),
                resolve=lambda s, events: s._replace(to_act=(), phase=1))
    return AskInTurn("ask", (PASS, "BID"), **{**base, **config})


def ask(phase, state, seat, value=0):
    action = Action(seat, "BID", value=value)
    return phase.apply(G, state, action, phase.check(G, state, action))


def test_ask_in_turn_each_once_in_order_then_resolved():
    phase = asked_phase()
    state = S(SIX[:3], asking=queue_in_order(1, 3), to_act=(1,))
    assert state.asking == (Ask(1), Ask(2), Ask(0))
    for seat in (1, 2):
        state, _ = ask(phase, state, seat)
        assert state.to_act == ((seat + 1) % 3,)
    state, _ = ask(phase, state, 0)
    assert state.log == ((1, 0), (2, 0), (0, 0)) and state.phase == 1 and state.asking == ()


def test_ask_in_turn_stops_early_asks_again_and_takes_new_obligations():
    phase = asked_phase(stop=lambda s: any(v == 3 for _, v in s.log))
    state = S(SIX[:3], asking=queue_in_order(0, 3), to_act=(0,))
    state, _ = ask(phase, state, 0, 3)
    assert state.phase == 1 and state.asking == ()  # a bid of 3 ends it at once
    again = asked_phase(again=lambda s, a: a.seat == 0 and len(s.log) < 2)
    state = S(SIX[:3], asking=(Ask(0), Ask(1)), to_act=(0,))
    state, _ = ask(again, state, 0)
    assert state.asking == (Ask(1), Ask(0)) and state.to_act == (1,)
    queue = asked_phase(answer=lambda s, a, v, ask, events: s._replace(
        log=s.log + ((ask.seat, a.value),), asking=s.asking + ((Ask(2, 1, ask.seat, 2),) if ask.task == 0 else ())))
    state = S(SIX[:3], asking=(Ask(0),), to_act=(0,))
    state, _ = ask(queue, state, 0)
    assert state.asking == (Ask(2, 1, 0, 2),) and state.to_act == (2,)  # a tribute owed: then its return


def test_to_act_is_per_viewer_where_the_turn_is_not_public():
    class Toy(Game):
        id, name, min_seats, max_seats = "toy_phases", "phases", 3, 3
        notation = cards.PokerNotation(1)
        phases = (Moves("turn", (PLAY,), legal=None, check=None, apply=None),
                  DecisionPhase("claim", (PASS,), check=None, legal=None, resolve=None, record=None), Finished())

        def knowledge(self, state):
            return Knowledge(0, (0, 0, 0))

    game = Toy()
    turn = S(SIX[:3], to_act=(1,))
    assert [game.to_act_for(turn, v) for v in (None, -1, 0, 1)] == [(1,), (1,), (1,), (1,)]
    claim = S(SIX[:3], to_act=(0, 2), phase=1)
    assert [game.to_act_for(claim, v) for v in (None, -1, 0, 1, 2)] == [(0, 2), (), (0,), (), (2,)]
    assert Window.open((2, 0)).awaiting() == (2, 0)


def test_a_hint_context_key_the_game_does_not_read_is_refused_by_name():
    from referee.core.errors import InvalidAction, Reason
    from referee.core.registry import GAMES

    ddz, q783 = GAMES["doudizhu"], GAMES["q783"]
    ddz.check_context({"table_kind": "pair"})
    try:
        ddz.check_context({"a" * 50: "x", "zz": "y"})
    except InvalidAction as error:
        assert error.reason == Reason.MALFORMED_REQUEST
        assert error.message == f"doudizhu reads no hint context {'a' * 40!r} (known: table_kind)"
    else:
        raise AssertionError("an unknown context key was taken")
    try:
        q783.check_context({"table_kind": "pair"})
    except InvalidAction as error:
        assert error.message == "q783 reads no hint context 'table_kind' (known: none)"
    else:
        raise AssertionError("q783 reads no context")
