/* teenpatti.c: see teenpatti.h. */
#include "teenpatti.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tp_log(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
}

static void copy_text(char *out, size_t size, const char *text) {
    snprintf(out, size, "%s", text ? text : "");
}

/* Reads three cards from a JSON array; returns 1 when there are three strings. */
static int read_cards(const json_value *array, tp_card out[3]) {
    if (json_len(array) != 3) return 0;
    for (size_t i = 0; i < 3; i++) {
        const char *card = json_str(json_at(array, i), NULL);
        if (!card) return 0;
        copy_text(out[i], sizeof out[i], card);
    }
    return 1;
}

/* ---- Legal set and answers ------------------------------------------------------------- */

const tp_legal *tp_find(const tp_request *request, const char *name) {
    for (int i = 0; i < request->nlegal; i++)
        if (strcmp(request->legal[i].action, name) == 0) return &request->legal[i];
    return NULL;
}

int tp_can(const tp_request *request, const char *name) { return tp_find(request, name) != NULL; }

tp_answer tp_action(const char *name) {
    tp_answer a;
    memset(&a, 0, sizeof a);
    copy_text(a.action, sizeof a.action, name);
    return a;
}

tp_answer tp_bet(const tp_request *request, long long amount) {
    tp_answer a = tp_action("bet");
    const tp_legal *bet = tp_find(request, "bet");
    if (!bet) return tp_safe(request);
    long long step = bet->multiple_of > 0 ? bet->multiple_of : 1;
    if (amount > bet->max) amount = bet->max;
    if (amount < bet->min) amount = bet->min;
    amount -= amount % step;
    if (amount < bet->min) amount += step;
    a.amount = amount;
    return a;
}

tp_answer tp_swap(const char *card) {
    tp_answer a = tp_action("swap");
    copy_text(a.card, sizeof a.card, card);
    return a;
}

tp_answer tp_safe(const tp_request *request) {
    const char *name = "pack";
    if (strcmp(request->kind, "swap") == 0) name = "keep";
    if (strcmp(request->kind, "sideshow_reply") == 0) name = "refuse";
    if (!tp_can(request, name) && request->nlegal > 0) name = request->legal[0].action;
    return tp_action(name);
}

tp_answer tp_mix(void) {
    tp_answer a;
    memset(&a, 0, sizeof a); /* mix_len 0: no entry yet */
    return a;
}

int tp_mix_add(tp_answer *mix, tp_answer choice, double p) {
    if (!mix || choice.mix_len != 0 || mix->mix_len < 0 || mix->mix_len >= TP_MAX_MIX) return -1;
    if (mix->mix_len == 0) { /* a mix has no action of its own */
        mix->action[0] = '\0';
        mix->amount = 0;
        mix->card[0] = '\0';
    }
    tp_mix_entry *e = &mix->mix[mix->mix_len++];
    memset(e, 0, sizeof *e);
    copy_text(e->action, sizeof e->action, choice.action);
    e->amount = choice.amount;
    copy_text(e->card, sizeof e->card, choice.card);
    e->p = p;
    return 0;
}

/* Whether one action (with its amount or card) is in the legal list. */
static int plain_legal(const tp_request *request, const char *action, long long amount,
                       const char *card) {
    const tp_legal *e = tp_find(request, action);
    if (!e) return 0;
    if (strcmp(e->action, "bet") == 0) {
        long long step = e->multiple_of > 0 ? e->multiple_of : 1;
        return amount >= e->min && amount <= e->max && amount % step == 0;
    }
    if (strcmp(e->action, "swap") == 0) {
        for (int i = 0; i < e->ncards; i++)
            if (strcmp(e->cards[i], card) == 0) return 1;
        return 0;
    }
    return 1;
}

/* Whether two entries of a mix are the same action (a bet of the same amount, a swap of the
 * same card, or the same action without parameters). */
