#!/usr/bin/env python3
"""stop_reading.py: answers hello, then never reads stdin again and sleeps forever.

The arena's writes to this bot fill the pipe (about 64 KiB on Linux) and then block.
Expected: a `timeout` at the first request; later a `stdin_blocked` fault when a message
cannot be delivered in time. The arena itself must never hang on the blocked pipe.
"""
import time

import zoo_common as zoo

while True:
    message = zoo.read_message()
    if message is None or message.get("type") == "hello":
        break
if message is not None:
    zoo.send(zoo.hello_answer("stop-reading"))
while True:
    time.sleep(3600)
