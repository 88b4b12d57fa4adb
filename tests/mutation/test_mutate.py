"""The mutation-testing tools themselves (tests/mutation): which modules a game's run mutates,
the list of equivalent mutants, and ``referee.core`` imported from a folder of sources."""
import subprocess
import sys
from pathlib import Path

import mutate

HERE = Path(__file__).resolve().parent


def test_a_game_is_its_modules_by_name_and_what_they_import():
    assert mutate.select_modules(["doudizhu"]) == ["games/doudizhu/hot", "games/doudizhu/rules"]
    assert mutate.select_modules(["mcr"]) == ["games/mcr/fan_table", "games/mcr/fans", "games/mcr/hot",
                                              "games/mcr/rules"]
    assert mutate.select_modules(["platform"]) == sorted(mutate.PLATFORM)


def test_the_service_run_is_its_trust_path_named_from_the_root():
    """Issue 25: ``make mutate GAME=service`` mutates the servicer, credentials, token and errors;
    their files are below service/, and their mutants are tested by the API tests (a real server)."""
    assert mutate.select_modules(["service"]) == ["service/credentials", "service/errors", "service/servicer",
                                                  "service/token"]
    assert [mutate.relative(m) for m in mutate.select_modules(["service"])] == [
        "service/credentials.py", "service/errors.py", "service/servicer.py", "service/token.py"]
    assert mutate.relative("games/mcr/hot") == "core/games/mcr/hot.py"
    assert all(mutate.source_path(mutate.ROOT, m).exists() for m in mutate.SERVICE)
    # the API tests reach the token through their conftest's server; tests/core does not run it
    files = mutate.tests_by_imports("service/token", mutate.ROOT)
    assert "tests/api/test_token.py" in files and "tests/api/test_trust_pinned.py" in files
    assert not any(f.startswith("tests/core/test_ddz") for f in files)
    assert {"service/server", "service/connect"} <= mutate.importers("service/errors")


def test_every_rules_module_is_mutated_by_some_run():
    every = set(mutate.select_modules([]))
    assert every == set(mutate.PLATFORM) | {m for g in mutate.known_games() for m in mutate.select_modules([g])}
    assert not every & set(mutate.NOT_RULES)


def test_every_equivalent_mutant_says_why():
    equivalents = mutate.load_equivalents()
    assert all(reason.strip() for reason in equivalents.values())
    for key in equivalents:
        head, _, line = key.partition(" | ")
        path, _, operator = head.partition(" ")
        assert path.startswith(("core/", "service/")) and "::" in path, key
        assert operator == "*" or ("@" in operator and line), key  # one mutant, or a definition's


def test_referee_core_maps_to_a_folder_in_every_process(tmp_path):
    core = tmp_path / "core"
    core.mkdir()
    (core / "__init__.py").write_text("")
    (core / "probe.py").write_text("ANSWER = 42\n")
    script = ("import subprocess, sys\n"
              "import referee.core.probe as p, referee.core.speedups as s\n"
              "child = subprocess.run([sys.executable, '-c', 'import referee.core.probe as p; print(p.__file__)'],"
              " capture_output=True, text=True).stdout.strip()\n"
              "print(p.ANSWER, p.__file__, child, s.FORCE_PURE)\n")
    (core / "speedups.py").write_text("import os\nFORCE_PURE = os.environ.get('REFEREE_FORCE_PURE') == '1'\n")
    env = mutate.test_env(core, mutate.ROOT)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["42", str(core / "probe.py"), str(core / "probe.py"), "True"]


def test_referee_service_maps_to_a_folder_beside_the_core(tmp_path):
    """A service mutant runs in-process servers: ``referee.service`` is imported from the mutated
    copy (a child process too) while ``referee.core`` is the mapped core."""
    core, service = tmp_path / "core", tmp_path / "service"
    for folder in (core, service):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (core / "speedups.py").write_text("")
    (service / "probe.py").write_text("from ..core import speedups\nANSWER = 7\n")
    script = ("import subprocess, sys\n"
              "import referee.service.probe as p\n"
              "child = subprocess.run([sys.executable, '-c', 'import referee.service.probe as p; print(p.__file__)'],"
              " capture_output=True, text=True).stdout.strip()\n"
              "print(p.ANSWER, p.__file__, child, p.speedups.__file__)\n")
    env = mutate.test_env(core, mutate.ROOT, service)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["7", str(service / "probe.py"), str(service / "probe.py"), str(core / "speedups.py")]


def test_the_sample_draws_from_triaged_games_only():
    triaged = mutate.triaged_games()
    assert triaged and set(triaged) <= set(mutate.known_games()) | {"platform", "service"}


def test_a_test_file_that_loads_a_twin_by_name_runs_for_its_mutants(tmp_path):
    """The sample runs, for a mutant, the test files that import its module: a file that reaches a
    hot module only through ``speedups.interpreted("games.mcr.hot")`` or ``speedups.load(...)`` counts."""
    (tmp_path / "test_twin.py").write_text(
        "from referee.core import speedups\n\n"
        "def test_twins():\n    speedups.interpreted(\"games.mcr.hot\"), speedups.load(\"games.q783.hot\")\n")
    (tmp_path / "test_plain.py").write_text("from referee.core import speedups\n")
    assert {"games/mcr/hot", "games/q783/hot"} <= mutate.test_imports(tmp_path / "test_twin.py")
    assert mutate.test_imports(tmp_path / "test_plain.py") == {"speedups"}
    assert "tests/core/test_mcr_hot_pinned.py" in mutate.tests_by_imports("games/mcr/hot", mutate.ROOT)


