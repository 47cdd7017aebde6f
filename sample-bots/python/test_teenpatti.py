"""Tests of the helper module teenpatti.py: evaluators, the legal-set helper, the state.

Run from the repository root:
    python3 -m unittest discover -s sample-bots/python -p 'test_*.py'
"""

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import teenpatti as tp  # noqa: E402

# For each game and sequence order: sha256 of the comma-joined "dense rank" of every one of
# the 22100 hands, in teenpatti.all_hands() order (0 = the worst value, then 1, ...). Computed
# from the Rust rules engine (rules::eval::hand_value), so these pin the Python evaluators to
# the arena's exact order and ties. (number of distinct values, sha256)
RUST_ORDER = {
    ("classic", "a23-high"): (741, "c862f696e7464cb4ce5f330f11a06da19b68b2af014ea2f5f94c304c21909548"),
    ("classic", "akq-high"): (741, "d41702b64021b862533560f7302461274cd0723a53624f3580b73002fcd6ddcd"),
    ("closest-555", "a23-high"): (132, "e9134ab97d26450127cadb8ccf352639872390804cfad2e962e6ec68ef4c2df2"),
    ("lallan-kallan", "a23-high"): (137, "94ee72d8531a6e4bb7d1a737adda0daec65eac9c296572e703f0a0713e9f2d27"),
    ("lallan-kallan", "akq-high"): (137, "6efc3c1e4c455843340ec5cf518c0defd004d52c7eb5890663276b33cc6d0728"),
}


def h(text):
    return text.split()


class EvaluatorTests(unittest.TestCase):
    def test_every_hand_orders_exactly_like_the_rust_engine(self):
        for (game, order), (distinct, digest) in RUST_ORDER.items():
            with self.subTest(game=game, order=order):
                values = [tp.hand_value(game, hand, order) for hand in tp.all_hands()]
                dense = {v: i for i, v in enumerate(sorted(set(values)))}
                text = ",".join(str(dense[v]) for v in values)
                self.assertEqual(len(dense), distinct)
                self.assertEqual(hashlib.sha256(text.encode()).hexdigest(), digest)

    def test_classic_category_counts_are_the_known_numbers(self):
        counts = [0] * 6
        for hand in tp.all_hands():
            counts[tp.classic_value(hand)[0]] += 1
        self.assertEqual(counts, [16440, 3744, 1096, 720, 48, 52])

    def test_classic_ranking_examples(self):
        v = tp.classic_value
        self.assertGreater(v(h("2c 2d 2h")), v(h("As 2s 3s")))          # trail > pure seq
        self.assertGreater(v(h("4h 3h 2h")), v(h("Ah 2d 3c")))          # pure seq > seq
        self.assertGreater(v(h("4h 3d 2c")), v(h("Ad Kd Jd")))          # seq > colour
        self.assertGreater(v(h("5c 3c 2c")), v(h("As Ah Kd")))          # colour > pair
        self.assertGreater(v(h("2s 2h 3d")), v(h("As Kh Jd")))          # pair > high card
        self.assertEqual(v(h("Kc Kd 5h")), v(h("Kh Ks 5d")))            # suits never count
        self.assertEqual(v(h("Ks As 2s"))[0], tp.COLOUR)                # K-A-2 is no run

    def test_sequence_orders(self):
        a23, akq = h("Ac 2d 3h"), h("Ac Kd Qh")
        self.assertGreater(tp.classic_value(a23, "a23-high"), tp.classic_value(akq, "a23-high"))
        self.assertLess(tp.classic_value(a23, "akq-high"), tp.classic_value(akq, "akq-high"))
        kqj = h("Kc Qd Jh")
        for order in ("a23-high", "akq-high"):
            self.assertGreater(tp.classic_value(akq, order), tp.classic_value(kqj, order))

    def test_closest_555_examples_from_the_rules(self):
        self.assertEqual(tp.closest555_best(h("5s 5d 4c")), (554, 1))
        self.assertEqual(tp.closest555_distance(h("5s 5d 7c")), 2)       # 557
        self.assertEqual(tp.closest555_distance(h("5s 5d 6c")), 1)       # 554 ties 556
        self.assertEqual(tp.closest555_best(h("5s 4d 6c")), (546, 9))    # lower number named
        self.assertEqual(tp.closest555_best(h("Ks Qd Jc")), (0, 555))    # 000: the worst
        # A = 1 and T = 0: the digits 1, 0, 5 make 510 (45 away), 501 (54 away), 150, ...
        self.assertEqual(tp.closest555_best(h("As Td 5c")), (510, 45))

    def test_lallan_kallan_examples_from_the_rules(self):
        lk = tp.lallan_value
        self.assertEqual(lk(h("Kh Kd 5s")), (tp.TRAIL, 13, 13, 13))     # KKK
        self.assertEqual(lk(h("2h 3d 9c")), (tp.SEQUENCE, 15, 0, 0))    # A-2-3
        self.assertEqual(lk(h("As 9s 4d")), (tp.COLOUR, 14, 13, 9))     # A-K-9 colour
        self.assertEqual(lk(h("Kh 5d 2s")), (tp.PAIR, 13, 5, 0))        # K-K-5
        self.assertEqual(lk(h("2h 4h 9d")), tp.DEAD)                    # one colour
        # As Ks + a red wild: the wild becomes Qs, a pure sequence A-K-Q (it could not
        # become a copy of As or Ks, and no trail is possible).
        self.assertEqual(lk(h("As Ks 4h"))[0], tp.PURE_SEQUENCE)
        self.assertEqual(tp.lallan_wild(h("Kh 5d 2s")), "2s")

    def test_describe_is_readable(self):
        self.assertEqual(tp.describe("classic", h("As Ad 7c")), "pair of A with 7")
        self.assertEqual(tp.describe("classic", h("2c 3d Ah")), "sequence A-2-3")
        self.assertEqual(tp.describe("classic", h("Kc Qc Ac")), "pure sequence A-K-Q")
        self.assertEqual(tp.describe("classic", h("5c 7c 6c")), "pure sequence 7-6-5")
        self.assertEqual(tp.describe("classic", h("9c 9d 9s")), "trail of 9")
        self.assertEqual(tp.describe("classic", h("As 9s 3s")), "colour A-9-3")
        self.assertEqual(tp.describe("classic", h("As 9d 3s")), "high card A-9-3")
        self.assertEqual(tp.describe("closest-555", h("5s 5d 4c")), "554, distance 1")
        self.assertEqual(tp.describe("lallan-kallan", h("Kh Kd 5s")),
                         "trail of K (wild 5s plays as Ks)")
        self.assertEqual(tp.describe("lallan-kallan", h("Kh Kd 5d")), "dead (one colour)")

    def test_strength_table_percentiles(self):
        table = tp.StrengthTable("classic")
        self.assertGreater(table.percentile(h("Ac Ad Ah")), 0.999)
        self.assertLess(table.percentile(h("5s 3h 2d")), 0.002)
        self.assertEqual(table.percentile(h("As Kd 7c")), table.percentile(h("Ah Kc 7d")))
        live = tp.StrengthTable("lallan-kallan")
        self.assertEqual(len(live.values), 22100 - 2 * 2600)  # 2 x C(26,3) dead hands


