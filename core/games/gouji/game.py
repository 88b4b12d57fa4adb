"""够级: the whole 回合 and the 局 of ``ju_length`` 回合 (rules/gouji.md §5-§17).

A 回合, in the phases of 5.2 (each an ``asking.AskInTurn`` queue, then ``tricks.TrickPlay``):

- ``yudian`` (8.1): before the deal every seat is asked once, counter-clockwise from the 6.2
  starting seat (the previous 回合's 头科, seat 0 in the table's first 回合): DECLARE (预点) or
  PASS. Nobody holds cards yet (views show no hand); the last answer deals (1.4), 上班 names the
  first leader (6.1-6.4) and, in 憋三 mode, 买三 runs (7.2-7.3, automatic: the buyer pays his
  lowest 钱, else his lowest joker; the seller gives his lowest 3; a buyer without 3, 钱 and joker
  is in 革命 at once).
- ``tribute`` (§12): in a 局's second and later 回合, the payments owed by the previous 回合 (闷贡,
  烧贡, 点贡, 落贡 in the order of 12.2) are offered one at a time to their receivers: the payer's
  highest jokers and 钱 (12.1; 12.9), which the receiver sees and may ACCEPT or REFUSE (12.3; a
  payer without any pays nothing, event NO_TRIBUTE). Each accepted 落贡 is then returned: its
  receiver chooses the cards (RETURN, 12.8 ``return_cards``). Tribute and 买三 cards are known to
  giver and receiver only.
- ``mingdian`` (8.2): every active seat without 预点, counter-clockwise from the first leader:
  DECLARE (明点) or PASS.
- ``geming`` (§9): every seat holding no joker and no 钱, from the first leader: REVOLT or PASS.
  Two revolutionaries or more (7.3 or 9.1) void the 回合 (9.2: it finishes as ``void``; the next
  Deal from its token replays it, not counted, with the same tribute owed; ``void_ju`` voids the
  局). One: his 对头 chooses YAOTOU (要头: his first three 够级牌 are 够死级, 9.5) or PASS (无头).
- ``playing``: tricks (§10-§14): the 对头 rule, 让 (YIELD), burns with 解烧, success and failure,
  四人乱缠, 接风, 够死级 (the trick ends at once; ``kelei_burnable``: protected, burnable), 3s last
  and 闷 in 憋三 mode (7.4-7.5, ``men_is_daluo``, ``men_to_duitou``), places with the 四科 reserved
  for a revolutionary (9.3), 开点 (17.1-17.3).

The 局 (5.1): the Match record carries the previous 回合's places, calls, 开点, burns and 闷 into
the next (``Carry``); a 局 ends after ``ju_length`` counted 回合 or at once after a 串三户 (15.4),
and the next Deal from the last token starts the next 局 at the same table, without tribute.

A leaver (ABANDON, or a turn clock run out) is made 大落 (15.6): placed from the bottom, his cards
dead, and the 回合 goes on (abandon policy OUT_OF_PLAY); questions to or from him are dropped.
"""
from __future__ import annotations

from typing import Annotated, NamedTuple

from ... import cards as cardlib
from ... import rng
from ...asking import Ask, AskInTurn, queue_in_order
from ...codec import Index, Mask, Seq, Small
from ...errors import InvalidAction, Reason
from ...game import (ABANDON, COMMON_KINDS, EMPTY, OUT_OF_PLAY, PASS, PLAY, Action, ActionKind, Combo, DealKey, Event,
                     EventType, Finished, Game, Knowledge, Match, SeatView, Settlement, Verdict, View, held)
from ...tricks import Trick, TrickMove, TrickPlay, seats_in
from . import rules
from .rules import BEAT, BURN, MINGDIAN, NONE, NOT_ASKED, PASS_ONLY, SEATS, YUDIAN, Options, hot, opposite, team

YUDIAN_PHASE, TRIBUTE, MINGDIAN_PHASE, GEMING, PLAYING, FINISHED = range(6)
ALL = (1 << SEATS) - 1
# what an Ask of the queue is about
T_CALL, T_MEN, T_SHAO, T_DIAN, T_LUO, T_RETURN, T_REVOLT, T_YAOTOU = range(8)
KIND_TASK = {"men": T_MEN, "shao": T_SHAO, "dian": T_DIAN, "luo": T_LUO}
TASK_KIND = {v: k for k, v in KIND_TASK.items()}
TRIBUTE_TASKS = frozenset(KIND_TASK.values())

DECLARE, ACCEPT, REFUSE, RETURN, REVOLT, YAOTOU, YIELD = "DECLARE", "ACCEPT", "REFUSE", "RETURN", "REVOLT", "YAOTOU", "YIELD"
YIELD_NOT_ALLOWED, PASS_ONLY_HERE, BURN_NOT_ALLOWED = "YIELD_NOT_ALLOWED", "PASS_ONLY", "BURN_NOT_ALLOWED"
RETURN_NOT_ALLOWED, THREES_LAST, NOT_ASKED_THAT = "RETURN_NOT_ALLOWED", "THREES_LAST", "NOT_ASKED_THAT"
THREES = rules.NOTATION.rank_masks[0]
MONEY = rules.NOTATION.rank_masks[12] | rules.NOTATION.rank_masks[13] | rules.NOTATION.rank_masks[14]


class Carry(NamedTuple):
    """What a 回合 carries into the next of its 局 (§12, 6.2, 6.4): the seat of each place (头科 ..
    大落), each seat's call (0 none, 1 明点, 2 预点), who opened (17.1-17.3), the 烧贡 each seat owes
    (a mask of burners) and the receiver of each seat's 闷贡 (-1 none)."""

    places: Annotated[tuple[int, ...], Seq(Index("seats", 0), "seats")]
    calls: Annotated[tuple[int, ...], Seq(Index(3, 0), "seats")]
    opened: Annotated[int, Mask("seats")]
    shao: Annotated[tuple[int, ...], Seq(Mask("seats"), "seats")]
    men: Annotated[tuple[int, ...], Seq(Index("seats"), "seats")]


