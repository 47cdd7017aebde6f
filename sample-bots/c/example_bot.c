/* A slightly smarter example than bot.c. It sorts its hand into weak / good / great:
 *   great: bet the maximum;
 *   good:  a mixed answer: the minimum bet 3 times in 4, twice the minimum 1 time in 4 (the
 *          arena draws which; see good_hand_bet);
 *   weak:  bet the minimum while it is cheap, pack once someone raised (a big bet to call).
 * In closest-555 it swaps the card whose replacement gives the best average distance, and it
 * accepts a sideshow with a good hand. Plenty of room to improve: it ignores the pot odds,
 * the number of opponents and what their bets say.
 */
#include <stdlib.h>
#include <string.h>

#include "teenpatti.h"

static const char RANKS[] = "23456789TJQKA";
static const char SUITS[] = "cdhs";

static int rank_of(const char *card) { return (int)(strchr(RANKS, card[0]) - RANKS) + 2; }
static int is_red(const char *card) { return card[1] == 'h' || card[1] == 'd'; }

/* Classic categories, weakest first. */
enum { HIGH_CARD, PAIR, COLOUR, SEQUENCE, PURE_SEQUENCE, TRAIL };

static int descending(const void *x, const void *y) { return *(const int *)y - *(const int *)x; }

/* The classic category of three cards (ties inside a category are ignored here). */
static int category(const char *c0, const char *c1, const char *c2) {
    int r[3] = {rank_of(c0), rank_of(c1), rank_of(c2)};
    qsort(r, 3, sizeof r[0], descending);
    int flush = c0[1] == c1[1] && c1[1] == c2[1];
    int run = (r[0] == r[1] + 1 && r[1] == r[2] + 1) || (r[0] == 14 && r[1] == 3 && r[2] == 2);
    if (r[0] == r[2]) return TRAIL;
    if (run) return flush ? PURE_SEQUENCE : SEQUENCE;
    if (flush) return COLOUR;
    if (r[0] == r[1] || r[1] == r[2]) return PAIR;
    return HIGH_CARD;
}

/* Lallan Kallan: the card of the odd colour is wild; try it as every other card. */
static int lallan_category(const tp_card cards[3]) {
    int wild = -1, best = HIGH_CARD;
    for (int i = 0; i < 3; i++)
        if (is_red(cards[i]) != is_red(cards[(i + 1) % 3]) &&
            is_red(cards[i]) != is_red(cards[(i + 2) % 3]))
            wild = i;
    if (wild < 0) return -1; /* one colour: a dead hand (never asked to play) */
    const char *a = cards[(wild + 1) % 3], *b = cards[(wild + 2) % 3];
    for (int r = 0; r < 13; r++)
        for (int s = 0; s < 4; s++) {
            char card[3] = {RANKS[r], SUITS[s], '\0'};
            if (strcmp(card, a) == 0 || strcmp(card, b) == 0) continue;
            int c = category(a, b, card);
            if (c > best) best = c;
        }
    return best;
}

/* Closest to 555: A = 1, 2..9, T J Q K = 0; the distance of the best of the six numbers. */
static int digit(const char *card) {
    const char *p = strchr("A23456789", card[0]);
    return p ? (int)(p - "A23456789") + 1 : 0;
}

static int distance555(const char *c0, const char *c1, const char *c2) {
    int d[3] = {digit(c0), digit(c1), digit(c2)}, best = 1000;
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int i = 0; i < 6; i++) {
        int n = 100 * d[orders[i][0]] + 10 * d[orders[i][1]] + d[orders[i][2]];
        int dist = abs(n - 555);
        if (dist < best) best = dist;
    }
    return best;
}

