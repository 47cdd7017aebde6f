/* The starter bot: sees at once (classic), always bets the minimum, keeps its cards
 * (closest-555), refuses sideshows. Your strategy goes in decide().
 *
 * Build: make            Run: arena match --game closest-555 --hands 50 \
 *          --bot sample-bots/c/bot --bot "python3 sample-bots/python/random_bot.py"
 */
#include <string.h> /* strcmp, for your strategy */

#include "teenpatti.h"

/* Called for every request; return the answer (the helper adds the id).
 *   request->kind: "bet", "swap" or "sideshow_reply"; request->legal: what you may do
 *     (tp_find(request, "bet")->min ...); request->cards: your cards (if has_cards).
 *   state: the match and the hand (state->game, state->pot, state->players[seat].in_hand,
 *     state->known[seat] ...), see teenpatti.h. */
static tp_answer decide(const tp_request *request, const tp_state *state) {
    (void)state; /* not used by this simple strategy */
    if (tp_can(request, "see")) return tp_action("see"); /* classic: look at the cards */
    if (tp_can(request, "bet")) return tp_bet(request, tp_find(request, "bet")->min); /* chaal */
    if (tp_can(request, "keep")) return tp_action("keep");     /* closest-555: no swap */
    if (tp_can(request, "refuse")) return tp_action("refuse"); /* no sideshow */
    return tp_safe(request);
}

int main(int argc, char **argv) {
    tp_bot bot = {.name = "c-starter", .version = "1.0", .decide = decide};
    return tp_run(&bot, argc, argv);
}
