"""The JSON-lines loop of every ``--jsonl`` command (``referee legal``, ``classify``, the games'
own such as ``referee fan``): one JSON request a line on stdin, one JSON answer a line on stdout,
in order, flushed line by line; blank lines are skipped. When a request is an object with an
``id``, its answer is an object that starts with the same ``id`` (any JSON value, echoed as
given), so a caller can join answers to questions.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable

_dumps = json.JSONEncoder(ensure_ascii=False).encode


def with_id(request: Any, answer: dict | str) -> str:
    """The answer line: ``answer`` (a dict, or the JSON text of an object) with the request's
    ``id`` first when the request has one."""
    text = answer if type(answer) is str else _dumps(answer)
    if type(request) is not dict or "id" not in request:
        return text
    head = '{"id": ' + _dumps(request["id"])
    rest = text[1:].lstrip()
    return head + ("}" if rest.startswith("}") else ", " + rest)


def serve(answer: Callable[[Any], dict | str], not_json: Callable[[ValueError], dict],
          lines=None, out=None) -> int:
    """Answer every line of ``lines`` (stdin): ``answer(request)`` for each decoded line (it
    answers bad requests itself), ``not_json(error)`` for a line that is no JSON. Returns 0."""
    lines = sys.stdin if lines is None else lines
    out = sys.stdout if out is None else out
    write, flush = out.write, out.flush
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            request, reply = None, not_json(error)
        else:
            reply = answer(request)
        write(with_id(request, reply))
        write("\n")
        flush()
    return 0
