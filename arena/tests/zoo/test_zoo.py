"""Checks that each zoo bot misbehaves exactly as its header says (and in no other way).

This does not test the arena: it pins down the bots the arena's integration tests rely on.
Run from the repository root (about 15 seconds):
    python3 -m unittest discover -s arena/tests/zoo -p 'test_*.py'

memory_hog.py runs here under a 256 MiB address-space limit (RLIMIT_AS) only.
"""

import json
import os
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

HELLO = {"type": "hello", "protocol": 1, "game": "closest-555",
         "settings": {"variant": "closest-555", "boot": 1, "max_stake": 64, "pot_limit": 1024,
                      "sideshow": True, "sequence_order": "a23-high", "blind_limit": 4,
                      "swap_cost": 0, "max_turns": 500},
         "seat": 0, "seats": 2, "hands": 10, "first_hand": 0, "seed": 1,
         "players": ["zoo", "other"],
         "time": {"startup_ms": 5000, "decision_ms": 1000, "bank_ms": 10000}}


def bet_request(request_id):
    return {"type": "request", "id": request_id, "hand": 0, "kind": "bet",
            "legal": [{"action": "pack"},
                      {"action": "bet", "min": 2, "max": 4, "multiple_of": 2},
                      {"action": "show", "cost": 2}],
            "pot": 2, "stake": 1, "cards": ["5s", "Kd", "9h"],
            "players": [{"in_hand": True, "seen": True, "dead": False, "put_in": 1, "turns": 0,
                         "swaps": 0}] * 2, "time_ms": 1000, "bank_ms": 10000}


def swap_request(request_id):
    return {"type": "request", "id": request_id, "hand": 0, "kind": "swap",
            "legal": [{"action": "swap", "cards": ["5s", "Kd", "9h"], "cost": 0},
                      {"action": "keep"}],
            "pot": 2, "stake": 1, "cards": ["5s", "Kd", "9h"], "players": [],
            "time_ms": 1000, "bank_ms": 10000}


def reply_request(request_id):
    return {"type": "request", "id": request_id, "hand": 0, "kind": "sideshow_reply",
            "legal": [{"action": "accept"}, {"action": "refuse"}], "pot": 6, "stake": 1,
            "cards": ["5s", "Kd", "9h"], "players": [], "time_ms": 1000, "bank_ms": 10000}


MATCH_END = {"type": "match_end", "hands": 10, "totals": [0, 0]}


