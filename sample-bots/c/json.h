/* json.h: a tiny JSON reader (C99, standard library only), enough for the arena's messages.
 *
 * It parses a whole line into a tree of json_value nodes. Objects keep their members in
 * order, strings are decoded (escapes, \uXXXX and surrogate pairs become UTF-8), numbers are
 * kept as their text so that a 64-bit integer (like hello's seed) loses nothing. Unknown
 * fields are simply there; look up only the ones you need.
 *
 *     char error[128];
 *     json_value *msg = json_parse(line, error, sizeof error);
 *     if (msg) {
 *         const char *type = json_str(json_get(msg, "type"), "");
 *         long long id = json_int(json_get(msg, "id"), -1);
 *         json_free(msg);
 *     }
 *
 * Every getter accepts NULL (a missing field) and then returns its fallback, so lookups can
 * be chained: json_int(json_get(json_get(msg, "settings"), "boot"), 1).
 */
#ifndef TEENPATTI_JSON_H
#define TEENPATTI_JSON_H

#include <stddef.h>

typedef enum {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_type;

typedef struct json_value json_value;
struct json_value {
    json_type type;
    char *key;          /* the member's name when this value sits in an object, else NULL */
    char *text;         /* JSON_STRING: the decoded string; JSON_NUMBER: the number's text */
    int boolean;        /* JSON_BOOL: 0 or 1 */
    json_value *child;  /* JSON_ARRAY, JSON_OBJECT: the first element or member */
    json_value *next;   /* the next element or member of the parent */
};

/* Parses one JSON text. Returns NULL on a syntax error (with a message in `error` when it is
 * not NULL). Free the result with json_free. */
json_value *json_parse(const char *text, char *error, size_t error_size);
void json_free(json_value *value);

/* The member `key` of an object, or NULL (also when `object` is NULL or not an object). */
const json_value *json_get(const json_value *object, const char *key);
/* Element `index` of an array, or NULL. */
const json_value *json_at(const json_value *array, size_t index);
/* Number of elements of an array or members of an object (0 for anything else). */
size_t json_len(const json_value *value);

/* Typed reads, with a fallback when the value is missing or of another type. */
long long json_int(const json_value *value, long long fallback);
unsigned long long json_u64(const json_value *value, unsigned long long fallback);
double json_num(const json_value *value, double fallback);
const char *json_str(const json_value *value, const char *fallback);
int json_bool(const json_value *value, int fallback);

#endif