class LegalTests(unittest.TestCase):
    REQUEST = {"kind": "bet", "legal": [
        {"action": "pack"}, {"action": "bet", "min": 4, "max": 8, "multiple_of": 2},
        {"action": "sideshow", "cost": 4, "target": 2}]}

    def test_names_and_entries(self):
        legal = tp.Legal(self.REQUEST)
        self.assertEqual(legal.names(), ["pack", "bet", "sideshow"])
        self.assertTrue(legal.can("sideshow"))
        self.assertFalse(legal.can("show"))
        self.assertEqual(legal.entry("sideshow")["target"], 2)
        self.assertEqual(legal.action("pack"), {"action": "pack"})
        with self.assertRaises(ValueError):
            legal.action("show")

    def test_bets_are_clamped_to_bounds_and_multiples(self):
        legal = tp.Legal(self.REQUEST)
        self.assertEqual(legal.bet(1), {"action": "bet", "amount": 4})
        self.assertEqual(legal.bet(7), {"action": "bet", "amount": 6})
        self.assertEqual(legal.bet(7.9), {"action": "bet", "amount": 6})
        self.assertEqual(legal.bet(100), {"action": "bet", "amount": 8})
        self.assertEqual(legal.bet_amounts(), [4, 6, 8])
        odd = tp.Legal({"kind": "bet", "legal": [
            {"action": "bet", "min": 3, "max": 9, "multiple_of": 2}]})
        self.assertEqual(odd.bet_amounts(), [4, 6, 8])
        self.assertEqual(odd.clamp(3), 4)
        self.assertEqual(odd.clamp(9), 8)

    def test_allows_and_safe_defaults(self):
        legal = tp.Legal(self.REQUEST)
        self.assertTrue(legal.allows({"action": "bet", "amount": 6}))
        self.assertFalse(legal.allows({"action": "bet", "amount": 5}))
        self.assertFalse(legal.allows({"action": "bet", "amount": 10}))
        self.assertFalse(legal.allows({"action": "bet", "amount": True}))
        self.assertFalse(legal.allows({"action": "show"}))
        self.assertFalse(legal.allows("pack"))
        self.assertEqual(legal.safe_default(), {"action": "pack"})
        swap = tp.Legal({"kind": "swap", "legal": [
            {"action": "swap", "cards": ["As", "2d", "Kh"], "cost": 0}, {"action": "keep"}]})
        self.assertTrue(swap.allows({"action": "swap", "card": "2d"}))
        self.assertFalse(swap.allows({"action": "swap", "card": "3d"}))
        self.assertEqual(swap.safe_default(), {"action": "keep"})
        reply = tp.Legal({"kind": "sideshow_reply",
                          "legal": [{"action": "accept"}, {"action": "refuse"}]})
        self.assertEqual(reply.safe_default(), {"action": "refuse"})


