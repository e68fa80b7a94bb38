"""Output in either script (`--script hans|hant`, SGS_SCRIPT): a seeded game printed in both
scripts is one game, line for line; what is printed in Simplified reads back as the same
names; source text is never converted."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.scripts import ScriptStream, to_script
from sgs_dsl.syntax.names import normalize


def _run(*args: str, env: dict[str, str] | None = None) -> str:
    """A command's output, which must succeed."""
    done = CliRunner().invoke(main, list(args), env=env)
    assert done.exit_code == 0, done.output[-800:]
    return done.output


def test_a_seeded_game_in_both_scripts_is_one_game_line_for_line():
    hant = _run("run", "-p", "5", "--seed", "9").splitlines()
    hans = _run("--script", "hans", "run", "-p", "5", "--seed", "9").splitlines()
    assert len(hant) == len(hans) > 50
    assert [to_script(line, "hans") for line in hant] == hans
    assert hant != hans and any("号位" in line for line in hans) and not any("號位" in line for line in hans)
    assert all(to_script(line, "hans") == line for line in hans)  # nothing Traditional is left
    assert [normalize(line) for line in hans] == [normalize(to_script(line, "hans")) for line in hant]


def test_the_environment_variable_chooses_the_script_and_the_option_wins():
    assert "选择了" in _run("run", "--seed", "2", env={"SGS_SCRIPT": "hans"})
    assert "選擇了" in _run("--script", "hant", "run", "--seed", "2", env={"SGS_SCRIPT": "hans"})


def test_explain_traces_and_reports_follow_the_script():
    assert "当你受到伤害后" in _run("--script", "hans", "explain", "奸雄")
    assert "刘备" in _run("--script", "hans", "heroes", "-r", "standard")
    trace = _run("--script", "hans", "ruling", "tests/rulings/basic_cards.ruling", "--name", "殺被閃抵消")
    assert "杀被闪抵消" in trace and "PASS" in trace


def test_every_name_printed_in_simplified_reads_back_as_itself():
    library = load_library()
    names = ({c.name for c in library.cards.values()} | {s.name for s in library.skills.values()}
             | {h.name for h in library.heroes.values()} | {g.name for g in library.generals.values()})
    unread = [n for n in sorted(names) if normalize(to_script(n, "hans")) != normalize(n)]
    assert not unread, f"add their characters to grammar/hant_hans.txt: {unread}"


def test_source_text_keeps_its_script(tmp_path):
    source = tmp_path / "a.sgs"
    source.write_text('skill 測試 ceshi "當你受到傷害後，你摸一張牌。" {\n  on damaged when damage.target == you {\n'
                      "    draw(you, 1);\n  }\n}\n", encoding="utf-8")
    formatted = _run("--script", "hans", "fmt", "-", "--stdin-filename", "a.sgs")  # nothing on stdin: empty
    assert "测试" not in formatted
    printed = CliRunner().invoke(main, ["--script", "hans", "fmt", "-"], input=source.read_text(encoding="utf-8"))
    assert "當你受到傷害後" in printed.output


def test_the_terminal_of_sgs_play_follows_the_script():
    class Sink:
        text = ""

        def write(self, text: str) -> int:
            Sink.text += text
            return len(text)

        def flush(self) -> None:
            pass

    stream = ScriptStream(Sink(), "hans")  # type: ignore[arg-type]
    stream.write("選擇武將")
    assert Sink.text == "选择武将"
    played = CliRunner().invoke(main, ["--script", "hans", "play", "-p", "4", "--seed", "2", "--agents", "random"],
                                input="1\n" * 3000)
    assert played.exit_code == 0 and "your choice" in played.output and "选择" in played.output
    assert "選擇" not in played.output


@pytest.mark.parametrize("bad", ["hanz", "zh"])
def test_an_unknown_script_is_a_usage_error(bad):
    done = CliRunner().invoke(main, ["--script", bad, "run"])
    assert done.exit_code == 2 and "hant" in done.output


def test_a_balance_report_is_drawn_in_the_script_its_data_keeps_the_librarys(tmp_path):
    out = tmp_path / "report"
    _run("--script", "hans", "balance", "-g", "6", "-p", "4", "--agents", "random", "--out", str(out), "-q")
    page = (out / "index.html").read_text(encoding="utf-8")
    data = (out / "summary.json").read_text(encoding="utf-8")
    assert "刘备" in page or "孙权" in page or "曹操" in page
    assert "劉備" not in page and "孫權" not in page
    assert "劉備" in data or "孫權" in data  # the data files stay in the library's script
