/* teenpatti.h: a small helper for Teen Patti arena bots in C99 (standard library only).
 *
 * What it does for you (the protocol is in protocol/PROTOCOL.md):
 *  - reads one JSON message per line from stdin (lines of any length) and answers `hello`
 *    with your bot's name;
 *  - follows the events of every hand in a tp_state: your cards, who is still in, the pot,
 *    the stake, what every seat put in, the cards revealed to you;
 *  - for every `request` calls YOUR function decide(request, state) and writes its answer,
 *    with the request's id, as one line on stdout, flushed at once;
 *  - lets decide() answer with a mix (tp_mix, tp_mix_add): several legal actions with their
 *    probabilities, the arena draws the one played;
 *  - if decide() returns an illegal answer, logs it and sends the safe answer (pack / keep /
 *    refuse) instead;
 *  - logs fault notices to stderr, and returns from tp_run at `match_end` or end of input.
 *
 *     static tp_answer decide(const tp_request *r, const tp_state *s) {
 *         if (tp_can(r, "see")) return tp_action("see");
 *         if (tp_can(r, "bet")) return tp_bet(r, tp_find(r, "bet")->min);
 *         return tp_safe(r);
 *     }
 *     int main(int argc, char **argv) {
 *         tp_bot bot = {.name = "my-bot", .version = "1.0", .decide = decide};
 *         return tp_run(&bot, argc, argv);
 *     }
 *
 * stdout belongs to the protocol: never printf() to it. Use tp_log(), which writes to
 * stderr, your bot's log. Run the bot with --debug to log every line received and sent.
 */
#ifndef TEENPATTI_H
#define TEENPATTI_H

#include "json.h"

#define TP_MAX_SEATS 17 /* a pack serves at most 17 hands of three */
#define TP_MAX_LEGAL 16
/* Most entries of a mixed answer in this kit (its own limit, to keep tp_answer a plain value;
 * the protocol allows 1024). */
#define TP_MAX_MIX 32

typedef char tp_card[4]; /* "As", "Td", "7c": rank 23456789TJQKA then suit cdhs */

/* One entry of a request's legal list. */
typedef struct {
    char action[16];       /* pack, see, bet, show, sideshow, swap, keep, accept, refuse */
    long long min, max;    /* bet: the bounds (both included) */
    long long multiple_of; /* bet: the amount must be a multiple of this */
    long long cost;        /* show, sideshow, swap: what it costs */
    int target;            /* sideshow: the seat asked */
    int ncards;            /* swap: the cards you may discard (your own three) */
    tp_card cards[3];
} tp_legal;

/* A request, already read for you. `json` is the whole message, for anything else. */
typedef struct {
    long long id;
    long long hand;
    char kind[24]; /* "bet", "swap" or "sideshow_reply" */
    int nlegal;
    tp_legal legal[TP_MAX_LEGAL];
    long long pot, stake;
    int has_cards; /* 0 while blind (classic game) */
    tp_card cards[3]; /* your three cards */
    const json_value *json;
} tp_request;

/* One entry of a mixed answer: a plain action and the probability of playing it. */
typedef struct {
    char action[16];
    long long amount; /* bet only */
    tp_card card;     /* swap only */
    double p;         /* from 0 to 1 */
} tp_mix_entry;

/* What decide() returns. Build it with tp_action, tp_bet or tp_swap (a plain answer), or
 * with tp_mix and tp_mix_add (a mixed answer). */
typedef struct {
    char action[16];
    long long amount; /* bet only */
    tp_card card;     /* swap only */
    int mix_len;      /* 0: a plain answer (the fields above); else the entries of mix */
    tp_mix_entry mix[TP_MAX_MIX];
} tp_answer;

/* One seat's public state in the current hand. */
typedef struct {
    int in_hand;        /* not packed, not dead */
    int seen;           /* classic: has looked at its cards (always 1 in the other games) */
    int dead;           /* lallan-kallan: a one-colour hand */
    long long put_in;   /* chips put in the pot this hand, boot included */
    int turns;          /* betting turns completed */
    int swaps;          /* closest-555: cards swapped */
} tp_player;