class State(NamedTuple):
    options: Options
    seed: bytes
    entropy: bytes
    match: Match
    num_seats: int
    hands: tuple[int, ...]
    played: int
    trick: Trick
    out: tuple[int, ...]  # seats that played out, in order (the trick flow's)
    places: tuple[int, ...]  # per seat its place 1..6, 0 while none
    burns: tuple[int, ...]  # per seat: the seat it is burning, -1 none
    burn_top: int  # the seat whose burning play is the top play, -1 none
    shao: tuple[int, ...]  # per seat: a mask of the burners it owes a 烧贡 (13.7)
    protected: bool  # the top play is a protected 够级牌 (11.1)
    opened: int  # seats that opened (17.1)
    failed: int  # placed from the bottom while playing: failed burners (13.8), 闷 under men_is_daluo
    left: int  # leavers (15.6)
    yielded: int  # the seat that yielded on the top play, -1 none
    close: int  # 1: the trick ends at once after this play (13.8, 9.5)
    next_lead: int  # who leads after the trick closed by a failed burn, -1 the usual
    phase: int
    to_act: tuple[int, ...]
    leader: int  # the first leader of the 回合 (6.1-6.4)
    calls: tuple[int, ...]  # per seat: 0 none, 1 明点, 2 预点
    revolution: int  # seats in 革命 (7.3, 9.1)
    rev: int  # the revolutionary once the 革命 round is over, -1 none
    yaotou_left: int  # 够死级 left to the revolutionary's 对头 (9.5)
    siji: int  # 1: the top play is a 够死级
    asking: tuple[Ask, ...]  # the questions still to ask (asking.AskInTurn)
    offer: int  # the tribute offered to the seat asked (cards of the payer's hand)
    shown: tuple[int, ...]  # per seat: cards it saw change hands (tribute, return, 买三)
    received: tuple[int, ...]  # per seat: tribute cards received (12.9)
    beaten_by: tuple[int, ...]  # per seat: the first seat that beat its last play, -1 none (7.5)
    men: tuple[int, ...]  # per seat: whom it owes a 闷贡, -1 none (7.5)
    void: int  # 1: the 回合 is void (9.2)
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def dealt(self) -> bool:
        return self.phase != YUDIAN_PHASE


def _set(values: tuple, seat: int, value) -> tuple:
    return values[:seat] + (value,) + values[seat + 1:]


def active(state: State) -> int:
    """1.7: holding cards (every seat before the deal), not out of play, not in 革命, not left."""
    holding = seats_in(state.hands) if state.dealt else ALL
    return holding & ~state.failed & ~state.left & ~state.revolution


def luanchan(state: State) -> bool:
    """14.1: four or fewer seats active (9.6: a revolutionary and a 头科 out make it so)."""
    return active(state).bit_count() <= 4


def flags(state: State) -> int:
    return rules.flags_of(state.options)


def _yaotou(state: State) -> tuple[int, ...]:
    """Per seat the 够死级 allowance has_head reads (11.4): the revolutionary's 对头 keeps his head
    while he has 够死级 left or his 够死级 is the top play."""
    if state.rev < 0:
        return (0,) * SEATS
    return _set((0,) * SEATS, opposite(state.rev), state.yaotou_left + state.siji)


def head(state: State, seat: int, inside: int) -> bool:
    """11.4-11.5 for ``seat`` among the ``inside`` seats."""
    return rules.has_head(seat, inside, state.rev, _yaotou(state)[seat])


def right_of(state: State, seat: int) -> int:
    """What ``seat`` may do on the top play (``rules.answer_right``)."""
    trick = state.trick
    owner = trick.top_seat
    burned_by = owner if state.burns[owner] == seat else -1
    return rules.answer_right(state.options, seat, owner, state.protected, active(state), trick.barred,
                              revolutionary=state.rev, yaotou_left=_yaotou(state), burned_by=burned_by)


def cards_of(by_rank: list, play: int) -> tuple[int, ...]:
    """The lowest ids of each rank that make ``play``, of a hand's ids by rank (``ids_by_rank``:
    a hand's many plays share one walk of its mask)."""
    ids: list[int] = []
    for rank, n in ((hot.natural_rank(play), hot.naturals(play)), (12, hot.twos(play)),
                    (13, hot.smalls(play)), (14, hot.bigs(play))):
        if n:
            ids += by_rank[rank][:n]
    return tuple(sorted(ids))


def ids_by_rank(hand: int) -> list[tuple[int, ...]]:
    """The ids of ``hand`` of each rank index (0..14), ascending."""
    return [cardlib.from_mask(hand & mask) for mask in rules.NOTATION.rank_masks]


def combo_of(play: int) -> Combo:
    kind = "gouji" if hot.is_gouji(play) else "play"
    return Combo(kind, hot.main_rank(play), 1, hot.size(play), (), rules.play_text(play))


def _threes(play: int) -> bool:
    return hot.naturals(play) > 0 and hot.natural_rank(play) == 0


def _threes_allowed(state: State, seat: int, play: int) -> bool:
    """7.4 (憋三 mode): 3s only when nothing else remains, all of them in one play."""
    hand = state.hands[seat]
    return not (hand & ~THREES) and hot.size(play) == hand.bit_count()


# --- the play phase ------------------------------------------------------------------------------

def read_play(state: State, action: Action, mask: int) -> Verdict:
    play = hot.classify(*rules.counts_of_mask(mask))
    text = cardlib.format_cards(cardlib.from_mask(mask))
    if not play:
        return Verdict.no(Reason.NOT_A_COMBINATION, f"{text}: the natural cards of a play are of one rank (2.1)")
    if state.options.biesan and _threes(play) and not _threes_allowed(state, action.seat, play):
        return Verdict.no(THREES_LAST, "in 憋三 mode 3s are played only when nothing else remains, all at once (7.4)")
    trick = state.trick
    if trick.top:
        right = right_of(state, action.seat)
        if right == PASS_ONLY or right == NOT_ASKED:
            return Verdict.no(PASS_ONLY_HERE, "only the owner's 对头 may beat a protected 够级牌; pass (11.1, 13.2, 13.5)")
        if not hot.beats(play, trick.top, flags(state)):
            return Verdict.no(Reason.DOES_NOT_BEAT, f"{text} does not beat the table (3.1-3.6)")
        if right == BURN:
            rest = rules.counts_of_mask(state.hands[action.seat] & ~mask)
            if not hot.can_burn_out(*rest):
                return Verdict.no(BURN_NOT_ALLOWED, "after a burn the hand must play out with a joker in every "
                                                    "set but the last (13.3 d)")
    combo = combo_of(play)
    return Verdict.ok(combo.label, combo, Action(action.seat, PLAY, cardlib.from_mask(mask)), play)


def legal_plays(state: State, seat: int):
    hand = state.hands[seat]
    counts = rules.counts_of_mask(hand)
    trick = state.trick
    if not trick.top:
        plays = hot.free_leads(*counts)
    else:
        right = right_of(state, seat)
        if right in (PASS_ONLY, NOT_ASKED):
            return []
        plays = hot.beating_plays(*counts, trick.top, flags(state))
        if right == BURN:
            plays = [p for p in plays if hot.can_burn_out(*hot.minus(*counts, p))]
    if state.options.biesan:
        plays = [p for p in plays if not _threes(p) or _threes_allowed(state, seat, p)]
    by_rank = ids_by_rank(hand) if plays else []
    return [(Action(seat, PLAY, cards_of(by_rank, p)), combo_of(p)) for p in plays]


def _bars(state: State) -> bool:
    return not luanchan(state)


def _lifts_bar(state: State, seat: int, trick: Trick) -> bool:
    return luanchan(state) or trick.top_seat == opposite(seat)


def _protected(state: State, seat: int, play: int) -> bool:
    return hot.is_gouji(play) and not luanchan(state) and head(state, seat, active(state))


