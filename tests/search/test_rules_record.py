"""Every trick game's rules, as each consumer reads them, held to recorded
data (tests/data/rules_reference.json): the double-dummy contract of a
position (``solver.dd.Contract``), the opponent model's trick rules and
card facts (``solver.cardplay``), the dicts handed to the Cython search
kernels and PIMC's trick play-outs, and, as a signature of the whole,
seeded solves (node counts and values) and seeded searches (action,
values, visits).

The reference was recorded from the code before the rules became one
record per game (``solver.trickrules.Rulebook``, declared in each game's
``rules.py``); it is what the derived objects must equal.  The tests after
it hold the rulebooks themselves: each consumer follows a change of the
record, the three shapes agree card by card, and no game writes a
consumer's shape by hand.  To record
it again (only when a rule is meant to change):
``python tests/search/test_rules_record.py --write``."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import random
import sys
from collections.abc import Mapping

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script to record the reference
    sys.path.insert(0, str(ROOT))

import solver  # noqa: E402
from solver import position  # noqa: E402
from solver.beliefs import RulesTable  # noqa: E402
from solver.dd import Solver  # noqa: E402
from solver.search import Limit, best_move  # noqa: E402
from solver.search import native as search_native  # noqa: E402
from solver.search.support import support_for  # noqa: E402

REFERENCE = ROOT / "tests" / "data" / "rules_reference.json"

NATIVE = os.environ.get("DIXTRIX_PUREPYTHON", "") in ("", "0") and \
    search_native._native_module() is not None


def plain(x):
    """``x`` as JSON data (dataclasses as dicts of their fields, mappings
    and sets as sorted lists)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, Mapping):
        return sorted([plain(k), plain(v)] for k, v in x.items())
    if isinstance(x, (set, frozenset)):
        return sorted(plain(v) for v in x)
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, (bytes, bytearray)):
        return list(x)
    return x


class _Capture:
    """A stand-in for the compiled search module that records what the
    kernels' Python side hands it."""

    def __init__(self):
        self.calls = []

    def Search(self, kind, compiled, rules, state):
        self.calls.append({"kernel": kind, "rules": plain(rules), "state": plain(state)})
        return self

    def TrickWorlds(self, *args):
        self.calls.append({"kernel": "TrickWorlds", "args": plain(args)})
        return self