/* What the bot knows: the match (from hello) and the hand being played. */
typedef struct {
    /* From hello. */
    char game[24]; /* "classic", "closest-555" or "lallan-kallan" */
    char sequence_order[16];
    long long boot, max_stake, pot_limit, swap_cost;
    int sideshow, blind_limit;
    int seat, seats;
    long long hands, first_hand;
    unsigned long long seed;
    /* The current hand (reset at hand_started). */
    long long hand;
    int dealer;
    long long pot, stake;
    int has_cards; /* 0 until you know your cards (classic: until you see) */
    tp_card my_cards[3];
    tp_player players[TP_MAX_SEATS];
    int is_known[TP_MAX_SEATS]; /* other seats' cards revealed to you this hand */
    tp_card known[TP_MAX_SEATS][3];
    int sideshow_asker; /* who asked you for a sideshow (-1: nobody) */
    /* Over the match. */
    long long total; /* your net chips so far */
} tp_state;

/* Your bot. Only name and decide are required. */
typedef struct {
    const char *name;
    const char *version;
    tp_answer (*decide)(const tp_request *request, const tp_state *state);
    void (*on_hello)(const tp_state *state);                       /* optional */
    void (*on_event)(const json_value *event, const tp_state *state); /* optional */
} tp_bot;

/* Plays the match on stdin/stdout. Returns 0 (the exit status) at match_end or end of input. */
int tp_run(const tp_bot *bot, int argc, char **argv);

/* The legal entry named `name`, or NULL if it is not offered. */
const tp_legal *tp_find(const tp_request *request, const char *name);
int tp_can(const tp_request *request, const char *name);
/* An answer without parameters: pack, see, show, sideshow, keep, accept, refuse. */
tp_answer tp_action(const char *name);
/* A bet with `amount` moved inside [min, max] and onto a multiple of multiple_of. */
tp_answer tp_bet(const tp_request *request, long long amount);
tp_answer tp_swap(const char *card);
/* What the arena would do for you: pack a bet, keep the cards, refuse a sideshow. */
tp_answer tp_safe(const tp_request *request);
/* A mixed answer (PROTOCOL.md, "Mixed answers"): instead of one action, several legal ones,
 * each with the probability of playing it. The arena draws the action it plays (with a key
 * no bot sees) and tells you in the event that follows, as for any action. Start with
 * tp_mix() and add every choice with tp_mix_add:
 *
 *     tp_answer a = tp_mix();
 *     tp_mix_add(&a, tp_bet(r, bet->min), 0.75);
 *     tp_mix_add(&a, tp_bet(r, 2 * bet->min), 0.25);
 *     return a;
 *
 * The probabilities must add up to 1 (within 0.000001) and no action may be given twice
 * (the same bet amount, the same card to swap); else tp_is_legal refuses it and the safe
 * answer is sent. A mix of one entry is allowed (the arena plays it). */
tp_answer tp_mix(void);
/* Adds the plain answer `choice` (from tp_action, tp_bet or tp_swap) to `mix` with
 * probability `p`. Returns 0, or -1 (and changes nothing) if the mix already has TP_MAX_MIX
 * entries or `choice` is itself a mix. */
int tp_mix_add(tp_answer *mix, tp_answer choice, double p);
/* Whether `answer` is legal for `request`. A mix is legal when it has at least one entry,
 * every entry is legal, no action appears twice, every p is in [0, 1] and they add up to 1
 * (within 0.000001). */
int tp_is_legal(const tp_request *request, const tp_answer *answer);
/* Seats other than yours still in the hand; returns how many were written to `seats`. */
int tp_opponents_in_hand(const tp_state *state, int seats[TP_MAX_SEATS]);
/* printf to stderr, with a newline added. */
void tp_log(const char *format, ...);

#endif
