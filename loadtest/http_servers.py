"""Which ASGI server carries the HTTP port: the same Connect application (service/connect.py,
the real servicer) under hypercorn, uvicorn and granian, each in its own process, measured in
one run: Connect JSON Ping and ListGames calls/s from 8 keep-alive HTTP/1.1 client threads
(http.client), and the server process's CPU per call.

Run: .venv/bin/python loadtest/http_servers.py [--seconds 4]  (needs uvicorn and granian installed)
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import os
import socket
import threading
import time

SERVERS = ("hypercorn", "uvicorn", "granian")
CALLS = {"Ping": b"{}", "ListGames": b"{}"}


def app():
    """The HTTP port's application, as `referee serve --http-port` builds it."""
    from referee.service import games
    from referee.service.connect import Calls, application
    from referee.service.server import SERVICE, Config
    from referee.service.servicer import RefereeServicer
    from referee.service.token import KeyRing, Sealer

    servicer = RefereeServicer(Sealer(KeyRing.generate()))
    config = Config()
    return application([(SERVICE, servicer), *games.services()], calls=Calls(config.threads, config.max_concurrent),
                       max_bytes=config.max_receive_bytes, transport_bytes=config.transport_receive_bytes)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(kind: str, port: int) -> None:
    if kind == "hypercorn":
        from referee.service.connect import HttpServer
        HttpServer(app(), "127.0.0.1", port).start()
        threading.Event().wait()
    elif kind == "uvicorn":
        import uvicorn
        uvicorn.run(app(), host="127.0.0.1", port=port, log_level="warning", access_log=False)
    else:
        from granian.constants import Interfaces
        from granian.server.embed import Server
        import asyncio
        asyncio.run(Server(app(), address="127.0.0.1", port=port, interface=Interfaces.ASGI).serve())


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drive(port: int, method: str, seconds: float, threads: int = 8) -> int:
    done, stop = [0] * threads, time.monotonic() + seconds

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.monotonic() < stop:
            conn.request("POST", f"/referee.v1.RefereeService/{method}", CALLS[method],
                         {"content-type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            assert answer.status == 200, answer.status
            done[i] += 1
        conn.close()

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(done)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    print(f"{'server':10} {'call':10} {'calls/s':>8} {'server CPU us/call':>19}")
    for kind in SERVERS:
        port = _free_port()
        proc = mp.get_context("spawn").Process(target=serve, args=(kind, port), daemon=True)
        proc.start()
        for _ in range(200):  # until it listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        for method in CALLS:
            drive(port, method, 0.5)  # warm up
            cpu = _cpu(proc.pid)
            n = drive(port, method, args.seconds)
            used = _cpu(proc.pid) - cpu
            print(f"{kind:10} {method:10} {n / args.seconds:8.0f} {1e6 * used / n:19.0f}", flush=True)
        proc.terminate()
        proc.join()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
