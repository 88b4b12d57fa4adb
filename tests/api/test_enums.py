"""The proto enums mirror the core's, name for name and number for number."""
import pytest

from referee.core.errors import Reason
from referee.core.game import ActionType
from referee.v1 import actions_pb2, errors_pb2


@pytest.mark.parametrize("proto_enum, core_enum", [
    (errors_pb2.ReasonCode, Reason),
    (actions_pb2.ActionType, ActionType),
])
def test_proto_enum_equals_core_enum(proto_enum, core_enum):
    proto = {v.name: v.number for v in proto_enum.DESCRIPTOR.values}
    core = {m.name: m.value for m in core_enum}
    assert proto == core