def _reserved(state: State) -> bool:
    """9.3: the 四科 is reserved while the revolutionary has no place."""
    return state.rev >= 0 and not state.places[state.rev]


def _place(state: State, seat: int, top: bool = True) -> State:
    """15.1 (top) or 15.5-15.6 (from the bottom): the best or worst free place, skipping the 四科
    while reserved (9.3); when the revolutionary's two team-mates hold 头科 and 二科 he takes 三科."""
    taken = set(state.places)
    if _reserved(state) and seat != state.rev:
        taken.add(4)
    order = range(1, SEATS + 1) if top else range(SEATS, 0, -1)
    place = next(p for p in order if p not in taken)
    places = _set(state.places, seat, place)
    rev = state.rev
    if rev >= 0 and not places[rev] and 3 not in places:
        mates = [s for s in range(SEATS) if places[s] in (1, 2)]
        if len(mates) == 2 and all(team(s) == team(rev) and s != rev for s in mates):
            places = _set(places, rev, 3)
    return state._replace(places=places)


def _fail(state: State, seat: int, events: list) -> State:
    """13.8: the burn fails: the burner is placed from the bottom, the trick ends at once, the
    burned player (or the next active seat after him) leads."""
    victim = state.burns[seat]
    state = _place(state._replace(failed=state.failed | 1 << seat, burns=_set(state.burns, seat, -1)), seat, top=False)
    inside = active(state)
    lead = victim
    while not inside >> lead & 1 and inside:
        lead = (lead + 1) % SEATS
    events.append(Event("BURN_FAILED", seat, values={"burned": victim}))
    return state._replace(close=1, next_lead=lead if inside else -1)


def _after_play(state: State, seat: int, verdict: Verdict, beaten: Trick, events: list) -> State:
    play = verdict.detail
    state = state._replace(close=0, next_lead=-1, siji=0)
    burns = list(state.burns)
    # 解烧 (13.4): the burner's 对头, or a headless neighbour directly, beats the burning play
    x = beaten.top_seat
    if beaten.top and state.burn_top == x and burns[x] >= 0:
        neighbour = seat in ((x + 1) % SEATS, (x + 5) % SEATS)
        if seat == opposite(x) or (neighbour and not head(state, seat, active(state))):
            events.append(Event("BURN_CANCELLED", x, values={"by": seat}))
            burns[x] = -1
    burn_top = -1
    was_burning = burns[seat] >= 0
    # a burn starts (13.1): a neighbour with a head beats a protected 够级牌
    if beaten.top and state.protected and seat in ((x + 1) % SEATS, (x + 5) % SEATS) and not luanchan(state) \
            and head(state, seat, active(state)):
        burns[seat] = x
        burn_top = seat
        events.append(Event("BURN", seat, values={"burned": x}))
    state = state._replace(burns=tuple(burns), burn_top=burn_top)
    if state.options.biesan:
        state = _smother(state, seat, play, beaten, events)
    hand = state.hands[seat]
    if not hand:
        if burns[seat] >= 0:  # 13.7: success
            victim = burns[seat]
            events.append(Event("BURN_SUCCEEDED", seat, values={"burned": victim}))
            state = state._replace(shao=_set(state.shao, victim, state.shao[victim] | 1 << seat),
                                   burns=_set(state.burns, seat, -1))
        state = _place(state, seat)
        if state.options.kelei_burnable:
            state = state._replace(yaotou_left=0)  # 9.5 kelei: the allowance ends when anyone goes out
    elif was_burning and ((not beaten.top and not hot.smalls(play) and not hot.bigs(play))
                          or not hot.can_burn_out(*rules.counts_of_mask(hand))):
        state = _fail(state, seat, events)
    # 让 (10.5): a yield on the beaten play counts as the yielder's pass when another seat beat it
    if state.yielded >= 0:
        trick = state.trick
        if state.yielded != seat:
            state = state._replace(trick=trick._replace(barred=trick.barred | 1 << state.yielded))
        state = state._replace(yielded=-1)
    # 9.5: the first three 够级牌 of a 要头 对头 are 够死级
    if (state.rev >= 0 and seat == opposite(state.rev) and state.yaotou_left > 0 and hot.is_gouji(play)
            and not luanchan(state)):
        state = state._replace(siji=1, yaotou_left=state.yaotou_left - 1)
        events.append(Event("SIJI", seat, values={"left": state.yaotou_left}))
        if not state.options.kelei_burnable:
            state = state._replace(close=1)
    return state._replace(protected=_protected(state, seat, play))


def _smother(state: State, seat: int, play: int, beaten: Trick, events: list) -> State:
    """7.5: who beat a seat's last play first; 闷 when a seat plays its 3s after a beaten play
    (``men_to_duitou``: the 闷贡 goes to its 对头), or at once under ``men_is_daluo``."""
    o = state.options
    beaten_by = list(state.beaten_by)
    men = list(state.men)
    x = beaten.top_seat
    if beaten.top and x >= 0 and x != seat and beaten_by[x] < 0:
        beaten_by[x] = seat
        if o.men_is_daluo and state.hands[x] and not state.hands[x] & ~THREES and active(state) >> x & 1:
            men[x] = seat
            events.append(Event("MEN", x, values={"to": seat}))
            state = _place(state._replace(failed=state.failed | 1 << x, burns=_set(state.burns, x, -1)), x, top=False)
    if _threes(play) and beaten_by[seat] >= 0 and not o.men_is_daluo:
        men[seat] = opposite(seat) if o.men_to_duitou else beaten_by[seat]
        events.append(Event("MEN", seat, values={"to": men[seat]}))
    beaten_by[seat] = -1
    return state._replace(beaten_by=tuple(beaten_by), men=tuple(men))


def _opens(state: State) -> int:
    """17.1-17.2: the owner of the top play opens when it is a protected 够级牌 still on top."""
    o, top = state.options, state.trick.top
    if not state.protected or state.close:
        return 0
    if o.exclude_attached_2 and hot.twos(top) and hot.naturals(top):
        return 0
    if o.exclude_pure_2 and hot.twos(top) and not hot.naturals(top) and not hot.smalls(top) and not hot.bigs(top):
        return 0
    return 1 << state.trick.top_seat


def _after_trick(state: State, trick: Trick, winner: int, events: list) -> State:
    # a 让 ends here: the yielder is asked again after every other seat passed (10.5), so his pass ends the trick
    return state._replace(yielded=-1, opened=state.opened | _opens(state), protected=False, burn_top=-1, siji=0)


def _unbeatable(state: State, play: int) -> bool:
    """3.4: under the strict comparison a play with an effective 大花 is never beaten (unless
    option 1 may beat a play of jokers only)."""
    o = state.options
    if o.comparison != "strict" or not hot.eff_bigs(play, flags(state)):
        return False
    if o.option1_joker_counts and hot.jokers_only(play):
        k = hot.bigs(play)
        return not (k == 1 or (o.option1_scope == "full" and k == 2))
    return True


