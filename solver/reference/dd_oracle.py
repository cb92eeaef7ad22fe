"""Pure-Python twin of the double-dummy kernel, the oracle it is tested against: plain minimax
over the same rules, no pruning, no table.

It does not use the kernel's rule table (``solver.dd.trick.kernel_table``): it
plays the tricks out under the :class:`solver.dd.Contract`, adds up each
team's points, tricks and ten-tricks as the game would, and applies the
objective to the final totals.  So it checks the kernel AND the translation
of a contract into the kernel's table.  Exponential: for endings only.
"""

from __future__ import annotations

from ..cards import cards_of

_DIX_SCALE = 256


from .cardset import dix_pips as _pips  # noqa: E402


def _winner_offset(contract, trick) -> int:
    """Highest trump, else the highest card of the suit led."""
    eff = [contract.effective(c) for c in trick]
    best = 0
    for i in range(1, len(trick)):
        s, r = eff[i]
        bs, br = eff[best]
        if s == bs:
            if r > br:
                best = i
        elif s == contract.trump:
            best = i
    return best


def _legal(contract, hand: int, trick) -> list[int]:
    cards = cards_of(hand)
    if not trick:
        return cards
    led = contract.effective(trick[0])[0]
    follow = [c for c in cards if contract.effective(c)[0] == led]
    if follow:
        return follow if contract.must_follow else cards
    discard = [c for c in cards if c in contract.discard_cards]
    return discard or cards


def solve_oracle(pos, max_team, objective: str):
    """``(value, {card: value}, nodes)`` for the seat to play in ``pos``."""
    k = pos.contract
    teams = k.team_ids
    if objective in ("difference", "dix"):
        others = [t for t in teams if t != max_team]
        if len(others) != 1:
            raise ValueError("this objective needs exactly two teams")
        opp = others[0]
    nodes = [0]

    def final(points, tricks, tens, last_team) -> int:
        pts = dict(points)
        if k.most_tricks_bonus:
            a, b = teams
            if tricks[a] > tricks[b]:
                pts[a] += k.most_tricks_bonus
            elif tricks[a] < tricks[b]:
                pts[b] += k.most_tricks_bonus
            else:
                pts[a] += k.most_tricks_bonus // 2
                pts[b] += k.most_tricks_bonus // 2
        if objective == "own":
            return pts[max_team]
        diff = pts[max_team] - pts[opp]
        if objective == "difference":
            return diff
        return (_DIX_SCALE * diff + 4 * (tens[opp] - tens[max_team])
                + (1 if last_team == max_team else -1))

    def finish(hands, leader, trick, points, tricks, tens):
        off = _winner_offset(k, trick)
        seat = (leader + off) % k.nseats
        team = k.teams[seat]
        points = dict(points)
        tricks = dict(tricks)
        tens = dict(tens)
        for c in trick:
            for t, g in k.gains(c, team).items():
                points[t] += g
        if k.ten_total is not None and sum(_pips(c) for c in trick) == k.ten_total:
            points[team] += k.ten_points
            tens[team] += 1
        else:
            points[team] += k.trick_points
        tricks[team] += 1
        if not any(hands):
            points[team] += k.last_points
            tricks[team] += k.last_extra_tricks
            return final(points, tricks, tens, team)
        return rec(hands, seat, (), points, tricks, tens)

    def rec(hands, leader, trick, points, tricks, tens) -> int:
        nodes[0] += 1
        seat = (leader + len(trick)) % k.nseats
        maximize = k.teams[seat] == max_team
        values = [child(hands, leader, trick, points, tricks, tens, seat, c)
                  for c in _legal(k, hands[seat], trick)]
        return max(values) if maximize else min(values)

    def child(hands, leader, trick, points, tricks, tens, seat, card) -> int:
        left = list(hands)
        left[seat] &= ~(1 << card)
        hs = tuple(left)
        t = trick + (card,)
        if len(t) == k.nseats:
            return finish(hs, leader, t, points, tricks, tens)
        return rec(hs, leader, t, points, tricks, tens)

    points = dict(zip(teams, pos.points, strict=True))
    tricks = dict(zip(teams, pos.tricks, strict=True))
    tens = dict(zip(teams, pos.tens, strict=True))
    seat = pos.seat_to_play
    nodes[0] += 1
    values = {c: child(pos.hands, pos.leader, tuple(pos.trick), points, tricks, tens, seat, c)
              for c in _legal(k, pos.hands[seat], pos.trick)}
    maximize = k.teams[seat] == max_team
    value = max(values.values()) if maximize else min(values.values())
    return value, values, nodes[0]


def maxn_prefers(mover: int, root: int, a: tuple, b: tuple) -> bool:
    """The max^n tie rule (csrc/dd/ddmaxn.pxd ``maxn_better``): whether
    ``mover`` prefers the final scores ``a`` to ``b``: its own score, then
    the lower score for ``root`` (the seat asked: ties go against it), then
    the lower for each other seat in the order of play after the mover."""
    if a[mover] != b[mover]:
        return a[mover] > b[mover]
    if mover != root and a[root] != b[root]:
        return a[root] < b[root]
    n = len(a)
    for i in range(1, n):
        j = (mover + i) % n
        if j != root and a[j] != b[j]:
            return a[j] < b[j]
    return False


def solve_maxn_oracle(pos, root: int):
    """The max^n value (each seat plays for its own score, ties by
    ``maxn_prefers``) of every legal card of the seat to play in ``pos``,
    a contract of individual seats: ``{card: final scores by seat}`` (what
    is already won included) and the nodes.  Plain backward induction, no
    table."""
    k = pos.contract
    nodes = [0]

    def finish(hands, leader, trick, points):
        off = _winner_offset(k, trick)
        seat = (leader + off) % k.nseats
        points = list(points)
        for c in trick:
            for t, g in k.gains(c, k.teams[seat]).items():
                points[t] += g
        points[seat] += k.trick_points
        if not any(hands):
            points[seat] += k.last_points
            return tuple(points)
        return rec(hands, seat, (), points)

    def rec(hands, leader, trick, points):
        nodes[0] += 1
        seat = (leader + len(trick)) % k.nseats
        best = None
        for c in _legal(k, hands[seat], trick):
            v = child(hands, leader, trick, points, seat, c)
            if best is None or maxn_prefers(seat, root, v, best):
                best = v
        return best

    def child(hands, leader, trick, points, seat, card):
        left = list(hands)
        left[seat] &= ~(1 << card)
        t = trick + (card,)
        if len(t) == k.nseats:
            return finish(tuple(left), leader, t, points)
        return rec(tuple(left), leader, t, points)

    seat = pos.seat_to_play
    nodes[0] += 1
    values = {c: child(pos.hands, pos.leader, tuple(pos.trick), tuple(pos.points), seat, c)
              for c in _legal(k, pos.hands[seat], pos.trick)}
    return values, nodes[0]