def _drive(game, seed, stop, choose=None, limit=3000):
    """A seeded game played at random (``choose(state, legal)`` may pick a
    move instead) until ``stop(state)`` holds at a choice of three moves or
    more."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if not state.is_terminal() and stop(state) and len(state.legal_actions()) > 2:
            return state
        assert not state.is_terminal(), "the game ended before the position sought"
        legal = state.legal_actions()
        a = choose(state, legal) if choose else None
        state.apply_action(rng.choice(legal) if a is None else a)
    raise AssertionError("no position found")


def _trix_choose(contract: int, reveal: bool):
    from solver.games.contract_match.state import (
        CHOOSE,
        CONTRACT_BASE,
        DECLARE,
        REVEAL_BASE,
        REVEAL_DONE,
    )

    def choose(state, legal):
        if state.phase == CHOOSE and CONTRACT_BASE + contract in legal:
            return CONTRACT_BASE + contract
        if state.phase == DECLARE:
            shown = [a for a in legal if a >= REVEAL_BASE]
            return shown[0] if reveal and shown else REVEAL_DONE
        return None
    return choose


def _dix_states():
    dix = solver.load_game("dix")
    seventeen = solver.load_game("dix", variant="seventeen")
    free = solver.load_game("dix", free_play_while_stock=True)
    return [
        ("dix stock", _drive(dix, 3, lambda s: s.tricks_done >= 5 and not s.trick), False),
        ("dix end", _drive(dix, 4, lambda s: s.tricks_done >= 16 and len(s.trick) == 1), True),
        ("dix seventeen", _drive(seventeen, 5, lambda s: s.tricks_done >= 8 and not s.trick),
         True),
        ("dix free play", _drive(free, 6, lambda s: s.tricks_done >= 3 and len(s.trick) == 1),
         False),
    ]


def _contract_states():
    from solver.games.contract_match.state import CHOOSE, DECLARE, TRICKS

    def in_play(contract, done):
        return lambda s: not s.is_terminal() and s.phase == TRICKS and \
            s.log.contract == contract and s.log.play.tricks_done >= done and \
            len(s.log.play.trick) == 1

    out = []
    for name, options, contract, reveal, seed in (
            ("trix king doubled", {}, 0, True, 11),
            ("trix queens doubled", {}, 1, True, 12),
            ("trix diamonds", {}, 2, False, 13),
            ("trix ltoosh", {}, 3, False, 14),
            ("trix partners king", {"partners": True}, 0, True, 15),
            ("trix must-discard queens", {"must_discard_penalty": True}, 1, False, 16),
            ("trix must-discard diamonds", {"must_discard_penalty": True}, 2, True, 17),
            ("tricks king", {}, 0, False, 18),
            ("tricks ltoosh", {}, 3, False, 19)):
        game = solver.load_game(name.split()[0], **options)
        state = _drive(game, seed, in_play(contract, 4 if contract == 0 else 6),
                       _trix_choose(contract, reveal))
        assert state.log.contract == contract, name
        out.append((name, state, True))
    for name, options, seed in (("trix choice", {}, 21),
                                ("trix must-discard choice", {"must_discard_penalty": True}, 22)):
        game = solver.load_game("trix", **options)
        out.append((name, _drive(game, seed, lambda s: s.phase == CHOOSE), False))
    game = solver.load_game("trix", must_discard_penalty=True)
    out.append(("trix must-discard doubling",
                _drive(game, 23, lambda s: s.phase == DECLARE, _trix_choose(0, False)), False))
    return out


def _rook_states():
    from solver.games.dixie_rook import PLAY

    out = []
    for name, players, seed, done in (("dixie-rook 4", 4, 31, 7), ("dixie-rook 6", 6, 32, 5)):
        game = solver.load_game("dixie-rook", players=players)
        state = _drive(game, seed, lambda s, d=done: not s.is_terminal() and s.phase == PLAY and
                       s.tricks_done >= d and len(s.trick) == 1)
        out.append((name, state, True))
    return out


def _contract_of(state):
    """The double-dummy contract the game's exact adapter builds."""
    name = state.game.name
    if name == "dix":
        from solver.games.dix.exact import dix_position
        return dix_position(state).contract
    if name in ("trix", "tricks"):
        from solver.games.contract_match.exact import deal_position
        return deal_position(state)[0].contract
    from solver.games.dixie_rook.exact import deal_position as rook_position
    return rook_position(state).contract


def _kernel_calls(state, monkeypatch):
    """What the game's kernel encoding hands the compiled search (and, in
    a trick contract, PIMC's play-outs)."""
    cap = _Capture()
    monkeypatch.setattr(search_native, "_native_module", lambda: cap)
    sampler = position.from_json(state.information_state(state.current_player()).view).sampler()
    name = state.game.name
    if name == "dix":
        from solver.games.dix.kernel import native_dix_search
        native_dix_search(sampler)
    elif name in ("trix", "tricks"):
        from solver.games.contract_match.kernel import native_contract_search
        from solver.games.contract_match.search import NativeTrickWorlds
        from solver.games.contract_match.state import TRICKS
        native_contract_search(sampler)
        if state.phase == TRICKS:
            NativeTrickWorlds(cap, state, state.current_player(), 1000, 8, None)
    else:
        from solver.games.dixie_rook.kernel import native_rook_search
        native_rook_search(sampler)
    monkeypatch.undo()
    return cap.calls


def _model_facts(state):
    """The opponent model's trick rules and the facts of the card to play."""
    model = support_for(state.game).opponent_model(state.game)
    kinds = model.card_kinds(state)
    if kinds is None:
        return None
    table = RulesTable()
    obs = model.decision(state, state.legal_actions()[0], table)
    return {"rules": plain(kinds[0]), "kinds": plain(kinds[1]), "card": plain(obs.card),
            "table": [plain(r) for r in table.rules]}


