"""The largest value any entry of a table's observation tensor can take, for the environments'
observation spaces (Gymnasium and PettingZoo check observations against them)."""

import json


def observation_high(game):
    """Chips are counted in boots. The pot stays below the pot limit until the payment that
    reaches it, which is at most a bet or a sideshow (2 x max_stake), plus Closest to 555's swap
    fees (two per seat) paid before a turn's end; a seat's put-in is part of the pot. Turns
    are capped by max_turns, swaps at two, flags and cards are 0/1."""
    s = json.loads(game.settings_json())
    chips = s["pot_limit"] + 2 * s["max_stake"] + 2 * game.num_players() * s["swap_cost"]
    return float(max(chips / s["boot"], s["max_turns"], 2))
