"""Which server model: Ping calls/s of a sync thread-pool server and of a grpc.aio server.

Each server runs in its own process; the client here is grpc.aio with 16 calls in flight.
Run: .venv/bin/python loadtest/sync_vs_aio.py
"""
import asyncio
import multiprocessing as mp
import time

import grpc
from concurrent import futures
from referee.v1 import referee_service_pb2 as pb, referee_service_pb2_grpc as pb_grpc

class Sync(pb_grpc.RefereeServiceServicer):
    def Ping(self, request, context): return pb.PingResponse()
class Aio(pb_grpc.RefereeServiceServicer):
    async def Ping(self, request, context): return pb.PingResponse()

def run_sync(port_q):
    s = grpc.server(futures.ThreadPoolExecutor(16)); pb_grpc.add_RefereeServiceServicer_to_server(Sync(), s)
    port = s.add_insecure_port("127.0.0.1:0"); s.start(); port_q.put(port); s.wait_for_termination()
def run_aio(port_q):
    async def main():
        s = grpc.aio.server(); pb_grpc.add_RefereeServiceServicer_to_server(Aio(), s)
        port = s.add_insecure_port("127.0.0.1:0"); await s.start(); port_q.put(port); await s.wait_for_termination()
    asyncio.run(main())

def client(port, seconds=4.0, conc=16):
    async def main():
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = pb_grpc.RefereeServiceStub(ch); n = 0; end = time.perf_counter() + seconds
            async def loop():
                nonlocal n
                while time.perf_counter() < end:
                    await stub.Ping(pb.PingRequest()); n += 1
            await asyncio.gather(*(loop() for _ in range(conc)))
            return n / seconds
    return asyncio.run(main())

if __name__ == "__main__":
    for rnd in range(2):
        for name, fn in (("sync", run_sync), ("aio", run_aio)):
            q = mp.Queue(); p = mp.Process(target=fn, args=(q,)); p.start(); port = q.get()

            rate = client(port)
            p.terminate(); p.join()
            print(name, round(rate))
