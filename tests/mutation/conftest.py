"""tests/mutation's own tests import the runner (mutate.py) beside them."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
