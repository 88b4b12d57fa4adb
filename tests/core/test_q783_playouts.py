"""Q783 random playouts over option combinations (hypothesis): whole 大局 of several 小局, the
game contract at every step (game_contract.check_step), and the game's own invariants: cards
conserved, banks never negative unless ``negative_allowed``, every payment balances (the banks
move exactly as the PAY and PENALTY events say), every 小局 ends. Then bots through a real server
with option combinations, a 大局 through the server, and ``referee selfplay`` over the presets."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game_contract import MAX_STEPS, check_settlement, check_step

from referee.core.games.q783 import rules as q783
from referee.core.game import ABANDON, Action
from referee.core.games.q783.rules import Q783
from referee.service import bots, convert
from referee.service.credentials import bearer
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

FLAGS = ("individual", "ace_scores", "triple_bomb", "double_q783", "more_cards_beat", "pure_suit_order",
         "pass_bars_trick", "pay_on_pass", "end_at_once", "by_points", "drawn_bank", "negative_allowed")


@st.composite
def option_sets(draw) -> tuple[str, dict]:
    """A preset and a valid combination of options over it (the cross-option checks respected)."""
    preset = draw(st.sampled_from(["q783", "378q"]))
    chosen = {name: draw(st.booleans()) for name in FLAGS}
    chosen.update(decks=draw(st.sampled_from([1, 2])), baopai=draw(st.integers(0, 3)),
                  payment=draw(st.sampled_from(["by_type", "by_count", "by_type_378q"])),
                  penalty_individual=draw(st.sampled_from([25, 50, 100])),
                  penalty_camp=draw(st.sampled_from([50, 100, 200])), xiaoju_limit=draw(st.integers(1, 3)))
    if preset == "q783":
        chosen["two_low"] = draw(st.booleans())
    else:
        chosen.update(two_378q=draw(st.sampled_from(["lowest", "between", "removed"])),
                      pure_378q_top=draw(st.booleans()))
    if chosen["drawn_bank"]:
        chosen["first_lead"] = draw(st.sampled_from(["heart_three", "first_score_card_drawer"]))
    else:
        chosen["start_bank"] = draw(st.sampled_from([0, 30, 200]))
    return preset, chosen


def _banks_from_events(state_before, events, camps: bool) -> list[int]:
    banks = list(state_before.banks)
    for e in events:
        if e.type in ("PAY", "PENALTY"):
            payer, payee = (e.seat % 2, e.values["to"] % 2) if camps else (e.seat, e.values["to"])
            banks[payer] -= e.values["amount"]
            banks[payee] += e.values["amount"]
    return banks


def play_big_game(options, seats: int, seed: bytes, rnd: random.Random, rounds: int = 3, full: bool = True):
    """Play up to ``rounds`` 小局 of one 大局 with random legal actions (rarely an abandon),
    checking everything at every step. Returns the last state."""
    match = None
    for k in range(rounds):
        state = Q783.deal(options, seed + bytes([k]), b"", seats, match)
        total = sum(state.banks)
        events = Q783.deal_events(state)
        steps = 0
        while True:
            if full:
                check_step(Q783, state, events, rnd)
            if not options.negative_allowed:
                assert min(state.banks) >= 0, state.banks
            assert sum(state.banks) == total  # payments only move points between banks
            if state.finished:
                break
            assert steps < MAX_STEPS, "the 小局 did not end"
            if rnd.random() < 0.003:
                action = Action(rnd.randrange(seats), ABANDON)
            else:
                action = rnd.choice(Q783.legal_actions(state, state.to_act[0]))[0]
            before = state
            state, events = Q783.apply(state, action)
            assert list(state.banks) == _banks_from_events(before, events, state.camps)
            steps += 1
        check_settlement(Q783, state)
        points = Q783.settle(state).points
        assert points == tuple(state.banks[q783.bank_of(state, s)] - state.opening[q783.bank_of(state, s)]
                               for s in range(seats))
        if Q783.match_over(state):
            assert state.exhausted or options.negative_allowed
            return state
        match = Q783.next_round(state)
        assert match.carry[1] == state.banks
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=option_sets(), seats=st.integers(3, 6), seed=st.binary(min_size=1, max_size=8),
       choices=st.integers(0, 2**32))
def test_q783_random_big_games_over_option_combinations(chosen, seats, seed, choices):
    preset, overrides = chosen
    options = Q783.make_options(preset, overrides)
    play_big_game(options, seats, seed, random.Random(choices))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=option_sets(), seats=st.integers(3, 6), seed=st.binary(min_size=1, max_size=8),
       choices=st.integers(0, 2**32))
def test_q783_many_quick_big_games_end_and_balance(chosen, seats, seed, choices):
    preset, overrides = chosen
    play_big_game(Q783.make_options(preset, overrides), seats, seed, random.Random(choices), rounds=4, full=False)


def test_q783_a_big_game_ends_when_a_bank_runs_out():
    """Small banks: the 大局 ends (MATCH_OVER) with a bank at 0, and no penalty after it."""
    options = Q783.make_options("q783", {"start_bank": 30, "individual": True})
    ended = 0
    for k in range(20):
        state = play_big_game(options, 4, b"short %d" % k, random.Random(k), rounds=50, full=False)
        if Q783.match_over(state):
            ended += 1
            assert 0 in state.banks and state.outcome == q783.EXHAUSTED
    assert ended >= 15


# --- through a real server --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def stub():
    server = RefereeServer(Config(port=0, drain=0, grace=0, max_connection_age_s=86400, allow_caller_seed=True),
                           KeyRing.generate()).start()
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.RefereeServiceStub(channel)
    server.stop(drain=0, grace=0)


SERVER_OPTION_SETS = [
    ("q783", {}), ("378q", {}), ("q783", {"individual": True, "decks": 1, "two_low": True}),
    ("378q", {"two_378q": "removed", "pay_on_pass": True, "pure_378q_top": True, "double_q783": True}),
    ("q783", {"drawn_bank": True, "first_lead": "first_score_card_drawer", "payment": "by_count",
              "pass_bars_trick": True, "end_at_once": True}),
    ("q783", {"negative_allowed": True, "xiaoju_limit": 2, "by_points": True, "triple_bomb": True,
              "ace_scores": True, "more_cards_beat": True, "pure_suit_order": True}),
]


@pytest.mark.parametrize("preset, overrides", SERVER_OPTION_SETS)
def test_q783_bots_play_through_the_server(stub, preset, overrides):
    rnd = random.Random(7)
    options = {name: convert.option_value(value) for name, value in overrides.items()}
    for seats_seed in range(2):
        played = bots.play_round(stub, rnd, game="q783", preset=preset, options=options, seed=b"bots %d" % seats_seed,
                                 illegal_rate=0.2, abandon_rate=0.0, card_ids=Q783.notation.id_count,
                                 kinds=Q783.kind_names())
        settlement = played.score.settlement
        assert sum(settlement.points) + settlement.house == 0 and played.score.deal.game == "q783"


def test_q783_a_big_game_through_the_server(stub):
    """Deal{previous_state} as the owner carries the banks and the dealer; Score reports the
    小局 and the match totals."""
    options = {"negative_allowed": convert.option_value(True), "xiaoju_limit": convert.option_value(3)}
    deal = stub.Deal(pb.DealRequest(game="q783", options=options, seed=b"big game"))
    owner = (bearer(deal.owner_credential),)
    totals = [0] * 4
    state = deal.state
    rnd = random.Random(3)
    for k in range(3):
        view = stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).views[0]
        banks = [sv.counters["bank"] for sv in view.seats]
        start_banks = banks if k == 0 else start_banks
        finished = False
        while not finished:
            current = stub.GetView(pb.GetViewRequest(state=state), metadata=owner).to_act[0]
            legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=current), metadata=owner)
            reply = stub.Play(pb.PlayRequest(state=state, action=rnd.choice(legal.actions).action), metadata=owner)
            state, finished = reply.state, reply.finished
        score = stub.Score(pb.ScoreRequest(state=state), metadata=owner)
        totals = [t + p for t, p in zip(totals, score.settlement.points)]
        assert list(score.match.totals) == totals and score.match.round == k
        assert score.match.over == (k == 2) and score.match.number == 0
        end = stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).views[0]
        assert [sv.counters["bank"] - b for sv, b in zip(end.seats, banks)] == list(score.settlement.points)
        if k < 2:
            state = stub.Deal(pb.DealRequest(previous_state=state), metadata=owner).state
            nxt = stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=owner).views[0]
            assert [sv.counters["bank"] for sv in nxt.seats] == [sv.counters["bank"] for sv in end.seats]
    # the 大局 is over: the next Deal starts the table's next 大局 (round 0, totals and banks afresh)
    again = stub.Deal(pb.DealRequest(previous_state=state), metadata=owner)
    assert (again.match.round, again.match.number, list(again.match.totals)) == (0, 1, [0] * 4)
    view = stub.GetView(pb.GetViewRequest(state=again.state, view_seat=0), metadata=owner).views[0]
    assert [sv.counters["bank"] for sv in view.seats] == start_banks and view.counters["round"] == 0


@pytest.mark.parametrize("preset", ["q783", "378q"])
def test_q783_selfplay_over_the_presets(preset):
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", "selfplay", "--game", "q783", "--preset",
                          preset, "--games", "3", "--seed", "4", "--illegal-rate", "0.3"],
                         capture_output=True, text=True, timeout=300)
    summary = json.loads(out.stdout)
    assert out.returncode == 0 and summary["games"] == 3 and summary["zero_sum"] is True
    assert summary["rejected_actions"] > 0 and len(summary["score_totals"]) == 4


def test_q783_states_fit_the_sealed_size():
    """The largest states (six seats, two packs, drawn score cards, every seat's entropy, a long
    match with big totals and banks) fit ``state_bytes``: every token has one length."""
    from game_contract import check_packed_size

    from referee.core import rng

    largest = {"decks": 2, "penalty_individual": 100, "penalty_camp": 200, "negative_allowed": True,
               "xiaoju_limit": 1000, "baopai": 20, "payment": "by_type_378q", "triple_bomb": True,
               "double_q783": True, "more_cards_beat": True, "pure_suit_order": True, "pass_bars_trick": True,
               "pay_on_pass": True, "end_at_once": True, "by_points": True, "ace_scores": True,
               "two_378q": "between", "pure_378q_top": True}
    for extra in ({"drawn_bank": True, "first_lead": "first_score_card_drawer"}, {"start_bank": 100_000}):
        for individual in (True, False):
            options = Q783.make_options("378q", {**largest, **extra, "individual": individual})
            for seats in range(3, 7):
                entropy = rng.entropy(b"o" * rng.MAX_ENTROPY_BYTES, [b"s" * rng.MAX_SEAT_ENTROPY_BYTES] * seats)
                first, _ = Q783.apply(Q783.deal(options, b"x", b"", seats), Action(0, ABANDON))
                match = Q783.next_round(first)._replace(round=10**6, totals=(-10**12,) * seats)
                rnd = random.Random(seats)
                for k in range(2):
                    state = Q783.deal(options, bytes([k]) * rng.MAX_SEED_BYTES, entropy, seats,
                                      match if k else match._replace(carry=()))
                    while True:
                        check_packed_size(Q783, state)
                        if state.finished:
                            break
                        state, _ = Q783.apply(state, rnd.choice(Q783.legal_actions(state, state.to_act[0]))[0])