def _closes(state: State, seat: int) -> int:
    if state.close or _unbeatable(state, state.trick.top):
        return seat
    return -1


def _next_leader(state: State, trick: Trick, winner: int) -> int:
    if state.next_lead >= 0:
        return state.next_lead
    inside = active(state)
    if inside >> winner & 1:
        return winner
    if state.options.partner_catches_wind:  # 15.2 variant
        for k in (2, 4):
            if inside >> ((winner + k) % SEATS) & 1:
                return (winner + k) % SEATS
    return next(s for s in ((winner + k) % SEATS for k in range(1, SEATS)) if inside >> s & 1)


def round_over(state: State) -> bool:
    """15.3: every active seat is of one team."""
    inside = active(state)
    return len({team(s) for s in range(SEATS) if inside >> s & 1}) <= 1


def _finish(state: State, events: list) -> State:
    state = state._replace(opened=state.opened | (_opens(state) if state.phase == PLAYING else 0))  # 17.1
    inside = active(state)
    left = {s: state.hands[s].bit_count() for s in range(SEATS) if inside >> s & 1}
    last = state.out[-1] if state.out else state.trick.top_seat
    for s in rules.remaining_places(left, last, state.options.seat_order):
        state = _place(state, s)
    for s in range(SEATS):  # the revolutionary (9.3), then any seat never placed
        if not state.places[s]:
            state = _place(state, s)
    opened = state.opened
    if state.rev >= 0:  # 17.3, 9.4
        opened = opened & ~(1 << state.rev) | 1 << opposite(state.rev)
    order = tuple(sorted(range(SEATS), key=state.places.__getitem__))
    events.append(Event("FINISH", order[0], values={"chuan_san_hu": int(rules.chuan_san_hu(order))}))
    return state._replace(opened=opened, phase=FINISHED, to_act=(), yielded=-1, asking=(), offer=0)


def _check_yield(state: State, action: Action) -> Verdict:
    if action.cards or action.ranks:
        return Verdict.no(Reason.BAD_ACTION, "YIELD takes no cards")
    if not may_yield(state, action.seat):
        return Verdict.no(YIELD_NOT_ALLOWED, "让 only on one's 对头's protected 够级牌, once, before 四人乱缠 (10.5)")
    return Verdict.ok("yield (让)")


def may_yield(state: State, seat: int) -> bool:
    trick = state.trick
    return (bool(trick.top) and state.protected and trick.top_seat == opposite(seat) and state.yielded < 0
            and not luanchan(state))


def _apply_yield(phase: TrickPlay, state: State, action: Action, verdict: Verdict, events: list) -> State:
    events.append(Event(YIELD, action.seat))
    return phase.ask_next(state._replace(yielded=action.seat), action.seat, events)


def _yield_actions(state: State, seat: int):
    return [(Action(seat, YIELD), None)] if may_yield(state, seat) else []


PLAY_PHASE = TrickPlay("playing", read_play=read_play, legal_plays=legal_plays, round_over=round_over,
                       finish=_finish, after_play=_after_play, after_trick=_after_trick,
                       bars=_bars, lifts_bar=_lifts_bar, closes=_closes, next_leader=_next_leader, active=active,
                       extra={YIELD: TrickMove(_check_yield, _apply_yield, _yield_actions)})


# --- the questions before the play ------------------------------------------------------------------

def _declare_or_pass(state: State, ask: Ask):
    return [(Action(ask.seat, PASS), None), (Action(ask.seat, DECLARE), None)]


def _check_declare(state: State, action: Action, ask: Ask) -> Verdict:
    if action.kind not in (PASS, DECLARE):
        return Verdict.no(NOT_ASKED_THAT, f"asked for a point call: DECLARE or PASS, not {action.kind}")
    return Verdict.ok("declare" if action.kind == DECLARE else "no call")


def _record_yudian(state: State, action: Action, verdict: Verdict, ask: Ask, events: list) -> State:
    call = YUDIAN if action.kind == DECLARE else NONE
    events.append(Event("CALL", action.seat, values={"call": call}))
    return state._replace(calls=_set(state.calls, action.seat, call))


def _record_mingdian(state: State, action: Action, verdict: Verdict, ask: Ask, events: list) -> State:
    call = MINGDIAN if action.kind == DECLARE else NONE
    events.append(Event("CALL", action.seat, values={"call": call}))
    return state._replace(calls=_set(state.calls, action.seat, call))


def _start(match: Match) -> int:
    """6.2: the previous 回合's 头科 (seat 0 when none)."""
    return match.carry.places[0] if match.carry is not None and match.carry.places else 0


def _counted(match: Match) -> bool:
    """The 回合 follows one of its 局 (tribute is owed; 6.4 daluo_leads)."""
    return match.round > 0 and match.carry is not None and bool(match.carry.places)


def _dealt_hands(state: State):
    match = state.match
    daluo = match.carry.places[5] if _counted(match) else -1
    return rules.deal(state.seed, state.entropy, state.options, start=_start(match), daluo=daluo)


def _deal_now(state: State, events: list) -> State:
    """8.1 → deal (1.4) → 上班 (6.1-6.4) → 买三 (7.2-7.3) → tribute (§12)."""
    hands, leader = _dealt_hands(state)
    state = state._replace(hands=hands, leader=leader, phase=TRIBUTE)
    events.extend(Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(hands))
    if state.options.biesan:
        state = _maisan(state, events)
    state = _skip_empty(state._replace(asking=payments(state)), events)
    if state.asking:
        return state._replace(to_act=(state.asking[0].seat,))
    return _to_mingdian(state, events)


def _maisan(state: State, events: list) -> State:
    """7.2-7.3: each seat without a 3 buys one, counter-clockwise from the first leader, paying
    his lowest 钱 (else his lowest joker; nothing to a team-mate under ``teammate_free``); the
    seller (``rules.maisan_seller``) gives his lowest 3. Without 3, 钱 and joker: 革命."""
    hands, shown = list(state.hands), list(state.shown)
    revolution = state.revolution
    for buyer in ((state.leader + k) % SEATS for k in range(SEATS)):
        if hands[buyer] & THREES:
            continue
        money = [c for r in (12, 13, 14) for c in cardlib.from_mask(hands[buyer] & rules.NOTATION.rank_masks[r])]
        if not money:
            revolution |= 1 << buyer
            events.append(Event("REVOLT", buyer, values={"automatic": 1}))
            continue
        seller = rules.maisan_seller(buyer, tuple((h & THREES).bit_count() for h in hands))
        three = cardlib.from_mask(hands[seller] & THREES)[0]
        moved = 1 << three
        hands[seller] &= ~moved
        hands[buyer] |= moved
        paid = 0 if state.options.teammate_free and team(seller) == team(buyer) else 1 << money[0]
        hands[buyer] &= ~paid
        hands[seller] |= paid
        shown[buyer] |= moved | paid
        shown[seller] |= moved | paid
        events.append(Event("MAISAN", buyer, cardlib.from_mask(moved | paid), values={"seller": seller}))
    return state._replace(hands=tuple(hands), shown=tuple(shown), revolution=revolution)


