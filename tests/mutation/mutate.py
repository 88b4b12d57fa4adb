"""Mutation testing of the rules core with cosmic-ray (``make mutate``, ``make mutate GAME=mcr``,
``make mutate-sample``). Commands:

    mutate.py run [--game ID ...] [--sample N --seed S] [--jobs J]   mutate, test, report
    mutate.py run --resume WORKDIR                                   go on with a stopped run
    mutate.py report [--workdir DIR]                                 the report of the last run
    mutate.py modules [--game ID ...]                                the modules a run mutates
    mutate.py test --workdir DIR --worker I                          cosmic-ray's test command

Modules are named by their path below ``core/`` without ``.py`` (``game``,
``games/doudizhu/hot``), or, for the service, below the root (``service/servicer``).
``--game platform`` is the shared pieces (PLATFORM); ``--game service`` the trust path of the
service (SERVICE: servicer, credentials, token, errors); ``--game ID`` a game's package,
``core/games/ID/*.py``, and the game modules they import; no ``--game``: the platform and every
game module; a sample without ``--game``: the games (and platform, service) of ``triaged.txt``.

How a mutant is tested: cosmic-ray writes the mutant into a copy of ``core/`` or ``service/``
(the tree is never changed) and calls ``mutate.py test``, which runs pytest on the tree's tests
with ``referee.core`` and ``referee.service`` imported from those copies (``site/sitecustomize.py``,
interpreted twins; the service copy is the installed package's, with its generated files) and
stops at the first failure. Which tests: in a whole or game run, those that ran the mutated line
(a coverage map of the driving suite, built once per state of the sources, fastest first);
lines run only at import take the tests of the module and of its importers. In a sample (CI)
run, without a map: the test files that import the module, directly or through the core.

Mutants: cosmic-ray's operators, one or two replacements per operator (OPERATORS); the others
(every binary operator into each of the ten others, comparisons into every other, decorator
removal: Cython's pure-mode decorators and the caches are no-ops on the interpreted twins) are
skipped. ``equivalent/<game>.txt`` lists the mutants that cannot be told apart from the original, each
with its reason; they are skipped too. A sample run fails when a mutant survives.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CORE = ROOT / "core"
DRIVING = ("tests/core", "tests/contract", "tests/golden", "tests/regressions")
PLATFORM = ("game", "tricks", "decisions", "asking", "codec", "seats", "cards", "rng", "clock")
# the service's trust path: who may call what (credentials), the sealed state (token), the one
# error mapping (errors) and the servicer that converts, checks seats and delegates
SERVICE = ("service/credentials", "service/errors", "service/servicer", "service/token")
SERVICE_DIR = ROOT / "service"
# the tests that drive the service's mutants: real servers on 127.0.0.1 (tests/api) less those
# that need node, chromium or minutes of subprocesses, and the contract's server playouts
DRIVING_SERVICE = tuple(f"tests/api/{name}.py" for name in (
    "test_token", "test_trust", "test_trust_pinned", "test_service_pinned", "test_relayed", "test_rpc",
    "test_server", "test_replay", "test_state_cache", "test_batch", "test_convert", "test_enums", "test_connect",
    "test_clock")) + (
    "tests/contract/test_server_contract.py",)
# infrastructure, no rules: never mutated
NOT_RULES = ("_cython_shim", "errors", "registry", "speedups")  # and every package's __init__
GAMES_DIR = CORE / "games"
# test files named after a game's short name run first for its modules (test_ddz_*.py)
TEST_PREFIX = {"doudizhu": "ddz"}
# random playouts of whole mcr hands, about a minute each in the interpreted core: a safety net
# run by `make test`, too slow to rerun for every mutant; what they would catch gets direct tests
NOT_DRIVING = ("tests/core/test_mcr_game_playouts.py::test_random_full_hand_playouts",)
# each test file's seconds in the suite's last run (tests/conftest.py records them in pytest's cache)
FILE_SECONDS = ROOT / ".pytest_cache" / "v" / "referee" / "file-seconds"
SAMPLE_TIMEOUT = 120  # seconds for one mutant of the CI sample
TEST_TIMEOUT = 90  # seconds for one test under a mutant (the slowest driving test takes about 30)
EQUIVALENT = HERE / "equivalent"  # <game>.txt: the equivalent mutants of a game, each with its reason
TRIAGED = HERE / "triaged.txt"  # the games (and platform) whose survivors all have a test or an entry
WORK = Path(os.environ.get("MUTATION_DIR", ROOT / ".mutation"))
PYTHON = sys.executable

# the operators run (cosmic-ray's names); the rest are skipped as redundant
OPERATORS = re.compile(
    r"(ReplaceBinaryOperator_(Add_Sub|Sub_Add|Mul_Add|FloorDiv_Div|FloorDiv_Mul|Div_FloorDiv|Div_Mul|Mod_FloorDiv"
    r"|LShift_RShift|RShift_LShift|BitAnd_BitOr|BitOr_BitAnd|BitXor_BitAnd|Pow_Mul)"
    r"|ReplaceComparisonOperator_(Eq_NotEq|NotEq_Eq|Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|Is_IsNot|IsNot_Is)"
    r"|ReplaceUnaryOperator_Delete_\w+|ReplaceAndWithOr|ReplaceOrWithAnd|ReplaceTrueWithFalse|ReplaceFalseWithTrue"
    r"|AddNot|ZeroIterationForLoop|ReplaceBreakWithContinue|ReplaceContinueWithBreak|ExceptionReplacer"
    r"|NumberReplacer)$")
SKIP_OPERATOR, SKIP_EQUIVALENT, SKIP_SAMPLE, SKIP_WORKER = ("operator not run", "equivalent", "not sampled",
                                                             "another worker")
SKIP_CARRIED = "killed in an earlier run"


# --- which modules ------------------------------------------------------------------------------

def loaded_by_name(node: ast.AST) -> str | None:
    """The module a ``speedups.load("x")`` or ``speedups.interpreted("x")`` call names."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("load", "interpreted") and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return node.args[0].value
    return None


