"""The Dockerfile, without a Docker engine: its shape (multi-stage, slim non-root runtime with no
compiler, a whitelist build context), and the wheel it installs, built here by its own
`pip wheel` command from exactly the files it copies: the compiled core and the generated
protos are in it, built from the tree's sources like the package `make test` (.ci/run)
installed and tested.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "Dockerfile"
BUILD_ARTIFACTS = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.c")


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for instruction in _instructions():
        if instruction[0] == "FROM":
            stages.append([])
        if stages:
            stages[-1].append(instruction)
    return stages


def _copied(stage) -> list[str]:
    """The sources of the stage's COPY instructions from the build context."""
    return [source for word, args in stage if word == "COPY" and "--from" not in args
            for source in args.split()[:-1]]


def _wheel_command(stage) -> list[str]:
    (run,) = [args for word, args in stage if word == "RUN" and " pip wheel " in f" {args} "]
    return shlex.split(run)


def test_multi_stage_slim_non_root_runtime():
    build, runtime = _stages()
    assert build[0][1].endswith(" AS build") and "slim" not in build[0][1]
    assert "-slim" in runtime[0][1]  # no compiler in a slim image, and the runtime installs none:
    runtime_text = " ".join(args for _, args in runtime)
    assert not re.search(r"apt-get install|apk add|build-essential|pip install.*cython", runtime_text, re.I)
    install = [args for word, args in runtime if word == "RUN" and "pip install" in args]
    assert install and "--no-index" in install[0] and "from=build" in install[0]  # only the built wheels
    (user,) = [args for word, args in runtime if word == "USER"]
    assert int(user.split(":")[0]) > 0
    assert [args for word, args in runtime if word == "ENTRYPOINT"] == ['["referee"]']
    assert any(".ci/check_build.py" in args for word, args in build if word == "RUN")


def test_build_context_is_a_whitelist_of_what_is_copied():
    patterns = [p.strip() for p in (REPO / ".dockerignore").read_text().splitlines()
                if p.strip() and not p.startswith("#")]
    assert patterns[0] == "*"
    for source in _copied(_stages()[0]):
        assert f"!{source}" in patterns, f"{source} is copied but not in the build context"
        assert (REPO / source).exists()


@pytest.mark.slow
def test_the_wheel_the_image_installs(tmp_path):
    build = _stages()[0]
    context = tmp_path / "src"
    context.mkdir()
    for source in _copied(build):
        src, dst = REPO / source, context / source
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=BUILD_ARTIFACTS)
        else:
            shutil.copyfile(src, dst)
    argv = _wheel_command(build)
    assert argv[:4] == ["python", "-m", "pip", "wheel"] and argv[-1] == "."
    wheels = tmp_path / "wheels"
    # The Dockerfile's command, with the wheels written here; the dependencies are PyPI's own
    # wheels (not built), and the build requirements come from this venv instead of PyPI.
    argv = [sys.executable if a == "python" else str(wheels) if a == "/wheels" else a for a in argv]
    argv[-1:-1] = ["--no-deps", "--no-build-isolation", "--quiet"]
    done = subprocess.run(argv, cwd=context, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = wheels.glob("referee-*.whl")
    assert "-py3-none-any" not in wheel.name, "a platform wheel: it holds compiled extensions"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = z.read("referee/core/_build_info.py").decode()
    core = REPO / "core"
    hot = {".".join(p.relative_to(core).with_suffix("").parts): hashlib.sha256(p.read_bytes()).hexdigest()
           for p in sorted(core.glob("games/*/hot.py"))}
    assert hot, "the core has hot modules to compile"
    for name in hot:
        path = name.replace(".", "/")
        assert any(re.fullmatch(rf"referee/core/{path}_c\..*\.so", n) for n in names), f"{name}_c missing"
    assert "referee/v1/referee_service_pb2.py" in names and "referee/service/server.py" in names
    built = {}
    for node in ast.parse(info).body:
        if isinstance(node, ast.Assign):
            built[node.targets[0].id] = ast.literal_eval(node.value)
    assert built["BUILT_COMPILED"] is True
    assert built["HOT_SOURCES"] == hot
    # the same build as the package .ci/run installed and tested: same sources, same files
    from referee.core import _build_info

    assert _build_info.HOT_SOURCES == hot
    site = Path(_build_info.__file__).resolve().parents[2]  # not a referee.egg-info of the tree
    (dist,) = [d for d in importlib.metadata.distributions(path=[str(site)]) if d.metadata["Name"] == "referee"]
    installed = {str(f) for f in dist.files if str(f).startswith("referee/") and not str(f).endswith(".pyc")}
    assert {n for n in names if n.startswith("referee/")} == installed
