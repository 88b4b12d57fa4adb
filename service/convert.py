"""Protobuf <-> core objects. Generic over games: nothing here knows a rule or names a game."""
from __future__ import annotations

import functools
from typing import Iterable, Mapping

from referee.core import cards as core_cards
from referee.core.clock import CLOCK_OPTIONS
from referee.core.errors import InvalidAction, LimitExceeded, Reason
from referee.core.game import Action, Combo, Event, Game, OptionInfo, SeatView, Settlement, View
from referee.v1 import actions_pb2, cards_pb2, options_pb2, referee_service_pb2, state_pb2

MAX_CARDS = 8 * core_cards.CARDS_PER_DECK  # per card set in a request (any game's card space)
MAX_TEXT = 4 * MAX_CARDS
MAX_NAME = 40  # characters of a caller's name (game, kind, option) echoed in an error message


def short(text: str) -> str:
    """A caller's text as an error message may echo it: a short prefix, quoted."""
    return repr(text[:MAX_NAME] + ("..." if len(text) > MAX_NAME else ""))


# --- cards ------------------------------------------------------------------------------------
# Every function that reads or writes cards takes the game's ``notation`` (Game.notation: its id
# space and text, e.g. cards.PokerNotation or the mahjong tiles of games.mcr.rules).
def card_ids(ids: Iterable[int], notation) -> tuple[int, ...]:
    """Checked card ids. Raises: InvalidAction (UNKNOWN_CARD, DUPLICATE_CARD), LimitExceeded."""
    ids = tuple(ids)
    if len(ids) > MAX_CARDS:
        raise LimitExceeded(f"more than {MAX_CARDS} cards", Reason.REQUEST_TOO_LARGE)
    limit = notation.id_count
    if ids and max(ids) >= limit:
        raise InvalidAction(f"no card id {max(ids)} (ids are 0..{limit - 1})", Reason.UNKNOWN_CARD)
    if len(set(ids)) != len(ids):
        raise InvalidAction("a card id is given twice", Reason.DUPLICATE_CARD)
    return ids


