"""Kept samples of Dou Dizhu bugs found by the core suite, each the smallest reproduction.

Fixed: digests hashed marshal format 3+ output, which depends on reference counts (now format
2); unpack let KeyError escape; airplane bodies had no 6-trio limit; readings indexed past the
kinds on 5+ cards of a rank."""
import marshal

import pytest

from referee.core.games.doudizhu.rules import DOUDIZHU, Options
from referee.core.errors import InvalidAction, Reason


def test_ddz_digest_does_not_depend_on_other_references():
    state = DOUDIZHU.deal(Options(), b"seed")
    before = DOUDIZHU.digest(state)
    held = state.hands[0]  # any other reference, e.g. a caller keeping the hand
    assert DOUDIZHU.digest(state) == before
    del held


def _replay_final(keep_history):
    state = DOUDIZHU.deal(Options(first_bidder=0), b"seed")
    history = [state]
    while not state.finished:
        action, _ = DOUDIZHU.legal_actions(state, state.to_act[0])[-1]
        state, _ = DOUDIZHU.apply(state, action)
        if keep_history:
            history.append(state)
    return state, DOUDIZHU.digest(state)


def test_ddz_replay_digest_does_not_depend_on_kept_history():
    kept_state, kept_digest = _replay_final(keep_history=True)
    state, digest = _replay_final(keep_history=False)
    assert kept_state == state
    assert kept_digest == digest


def test_ddz_unpack_of_a_marshalled_dict_is_state_token_invalid():
    with pytest.raises(InvalidAction) as error:
        DOUDIZHU.unpack(marshal.dumps({}))
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


def test_ddz_rule_11_airplane_body_of_seven_trios_is_no_combination():
    assert DOUDIZHU.classify("333444555666777888999TJQKA22", Options()) == []


@pytest.mark.parametrize("compiled", [False, True], ids=["interpreted", "compiled"])
def test_ddz_readings_of_five_of_a_rank_is_no_combination(compiled):
    from referee.core import speedups

    hot = speedups.load("games.doudizhu.hot") if compiled else speedups.interpreted("games.doudizhu.hot")
    five_threes = 5  # packed counts: 5 cards of rank 3 (beyond one deck; never from a hand)
    assert hot.readings(five_threes, False) == []
    assert hot.readings(five_threes | (1 << 3), False) == []
