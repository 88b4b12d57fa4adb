"""Protobuf <-> core objects. Generic over games: nothing here knows a rule."""
from __future__ import annotations

import functools
import operator
import sys
from typing import Callable, Iterable

from referee.core import cards as core_cards
from referee.core.errors import InvalidAction, LimitExceeded, Reason
from referee.core.game import Action, ActionType, Combo, Event, Game, OptionInfo, Settlement, View
from referee.v1 import actions_pb2, cards_pb2, mcr_pb2, options_pb2, referee_service_pb2, state_pb2

MAX_CARDS = 8 * core_cards.CARDS_PER_DECK  # per card set in a request (any game's card space)
MAX_TEXT = 4 * MAX_CARDS


def game_function(game: Game, name: str) -> Callable | None:
    """A module-level helper of the game's module (e.g. ``title_for``), or None."""
    return getattr(sys.modules.get(type(game).__module__), name, None)


# --- cards ------------------------------------------------------------------------------------
# Every function that reads or writes cards takes the game's ``notation`` (Game.notation: its id
# space and text, e.g. cards.PokerNotation or the mahjong tiles of mcr_game).
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


@functools.lru_cache(maxsize=16384)
def _format_cards(notation, ids: tuple[int, ...]) -> str:
    return notation.format_cards(ids)


@functools.lru_cache(maxsize=16384)
def _format_ranks(notation, ranks: tuple[int, ...]) -> str:
    return notation.format_ranks(ranks)


_ACTION_TYPES = {t.value: t for t in ActionType}


def card_set(ids: Iterable[int], notation) -> cards_pb2.CardSet:
    """Card ids as a CardSet with both ids and text."""
    ids = tuple(ids)
    return cards_pb2.CardSet(ids=ids, text=_format_cards(notation, ids))


def combination(combo: Combo | None, notation) -> cards_pb2.Combination | None:
    """A core Combo as a Combination (None stays None: the field is left unset)."""
    if combo is None:
        return None
    return cards_pb2.Combination(kind=combo.kind, label=combo.label, main_rank=combo.main_rank,
                                 chain=combo.chain, size=combo.size, ranks=combo.ranks,
                                 rank_text=_format_ranks(notation, combo.ranks))


# The same hands, tables and combinations come back call after call (a Play answers with every
# seat's hand; two of them did not change since the last Play): the messages that views and
# events copy from are kept. Shared messages: only ever copied from, never changed.
shared_card_set = functools.lru_cache(maxsize=16384)(card_set)
shared_combination = functools.lru_cache(maxsize=4096)(combination)


# --- actions ----------------------------------------------------------------------------------
def action_in(msg: actions_pb2.Action, notation) -> Action:
    """A core Action. Raises: InvalidAction (BAD_ACTION, UNKNOWN_CARD, ...)."""
    kind = _ACTION_TYPES.get(msg.type)
    if kind is None:
        raise InvalidAction(f"unknown action type {msg.type}", Reason.BAD_ACTION)
    if kind is ActionType.ACTION_TYPE_UNSPECIFIED:
        raise InvalidAction("action type is not set", Reason.BAD_ACTION)
    values, concrete = cards_in(msg.cards, notation)
    return Action(seat=msg.seat, type=kind, cards=values if concrete else (),
                  ranks=() if concrete else values, value=msg.value, declared=msg.declared)


def action_out(action: Action, notation) -> actions_pb2.Action:
    """A core Action as protobuf (rank-only actions keep their rank string as text)."""
    cards = card_set(action.cards, notation) if action.cards else cards_pb2.CardSet(
        text=_format_ranks(notation, action.ranks))
    return actions_pb2.Action(seat=action.seat, type=int(action.type), cards=cards,
                              value=action.value, declared=action.declared)


def legal_action(action: Action, combo: Combo | None, notation) -> referee_service_pb2.LegalAction:
    """One entry of LegalActionsResponse."""
    ranks = notation.ranks_of(action.cards) if action.cards else action.ranks
    return referee_service_pb2.LegalAction(action=action_out(action, notation),
                                           ranks=_format_ranks(notation, tuple(ranks)),
                                           combination=combination(combo, notation))


