"""够级: one 回合 of trick play on ``tricks.TrickPlay`` (rules/gouji.md §6, §10-§11, §13-§16) —
a DRAFT, not registered: no 革命 (so no 要头/够死级 and no 四科 reservation), no 买三 or 憋三 play,
no tribute, no 预点/明点 (开点 is recorded), no 局. Options naming those rules are refused here
(BAD_OPTION "not implemented yet").

A 回合: the deal and 上班 (``rules.deal``); the first leader leads. On each play the seats asked
(counter-clockwise) may do what ``rules.answer_right`` says: pass only (a team-mate of a
protected 够级牌's owner), beat, or burn (a neighbour with a head; 13.3 c-d checked). A pass bars
the seat for the trick except on its 对头's plays (10.3), not in 四人乱缠 (14.3). 让 (YIELD,
10.5) as in the platform's toy team game. A burn starts when a neighbour with a head beats a
protected 够级牌; it is cancelled (解烧) when the burner's 对头, or a headless neighbour directly,
beats the burning play; it succeeds (烧贡 owed) when the burner plays out, and fails (13.8) when he
leads a set without a joker with cards left or his hand no longer passes 13.3 d): he is placed
from the bottom, the trick ends at once and the burned player (or the next active seat) leads.
A play holding an effective 大花 under the strict comparison closes the trick (3.4) unless option
1 may beat it. 接风 (15.2, ``partner_catches_wind``). The 回合 ends when every active seat is of
one team (15.3); scores per 16.1-16.2. A leaver is 大落-like: placed from the bottom (15.6).
"""
from __future__ import annotations

from typing import NamedTuple

from ... import cards as cardlib
from ...codec import Index, Mask, Seq, Small
from ...errors import InvalidAction, Reason
from ...game import (ABANDON, COMMON_KINDS, OUT_OF_PLAY, PASS, PLAY, Action, ActionKind, Combo, Event, EventType,
                     Finished, Game, Knowledge, Match, SeatView, Settlement, Verdict, View)
from ...tricks import Trick, TrickMove, TrickPlay, seats_in
from . import rules
from .rules import BEAT, BURN, NOT_ASKED, PASS_ONLY, SEATS, Options, hot, opposite, team

PLAYING, FINISHED = 0, 1
YIELD = "YIELD"
YIELD_NOT_ALLOWED, PASS_ONLY_HERE, BURN_NOT_ALLOWED = "YIELD_NOT_ALLOWED", "PASS_ONLY", "BURN_NOT_ALLOWED"
NOT_YET = ("biesan", "teammate_free", "men_is_daluo", "men_to_duitou", "kelei_burnable", "team_sees_at_10")


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
    failed: int  # failed burners (13.8)
    left: int  # leavers (15.6)
    yielded: int  # the seat that yielded on the top play, -1 none
    close: int  # 1: the trick ends at once after this play (13.8)
    next_lead: int  # who leads after the trick closed by a failed burn, -1 the usual
    phase: int
    to_act: tuple[int, ...]
    step: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


def active(state: State) -> int:
    """1.7: holding cards, not failed, not left."""
    return seats_in(state.hands) & ~state.failed & ~state.left


def luanchan(state: State) -> bool:
    """14.1: four or fewer seats active."""
    return active(state).bit_count() <= 4


def flags(state: State) -> int:
    return rules.flags_of(state.options)


def right_of(state: State, seat: int) -> int:
    """What ``seat`` may do on the top play (``rules.answer_right``)."""
    trick = state.trick
    owner = trick.top_seat
    burned_by = owner if state.burns[owner] == seat else -1
    return rules.answer_right(state.options, seat, owner, state.protected, active(state), trick.barred,
                              burned_by=burned_by)


def cards_of(hand: int, play: int) -> tuple[int, ...]:
    """The lowest ids of each rank of ``hand`` that make ``play``."""
    ids: list[int] = []
    for rank, n in ((hot.natural_rank(play), hot.naturals(play)), (12, hot.twos(play)),
                    (13, hot.smalls(play)), (14, hot.bigs(play))):
        if n:
            ids += cardlib.from_mask(hand & rules.NOTATION.rank_masks[rank])[:n]
    return tuple(sorted(ids))


