"""trix and tricks (``ContractGame``): a trick contract (King of Hearts,
Queens, Diamonds, Ltoosh) through the generic kernel, the layout (trix's
"Trix", tricks' "Jacks") through the layout solver.  Individual: the best
deal result the seat can guarantee against the other three (paranoid), or
with ``kind="maxn"`` the result when every seat plays for its own score
(issue #40, ``solver.dd.Solver.solve_maxn``; the trick contracts only);
``partners``: the team's result, exact team minimax."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...cards import cards_of, mask_of
from ...dd import trick as dd
from ...dd.adapters.common import AFTER_MAXN, card_play_only, check_seat, named_brackets
from ...dd.adapters.registry import register, register_table
from ...dd.layout import PASS, solve_layout
from ...dd.solution import KIND_WORDS, Solution, best_in_tie_order
from ...errors import NAMED_SEAT, PositionError, SearchAborted, UnsupportedPositionError
from ...front import N_
from ...games.contract_match.game import ContractGame
from ...games.contract_match.rules import (
    CONTRACT_NAMES,
    contract_rules,
    deal_rules,
    option_rules,
)
from ...games.contract_match.state import CHOOSE, CONTRACT_BASE, LAYOUT_PLAY, TRICKS
from ...games.contract_match.state import PASS as PASS_ACTION
from ...games.contract_match.trick_play import PENALTY_RULES
from ...said import Phrase, Quote, Said, Seat, Word, phrase

# the errors raised here (solver/errors.py: a code and its parameters)
# what a deal's value measures (``Solution.objective_said``): the contract
# by the game's own title, the kind of value in words
OBJECTIVE_TEAM = phrase("objective.deal_team", N_("{contract}: the team's deal score ({kind})"))
OBJECTIVE_SEAT = phrase("objective.deal_seat", N_("{contract}: the seat's deal score ({kind})"))
OBJECTIVE_MAXN = phrase("objective.deal_maxn", N_("{contract}: each seat's deal score ({kind}: "
                                                  "every seat for its own, ties against {seat})"))
LAYOUT_TEAM = phrase("objective.layout_team", N_("{contract}: the team's finishing points ({kind})"))
LAYOUT_SEAT = phrase("objective.layout_seat", N_("{contract}: the seat's finishing points ({kind})"))
UNKNOWN_PENALTY = phrase("unknown_penalty", N_("unknown penalty contract {kind} (known: {known})"))
NOT_CARD_PLAY = phrase("cm_not_card_play", N_("a contract choice, a declaration or a redeal claim"))
NOT_AT_CHOICE = phrase("not_at_choice", N_("contract_table: the state is not at a contract choice"))
NOT_CHOOSABLE = phrase("not_choosable", N_("{contract} is not a contract the chooser may choose "
                                           "(one of {choices})"))

#: the game's trick contracts -> the kernel's penalty contract kinds
KINDS = CONTRACT_NAMES
#: the kernel's kinds -> the game's trick contracts
CONTRACT_OF_KIND = {kind: cid for cid, kind in CONTRACT_NAMES.items()}

#: trix / tricks penalty contracts: (card points, trick points), as their
#: rulebooks (solver/games/contract_match/rules.py) declare them
PENALTY_CONTRACTS = {r.name: (dict(r.card_points), r.trick_points)
                     for r in (contract_rules(cid) for cid in CONTRACT_NAMES)}


def penalty_contract(kind: str, partners: bool = False, doubled: Mapping[int, int] | None = None,
                     must_discard: bool = False) -> dd.Contract:
    """A trix / tricks trick contract (no trumps, four seats): ``kind`` one
    of king, queens, diamonds, ltoosh; ``partners`` seats 0+2 vs 1+3;
    ``doubled`` revealed card -> revealer seat; ``must_discard`` trix's
    ``must_discard_penalty`` (a void follower plays a penalty card if held)."""
    if kind not in CONTRACT_OF_KIND:
        raise PositionError(UNKNOWN_PENALTY(kind=Quote(kind), known=list(CONTRACT_OF_KIND)))
    return dd.contract_of(contract_rules(CONTRACT_OF_KIND[kind], partners, doubled, must_discard))


def deal_position(state) -> tuple[dd.TrickPosition, str]:
    """The trick-contract deal of a state in card play: its
    ``TrickPosition`` (doubling, must-discard and what is already won
    included) and the contract's kind."""
    play = state.log.play
    rules = deal_rules(state)
    contract = dd.contract_of(rules)
    so_far = state.round_returns()
    teams = contract.team_ids
    points = tuple(int(so_far[contract.teams.index(t)]) for t in teams)
    tricks = tuple(sum(play.tricks_won[s] for s in range(4) if contract.teams[s] == t)
                   for t in teams)
    pos = dd.TrickPosition(contract, tuple(play.hands), play.leader, tuple(play.trick),
                           points=points, tricks=tricks)
    return pos, rules.name


