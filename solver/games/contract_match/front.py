"""What the front ends need of a contract match (trix, tricks): the French
deck, the contracts in words, the contracts' panel on the board, the
layout's rows, and each finished deal's contract, chooser, totals, tricks
and finishing order (``solver/front.py`` says what a front declares)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...front import (
    N_,
    BoardView,
    FactView,
    FrenchFront,
    Words,
    panel,
    seat_row,
    text_row,
    tricks_won_notes,
)
from ...said import Said, Word, phrase
from .layout import parse_text

# a position's facts (``ContractFront.deal_facts``): the contract in play,
# the contracts played before it
CONTRACT_BY = phrase("fact.contract_by", N_("Contract: {contract}, chosen by {name}"))
CONTRACT = phrase("fact.contract", N_("Contract: {contract}"))
#: each game words it for its rounds (``ContractFront.played_contracts``)
PLAYED = phrase("fact.played", N_("Contracts already played in this round: {contracts}"))


class ContractFront(FrenchFront):
    """A match of contracts chosen in turn."""

    contracts: ClassVar[dict[str, str]] = {
        "kinghearts": N_("King of Hearts"), "queens": N_("Queens"),
        "diamonds": N_("Diamonds"), "ltoosh": N_("Ltoosh"), "trix": N_("Trix"),
        "tricks": N_("Tricks"), "jacks": N_("Jacks")}
    # one state machine for both games: trix doubles ("reveal"), tricks
    # claims a redeal; each game reaches only its own
    actions: ClassVar[dict[str, str]] = {
        "contract": N_("Choose {contract}"), "reveal done": N_("No more doubles"),
        "reveal": N_("Double the {card}"), "redeal": N_("Ask for a redeal"),
        "no redeal": N_("Keep this hand (no redeal)")}
    setup_hands: ClassVar[str | None] = "deals[0]"
    #: the fact listing the contracts played before the one in play, in the
    #: game's words for its rounds (trix's kingdoms, tricks' sets)
    played_contracts: ClassVar[str] = PLAYED.template
    # trix and tricks count alike: points a deal, summed over the match
    round_unit = N_("points this deal")
    totals_unit = N_("points so far")
    result_unit = N_("final points")

    def contract_list(self) -> tuple[str, ...]:
        return tuple(self.game.contract_names)

    def phrase(self, code: str) -> str | None:
        return self.played_contracts if code == PLAYED.code else None

    def deal_facts(self, facts: FactView) -> list[Said]:
        """The contract in play in words (its title, which the game gives
        as a message id beside its name) and who chose it; the contracts
        played before it in this round (``used`` holds the one in play
        from the moment it is chosen)."""
        known, lines = facts.known, []
        current = str(known.get("contract_title") or known.get("contract") or "")
        if known.get("contract") not in (None, ""):
            by = known.get("chooser")
            if by is not None:
                lines.append(CONTRACT_BY(contract=Word(current), name=facts.who(by)))
            else:
                lines.append(CONTRACT(contract=Word(current)))
        used = known.get("used_titles") or known.get("used") or ()
        played = [Word(c) for c in used if c != current]
        if played:
            lines.append(PLAYED(contracts=played))
        return lines

    def panels(self, view: BoardView, words: Words) -> list[dict[str, Any]]:
        known, out = view.known, []
        if "used" in known:
            used = list(known.get("used") or [])
            contract, chooser = known.get("contract"), known.get("chooser")
            played = [self.contract(c, words) for c in used if c != contract]
            still = [self.contract(c, words) for c in self.contract_list() if c not in used]
            # the heading in the game's words (its rounds: kingdoms, sets)
            title = (words(self.contracts_title,
                           name=view.names[chooser] if isinstance(chooser, int) else "")
                     if self.contracts_title else None)
            comma = words(N_(", "))
            out.append(panel("contracts", title, [
                text_row(words(N_("Played:")) + " " + (comma.join(played) or words(N_("none yet")))),
                text_row(words(N_("Still to play:")) + " " + (comma.join(still) or words(N_("none"))))]))
        doubled = known.get("revealed")
        if doubled:
            out.append(panel("doubled", words(N_("Doubled")), [text_row(words(N_(", ")).join(
                f"{self.card(c, words)['name']} ({view.names[s]})"
                for c, s in doubled.items()))]))
        return out

    def contract_in_play(self, known: Mapping[str, Any]) -> str | None:
        """The ``contract`` fact, once one is chosen."""
        return str(known["contract"]) if known.get("contract") else None

    def notes(self, view: BoardView, words: Words) -> list[str]:
        contract = self.contract_in_play(view.known)
        if not contract:
            return []
        return [words(N_("Contract: {name}"), name=self.contract(contract, words))]

    def seat_notes(self, view: BoardView, words: Words) -> list[str]:
        return tricks_won_notes(view, words)

    def panel_cards(self, known: Mapping[str, Any]) -> set[str]:
        return set(known.get("revealed") or ())

    def layout_rows(self, text: str) -> dict[str, list[str]]:
        """The Trix / Jacks layout (``Layout.text``: ``"S:9S..AS H:JH D:-
        C:TC..AC"``) as each suit's cards from low to high."""
        return parse_text(text)

    def summary_words(self, entry: Mapping[str, Any], view: BoardView,
                      words: Words) -> dict[str, Any]:
        rows = []
        if entry.get("tricks") is not None:
            rows.append(seat_row("tricks", words(N_("Tricks taken")), entry["tricks"],
                                 words(N_("tricks"))))
        return {"heading": entry.get("contract_label"), "rows": rows, "lines": []}

    def deal_summaries(self, state: Any, words: Words) -> list[dict[str, Any]]:
        names = self.game.contract_names
        logs = [log for log in state.deal_logs if log.scores is not None]
        out = []
        for row, log in zip(state.rows, logs, strict=True):
            name = names[row["contract"]]
            entry = {"contract": name, "contract_label": self.contract(name, words),
                     "chooser": row["chooser"], "totals": list(row["totals"])}
            play = log.play
            if getattr(play, "tricks_won", None) is not None:   # a trick contract's
                entry["tricks"] = list(play.tricks_won)
            if getattr(play, "finish", None):                   # the layout's order out
                entry["out"] = list(play.finish)
            out.append(entry)
        return out


__all__ = ["ContractFront"]
