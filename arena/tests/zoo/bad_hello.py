#!/usr/bin/env python3
"""bad_hello.py MODE: answers the arena's hello with a bad hello, then plays correctly.
  empty_name        {"type":"hello","name":""}
  version_number    {"type":"hello","name":"bad-hello","version":2}
  protocol_string   {"type":"hello","name":"bad-hello","protocol":"1"}
  bom               a UTF-8 byte order mark (EF BB BF), then a good hello
  no_type           {"name":"bad-hello"}

Expected: a `startup` fault whose detail names the field and why (or the byte order mark).
"""
import sys

import zoo_common as zoo

HELLOS = {
    "empty_name": b'{"type":"hello","name":""}',
    "version_number": b'{"type":"hello","name":"bad-hello","version":2}',
    "protocol_string": b'{"type":"hello","name":"bad-hello","protocol":"1"}',
    "bom": b'\xef\xbb\xbf{"type":"hello","name":"bad-hello"}',
    "no_type": b'{"name":"bad-hello"}',
}
MODE = sys.argv[1]

while True:
    message = zoo.read_message()
    if message is None or message.get("type") == "match_end":
        break
    if message.get("type") == "hello":
        zoo.send_raw(HELLOS[MODE] + b"\n")
    elif message.get("type") == "request":
        zoo.send(zoo.safe_answer(message))
