/* json.c: see json.h. A recursive-descent parser over a NUL-terminated string. */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct {
    const char *p;
    const char *error;
    int depth;
} parser;

static json_value *parse_value(parser *ps);

static void skip_space(parser *ps) {
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

static json_value *new_value(json_type type) {
    json_value *v = calloc(1, sizeof *v);
    if (v) v->type = type;
    return v;
}

static char *copy_span(const char *start, size_t n) {
    char *s = malloc(n + 1);
    if (!s) return NULL;
    memcpy(s, start, n);
    s[n] = '\0';
    return s;
}

static int hex4(const char *s, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *out, unsigned cp) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads a string starting at the opening quote; returns the decoded text (malloc'd). */
static char *parse_string(parser *ps) {
    const char *start = ++ps->p; /* after the quote */
    size_t raw = 0;
    while (start[raw] && start[raw] != '"') raw += (start[raw] == '\\' && start[raw + 1]) ? 2 : 1;
    if (start[raw] != '"') { ps->error = "unterminated string"; return NULL; }
    char *out = malloc(raw + 1); /* decoding never makes a string longer */
    if (!out) { ps->error = "out of memory"; return NULL; }
    size_t n = 0;
    const char *s = start;
    while (*s != '"') {
        if ((unsigned char)*s < 0x20) { ps->error = "control character in string"; break; }
        if (*s != '\\') { out[n++] = *s++; continue; }
        s++;
        switch (*s) {
        case '"': out[n++] = '"'; s++; break;
        case '\\': out[n++] = '\\'; s++; break;
        case '/': out[n++] = '/'; s++; break;
        case 'b': out[n++] = '\b'; s++; break;
        case 'f': out[n++] = '\f'; s++; break;
        case 'n': out[n++] = '\n'; s++; break;
        case 'r': out[n++] = '\r'; s++; break;
        case 't': out[n++] = '\t'; s++; break;
        case 'u': {
            unsigned cp, low;
            if (!hex4(s + 1, &cp)) { ps->error = "bad \\u escape"; break; }
            s += 5;
            if (cp >= 0xD800 && cp < 0xDC00 && s[0] == '\\' && s[1] == 'u' && hex4(s + 2, &low) &&
                low >= 0xDC00 && low < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                s += 6;
            } else if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD; /* a lone surrogate: the replacement character */
            }
            n += put_utf8(out + n, cp);
            break;
        }
        default: ps->error = "bad escape"; break;
        }
        if (ps->error) break;
    }
    if (ps->error) { free(out); return NULL; }
    out[n] = '\0';
    ps->p = s + 1; /* after the closing quote */
    return out;
}

static json_value *parse_number(parser *ps) {
    const char *start = ps->p;
    const char *s = start;
    if (*s == '-') s++;
    if (*s < '0' || *s > '9') { ps->error = "unexpected character"; return NULL; }
    while (*s >= '0' && *s <= '9') s++;
    if (*s == '.') { s++; while (*s >= '0' && *s <= '9') s++; }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        while (*s >= '0' && *s <= '9') s++;
    }
    json_value *v = new_value(JSON_NUMBER);
    if (v) v->text = copy_span(start, (size_t)(s - start));
    if (!v || !v->text) { json_free(v); ps->error = "out of memory"; return NULL; }
    ps->p = s;
    return v;
}

static int literal(parser *ps, const char *word) {
    size_t n = strlen(word);
    if (strncmp(ps->p, word, n) != 0) return 0;
    ps->p += n;
    return 1;
}

