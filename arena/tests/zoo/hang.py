#!/usr/bin/env python3
"""hang.py: answers hello, then never answers a request.

It keeps reading stdin (so the arena can always write to it) and leaves at match_end.
Expected: a `timeout` fault at every request once the decision time and the bank are
spent; the arena applies pack / keep / refuse.
"""
import zoo_common as zoo

zoo.play("hang", on_request=lambda request: None)
