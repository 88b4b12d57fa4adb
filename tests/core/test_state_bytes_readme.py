"""Every game's padded state is the size README's token table states ("State tokens and keys").

tests/api/test_token.py holds the same table to the tokens a server deals; this holds it to the
games themselves, so a change of a state declaration that moves the size (a Blob's or a Seq's
bound) fails where the game's own tests run."""
import re
from pathlib import Path

from referee.core.registry import GAMES


def readme_padded_states() -> dict[str, int]:
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text.split("## State tokens and keys", 1)[1].split("\n## ", 1)[0]
    return {g: int(a.replace(",", "")) for g, a in re.findall(r"^\| `(\w+)` \| ([\d,]+) \| [\d,]+ \|$", section, re.M)}


def test_every_game_pads_its_state_to_the_size_readme_states():
    shipped = {g: game for g, game in GAMES.items() if type(game).__module__.startswith("referee.core.games.")}
    table = readme_padded_states()
    assert set(table) == set(shipped) and len(table) == 9
    assert {g: game.state_bytes for g, game in shipped.items()} == table
    for game in shipped.values():
        assert game.codec.max_size() <= game.state_bytes, game.id
