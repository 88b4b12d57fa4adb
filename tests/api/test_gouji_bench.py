"""The gouji bench line (service/games/gouji.py): free-lead generation over a fixed sample of
36-card hands, compiled and interpreted."""
from referee.core import speedups
from referee.service.games import gouji


def test_gouji_bench_sample_is_fixed_and_holds_36_cards():
    a, b = gouji.sample_hands(20), gouji.sample_hands(20)
    assert a == b
    hot = speedups.interpreted("games.gouji.hot")
    assert all(sum(hot.rank_count(lo, hi, r) for r in range(15)) == 36 for lo, hi in a)


def test_gouji_bench_reports_both_twins_and_the_play_counts():
    report = gouji.core_ratio(seconds=0.02, hands=10)
    assert report["interpreted_us"] > 0 and report["compiled_us"] > 0
    assert report["compiled_loaded"] is (speedups.load("games.gouji.hot") is not speedups.interpreted("games.gouji.hot"))
    assert 0 < report["plays_median"] <= report["plays_max"]
    rows, extra = gouji.bench(0.02)
    assert rows[0][0].startswith("gouji free leads") and "gouji" in extra


def test_gouji_rule_10_1_a_free_lead_can_have_over_a_thousand_plays():
    hot = speedups.load("games.gouji.hot")
    assert max(len(hot.free_leads(*hand)) for hand in gouji.sample_hands(200)) > 1000


def test_gouji_check_command_echoes_the_id(monkeypatch, capsys):
    import argparse
    import io
    import json

    monkeypatch.setattr("sys.stdin", io.StringIO(
        '{"id": 7, "play": "RJ RJ TH TS TD", "table": "BJ BJ 9H 9S 9D", "options": {}}\nnot json\n'))
    sub = argparse.ArgumentParser().add_subparsers()
    gouji.add_commands(sub)
    assert gouji.cmd_check(argparse.Namespace(jsonl=True, line="")) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert json.loads(first) == {"id": 7, "legal": True, "beats": True, "gouji": True}
    assert list(json.loads(second)) == ["error"]
