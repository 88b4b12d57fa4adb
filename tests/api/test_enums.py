"""The proto enums name exactly the core's common names: the reasons every game gives and the
action kinds every game reads (a game's own reasons and kinds are strings, not enum values)."""
import pytest

from referee.core.errors import COMMON_REASONS
from referee.core.game import COMMON_KINDS
from referee.v1 import actions_pb2, errors_pb2


@pytest.mark.parametrize("proto_enum, prefix, core_names", [
    (errors_pb2.ReasonCode, "REASON_CODE_", COMMON_REASONS),
    (actions_pb2.ActionKind, "ACTION_KIND_", COMMON_KINDS),
])
def test_proto_enum_names_equal_the_core_common_names(proto_enum, prefix, core_names):
    proto = {v.name for v in proto_enum.DESCRIPTOR.values}
    core = {prefix + name for name in core_names} | {prefix + "UNSPECIFIED"}
    assert proto == core
    assert proto_enum.Value(prefix + "UNSPECIFIED") == 0
    assert len({v.number for v in proto_enum.DESCRIPTOR.values}) == len(proto)  # no aliases
