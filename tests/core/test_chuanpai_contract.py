"""The platform's contract suite (tests/contract) run on 川牌 directly: each contract test is
called on the game instance itself, for every seat count where the test takes one, with more
option sets than the registry-driven fixtures (which run the defaults and the preset
``84_plus_2_wild``, C-2's 86-card deck) and in another process."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import test_codec_contract as codec_contract
import test_core_contract as core_contract
from game_contract import playout, seeded_digests

from referee.core.games.chuanpai.deal import Options
from referee.core.games.chuanpai.game import CHUANPAI

G = CHUANPAI
PRESETS = [(G, G.make_options())] + [(G, G.make_options(overrides={name: True})) for name in
                                     ("same_points", "no_replacements", "clockwise", "qi_is_peng", "an_face_down")] + [
    (G, G.make_options("84_plus_2_wild"))]


@pytest.mark.parametrize("game_preset", PRESETS, ids=lambda p: "options")
def test_chuanpai_contract_random_playouts_keep_the_contract(game_preset):
    core_contract.test_random_playouts_keep_the_contract(game_preset=game_preset)


@pytest.mark.parametrize("abandon", [0.0, 0.05])
def test_chuanpai_contract_many_quick_playouts_end_and_balance(abandon):
    core_contract.test_many_quick_playouts_end_and_balance(G, abandon)


@pytest.mark.parametrize("name", ["test_every_seat_count_and_preset_plays",
                                  "test_unpack_refuses_bytes_pack_never_writes", "test_replay_reproduces_every_state",
                                  "test_a_match_carries_over_round_after_round",
                                  "test_states_fit_the_sealed_size_with_the_largest_entropy_and_options",
                                  "test_the_deal_record_names_distinct_cards", "test_declared_schema_is_consistent"])
def test_chuanpai_contract(name):
    getattr(core_contract, name)(G)


def test_chuanpai_contract_codec_padding_holds_the_longest_state():
    codec_contract.test_the_padding_holds_the_longest_state_the_declarations_allow(G)


@pytest.mark.parametrize("round_seed", range(2))
def test_chuanpai_contract_every_state_within_its_declarations(round_seed):
    codec_contract.test_every_state_a_playout_reaches_is_within_its_declarations((G, Options(seventh_bonus=0)),
                                                                                 round_seed)


@pytest.mark.parametrize("seats", range(2, 8))
def test_chuanpai_contract_playout_every_seat_count(seats):
    for i in range(3):
        playout(G, b"seats %d/%d" % (seats, i), random.Random(i), seats=seats)


_DIGESTS = """
import json, sys
sys.path.insert(0, {here!r})
from game_contract import seeded_digests
from referee.core.games.chuanpai.game import CHUANPAI
print(json.dumps(seeded_digests(CHUANPAI, b"processes", 11)))
"""


def test_chuanpai_contract_digests_are_the_same_in_another_process():
    here = Path(core_contract.__file__).parent
    theirs = json.loads(subprocess.run([sys.executable, "-c", _DIGESTS.format(here=str(here))], check=True,
                                       capture_output=True, text=True, timeout=120).stdout)
    ours = seeded_digests(G, b"processes", 11)
    assert ours == theirs and len(ours) > 1