def payments(state: State) -> tuple[Ask, ...]:
    """12.2-12.7: the tribute owed by the previous 回合 of the 局, in paying order, as questions to
    the receivers (``to`` the payer, ``amount`` the cards owed); none in a 局's first 回合 (5.1)."""
    match = state.match
    if not _counted(match):
        return ()
    carry, o = match.carry, state.options
    owed = []
    for s in range(SEATS):
        if carry.men[s] >= 0:
            owed.append(("men", s, carry.men[s], 1))
        owed += [("shao", s, b, 1) for b in range(SEATS) if carry.shao[s] >> b & 1]
    for a in range(3):
        b = a + 3
        to_a, to_b = rules.dian_gong(carry.calls[a], carry.calls[b], bool(carry.opened >> a & 1),
                                     bool(carry.opened >> b & 1), o.exchange_one_each)
        owed += [("dian", b, a, to_a)] if to_a else []
        owed += [("dian", a, b, to_b)] if to_b else []
    owed += [("luo", payer, receiver, n) for payer, receiver, n in rules.luo_gong(carry.places)]
    ordered = rules.payment_order(owed, carry.places[0], o.tribute_order)
    return tuple(Ask(receiver, KIND_TASK[kind], payer, n) for kind, payer, receiver, n in ordered)


def _offer(state: State, ask: Ask) -> int:
    """12.1, 12.9: the cards the payer gives now."""
    exclude = state.received[ask.to] if state.options.no_repass_tribute else 0
    return rules.tribute_cards(state.hands[ask.to], ask.amount, exclude)


def _skip_empty(state: State, events: list) -> State:
    """Drop the questions that need no answer (a payer with nothing to pay, a seat that left)
    and put the next offer on the table."""
    asking = state.asking
    while asking:
        ask = asking[0]
        if state.left >> ask.seat & 1 or (ask.to >= 0 and state.left >> ask.to & 1):
            asking = asking[1:]
            continue
        if ask.task in TRIBUTE_TASKS:
            offer = _offer(state, ask)
            if not offer:
                events.append(Event("NO_TRIBUTE", ask.to, values={"to": ask.seat, "kind": ask.task}))
                asking = asking[1:]
                continue
            return state._replace(asking=asking, offer=offer)
        return state._replace(asking=asking, offer=0)
    return state._replace(asking=(), offer=0)


def _tribute_actions(state: State, ask: Ask):
    if ask.task != T_RETURN:
        return [(Action(ask.seat, ACCEPT), None), (Action(ask.seat, REFUSE), None)]
    return [(Action(ask.seat, RETURN, ids), None) for ids in return_choices(state, ask)]


def return_choices(state: State, ask: Ask) -> list[tuple[int, ...]]:
    """12.8: every distinct return (by ranks; the lowest ids of each rank) the rules allow."""
    hand = state.hands[ask.seat]
    o = state.options
    by_rank = [list(cardlib.from_mask(hand & rules.NOTATION.rank_masks[r])) for r in range(15)]
    out: list[tuple[int, ...]] = []

    def walk(rank: int, left: int, picked: list[int]):
        if not left:
            mask = cardlib.to_mask(picked)
            if rules.return_allowed(hand, mask, ask.amount, o.return_cards, o.biesan):
                out.append(tuple(sorted(picked)))
            return
        for r in range(rank, 15):
            for k in range(1, min(left, len(by_rank[r])) + 1):
                walk(r + 1, left - k, picked + by_rank[r][:k])

    walk(0, ask.amount, [])
    return out


def _check_tribute(state: State, action: Action, ask: Ask) -> Verdict:
    if ask.task != T_RETURN:
        if action.kind not in (ACCEPT, REFUSE):
            return Verdict.no(NOT_ASKED_THAT, f"a tribute is offered: ACCEPT or REFUSE, not {action.kind}")
        return Verdict.ok("accept the tribute" if action.kind == ACCEPT else "refuse the tribute")
    if action.kind != RETURN:
        return Verdict.no(NOT_ASKED_THAT, f"return {ask.amount} card(s) to seat {ask.to} (RETURN), not {action.kind}")
    mask = held(state.hands[ask.seat], action, rules.NOTATION)
    if type(mask) is Verdict:
        return mask
    o = state.options
    if not rules.return_allowed(state.hands[ask.seat], mask, ask.amount, o.return_cards, o.biesan):
        return Verdict.no(RETURN_NOT_ALLOWED, f"return {ask.amount} card(s) under {o.return_cards} (12.8)")
    return Verdict.ok("return", None, Action(ask.seat, RETURN, cardlib.from_mask(mask)), mask)


def _move(state: State, payer: int, receiver: int, cards: int) -> State:
    hands, shown = list(state.hands), list(state.shown)
    hands[payer] &= ~cards
    hands[receiver] |= cards
    shown[payer] |= cards
    shown[receiver] |= cards
    return state._replace(hands=tuple(hands), shown=tuple(shown))


def _record_tribute(state: State, action: Action, verdict: Verdict, ask: Ask, events: list) -> State:
    seat = action.seat
    if ask.task == T_RETURN:
        events.append(Event("RETURN", seat, cardlib.from_mask(verdict.detail), values={"to": ask.to}))
        state = _move(state, seat, ask.to, verdict.detail)
    else:
        offer = state.offer
        accepted = int(action.kind == ACCEPT)
        events.append(Event("TRIBUTE", ask.to, cardlib.from_mask(offer),
                            values={"to": seat, "kind": ask.task, "accepted": accepted}))
        if accepted:
            state = _move(state, ask.to, seat, offer)
            state = state._replace(received=_set(state.received, seat, state.received[seat] | offer))
            if ask.task == T_LUO:  # 12.8: returned once all tribute is paid
                state = state._replace(asking=state.asking + (Ask(seat, T_RETURN, ask.to, offer.bit_count()),))
        else:  # 12.3: the receiver saw the cards
            state = state._replace(shown=_set(state.shown, seat, state.shown[seat] | offer))
    return _skip_empty(state._replace(offer=0), events)


def _to_mingdian(state: State, events: list) -> State:
    """8.2: every active seat without 预点, counter-clockwise from the first leader."""
    among = active(state) & ~sum(1 << s for s in range(SEATS) if state.calls[s] == YUDIAN)
    queue = queue_in_order(state.leader, SEATS, T_CALL, among)
    if queue:
        return state._replace(phase=MINGDIAN_PHASE, asking=queue, to_act=(queue[0].seat,), offer=0)
    return _to_geming(state._replace(asking=()), events)


def _to_geming(state: State, events: list) -> State:
    """9.1: every seat without joker and 钱 after tribute, from the first leader."""
    among = active(state) & ~sum(1 << s for s in range(SEATS) if state.hands[s] & MONEY)
    queue = queue_in_order(state.leader, SEATS, T_REVOLT, among)
    if queue:
        return state._replace(phase=GEMING, asking=queue, to_act=(queue[0].seat,))
    return _close_geming(state._replace(phase=GEMING, asking=()), events)


