"""The `referee` command: JSONL loops, selfplay, demo, version, and `serve` with SIGTERM and workers."""
import json
import signal
import subprocess
import sys
import time

import grpc
import pytest

from referee.service.credentials import bearer
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

REFEREE = [sys.executable, "-m", "referee.service.cli"]


def run(*args, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(REFEREE + list(args), input=stdin, capture_output=True, text=True,
                          encoding="utf-8", timeout=timeout)


def test_legal_jsonl_answers_every_line():
    lines = ['{"hand": "3334569TTJQKA22BR", "last": "44"}', "not json", '{"hand": "33X", "last": ""}',
             '{"hand": "3345", "last": "35"}', '{"hand": "345"}', '[1]']
    out = run("legal", "--game", "doudizhu", "--jsonl", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0 and len(answers) == len(lines)
    assert answers[0] == {"moves": ["TT", "22", "BR"]}
    assert all("error" in a for a in (answers[1], answers[2], answers[3], answers[5]))
    assert answers[2]["reason"] == "UNKNOWN_CARD"  # a rules error says its reason name
    assert answers[4]["moves"][:3] == ["3", "4", "5"]


def test_a_rules_error_outside_jsonl_exits_2_with_its_reason():
    out = run("legal", "--game", "doudizhu", "--hand", "33X")
    assert out.returncode == 2 and out.stdout == ""
    assert json.loads(out.stderr.strip().splitlines()[-1])["reason"] == "UNKNOWN_CARD"


def test_classify_jsonl():
    out = run("classify", "--game", "doudizhu", "--jsonl", stdin='{"cards": "3S 3H 3D 4C"}\n{"cards": 5}\n')
    first, second = (json.loads(line) for line in out.stdout.splitlines())
    assert first["readings"][0]["kind"] == "trio_single" and first["readings"][0]["ranks"] == "3334"
    assert "error" in second


JSONL_COMMANDS = [  # every --jsonl command: (argv, a good request, a bad one)
    (["legal", "--game", "doudizhu"], {"hand": "3334569TTJQKA22BR", "last": "44"}, {"hand": "33X"}),
    (["legal", "--game", "q783"], {"hand": "QH 7H 8H 3H 2S", "last": "AS"}, {"hand": "QQ"}),
    (["classify", "--game", "doudizhu"], {"cards": "3S 3H 3D 4C"}, {"cards": 5}),
    (["fan"], {"melds": [], "concealed": "W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 W5".split(), "win_tile": "W5"},
     {"concealed": ["W1"], "win_tile": "W1"}),
]


@pytest.mark.parametrize("argv, good, bad", JSONL_COMMANDS, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_jsonl_command_echoes_the_id_of_a_line(argv, good, bad):
    """Issue 24: an answer starts with the id of its request line when it has one (any JSON
    value, errors too), so a caller joins answers to questions; no id, no id echoed."""
    ids = [7, "q-1", None, {"table": 3, "turn": [1, 2]}, 2.5]
    lines = [json.dumps({"id": i, **good}) for i in ids] + [json.dumps(good), json.dumps({**bad, "id": "bad"}),
                                                            "not json", json.dumps([{"id": 1}]), json.dumps({"id": 9})]
    out = run(*argv, "--jsonl", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(lines)
    plain = answers[len(ids)]
    assert "id" not in plain and "error" not in plain  # the good request, without an id
    for i, answer in zip(ids, answers):
        assert answer == {"id": i, **plain} and list(answer)[0] == "id"
    assert answers[len(ids) + 1]["id"] == "bad" and "error" in answers[len(ids) + 1]
    assert "id" not in answers[-3] and "error" in answers[-3]  # no JSON: no id to echo
    assert "id" not in answers[-2] and "error" in answers[-2]  # not an object
    assert answers[-1]["id"] == 9 and "error" in answers[-1]  # an id alone: the command's refusal, with it


def test_jsonl_puts_the_id_first_in_a_dict_or_json_text():
    from referee.service import jsonl

    assert jsonl.with_id({"id": 1}, {"moves": []}) == '{"id":1,"moves":[]}'
    assert jsonl.with_id({"id": "a"}, '{"moves": ["TT"]}') == '{"id":"a","moves": ["TT"]}'  # a core's text as it is
    assert jsonl.with_id({"id": [1]}, "{}") == '{"id":[1]}'
    assert jsonl.with_id({"hand": "3"}, '{"moves": []}') == '{"moves": []}'
    assert jsonl.with_id(None, {"error": "x"}) == '{"error":"x"}'
    assert jsonl.with_id({"id": "牌"}, {}) == '{"id":"牌"}'


def test_jsonl_reads_every_line_as_the_standard_json_does():
    """orjson reads the lines, and the standard ``json`` every line orjson refuses or reads
    otherwise: an id is echoed exactly, whatever JSON it is (an integer beyond 64 bits, NaN, a
    lone surrogate, deep nesting answered as not JSON, never a crash)."""
    from referee.service import jsonl

    for text in ('{"id": 123456789012345678901234567890}', '{"id": -9223372036854775809}',
                 '{"id": 18446744073709551615}', '{"id": 1.5e300}', '{"id": NaN}', '{"id": -Infinity}',
                 '{"id": "\\ud800"}', '{"id": "\\u00e9\\t\\""}', '{"id": 1, "id": 2}', '{"id": 0.1}',
                 '{"id": 1e400}', '{"id": [[], {}, null, true, false, -0, -0.0]}'):
        for line in (text, text.encode("utf-8", "surrogatepass")):
            expected = json.loads(line)
            got = jsonl.loads(line)
            assert json.dumps(got) == json.dumps(expected) and type(got["id"]) is type(expected["id"]), line
    with pytest.raises(ValueError):
        jsonl.loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError):
        jsonl.loads(b"\xff{}")
    for value in (123456789012345678901234567890, "\ud800", "牌\n", 2.5, {"a": [1, None]}):
        line = jsonl.answer_line({"id": value}, {"ok": True})
        assert json.loads(line.decode()) == {"id": value, "ok": True}


def test_jsonl_answers_each_block_of_stdin_and_every_line_in_order(tmp_path):
    """stdin is answered a block at a time: a caller that writes one line and waits gets its
    answer; a line without its final newline is answered; a file of many lines is answered in
    order, blank lines skipped, lines that are not JSON answered as such."""
    proc = subprocess.Popen(REFEREE + ["fan", "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for n in range(3):
            proc.stdin.write(json.dumps({"id": n, "melds": [], "concealed": []}).encode() + b"\n")
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())  # answered before the next line is written
            assert answer["id"] == n and answer["error"] == "BAD_INPUT"
        proc.stdin.write(b'{"id": "last"}')  # no newline: answered at the end of the input
        proc.stdin.close()
        assert json.loads(proc.stdout.readline())["id"] == "last"
        assert proc.stdout.read() == b""
    finally:
        proc.kill()
        proc.wait()
    lines = [json.dumps({"id": i}) if i % 7 else ("" if i % 2 else "not json") for i in range(20_000)]
    out = run("fan", "--jsonl", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    expected = [i for i in range(20_000) if i % 7 or not i % 2]
    assert len(answers) == len(expected)
    assert [a.get("id") for a in answers] == [i if i % 7 else None for i in expected]


def test_selfplay_summary():
    out = run("selfplay", "--game", "doudizhu", "--games", "4", "--seed", "5", "--illegal-rate", "0.5")
    summary = json.loads(out.stdout)
    assert summary["games"] == 4 and summary["zero_sum"] is True
    assert summary["rejected_actions"] > 0 and summary["actions"] > 4 * 10
    assert len(summary["score_totals"]) == 3
    again = json.loads(run("selfplay", "--games", "4", "--seed", "5", "--illegal-rate", "0.5").stdout)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in summary.items() if k != "seconds"}


@pytest.mark.parametrize("seats, preset", [(6, ""), (3, "84_plus_2_wild")])
def test_selfplay_seats_and_a_chuanpai_preset(seats, preset):
    """``--seats`` deals every table with that many seats (川牌 4.1: 2-7; 4.6's extra players at 5-7),
    ``--preset`` the 86-card deck (C-2)."""
    out = run("selfplay", "--game", "chuanpai", "--games", "2", "--seats", str(seats), "--preset", preset,
              "--seed", "3")
    assert out.returncode == 0, out.stdout + out.stderr
    summary = json.loads(out.stdout)
    assert summary["seats"] == seats == len(summary["score_totals"])
    assert summary["games"] == 2 and summary["zero_sum"] is True and sum(summary["outcomes"].values()) == 2


def test_selfplay_refuses_a_seat_count_the_game_is_not_played_by():
    out = run("selfplay", "--game", "chuanpai", "--games", "1", "--seats", "8")
    assert out.returncode == 2 and json.loads(out.stdout)["reason"] == "BAD_SEAT_COUNT"


def test_demo_and_version():
    out = run("demo", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert "seat 0 (17 cards):" in out.stdout and "LANDLORD" in out.stdout and "settlement:" in out.stdout
    assert "equals the commitment published at the deal: yes" in out.stdout
    version = run("version")
    assert "grpcio" in version.stdout and "hot modules:" in version.stdout


def _serving_port(proc, key: str) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        record = json.loads(line)
        if key in record:
            return int(str(record[key]).rsplit(":", 1)[-1])
    raise AssertionError("the server never said where it listens")


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_answers_and_stops_on_sigterm(workers):
    proc = subprocess.Popen(REFEREE + ["serve", "--port", "0", "--workers", str(workers), "--drain", "0.2",
                                       "--grace", "1"], stderr=subprocess.PIPE, text=True)
    try:
        port = _serving_port(proc, "address" if workers == 1 else "port")
        # separate connections, which SO_REUSEPORT spreads over the workers: all share the token key
        channels = [grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
                    for _ in range(6)]
        try:
            stubs = [pb_grpc.RefereeServiceStub(ch) for ch in channels]
            for ch in channels:
                grpc.channel_ready_future(ch).result(timeout=20)
            deal = stubs[0].Deal(pb.DealRequest(game="doudizhu"))
            seat = deal.to_act[0]
            request = pb.LegalActionsRequest(state=deal.state, seat=seat)
            # every worker opens the token and the credentials: the owner's and the seat's
            for i, stub in enumerate(stubs):
                credential = deal.owner_credential if i % 2 else deal.seat_credentials[seat]
                assert stub.LegalActions(request, metadata=(bearer(credential),)).can_pass
        finally:
            for ch in channels:
                ch.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