def module_name(path: Path) -> str:
    """A module's name: its path below ``core/`` without ``.py`` (``games/mcr/hot``); a service
    module's, below the root (``service/token``)."""
    if path.is_relative_to(SERVICE_DIR):
        return path.relative_to(ROOT).with_suffix("").as_posix()
    return path.relative_to(CORE).with_suffix("").as_posix()


def is_service(name: str) -> bool:
    return name.startswith("service/")


def source_path(base: Path, name: str) -> Path:
    """A module's file in ``base``, a folder holding ``core/`` and ``service/`` (the root, a
    worker's copy, the pristine copy)."""
    return base / f"{name}.py" if is_service(name) else base / "core" / f"{name}.py"


def relative(name: str) -> str:
    """A module's path from the root: ``core/games/mcr/hot.py``, ``service/token.py``."""
    return source_path(Path(), name).as_posix()


def existing(parts) -> str | None:
    """The module that dotted ``parts`` below ``referee.core`` name, or their longest prefix that
    is a module (``games.mcr.rules.MCR`` -> ``games/mcr/rules``)."""
    for end in range(len(parts), 0, -1):
        name = "/".join(parts[:end])
        if (CORE / f"{name}.py").exists():
            return name
    return None


def core_imports(path: Path) -> set[str]:
    """The core modules a module imports: relative imports (``from . import x``, ``from .x
    import``, ``from ...game import``) and ``speedups.load("games.x.hot")``; for a service
    module, the service modules it imports."""
    if path.is_relative_to(SERVICE_DIR):
        return service_imports(path)
    package = list(path.relative_to(CORE).parent.parts)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            base = package[:len(package) - node.level + 1]
            module = base + (node.module.split(".") if node.module else [])
            for alias in node.names:
                found.add(existing(module + [alias.name]))
        elif twin := loaded_by_name(node):
            found.add(existing(twin.split(".")))
    return found - {None}


def service_imports(path: Path) -> set[str]:
    """The service modules a service module imports (relative imports within ``service/``)."""
    package = list(path.relative_to(ROOT).parent.parts)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            base = package[:len(package) - node.level + 1]
            module = base + (node.module.split(".") if node.module else [])
            for name in [module + [alias.name] for alias in node.names] + [module]:
                if name[:1] == ["service"] and (ROOT / f"{'/'.join(name)}.py").exists():
                    found.add("/".join(name))
                    break
    return found


def package_modules(folder: Path) -> set[str]:
    return {module_name(p) for p in folder.glob("*.py") if p.stem != "__init__"}


def game_modules(game: str) -> list[str]:
    """The modules of ``core/games/GAME/`` and the game modules they import."""
    names = package_modules(GAMES_DIR / game)
    if not names:
        raise SystemExit(f"no package core/games/{game}/; games: {', '.join(known_games())}")
    todo = list(names)
    while todo:
        for name in core_imports(CORE / f"{todo.pop()}.py") - set(PLATFORM) - set(NOT_RULES) - names:
            names.add(name)
            todo.append(name)
    return sorted(names)


def rules_modules() -> list[str]:
    return sorted(module_name(p) for p in CORE.rglob("*.py")
                  if p.stem != "__init__" and module_name(p) not in NOT_RULES and "__pycache__" not in p.parts)


def known_games() -> list[str]:
    """The games: the packages of ``core/games/``."""
    return sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())


def triaged_games() -> list[str]:
    """The games the CI sample draws from: ``triaged.txt``, one id a line."""
    return [line.split("#")[0].strip() for line in TRIAGED.read_text().splitlines() if line.split("#")[0].strip()]


def select_modules(games: list[str], modules: list[str] = ()) -> list[str]:
    if modules:
        return sorted(Path(m).relative_to("core").with_suffix("").as_posix() if m.startswith("core/")
                      else Path(m).with_suffix("").as_posix() for m in modules)
    if not games:
        return rules_modules()
    names = set()
    for game in games:
        names.update(PLATFORM if game == "platform" else SERVICE if game == "service" else game_modules(game))
    return sorted(names)


# --- mutants: keys, equivalents ----------------------------------------------------------------

def operator_of(spec) -> str:
    return spec.operator_name.rpartition("/")[2]


class Sources:
    """Lines of the pristine modules, by path relative to the worker directory."""

    def __init__(self, base: Path):
        self.base, self.cache = base, {}

    def line(self, path: str, row: int) -> str:
        if path not in self.cache:
            self.cache[path] = (self.base / path).read_text().splitlines()
        return self.cache[path][row - 1].strip()


def mutant_keys(items, sources: Sources) -> dict[str, str]:
    """job id -> ``path::definition operator@n | line``: the mutant named by its line's text, not
    its number (``@n``: the n-th mutant of this operator on the line, in the operator's order;
    ``definition#k``: the k-th line of that text in the definition, when there are several)."""
    places, rows = defaultdict(list), defaultdict(set)
    for item in items:
        spec = item.mutations[0]
        path, row = str(spec.module_path), spec.start_pos[0]
        places[(path, row, operator_of(spec))].append((spec.start_pos[1], spec.occurrence))
        rows[(path, spec.definition_name, sources.line(path, row))].add(row)
    keys = {}
    for item in items:
        spec = item.mutations[0]
        path, row, op, text = str(spec.module_path), spec.start_pos[0], operator_of(spec), ""
        n = sorted(places[(path, row, op)]).index((spec.start_pos[1], spec.occurrence)) + 1
        text = sources.line(path, row)
        same = sorted(rows[(path, spec.definition_name, text)])  # lines of the same text: #k the k-th
        where = (spec.definition_name or "<module>") + (f"#{same.index(row) + 1}" if len(same) > 1 else "")
        keys[item.job_id] = f"{path}::{where} {op}@{n} | {text}"
    return keys