def _geming_actions(state: State, ask: Ask):
    kind = YAOTOU if ask.task == T_YAOTOU else REVOLT
    return [(Action(ask.seat, PASS), None), (Action(ask.seat, kind), None)]


def _check_geming(state: State, action: Action, ask: Ask) -> Verdict:
    kind = YAOTOU if ask.task == T_YAOTOU else REVOLT
    if action.kind not in (PASS, kind):
        return Verdict.no(NOT_ASKED_THAT, f"asked for {kind} or PASS, not {action.kind}")
    return Verdict.ok(action.kind.lower())


def _record_geming(state: State, action: Action, verdict: Verdict, ask: Ask, events: list) -> State:
    if ask.task == T_YAOTOU:
        chosen = int(action.kind == YAOTOU)
        events.append(Event("YAOTOU", action.seat, values={"yaotou": chosen}))
        return state._replace(yaotou_left=3 * chosen)
    if action.kind == REVOLT:
        events.append(Event("REVOLT", action.seat, values={"automatic": 0}))
        return state._replace(revolution=state.revolution | 1 << action.seat)
    return state


def _close_geming(state: State, events: list) -> State:
    """9.2: two revolutionaries void the 回合; one: his 对头 chooses 要头 or 无头 (9.5); then play."""
    if state.rev < 0 and state.revolution:
        if state.revolution.bit_count() >= 2:
            events.append(Event("VOID", -1))
            return state._replace(phase=FINISHED, to_act=(), asking=(), offer=0, void=1)
        rev = cardlib.from_mask(state.revolution)[0]
        state = state._replace(rev=rev)
        duitou = opposite(rev)
        if active(state) >> duitou & 1:
            return state._replace(asking=(Ask(duitou, T_YAOTOU),), to_act=(duitou,))
    return _start_play(state, events)


def _start_play(state: State, events: list) -> State:
    """10.1 with 6.3: a first leader out of play passes the lead to the next active seat."""
    state = state._replace(phase=PLAYING, asking=(), offer=0)
    if round_over(state):
        return _finish(state, events)
    inside = active(state)
    leader = state.leader
    while not inside >> leader & 1:
        leader = (leader + 1) % SEATS
    if leader != state.leader:
        events.append(Event("LEAD", leader, values={"from": state.leader}))
    return state._replace(trick=Trick(leader), to_act=(leader,))


def _resolve_yudian(state: State, events: list) -> State:
    return _deal_now(state, events)


def _resolve_tribute(state: State, events: list) -> State:
    return _to_mingdian(state, events)


def _resolve_mingdian(state: State, events: list) -> State:
    return _to_geming(state, events)


ASK_PHASES = (
    AskInTurn("yudian", (PASS, DECLARE), legal=_declare_or_pass, check=_check_declare, answer=_record_yudian,
              resolve=_resolve_yudian),
    AskInTurn("tribute", (ACCEPT, REFUSE, RETURN), legal=_tribute_actions, check=_check_tribute,
              answer=_record_tribute, resolve=_resolve_tribute),
    AskInTurn("mingdian", (PASS, DECLARE), legal=_declare_or_pass, check=_check_declare, answer=_record_mingdian,
              resolve=_resolve_mingdian),
    AskInTurn("geming", (PASS, REVOLT, YAOTOU), legal=_geming_actions, check=_check_geming, answer=_record_geming,
              resolve=_close_geming),
)
RESOLVE = {YUDIAN_PHASE: _resolve_yudian, TRIBUTE: _resolve_tribute, MINGDIAN_PHASE: _resolve_mingdian,
           GEMING: _close_geming}


def new_state(hands, leader: int, options: Options = Options(), seed: bytes = b"", entropy: bytes = b"",
              match: Match = Match(0, (0,) * SEATS), phase: int = PLAYING) -> State:
    """A 回合 whose ``leader`` leads the first trick with ``hands`` (bitmasks over four packs);
    with ``phase`` YUDIAN_PHASE a 回合 before its deal (``hands`` all 0)."""
    none = (-1,) * SEATS
    zeros = (0,) * SEATS
    return State(options, seed, entropy, match, SEATS, tuple(hands), 0, Trick(leader), (), zeros, none, -1, zeros,
                 False, 0, 0, 0, -1, 0, -1, phase, (leader,), leader, zeros, 0, -1, 0, 0, (), 0, zeros, zeros,
                 none, none, 0)


def order_of(state: State) -> tuple[int, ...]:
    """The seat of each place, 头科 first."""
    return tuple(sorted(range(SEATS), key=state.places.__getitem__))


