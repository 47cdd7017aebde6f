"""No leak: no seat's observation (tensor, JSON view, its events) ever holds a card it was not
shown. What a seat may know is worked out here from RULES.md ("What each seat may know") over
the all-knowing event list, independently of the engine's own blanking."""

import json

import numpy as np
import pytest

import teenpatti
from conftest import random_states

RANKS, SUITS = "23456789TJQKA", "cdhs"


def card_name(index):
    return RANKS[index // 4] + SUITS[index % 4]


def may_know(events, seat, blind_start):
    """The cards `seat` has been shown so far."""
    known = set()
    for e in events:
        kind = e["event"]
        if kind == "dealt" and e["seat"] == seat and not blind_start:
            known |= set(e["cards"])
        elif kind == "saw" and e["seat"] == seat:
            known |= set(e["cards"])
        elif kind == "swapped" and e["seat"] == seat:
            known |= {e["discarded"], e["drawn"]}
        elif kind == "sideshow_compared" and seat in (e["seat"], e["target"]):
            known |= set(e["seat_cards"]) | set(e["target_cards"])
        elif kind == "revealed":
            for hand in e["hands"]:
                known |= set(hand["cards"])
    return known


def cards_in(value):
    """Every card-like string anywhere in a JSON value, except in a hand's `value` (its
    description: Lallan Kallan's resolved wild names cards no one holds)."""
    if isinstance(value, str):
        return {value} if len(value) == 2 and value[0] in RANKS and value[1] in SUITS else set()
    if isinstance(value, dict):
        return set().union(set(), *(cards_in(v) for k, v in value.items() if k != "value"))
    if isinstance(value, list):
        return set().union(set(), *(cards_in(v) for v in value))
    return set()


@pytest.mark.parametrize("name,seats", [("classic", 4), ("closest-555", 5), ("lallan-kallan", 6), ("classic", 2)])
def test_no_seat_ever_observes_a_card_it_was_not_shown(name, seats):
    game = teenpatti.Game(name, seats)
    fields = {f: (offset, size) for f, offset, size in game.observation_fields()}
    cards_end = fields["known_cards"][0] + fields["known_cards"][1]
    checked_cards = 0
    for state in random_states(game, 150, seed=11):
        everything = state.events()
        for seat in range(seats):
            allowed = may_know(everything, seat, blind_start=(name == "classic"))
            tensor = state.observation_tensor(seat)
            seen = {card_name(i % 52) for i in np.flatnonzero(tensor[:cards_end])}
            assert seen <= allowed, f"seat {seat} tensor shows {seen - allowed}"
            view = json.loads(state.observation_json(seat))
            assert cards_in(view) <= allowed, f"seat {seat} JSON shows {cards_in(view) - allowed}"
            told = cards_in(state.events(seat))
            assert told <= allowed, f"seat {seat} events show {told - allowed}"
            checked_cards += len(seen)
            # And what it may see it does see: its own current cards once it has looked.
            if "cards" in view:
                own = set(state.cards(seat))
                assert set(view["cards"]) == own
                assert {card_name(i) for i in np.flatnonzero(tensor[:52])} == own
    assert checked_cards > 0, "the test saw no card at all: it would pass whatever the encoding"


def test_the_tensor_depends_only_on_what_the_seat_knows():
    # At the first decision seat 1 knows only its own cards (and the public boots): deals
    # that give it the same three cards must give it the same tensor, whatever the others hold.
    game = teenpatti.Game("closest-555", 3)
    by_cards = {}
    for seed in range(3000):
        state = game.new_initial_state(seed=seed)
        assert state.current_player() == 1
        own = frozenset(state.cards(1))
        tensor = state.observation_tensor(1).tobytes()
        assert by_cards.setdefault(own, tensor) == tensor
    assert len(set(by_cards.values())) == len(by_cards), "different cards, different tensors"