def entry_of(key: str, equivalents: dict[str, str]) -> str | None:
    """The entry of ``equivalent/*.txt`` that lists a mutant's key, if one does: the key itself, or
    a definition's wildcard ``path::definition *`` (optionally ``| line``)."""
    head, _, text = key.partition(" | ")
    where = head.split(" ")[0].split("#")[0]
    for entry in (key, f"{where} * | {text}", f"{where} *"):
        if entry in equivalents:
            return entry
    return None


def listed(key: str, equivalents: dict[str, str]) -> str | None:
    """The reason ``equivalent/*.txt`` gives for a mutant, if it lists it."""
    entry = entry_of(key, equivalents)
    return equivalents[entry] if entry else None


def load_equivalents(folder: Path = EQUIVALENT) -> dict[str, str]:
    """key -> reason, from every ``equivalent/*.txt``."""
    found = {}
    for path in sorted(folder.glob("*.txt")):
        found.update(load_equivalent_file(path))
    return found


def load_equivalent_file(path: Path) -> dict[str, str]:
    """key -> reason. An entry is a line ``path::definition operator@n | source line``; the comment
    lines right above a group of entries are its reason (required); a blank line ends a group."""
    found, reason, last_was_entry = {}, [], False
    for number, raw in enumerate(path.read_text().splitlines(), 1) if path.exists() else ():
        line = raw.strip()
        if not line:
            reason, last_was_entry = [], False
        elif line.startswith("#"):
            if last_was_entry:
                reason = []
            reason.append(line.lstrip("# "))
            last_was_entry = False
        else:
            if not reason:
                raise SystemExit(f"{path}:{number}: an equivalent mutant needs a reason (comment lines above it)")
            head, _, text = line.partition(" | ")
            text = text.split("  -> ")[0].strip()  # what follows is the mutated line, for the reader
            found[" ".join(head.split()) + (f" | {text}" if text else "")] = " ".join(reason)
            last_was_entry = True
    return found


# --- the coverage map ------------------------------------------------------------------------------

def driving(service: bool | None = False) -> tuple[str, ...]:
    """The driving suite: of the core (``service`` False); of the service alone (True: its
    mutants run only in a server); of both (None)."""
    return DRIVING_SERVICE if service else DRIVING + (DRIVING_SERVICE if service is None else ())


def service_kind(modules) -> bool | None:
    """``driving``'s argument for a run over ``modules``."""
    service = {is_service(m) for m in modules}
    return None if service == {True, False} else service == {True}


def driving_files(root: Path = ROOT, service: bool | None = False) -> list[Path]:
    return sorted({p for d in driving(service) for p in ((root / d).rglob("*") if (root / d).is_dir() else [root / d])
                   if p.suffix in (".py", ".txt") and p.is_file() and "__pycache__" not in p.parts})


def sources_digest(service: bool | None = False) -> str:
    h = hashlib.sha256()
    h.update(repr((NOT_DRIVING, driving(service))).encode())
    sources = sorted(CORE.rglob("*.py")) + (sorted(SERVICE_DIR.rglob("*.py")) if service is not False else [])
    for path in sources + driving_files(service=service) + [HERE / "referee_mutation.py"]:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def installed_service() -> Path:
    """The installed ``referee.service``: the tree's sources and what the build generated
    (api.binpb, the web page). Refused when its sources are not the tree's (install again)."""
    import referee.service

    installed = Path(referee.service.__file__).resolve().parent
    stale = [p.relative_to(SERVICE_DIR).as_posix() for p in SERVICE_DIR.rglob("*.py")
             if "__pycache__" not in p.parts
             and (not (installed / p.relative_to(SERVICE_DIR)).exists()
                  or (installed / p.relative_to(SERVICE_DIR)).read_bytes() != p.read_bytes())]
    if stale:
        raise SystemExit(f"the installed referee.service is not the tree's ({', '.join(stale[:3])}): install again")
    return installed


