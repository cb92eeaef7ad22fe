"""The bot levels (bots/levels.py): every level of every game makes a fair
bot from a settings string, a level takes no settings of its own, and the
documented table (docs/levels.md) names each level's settings as the code
does."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from bots import levels, make_bot
from bots.registry import _BOTS
from solver.errors import OptionError


@pytest.mark.parametrize("game", solver.registered_games())
def test_every_level_of_every_game_is_a_fair_bot(game):
    g = solver.load_game(game)
    state = g.new_initial_state(seed=1)
    for level in levels.LEVELS:
        spec = levels.level_settings(level, g)
        bot = make_bot(level, g, state.current_player(), seed=3)
        assert _BOTS[spec.partition(":")[0]].fair and bot.fair
        same = make_bot(spec, g, state.current_player(), seed=3)
        assert type(bot) is type(same) and getattr(bot, "limit", None) == getattr(same, "limit", None)
        assert bot.step(state.clone()) in state.legal_actions()


def test_a_level_is_a_name_not_a_setting():
    g = solver.load_game("dix")
    with pytest.raises(OptionError, match="takes no settings"):
        make_bot("hard:iterations=5", g, 0)
    with pytest.raises(OptionError, match="unknown level"):
        levels.level_settings("grandmaster", g)
    with pytest.raises(OptionError, match="levels: easy, medium, hard, expert"):
        make_bot("grandmaster", g, 0)
    assert levels.resolve("rules", g) == "rules"
    assert levels.resolve("expert", "dixie-rook").startswith("ismcts:iterations=2500")


def test_the_levels_page_shows_the_settings_the_code_uses():
    page = (Path(__file__).resolve().parents[2] / "docs" / "levels.md").read_text()
    for game, table in levels.table().items():
        for level, spec in table.items():
            assert f"`{spec}`" in page, (game, level, spec)
    assert "bench/levels_ladder.py" in page