def test_the_sample_runs_a_mutants_files_fastest_first_within_each_group():
    """The sample (no coverage map) orders a mutant's test files by the suite's last measured
    seconds, the files named after the game before the others; a file not measured goes first."""
    plain = mutate.tests_by_imports("games/doudizhu/rules", mutate.ROOT)
    named = [f for f in plain if f.split("/")[-1].startswith("test_ddz_")
             or "games/doudizhu/rules" in mutate.test_imports(mutate.ROOT / f)]
    assert len(named) > 2 and plain[:len(named)] == sorted(named)  # without seconds: by path
    seconds = {name: 100.0 - n for n, name in enumerate(plain)}  # the reverse of the path order
    seconds[named[0]] = 0.5
    del seconds[named[1]]
    ordered = mutate.tests_by_imports("games/doudizhu/rules", mutate.ROOT, seconds)
    assert sorted(ordered) == sorted(plain)
    assert ordered[:2] == [named[1], named[0]]  # not measured, then the fastest
    assert set(ordered[:len(named)]) == set(named)  # the game's own files still first
    rest = ordered[len(named):]
    assert [seconds[f] for f in rest] == sorted(seconds[f] for f in rest)


def test_the_suite_records_each_files_seconds_for_the_sample(tmp_path):
    """tests/conftest.py writes, at the end of a run, each test file's seconds into pytest's cache
    where ``mutate.py run --sample`` reads them (FILE_SECONDS)."""
    import json

    (tmp_path / "conftest.py").write_text((mutate.ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_quick.py").write_text("def test_a():\n    pass\n")
    (tmp_path / "test_slow.py").write_text("import time\n\n\ndef test_b():\n    time.sleep(0.2)\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "--rootdir", str(tmp_path), str(tmp_path)],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    seconds = json.loads((tmp_path / mutate.FILE_SECONDS.relative_to(mutate.ROOT)).read_text())
    assert set(seconds) == {"test_quick.py", "test_slow.py"}
    assert seconds["test_slow.py"] >= 0.2 > seconds["test_quick.py"]


def _session(folder: Path, source: str, outcome=None) -> dict:
    """A cosmic-ray session over ``core/m.py`` in ``folder/w0`` (its pristine copy beside it), every
    mutant given ``outcome`` (a killing test's output) when one is given: job id -> key."""
    import json

    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    for where in ("w0", "pristine"):
        (folder / where / "core").mkdir(parents=True)
        (folder / where / "core" / "m.py").write_text(source)
    (folder / "w0" / "cosmic-ray.toml").write_text(
        '[cosmic-ray]\nmodule-path = "core/m.py"\ntimeout = 10\nexcluded-modules = []\ntest-command = "true"\n\n'
        '[cosmic-ray.distributor]\nname = "local"\n')
    (folder / "run.json").write_text(json.dumps({"jobs": 1}))
    mutate.cosmic("init", "cosmic-ray.toml", "session.sqlite", cwd=folder / "w0")
    with use_db(str(folder / "w0" / "session.sqlite")) as db:
        items = list(db.pending_work_items)
        if outcome:
            db.set_multiple_results([i.job_id for i in items], WorkResult(
                output=outcome, worker_outcome=WorkerOutcome.NORMAL, test_outcome=TestOutcome.KILLED))
    return items, mutate.mutant_keys(items, mutate.Sources(folder / "pristine"))


def test_a_kill_is_carried_to_a_later_run_only_where_its_definition_reads_the_same(tmp_path):
    """``run --carry``: a fix in one function does not send the module's other mutants through the
    tests again; a mutant of the changed function, or one the earlier run did not kill, is run."""
    old = "LIMIT = 3\n\n\ndef f(x):\n    return x + 1 < LIMIT\n\n\ndef g(x):\n    return x * 2 > 1\n"
    new = "LIMIT = 3\n\n\ndef f(x):\n    return x + 1 < LIMIT\n\n\ndef g(x):\n    y = x * 2\n    return x * 2 > 1\n"
    _session(tmp_path / "old", old, "MUTATION core/m.py lines [5]: 1 tests\nMUTATION KILLED (pytest exit 1)")
    items, keys = _session(tmp_path / "new", new)
    carried = mutate.carried_kills(tmp_path / "old", tmp_path / "new" / "pristine", items, keys)
    where = {job: keys[job].split(" ")[0] for job in keys}
    assert carried and set(carried.values()) == {"old"}
    assert {where[job] for job in carried} == {"core/m.py::<module>", "core/m.py::f"}
    assert {where[job] for job in keys if job not in carried} == {"core/m.py::g"}  # g changed: all run again
    # a crash of the test command is no kill, nor is a survival
    _session(tmp_path / "crashed", old, "MUTATION ERROR: the test command failed")
    assert not mutate.carried_kills(tmp_path / "crashed", tmp_path / "new" / "pristine", items, keys)
    # a kill the earlier run carried itself is carried on
    _session(tmp_path / "between", old, f"{mutate.SKIP_CARRIED}: old")
    assert set(mutate.carried_kills(tmp_path / "between", tmp_path / "new" / "pristine", items, keys)) == set(carried)
    assert list(mutate.definitions(new)) == list(range(1, 2)) + list(range(4, 6)) + list(range(8, 11))