static int same_action(const tp_mix_entry *a, const tp_mix_entry *b) {
    if (strcmp(a->action, b->action) != 0) return 0;
    if (strcmp(a->action, "bet") == 0) return a->amount == b->amount;
    if (strcmp(a->action, "swap") == 0) return strcmp(a->card, b->card) == 0;
    return 1;
}

/* Checks a mixed answer: returns 1 when it is legal, else 0 with the reason in `why`. */
static int check_mix(const tp_request *request, const tp_answer *answer, char *why, size_t size) {
    double total = 0;
    if (answer->mix_len < 1 || answer->mix_len > TP_MAX_MIX) {
        snprintf(why, size, "%d entries (1 to %d)", answer->mix_len, TP_MAX_MIX);
        return 0;
    }
    for (int i = 0; i < answer->mix_len; i++) {
        const tp_mix_entry *e = &answer->mix[i];
        if (!plain_legal(request, e->action, e->amount, e->card)) {
            snprintf(why, size, "entry %d (\"%s\", amount %lld, card \"%s\") is not legal", i,
                     e->action, e->amount, e->card);
            return 0;
        }
        if (!(e->p >= 0.0 && e->p <= 1.0)) { /* also refuses NaN */
            snprintf(why, size, "entry %d has p %g, not in [0, 1]", i, e->p);
            return 0;
        }
        for (int j = 0; j < i; j++)
            if (same_action(&answer->mix[j], e)) {
                snprintf(why, size, "entries %d and %d are the same action (\"%s\")", j, i,
                         e->action);
                return 0;
            }
        total += e->p;
    }
    if (!(total >= 1.0 - 1e-6 && total <= 1.0 + 1e-6)) {
        snprintf(why, size, "the p add up to %.17g, not 1", total);
        return 0;
    }
    return 1;
}

int tp_is_legal(const tp_request *request, const tp_answer *answer) {
    char why[160];
    if (answer->mix_len != 0) return check_mix(request, answer, why, sizeof why);
    return plain_legal(request, answer->action, answer->amount, answer->card);
}

int tp_opponents_in_hand(const tp_state *state, int seats[TP_MAX_SEATS]) {
    int n = 0;
    for (int s = 0; s < state->seats && s < TP_MAX_SEATS; s++)
        if (s != state->seat && state->players[s].in_hand) seats[n++] = s;
    return n;
}

/* ---- State ------------------------------------------------------------------------------ */

static int valid_seat(const json_value *v) {
    long long s = json_int(v, -1);
    return s >= 0 && s < TP_MAX_SEATS;
}

static void new_hand(tp_state *st, long long hand) {
    st->hand = hand;
    st->dealer = -1;
    st->pot = st->stake = 0;
    st->has_cards = 0;
    memset(st->players, 0, sizeof st->players);
    for (int s = 0; s < TP_MAX_SEATS; s++) {
        st->players[s].in_hand = 1;
        st->players[s].seen = strcmp(st->game, "classic") != 0;
        st->players[s].put_in = st->boot;
    }
    memset(st->is_known, 0, sizeof st->is_known);
    st->sideshow_asker = -1;
}

static void apply_hello(tp_state *st, const json_value *m) {
    const json_value *settings = json_get(m, "settings");
    memset(st, 0, sizeof *st);
    copy_text(st->game, sizeof st->game, json_str(json_get(m, "game"), ""));
    copy_text(st->sequence_order, sizeof st->sequence_order,
              json_str(json_get(settings, "sequence_order"), "a23-high"));
    st->boot = json_int(json_get(settings, "boot"), 1);
    st->max_stake = json_int(json_get(settings, "max_stake"), 64);
    st->pot_limit = json_int(json_get(settings, "pot_limit"), 1024);
    st->swap_cost = json_int(json_get(settings, "swap_cost"), 0);
    st->sideshow = json_bool(json_get(settings, "sideshow"), 1);
    st->blind_limit = (int)json_int(json_get(settings, "blind_limit"), 4);
    st->seat = (int)json_int(json_get(m, "seat"), 0);
    st->seats = (int)json_int(json_get(m, "seats"), 2);
    if (st->seats > TP_MAX_SEATS) st->seats = TP_MAX_SEATS;
    st->hands = json_int(json_get(m, "hands"), 0);
    st->first_hand = json_int(json_get(m, "first_hand"), 0);
    st->seed = json_u64(json_get(m, "seed"), 0);
    new_hand(st, -1);
}

