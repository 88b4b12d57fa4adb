"""Build of `referee`: one namespace import root over the top-level folders.

- ``referee.core`` <- ``core/``, ``referee.service`` <- ``service/`` (package-dir).
- ``referee.v1`` is generated at build time from ``protos/referee/**/*.proto`` into the build
  directory (``-I protos``, so generated imports read ``from referee.v1 import x_pb2``): messages,
  gRPC stubs and the Connect code (``*_connect.py``, protoc-gen-connectrpc).
- Every game package's ``core/games/<id>/hot.py`` is also compiled by Cython, from the same source,
  into the extension ``referee.core.games.<id>.hot_c`` (aiohttp pattern); the ``.py`` stays
  installed as the interpreted twin. A missing Cython or C compiler fails the build unless
  ``REFEREE_PURE_PYTHON=1``.
- ``referee/core/_build_info.py`` records the sha256 of each hot source (by its dotted name below
  ``referee.core``, ``games.<id>.hot``) and whether it was compiled.
"""
import hashlib
import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

PURE = os.environ.get("REFEREE_PURE_PYTHON") == "1"
HOT_SOURCES = sorted(Path("core").glob("games/*/hot.py"))
PROTOS = sorted(Path("protos").glob("referee/**/*.proto"))
CYTHON_DIRECTIVES = {"language_level": 3, "boundscheck": False, "wraparound": False, "cdivision": True}


def dotted(source: Path) -> str:
    """A hot source's module name below ``referee.core``: ``games.<id>.hot``."""
    return ".".join(source.relative_to("core").with_suffix("").parts)


def packages(root: str, folder: str) -> list[str]:
    return [root] + [f"{root}.{name}" for name in find_packages(folder)]


class BuildPy(build_py):
    """Copy the packages, then generate referee.v1 and write referee/core/_build_info.py."""

    def run(self):
        # start from an empty tree so a deleted module or .proto never ships from an old build
        shutil.rmtree(Path(self.build_lib) / "referee", ignore_errors=True)
        super().run()
        self.generated = self.run_protoc() + [self.write_build_info()]

    def run_protoc(self) -> list[str]:
        if not PROTOS:
            return []
        from importlib.resources import files

        from grpc_tools import protoc

        out = self.build_lib
        # on PATH in pip's build environment; beside the interpreter in a venv built without isolation
        plugin = shutil.which("protoc-gen-connectrpc", path=os.pathsep.join(
            [os.environ.get("PATH", ""), str(Path(sys.executable).parent)]))
        if plugin is None:
            raise SystemExit("protoc-gen-connectrpc is required to build the Connect code (see pyproject.toml)")
        args = ["grpc_tools.protoc", "-Iprotos", f"-I{files('grpc_tools') / '_proto'}",
                f"--python_out={out}", f"--grpc_python_out={out}", f"--pyi_out={out}",
                f"--plugin=protoc-gen-connectrpc={plugin}", f"--connectrpc_out={out}",
                "--connectrpc_opt=protobuf=google",
                # the API's files with their comments, for reflection (service/reflection.py)
                f"--descriptor_set_out={Path(out, 'referee', 'service', 'api.binpb')}", "--include_source_info",
                "--include_imports", *map(str, PROTOS)]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed on " + " ".join(map(str, PROTOS)))
        return sorted(str(p) for pattern in ("*_pb2*.py*", "*_connect.py", "api.binpb") for p in Path(out, "referee").rglob(pattern))

    def write_build_info(self) -> str:
        digests = {dotted(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in HOT_SOURCES}
        path = Path(self.build_lib) / "referee" / "core" / "_build_info.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('"""Written by setup.py at build time: sha256 of each core/games/*/hot.py."""\n'
                        f"HOT_SOURCES = {digests!r}\n"
                        f"BUILT_COMPILED = {bool(digests) and not PURE!r}\n")
        return str(path)

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + getattr(self, "generated", [])


class BuildHot(build_ext):
    """Cythonize each hot source as hot_c.py (and its .pxd) copied into a folder of its own in the
    build temp dir."""

    def run(self):
        if self.extensions:
            try:
                from Cython.Build import cythonize
            except ImportError:
                raise SystemExit("Cython is required to build the compiled core "
                                 "(or set REFEREE_PURE_PYTHON=1 for a pure-Python build)") from None
            for ext in self.extensions:
                source = Path(ext.sources[0])
                hot_dir = Path(self.build_temp) / "hot" / ext.name
                hot_dir.mkdir(parents=True, exist_ok=True)
                copy = hot_dir / f"{source.stem}_c.py"
                shutil.copyfile(source, copy)
                pxd = source.with_suffix(".pxd")
                if pxd.exists():  # Cython finds a module's own .pxd beside it by the dotted name
                    shutil.copyfile(pxd, hot_dir / f"{ext.name}.pxd")
                ext.sources = [str(copy)]
            generated = {e.name: e.sources for e in cythonize(self.extensions, compiler_directives=CYTHON_DIRECTIVES)}
            for ext in self.extensions:
                ext.sources = generated[ext.name]
        super().run()


setup(
    package_dir={"referee.core": "core", "referee.service": "service"},
    # service/web/static: the page at / of the HTTP port (built by `make web`, committed), data only
    packages=packages("referee.core", "core") + packages("referee.service", "service") + ["referee.service.web.static"],
    package_data={"": ["*.pxd", "*.pyi", "*.json", "py.typed"], "referee.service.web.static": ["*.html", "*.js"]},
    ext_modules=[] if PURE else [
        Extension(f"referee.core.{dotted(p)}_c", [str(p)], extra_compile_args=["-O2"]) for p in HOT_SOURCES
    ],
    cmdclass={"build_py": BuildPy, "build_ext": BuildHot},
)
