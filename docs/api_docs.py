"""Write the API reference (docs/api/) from protos/ with sabledocs: `make api-docs` runs it.

The .proto files are compiled with their comments into a descriptor set (grpc_tools.protoc, as
setup.py does for reflection), then sabledocs renders it to static HTML (no timestamps, no
paths, no external assets). sabledocs pins protobuf < 7 while the service needs 7, so it lives
in its own virtual environment (`make api-docs-tool`, version pinned in
docs/sabledocs-requirements.txt); tests/test_api_docs.py regenerates into a temporary folder and
compares.

    python docs/api_docs.py [--out DIR] [--sabledocs PATH]
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
DEFAULT_OUT = ROOT / "docs" / "api"
# beside the project's .venv: `make api-docs-tool` creates it
DEFAULT_SABLEDOCS = ROOT / ".venv" / "sabledocs" / "bin" / "sabledocs"

CONFIG = """\
module-title = "Referee API"
input-descriptor-file = "api.binpb"
output-dir = "out"
member-ordering = "preserve"
footer-content = "Generated from protos/ by sabledocs (make api-docs); do not edit."
"""


def descriptor_set(path: Path) -> None:
    """Compile every .proto under protos/referee with its comments into one descriptor set."""
    from importlib.resources import files

    from grpc_tools import protoc

    sources = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.glob("referee/**/*.proto"))
    args = ["grpc_tools.protoc", f"-I{PROTOS}", f"-I{files('grpc_tools') / '_proto'}",
            f"--descriptor_set_out={path}", "--include_source_info", "--include_imports", *sources]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed on " + " ".join(sources))


def generate(out: Path, sabledocs: Path) -> None:
    """Replace `out` with the reference rendered from the current protos.

    Raises:
        FileNotFoundError: sabledocs is not installed at `sabledocs`.
    """
    sabledocs = sabledocs.absolute()
    if not sabledocs.exists():
        raise FileNotFoundError(f"{sabledocs} is missing: run `make api-docs-tool`")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        descriptor_set(work / "api.binpb")
        (work / "sabledocs.toml").write_text(CONFIG)
        run = subprocess.run([str(sabledocs)], cwd=work, capture_output=True, text=True)
        if run.returncode != 0 or not (work / "out" / "index.html").exists():
            raise SystemExit(f"sabledocs failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(work / "out", out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--sabledocs", type=Path, default=DEFAULT_SABLEDOCS)
    args = parser.parse_args(argv)
    generate(args.out, args.sabledocs)
    print(f"API reference written to {args.out}")


if __name__ == "__main__":
    sys.exit(main())
