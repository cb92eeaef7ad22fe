"""docs/facts.md from the declarations: ``python -m solver.games.facts_page >
docs/facts.md`` (solver/facts.py writes the page; the registry of games,
which sits above it, is read here)."""

from __future__ import annotations

from ..facts import facts_markdown
from ..game import load_game, registered_games


def main() -> None:
    print(facts_markdown({n: load_game(n) for n in registered_games()}), end="")


if __name__ == "__main__":
    main()
