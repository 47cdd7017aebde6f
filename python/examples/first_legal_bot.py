#!/usr/bin/env python3
"""The smallest policy served as an arena bot: the first legal action (pack where it may,
else keep, else the smallest bet). `arena check-bot -- python first_legal_bot.py`."""

import teenpatti


def policy(observation, action_mask):
    return int(action_mask.nonzero()[0][0])


if __name__ == "__main__":
    teenpatti.serve(policy, name="first-legal")
