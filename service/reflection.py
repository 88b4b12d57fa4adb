"""Server reflection, v1 and v1alpha, with the API's comments.

grpcio-reflection implements ``grpc.reflection.v1alpha.ServerReflection``; v1 (what current
grpcurl, Postman and grpcui ask for) is the same service under another package name, with the same
messages field for field, so the same servicer answers both (its messages' bytes are v1's). The
files it returns for the API's protos are the build's own (``api.binpb``, written by setup.py with
``--include_source_info``), so ``grpcurl describe`` shows the .proto comments; and a symbol inside
a file (a method ``referee.v1.RefereeService.Play``, a field, an enum value) finds the file of
what holds it.
"""
from __future__ import annotations

from pathlib import Path

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

V1 = "grpc.reflection.v1.ServerReflection"
DESCRIPTORS = Path(__file__).with_name("api.binpb")  # written by the build; absent in a source tree


def _add_v1_file() -> None:
    """Put grpc/reflection/v1/reflection.proto in the default pool, so that v1 can be described:
    v1alpha's file with its package renamed (the messages are the same field for field)."""
    pool = descriptor_pool.Default()
    try:
        pool.FindServiceByName(V1)
        return
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    old, new = f".{file.package}.", f".{V1.rpartition('.')[0]}."
    file.name, file.package = "grpc/reflection/v1/reflection.proto", new.strip(".")
    for method in file.service[0].method:
        method.input_type, method.output_type = (t.replace(old, new) for t in (method.input_type, method.output_type))
    for message in file.message_type:
        for field in message.field:
            if field.type_name:
                field.type_name = field.type_name.replace(old, new)
    pool.AddSerializedFile(file.SerializeToString())


def _files_with_comments() -> dict[str, bytes]:
    if not DESCRIPTORS.exists():
        return {}
    files = descriptor_pb2.FileDescriptorSet.FromString(DESCRIPTORS.read_bytes())
    return {f.name: f.SerializeToString() for f in files.file if f.HasField("source_code_info")}


class Reflection(reflection.ReflectionServicer):
    """grpcio-reflection's servicer, answering with the commented files and finding the file of
    a nested symbol."""

    def __init__(self, service_names):
        super().__init__(service_names)
        self._commented = _files_with_comments()

    def _answer(self, descriptor, request):
        seen, todo, protos = set(), [descriptor], []
        while todo:
            file = todo.pop()
            if file.name in seen:
                continue
            seen.add(file.name)
            todo.extend(file.dependencies)
            known = self._commented.get(file.name)
            if known is None:
                proto = descriptor_pb2.FileDescriptorProto()
                file.CopyToProto(proto)
                known = proto.SerializeToString()
            protos.append(known)
        return reflection_pb2.ServerReflectionResponse(
            file_descriptor_response=reflection_pb2.FileDescriptorResponse(file_descriptor_proto=protos),
            original_request=request)

    def _file_by_filename(self, request, filename):
        try:
            return self._answer(self._pool.FindFileByName(filename), request)
        except KeyError:
            return super()._file_by_filename(request, filename)

    def _file_containing_symbol(self, request, fully_qualified_name):
        name = fully_qualified_name
        while name:  # a method, field or enum value: the file of its service, message or enum
            try:
                return self._answer(self._pool.FindFileContainingSymbol(name), request)
            except KeyError:
                name = name.rpartition(".")[0]
        return super()._file_containing_symbol(request, fully_qualified_name)


def enable(service_names, server: grpc.Server) -> None:
    """Serve reflection v1alpha and v1 on ``server`` for ``service_names`` (both listed too)."""
    _add_v1_file()
    servicer = Reflection((*service_names, reflection.SERVICE_NAME, V1))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo, request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(V1, {"ServerReflectionInfo": handler}),))