static void apply_event(tp_state *st, const json_value *m) {
    const char *kind = json_str(json_get(m, "event"), "");
    const json_value *seat_field = json_get(m, "seat");
    int seat = valid_seat(seat_field) ? (int)json_int(seat_field, 0) : -1;
    tp_player *p = seat >= 0 ? &st->players[seat] : NULL;

    if (strcmp(kind, "hand_started") == 0) {
        st->boot = json_int(json_get(m, "boot"), st->boot);
        new_hand(st, json_int(json_get(m, "hand"), -1));
        st->dealer = (int)json_int(json_get(m, "dealer"), -1);
        st->pot = json_int(json_get(m, "pot"), 0);
        st->stake = json_int(json_get(m, "stake"), st->boot);
    } else if (strcmp(kind, "dealt") == 0 || strcmp(kind, "saw") == 0) {
        /* Your own cards come in dealt (555, lallan-kallan) or in saw (classic). */
        if (p && strcmp(kind, "saw") == 0) p->seen = 1;
        if (seat == st->seat && read_cards(json_get(m, "cards"), st->my_cards)) st->has_cards = 1;
    } else if (strcmp(kind, "dead") == 0) {
        const json_value *seats = json_get(m, "seats");
        for (size_t i = 0; i < json_len(seats); i++) {
            if (!valid_seat(json_at(seats, i))) continue;
            tp_player *d = &st->players[json_int(json_at(seats, i), 0)];
            d->dead = 1;
            d->in_hand = 0;
        }
    } else if (strcmp(kind, "redeal") == 0) {
        st->pot = json_int(json_get(m, "pot"), st->pot);
        st->has_cards = 0;
        for (int s = 0; s < TP_MAX_SEATS; s++) {
            st->players[s].dead = 0;
            st->players[s].in_hand = 1;
        }
    } else if (strcmp(kind, "swapped") == 0 && p) {
        long long cost = json_int(json_get(m, "cost"), 0);
        p->swaps++;
        p->put_in += cost;
        st->pot += cost;
        st->is_known[seat] = 0; /* their cards changed */
        const char *out = json_str(json_get(m, "discarded"), NULL);
        const char *in = json_str(json_get(m, "drawn"), NULL);
        if (seat == st->seat && out && in)
            for (int i = 0; i < 3; i++)
                if (strcmp(st->my_cards[i], out) == 0) copy_text(st->my_cards[i], sizeof(tp_card), in);
    } else if (strcmp(kind, "bet") == 0 && p) {
        p->put_in += json_int(json_get(m, "amount"), 0);
        p->turns++;
        st->stake = json_int(json_get(m, "stake"), st->stake);
        st->pot = json_int(json_get(m, "pot"), st->pot);
    } else if (strcmp(kind, "packed") == 0 && p) {
        p->in_hand = 0;
    } else if ((strcmp(kind, "show_asked") == 0 || strcmp(kind, "sideshow_asked") == 0) && p) {
        p->put_in += json_int(json_get(m, "cost"), 0);
        st->pot = json_int(json_get(m, "pot"), st->pot);
        if (strcmp(kind, "sideshow_asked") == 0) st->sideshow_asker = seat;
    } else if (strcmp(kind, "sideshow_compared") == 0) {
        const char *who[2] = {"seat", "target"}, *cards[2] = {"seat_cards", "target_cards"};
        for (int i = 0; i < 2; i++) {
            const json_value *s = json_get(m, who[i]);
            int k = valid_seat(s) ? (int)json_int(s, 0) : -1;
            if (k >= 0 && k != st->seat && read_cards(json_get(m, cards[i]), st->known[k]))
                st->is_known[k] = 1;
        }
    } else if (strcmp(kind, "revealed") == 0) {
        const json_value *hands = json_get(m, "hands");
        for (size_t i = 0; i < json_len(hands); i++) {
            const json_value *h = json_at(hands, i);
            int k = valid_seat(json_get(h, "seat")) ? (int)json_int(json_get(h, "seat"), 0) : -1;
            if (k >= 0 && k != st->seat && read_cards(json_get(h, "cards"), st->known[k]))
                st->is_known[k] = 1;
        }
    } else if (strcmp(kind, "hand_ended") == 0) {
        st->total += json_int(json_at(json_get(m, "payoffs"), (size_t)st->seat), 0);
    }
    /* Any other event kind is ignored: newer arenas may add some. */
}

