"""Q783 tables set up by hand for the rule tests (tests/core/test_q783_*.py): options, hands
from card text, a 小局 in progress, and moves played through the game's own apply."""
from __future__ import annotations

import pytest

from referee.core import cards as cardlib
from referee.core import speedups
from referee.core.games.q783 import rules as q783
from referee.core.game import PASS, PLAY, Action, Match
from referee.core.games.q783.rules import Q783, State
from referee.core.tricks import Trick


@pytest.fixture(params=["interpreted", "compiled"])
def twin(request, monkeypatch):
    """Each twin of ``q783_hot`` in turn, patched into ``referee.core.games.q783.rules`` (import it into a
    test module to use it)."""
    module = speedups.interpreted("games.q783.hot")
    if request.param == "compiled":
        module = speedups.load("games.q783.hot")
        if module is speedups.interpreted("games.q783.hot"):
            pytest.skip("no compiled twin installed (or REFEREE_FORCE_PURE=1)")
    monkeypatch.setattr(q783, "hot", module)
    return module


def opts(preset: str = "q783", **overrides) -> q783.Options:
    return Q783.make_options(preset, overrides)


def parse_hands(*texts: str, decks: int = 2) -> list[tuple[int, ...]]:
    """Card texts of several hands, the n-th copy of a card in deck n across all of them."""
    ids = cardlib.parse_cards(" ".join(texts), decks)
    out, at = [], 0
    for text in texts:
        n = len(text.split())
        out.append(ids[at:at + n])
        at += n
    return out


def table(*hands: str, options=None, leader: int = 0, banks=None, out=()) -> State:
    """A 小局 in progress with the given hands (card text; "" for a seat that is out)."""
    options = options or opts()
    n = len(hands)
    masks = tuple(cardlib.to_mask(ids) for ids in parse_hands(*hands, decks=options.decks))
    camps = not options.individual and n in (4, 6)
    banks = tuple(banks) if banks is not None else ((1000, 1000) if camps else (1000,) * n)
    return State(options, b"test", b"", Match(0, (0,) * n), 0, leader, masks, (0,) * n, 0, banks, banks,
                 q783.PLAYING, (leader,), Trick(leader), out=tuple(out), trick_cards=(0,) * n)


def cards_of(state: State, seat: int, text: str) -> tuple[int, ...]:
    """The ids of ``text`` in the seat's hand (either copy of a card)."""
    hand, chosen = set(cardlib.from_mask(state.hands[seat])), []
    for token in text.split():
        base = cardlib.parse_cards(token)[0]
        chosen.append(next(c for c in (base, base + cardlib.CARDS_PER_DECK) if c in hand and c not in chosen))
    return tuple(chosen)


def act(state: State, seat: int, text: str | None = None):
    """Seat ``seat`` plays ``text`` (None: passes). Returns (state, events)."""
    action = Action(seat, PASS) if text is None else Action(seat, PLAY, cards_of(state, seat, text))
    return Q783.apply(state, action)


def run(state: State, *moves):
    """Apply (seat, text or None) moves in order; returns the state and every event."""
    events = []
    for seat, text in moves:
        state, more = act(state, seat, text)
        events += more
    return state, events