def combo_of(play: int) -> Combo:
    kind = "gouji" if hot.is_gouji(play) else "play"
    return Combo(kind, hot.main_rank(play), 1, hot.size(play), (), rules.play_text(play))


def read_play(state: State, action: Action, mask: int) -> Verdict:
    play = hot.classify(*rules.counts_of_mask(mask))
    text = cardlib.format_cards(cardlib.from_mask(mask))
    if not play:
        return Verdict.no(Reason.NOT_A_COMBINATION, f"{text}: the natural cards of a play are of one rank (2.1)")
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
    return [(Action(seat, PLAY, cards_of(hand, p)), combo_of(p)) for p in plays]


def _bars(state: State) -> bool:
    return not luanchan(state)


def _lifts_bar(state: State, seat: int, trick: Trick) -> bool:
    return luanchan(state) or trick.top_seat == opposite(seat)


def _protected(state: State, seat: int, play: int) -> bool:
    return (hot.is_gouji(play) and not luanchan(state)
            and rules.has_head(seat, active(state)))


def _place_top(places: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """15.1: the best free place."""
    taken = set(places)
    best = next(p for p in range(1, SEATS + 1) if p not in taken)
    return places[:seat] + (best,) + places[seat + 1:]


def _place_bottom(places: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """15.5-15.6: the worst free place."""
    taken = set(places)
    worst = next(p for p in range(SEATS, 0, -1) if p not in taken)
    return places[:seat] + (worst,) + places[seat + 1:]


def _fail(state: State, seat: int, events: list) -> State:
    """13.8: the burn fails: the burner is placed from the bottom, the trick ends at once, the
    burned player (or the next active seat after him) leads."""
    victim = state.burns[seat]
    burns = state.burns[:seat] + (-1,) + state.burns[seat + 1:]
    state = state._replace(failed=state.failed | 1 << seat, burns=burns, places=_place_bottom(state.places, seat))
    inside = active(state)
    lead = victim
    while not inside >> lead & 1 and inside:
        lead = (lead + 1) % SEATS
    events.append(Event("BURN_FAILED", seat, values={"burned": victim}))
    return state._replace(close=1, next_lead=lead if inside else -1)


def _after_play(state: State, seat: int, verdict: Verdict, beaten: Trick, events: list) -> State:
    play = verdict.detail
    state = state._replace(close=0, next_lead=-1)
    burns = list(state.burns)
    # 解烧 (13.4): the burner's 对头, or a headless neighbour directly, beats the burning play
    x = beaten.top_seat
    if beaten.top and state.burn_top == x and burns[x] >= 0:
        neighbour = seat in ((x + 1) % SEATS, (x + 5) % SEATS)
        if seat == opposite(x) or (neighbour and not rules.has_head(seat, active(state) | 1 << seat)):
            events.append(Event("BURN_CANCELLED", x, values={"by": seat}))
            burns[x] = -1
    burn_top = -1
    was_burning = burns[seat] >= 0
    # a burn starts (13.1): a neighbour with a head beats a protected 够级牌
    if beaten.top and state.protected and seat in ((x + 1) % SEATS, (x + 5) % SEATS) and not luanchan(state) \
            and rules.has_head(seat, active(state) | 1 << seat):
        burns[seat] = x
        burn_top = seat
        events.append(Event("BURN", seat, values={"burned": x}))
    state = state._replace(burns=tuple(burns), burn_top=burn_top)
    hand = state.hands[seat]
    if not hand:
        if burns[seat] >= 0:  # 13.7: success
            victim = burns[seat]
            shao = state.shao[:victim] + (state.shao[victim] | 1 << seat,) + state.shao[victim + 1:]
            events.append(Event("BURN_SUCCEEDED", seat, values={"burned": victim}))
            state = state._replace(shao=shao, burns=state.burns[:seat] + (-1,) + state.burns[seat + 1:])
        state = state._replace(places=_place_top(state.places, seat))
    elif was_burning and ((not beaten.top and not hot.smalls(play) and not hot.bigs(play))
                          or not hot.can_burn_out(*rules.counts_of_mask(hand))):
        state = _fail(state, seat, events)
    # 让 (10.5): a yield on the beaten play counts as the yielder's pass when another seat beat it
    if state.yielded >= 0:
        trick = state.trick
        if state.yielded != seat:
            state = state._replace(trick=trick._replace(barred=trick.barred | 1 << state.yielded))
        state = state._replace(yielded=-1)
    return state._replace(protected=_protected(state, seat, play))


def _after_pass(state: State, seat: int, events: list) -> State:
    return state._replace(yielded=-1) if seat == state.yielded else state


def _after_trick(state: State, trick: Trick, winner: int, events: list) -> State:
    opened = state.opened | (1 << trick.top_seat if state.protected and not state.close else 0)  # 17.1
    return state._replace(yielded=-1, opened=opened, protected=False, burn_top=-1)


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
    opened = state.opened | (1 << state.trick.top_seat if state.protected else 0)  # 17.1
    places = state.places
    inside = active(state)
    left = {s: state.hands[s].bit_count() for s in range(SEATS) if inside >> s & 1}
    last = state.out[-1] if state.out else state.trick.top_seat
    for s in rules.remaining_places(left, last, state.options.seat_order):
        places = _place_top(places, s)
    order = tuple(sorted(range(SEATS), key=places.__getitem__))
    events.append(Event("FINISH", order[0], values={"chuan_san_hu": int(rules.chuan_san_hu(order))}))
    return state._replace(places=places, opened=opened, phase=FINISHED, to_act=(), yielded=-1)


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
                       finish=_finish, after_play=_after_play, after_pass=_after_pass, after_trick=_after_trick,
                       bars=_bars, lifts_bar=_lifts_bar, closes=_closes, next_leader=_next_leader, active=active,
                       extra={YIELD: TrickMove(_check_yield, _apply_yield, _yield_actions)})


def new_state(hands, leader: int, options: Options = Options(), seed: bytes = b"", entropy: bytes = b"",
              match: Match = Match(0, (0,) * SEATS)) -> State:
    """A 回合 whose ``leader`` leads the first trick with ``hands`` (bitmasks over four packs)."""
    return State(options, seed, entropy, match, SEATS, tuple(hands), 0, Trick(leader), (), (0,) * SEATS,
                 (-1,) * SEATS, -1, (0,) * SEATS, False, 0, 0, 0, -1, 0, -1, PLAYING, (leader,))


class Gouji(Game):
    id = "gouji"
    name = "够级 Gouji (draft: one 回合)"
    min_seats = max_seats = SEATS
    Options = Options
    presets = rules.PRESETS
    notation = rules.NOTATION
    phases = (PLAY_PHASE, Finished())
    abandon_policy = OUT_OF_PLAY
    State = State
    state_fields = {"num_seats": Index(7, 6), "hands": Seq(Mask, "seats"), "played": Mask,
                    "out": Seq(Index("seats", 0), "seats"), "places": Seq(Index(7, 0), "seats"),
                    "burns": Seq(Index("seats"), "seats"), "burn_top": Index("seats"),
                    "shao": Seq(Mask("seats"), "seats"), "opened": Mask("seats"), "failed": Mask("seats"),
                    "left": Mask("seats"), "yielded": Index("seats"), "close": Index(2, 0),
                    "next_lead": Index("seats"), "phase": Index(2, 0), "to_act": Seq(Index("seats", 0), "seats"),
                    "step": Small}
    action_kinds = (COMMON_KINDS[PASS],
                    ActionKind(PLAY, "a play (2.1-2.5) that beats the table (3.1-3.6)", ("cards",)),
                    ActionKind(YIELD, "让 (10.5)"), COMMON_KINDS[ABANDON])
    reasons = {YIELD_NOT_ALLOWED: "让 only on one's 对头's protected 够级牌, once",
               PASS_ONLY_HERE: "only the owner's 对头 (or a burn) may beat a protected 够级牌",
               BURN_NOT_ALLOWED: "the hand left after a burn must pass 13.3 d)"}
    counters = {"leader": "the seat that led the trick", "yielded": "the seat that yielded, -1 none"}
    seat_counters = {"place": "1..6, 0 while none", "burning": "the seat it burns, -1 none"}
    public_cards = {"played": "every card played so far"}
    combination_kinds = {"gouji": "a 够级牌 (4.1)", "play": "any other play"}
    outcomes = {"team0_won": "team 0's place points are higher", "team1_won": "team 1's are higher",
                "draw": "equal place points"}
    breakdown = {}
    event_types = {"DEAL": EventType("the seat's 36 cards (private)"), "PLAY": EventType("a play"),
                   "PASS": EventType("a pass"), YIELD: EventType("让"), "TRICK_WON": EventType("the trick is won"),
                   "LEAD": EventType("the lead passes (接风, a failed burn)", {"from": "the winner"}),
                   "OUT": EventType("the seat played out", {"place": "its order out"}),
                   "BURN": EventType("a burn starts", {"burned": "the burned seat"}),
                   "BURN_CANCELLED": EventType("解烧", {"by": "the seat that beat the burning play"}),
                   "BURN_SUCCEEDED": EventType("the burner played out", {"burned": "the burned seat"}),
                   "BURN_FAILED": EventType("the burn failed (13.8)", {"burned": "the burned seat"}),
                   "FINISH": EventType("the 回合 is over", {"chuan_san_hu": "1: 串三户"}),
                   "ABANDON": EventType("the seat left: 大落")}

    def _checked_options(self, options):
        rules.checked_options(options)
        bad = [name for name in NOT_YET if getattr(options, name)]
        if bad:
            raise InvalidAction(f"not implemented yet: {', '.join(bad)}", Reason.BAD_OPTION)
        return options

    def _deal(self, options, seed, entropy, num_seats, match):
        hands, leader = rules.deal(seed, entropy, options)
        return new_state(hands, leader, options, seed, entropy, match)

    def deal_events(self, state):
        return [Event("DEAL", s, cardlib.from_mask(h)) for s, h in enumerate(state.hands)]

    def _views(self, state, seat_list):
        trick = state.trick
        seat_views = tuple(SeatView(h.bit_count(), team=team(s),
                                    counters={"place": state.places[s], "burning": state.burns[s]})
                           for s, h in enumerate(state.hands))
        table = combo_of(trick.top) if trick.top else None
        counters = {"leader": trick.leader, "yielded": state.yielded}
        phase = self.phases[state.phase].name
        return [View(s, phase, state.to_act, cardlib.from_mask(state.hands[s]) if s >= 0 else (), seat_views,
                     {"played": cardlib.from_mask(state.played)}, table, trick.top_seat if trick.top else -1,
                     cardlib.from_mask(trick.top_cards), counters, state.finished)
                for s in seat_list]

    def left(self, state):
        return state.left

    def _abandon(self, state, seat):
        """15.6: the leaver is placed from the bottom; the 回合 goes on without him."""
        burns = state.burns[:seat] + (-1,) + state.burns[seat + 1:]
        state = state._replace(left=state.left | 1 << seat, burns=burns, places=_place_bottom(state.places, seat),
                               yielded=-1 if state.yielded == seat else state.yielded)
        events = [Event("ABANDON", seat)]
        if round_over(state):
            return _finish(state, events), events
        if seat in state.to_act:
            if state.trick.top_seat < 0 or not state.trick.top:
                inside = active(state)
                lead = next(s for s in ((seat + k) % SEATS for k in range(1, SEATS)) if inside >> s & 1)
                return state._replace(trick=Trick(lead), to_act=(lead,)), events
            state = PLAY_PHASE.ask_next(state, seat, events)
        return state, events

    def _settle(self, state):
        order = tuple(sorted(range(SEATS), key=state.places.__getitem__))
        points = rules.round_scores(order)
        best = max(points)
        winners = tuple(s for s in range(SEATS) if points[s] == best and best > 0)
        outcome = "draw" if not winners else f"team{team(winners[0])}_won"
        return Settlement(points, winners, outcome, ())

    def dealt(self, state):
        hands, _ = rules.deal(state.seed, state.entropy, state.options)
        return {f"seat{s}": cardlib.from_mask(h) for s, h in enumerate(hands)}, {}

    def card_zones(self, state):
        zones = {f"hand{s}": cardlib.from_mask(h) for s, h in enumerate(state.hands)}
        zones["played"] = cardlib.from_mask(state.played)
        return zones

    def knowledge(self, state):
        return Knowledge(state.played, state.hands)


GOUJI = Gouji()
