"""The JSON-lines loop of every ``--jsonl`` command (``referee legal``, ``classify``, the games'
own such as ``referee fan``): one JSON request a line on stdin, one JSON answer a line on stdout,
in order; blank lines are skipped. When a request is an object with an ``id``, its answer is an
object that starts with the same ``id`` (any JSON value, echoed as given), so a caller can join
answers to questions.

JSON in and out is orjson's (compact, UTF-8; the standard library's ``json`` took two thirds of
``referee fan``'s time). Nothing of the standard reading is lost: a line orjson refuses (NaN,
a lone surrogate, a byte-order mark) or may read otherwise (a run of 19 or more digits: an
integer beyond 64 bits, which orjson reads as a float) is read by ``json``, and a value orjson
cannot write by ``json``. An answer a game's core already wrote as JSON text (the hints of
``referee legal``) is written as it is.

Stdin is read as it arrives, a block at a time: every complete line of a block is answered and
the answers are flushed before the next read waits, so a caller that writes one line and waits
gets its answer, and a file of many lines costs one write a block.
"""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Callable, Iterable

import orjson

BLOCK = 1 << 16  # bytes read from stdin at a time
_LONG_NUMBER = re.compile(rb"\d{19}")  # orjson reads an integer beyond 64 bits as a float
_OPTIONS = orjson.OPT_NON_STR_KEYS
_json_out = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_json_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def loads(line: bytes | str) -> Any:
    """One request line decoded as the standard ``json.loads`` decodes it.

    Raises:
        ValueError: the line is not JSON (nested past the recursion limit included).
    """
    raw = line.encode("utf-8", "surrogatepass") if type(line) is str else line
    if _LONG_NUMBER.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(line)
    except RecursionError as error:
        raise ValueError(f"nested too deep: {error}") from None


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON, UTF-8 (a string that is not valid UTF-8 as ``\\u`` escapes)."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # an integer beyond 64 bits, a lone surrogate: the standard encoder
        text = _json_out(value)
        try:
            return text.encode()
        except UnicodeEncodeError:
            return _json_ascii(value).encode()


def answer_line(request: Any, answer: dict | str | bytes) -> bytes:
    """The answer line (no newline): ``answer`` (a dict, or the JSON text of an object) with the
    request's ``id`` first when the request has one."""
    body = answer.encode() if type(answer) is str else answer if type(answer) is bytes else dumps(answer)
    if type(request) is not dict or "id" not in request:
        return body
    rest = body[1:].lstrip()
    return b'{"id":' + dumps(request["id"]) + (b"}" if rest.startswith(b"}") else b"," + rest)


def with_id(request: Any, answer: dict | str) -> str:
    """``answer_line`` as text."""
    return answer_line(request, answer).decode()


def serve(answer: Callable[[Any], dict | str], not_json: Callable[[ValueError], dict],
          lines: Iterable[str | bytes] | None = None, out=None) -> int:
    """Answer every line of ``lines`` (stdin, a block at a time): ``answer(request)`` for each
    decoded line (it answers bad requests itself), ``not_json(error)`` for a line that is no JSON.
    ``out``: stdout, or a binary or text stream. Returns 0."""
    if out is None:
        out = sys.stdout.buffer
    if hasattr(out, "encoding"):  # a text stream
        text_out = out
        write, flush = (lambda data: text_out.write(data.decode())), text_out.flush
    else:
        write, flush = out.write, out.flush
    for block in (_stdin_blocks() if lines is None else ([line] for line in lines)):
        answers = []
        for line in block:
            if not line.strip():
                continue
            try:
                request = loads(line)
            except ValueError as error:
                request, reply = None, not_json(error)
            else:
                reply = answer(request)
            answers.append(answer_line(request, reply))
        if answers:
            answers.append(b"")
            write(b"\n".join(answers))
            flush()
    return 0


def _stdin_blocks() -> Iterable[list[bytes]]:
    """The complete lines of each block read from stdin (the last line may lack its newline)."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's stand-in): line by line
        yield from ([line] for line in sys.stdin)
        return
    rest = b""
    while block := os.read(fd, BLOCK):
        lines = (rest + block).split(b"\n")
        rest = lines.pop()
        yield lines
    if rest:
        yield [rest]