/* 0 weak, 1 good, 2 great. */
static int level(const tp_state *state, const tp_card cards[3]) {
    if (strcmp(state->game, "closest-555") == 0) {
        int d = distance555(cards[0], cards[1], cards[2]);
        return d <= 5 ? 2 : d <= 25 ? 1 : 0;
    }
    if (strcmp(state->game, "lallan-kallan") == 0) {
        int c = lallan_category(cards); /* the wild makes at least a pair */
        return c >= PURE_SEQUENCE ? 2 : c >= SEQUENCE ? 1 : 0;
    }
    int c = category(cards[0], cards[1], cards[2]);
    return c >= SEQUENCE ? 2 : c >= PAIR ? 1 : 0;
}

/* Closest-555: the index of the card to throw away, or -1 to keep. */
static int choose_swap(const tp_request *request, const tp_state *state) {
    const tp_card *mine = request->cards;
    double best_average = distance555(mine[0], mine[1], mine[2]);
    double penalty = 5.0 * (double)tp_find(request, "swap")->cost / (double)state->boot;
    int best = -1;
    for (int i = 0; i < 3; i++) {
        const char *a = mine[(i + 1) % 3], *b = mine[(i + 2) % 3];
        double total = 0;
        int count = 0;
        for (int r = 0; r < 13; r++)
            for (int s = 0; s < 4; s++) {
                char drawn[3] = {RANKS[r], SUITS[s], '\0'};
                if (!strcmp(drawn, mine[0]) || !strcmp(drawn, mine[1]) || !strcmp(drawn, mine[2]))
                    continue;
                total += distance555(a, b, drawn);
                count++;
            }
        double average = total / count + penalty; /* a paid swap must be worth it */
        if (average < best_average) {
            best_average = average;
            best = i;
        }
    }
    return best;
}

/* A good hand: usually the minimum bet, sometimes a raise, so its bets say less about its
 * cards. Rather than flip that coin itself, the bot answers with a mix (PROTOCOL.md, "Mixed
 * answers") and the arena draws the bet: the arena then knows the odds exactly, and the
 * luck-corrected estimate can take the luck of these coin flips out of the bot's result
 * (BENCHMARKS.md, section 6), so fewer hands tell its skill. When the raise is not possible
 * (the minimum is already the maximum), a plain minimum bet. */
static tp_answer good_hand_bet(const tp_request *request) {
    const tp_legal *bet = tp_find(request, "bet");
    tp_answer low = tp_bet(request, bet->min), high = tp_bet(request, 2 * bet->min);
    if (!tp_is_legal(request, &low) || !tp_is_legal(request, &high) || high.amount == low.amount)
        return low;
    tp_answer mix = tp_mix();
    tp_mix_add(&mix, low, 0.75);
    tp_mix_add(&mix, high, 0.25);
    return mix; /* the event that follows (`bet`) says which amount was drawn */
}

static tp_answer decide(const tp_request *request, const tp_state *state) {
    if (strcmp(request->kind, "swap") == 0 && request->has_cards) {
        int i = choose_swap(request, state);
        return i >= 0 ? tp_swap(request->cards[i]) : tp_action("keep");
    }
    if (strcmp(request->kind, "sideshow_reply") == 0 && request->has_cards)
        return tp_action(level(state, request->cards) >= 1 ? "accept" : "refuse");
    if (tp_can(request, "see")) return tp_action("see");
    if (!tp_can(request, "bet") || !request->has_cards) return tp_safe(request);

    const tp_legal *bet = tp_find(request, "bet");
    int strength = level(state, request->cards);
    int big_bet = bet->min > 4 * state->boot; /* someone raised */
    tp_log("hand %lld: %s %s %s level %d, min bet %lld into %lld", request->hand,
           request->cards[0], request->cards[1], request->cards[2], strength, bet->min, request->pot);
    if (strength == 2) return tp_bet(request, bet->max);
    if (strength == 0 && big_bet) return tp_action("pack");
    if (strength == 1) return good_hand_bet(request);
    return tp_bet(request, bet->min);
}

int main(int argc, char **argv) {
    tp_bot bot = {.name = "c-example", .version = "1.0", .decide = decide};
    return tp_run(&bot, argc, argv);
}