#: the max^n value is tried with at most this many cards in play (its
#: search is exhaustive but for its table: from seven tricks left it takes
#: 0.3-1.1 M nodes at the median, about 5 times more a trick earlier;
#: docs/solver.md, "Which value"); with more, or past the node bound, the
#: paranoid value is given (``Solution.kind`` says which)
MAXN_CARDS = 28


def contract_word(state) -> Word:
    """The contract in play by the game's own title (a message id of the
    game's front: ``ContractFront.contracts``)."""
    return Word(state.game.contract_titles[state.log.contract])


def side_objective(state, team: Phrase, seat: Phrase, partners: bool) -> Said:
    """``team`` or ``seat`` (a phrase of ``contract`` and ``kind``) for
    the contract in play: the team's value (team minimax) with partners,
    the seat's (paranoid) without."""
    kind = Word(KIND_WORDS["minimax" if partners else "paranoid"])
    return (team if partners else seat)(contract=contract_word(state), kind=kind)


def maxn_solution(state, res: dd.MaxnResult, kind_name: str) -> Solution:
    """A max^n answer (``Solver.solve_maxn``) in the game's notation."""
    name = state.action_to_string
    values = {name(c): v for c, v in res.card_values.items()}
    vectors = {name(c): v for c, v in res.vectors.items()}
    best = best_in_tie_order(state, values, max(values.values()))
    return Solution(res.value, MappingProxyType(values), res.nodes, res.time, res.seat,
                    f"{kind_name}: each seat's deal score (max^n: every seat for its own, "
                    f"ties against seat {res.seat})", best, "cython", kind="maxn",
                    action_vectors=MappingProxyType(vectors), choice=name(res.choice),
                    objective_said=OBJECTIVE_MAXN(contract=contract_word(state),
                                                  kind=Word(KIND_WORDS["maxn"]),
                                                  seat=Seat(res.seat)))


def maxn_tried(state, pos: dd.TrickPosition | None = None) -> bool:
    """Whether ``solve(state, kind="maxn")`` tries the max^n value in this
    trick contract: four individual seats and at most ``MAXN_CARDS`` cards
    in play."""
    if state.phase != TRICKS or state.game.options.get("partners", False):
        return False
    if pos is None:
        pos = deal_position(state)[0]
    return sum(bin(h).count("1") for h in pos.hands) + len(pos.trick) <= MAXN_CARDS


