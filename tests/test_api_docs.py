"""The committed API reference (docs/api/) is what sabledocs makes of the current protos."""
import filecmp
import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("api_docs", ROOT / "docs" / "api_docs.py")
api_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(api_docs)


def differences(a: Path, b: Path, prefix="") -> list[str]:
    """Files only in one tree or whose bytes differ, as paths relative to the roots."""
    cmp = filecmp.dircmp(a, b)
    found = [f"{prefix}{name} (only in the committed docs)" for name in cmp.left_only]
    found += [f"{prefix}{name} (missing from the committed docs)" for name in cmp.right_only]
    found += [f"{prefix}{name} (differs)" for name in cmp.common_files
              if (a / name).read_bytes() != (b / name).read_bytes()]
    for name in cmp.common_dirs:
        found += differences(a / name, b / name, f"{prefix}{name}/")
    return found


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    if not api_docs.DEFAULT_SABLEDOCS.exists():
        message = f"sabledocs is not installed at {api_docs.DEFAULT_SABLEDOCS}: run `make api-docs-tool`"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out = tmp_path_factory.mktemp("api") / "api"
    api_docs.generate(out, api_docs.DEFAULT_SABLEDOCS)
    return out


def test_committed_reference_is_current(regenerated):
    stale = differences(api_docs.DEFAULT_OUT, regenerated)
    assert not stale, ("docs/api/ is stale: run `make api-docs` and commit it. Differences: "
                       + ", ".join(stale))


def test_reference_documents_every_call(regenerated):
    page = (regenerated / "referee.v1.html").read_text()
    for call in ("ListGames", "Deal", "Validate", "Play", "LegalActions", "Score", "Replay"):
        assert f">{call}<" in page or f"{call}</" in page, call
    # the .proto comments reach the reference
    assert "seat_credentials" in page


def test_comparison_sees_a_changed_file(regenerated, tmp_path):
    import shutil

    copy = tmp_path / "api"
    shutil.copytree(regenerated, copy)
    (copy / "index.html").write_text("changed")
    (copy / "extra.html").write_text("extra")
    assert differences(regenerated, copy) == ["extra.html (missing from the committed docs)", "index.html (differs)"]