def _figures(state):
    """Seeded solves and searches: node counts, values, the moves chosen."""
    res = Solver().solve(state)
    out = {"solve": {"value": res.value, "values": plain(res.action_values),
                     "nodes": res.nodes, "best": plain(res.best_actions)}}
    m = best_move(state, Limit(iterations=300), seed=1, exact=False, inference=True,
                  pool=16)
    out["ismcts"] = {"action": m.action, "values": plain(m.values),
                     "visits": plain(m.visits), "nodes": m.nodes}
    p = best_move(state, Limit(worlds=3), bot="pimc", seed=2, exact=False,
                  inference=False)
    out["pimc"] = {"action": p.action, "values": plain(p.values), "nodes": p.nodes}
    return out


def _builders() -> dict:
    """The contracts each game's exact adapter builds, over their options."""
    from solver.games.contract_match.exact import PENALTY_CONTRACTS, penalty_contract
    from solver.games.dix.exact import dix_contract
    from solver.games.dixie_rook.exact import rook_contract
    out = {}
    for kind in PENALTY_CONTRACTS:
        for partners in (False, True):
            for discard in (False, True):
                out[f"{kind} partners={partners} discard={discard}"] = plain(
                    penalty_contract(kind, partners, {50: 1}, discard))
    for trump, joker in ((-1, None), (2, 9), (0, 14)):
        out[f"dix {trump} {joker}"] = plain(dix_contract(trump, joker))
    for n, trump, nest in ((4, 1, 15), (6, 3, 0)):
        out[f"rook {n} {trump} {nest}"] = plain(rook_contract(n, trump, nest))
    return out


def _cases():
    return _dix_states() + _contract_states() + _rook_states()


def snapshot(monkeypatch) -> dict:
    """Everything recorded, by case name."""
    out = {}
    for name, state, solvable in _cases():
        entry = {"model": _model_facts(state)}
        if solvable:
            entry["contract"] = plain(_contract_of(state))
        if NATIVE:
            entry["kernel"] = _kernel_calls(state, monkeypatch)
        if solvable and NATIVE:
            entry.update(_figures(state))
        out[name] = entry
    out["builders"] = _builders()
    return out


@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


@pytest.fixture(scope="module")
def current():
    mp = pytest.MonkeyPatch()
    try:
        return json.loads(json.dumps(snapshot(mp)))
    finally:
        mp.undo()


CASE_NAMES = ["dix stock", "dix end", "dix seventeen", "dix free play",
              "trix king doubled", "trix queens doubled", "trix diamonds", "trix ltoosh",
              "trix partners king", "trix must-discard queens", "trix must-discard diamonds",
              "tricks king", "tricks ltoosh", "trix choice", "trix must-discard choice",
              "trix must-discard doubling", "dixie-rook 4", "dixie-rook 6"]


def test_the_reference_covers_every_case(reference):
    assert sorted(reference) == sorted(CASE_NAMES + ["builders"])


def test_the_contract_builders_build_the_recorded_contracts(reference, current):
    assert current["builders"] == reference["builders"]


@pytest.mark.parametrize("case", CASE_NAMES)
@pytest.mark.parametrize("part", ["contract", "model", "kernel", "solve", "ismcts", "pimc"])
def test_each_consumer_reads_the_recorded_rules(reference, current, case, part):
    if part not in reference[case]:
        assert part not in current[case]
        return
    if part != "contract" and part != "model" and not NATIVE:
        # the reference was recorded with the compiled kernels, whose node
        # counts and searches the pure-Python twins do not reproduce
        pytest.skip("pure-Python run: no Cython kernels")
    assert current[case][part] == reference[case][part]


# ---- the rulebooks -----------------------------------------------------------

