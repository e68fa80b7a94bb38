"""Heroes: packages and lords in rulesets, hero selection (seed 000 §2-3), hero results,
and the `sgs heroes`, `sgs explain` and `sgs simulate --skill-stats` commands.

Most tests use made-up heroes: tests/data/mini_heroes.sgs (three heroes with skills) and a
generated package of 25 skill-less heroes. The tests marked "standard" read the built-in
heroes/standard.sgs and compare it with tests/data/heroes_standard.tsv (a copy of
shared/data/heroes_standard.tsv)."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.agents.random_agent import RandomAgent
from sgs_dsl.agents.scripted import ScriptedAgent
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.game import play_game, setup
from sgs_dsl.sim.batch import run_batch
from sgs_dsl.sim.stats import summarize

HERE = Path(__file__).resolve().parent
MINI = HERE / "data" / "mini_heroes.sgs"
STANDARD_TSV = HERE / "data" / "heroes_standard.tsv"  # a copy of shared/data/heroes_standard.tsv
CROWD_LORDS = ("將01", "將02", "將03")


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def crowd_file(tmp_path_factory) -> Path:
    """25 skill-less heroes in the package 'crowd', three of them lords (hp 3, 4, 5 in turn)."""
    folder = tmp_path_factory.mktemp("crowd")
    lines = [f"hero 將{i:02d} jiang{i:02d} {{ kingdom 群; gender {'female' if i % 2 else 'male'}; hp {3 + i % 3}; }}"
             for i in range(1, 26)]
    lines.append('ruleset crowd "25位假武將" {\n  mode identity;\n  decks standard, ex;\n  heroes crowd;\n'
                 f"  lords {', '.join(CROWD_LORDS)};\n}}")
    path = folder / "crowd.sgs"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def crowd(crowd_file):
    return load_library([crowd_file])


class Recorder:
    """Answers like a random agent and keeps every question with what the seat could see."""

    def __init__(self, seed: int):
        self.inner = RandomAgent(seed)
        self.asked: list = []
        self.seen: list = []

    def choose(self, request, view):
        self.asked.append(request)
        self.seen.append([(p.seat, p.name) for p in view.players()])
        return self.inner.choose(request, view)


def recorded_setup(library, ruleset: str, players: int, seed: int):
    agents = [Recorder(seed * 100 + i) for i in range(players)]
    game = setup(library, ruleset, players, seed, agents, log=True)
    return game, agents


def hero_questions(agent):
    return [r for r in agent.asked if r.kind == "hero"]


# --- the library: packages and lords ---------------------------------------------------------


def test_a_hero_belongs_to_the_package_of_its_file(crowd):
    assert crowd.heroes["將01"].package == "crowd"
    lib = load_library([MINI])
    assert {h.package for h in lib.heroes.values() if h.name.startswith("測")} == {"mini_heroes"}
    r = lib.rulesets["mini"]
    assert r.heroes == ("mini_heroes",) and r.lords == ("測主公",)


def test_lords_may_be_named_by_id(tmp_path):
    path = tmp_path / "mine.sgs"
    path.write_text("hero 測將甲 cejianga { hp 4; }\nruleset mine { decks standard; heroes mine; lords cejianga; }\n",
                    encoding="utf-8")
    assert load_library([path]).rulesets["mine"].lords == ("測將甲",)


HEROES = "hero 測將甲 cejianga { hp 4; }\nhero 測將乙 cejiangb { hp 3; }\n"
BAD_RULESETS = [
    ("unknown hero package",
     "ruleset mine {\n  decks standard;\n  heroes mien;\n}\n",
     5, 10, "unknown hero package 'mien'", "did you mean 'mine'?"),
    ("unknown lord hero",
     "ruleset mine {\n  decks standard;\n  heroes mine;\n  lords 測將丙;\n}\n",
     6, 9, "unknown lord hero '測將丙'", "did you mean '測將"),
    ("lords without hero packages",
     "ruleset mine {\n  decks standard;\n  lords 測將甲;\n}\n",
     5, 3, "'lords' needs hero packages", "heroes standard;"),
    ("a lord twice",
     "ruleset mine {\n  decks standard;\n  heroes mine;\n  lords 測將甲, cejianga;\n}\n",
     6, 14, "lord hero '測將甲' is named twice", ""),
    ("misspelt lords property",
     "ruleset mine {\n  decks standard;\n  heroes mine;\n  lord 測將甲;\n}\n",
     6, 3, "unknown ruleset property 'lord'", "did you mean 'lords'?"),
]


@pytest.mark.parametrize(("text", "line", "column", "message", "hint"),
                         [case[1:] for case in BAD_RULESETS], ids=[case[0] for case in BAD_RULESETS])
def test_bad_hero_packages_and_lords_are_located(tmp_path, text, line, column, message, hint):
    path = tmp_path / "mine.sgs"
    path.write_text(HEROES + text, encoding="utf-8")
    diagnostics = check_paths([path])
    assert len(diagnostics) == 1, [d.render() for d in diagnostics]
    d = diagnostics[0]
    assert (Path(d.span.file).name, d.span.line, d.span.column) == ("mine.sgs", line, column), d.render()
    assert message in d.message
    assert hint in d.hint
    assert d.render().startswith(f"{d.span}: error: ")


def test_a_lord_from_another_package_is_an_error(tmp_path):
    (tmp_path / "other.sgs").write_text("hero 測將丁 cejiangd { hp 4; }\n", encoding="utf-8")
    path = tmp_path / "mine.sgs"
    path.write_text(HEROES + "ruleset mine { decks standard; heroes mine; lords 測將丁; }\n", encoding="utf-8")
    diagnostics = check_paths([tmp_path])
    assert [d.message for d in diagnostics] == ["lord hero '測將丁' is not in the ruleset's hero packages"]
    assert "package 'other'" in diagnostics[0].hint


# --- hero selection ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 5, 8, 9])
def test_the_lord_chooses_from_the_lords_and_two_others(crowd, players):
    for seed in range(12):
        game, agents = recorded_setup(crowd, "crowd", players, seed)
        (lord_q,) = hero_questions(agents[0])
        assert lord_q.seat == 0 and len(lord_q.options) == 5
        labels = lord_q.labels()
        assert tuple(labels[:3]) == CROWD_LORDS
        assert len(set(labels)) == 5 and not set(labels[3:]) & set(CROWD_LORDS)
        assert game.players[0].role == "lord" and game.players[0].name in labels


@pytest.mark.parametrize(("players", "dealt"), [(2, 3), (5, 3), (8, 3), (9, 3), (10, 2)])
def test_every_other_seat_chooses_from_three_heroes_two_at_ten(crowd, players, dealt):
    for seed in range(12):
        game, agents = recorded_setup(crowd, "crowd", players, seed)
        lord_hero = game.players[0].name
        offered: list[str] = []
        for seat in range(1, players):
            (q,) = hero_questions(agents[seat])
            assert q.seat == seat and len(q.options) == dealt
            assert game.players[seat].name in q.labels()
            offered += q.labels()
        assert len(offered) == len(set(offered)), "a hero was dealt twice"
        assert lord_hero not in offered
        names = [p.name for p in game.players]
        assert len(set(names)) == players


def test_nine_players_share_out_every_hero(crowd):
    """1 + 8 x 3 = 25: at nine players every hero but the unchosen lord options is dealt."""
    game, agents = recorded_setup(crowd, "crowd", 9, 4)
    offered = {label for a in agents[1:] for q in hero_questions(a) for label in q.labels()}
    assert len(offered) == 24 and offered | {game.players[0].name} == set(crowd.heroes) & {
        h.name for h in crowd.heroes.values() if h.package == "crowd"}


def test_heroes_set_name_gender_kingdom_hp_and_skills():
    lib = load_library([MINI])
    for seed in range(6):
        game = setup(lib, "mini", 3, seed)
        for p in game.players:
            hero = lib.heroes[p.name]
            assert (p.gender, p.kingdom, p.skills) == (hero.gender, hero.kingdom, hero.skills)
            assert p.hp == p.max_hp == hero.hp  # 3 players: no lord bonus


def test_the_lord_gets_one_more_hp_from_five_players(crowd):
    for lord_hero, hp in (("將01", 4), ("將02", 5), ("將03", 3)):
        for players, bonus in ((4, 0), (5, 1), (8, 1)):
            agents = [ScriptedAgent([lord_hero])] + [RandomAgent(i) for i in range(1, players)]
            game = setup(crowd, "crowd", players, 7, agents)
            lord = game.players[0]
            assert lord.name == lord_hero and lord.max_hp == lord.hp == hp + bonus
            for p in game.players[1:]:
                assert p.max_hp == p.hp == crowd.heroes[p.name].hp


def test_choices_are_made_by_the_agents_and_can_be_scripted(crowd):
    first = setup(crowd, "crowd", 4, 11, [RandomAgent(i) for i in range(4)])
    options = [p.name for p in first.players]  # the same seed deals the same heroes
    script = [ScriptedAgent(["將02"])] + [ScriptedAgent() for _ in range(3)]
    game, agents = recorded_setup(crowd, "crowd", 4, 11)
    for seat in range(1, 4):
        script[seat].answers.append(hero_questions(agents[seat])[0].labels()[-1])
    scripted = setup(crowd, "crowd", 4, 11, script)
    assert scripted.players[0].name == "將02"
    for seat in range(1, 4):
        assert scripted.players[seat].name == hero_questions(agents[seat])[0].labels()[-1]
        assert [r.kind for r in script[seat].asked] == ["hero"] and not script[seat].unused()
    assert options[0] in hero_questions(agents[0])[0].labels()


def test_the_others_choose_in_secret_after_the_lord_shows_the_choice(crowd):
    game, agents = recorded_setup(crowd, "crowd", 6, 3)
    for seat in range(1, 6):
        seen = dict(agents[seat].seen[0])
        assert seen[0] == game.players[0].name  # the lord's hero is shown at once
        assert all(seen[s] == "" for s in range(1, 6))  # nobody else's choice is seen yet


def test_selection_is_deterministic_by_seed(crowd):
    def picks(seed):
        game = setup(crowd, "crowd", 8, seed, log=True)
        return [p.name for p in game.players], list(game.lines)

    assert picks(5) == picks(5)
    assert len({tuple(picks(seed)[0]) for seed in range(8)}) > 1
    assert play_game(crowd, "crowd", 5, 9, log=True).log == play_game(crowd, "crowd", 5, 9, log=True).log


def test_the_log_shows_the_choices(crowd):
    game = setup(crowd, "crowd", 4, 2, log=True)
    lord = game.players[0]
    assert game.lines[0].startswith(f"1號位主公選擇了{lord.name}（候選：將01、將02、將03、")
    assert any(line.startswith(f"2號位選擇了{game.players[1].name}（候選：") for line in game.lines)
    assert f"主公是1號位{lord.name}" in "\n".join(game.lines)


def test_a_ruleset_without_heroes_seats_blank_heroes(crowd):
    game = setup(crowd, "basic", 5, 3)
    assert all(p.name.startswith("無將") and not p.skills and p.kingdom == "" for p in game.players)
    assert play_game(crowd, "basic", 5, 3).heroes == ()


# --- results and statistics --------------------------------------------------------------------


def test_game_results_name_the_hero_of_every_seat(crowd):
    result = play_game(crowd, "crowd", 5, 21)
    assert len(result.heroes) == 5 and len(set(result.heroes)) == 5
    assert all(h in crowd.heroes for h in result.heroes)


def test_a_batch_reports_wins_by_hero(crowd):
    batch = run_batch("crowd", 5, 6, 1, library=crowd)
    report = summarize(batch.records, ruleset="crowd", players=5, seed=1, max_turns=600, elapsed_s=1.0)
    by_hero = report["wins_by_hero"]
    assert sum(row["games"] for row in by_hero.values()) == 5 * report["valid_games"]
    assert set(by_hero) <= set(crowd.heroes)


def test_simulate_skill_stats(tmp_path):
    out = tmp_path / "out.json"
    result = invoke("simulate", "-q", "-L", str(MINI), "-r", "mini", "-p", "3", "-g", "6", "--skill-stats",
                    "--json", str(out))
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    stats = report["skill_stats"]
    assert set(stats["skills"]) == {"測試摸牌", "測試主技", "測試距離"}
    fired = report.get("fired", {})
    for name, row in stats["skills"].items():
        assert row["fired"] == fired.get(name, 0) and 0 <= row["games"] <= min(6, row["fired"])
    assert stats["never_fired"] == [n for n in ("測試摸牌", "測試主技", "測試距離") if not stats["skills"][n]["fired"]]
    assert "skills fired (times, games):" in result.output and "never fired:" in result.output
    plain = invoke("simulate", "-q", "-L", str(MINI), "-r", "mini", "-p", "3", "-g", "2", "--json", "-")
    assert "skill_stats" not in json.loads(plain.stdout)


# --- sgs heroes ----------------------------------------------------------------------------------


def test_heroes_lists_a_rulesets_heroes():
    result = invoke("heroes", "-L", str(MINI), "--ruleset", "mini", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["name"] for r in rows] == ["測主公", "測女將", "測白板"]
    assert rows[0] == {
        "name": "測主公", "key": "測主公", "id": "cezhugong", "kingdom": "wei", "gender": "male", "hp": 4,
        "package": "mini_heroes", "lord_candidate": True,
        "skills": [{"name": "測試摸牌", "key": "測試摸牌", "id": "ceshi_mopai", "tags": []},
                   {"name": "測試主技", "key": "測試主技", "id": "ceshi_zhuji", "tags": ["lord"]}],
    }
    text = invoke("heroes", "-L", str(MINI), "-r", "mini").output
    assert "測主公*" in text and "測試主技[主公技]" in text and "測試距離[鎖定技]" in text
    assert "3 heroes in ruleset mini" in text


def test_heroes_without_a_ruleset_lists_the_whole_library():
    rows = json.loads(invoke("heroes", "-L", str(MINI), "--json").stdout)
    assert {"測主公", "測女將", "測白板"} <= {r["name"] for r in rows}


def test_heroes_with_an_unknown_ruleset():
    result = invoke("heroes", "-L", str(MINI), "--ruleset", "minni")
    assert result.exit_code == 2 and "did you mean 'mini'?" in result.output


# --- sgs explain ---------------------------------------------------------------------------------


def test_explain_a_skill_by_name_or_id():
    result = invoke("explain", "-L", str(MINI), "測試摸牌")
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.startswith("技能 測試摸牌 (ceshi_mopai)\n")
    assert "mini_heroes.sgs:3\n" in text
    assert "tags: none" in text and "heroes: 測主公" in text
    assert "text: 當你受到傷害後，你可以摸一張牌。" in text
    assert "  damaged 受到傷害後 (optional, when ...)  at " in text and "mini_heroes.sgs:4" in text
    assert "modifiers: none" in text and "view-as: none" in text
    for other in ("ceshi_mopai", "CESHI_MOPAI"):
        assert invoke("explain", "-L", str(MINI), other).output == text


def test_explain_tags_and_modifiers():
    text = invoke("explain", "-L", str(MINI), "ceshi_zhuji").output
    assert "tags: lord (主公技)" in text and "windows: none" in text
    assert "  hand_limit +=  `modify hand_limit += 1;` at " in text
    info = json.loads(invoke("explain", "-L", str(MINI), "測試距離", "--json").stdout)
    assert info["tags"] == ["locked"] and info["source"].endswith("mini_heroes.sgs:11")
    assert info["modifiers"][0]["name"] == "distance_from" and info["modifiers"][0]["op"] == "-="


def test_explain_a_card():
    info = json.loads(invoke("explain", "sha", "--json").stdout)
    assert info["kind"] == "card" and info["name"] == "殺" and info["type"] == "basic"
    assert "cards/standard.sgs:" in info["source"] and info["text"]
    text = invoke("explain", "八卦陣").output
    assert text.startswith("卡牌 八卦陣 (") and "type: armor" in text
    assert "windows:\n  asked " in text  # the armour's skill listens on 需要使用或打出時


def test_explain_a_hero():
    text = invoke("explain", "-L", str(MINI), "cenvjiang").output
    assert text.startswith("武將 測女將 (cenvjiang)")
    assert "kingdom: 吳 (wu), gender: female, hp: 3, package: mini_heroes" in text
    assert "skills: 測試距離[鎖定技]" in text


def test_explain_an_unknown_name():
    result = invoke("explain", "-L", str(MINI), "測試莫牌")
    assert result.exit_code == 2
    assert "no skill, card or hero named '測試莫牌'; did you mean '測試摸牌'?" in result.output
    assert invoke("explain", "zzzzzz").exit_code == 2


# --- the Standard heroes (heroes/standard.sgs) -------------------------------------------------------


def standard_rows() -> list[dict[str, str]]:
    with open(STANDARD_TSV, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_standard_is_the_default_ruleset():
    lib = load_library()
    assert lib.default_ruleset == "standard"
    r = lib.rulesets["standard"]
    assert r.decks == ("standard", "ex") and r.heroes == ("standard",) and r.lords == ("曹操", "劉備", "孫權")


def test_heroes_standard_json_matches_the_data_file():
    result = invoke("heroes", "--ruleset", "standard", "--json")
    assert result.exit_code == 0, result.output
    got = {r["id"]: r for r in json.loads(result.stdout)}
    want = standard_rows()
    assert len(got) == 25 and set(got) == {w["id"] for w in want}
    for w in want:
        hero = got[w["id"]]
        assert hero["name"] == w["name_zh_hant"], w["id"]
        assert (hero["kingdom"], hero["gender"], hero["hp"]) == (w["kingdom"], w["gender"], int(w["hp"])), w["id"]
        assert hero["lord_candidate"] == (w["lord_candidate"] == "yes"), w["id"]
        skills = [s.split("[")[0] for s in w["skills"].split(";")]
        assert [s["id"] for s in hero["skills"]] == skills, w["id"]
        for spec, skill in zip(w["skills"].split(";"), hero["skills"], strict=True):
            for tag in spec.replace("]", "").split("[")[1:]:
                if not tag.endswith("?"):  # the data file is unsure of some tags
                    assert tag in skill["tags"], (w["id"], skill["id"], tag)


def test_standard_selection_offers_the_three_lords():
    lib = load_library()
    for players in (5, 9, 10):
        game, agents = recorded_setup(lib, "standard", players, 1)
        labels = hero_questions(agents[0])[0].labels()
        assert labels[:3] == ["曹操", "劉備", "孫權"] and len(labels) == 5
        counts = Counter(len(q.options) for a in agents[1:] for q in hero_questions(a))
        assert counts == Counter({2 if players == 10 else 3: players - 1})


def test_explain_a_standard_skill_in_either_script():
    result = invoke("explain", "jianxiong")
    assert result.exit_code == 0, result.output
    assert "heroes: 曹操" in result.output and "heroes/standard.sgs:" in result.output
    traditional = invoke("explain", "反饋")
    assert traditional.exit_code == 0 and traditional.output.startswith("技能 反饋 (fankui)")
    assert invoke("explain", "反馈").output == traditional.output