# --- state ------------------------------------------------------------------------------------
# A view's public cards are a dozen entries or more (rivers, melds, flowers) and most of them
# did not change since the last Play: each entry is kept serialized, as the generated code writes
# a View holding only that entry, and a view's map is parsed from its entries joined (protobuf
# parses concatenated messages as their merge: a map's entries are added).
@functools.lru_cache(maxsize=32768)
def _public_entry(name: str, ids: tuple[int, ...], notation) -> bytes:
    return state_pb2.View(public_cards={name: card_set(ids, notation)}).SerializeToString()


def _public_entries(public, notation) -> bytes:
    return b"".join([_public_entry(name, tuple(cards), notation) for name, cards in public.items()])


def view_into(msg: state_pb2.View, v: View, notation) -> state_pb2.View:
    """Fill the empty View ``msg`` (e.g. a response's ``views.add()``: no copy) from a core View."""
    msg.seat, msg.phase, msg.table_seat, msg.finished = v.seat, v.phase, v.table_seat, v.finished
    msg.to_act.extend(v.to_act)
    msg.hand.CopyFrom(shared_card_set(tuple(v.hand), notation))
    msg.hand_sizes.extend(v.hand_sizes)
    if v.table is not None:
        msg.table.CopyFrom(shared_combination(v.table, notation))
    msg.table_cards.CopyFrom(shared_card_set(tuple(v.table_cards), notation))
    msg.roles.extend(v.roles)
    if v.public_cards:
        msg.MergeFromString(_public_entries(v.public_cards, notation))
    _put_all(msg.counters, v.counters)
    return msg


def _put_all(field, mapping) -> None:
    """Set a map field's entries from a mapping (faster than the field's ``update``)."""
    for name, value in mapping.items():
        field[name] = value


def view(v: View, notation) -> state_pb2.View:
    """A core View as protobuf."""
    return view_into(state_pb2.View(), v, notation)


def _set_repeated(name):
    def put(msg, values, was, notation):
        field = getattr(msg, name)
        del field[:]
        field.extend(values)
    return put


def _set_cards(name):
    def put(msg, ids, was, notation):
        getattr(msg, name).CopyFrom(shared_card_set(tuple(ids), notation))
    return put


def _set_public(msg, public, was, notation):
    field = msg.public_cards
    for name in was.keys() - public.keys():
        del field[name]
    changed = {name: cards for name, cards in public.items() if was.get(name) != cards}
    for name in changed:
        if name in was:
            del field[name]
    if changed:
        msg.MergeFromString(_public_entries(changed, notation))


def _set_table(msg, combo, was, notation):
    if combo is None:
        msg.ClearField("table")
    else:
        msg.table.CopyFrom(shared_combination(combo, notation))


def _set_counters(msg, counters, was, notation):
    field = msg.counters
    for name in was.keys() - counters.keys():
        del field[name]
    for name, value in counters.items():
        if was.get(name) != value:
            field[name] = value


def _set_scalar(name):
    def put(msg, value, was, notation):
        setattr(msg, name, value)
    return put


# how to write each View field but seat and hand (always written) into a message that holds
# another view's value ``was`` (the mappings change only the entries that differ: a seat's own
# kong, the drawn tile)
_OTHER_VIEW_SETTERS = (
    ("phase", _set_scalar("phase")), ("to_act", _set_repeated("to_act")),
    ("hand_sizes", _set_repeated("hand_sizes")), ("public_cards", _set_public), ("table", _set_table),
    ("table_seat", _set_scalar("table_seat")), ("table_cards", _set_cards("table_cards")),
    ("roles", _set_repeated("roles")), ("counters", _set_counters), ("finished", _set_scalar("finished")),
)
assert {name for name, _ in _OTHER_VIEW_SETTERS} == set(View._fields) - {"seat", "hand"}
_OTHER_VIEW_FIELDS = operator.attrgetter(*(name for name, _ in _OTHER_VIEW_SETTERS))


def view_like_into(msg: state_pb2.View, v: View, like: View, like_msg: state_pb2.View, notation) -> state_pb2.View:
    """Fill the empty View ``msg`` from ``v`` as a copy of ``like_msg`` (the conversion of
    ``like``) with only the fields where ``v`` differs converted: the views of a Play's seats
    differ in seat and hand, and some games' in a field or two more (a drawn tile, own
    concealed melds)."""
    msg.CopyFrom(like_msg)
    msg.seat = v.seat
    msg.hand.CopyFrom(shared_card_set(tuple(v.hand), notation))
    if _OTHER_VIEW_FIELDS(v) != _OTHER_VIEW_FIELDS(like):  # one C-level test for the usual case
        for name, setter in _OTHER_VIEW_SETTERS:
            mine, theirs = getattr(v, name), getattr(like, name)
            if mine is not theirs and mine != theirs:
                setter(msg, mine, theirs, notation)
    return msg