def _text(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise LimitExceeded(f"card text longer than {MAX_TEXT} characters", Reason.REQUEST_TOO_LARGE)
    return text


def cards_in(msg: cards_pb2.CardSet, notation) -> tuple[tuple[int, ...], bool]:
    """(card ids, True) or, for a rank string, (rank indexes, False)."""
    if msg.ids:
        return card_ids(msg.ids, notation), True
    return notation.parse_cards_or_ranks(_text(msg.text))


def cards_text(msg: cards_pb2.CardSet, notation) -> str:
    """The card set as text for the core's text helpers (ids are formatted)."""
    if msg.ids:
        return notation.format_cards(card_ids(msg.ids, notation))
    return _text(msg.text)


def card_set(ids: Iterable[int], notation) -> cards_pb2.CardSet:
    """Card ids as a CardSet with both ids and text."""
    ids = tuple(ids)
    return cards_pb2.CardSet(ids=ids, text=notation.format_cards(ids))


def combination(combo: Combo | None, notation) -> cards_pb2.Combination | None:
    """A core Combo as a Combination (None stays None: the field is left unset)."""
    if combo is None:
        return None
    return cards_pb2.Combination(kind=combo.kind, label=combo.label, main_rank=combo.main_rank,
                                 chain=combo.chain, size=combo.size, ranks=combo.ranks,
                                 rank_text=notation.format_ranks(combo.ranks))


# Shared messages, the one cache of this layer: the same hands, tables, combinations and legal
# actions come back call after call (a Play answers with every seat's hand, two of them unchanged
# since the last Play; 80% of the legal actions of bot games were listed before), so the messages
# made of them by the plain conversions are kept, keyed by the frozen core values, and
# copied into the answers (CopyFrom, extend). Only ever copied from, never changed. A message
# holds about 1.6 KB of memory (protobuf's arena), its serialized form some 150 bytes: 8,192
# legal actions are about 13 MB a process.
shared_card_set = functools.lru_cache(maxsize=16384)(card_set)
shared_combination = functools.lru_cache(maxsize=4096)(combination)


# --- actions ----------------------------------------------------------------------------------
def action_in(msg: actions_pb2.Action, game: Game) -> Action:
    """A core Action of ``game``'s.

    Raises: InvalidAction (BAD_ACTION: no kind, or one the game does not list; UNKNOWN_CARD ...).
    """
    if msg.kind not in game.kind_names():
        known = ", ".join(sorted(game.kind_names()))
        raise InvalidAction(f"{game.id} has no action kind {short(msg.kind)} (kinds: {known})" if msg.kind
                            else "action kind is not set", Reason.BAD_ACTION)
    if len(msg.declared) > MAX_NAME:
        raise InvalidAction(f"declared reading {short(msg.declared)} is too long", Reason.BAD_ACTION)
    notation = game.notation
    values, concrete = cards_in(msg.cards, notation)
    return Action(seat=msg.seat, kind=msg.kind, cards=values if concrete else (),
                  ranks=() if concrete else values, value=msg.value, declared=msg.declared)


def action_out(action: Action, notation) -> actions_pb2.Action:
    """A core Action as protobuf (rank-only actions keep their rank string as text)."""
    cards = shared_card_set(tuple(action.cards), notation) if action.cards else cards_pb2.CardSet(
        text=notation.format_ranks(action.ranks))
    return actions_pb2.Action(seat=action.seat, kind=action.kind, cards=cards, value=action.value,
                              declared=action.declared)


def legal_action(action: Action, combo: Combo | None, notation) -> referee_service_pb2.LegalAction:
    """One entry of LegalActionsResponse."""
    ranks = notation.ranks_of(action.cards) if action.cards else action.ranks
    return referee_service_pb2.LegalAction(action=action_out(action, notation),
                                           ranks=notation.format_ranks(tuple(ranks)),
                                           combination=combination(combo, notation))


shared_legal_action = functools.lru_cache(maxsize=8192)(legal_action)  # 8,192: about 13 MB


# --- views and events -------------------------------------------------------------------------
def _put_cards(field, mapping: Mapping[str, tuple[int, ...]], notation) -> None:
    for name, ids in mapping.items():
        field[name].CopyFrom(shared_card_set(tuple(ids), notation))


def _put_all(field, mapping) -> None:
    """Set a map field's entries from a mapping (faster than the field's ``update``)."""
    for name, value in mapping.items():
        field[name] = value


def seat_view_into(msg: state_pb2.SeatView, sv: SeatView, notation) -> state_pb2.SeatView:
    msg.hand_size, msg.role, msg.team = sv.hand_size, sv.role, sv.team
    _put_all(msg.counters, sv.counters)
    _put_cards(msg.cards, sv.cards, notation)
    for meld in sv.melds:
        m = msg.melds.add()
        m.kind, m.from_seat = meld.kind, meld.from_seat
        m.cards.CopyFrom(shared_card_set(tuple(meld.cards), notation))
    return msg


def view_into(msg: state_pb2.View, v: View, notation) -> state_pb2.View:
    """Fill the empty View ``msg`` (e.g. a response's ``views.add()``: no copy) from a core View."""
    msg.seat, msg.phase, msg.table_seat, msg.finished = v.seat, v.phase, v.table_seat, v.finished
    msg.to_act.extend(v.to_act)
    msg.hand.CopyFrom(shared_card_set(tuple(v.hand), notation))
    for sv in v.seats:
        seat_view_into(msg.seats.add(), sv, notation)
    _put_cards(msg.public_cards, v.public_cards, notation)
    if v.table is not None:
        msg.table.CopyFrom(shared_combination(v.table, notation))
    msg.table_cards.CopyFrom(shared_card_set(tuple(v.table_cards), notation))
    _put_all(msg.counters, v.counters)
    return msg


def view(v: View, notation) -> state_pb2.View:
    """A core View as protobuf."""
    return view_into(state_pb2.View(), v, notation)


def view_like_into(msg: state_pb2.View, v: View, like: View, like_msg: state_pb2.View, notation) -> state_pb2.View:
    """Fill the empty View ``msg`` from ``v`` as a copy of ``like_msg`` (the conversion of
    ``like``, a view of the same state) with seat, hand, to_act and the parts where ``v`` differs
    rewritten: games share the parts every seat sees as the same objects."""
    msg.CopyFrom(like_msg)
    msg.seat = v.seat
    msg.hand.CopyFrom(shared_card_set(tuple(v.hand), notation))
    if v.to_act != like.to_act:  # a phase whose turn is not public: each viewer sees only itself
        msg.to_act[:] = v.to_act
    if v.seats is not like.seats and v.seats != like.seats:
        del msg.seats[:]
        for sv in v.seats:
            seat_view_into(msg.seats.add(), sv, notation)
    if v.public_cards is not like.public_cards and v.public_cards != like.public_cards:
        msg.ClearField("public_cards")
        _put_cards(msg.public_cards, v.public_cards, notation)
    if v.counters is not like.counters and v.counters != like.counters:
        msg.ClearField("counters")
        _put_all(msg.counters, v.counters)
    return msg


def event_into(msg: state_pb2.Event, e: Event, notation) -> state_pb2.Event:
    """Fill the empty Event ``msg`` from a core Event."""
    msg.type, msg.seat = e.type, e.seat
    msg.cards.CopyFrom(shared_card_set(tuple(e.cards), notation))
    if e.combo is not None:
        msg.combination.CopyFrom(shared_combination(e.combo, notation))
    _put_all(msg.values, e.values)
    return msg


def events(es: Iterable[Event], notation, into=None) -> list[state_pb2.Event] | None:
    """Core Events as protobuf, in order: appended to the repeated field ``into`` (returns None),
    or returned as a list."""
    if into is None:
        return [event_into(state_pb2.Event(), e, notation) for e in es]
    for e in es:
        event_into(into.add(), e, notation)
    return None


def settlement(s: Settlement) -> state_pb2.Settlement:
    """A core Settlement as protobuf."""
    return state_pb2.Settlement(
        points=s.points, winners=s.winners, outcome=s.outcome,
        breakdown=[state_pb2.BreakdownLine(name=n, value=v) for n, v in s.breakdown], house=s.house,
        seat_values={k: state_pb2.SeatNumbers(values=v) for k, v in s.seat_values.items()}, values=s.values)


def match_info(match, points=(), over: bool = False, void_round: bool = False,
               void_match: bool = False) -> state_pb2.MatchInfo:
    """A core Match as MatchInfo; ``points`` (a settlement's) are added to its totals unless the
    round is void or voids the match."""
    counted = points and not void_round and not void_match
    totals = [a + b for a, b in zip(match.totals, points)] if counted else list(match.totals)
    return state_pb2.MatchInfo(round=match.round, totals=totals, over=over, number=match.number,
                               void_round=void_round, void_match=void_match)


def deal_record(game: Game, state) -> referee_service_pb2.DealRecord:
    """What ``referee verify`` needs to re-derive a round's cards (Score, to the owner)."""
    cards, values = game.dealt(state)
    return referee_service_pb2.DealRecord(
        game=game.id, seats=state.num_seats,
        options={i.name: option_value(getattr(state.options, i.name)) for i in game.option_infos()},
        cards={name: card_set(ids, game.notation) for name, ids in cards.items()}, values=values,
        match=match_info(state.match))


# --- options and games ------------------------------------------------------------------------
def option_value_in(name: str, msg: options_pb2.OptionValue):
    which = msg.WhichOneof("value")
    if which is None:
        raise InvalidAction(f"option {short(name)} has no value", Reason.BAD_OPTION)
    return getattr(msg, which)


def options_in(game: Game, preset: str, options: Mapping[str, options_pb2.OptionValue]):
    """The game's options: ``preset`` plus the typed values given by name.

    Raises: UnknownName (UNKNOWN_PRESET), InvalidAction (BAD_OPTION).
    """
    overrides = {name: option_value_in(name, value) for name, value in options.items()}
    return game.make_options(preset, overrides)


def clock_in(game: Game, options: Mapping[str, options_pb2.OptionValue]):
    """The table's clock settings from the options map (checked by ``options_in``)."""
    return game.clock_settings({name: option_value_in(name, value) for name, value in options.items()
                                if name in CLOCK_OPTIONS})


def option_value(value) -> options_pb2.OptionValue:
    if isinstance(value, bool):
        return options_pb2.OptionValue(bool_value=value)
    if isinstance(value, int):
        return options_pb2.OptionValue(int_value=value)
    return options_pb2.OptionValue(string_value=value)


def option_info(info: OptionInfo) -> options_pb2.OptionInfo:
    return options_pb2.OptionInfo(name=info.name, type=info.type, default_value=option_value(info.default),
                                  allowed=[option_value(a) for a in info.allowed], minimum=info.minimum,
                                  maximum=info.maximum, help=info.help)


def _names(mapping: Mapping[str, str]) -> list[options_pb2.NameInfo]:
    return [options_pb2.NameInfo(name=name, help=help) for name, help in mapping.items()]


def game_info(game: Game) -> options_pb2.GameInfo:
    """What ListGames says of a game: all it declares of itself."""
    infos = game.option_infos()
    presets = []
    for name, opts in game.presets.items():
        changed = {i.name: option_value(getattr(opts, i.name)) for i in infos if getattr(opts, i.name) != i.default}
        presets.append(options_pb2.Preset(name=name, values=changed))
    notation = game.notation
    return options_pb2.GameInfo(
        id=game.id, name=game.name, min_seats=game.min_seats, max_seats=game.max_seats,
        default_seats=game.default_seats or game.min_seats, card_space=notation.name,
        decks=getattr(notation, "decks", 0), card_ids=notation.id_count, presets=presets,
        options=[option_info(i) for i in infos + game.clock_option_infos()],
        action_kinds=[options_pb2.ActionKindInfo(name=k.name, help=k.help, fields=k.fields) for k in game.action_kinds],
        reasons=_names(game.reasons), phases=[p.name for p in game.phases], counters=_names(game.counters),
        seat_counters=_names(game.seat_counters), public_cards=_names(game.public_cards),
        seat_cards=_names(game.seat_cards), roles=_names(game.roles),
        event_types=[options_pb2.EventTypeInfo(name=name, help=t.help, values=_names(t.values),
                                               private_cards=t.private_cards)
                     for name, t in game.event_types.items()],
        capabilities=game.capabilities(), abandon=game.abandon_policy,
        private_turn_phases=[p.name for p in game.phases if not p.public_turn],
        combination_kinds=_names(game.combination_kinds), outcomes=_names(game.outcomes),
        breakdown=_names(game.breakdown), meld_kinds=_names(game.meld_kinds), seat_values=_names(game.seat_values),
        values=_names(game.values), standings=_names(game.standings), hint_context=_names(game.hint_context),
        balances=[options_pb2.Balance(seat_values=a, values=b) for a, b in game.balances],
        deal_cards=[options_pb2.DealRecordKey(name=name, help=k.help, per_seat=k.per_seat)
                    for name, k in game.deal_cards.items()],
        deal_values=_names(game.deal_values))


# what a game declares of itself does not change while it is registered: a shared message too
shared_game_info = functools.lru_cache(maxsize=64)(game_info)