@register(ContractGame)
def solve_contract_state(solver, state, seat, max_nodes=None, kind=None) -> Solution:
    if seat is None:
        seat = state.current_player()
    check_seat(seat, 4)
    partners = bool(state.game.options.get("partners", False))
    if state.phase == TRICKS:
        pos, contract = deal_position(state)
        spent = 0
        if kind == "maxn" and maxn_tried(state, pos):
            try:
                return maxn_solution(state, solver.solve_maxn(pos, seat, max_nodes), contract)
            except SearchAborted as exc:
                # past the bound: the paranoid value with what is left of it
                spent = exc.nodes
        bound = None if max_nodes is None else max(1, max_nodes - spent)
        try:
            res = solver.solve_position(pos, max_team=pos.contract.teams[seat], objective="own",
                                        max_nodes=bound)
        except SearchAborted as exc:
            named_brackets(exc, state.action_to_string)
            if not spent:
                raise
            raise SearchAborted(AFTER_MAXN(error=exc.as_message(), spent=spent),
                                exc.nodes + spent, exc.brackets, exc.span) from exc
        values = {state.action_to_string(c): v for c, v in res.card_values.items()}
        best = best_in_tie_order(state, values, res.value)
        return Solution(res.value, MappingProxyType(values), res.nodes + spent, res.time, seat,
                        f"{contract}: the {'team' if partners else 'seat'}'s deal score "
                        f"({'team minimax' if partners else 'paranoid'})", best, res.engine,
                        kind="minimax" if partners else "paranoid",
                        objective_said=side_objective(state, OBJECTIVE_TEAM, OBJECTIVE_SEAT,
                                                      partners))
    if state.phase == LAYOUT_PLAY:
        play = state.log.play
        lay = play.layout
        rows = {s: (lay.lo[s], lay.hi[s]) for s in range(4) if lay.lo[s]}
        res = solve_layout([cards_of(h) for h in play.hands], rows, play.turn,
                           list(play.finish), seat=seat, partnership=partners,
                           tt_mb=solver.tt_mb)
        values = {state.action_to_string(PASS_ACTION if a == PASS else a): v
                  for a, v in res.actions.items()}
        best = best_in_tie_order(state, values, res.value)
        return Solution(res.value, MappingProxyType(values), res.nodes, res.seconds, seat,
                        f"layout: the {'team' if partners else 'seat'}'s finishing points "
                        f"({'team minimax' if partners else 'paranoid'})", best, "cython",
                        kind="minimax" if partners else "paranoid",
                        objective_said=side_objective(state, LAYOUT_TEAM, LAYOUT_SEAT, partners))
    raise card_play_only(state, NOT_CARD_PLAY())


@register_table(ContractGame)
def contract_table(solver, state, seats=None, max_nodes: int | None = None,
                   contracts=None) -> dict:
    """A trix / tricks state at its contract choice (``solver.dd.contract_table``):
    ``{contract action string: {seat: value}}`` for every contract the
    chooser may still choose (or those of ``contracts``, action strings),
    each seat of ``seats`` (default: the chooser) valued from trick 1 -- a
    trick contract's deal score (paranoid, or the team's with partners)
    with no card revealed (doubling comes after the choice), the layout's
    finishing points.  ``max_nodes`` bounds each trick contract's solve
    (``SearchAborted``)."""
    if state.is_terminal() or state.phase != CHOOSE:
        raise UnsupportedPositionError(NOT_AT_CHOICE())
    chooser = state.chooser
    seats = (chooser,) if seats is None else tuple(seats)
    for s in seats:
        if isinstance(s, bool) or s not in range(4):
            raise PositionError(NAMED_SEAT(name="seat", top=3, got=Quote(s)), "seats")
    opts = state.game.options
    partners = bool(opts.get("partners", False))
    hands = tuple(mask_of(h) for h in state.log.hands)
    legal = state.legal_actions()
    if contracts is not None:
        names = {state.action_to_string(a): a for a in legal}
        for c in contracts:
            if c not in names:
                raise PositionError(NOT_CHOOSABLE(contract=Quote(c), choices=list(names)),
                                    "contracts")
        legal = [names[c] for c in contracts]
    out = {}
    for action in legal:
        cid = action - CONTRACT_BASE
        values = {}
        if cid in PENALTY_RULES:
            contract = dd.contract_of(option_rules(opts, cid))
            pos = dd.TrickPosition(contract, hands, chooser)
            for s in seats:
                values[s] = solver.value(pos, max_team=contract.teams[s], max_nodes=max_nodes)
        else:
            for s in seats:
                values[s] = solve_layout([cards_of(h) for h in hands], {}, chooser, [], seat=s,
                                         partnership=partners, tt_mb=solver.tt_mb).value
        out[state.action_to_string(action)] = values
    return out