def event_into(msg: state_pb2.Event, e: Event, notation) -> state_pb2.Event:
    """Fill the empty Event ``msg`` from a core Event."""
    msg.type, msg.seat = e.type, e.seat
    msg.cards.CopyFrom(shared_card_set(tuple(e.cards), notation))
    if e.combo is not None:
        msg.combination.CopyFrom(shared_combination(e.combo, notation))
    _put_all(msg.values, e.values)
    return msg


def event(e: Event, notation) -> state_pb2.Event:
    """A core Event as protobuf."""
    return event_into(state_pb2.Event(), e, notation)


def events(es: Iterable[Event], notation, into=None) -> list[state_pb2.Event] | None:
    """Core Events as protobuf, in order: appended to the repeated field ``into`` (returns None),
    or returned as a list."""
    if into is None:
        return [event(e, notation) for e in es]
    for e in es:
        event_into(into.add(), e, notation)
    return None


def settlement(s: Settlement) -> state_pb2.Settlement:
    """A core Settlement as protobuf."""
    return state_pb2.Settlement(
        points=s.points, winners=s.winners, outcome=s.outcome,
        breakdown=[state_pb2.BreakdownLine(name=n, value=v) for n, v in s.breakdown],
        house=s.house, coins=s.coins, coins_house=s.coins_house, mode=s.mode)


# --- options and games ------------------------------------------------------------------------
def options_in(game: Game, preset: str, msg: options_pb2.GameOptions):
    """The game's options: ``preset`` plus the fields set in ``msg``.

    Raises: UnknownName (UNKNOWN_PRESET), InvalidAction (BAD_OPTION).
    """
    branch = msg.WhichOneof("game")
    overrides = {}
    if branch is not None:
        if branch != game.id:
            raise InvalidAction(f"options for {branch!r} given to game {game.id!r}", Reason.BAD_OPTION)
        overrides = {f.name: value for f, value in getattr(msg, branch).ListFields()}
    return game.make_options(preset, overrides)


def _option_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_info(info: OptionInfo) -> options_pb2.OptionInfo:
    """An option description; values as text (bools lower-case)."""
    return options_pb2.OptionInfo(name=info.name, type=info.type, default_value=_option_text(info.default),
                                  allowed=[_option_text(a) for a in info.allowed], minimum=info.minimum,
                                  maximum=info.maximum, help=info.help)


def game_info(game: Game) -> options_pb2.GameInfo:
    """What ListGames says of a game; presets list the options they change."""
    infos = game.option_infos()
    presets = []
    for name, opts in game.presets.items():
        changed = {i.name: _option_text(getattr(opts, i.name)) for i in infos
                   if getattr(opts, i.name) != i.default}
        presets.append(options_pb2.Preset(name=name, values=changed))
    return options_pb2.GameInfo(id=game.id, name=game.name, min_seats=game.min_seats,
                                max_seats=game.max_seats, decks=game.decks, presets=presets,
                                options=[option_info(i) for i in infos])


# --- mcr fan calculation -----------------------------------------------------------------------
def fan_request(msg: mcr_pb2.CalculateFansRequest) -> dict:
    """The request as the calculator's hand description (the ``referee fan`` JSON fields)."""
    if len(msg.melds) > 4 or len(msg.concealed) > 14:
        raise InvalidAction("at most 4 melds and 14 concealed tiles", Reason.MALFORMED_REQUEST)
    concealed = [name for text in msg.concealed for name in _text(text).split()]
    return {"melds": [[m.type, m.tile, m.offer] for m in msg.melds], "concealed": concealed,
            "win_tile": msg.win_tile, "self_drawn": msg.self_drawn, "fourth_tile": msg.fourth_tile,
            "kong_related": msg.kong_related, "wall_last": msg.wall_last, "seat_wind": msg.seat_wind,
            "prevalent_wind": msg.prevalent_wind, "flowers": msg.flowers}


def fan_response(result) -> mcr_pb2.CalculateFansResponse:
    """A core FanResult as protobuf."""
    return mcr_pb2.CalculateFansResponse(
        fans=[mcr_pb2.Fan(id=f.id, name_cn=f.name_cn, name_en=f.name_en, points=f.points, count=f.count)
              for f in result.fans],
        points=result.points, total=result.total)