/* Arrays and objects: elements separated by commas, members are "key": value. */
static json_value *parse_container(parser *ps, json_type type, char close) {
    if (++ps->depth > JSON_MAX_DEPTH) { ps->error = "nested too deep"; return NULL; }
    json_value *v = new_value(type);
    if (!v) { ps->error = "out of memory"; return NULL; }
    json_value **tail = &v->child;
    ps->p++; /* the opening bracket */
    skip_space(ps);
    if (*ps->p == close) { ps->p++; ps->depth--; return v; }
    for (;;) {
        char *key = NULL;
        skip_space(ps);
        if (type == JSON_OBJECT) {
            if (*ps->p != '"') { ps->error = "expected a member name"; break; }
            key = parse_string(ps);
            if (!key) break;
            skip_space(ps);
            if (*ps->p != ':') { free(key); ps->error = "expected ':'"; break; }
            ps->p++;
        }
        json_value *item = parse_value(ps);
        if (!item) { free(key); break; }
        item->key = key;
        *tail = item;
        tail = &item->next;
        skip_space(ps);
        if (*ps->p == ',') { ps->p++; continue; }
        if (*ps->p == close) { ps->p++; ps->depth--; return v; }
        ps->error = type == JSON_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'";
        break;
    }
    json_free(v);
    return NULL;
}

static json_value *parse_value(parser *ps) {
    skip_space(ps);
    json_value *v = NULL;
    switch (*ps->p) {
    case '{': return parse_container(ps, JSON_OBJECT, '}');
    case '[': return parse_container(ps, JSON_ARRAY, ']');
    case '"': {
        char *s = parse_string(ps);
        if (!s) return NULL;
        v = new_value(JSON_STRING);
        if (!v) { free(s); ps->error = "out of memory"; return NULL; }
        v->text = s;
        return v;
    }
    case 't':
    case 'f': {
        int truth = *ps->p == 't';
        if (literal(ps, truth ? "true" : "false")) {
            v = new_value(JSON_BOOL);
            if (v) v->boolean = truth;
            return v;
        }
        break;
    }
    case 'n':
        if (literal(ps, "null")) return new_value(JSON_NULL);
        break;
    default:
        return parse_number(ps);
    }
    ps->error = "unexpected character";
    return NULL;
}

json_value *json_parse(const char *text, char *error, size_t error_size) {
    parser ps = {text, NULL, 0};
    json_value *v = parse_value(&ps);
    if (v) {
        skip_space(&ps);
        if (*ps.p) { ps.error = "text after the value"; json_free(v); v = NULL; }
    }
    if (!v && error && error_size) {
        snprintf(error, error_size, "%s at offset %ld", ps.error ? ps.error : "parse error",
                 (long)(ps.p - text));
    }
    return v;
}

void json_free(json_value *value) {
    while (value) {
        json_value *next = value->next;
        json_free(value->child);
        free(value->key);
        free(value->text);
        free(value);
        value = next;
    }
}

const json_value *json_get(const json_value *object, const char *key) {
    if (!object || object->type != JSON_OBJECT) return NULL;
    for (const json_value *m = object->child; m; m = m->next)
        if (strcmp(m->key, key) == 0) return m;
    return NULL;
}

const json_value *json_at(const json_value *array, size_t index) {
    if (!array || array->type != JSON_ARRAY) return NULL;
    const json_value *e = array->child;
    while (e && index--) e = e->next;
    return e;
}

size_t json_len(const json_value *value) {
    size_t n = 0;
    if (value && (value->type == JSON_ARRAY || value->type == JSON_OBJECT))
        for (const json_value *e = value->child; e; e = e->next) n++;
    return n;
}

long long json_int(const json_value *value, long long fallback) {
    if (!value || value->type != JSON_NUMBER) return fallback;
    if (strpbrk(value->text, ".eE")) return (long long)strtod(value->text, NULL);
    return strtoll(value->text, NULL, 10);
}

unsigned long long json_u64(const json_value *value, unsigned long long fallback) {
    if (!value || value->type != JSON_NUMBER || value->text[0] == '-') return fallback;
    return strtoull(value->text, NULL, 10);
}

double json_num(const json_value *value, double fallback) {
    if (!value || value->type != JSON_NUMBER) return fallback;
    return strtod(value->text, NULL);
}

const char *json_str(const json_value *value, const char *fallback) {
    if (!value || value->type != JSON_STRING) return fallback;
    return value->text;
}

int json_bool(const json_value *value, int fallback) {
    if (!value || value->type != JSON_BOOL) return fallback;
    return value->boolean;
}