class StateTests(unittest.TestCase):
    def hello(self, game="closest-555", seat=0, seats=3):
        return {"type": "hello", "game": game, "settings": {"boot": 1}, "seat": seat,
                "seats": seats, "hands": 10, "first_hand": 0, "seed": 5}

    def test_events_are_followed(self):
        state = tp.HandState(self.hello())
        for message in [
            {"event": "hand_started", "hand": 4, "dealer": 2, "seats": 3, "boot": 1, "pot": 3,
             "stake": 1},
            {"event": "dealt", "hand": 4, "seat": 0, "redeal": 0, "cards": ["5s", "Kd", "9h"]},
            {"event": "swapped", "hand": 4, "seat": 0, "cost": 0, "discarded": "Kd",
             "drawn": "5c"},
            {"event": "bet", "hand": 4, "seat": 0, "amount": 4, "blind": False, "stake": 2,
             "pot": 7},
            {"event": "swapped", "hand": 4, "seat": 1, "cost": 0},
            {"event": "sideshow_asked", "hand": 4, "seat": 2, "target": 1, "cost": 4,
             "pot": 11},
            {"event": "sideshow_refused", "hand": 4, "seat": 2, "target": 1},
            {"event": "packed", "hand": 4, "seat": 1, "reason": "chose"},
            {"event": "revealed", "hand": 4, "reason": "show", "hands": [
                {"seat": 0, "cards": ["5s", "5c", "9h"]},
                {"seat": 2, "cards": ["Ah", "Ad", "2c"]}]},
            {"event": "hand_ended", "hand": 4, "reason": "show", "winners": [0], "pot": 11,
             "payoffs": [6, -1, -5]},
        ]:
            state.apply_event(dict(message, type="event"))
        self.assertEqual(state.hand, 4)
        self.assertEqual(state.my_cards, ["5s", "5c", "9h"])
        self.assertEqual(state.my_discards, ["Kd"])
        self.assertEqual(state.players[1].swaps, 1)
        self.assertFalse(state.players[1].in_hand)
        self.assertEqual(state.players[0].put_in, 5)
        self.assertEqual((state.pot, state.stake), (11, 2))
        self.assertEqual(state.players[2].put_in, 5)
        self.assertEqual(state.sideshow_asker, 2)
        self.assertIn((2, 1), state.sideshow_refusals)
        self.assertEqual(state.known, {2: ["Ah", "Ad", "2c"]})
        self.assertEqual(state.totals, 6)
        self.assertNotIn("Kd", state.unseen_cards())
        self.assertNotIn("Ad", state.unseen_cards())
        self.assertEqual(len(state.unseen_cards()), 52 - 3 - 1 - 3)

    def test_requests_overwrite_the_public_state(self):
        state = tp.HandState(self.hello(game="classic"))
        state.apply_request({"hand": 2, "pot": 9, "stake": 2, "cards": ["As", "Kd", "3h"],
                             "players": [{"in_hand": True, "seen": True}, {"in_hand": False},
                                         {"in_hand": True, "seen": False}],
                             "known": {"1": ["2c", "2d", "9s"]}})
        self.assertEqual(state.my_cards, ["As", "Kd", "3h"])
        self.assertEqual(state.known, {1: ["2c", "2d", "9s"]})
        self.assertEqual(state.opponents_in_hand(), [2])


class RunLoopTests(unittest.TestCase):
    """The main loop, through a throwaway bot whose decide() is buggy on purpose."""

    BUGGY_BOT = textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        import teenpatti as tp

        def decide(request, state):
            if request["id"] == 1:
                raise RuntimeError("a bug in the strategy")
            if request["id"] == 2:
                return {"action": "bet", "amount": 10**6}
            return {"action": "bet", "amount": 2}

        tp.run(decide, name="buggy")
    """ % HERE)

    def test_a_buggy_decide_still_gets_legal_answers_out(self):
        request = {"type": "request", "hand": 0, "kind": "bet", "pot": 2, "stake": 1,
                   "legal": [{"action": "pack"},
                             {"action": "bet", "min": 2, "max": 4, "multiple_of": 2}],
                   "cards": ["As", "Kd", "3h"], "players": [], "time_ms": 1000,
                   "bank_ms": 10000}
        lines = [{"type": "hello", "protocol": 1, "game": "closest-555", "settings": {},
                  "seat": 0, "seats": 2, "hands": 1, "first_hand": 0, "seed": 1}]
        lines += [dict(request, id=i) for i in (1, 2, 3)]
        lines.append({"type": "match_end", "hands": 1, "totals": [0, 0]})
        stdin = "".join(json.dumps(line) + "\n" for line in lines)
        # A line of garbage must not stop the bot either.
        stdin = "this is not JSON\n" + stdin
        done = subprocess.run([sys.executable, "-c", self.BUGGY_BOT], input=stdin.encode(),
                              capture_output=True, timeout=20)
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
        self.assertEqual(answers[0]["type"], "hello")
        self.assertEqual(answers[1:], [{"action": "pack", "id": 1}, {"action": "pack", "id": 2},
                                       {"action": "bet", "amount": 2, "id": 3}])
        log = done.stderr.decode()
        self.assertIn("a bug in the strategy", log)
        self.assertIn("not legal here", log)


if __name__ == "__main__":
    unittest.main()