def test_env(core_dir: Path, tree: Path, service_dir: Path | None = None, **extra) -> dict:
    here = tree / HERE.relative_to(ROOT)
    # the plugins the driving suite uses are named in PYTEST: autoloading every installed one
    # (pytest-benchmark's imports) took half a second of each mutant's run
    env = dict(os.environ, REFEREE_CORE_DIR=str(core_dir), REFEREE_FORCE_PURE="1", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
               PYTHONPATH=os.pathsep.join([str(here / "site"), str(here)]
                                          + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    if service_dir is not None:
        env["REFEREE_SERVICE_DIR"] = str(service_dir)
    env.update(extra)
    return env


PYTEST = [PYTHON, "-m", "pytest", "-p", "referee_mutation", "-p", "pytest_timeout", "-p", "_hypothesis_pytestplugin",
          "-p", "no:cacheprovider", "-q",
          *(f"--deselect={t}" for t in NOT_DRIVING)]


def build_map(base: Path, tree: Path, service: bool | None = False) -> Path:
    """The coverage map of the driving suite on the pristine sources in ``base`` (``core/``, and
    ``service/`` when a service module is mutated), cached by their digest."""
    path = WORK / "maps" / f"{sources_digest(service)}.json"
    if path.exists():
        print(f"coverage map: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} (cached)", flush=True)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    print("coverage map: running the driving suite once under coverage (a few minutes) ...", flush=True)
    started = time.monotonic()
    proc = subprocess.run(PYTEST + ["--tb=short", *driving(service)], cwd=tree,
                          env=test_env(base / "core", tree, base / "service" if service is not False else None,
                                       REFEREE_MUTATION_MAP=str(partial)),
                          preexec_fn=_die_with_parent)  # a stopped run leaves no map build behind
    data = json.loads(partial.read_text()) if partial.exists() else {}
    if proc.returncode != 0 or data.get("failed"):
        raise SystemExit(f"the driving suite fails on the unmutated sources ({data.get('failed')}): fix it first")
    partial.rename(path)
    print(f"coverage map: {len(data['tests'])} tests in {time.monotonic() - started:.0f} s", flush=True)
    return path


# --- running a session ---------------------------------------------------------------------------

def _die_with_parent() -> None:
    """Linux: this process gets SIGKILL when its parent dies, so an interrupted run leaves no
    cosmic-ray, test command or pytest behind (each runs in a session of its own)."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def cosmic(*args, cwd: Path):
    subprocess.run([PYTHON, "-m", "cosmic_ray.cli", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def write_config(workdir: Path, worker: int, modules: list[str], timeout: float) -> Path:
    config = workdir / f"w{worker}" / "cosmic-ray.toml"
    command = f"{PYTHON} {Path(__file__).resolve()} test --workdir {workdir} --worker {worker}"
    config.write_text("[cosmic-ray]\n"
                      f"module-path = {json.dumps([relative(m) for m in modules])}\n"
                      f"timeout = {timeout}\nexcluded-modules = []\n"
                      f"test-command = {json.dumps(command)}\n\n"
                      "[cosmic-ray.distributor]\nname = \"local\"\n")
    return config


def skip(db, job_ids, why: str):
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    if job_ids:
        db.set_multiple_results(list(job_ids), WorkResult(output=why, worker_outcome=WorkerOutcome.SKIPPED))


def run(args) -> int:
    from cosmic_ray.work_db import use_db

    if args.resume:
        return execute(Path(args.resume).resolve(), resumed=True)
    modules = select_modules(args.game or (triaged_games() if args.sample else []), args.module)
    label = "sample" if args.sample else "+".join(args.game or args.module and ["modules"] or ["all"])
    if args.rerun:
        args.rerun = str(Path(args.rerun).resolve())
        label += "-rerun"
    workdir = (WORK / label).resolve()
    if args.carry and Path(args.carry).resolve() == workdir:  # the earlier run is this run's folder: keep it
        earlier = workdir.with_name(f"{label}-earlier")
        shutil.rmtree(earlier, ignore_errors=True)
        workdir.rename(earlier)
        args.carry = str(earlier)
    shutil.rmtree(workdir, ignore_errors=True)
    pristine = workdir / "pristine"
    service = service_kind(modules)
    shutil.copytree(CORE, pristine / "core", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    if service is not False:
        shutil.copytree(installed_service(), pristine / "service", ignore=shutil.ignore_patterns("__pycache__"))
    # the tests as they are now: edits made during the run do not change it
    tree = workdir / "tree"
    shutil.copytree(ROOT / "tests", tree / "tests", ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    for name in ("pyproject.toml", "README.md"):  # the tests that hold the README to the code read it
        shutil.copyfile(ROOT / name, tree / name)
    jobs = max(1, args.jobs)
    for worker in range(jobs):
        copy_pristine(workdir, worker)
    print(f"mutating {', '.join(relative(m) for m in modules)}", flush=True)
    coverage_map = None if args.sample else build_map(pristine, tree, service)
    if args.sample and FILE_SECONDS.exists():  # the suite's last run: the sample's files, fastest first
        shutil.copyfile(FILE_SECONDS, workdir / "file-seconds.json")
    (workdir / "run.json").write_text(json.dumps({
        "modules": modules, "games": args.game, "sample": args.sample, "seed": args.seed, "jobs": jobs,
        "map": str(coverage_map) if coverage_map else None, "timeout": args.timeout, "rerun": bool(args.rerun)}))

    # one session, every mutant; then what is not run is marked skipped, and the rest split
    session = workdir / "w0" / "session.sqlite"
    write_config(workdir, 0, modules, args.timeout)
    cosmic("init", "cosmic-ray.toml", "session.sqlite", cwd=workdir / "w0")
    equivalents = load_equivalents()
    with use_db(str(session)) as db:
        items = list(db.pending_work_items)
        keys = mutant_keys(items, Sources(workdir / "w0"))
        skip(db, [i.job_id for i in items if not OPERATORS.match(operator_of(i.mutations[0]))], SKIP_OPERATOR)
        in_scope = [i for i in items if OPERATORS.match(operator_of(i.mutations[0]))]
        equivalent = [i for i in in_scope if listed(keys[i.job_id], equivalents)]
        for item in equivalent:
            skip(db, [item.job_id], f"{SKIP_EQUIVALENT}: {listed(keys[item.job_id], equivalents)}")
        todo = sorted((i for i in in_scope if not listed(keys[i.job_id], equivalents)),
                      key=lambda i: (str(i.mutations[0].module_path), i.mutations[0].start_pos, operator_of(i.mutations[0])))
        if args.carry:
            carried = carried_kills(Path(args.carry).resolve(), workdir / "pristine", items, keys)
            for item in todo:
                if item.job_id in carried:
                    skip(db, [item.job_id], f"{SKIP_CARRIED}: {carried[item.job_id]}")
            print(f"{len(carried)} mutants killed in {args.carry} with their definition unchanged: not run again",
                  flush=True)
            todo = [i for i in todo if i.job_id not in carried]
        if args.rerun:
            again = {line.split("  -> ")[0] for line in (Path(args.rerun) / "survivors.txt").read_text().splitlines()
                     if line and not line.startswith(" ")}
            skip(db, [i.job_id for i in todo if keys[i.job_id] not in again], SKIP_SAMPLE)
            todo = [i for i in todo if keys[i.job_id] in again]
        if args.sample:
            chosen = set(i.job_id for i in random.Random(args.seed).sample(todo, min(args.sample, len(todo))))
            skip(db, [i.job_id for i in todo if i.job_id not in chosen], SKIP_SAMPLE)
            todo = [i for i in todo if i.job_id in chosen]
    print(f"{len(items)} mutants, {len(in_scope)} by the operators run, {len(equivalent)} listed equivalent, "
          f"{len(todo)} to test on {jobs} worker(s)", flush=True)
    for worker in range(1, jobs):
        shutil.copyfile(session, workdir / f"w{worker}" / "session.sqlite")
        write_config(workdir, worker, modules, args.timeout)
    for worker in range(jobs):
        with use_db(str(workdir / f"w{worker}" / "session.sqlite")) as db:
            skip(db, [i.job_id for n, i in enumerate(todo) if n % jobs != worker], SKIP_WORKER)
    return execute(workdir)


def killed(result) -> bool:
    """A test killed the mutant: the command ran the tests (a crash prints nothing) and failed."""
    from cosmic_ray.work_item import TestOutcome

    output = result.output or ""
    return (result.test_outcome == TestOutcome.KILLED and "MUTATION ERROR" not in output
            and re.search(r"MUTATION (core|service)/", output) is not None)


def definitions(source: str) -> dict[int, str]:
    """line -> the source of the top-level statement (a def, a class, an assignment) holding it."""
    tree, out = ast.parse(source), {}
    for node in tree.body:
        text = ast.get_source_segment(source, node, padded=True) or ""
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        for row in range(start, node.end_lineno + 1):
            out[row] = text
    return out


def carried_kills(earlier: Path, pristine: Path, items, keys: dict[str, str]) -> dict[str, str]:
    """job id -> the earlier run's name, for the mutants a test killed in ``earlier`` whose
    top-level definition reads the same here: a fix elsewhere in a module does not send its
    thousand other mutants through the tests again. (A kill is carried, a survival never is:
    the tests only grow, and the survivors of both runs are what gets triaged. The kills the
    earlier run carried itself are carried on: their definition read the same there.)"""
    from cosmic_ray.work_db import use_db

    meta = json.loads((earlier / "run.json").read_text())
    old_items, old_results = {}, {}
    for worker in range(meta["jobs"]):
        with use_db(str(earlier / f"w{worker}" / "session.sqlite")) as db:
            old_items.update((item.job_id, item) for item in db.work_items)
            old_results.update((job_id, result) for job_id, result in db.results
                               if killed(result) or (result.output or "").startswith(SKIP_CARRIED))
    old_keys = mutant_keys(list(old_items.values()), Sources(earlier / "pristine"))
    old_defs, new_defs, dead = {}, {}, {}
    for job_id in old_results:
        spec = old_items[job_id].mutations[0]
        path = str(spec.module_path)
        if path not in old_defs:
            old_defs[path] = definitions((earlier / "pristine" / path).read_text())
        dead[old_keys[job_id]] = old_defs[path][spec.start_pos[0]]
    out = {}
    for item in items:
        spec = item.mutations[0]
        path = str(spec.module_path)
        if keys[item.job_id] not in dead:
            continue
        if path not in new_defs:
            new_defs[path] = definitions((pristine / path).read_text())
        if new_defs[path][spec.start_pos[0]] == dead[keys[item.job_id]]:
            out[item.job_id] = earlier.name
    return out


def copy_pristine(workdir: Path, worker: int) -> None:
    """A worker's copies of the pristine ``core/`` (and ``service/``), byte-compiled."""
    for folder in ("core", "service"):
        shutil.rmtree(workdir / f"w{worker}" / folder, ignore_errors=True)
        if (workdir / "pristine" / folder).exists():
            shutil.copytree(workdir / "pristine" / folder, workdir / f"w{worker}" / folder)
            subprocess.run([PYTHON, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash",
                            str(workdir / f"w{worker}" / folder)], check=True)


def execute(workdir: Path, resumed: bool = False) -> int:
    """Each worker's cosmic-ray session to its end (on resuming, what is left of it), then the
    report."""
    from cosmic_ray.work_db import use_db

    meta = json.loads((workdir / "run.json").read_text())
    jobs, sample = meta["jobs"], bool(meta["sample"])
    pending = 0
    for worker in range(jobs):
        with use_db(str(workdir / f"w{worker}" / "session.sqlite")) as db:
            pending += sum(1 for _ in db.pending_work_items)
    progress = workdir / "progress"
    before = sum(1 for _ in progress.glob("*")) if resumed and progress.exists() else 0
    todo = before + pending  # a mutant interrupted while tested counts twice in "tested": no matter
    if resumed:  # a worker stopped in the middle of a mutant left it in its copy
        for worker in range(jobs):
            copy_pristine(workdir, worker)
        print(f"resuming {workdir}: {pending} mutants left of {todo}", flush=True)
    started = time.monotonic()
    procs = [subprocess.Popen([PYTHON, "-m", "cosmic_ray.cli", "exec", "cosmic-ray.toml", "session.sqlite"],
                              cwd=workdir / f"w{w}", start_new_session=True, preexec_fn=_die_with_parent)
             for w in range(jobs)]
    try:
        while any(p.poll() is None for p in procs):
            time.sleep(2 if sample else 30)
            done = sum(1 for _ in progress.glob("*")) if progress.exists() else 0
            if not sample:
                print(f"  {done}/{todo} tested, {time.monotonic() - started:.0f} s", flush=True)
    except KeyboardInterrupt:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        raise
    if any(p.returncode for p in procs):
        raise SystemExit("cosmic-ray exec failed")
    print(f"tested {pending} mutants in {time.monotonic() - started:.0f} s", flush=True)
    return report(workdir, fail_on_survivor=sample)


# --- the test command --------------------------------------------------------------------------

def changed_lines(before: list[str], after: list[str]) -> list[int]:
    lines = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag != "equal":
            lines.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    return sorted(lines)


def statement_lines(source: str, lines: list[int]) -> list[int]:
    """The lines and the first line of the innermost statement around each: coverage marks a
    statement that spans lines (a table, a long call) by its first line."""
    spans = [(n.lineno, n.end_lineno) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.stmt)]
    out = set(lines)
    for line in lines:
        around = [start for start, end in spans if start <= line <= end]
        out.add(max(around) if around else line)
    return sorted(out)


def importers(module: str) -> set[str]:
    folder = SERVICE_DIR if is_service(module) else CORE
    return {module_name(p) for p in folder.rglob("*.py") if "__pycache__" not in p.parts and module in core_imports(p)}


def tests_from_map(coverage_map: dict, module: str, lines: list[int], tree: Path) -> list[str]:
    """The tests that ran the lines, fastest first; a line run only at import (a table, a class
    attribute, a default): the tests that ran any line of the module or of a module importing
    it, and every test of the files that import it."""
    tests, by_line, selected = coverage_map["tests"], coverage_map["lines"], set()
    import_only = set(coverage_map["import_lines"].get(f"{module}.py", ()))
    for line in lines:
        selected.update(by_line.get(f"{module}.py", {}).get(str(line), ()))
        if line in import_only:
            for name in {module} | importers(module):
                for covering in by_line.get(f"{name}.py", {}).values():
                    selected.update(covering)
            files = tuple(str(p.relative_to(tree)) + "::" for p in driving_files(tree, is_service(module))
                          if p.name.startswith("test_") and p.suffix == ".py" and module in test_imports(p))
            selected.update(i for i, (nodeid, _) in enumerate(tests) if nodeid.startswith(files))
    return [tests[i][0] for i in sorted(selected, key=lambda i: (tests[i][1], i))], \
        sum(tests[i][1] for i in selected)


QUICK_SECONDS = 20  # a service mutant's first pass: its fastest tests up to this many seconds


def quick(selected: list[str], coverage_map: dict) -> tuple[list[str], float]:
    """The first pass over a service mutant: the map's tests, fastest first, up to QUICK_SECONDS
    (a mutant the API breaks dies in its first tests; one that survives them is run again with
    every test that ran its line by ``--rerun``, once its survivors are triaged)."""
    seconds = dict(map(tuple, coverage_map["tests"]))
    kept, total = [], 0.0
    for nodeid in selected:
        if kept and total + seconds[nodeid] > QUICK_SECONDS:
            break
        kept.append(nodeid)
        total += seconds[nodeid]
    return kept, total


def importing_files(workdir: Path, module: str, tree: Path) -> list[str]:
    """``tests_by_imports`` (seconds of parsing), once per run and module."""
    path = workdir / "imports" / f"{module}.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)  # a game module's name has folders
        partial = path.with_suffix(f".{os.getpid()}")
        partial.write_text(json.dumps(tests_by_imports(module, tree)))
        partial.replace(path)
    return json.loads(path.read_text())


def files_running(coverage_map: dict, module: str) -> set[str]:
    """The test files of which a test ran a line of the module beyond its import."""
    tests, import_only = coverage_map["tests"], set(coverage_map["import_lines"].get(f"{module}.py", ()))
    return {tests[i][0].split("::")[0] for line, covering in coverage_map["lines"].get(f"{module}.py", {}).items()
            if int(line) not in import_only for i in covering}


def test_imports(path: Path) -> set[str]:
    """Core modules a test file imports (through the tests' own helper modules too), a twin it
    loads by name (``speedups.interpreted("mcr_hot")``) included; the service and the registry
    reach every game."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if twin := loaded_by_name(node):
            found.add(existing(twin.split(".")))
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["referee", "core"] and len(parts) > 2:
                found.add(existing(parts[2:]))
            elif parts[:2] == ["referee", "service"] or parts[:1] == ["referee"] and len(parts) == 1:
                found.add("registry")
                for end in range(len(parts), 2, -1):  # a service module: its path below the root
                    if (ROOT / "/".join(parts[1:end])).with_suffix(".py").exists():
                        found.add("/".join(parts[1:end]))
                        break
            elif len(parts) == 1 and (path.parent / f"{parts[0]}.py").exists() and path.stem != parts[0]:
                found |= test_imports(path.parent / f"{parts[0]}.py")
    if path.name.startswith("test_") and (path.parent / "conftest.py").exists():
        found |= test_imports(path.parent / "conftest.py")  # its fixtures: the server of tests/api
    return {n for n in found if n and source_path(ROOT, n).exists()}


def reaches(names: set[str]) -> set[str]:
    seen, todo = set(names), list(names)
    while todo:
        for name in core_imports(source_path(ROOT, todo.pop())) - seen:
            seen.add(name)
            todo.append(name)
    return seen


def tests_by_imports(module: str, tree: Path, seconds: dict[str, float] | None = None) -> list[str]:
    """Test files whose imports reach the module: those importing it directly or named after it
    (``games/doudizhu/hot``: ``test_ddz_*``) first; within each group, with ``seconds`` (a file's
    seconds in the last suite run, FILE_SECONDS), the fastest first (a file not measured first)."""
    seconds = seconds or {}
    found = []
    for path in driving_files(tree, is_service(module)):
        if path.suffix == ".py" and path.name.startswith("test_"):
            direct = test_imports(path)
            if module in reaches(direct):
                game = module.split("/")[1] if module.startswith("games/") else module
                named = path.name.startswith(f"test_{TEST_PREFIX.get(game, game)}")
                name = str(path.relative_to(tree))
                found.append((module not in direct and not named, seconds.get(name, 0.0), name))
    return [name for *_, name in sorted(found)]


def test(args) -> int:
    """cosmic-ray's test command: 0 when the mutant survives, non-zero when a test kills it; a
    failure of the command itself prints MUTATION ERROR (the report counts it as an error, never
    as a kill: a crash here once made every game mutant look killed)."""
    try:
        return _test(args)
    except Exception:
        import traceback

        print("MUTATION ERROR: the test command failed\n" + traceback.format_exc(), flush=True)
        return 3


def _test(args) -> int:
    workdir = Path(args.workdir)
    meta = json.loads((workdir / "run.json").read_text())
    base, pristine = workdir / f"w{args.worker}", workdir / "pristine"
    tree = workdir / "tree" if (workdir / "tree").exists() else ROOT
    changed = [m for m in meta["modules"]
               if source_path(base, m).read_bytes() != source_path(pristine, m).read_bytes()]
    if len(changed) != 1:
        print(f"MUTATION ERROR: {len(changed)} modules changed: {changed}")
        return 3
    module = changed[0]
    source = source_path(pristine, module).read_text()
    lines = statement_lines(source, changed_lines(source.splitlines(), source_path(base, module).read_text().splitlines()))
    progress = workdir / "progress"
    progress.mkdir(exist_ok=True)
    (progress / f"{os.getpid()}-{time.monotonic_ns()}").touch()
    if meta["map"]:
        coverage_map = json.loads(Path(meta["map"]).read_text())
        selected, expected = tests_from_map(coverage_map, module, lines, tree)
        # the map credits a line to the tests that ran it while it was built; a table filled
        # once per process, a cached function or a module-scoped fixture ran for the first such
        # test only, so the other tests of the files that import the module and ran its code
        # follow the map's own (one pytest run: the map's tests first, to stop at the first
        # failure soon)
        # (a service module's mutant takes the map's tests alone when there are some: its server runs
        # for every test that calls it, and the other tests of the API files take minutes)
        running = files_running(coverage_map, module)
        files = tuple(f"{name}::" for name in importing_files(workdir, module, tree) if name in running)
        chosen = set(selected)
        rest = [] if is_service(module) and chosen else [
            (nodeid, seconds) for nodeid, seconds in coverage_map["tests"]
            if nodeid.startswith(files) and nodeid not in chosen]
        if is_service(module) and chosen and not meta.get("rerun"):
            selected, expected = quick(selected, coverage_map)
        timeout = min(meta["timeout"] - 5, 60 + 3 * (expected + sum(seconds for _, seconds in rest)))
        print(f"MUTATION {relative(module)} lines {lines}: {len(selected)} tests, "
              f"then {len(rest)} more of the {len(files)} test files importing it")
        selected = selected + [nodeid for nodeid, _ in rest]
        code = _run_tests(selected, base, tree, timeout) if selected else 0
        if not chosen:
            selected = []  # for the report: no test runs these lines
    else:
        # the sample has no map to say how long the tests take: two minutes, then the mutant
        # counts as killed (a loop the mutation made endless is noticed, not waited out)
        measured = workdir / "file-seconds.json"
        seconds = json.loads(measured.read_text()) if measured.exists() else {}
        selected, timeout = tests_by_imports(module, tree, seconds), min(meta["timeout"] - 5, SAMPLE_TIMEOUT)
        print(f"MUTATION {relative(module)} lines {lines}: {len(selected)} tests")
        code = _run_tests(selected, base, tree, timeout) if selected else 0
    if code == 0:
        print("MUTATION SURVIVED" + ("" if selected else ": no test runs these lines"))
    return code


def _run_tests(selected: list[str], base: Path, tree: Path, timeout: float) -> int:
    """pytest on ``selected`` with the mutated core, stopping at the first failure: 0 when all
    pass, non-zero when the mutant is killed, 3 when nothing was collected."""
    started = time.monotonic()
    _die_with_parent()  # with cosmic-ray
    proc = subprocess.Popen(PYTEST + ["-x", "--tb=line", "-rfE", "-o", f"timeout={TEST_TIMEOUT}", *selected],
                            cwd=tree, env=test_env(base / "core", tree,
                                                   base / "service" if (base / "service").exists() else None),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True, preexec_fn=_die_with_parent)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        print(f"MUTATION KILLED: timeout after {timeout:.0f} s")
        return 1
    seconds = time.monotonic() - started
    tail = [line for line in out.splitlines() if line.startswith(("FAILED", "ERROR"))][:3]
    print("\n".join(tail or out.splitlines()[-5:]))
    if proc.returncode == 5:
        print("MUTATION ERROR: no test collected")
        return 3
    if proc.returncode:
        print(f"MUTATION KILLED (pytest exit {proc.returncode}) in {seconds:.1f} s")
    return proc.returncode


# --- the report ----------------------------------------------------------------------------------

def report(workdir: Path, fail_on_survivor: bool = False) -> int:
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator
    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    meta = json.loads((workdir / "run.json").read_text())
    results, items = {}, {}
    for worker in range(meta["jobs"]):
        with use_db(str(workdir / f"w{worker}" / "session.sqlite")) as db:
            for item in db.work_items:
                items[item.job_id] = item
            for job_id, result in db.results:
                if result.output != SKIP_WORKER or job_id not in results:
                    results[job_id] = result
    sources = Sources(workdir / "pristine")
    keys = mutant_keys(list(items.values()), sources)
    equivalents = load_equivalents()
    rows = defaultdict(Counter)
    survivors, wrongly_listed = [], []
    for job_id, item in items.items():
        module = str(item.mutations[0].module_path)
        result = results.get(job_id)
        if result is None:
            rows[module]["not run"] += 1
        elif result.worker_outcome == WorkerOutcome.SKIPPED and result.output.startswith(SKIP_CARRIED):
            rows[module]["killed"] += 1
            rows[module]["carried"] += 1
        elif result.worker_outcome == WorkerOutcome.SKIPPED:
            why = result.output.split(":")[0]
            rows[module][{SKIP_OPERATOR: "other operators", SKIP_EQUIVALENT: "equivalent",
                          SKIP_SAMPLE: "not sampled"}.get(why, why)] += 1
        elif result.test_outcome == TestOutcome.SURVIVED and listed(keys[job_id], equivalents):
            rows[module]["equivalent"] += 1  # listed since this run
        elif result.test_outcome == TestOutcome.SURVIVED:
            rows[module]["survived"] += 1
            survivors.append((keys[job_id], item, result))
        elif killed(result):
            rows[module]["killed"] += 1
            if listed(keys[job_id], equivalents):
                wrongly_listed.append(keys[job_id])  # listed after the run began, yet a test kills it
        else:
            rows[module]["error"] += 1
            survivors.append((keys[job_id], item, result))
    print(f"\n{'module':24} {'mutants':>7} {'killed':>7} {'survived':>8} {'equiv.':>6} {'error':>5} {'score':>7}")
    total = Counter()
    for module in sorted(rows):
        row = rows[module]
        total.update(row)
        if not meta["sample"] or row["killed"] + row["survived"] + row["error"]:
            print(_row(module, row))
    print(_row("total", total))
    if total["carried"]:
        print(f"({total['carried']} of the kills carried from an earlier run, their definitions unchanged)")
    lines = []
    for key, item, result in sorted(survivors, key=lambda s: s[0]):
        spec = item.mutations[0]
        try:  # the mutated line, for the reader
            mutated = mutate_code((workdir / "pristine" / spec.module_path).read_text(),
                                  get_operator(spec.operator_name)(), spec.occurrence)
        except Exception:  # noqa: BLE001 - cosmic-ray cannot redo some mutations (an exception tuple's)
            mutated = None
        new = mutated.splitlines()[spec.start_pos[0] - 1].strip() if mutated else "?"
        why = "error" if result.test_outcome != TestOutcome.SURVIVED else "survived"
        lines += [f"{key}  -> {new}", f"    {why} at line {spec.start_pos[0]}"]
        lines += [f"    {line}" for line in (result.output or "").splitlines() if line.startswith("MUTATION")]
    (workdir / "survivors.txt").write_text("\n".join(lines) + "\n")
    stale = set(equivalents) - {entry_of(key, equivalents) for key in keys.values()}
    if stale and not meta["sample"] and not meta["games"]:
        print(f"\n{len(stale)} entries of {EQUIVALENT.relative_to(ROOT)}/*.txt match no mutant (code changed?):")
        print("\n".join(f"  {k}" for k in sorted(stale)))
    if wrongly_listed:
        print(f"\n{len(wrongly_listed)} mutants listed in {EQUIVALENT.relative_to(ROOT)}/*.txt are killed "
              "by a test: not equivalent, drop their entries:")
        print("\n".join(f"  {k}" for k in sorted(wrongly_listed)))
    if survivors:
        print(f"\n{len(survivors)} surviving mutants (with their diff: {(workdir / 'survivors.txt')}):")
        print("\n".join(f"  {line}" for line in lines if not line.startswith("    MUTATION")))
        if fail_on_survivor:
            print("\nA mutant survived: add the test of the rule it breaks, or list it in "
                  f"{EQUIVALENT.relative_to(ROOT)}/<game>.txt with the reason it is equivalent.")
            return 1
    return 0


def _row(name: str, row: Counter) -> str:
    tested = row["killed"] + row["survived"] + row["error"]
    score = f"{100 * row['killed'] / tested:.1f}%" if tested else "-"
    return (f"{name:24} {tested + row['equivalent']:>7} {row['killed']:>7} {row['survived']:>8} "
            f"{row['equivalent']:>6} {row['error']:>5} {score:>7}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--game", action="append", default=[], help="a game id, platform or service (repeatable)")
    p.add_argument("--module", action="append", default=[], help="core/NAME.py or service/NAME.py (repeatable)")
    p.add_argument("--sample", type=int, default=0, help="test N mutants chosen at random")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--rerun", metavar="WORKDIR", help="test again only the survivors of that earlier run")
    p.add_argument("--carry", metavar="WORKDIR",
                   help="count as killed, untested, the mutants killed in that earlier run whose top-level "
                        "definition is unchanged")
    p.add_argument("--resume", metavar="WORKDIR", help="go on with a run that was stopped (the other options are the run's)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=600.0, help="most seconds for one mutant")
    p = sub.add_parser("report")
    p.add_argument("--workdir", default=str(WORK / "all"))
    p = sub.add_parser("modules")
    p.add_argument("--game", action="append", default=[])
    p = sub.add_parser("test")
    p.add_argument("--workdir", required=True)
    p.add_argument("--worker", type=int, required=True)
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args)
    if args.command == "report":
        return report(Path(args.workdir).resolve())
    if args.command == "modules":
        print("\n".join(relative(m) for m in select_modules(args.game)))
        return 0
    return test(args)


if __name__ == "__main__":
    sys.exit(main())