/* Reads a request into `r` and takes over the public state it repeats (authoritative). */
static void read_request(tp_request *r, tp_state *st, const json_value *m) {
    memset(r, 0, sizeof *r);
    r->json = m;
    r->id = json_int(json_get(m, "id"), 0);
    r->hand = json_int(json_get(m, "hand"), st->hand);
    copy_text(r->kind, sizeof r->kind, json_str(json_get(m, "kind"), ""));
    r->pot = json_int(json_get(m, "pot"), st->pot);
    r->stake = json_int(json_get(m, "stake"), st->stake);
    r->has_cards = read_cards(json_get(m, "cards"), r->cards);
    const json_value *legal = json_get(m, "legal");
    for (size_t i = 0; i < json_len(legal) && r->nlegal < TP_MAX_LEGAL; i++) {
        const json_value *e = json_at(legal, i);
        tp_legal *l = &r->legal[r->nlegal++];
        copy_text(l->action, sizeof l->action, json_str(json_get(e, "action"), ""));
        l->min = json_int(json_get(e, "min"), 0);
        l->max = json_int(json_get(e, "max"), 0);
        l->multiple_of = json_int(json_get(e, "multiple_of"), 1);
        l->cost = json_int(json_get(e, "cost"), 0);
        l->target = (int)json_int(json_get(e, "target"), -1);
        if (read_cards(json_get(e, "cards"), l->cards)) l->ncards = 3;
    }

    st->hand = r->hand;
    st->pot = r->pot;
    st->stake = r->stake;
    if (r->has_cards) {
        memcpy(st->my_cards, r->cards, sizeof st->my_cards);
        st->has_cards = 1;
    }
    /* A sideshow_reply request names the asker (the sideshow_asked event did too). */
    st->sideshow_asker = (int)json_int(json_get(m, "sideshow_from"), st->sideshow_asker);
    const json_value *players = json_get(m, "players");
    for (size_t s = 0; s < json_len(players) && s < TP_MAX_SEATS; s++) {
        const json_value *v = json_at(players, s);
        tp_player *p = &st->players[s];
        p->in_hand = json_bool(json_get(v, "in_hand"), p->in_hand);
        p->seen = json_bool(json_get(v, "seen"), p->seen);
        p->dead = json_bool(json_get(v, "dead"), p->dead);
        p->put_in = json_int(json_get(v, "put_in"), p->put_in);
        p->turns = (int)json_int(json_get(v, "turns"), p->turns);
        p->swaps = (int)json_int(json_get(v, "swaps"), p->swaps);
    }
    memset(st->is_known, 0, sizeof st->is_known);
    const json_value *known = json_get(m, "known"); /* {"1": ["2c","2d","9s"]} */
    for (const json_value *k = known && known->type == JSON_OBJECT ? known->child : NULL; k;
         k = k->next) {
        int seat = atoi(k->key);
        if (seat >= 0 && seat < TP_MAX_SEATS && read_cards(k, st->known[seat]))
            st->is_known[seat] = 1;
    }
}

