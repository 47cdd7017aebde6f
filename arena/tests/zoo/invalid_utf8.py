#!/usr/bin/env python3
"""invalid_utf8.py: answers hello correctly, then answers every request with the bytes
0xff 0xfe and a newline (never valid UTF-8).

Expected: an `invalid_utf8` fault at every request.
"""
import zoo_common as zoo

zoo.play("invalid-utf8", on_request=lambda request: zoo.send_raw(b"\xff\xfe\n"))
