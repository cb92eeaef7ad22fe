"""``dixtrix serve``'s flags are made from the settings dataclass
(``bots/server/settings.py``): every field with help text is a flag in
its type with its default, so a new setting needs no flag written by hand."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from bots.cli import build_parser
from bots.server.settings import Settings, add_flags, from_flags, setting


def _serve(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["serve", *argv])


def test_every_setting_is_a_flag_with_its_default(capsys):
    assert all("help" in f.metadata for f in dataclasses.fields(Settings))
    assert from_flags(_serve()) == Settings()
    with pytest.raises(SystemExit):
        _serve("--help")
    help_text = capsys.readouterr().out
    for f in dataclasses.fields(Settings):
        assert "--" + f.name.replace("_", "-") in help_text, f.name


def test_each_flag_sets_its_field_in_its_type():
    args = _serve("--max-time", "3", "--max-iterations", "400", "--db", ":memory:",
                  "--bot-seconds", "0.5", "--header-timeout", "2", "--threads", "1")
    got = from_flags(args)
    assert got == dataclasses.replace(Settings(), max_time=3.0, max_iterations=400,
                                      db=":memory:", bot_seconds=0.5, header_timeout=2.0,
                                      threads=1)
    assert isinstance(got.max_time, float) and isinstance(got.max_iterations, int)
    with pytest.raises(SystemExit):             # argparse: not an integer
        _serve("--workers", "two")


@dataclasses.dataclass(frozen=True)
class _More:
    """A settings class with the kinds of field a later setting may have."""

    db: str | None = setting(None, "where the tables are kept")
    log_format: str = setting("text", "how the log is written", choices=("text", "json"))
    quiet: bool = setting(False, "say nothing")
    ratio: float = setting(0.5, "a share")
    internal: int = 3                                # no help text: no flag


def _more(*argv: str) -> _More:
    parser = argparse.ArgumentParser()
    add_flags(parser, _More)
    return from_flags(parser.parse_args(list(argv)), _More)


def test_a_new_field_with_help_text_is_a_flag_by_itself():
    assert _more() == _More()
    assert _more("--db", "postgresql://x/y", "--log-format", "json", "--quiet",
                 "--ratio", "1") == _More("postgresql://x/y", "json", True, 1.0)
    assert _more("--no-quiet").quiet is False
    with pytest.raises(SystemExit):             # not one of the choices
        _more("--log-format", "xml")
    with pytest.raises(SystemExit):             # a field without help text has no flag
        _more("--internal", "4")


def test_a_field_no_flag_can_read_is_refused_when_the_parser_is_made():
    @dataclasses.dataclass(frozen=True)
    class Bad:
        pairs: list[int] = setting((), "a list")

    with pytest.raises(TypeError, match="pairs"):
        add_flags(argparse.ArgumentParser(), Bad)