class Zoo:
    """One zoo bot in its own process group (so that its children can be ended too)."""

    def __init__(self, script, *args, limit_memory=None, stderr_to_file=True):
        def preexec():
            if limit_memory:
                resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

        self.stderr = tempfile.TemporaryFile() if stderr_to_file else subprocess.PIPE
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, script)] + list(args),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0,
            start_new_session=True, preexec_fn=preexec if limit_memory else None)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.buffer = b""

    def send(self, message):
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout=5.0, limit=1 << 20):
        """The next line as bytes (without the newline); None on timeout or EOF.
        Stops with what it has once `limit` bytes have come without a newline."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer and len(self.buffer) < limit:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        if b"\n" not in self.buffer:
            line, self.buffer = self.buffer, b""
            return line
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def read_json(self, timeout=5.0):
        line = self.read_line(timeout)
        return None if line is None else json.loads(line)

    def hello(self):
        self.send(HELLO)
        answer = self.read_json()
        assert answer and answer["type"] == "hello", answer
        return answer

    def log(self):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # this bot's own process group
        except ProcessLookupError:
            pass
        self.process.wait()
        self.selector.close()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        if self.stderr is not subprocess.PIPE:
            self.stderr.close()


class ZooTests(unittest.TestCase):
    def start(self, script, *args, **options):
        bot = Zoo(script, *args, **options)
        self.addCleanup(bot.close)
        return bot

    def test_hang_answers_hello_only(self):
        bot = self.start("hang.py")
        bot.hello()
        bot.send(bet_request(1))
        self.assertIsNone(bot.read_line(timeout=1.5))
        bot.send(MATCH_END)
        self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_slow_answers_after_three_seconds(self):
        bot = self.start("slow.py")
        bot.hello()
        start = time.monotonic()
        bot.send(bet_request(7))
        self.assertEqual(bot.read_json(timeout=6), {"id": 7, "action": "pack"})
        self.assertGreaterEqual(time.monotonic() - start, 2.9)

    def test_crash_mid_hand_exits_with_3_at_the_second_request(self):
        bot = self.start("crash_mid_hand.py")
        bot.hello()
        bot.send(swap_request(1))
        self.assertEqual(bot.read_json(), {"id": 1, "action": "keep"})
        bot.send(bet_request(2))
        self.assertEqual(bot.process.wait(timeout=5), 3)
        self.assertIsNone(bot.read_line(timeout=0.5))

    def test_exit_at_start(self):
        bot = self.start("exit_at_start.py")
        self.assertEqual(bot.process.wait(timeout=5), 1)
        self.assertIsNone(bot.read_line(timeout=0.5))

    def test_garbage(self):
        bot = self.start("garbage.py")
        bot.hello()
        bot.send(bet_request(1))
        line = bot.read_line()
        self.assertIsNotNone(line)
        with self.assertRaises(ValueError):
            json.loads(line)

    def test_debug_stdout_prints_a_line_of_text_before_each_answer(self):
        bot = self.start("debug_stdout.py")
        bot.hello()
        for request_id in (1, 2):
            bot.send(bet_request(request_id))
            self.assertEqual(bot.read_line(), f"thinking about request {request_id}".encode())
            self.assertEqual(json.loads(bot.read_line()), {"id": request_id, "action": "pack"})

    def test_illegal_alternates_bad_parameters_and_actions_not_offered(self):
        bot = self.start("illegal.py")
        bot.hello()
        answers = []
        for request_id, make in enumerate([bet_request, bet_request, swap_request,
                                           swap_request, reply_request, reply_request], 1):
            request = make(request_id)
            bot.send(request)
            answer = bot.read_json()
            self.assertEqual(answer["id"], request_id)
            answers.append(answer)
        self.assertEqual(answers[0]["amount"], 999999)
        self.assertEqual(answers[1]["action"], "accept")
        self.assertEqual(answers[2]["action"], "swap")
        self.assertNotIn(answers[2]["card"], ["5s", "Kd", "9h"])
        self.assertEqual(answers[3]["action"], "show")
        self.assertEqual(answers[4]["action"], "bet")
        self.assertEqual(answers[5]["action"], "sideshow")

    def test_wrong_id(self):
        bot = self.start("wrong_id.py")
        bot.hello()
        bot.send(bet_request(5))
        self.assertEqual(bot.read_json(), {"id": 1005, "action": "pack"})

    def test_reused_id_answers_with_the_previous_request_id(self):
        bot = self.start("reused_id.py")
        bot.hello()
        bot.send(bet_request(3))
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})
        bot.send(bet_request(5))
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})

    def test_other_seat_id_answers_with_an_id_it_was_never_sent(self):
        bot = self.start("other_seat_id.py")
        bot.hello()
        bot.send(bet_request(0))
        self.assertEqual(bot.read_json(), {"id": 0, "action": "pack"})
        bot.send(bet_request(1))
        self.assertEqual(bot.read_json(), {"id": 1, "action": "pack"})
        bot.send(bet_request(4))
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})

    def test_numbers_writes_its_numbers_as_told(self):
        for mode, line in [("whole", b'{"id":7.0,"action":"bet","amount":2.0}'),
                           ("fraction", b'{"id":7,"action":"bet","amount":2.5}'),
                           ("huge", b'{"id":7,"action":"bet","amount":18446744073709551616}')]:
            bot = self.start("numbers.py", mode)
            bot.hello()
            bot.send(bet_request(7))
            self.assertEqual(bot.read_line(), line)
            bot.send(swap_request(8))
            self.assertEqual(bot.read_json(), {"id": 8, "action": "keep"})

    def test_bad_hello_sends_the_hello_of_its_mode(self):
        for mode, prefix in [("empty_name", b'{"type":"hello","name":""}'),
                             ("version_number", b'{"type":"hello","name":"bad-hello","version":2}'),
                             ("protocol_string", b'{"type":"hello","name":"bad-hello","protocol":"1"}'),
                             ("bom", b'\xef\xbb\xbf{"type":"hello"'),
                             ("no_type", b'{"name":"bad-hello"}')]:
            bot = self.start("bad_hello.py", mode)
            bot.send(HELLO)
            self.assertTrue(bot.read_line().startswith(prefix), mode)
            bot.send(bet_request(2))
            self.assertEqual(bot.read_json(), {"id": 2, "action": "pack"})
            bot.send(MATCH_END)
            self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_no_hello(self):
        bot = self.start("no_hello.py")
        bot.send(HELLO)
        self.assertIsNone(bot.read_line(timeout=1.0))
        bot.process.stdin.close()
        self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_invalid_utf8(self):
        bot = self.start("invalid_utf8.py")
        bot.hello()
        bot.send(bet_request(1))
        self.assertEqual(bot.read_line(), b"\xff\xfe")

    def test_long_line_writes_more_than_the_limit_without_a_newline(self):
        bot = self.start("long_line.py")
        bot.hello()
        bot.send(bet_request(1))
        data = bot.read_line(timeout=5, limit=1 << 20)  # read 1 MiB of it, then stop
        self.assertGreaterEqual(len(data), 1 << 20)
        self.assertNotIn(b"\n", data)

    def test_stderr_flood_still_answers_while_nobody_reads_its_stderr(self):
        # stderr is a pipe nobody reads: the flood blocks at once, the game goes on.
        bot = self.start("stderr_flood.py", stderr_to_file=False)
        bot.hello()
        for request_id in range(1, 4):
            bot.send(bet_request(request_id))
            self.assertEqual(bot.read_json(), {"id": request_id, "action": "pack"})
        bot.send(MATCH_END)
        self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_unsolicited_repeats_each_answer(self):
        bot = self.start("unsolicited.py")
        bot.hello()
        bot.send(bet_request(3))
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})
        bot.send(MATCH_END)
        self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_unsolicited_flood_pads_copies_of_each_answer(self):
        bot = self.start("unsolicited.py", "--flood", "3")
        bot.hello()
        bot.send(bet_request(3))
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})
        self.assertEqual(bot.read_json(), {"id": 3, "action": "pack"})
        for _ in range(3):
            copy = bot.read_json()
            self.assertEqual((copy["id"], copy["action"], len(copy["pad"])), (3, "pack", 60000))
        self.assertIsNone(bot.read_line(timeout=0.5))
        bot.send(MATCH_END)
        self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_unsolicited_big_pads_each_answer_and_sends_nothing_else(self):
        bot = self.start("unsolicited.py", "--big")
        bot.hello()
        bot.send(bet_request(3))
        answer = bot.read_json()
        self.assertEqual((answer["id"], answer["action"], len(answer["pad"])), (3, "pack", 60000))
        self.assertIsNone(bot.read_line(timeout=0.5))
        bot.send(MATCH_END)
        self.assertEqual(bot.process.wait(timeout=5), 0)

    def test_traceback_crash_dies_of_a_key_error_at_its_first_request(self):
        bot = self.start("traceback_crash.py")
        bot.hello()
        bot.send(bet_request(1))
        self.assertEqual(bot.process.wait(timeout=5), 1)
        self.assertIsNone(bot.read_line(timeout=0.5))
        log = bot.log()
        self.assertIn("Traceback (most recent call last)", log)
        self.assertTrue(log.rstrip().endswith("KeyError: 'opponent_cards'"), log)

    def test_unsolicited_notes(self):
        bot = self.start("unsolicited.py", "--notes")
        bot.hello()
        bot.send(bet_request(3))
        self.assertEqual([bot.read_json()["id"] for _ in range(2)], [3, 3])
        self.assertEqual(bot.read_json()["type"], "note")

    def test_stop_reading_blocks_the_arena_side_of_the_pipe(self):
        bot = self.start("stop_reading.py")
        bot.hello()
        os.set_blocking(bot.process.stdin.fileno(), False)
        sent, line = 0, json.dumps(bet_request(1)).encode() + b"\n"
        with self.assertRaises(BlockingIOError):
            while sent < 16 << 20:  # a pipe holds far less than 16 MiB
                sent += os.write(bot.process.stdin.fileno(), line)
        self.assertIsNone(bot.process.poll())

    def test_fork_child_keeps_stdout_open_after_the_parent_exits(self):
        bot = self.start("fork_child.py")
        bot.hello()
        bot.send(bet_request(1))
        self.assertEqual(bot.process.wait(timeout=5), 0)
        self.assertIsNone(bot.read_line(timeout=0.5))  # no EOF: the child holds stdout
        os.killpg(bot.process.pid, signal.SIGKILL)    # the group outlives the parent
        self.assertIsNone(bot.read_line(timeout=5))   # now EOF

    def test_ignore_sigterm(self):
        bot = self.start("ignore_sigterm.py")
        bot.hello()
        bot.send(reply_request(1))
        self.assertEqual(bot.read_json(), {"id": 1, "action": "refuse"})
        bot.send(MATCH_END)
        time.sleep(0.3)
        bot.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        self.assertIsNone(bot.process.poll(), "it left at match_end or on SIGTERM")
        bot.process.kill()
        self.assertEqual(bot.process.wait(timeout=5), -signal.SIGKILL)

    def test_memory_hog_dies_at_the_memory_limit(self):
        bot = self.start("memory_hog.py", limit_memory=256 << 20)
        bot.hello()
        bot.send(bet_request(1))
        self.assertNotEqual(bot.process.wait(timeout=20), 0)
        self.assertIn("MemoryError", bot.log())

    def test_cpu_spin_never_answers(self):
        bot = self.start("cpu_spin.py")
        bot.hello()
        bot.send(bet_request(1))
        self.assertIsNone(bot.read_line(timeout=1.5))
        self.assertIsNone(bot.process.poll())

    def test_network_reports_each_attempt(self):
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(1)
            port = listener.getsockname()[1]
            bot = self.start("network.py", "127.0.0.1:%d" % port, "127.0.0.1:9")
            bot.hello()
            bot.send(bet_request(1))
            self.assertEqual(bot.read_json(), {"id": 1, "action": "pack"})
        log = bot.log()
        self.assertIn("network: 127.0.0.1:%d connected" % port, log)
        self.assertIn("network: 127.0.0.1:9 failed", log)

    def test_read_other_reports_each_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".secret") as secret:
            secret.write("the other bot's strategy\n")
            secret.flush()
            bot = self.start("read_other.py", secret.name, "/nonexistent/file")
            bot.hello()
            bot.send(swap_request(1))
            self.assertEqual(bot.read_json(), {"id": 1, "action": "keep"})
        log = bot.log()
        self.assertIn("read 25 bytes: b\"the other bot's strategy", log)
        self.assertIn("/nonexistent/file failed", log)


if __name__ == "__main__":
    unittest.main()