def _books():
    from solver.games.contract_match.rules import contract_rules
    from solver.games.dix.rules import round_rules
    from solver.games.dixie_rook.rules import hand_rules
    books = [round_rules(-1, None), round_rules(2, 9, True), hand_rules(4, 1, 15),
             hand_rules(6, 3)]
    for k in range(4):
        for partners in (False, True):
            books.append(contract_rules(k, partners, {45: 3, 12: 0, 18: 1}, k % 2 == 0))
    return books


def test_each_consumer_follows_a_change_of_the_rulebook():
    from solver.dd.trick import contract_of
    from solver.games.dix.rules import round_rules
    from solver.trickrules import kernel_table, trick_rules
    book = round_rules(2, 9).with_deal(trick_points=2, ten_points=-5, discard=1 << 18,
                                       card_points={50: -7})
    contract, rules, table = contract_of(book), trick_rules(book), kernel_table(book)
    assert (contract.trick_points, contract.ten_points, contract.discard_cards,
            dict(contract.card_points)) == (2, -5, frozenset({18}), {50: -7})
    assert (rules.trick_value, rules.special_value, rules.scale, rules.points[50]) == \
        (2.0, -7.0, 7.0, -7.0)
    assert (table["trick_points"], table["discard_mask"], table["points"][50],
            table["penalty_mask"]) == (2, 1 << 18, -7, 1 << 50)


@pytest.mark.parametrize("index", range(12))
def test_the_three_shapes_agree_card_by_card(index):
    from solver.cards import cards_of
    from solver.dd.trick import contract_of
    from solver.trickrules import DECKS, KERNEL_KEYS, kernel_table, trick_rules
    book = _books()[index]
    contract, rules, table = contract_of(book), trick_rules(book), kernel_table(book)
    assert tuple(table) == KERNEL_KEYS
    assert rules.trick_value == contract.trick_points == table["trick_points"]
    assert rules.trump == contract.trump == table["trump"]
    assert set(cards_of(table["discard_mask"])) == set(contract.discard_cards)
    assert table["team"] == list(contract.teams)
    for card in DECKS[book.deck].cards:
        if not book.cards >> card & 1:
            assert rules.suit[card] == -1 and table["suit_of"][card] == 255
            continue
        assert contract.effective(card) == (rules.suit[card], rules.strength[card]) == \
            (table["suit_of"][card], table["strength"][card])
        points = contract.card_points.get(card, 0)
        assert points == table["points"][card]
        doubled = card in contract.doubled
        assert (table["revealer"][card] >= 0) == doubled
        assert rules.points[card] == points * (2 if doubled else 1)


def test_a_rulebook_names_an_unknown_deck():
    from solver.trickrules import Rulebook
    with pytest.raises(ValueError, match="unknown deck 'tarot'"):
        Rulebook("x", 4, (0, 1, 2, 3), deck="tarot")


#: the consumers' shapes, which a game derives from its rulebook and never
#: builds itself
HAND_WRITTEN = ("TrickRules", "Contract")


def written_by_hand(source: str) -> list[str]:
    """The consumers' shapes that ``source`` builds itself."""
    import ast
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in HAND_WRITTEN:
                out.append(f"line {node.lineno}: {name}(...)")
    return out


@pytest.mark.parametrize("path", sorted((ROOT / "solver" / "games").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_writes_a_consumers_rules_by_hand(path):
    assert not written_by_hand(path.read_text()), path


def test_the_hand_written_check_sees_a_contract():
    assert written_by_hand("from x import dd\nk = dd.Contract('dix', 2, (0, 1))\n") == \
        ["line 2: Contract(...)"]
    assert written_by_hand("r = TrickRules(s, t, -1, p, 0.0, 1.0)\n") == \
        ["line 1: TrickRules(...)"]
    assert not written_by_hand("k = dd.contract_of(book)\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/search/test_rules_record.py --write")
    mp = pytest.MonkeyPatch()
    REFERENCE.write_text(json.dumps(snapshot(mp), indent=1, sort_keys=True) + "\n")
    mp.undo()
    print(f"wrote {REFERENCE}")