class Gouji(Game):
    id = "gouji"
    name = "够级 Gouji"
    min_seats = max_seats = SEATS
    Options = Options
    presets = rules.PRESETS
    notation = rules.NOTATION
    phases = ASK_PHASES + (PLAY_PHASE, Finished())
    abandon_policy = OUT_OF_PLAY
    State = State
    state_fields = {"match.carry": Carry | None, "num_seats": Index(7, 6), "hands": Seq(Mask, "seats"),
                    "played": Mask, "out": Seq(Index("seats", 0), "seats"), "places": Seq(Index(7, 0), "seats"),
                    "burns": Seq(Index("seats"), "seats"), "burn_top": Index("seats"),
                    "shao": Seq(Mask("seats"), "seats"), "opened": Mask("seats"), "failed": Mask("seats"),
                    "left": Mask("seats"), "yielded": Index("seats"), "close": Index(2, 0),
                    "next_lead": Index("seats"), "phase": Index(6, 0), "to_act": Seq(Index("seats", 0), "seats"),
                    "leader": Index("seats", 0), "calls": Seq(Index(3, 0), "seats"), "revolution": Mask("seats"),
                    "rev": Index("seats"), "yaotou_left": Index(4, 0), "siji": Index(2, 0),
                    "asking": Seq(Ask, 32),
                    "offer": Mask, "shown": Seq(Mask, "seats"), "received": Seq(Mask, "seats"),
                    "beaten_by": Seq(Index("seats"), "seats"), "men": Seq(Index("seats"), "seats"),
                    "void": Index(2, 0), "step": Small}
    action_kinds = (COMMON_KINDS[PASS],
                    ActionKind(PLAY, "a play (2.1-2.5) that beats the table (3.1-3.6)", ("cards",)),
                    ActionKind(YIELD, "让 (10.5)"),
                    ActionKind(DECLARE, "预点 (8.1, before the deal) or 明点 (8.2, after tribute) toward one's 对头"),
                    ActionKind(ACCEPT, "accept the tribute offered (12.3)"),
                    ActionKind(REFUSE, "refuse the tribute offered: it stays with its payer (12.3)"),
                    ActionKind(RETURN, "还贡: return as many cards as the 落贡 accepted (12.8)", ("cards",)),
                    ActionKind(REVOLT, "革命: give up a hand without joker and 钱 (9.1)"),
                    ActionKind(YAOTOU, "要头: the revolutionary's 对头 makes his first three 够级牌 够死级 (9.5)"),
                    ActionKind(ABANDON, "leave: the seat is made 大落 (15.6), its cards dead, and the 回合 goes on"))
    reasons = {YIELD_NOT_ALLOWED: "让 only on one's 对头's protected 够级牌, once",
               PASS_ONLY_HERE: "only the owner's 对头 (or a burn) may beat a protected 够级牌",
               BURN_NOT_ALLOWED: "the hand left after a burn must pass 13.3 d)",
               RETURN_NOT_ALLOWED: "the cards returned break 12.8 (their number, or return_cards)",
               THREES_LAST: "憋三 mode: 3s only when nothing else remains, all at once (7.4)",
               NOT_ASKED_THAT: "the seat is asked another question (DECLARE/PASS, ACCEPT/REFUSE, RETURN, "
                               "REVOLT/PASS, YAOTOU/PASS)"}
    counters = {"leader": "the seat that led the trick", "yielded": "the seat that yielded, -1 none",
                "first_leader": "the 回合's first leader (6.1-6.4)", "revolutionary": "the seat in 革命, -1 none",
                "siji_left": "够死级 left to the revolutionary's 对头 (9.5)", "round": "回合 of the 局 before this one",
                "ju": "局 played at this table before this one", "void": "1: the 回合 is void (9.2)"}
    seat_counters = {"place": "1..6, 0 while none", "burning": "the seat it burns, -1 none",
                     "call": "0 none, 1 明点, 2 预点", "revolution": "1: in 革命"}
    seat_cards = {"offered": "the tribute this seat offers now (seen by its payer and receiver)",
                  "hand": "a team-mate's hand of 10 cards or fewer (team_sees_at_10)"}
    public_cards = {"played": "every card played so far"}
    combination_kinds = {"gouji": "a 够级牌 (4.1)", "play": "any other play"}
    outcomes = {"team0_won": "team 0's place points are higher", "team1_won": "team 1's are higher",
                "draw": "equal place points", "void": "two revolutionaries: the 回合 is replayed (9.2)"}
    breakdown = {"chuan_san_hu": "1: 串三户 (16.2)"}
    deal_cards = {
        "seat": DealKey("the seat's 36 cards in the order dealt: card i of the shuffled 216 to seat (start + i) mod "
                        "6", per_seat=True),
    }
    deal_values = {
        "start": "the seat dealt to first (6.2)",
        "first_leader": "the seat that leads first, as 上班 named it",
    }
    event_types = {"DEAL": EventType("the seat's 36 cards (private)", private_cards=True), "PLAY": EventType("a play"),
                   "PASS": EventType("a pass"), YIELD: EventType("让"), "TRICK_WON": EventType("the trick is won"),
                   "LEAD": EventType("the lead passes (接风, a failed burn, 6.3)", {"from": "the winner"}),
                   "OUT": EventType("the seat played out", {"place": "its order out"}),
                   "BURN": EventType("a burn starts", {"burned": "the burned seat"}),
                   "BURN_CANCELLED": EventType("解烧", {"by": "the seat that beat the burning play"}),
                   "BURN_SUCCEEDED": EventType("the burner played out", {"burned": "the burned seat"}),
                   "BURN_FAILED": EventType("the burn failed (13.8)", {"burned": "the burned seat"}),
                   "CALL": EventType("预点 or 明点 answered", {"call": "0 none, 1 明点, 2 预点"}),
                   "MAISAN": EventType("买三: the 3 bought and the card paid (seen by buyer and seller)",
                                       {"seller": "the seat that sold the 3"}, private_cards=True),
                   "TRIBUTE": EventType("a tribute offered and answered (cards seen by payer and receiver)",
                                        {"to": "the receiver", "kind": "1 闷贡, 2 烧贡, 3 点贡, 4 落贡",
                                         "accepted": "1 accepted, 0 refused"}, private_cards=True),
                   "NO_TRIBUTE": EventType("the payer holds no joker or 钱 to pay", {"to": "the receiver",
                                                                                "kind": "1 闷贡, 2 烧贡, 3 点贡, 4 落贡"}),
                   "RETURN": EventType("还贡 (seen by both seats)", {"to": "the payer of the 落贡"},
                                       private_cards=True),
                   "REVOLT": EventType("革命", {"automatic": "1: at 买三 without 3, 钱 and joker (7.3)"}),
                   "YAOTOU": EventType("the 对头's choice", {"yaotou": "1 要头, 0 无头"}),
                   "SIJI": EventType("a 够死级 (9.5)", {"left": "够死级 left"}),
                   "MEN": EventType("闷 (7.5)", {"to": "the receiver of the 闷贡"}),
                   "VOID": EventType("two revolutionaries: the 回合 is void (9.2)"),
                   "FINISH": EventType("the 回合 is over", {"chuan_san_hu": "1: 串三户"}),
                   "ABANDON": EventType("the seat left: 大落")}

    def _checked_options(self, options):
        return rules.checked_options(options)

    def _deal(self, options, seed, entropy, num_seats, match):
        start = _start(match)
        state = new_state((0,) * SEATS, start, options, seed, entropy, match, YUDIAN_PHASE)
        return state._replace(asking=queue_in_order(start, SEATS, T_CALL), trick=Trick())

    def deal_events(self, state):
        if not state.dealt:
            return []
        return [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seat_list):
        trick = state.trick
        known = self.knowledge(state)
        table = combo_of(trick.top) if trick.top else None
        counters = {"leader": trick.leader, "yielded": state.yielded, "first_leader": state.leader,
                    "revolutionary": state.rev, "siji_left": state.yaotou_left, "round": state.match.round,
                    "ju": state.match.number, "void": state.void}
        phase = self.phases[state.phase].name
        payer = state.asking[0].to if state.offer else -1
        offered = cardlib.from_mask(state.offer) if state.offer else ()
        # what every viewer sees alike is built once and shared (the servicer converts a shared
        # part once): each seat's public view, the played cards, the cards on top
        public = tuple(SeatView(h.bit_count(), team=team(s), cards={},
                                counters={"place": state.places[s], "burning": state.burns[s], "call": state.calls[s],
                                          "revolution": state.revolution >> s & 1})
                       for s, h in enumerate(state.hands))
        played = {"played": cardlib.from_mask(state.played)}
        top_seat, top_cards = trick.top_seat if trick.top else -1, cardlib.from_mask(trick.top_cards)
        views = []
        for viewer in seat_list:
            allowed = known.allowed(viewer)
            seat_views = []
            for s, h in enumerate(state.hands):
                cards = {}
                if s == payer and viewer in (payer, state.asking[0].seat):
                    cards["offered"] = offered
                if viewer >= 0 and s != viewer and team(s) == team(viewer) and h and not h & ~allowed:
                    cards["hand"] = cardlib.from_mask(h)
                seat_views.append(public[s]._replace(cards=cards) if cards else public[s])
            views.append(View(viewer, phase, state.to_act, cardlib.from_mask(state.hands[viewer]) if viewer >= 0 else (),
                              tuple(seat_views), played, table, top_seat, top_cards, counters, state.finished))
        return views

    def left(self, state):
        return state.left

    def _abandon(self, state, seat):
        """15.6: the leaver is placed from the bottom; the 回合 goes on without him."""
        state = _place(state._replace(left=state.left | 1 << seat, burns=_set(state.burns, seat, -1),
                                      yielded=-1 if state.yielded == seat else state.yielded), seat, top=False)
        events = [Event("ABANDON", seat)]
        if state.phase != PLAYING:  # a question to or from him is dropped
            state = _skip_empty(state._replace(asking=tuple(a for a in state.asking
                                                            if a.seat != seat and a.to != seat)), events)
            if round_over(state) and state.dealt:
                return _finish(state, events), events
            if not state.asking:
                return RESOLVE[state.phase](state, events), events
            return state._replace(to_act=(state.asking[0].seat,)), events
        if round_over(state):
            return _finish(state, events), events
        if seat in state.to_act:
            if not state.trick.top:  # a fresh trick: the next active seat leads it
                inside = active(state)
                lead = next(s for s in ((seat + k) % SEATS for k in range(1, SEATS)) if inside >> s & 1)
                return state._replace(trick=Trick(lead), to_act=(lead,)), events
            state = PLAY_PHASE.ask_next(state, seat, events)
        return state, events

    def _settle(self, state):
        if state.void:
            return Settlement((0,) * SEATS, (), "void", ())
        order = order_of(state)
        points = rules.round_scores(order)
        best = max(points)
        winners = tuple(s for s in range(SEATS) if points[s] == best and best > 0)
        outcome = "draw" if not winners else f"team{team(winners[0])}_won"
        return Settlement(points, winners, outcome, (("chuan_san_hu", int(rules.chuan_san_hu(order))),))

    # --- the 局 (5.1) -------------------------------------------------------------------------
    def round_counts(self, state):
        return not state.void

    def voids_match(self, state):
        return bool(state.void) and state.options.void_ju

    def match_over(self, state):
        return not state.void and rules.chuan_san_hu(order_of(state)) or state.match.round + 1 >= state.options.ju_length

    def _carry(self, finished):
        if finished.void:  # 9.2: the tribute owed into a void 回合 is paid again in the replay
            return finished.match.carry
        return Carry(order_of(finished), finished.calls, finished.opened, finished.shao, finished.men)

    def _new_match_carry(self, finished):
        return self._carry(finished)  # 6.2: the next 局 starts from the last 头科; no tribute (5.1)

    def dealt(self, state):
        """1.4: the 216 ids shuffled on the stream ``deal``, card i to seat (start + i) mod 6, start
        the 6.2 starting seat (value ``start``); ``first_leader`` as 上班 named it."""
        _, leader = _dealt_hands(state)
        start = _start(state.match)
        deck = rng.Stream(rng.deal_key(state.seed, state.entropy), "deal").shuffle(range(rules.NOTATION.id_count))
        return ({f"seat{s}": tuple(deck[(s - start) % SEATS::SEATS]) for s in range(SEATS)},
                {"start": start, "first_leader": leader})

    def card_zones(self, state):
        if not state.dealt:
            return {"undealt": tuple(range(rules.NOTATION.id_count))}
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        zones["played"] = cardlib.from_mask(state.played)
        return zones

    def knowledge(self, state):
        """Hands are private (18.1); cards that changed hands in tribute, return or 买三 are known
        to both seats; the tribute offered is seen by its receiver; ``team_sees_at_10`` shows a
        hand of 10 cards or fewer to the team-mates. Nobody knows a card before the deal."""
        if not state.dealt:
            return Knowledge(0, (0,) * SEATS)
        seats = [h | shown for h, shown in zip(state.hands, state.shown)]
        if state.offer:
            receiver = state.asking[0].seat
            seats[receiver] |= state.offer
        if state.options.team_sees_at_10 and state.phase >= PLAYING:
            for s in range(SEATS):
                for mate in ((s + 2) % SEATS, (s + 4) % SEATS):
                    if 0 < state.hands[mate].bit_count() <= 10:
                        seats[s] |= state.hands[mate]
        return Knowledge(state.played, tuple(seats))


    # --- stateless helpers (capabilities classify, compare, hints) ----------------------------------
    def classify(self, cards_text, options):
        """2.1-2.5: the one reading of the cards (none when they are no play)."""
        play = rules.play_of_text(cards_text)
        return [combo_of(play)] if play else []

    def compare(self, a_text, b_text, options):
        """Does ``a`` beat ``b`` (3.1-3.6)? (beats, a's reading, b's reading).

        Raises:
            InvalidAction: either is not a play (NOT_A_COMBINATION).
        """
        a, b = rules.play_of_text(a_text), rules.play_of_text(b_text)
        if not a or not b:
            raise InvalidAction("compare needs two plays (2.1)", Reason.NOT_A_COMBINATION)
        return bool(hot.beats(a, b, rules.flags_of(options))), combo_of(a), combo_of(b)

    def hint_groups(self, state, seat):
        """A free lead's plays as ``rules.grouped_leads`` (at most 13 groups); a beat lists few."""
        if state.phase != PLAYING or state.trick.top or seat not in state.to_act:
            return []
        return [group.text() for group in rules.grouped_leads(rules.counts_of_mask(state.hands[seat]))]

    hint_context = {"duitou": "1: the table was played by your 对头 (any beat); else a protected 够级牌 on it "
                              "is answered by a burn only (13.3 d), an ordinary play by any beat"}

    def hint_strings(self, hand_text, table_text, options, context=EMPTY):
        """The plays a hint offers (rank strings, high cards first): on a free lead every play, or,
        past ``HINT_LIMIT`` plays, the grouped hints of ``rules.grouped_leads``
        (``T1-4 +2:0-3 +B:0-2 +R:0-1``); on a table the plays that beat it, burns only when the
        table is a 够级牌 not played by your 对头."""
        counts = rules.counts_of(rules.ranks_of_text(hand_text))
        table = rules.play_of_text(table_text) if table_text.strip() else 0
        if table_text.strip() and not table:
            raise InvalidAction(f"the table is no play: {table_text[:40]!r}", Reason.NOT_A_COMBINATION)
        if not table:
            plays = hot.free_leads(*counts)
            if len(plays) > HINT_LIMIT:
                return [group.text() for group in rules.grouped_leads(counts)]
        else:
            plays = hot.beating_plays(*counts, table, rules.flags_of(options))
            if hot.is_gouji(table) and context.get("duitou", "0") != "1":
                plays = [p for p in plays if hot.can_burn_out(*hot.minus(*counts, p))]
        return [rules.play_text(p) for p in plays]


HINT_LIMIT = 256  # a free lead's plays listed one by one up to this many; past it, grouped hints

GOUJI = Gouji()
