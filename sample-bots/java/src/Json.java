import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tiny JSON reader and string quoter (Java 17 standard library only), enough for the
 * arena's messages.
 *
 * <p>{@link #parse} turns one JSON text into plain Java values: an object becomes a
 * {@code Map<String, Object>} (members in order), an array a {@code List<Object>}, a string a
 * {@code String}, true/false a {@code Boolean}, null {@code null}, and a number a
 * {@code Long} (a {@code BigInteger} beyond the long range, like hello's 64-bit seed, or a
 * {@code Double} with a fraction or exponent). Unknown fields are simply there.
 *
 * <p>The getters never throw on a missing field or a value of another type: they return the
 * fallback, so lookups can be chained: {@code Json.asLong(Json.get(Json.get(hello,
 * "settings"), "boot"), 1)}.
 */
public final class Json {
    private final String text;
    private int pos;
    private int depth;

    private Json(String text) {
        this.text = text;
    }

    /** Parses one JSON text; throws IllegalArgumentException on a syntax error. */
    public static Object parse(String text) {
        Json parser = new Json(text);
        Object value = parser.value();
        parser.space();
        if (parser.pos != text.length()) {
            throw parser.error("text after the value");
        }
        return value;
    }

    // ---- Getters ------------------------------------------------------------------------

    /** The member {@code key} of an object, or null. */
    public static Object get(Object object, String key) {
        return object instanceof Map<?, ?> map ? map.get(key) : null;
    }

    /** Element {@code index} of an array, or null. */
    public static Object at(Object array, int index) {
        return array instanceof List<?> list && index >= 0 && index < list.size()
                ? list.get(index) : null;
    }

    public static long asLong(Object value, long fallback) {
        if (value instanceof BigInteger big) {
            return big.longValue(); // keeps the low 64 bits: an unsigned seed stays itself
        }
        return value instanceof Number number ? number.longValue() : fallback;
    }

    public static int asInt(Object value, int fallback) {
        return value instanceof Number number ? number.intValue() : fallback;
    }

    public static String asString(Object value, String fallback) {
        return value instanceof String s ? s : fallback;
    }

    public static boolean asBool(Object value, boolean fallback) {
        return value instanceof Boolean b ? b : fallback;
    }

    /** The elements of an array (an empty list for anything else). */
    @SuppressWarnings("unchecked")
    public static List<Object> asList(Object value) {
        return value instanceof List<?> list ? (List<Object>) list : Collections.emptyList();
    }

    /** The members of an object (an empty map for anything else). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asMap(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Collections.emptyMap();
    }

    /** {@code text} as a JSON string literal, quotes included. */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    // ---- The parser ---------------------------------------------------------------------

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + pos);
    }

    private void space() {
        while (pos < text.length() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private Object value() {
        space();
        char c = peek();
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected character");
        }
        pos += word.length();
        return value;
    }

    private void enter() {
        if (++depth > 64) {
            throw error("nested too deep");
        }
    }

    private Map<String, Object> object() {
        enter();
        Map<String, Object> map = new LinkedHashMap<>();
        expect('{');
        space();
        if (peek() == '}') {
            pos++;
            depth--;
            return map;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String key = string();
            space();
            expect(':');
            map.put(key, value());
            space();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                depth--;
                return map;
            }
        }
    }

    private List<Object> array() {
        enter();
        List<Object> list = new ArrayList<>();
        expect('[');
        space();
        if (peek() == ']') {
            pos++;
            depth--;
            return list;
        }
        while (true) {
            list.add(value());
            space();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                depth--;
                return list;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character in string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = peek();
            pos++;
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    // Java strings are UTF-16, so surrogate pairs need no special care.
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = Character.digit(peek(), 16);
                        if (digit < 0) {
                            throw error("bad \\u escape");
                        }
                        code = code * 16 + digit;
                        pos++;
                    }
                    out.append((char) code);
                }
                default -> throw error("bad escape");
            }
        }
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        boolean integer = true;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c >= '0' && c <= '9') {
                pos++;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                integer = false;
                pos++;
            } else {
                break;
            }
        }
        String digits = text.substring(start, pos);
        try {
            if (!integer) {
                return Double.parseDouble(digits);
            }
            BigInteger big = new BigInteger(digits);
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        } catch (NumberFormatException ex) {
            throw error("bad number");
        }
    }
}
