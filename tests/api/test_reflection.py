"""Reflection as grpcurl, Postman and grpcui use it: v1 and v1alpha, the API's comments in the
files returned, and a method's symbol found (service/reflection.py)."""
import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection_pb2

PATHS = ("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
         "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo")


def ask(channel, path, **request):
    call = channel.stream_stream(path, request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                 response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    return next(iter(call(iter([reflection_pb2.ServerReflectionRequest(**request)]), timeout=10)))


@pytest.mark.parametrize("path", PATHS)
def test_reflection_lists_the_services_on_v1_and_v1alpha(channel, path):
    names = {s.name for s in ask(channel, path, list_services="").list_services_response.service}
    assert {"referee.v1.RefereeService", "referee.mcr.v1.McrService", "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} <= names


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("symbol", ["referee.v1.RefereeService", "referee.v1.RefereeService.Play",
                                    "referee.v1.PlayRequest.expected_seq"])
def test_reflection_describes_with_the_proto_comments(channel, path, symbol):
    reply = ask(channel, path, file_containing_symbol=symbol)
    files = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in reply.file_descriptor_response.file_descriptor_proto]
    (service_file,) = [f for f in files if f.name == "referee/v1/referee_service.proto"]
    comments = " ".join(loc.leading_comments for loc in service_file.source_code_info.location)
    assert "Apply one action" in comments  # Play's doc comment, as grpcurl describe prints it
    assert "referee/v1/actions.proto" in {f.name for f in files}  # with what it imports


def test_reflection_still_says_not_found_for_what_is_not_there(channel):
    reply = ask(channel, PATHS[0], file_containing_symbol="nothing.like.This")
    assert reply.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]


def test_reflection_v1_describes_itself(channel):
    """v1 is listed, so its file is there too: `buf curl --list-methods` and grpcurl describe it."""
    reply = ask(channel, PATHS[0], file_containing_symbol="grpc.reflection.v1.ServerReflection")
    (file,) = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in reply.file_descriptor_response.file_descriptor_proto]
    assert file.package == "grpc.reflection.v1"
    (method,) = file.service[0].method
    assert (method.input_type, method.output_type) == (".grpc.reflection.v1.ServerReflectionRequest",
                                                       ".grpc.reflection.v1.ServerReflectionResponse")
