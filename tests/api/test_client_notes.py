"""docs/clients.md's promises about the credential header, held on a real server."""
import base64

import grpc

from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb


def test_the_credential_header_forms_docs_clients_md_lists(raw_stub):
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu"))
    credential = deal.owner_credential
    view = pb.GetViewRequest(state=deal.state)
    url = base64.urlsafe_b64encode(credential).decode()
    std = base64.b64encode(credential).decode()
    for header in (f"Bearer {url.rstrip('=')}", f"Bearer {url}", f"bearer {std}", f"BEARER {std.rstrip('=')}"):
        answer = raw_stub.GetView(view, metadata=(("authorization", header),))
        assert len(answer.views) == 3, header  # the owner's: every seat
    for header in (f"Basic {url}", "Bearer ", f"Bearer {url}!", f"Bearer{url}"):
        try:
            raw_stub.Play(pb.PlayRequest(state=deal.state, action=actions_pb2.Action(seat=deal.to_act[0], kind="PASS")),
                          metadata=(("authorization", header),))
            raise AssertionError(f"{header!r} was accepted")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED, header
