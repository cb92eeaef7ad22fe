"""The trix / tricks encodings for the Cython search kernels
(``csrc/search/trick.pxd``, ``csrc/search/deal.pxd``): a deal's trick
contract, its layout, and the whole deal from the contract choice."""

from __future__ import annotations

from ...cards import mask_of
from ...games.contract_match.rules import deal_rules, option_rules
from ...games.contract_match.state import (
    CHOOSE,
    CLAIM,
    CONTRACT_BASE,
    DECLARE,
    LAYOUT_PLAY,
    NO_REDEAL,
    PASS,
    REDEAL,
    REVEAL_BASE,
    REVEAL_DONE,
    TRICKS,
)
from ...search import native as search_native
from ...search.native import ALL_CARDS
from ...trickrules import kernel_table

# ---- trix / tricks -------------------------------------------------------------


def native_contract_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                           equivalence: bool = True):
    """The Cython search of any trix / tricks decision, prepared from a
    ``ContractWorldSampler``: card play in a trick contract
    (``native_trick_search``), the layout (``native_layout_search``), and
    the decisions before the play (``native_deal_search``: the contract
    choice, doubling, redeal claims).  ``None`` once the game is over,
    without the build, or under DIXTRIX_PUREPYTHON."""
    base = sampler.base
    if base.is_terminal() or sampler.sampler is None:
        return None
    if base.phase == TRICKS:
        return native_trick_search(sampler, policy, keep, equivalence)
    if base.phase == LAYOUT_PLAY:
        return native_layout_search(sampler, policy, keep, equivalence)
    if base.phase in (CHOOSE, DECLARE, CLAIM):
        return native_deal_search(sampler, policy)
    return None


def _holder_rules(sampler) -> dict:
    """The determinization part of a trix / tricks search's rules: teams,
    the cards known to be with each seat, the seats the sampler deals to."""
    base = sampler.base
    seat = sampler.seat
    fixed = [0] * 4
    for card, s in sampler.fixed.items():
        fixed[s] |= 1 << card
    partners = bool(base.game.options.get("partners", False))
    return {"team": [s % 2 if partners else s for s in range(4)], "fixed": fixed,
            "others": [s for s in range(4) if s != seat], "seat": seat,
            "scale": float(base.game.round_scale)}


def native_trick_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                        equivalence: bool = True):
    """The Cython search of a trix / tricks trick contract
    (``csrc/search/trick.pxd``), prepared from a ``ContractWorldSampler``;
    ``None`` outside a trick contract, without the build, or under
    DIXTRIX_PUREPYTHON.  ``policy`` ``rules``: the follower's play-out
    cards by the kernel's greedy rule (``trick_greedy``: stay under the
    winning card, else dump the costliest card on another team's trick),
    three times in four; ``random``: every play-out card at random."""
    _ismcts = search_native._native_module()
    if _ismcts is None:
        return None
    base = sampler.base
    if base.is_terminal() or base.phase != TRICKS or sampler.sampler is None:
        return None
    log = base.log
    play = log.play
    # the deal's trick rules, derived from its rulebook
    # (solver/games/contract_match/rules.py)
    table = kernel_table(deal_rules(base))
    rules = dict(_holder_rules(sampler), win_pts=table["points"], revealer=table["revealer"],
                 trick_pts=table["trick_points"], discard_mask=table["discard_mask"],
                 played=play.played, root_keep=keep, equiv=int(equivalence),
                 playout=int(policy == "rules"))
    state = {"hands": list(play.hands), "score": list(base._deal_scores(log)),
             "trick": list(play.trick), "leader": play.leader,
             "tricks_done": play.tricks_done}
    return _ismcts.Search("trick", sampler.sampler.compiled, rules, state)


#: the kernels' pass in the layout (63 is no card)
PASS_BIT = 63