/* ---- The main loop ------------------------------------------------------------------------ */

/* Reads one line of any length (without the newline). Returns NULL at end of input. */
static char *read_line(void) {
    size_t size = 4096, n = 0;
    char *line = malloc(size);
    int c;
    if (!line) return NULL;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 >= size) {
            char *bigger = realloc(line, size *= 2);
            if (!bigger) { free(line); return NULL; }
            line = bigger;
        }
        line[n++] = (char)c;
    }
    if (c == EOF && n == 0) { free(line); return NULL; }
    if (n > 0 && line[n - 1] == '\r') n--;
    line[n] = '\0';
    return line;
}

static void send_line(const char *line, int debug) {
    if (debug) tp_log("[send] %s", line);
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout); /* without the flush the arena never gets the line */
}

/* Writes a probability as a JSON number, with the 17 digits that give back the same double
 * (so the sum the arena computes is the one tp_is_legal checked). printf follows LC_NUMERIC:
 * the kit never calls setlocale, so it is "C", but in case your bot does, a decimal comma
 * (or any other point) is turned back into the '.' JSON needs. */
static void format_p(char *out, size_t size, double p) {
    const char *point = localeconv()->decimal_point;
    if (p == 0) p = 0; /* no "-0" */
    snprintf(out, size, "%.17g", p);
    if (point && *point && strcmp(point, ".") != 0) {
        char *at = strstr(out, point);
        size_t len = strlen(point);
        if (at) {
            *at = '.';
            memmove(at + 1, at + len, strlen(at + len) + 1);
        }
    }
}

/* printf at out[*n], moving *n on (never past the end: a longer text is cut). */
static void append(char *out, size_t size, size_t *n, const char *format, ...) {
    va_list args;
    int k;
    if (*n + 1 >= size) return;
    va_start(args, format);
    k = vsnprintf(out + *n, size - *n, format, args);
    va_end(args);
    if (k > 0) *n = (size_t)k < size - *n ? *n + (size_t)k : size - 1;
}

/* Writes the answer line for request `id` into `out` (a mix or a plain action). */
static void format_answer(char *out, size_t size, long long id, const tp_answer *a) {
    size_t n = 0;
    if (a->mix_len == 0) {
        if (strcmp(a->action, "bet") == 0)
            snprintf(out, size, "{\"id\":%lld,\"action\":\"bet\",\"amount\":%lld}", id, a->amount);
        else if (strcmp(a->action, "swap") == 0)
            snprintf(out, size, "{\"id\":%lld,\"action\":\"swap\",\"card\":\"%s\"}", id, a->card);
        else
            snprintf(out, size, "{\"id\":%lld,\"action\":\"%s\"}", id, a->action);
        return;
    }
    /* {"id":17,"mix":[{"action":"bet","amount":4,"p":0.5},{"action":"show","p":0.5}]} */
    append(out, size, &n, "{\"id\":%lld,\"mix\":[", id);
    for (int i = 0; i < a->mix_len; i++) {
        const tp_mix_entry *e = &a->mix[i];
        char p[40];
        format_p(p, sizeof p, e->p);
        append(out, size, &n, "%s{\"action\":\"%s\"", i > 0 ? "," : "", e->action);
        if (strcmp(e->action, "bet") == 0) append(out, size, &n, ",\"amount\":%lld", e->amount);
        if (strcmp(e->action, "swap") == 0) append(out, size, &n, ",\"card\":\"%s\"", e->card);
        append(out, size, &n, ",\"p\":%s}", p);
    }
    append(out, size, &n, "]}");
}