def native_layout_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                         equivalence: bool = True):
    """The Cython search of the layout (trix "Trix" / tricks "Jacks";
    ``csrc/search/trick.pxd``), prepared from a ``ContractWorldSampler``;
    ``None`` outside the layout.  Its play-outs are random whatever
    ``policy`` says; every card is searched (no equivalent cards in the
    layout)."""
    _ismcts = search_native._native_module()
    if _ismcts is None:
        return None
    base = sampler.base
    if base.is_terminal() or base.phase != LAYOUT_PLAY or sampler.sampler is None:
        return None
    play = base.log.play
    played = 0
    for _, card in play.plays:
        played |= 1 << card
    place = [-1] * 4
    for i, s in enumerate(play.finish):
        place[s] = i
    rules = dict(_holder_rules(sampler), played=played)
    lay = play.layout
    state = {"hands": list(play.hands), "lo": list(lay.lo), "hi": list(lay.hi),
             "left": list(play.left), "place": place, "fit": lay.fitting(),
             "turn": play.turn, "nout": len(play.finish)}
    return search_native.Mapped(_ismcts.Search("layout", sampler.sampler.compiled, rules, state),
                   {PASS_BIT: PASS})


#: the kernel's moves before the play (csrc/search/deal.pxd): reveal done,
#: no redeal, redeal
DONE_BIT, NO_REDEAL_BIT, REDEAL_BIT = 63, 0, 1


def native_deal_search(sampler, policy: str = "rules"):
    """The Cython search of a trix / tricks decision before the play
    (``csrc/search/deal.pxd``), prepared from a ``ContractWorldSampler``:
    the whole deal is searched from the decision, its later non-card
    decisions as the rules player makes them (PUCT's prior, and in
    play-outs), a redeal dealing new hands.

    The contract choice is a flat search: every open contract played out
    in each world, paired, by the rules player at every seat (``policy``
    ``rules``: the policy the contracts' average-deal values were measured
    with), so that no contract's raw value (the layout's is far above the
    others') draws the iterations; its means are this deal's values, and
    the caller judges them against each contract's average-deal value
    (``solver.search.contract_choice``: the choice maximises ``v(c) - b(c)``).
    Doubling and claims: a tree (PUCT on the decisions, UCB1 on the cards),
    its card play-outs the trick contracts' greedy follower.  ``random``:
    every play-out move at random.  ``None`` outside those phases."""
    _ismcts = search_native._native_module()
    if _ismcts is None:
        return None
    base = sampler.base
    if base.is_terminal() or base.phase not in (CHOOSE, DECLARE, CLAIM) or \
            sampler.sampler is None:
        return None
    game = base.game
    log = base.log
    # the four trick contracts' rules (the kernel's contracts 0..3, the
    # layout's 4 scores no trick), derived from their rulebooks
    # (solver/games/contract_match/rules.py)
    tables = [kernel_table(option_rules(game.options, k)) for k in range(4)]
    choosing = base.phase == CHOOSE
    used = len(base.used) + (1 if choosing else 0)
    rules = dict(_holder_rules(sampler),
                 win_pts=[t["points"] for t in tables] + [[0] * 64],
                 trick_pts=[t["trick_points"] for t in tables] + [0],
                 pen_mask=[t["penalty_mask"] for t in tables] + [0],
                 must_discard=int(any(t["discard_mask"] for t in tables)),
                 doubling=int(game.has_reveals), claims=int(game.has_claims),
                 claim_dealer=int(used == 5), chooser=base.chooser,
                 playout=0 if policy == "random" else (3 if choosing else 1),
                 flat=int(choosing))
    phase = {CHOOSE: 0, DECLARE: 1, CLAIM: 2}[base.phase]
    order = list(base.order) if not choosing else []
    state = {"hands": [mask_of(h) for h in log.hands], "phase": phase,
             "contract": log.contract,
             "open_contracts": sum(1 << k for k in range(5) if k not in base.used),
             "order": order, "order_pos": base.order_pos if not choosing else 0,
             "reveals": list(log.reveals)}
    native = _ismcts.Search("deal", sampler.sampler.compiled, rules, state)
    if choosing:
        names = {k: CONTRACT_BASE + k for k in range(5)}
    elif base.phase == DECLARE:
        names = {c: REVEAL_BASE + c for c in range(64)}
        names[DONE_BIT] = REVEAL_DONE
    else:
        names = {NO_REDEAL_BIT: NO_REDEAL, REDEAL_BIT: REDEAL}
    return search_native.Mapped(native, names)