/* Writes `text` as a JSON string (the bot's name may need escapes). */
static void json_quote(char *out, size_t size, const char *text) {
    size_t n = 0;
    if (size < 3) return;
    out[n++] = '"';
    for (const unsigned char *s = (const unsigned char *)text; *s && n + 8 < size; s++) {
        if (*s == '"' || *s == '\\') { out[n++] = '\\'; out[n++] = (char)*s; }
        else if (*s < 0x20) n += (size_t)snprintf(out + n, size - n, "\\u%04x", *s);
        else out[n++] = (char)*s;
    }
    out[n++] = '"';
    out[n] = '\0';
}

int tp_run(const tp_bot *bot, int argc, char **argv) {
    static tp_state state; /* static: it is a few KiB */
    static tp_request request;
    int have_hello = 0, debug = 0;
    const char *name = bot->name ? bot->name : "c-bot";
    char *line;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--debug") == 0) debug = 1;

    while ((line = read_line()) != NULL) {
        char error[128];
        if (debug) tp_log("[recv] %s", line);
        json_value *m = json_parse(line, error, sizeof error);
        if (!m) {
            tp_log("[teenpatti] ignoring a line that is not JSON (%s): %.200s", error, line);
            free(line);
            continue;
        }
        const char *type = json_str(json_get(m, "type"), "");
        int done = 0;
        if (strcmp(type, "hello") == 0) {
            char quoted_name[256], quoted_version[128], out[512];
            apply_hello(&state, m);
            have_hello = 1;
            if (bot->on_hello) bot->on_hello(&state);
            json_quote(quoted_name, sizeof quoted_name, name);
            json_quote(quoted_version, sizeof quoted_version, bot->version ? bot->version : "1.0");
            snprintf(out, sizeof out, "{\"type\":\"hello\",\"name\":%s,\"version\":%s,\"protocol\":1}",
                     quoted_name, quoted_version);
            send_line(out, debug);
            tp_log("[teenpatti] %s: seat %d of %d, %s, hands %lld..%lld", name, state.seat,
                   state.seats, state.game, state.first_hand, state.hands);
        } else if (strcmp(type, "event") == 0 && have_hello) {
            apply_event(&state, m);
            if (bot->on_event) bot->on_event(m, &state);
        } else if (strcmp(type, "request") == 0) {
            static char out[128 + 160 * TP_MAX_MIX]; /* room for a full mix */
            char why[160];
            read_request(&request, &state, m);
            tp_answer a = bot->decide(&request, &state);
            if (a.mix_len != 0 && !check_mix(&request, &a, why, sizeof why)) {
                tp_log("[teenpatti] decide() answered a mix that is not legal here: %s; sending "
                       "the safe answer instead", why);
                a = tp_safe(&request);
            } else if (a.mix_len == 0 && a.action[0] == '\0') {
                tp_log("[teenpatti] decide() answered no action (a tp_mix() without entries?); "
                       "sending the safe answer instead");
                a = tp_safe(&request);
            } else if (a.mix_len == 0 && !tp_is_legal(&request, &a)) {
                tp_log("[teenpatti] decide() answered \"%s\" (amount %lld, card \"%s\"), not legal "
                       "here; sending the safe answer instead", a.action, a.amount, a.card);
                a = tp_safe(&request);
            }
            format_answer(out, sizeof out, request.id, &a);
            send_line(out, debug);
        } else if (strcmp(type, "fault") == 0) {
            tp_log("[teenpatti] FAULT %s on request %lld: %s (applied: %s)",
                   json_str(json_get(m, "fault"), "?"), json_int(json_get(m, "id"), -1),
                   json_str(json_get(m, "detail"), ""),
                   json_str(json_get(json_get(m, "applied"), "action"), "none"));
        } else if (strcmp(type, "match_end") == 0) {
            tp_log("[teenpatti] match over after %lld hands", json_int(json_get(m, "hands"), 0));
            done = 1;
        }
        /* Any other message type is ignored: newer arenas may send some. */
        json_free(m);
        free(line);
        if (done) break;
    }
    return 0;
}
