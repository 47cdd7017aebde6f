import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A small helper for Teen Patti arena bots in Java 17 (standard library only).
 *
 * <p>What it does for you (the protocol is in protocol/PROTOCOL.md):
 * <ul>
 *   <li>reads one JSON message per line from stdin and answers {@code hello} with your name;
 *   <li>follows the events of every hand in a {@link State}: your cards, who is still in, the
 *       pot, the stake, what every seat put in, the cards revealed to you;
 *   <li>for every {@code request} calls YOUR {@link Strategy#decide} and writes its answer
 *       (one action, or a mix of actions with their probabilities: {@link Answer#mix}), with
 *       the request's id, as one line on stdout, flushed at once;
 *   <li>if {@code decide} throws or returns an illegal answer, logs it and sends the safe
 *       answer (pack / keep / refuse) instead, so that a bug costs one hand, not the match;
 *   <li>logs fault notices to stderr, and returns at {@code match_end} or end of input.
 * </ul>
 *
 * <pre>
 *   TeenPatti.run("my-bot", "1.0", (request, state) -&gt; {
 *       if (request.can("see")) return Answer.of("see");
 *       if (request.can("bet")) return request.bet(request.find("bet").min);
 *       return request.safe();
 *   }, args);
 * </pre>
 *
 * <p>stdout belongs to the protocol. The helper points {@code System.out} at stderr, so a
 * stray {@code System.out.println} lands in your log instead of breaking the protocol; use
 * {@link #log} anyway. Run the bot with {@code --debug} to log every line received and sent.
 */
public final class TeenPatti {
    private TeenPatti() {}

    /** Your bot: one answer per request. The other callbacks are optional. */
    public interface Strategy {
        Answer decide(Request request, State state);

        default void onHello(State state) {}

        default void onEvent(Map<String, Object> event, State state) {}
    }

    /** Writes one line to stderr, your bot's log. */
    public static void log(String text) {
        System.err.println(text);
    }

    // ---- Requests and answers -------------------------------------------------------------

    /** One entry of a request's legal list. */
    public static final class Legal {
        public final String action; // pack, see, bet, show, sideshow, swap, keep, accept, refuse
        public final long min;       // bet: the bounds (both included)
        public final long max;
        public final long multipleOf; // bet: the amount must be a multiple of this
        public final long cost;       // show, sideshow, swap
        public final int target;      // sideshow: the seat asked
        public final List<String> cards; // swap: the cards you may discard

        Legal(Object json) {
            action = Json.asString(Json.get(json, "action"), "");
            min = Json.asLong(Json.get(json, "min"), 0);
            max = Json.asLong(Json.get(json, "max"), 0);
            multipleOf = Math.max(1, Json.asLong(Json.get(json, "multiple_of"), 1));
            cost = Json.asLong(Json.get(json, "cost"), 0);
            target = Json.asInt(Json.get(json, "target"), -1);
            cards = strings(Json.get(json, "cards"));
        }
    }

    /** A request, already read for you. {@code json} is the whole message. */
    public static final class Request {
        public final long id;
        public final long hand;
        public final String kind; // "bet", "swap" or "sideshow_reply"
        public final List<Legal> legal = new ArrayList<>();
        public final long pot;
        public final long stake;
        public final List<String> cards; // your three cards; null while blind (classic)
        public final Map<String, Object> json;

        Request(Map<String, Object> m) {
            json = m;
            id = Json.asLong(m.get("id"), 0);
            hand = Json.asLong(m.get("hand"), 0);
            kind = Json.asString(m.get("kind"), "");
            for (Object entry : Json.asList(m.get("legal"))) {
                legal.add(new Legal(entry));
            }
            pot = Json.asLong(m.get("pot"), 0);
            stake = Json.asLong(m.get("stake"), 0);
            List<String> mine = strings(m.get("cards"));
            cards = mine.size() == 3 ? mine : null;
        }

        /** The legal entry named {@code name}, or null if it is not offered. */
        public Legal find(String name) {
            for (Legal l : legal) {
                if (l.action.equals(name)) {
                    return l;
                }
            }
            return null;
        }

        public boolean can(String name) {
            return find(name) != null;
        }

        /** A bet with {@code amount} moved inside [min, max] and onto a multiple. */
        public Answer bet(long amount) {
            Legal b = find("bet");
            if (b == null) {
                return safe();
            }
            long a = Math.max(b.min, Math.min(b.max, amount));
            a -= a % b.multipleOf;
            if (a < b.min) {
                a += b.multipleOf;
            }
            return Answer.bet(a);
        }

        /** What the arena would do for you: pack a bet, keep the cards, refuse a sideshow. */
        public Answer safe() {
            String name = switch (kind) {
                case "swap" -> "keep";
                case "sideshow_reply" -> "refuse";
                default -> "pack";
            };
            if (!can(name) && !legal.isEmpty()) {
                name = legal.get(0).action;
            }
            return Answer.of(name);
        }

        /**
         * Whether {@code answer} is allowed here. A mix is allowed when it has 1 to 1024
         * entries, each allowed by itself, no action twice (a bet of another amount or a swap
         * of another card is another action), and probabilities from 0 to 1 that add up to 1
         * (within 0.000001).
         */
        public boolean allows(Answer answer) {
            if (answer == null) {
                return false;
            }
            if (answer.isMix()) {
                List<Answer.Weighted> entries = answer.entries();
                if (entries.isEmpty() || entries.size() > Answer.MAX_ENTRIES) {
                    return false;
                }
                Set<Answer> seen = new HashSet<>();
                double total = 0;
                for (Answer.Weighted e : entries) {
                    if (!(e.p() >= 0 && e.p() <= 1) || !seen.add(e.answer())
                            || !allows(e.answer())) {
                        return false; // (the first test is false for NaN too)
                    }
                    total += e.p();
                }
                return Math.abs(total - 1) <= 1e-6;
            }
            Legal l = find(answer.action);
            if (l == null) {
                return false;
            }
            if (l.action.equals("bet")) {
                return answer.amount >= l.min && answer.amount <= l.max
                        && answer.amount % l.multipleOf == 0;
            }
            if (l.action.equals("swap")) {
                return l.cards.contains(answer.card);
            }
            return true;
        }
    }

    /**
     * What decide returns: one action, {@code Answer.of("pack")}, {@code Answer.bet(4)},
     * {@code Answer.swap("Kd")}, or a mix of several, each with its probability:
     *
     * <pre>
     *   Answer.mix().add(Answer.bet(4), 0.75).add(Answer.of("pack"), 0.25)
     * </pre>
     *
     * <p>The arena draws the action it plays from a mix and tells every seat in the event that
     * follows (PROTOCOL.md, "Mixed answers"). Answers are immutable: {@code add} returns a
     * new mix. Two answers are {@link #equals equal} when they are the same action (name, and
     * the amount of a bet or the card of a swap), or the same mix.
     */
    public static final class Answer {
        /** The most entries a mix may have. */
        public static final int MAX_ENTRIES = 1024;

        /** One entry of a mix: an action and the probability of playing it. */
        public record Weighted(Answer answer, double p) {}

        public final String action; // "mix" for a mix: its actions are in entries()
        public final long amount;   // bet
        public final String card;   // swap
        private final List<Weighted> entries; // null unless a mix

        private Answer(String action, long amount, String card, List<Weighted> entries) {
            this.action = action;
            this.amount = amount;
            this.card = card;
            this.entries = entries;
        }

        /** An answer without parameters: pack, see, show, sideshow, keep, accept, refuse. */
        public static Answer of(String action) {
            return new Answer(action, 0, null, null);
        }

        public static Answer bet(long amount) {
            return new Answer("bet", amount, null, null);
        }

        public static Answer swap(String card) {
            return new Answer("swap", 0, card, null);
        }

        /** An empty mix; {@link #add} its actions (the probabilities must add up to 1). */
        public static Answer mix() {
            return new Answer("mix", 0, null, List.of());
        }

        /**
         * This mix with one more entry: play {@code answer} (one action, not a mix) with
         * probability {@code p}. Throws IllegalStateException if this answer is not a mix,
         * IllegalArgumentException if {@code answer} is null or a mix; the rest (p from 0 to
         * 1 adding up to 1, no action twice, every action legal) is checked by
         * {@link Request#allows} before the answer is sent.
         */
        public Answer add(Answer answer, double p) {
            if (!isMix()) {
                throw new IllegalStateException("add to Answer.mix(), not to " + this);
            }
            if (answer == null || answer.isMix()) {
                throw new IllegalArgumentException("a mix holds actions, not " + answer);
            }
            List<Weighted> more = new ArrayList<>(entries);
            more.add(new Weighted(answer, p));
            return new Answer(action, 0, null, List.copyOf(more));
        }

        public boolean isMix() {
            return entries != null;
        }

        /** The entries of a mix (an unmodifiable list); empty for one action. */
        public List<Weighted> entries() {
            return isMix() ? entries : List.of();
        }

        /** The answer's fields as JSON, without braces: "action":"bet","amount":4. */
        private String fields() {
            if (isMix()) {
                StringBuilder out = new StringBuilder("\"mix\":[");
                for (int i = 0; i < entries.size(); i++) {
                    Weighted e = entries.get(i);
                    // Double.toString: the shortest digits that read back as the same double,
                    // never locale-dependent (no decimal comma), so the sum survives.
                    out.append(i == 0 ? "{" : ",{").append(e.answer().fields())
                            .append(",\"p\":").append(Double.toString(e.p())).append('}');
                }
                return out.append(']').toString();
            }
            StringBuilder out = new StringBuilder("\"action\":");
            out.append(Json.quote(String.valueOf(action)));
            if ("bet".equals(action)) {
                out.append(",\"amount\":").append(amount);
            }
            if ("swap".equals(action)) {
                out.append(",\"card\":").append(Json.quote(String.valueOf(card)));
            }
            return out.toString();
        }

        /** The answer line: the request's id, then the answer. */
        String toJson(long id) {
            return "{\"id\":" + id + "," + fields() + "}";
        }

        @Override
        public String toString() {
            return "{" + fields() + "}";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Answer a && Objects.equals(action, a.action)
                    && amount == a.amount && Objects.equals(card, a.card)
                    && Objects.equals(entries, a.entries);
        }

        @Override
        public int hashCode() {
            return Objects.hash(action, amount, card, entries);
        }
    }

    // ---- State ---------------------------------------------------------------------------

    /** One seat's public state in the current hand. */
    public static final class Player {
        public boolean inHand = true; // not packed, not dead
        public boolean seen;          // classic: has looked at its cards (always true elsewhere)
        public boolean dead;          // lallan-kallan: a one-colour hand
        public long putIn;            // chips put in the pot this hand, boot included
        public int turns;             // betting turns completed
        public int swaps;             // closest-555: cards swapped
    }

    /** What the bot knows: the match (from hello) and the hand being played. */
    public static final class State {
        // From hello.
        public final Map<String, Object> hello;
        public final String game; // "classic", "closest-555" or "lallan-kallan"
        public final Map<String, Object> settings;
        public final int seat;
        public final int seats;
        public final long hands;
        public final long firstHand;
        public final long seed; // a 64-bit seed; read it as unsigned (Long.toUnsignedString)
        public final List<String> names;
        // The current hand (reset at hand_started).
        public long hand = -1;
        public int dealer = -1;
        public long pot;
        public long stake;
        public long boot;
        public List<String> myCards; // null until you know them (classic: until you see)
        public Player[] players;
        public Map<Integer, List<String>> known = new HashMap<>(); // cards revealed to you
        public int sideshowAsker = -1; // who asked you for a sideshow
        // Over the match.
        public long total; // your net chips so far

        State(Map<String, Object> m) {
            hello = m;
            game = Json.asString(m.get("game"), "");
            settings = Json.asMap(m.get("settings"));
            seat = Json.asInt(m.get("seat"), 0);
            seats = Math.max(1, Json.asInt(m.get("seats"), 2));
            hands = Json.asLong(m.get("hands"), 0);
            firstHand = Json.asLong(m.get("first_hand"), 0);
            seed = Json.asLong(m.get("seed"), 0);
            names = strings(m.get("players"));
            boot = Json.asLong(settings.get("boot"), 1);
            newHand(-1);
        }

        void newHand(long number) {
            hand = number;
            dealer = -1;
            pot = 0;
            stake = 0;
            myCards = null;
            players = new Player[seats];
            for (int s = 0; s < seats; s++) {
                players[s] = new Player();
                players[s].seen = !game.equals("classic");
                players[s].putIn = boot;
            }
            known = new HashMap<>();
            sideshowAsker = -1;
        }

        /** Seats other than yours still in the hand. */
        public List<Integer> opponentsInHand() {
            List<Integer> out = new ArrayList<>();
            for (int s = 0; s < players.length; s++) {
                if (s != seat && players[s].inHand) {
                    out.add(s);
                }
            }
            return out;
        }

        /** The seat's Player; a dummy one for a seat out of range (never throws). */
        Player player(Object seatValue) {
            int s = Json.asInt(seatValue, -1);
            return s >= 0 && s < players.length ? players[s] : new Player();
        }

        void applyEvent(Map<String, Object> m) {
            String kind = Json.asString(m.get("event"), "");
            int who = Json.asInt(m.get("seat"), -1);
            Player p = player(m.get("seat"));
            switch (kind) {
                case "hand_started" -> {
                    boot = Json.asLong(m.get("boot"), boot);
                    newHand(Json.asLong(m.get("hand"), -1));
                    dealer = Json.asInt(m.get("dealer"), -1);
                    pot = Json.asLong(m.get("pot"), 0);
                    stake = Json.asLong(m.get("stake"), boot);
                }
                case "dealt", "saw" -> {
                    // Your own cards come in dealt (555, lallan-kallan) or in saw (classic).
                    if (kind.equals("saw")) {
                        p.seen = true;
                    }
                    List<String> cards = strings(m.get("cards"));
                    if (who == seat && cards.size() == 3) {
                        myCards = cards;
                    }
                }
                case "dead" -> {
                    for (Object s : Json.asList(m.get("seats"))) {
                        player(s).dead = true;
                        player(s).inHand = false;
                    }
                }
                case "redeal" -> {
                    pot = Json.asLong(m.get("pot"), pot);
                    myCards = null;
                    for (Player q : players) {
                        q.dead = false;
                        q.inHand = true;
                    }
                }
                case "swapped" -> {
                    long cost = Json.asLong(m.get("cost"), 0);
                    p.swaps++;
                    p.putIn += cost;
                    pot += cost;
                    known.remove(who); // their cards changed
                    String out = Json.asString(m.get("discarded"), null);
                    String in = Json.asString(m.get("drawn"), null);
                    if (who == seat && out != null && in != null && myCards != null) {
                        List<String> now = new ArrayList<>(myCards);
                        now.replaceAll(c -> c.equals(out) ? in : c);
                        myCards = now;
                    }
                }
                case "bet" -> {
                    p.putIn += Json.asLong(m.get("amount"), 0);
                    p.turns++;
                    stake = Json.asLong(m.get("stake"), stake);
                    pot = Json.asLong(m.get("pot"), pot);
                }
                case "packed" -> p.inHand = false;
                case "show_asked", "sideshow_asked" -> {
                    p.putIn += Json.asLong(m.get("cost"), 0);
                    pot = Json.asLong(m.get("pot"), pot);
                    if (kind.equals("sideshow_asked")) {
                        sideshowAsker = who;
                    }
                }
                case "sideshow_compared" -> {
                    learn(m.get("seat"), m.get("seat_cards"));
                    learn(m.get("target"), m.get("target_cards"));
                }
                case "revealed" -> {
                    for (Object h : Json.asList(m.get("hands"))) {
                        learn(Json.get(h, "seat"), Json.get(h, "cards"));
                    }
                }
                case "hand_ended" -> total += Json.asLong(Json.at(m.get("payoffs"), seat), 0);
                default -> { } // an event kind this helper does not know: ignore it
            }
        }

        private void learn(Object seatValue, Object cardsValue) {
            int s = Json.asInt(seatValue, -1);
            List<String> cards = strings(cardsValue);
            if (s >= 0 && s != seat && cards.size() == 3) {
                known.put(s, cards);
            }
        }

        /** A request repeats the public state: take it over (it is authoritative). */
        void applyRequest(Request r) {
            hand = r.hand;
            pot = r.pot;
            stake = r.stake;
            if (r.cards != null) {
                myCards = r.cards;
            }
            // A sideshow_reply request names the asker (the sideshow_asked event did too).
            sideshowAsker = Json.asInt(r.json.get("sideshow_from"), sideshowAsker);
            List<Object> views = Json.asList(r.json.get("players"));
            for (int s = 0; s < views.size() && s < players.length; s++) {
                Object v = views.get(s);
                Player p = players[s];
                p.inHand = Json.asBool(Json.get(v, "in_hand"), p.inHand);
                p.seen = Json.asBool(Json.get(v, "seen"), p.seen);
                p.dead = Json.asBool(Json.get(v, "dead"), p.dead);
                p.putIn = Json.asLong(Json.get(v, "put_in"), p.putIn);
                p.turns = Json.asInt(Json.get(v, "turns"), p.turns);
                p.swaps = Json.asInt(Json.get(v, "swaps"), p.swaps);
            }
            known = new HashMap<>();
            for (Map.Entry<String, Object> e : Json.asMap(r.json.get("known")).entrySet()) {
                try {
                    learn(Integer.valueOf(e.getKey()), e.getValue());
                } catch (NumberFormatException ex) {
                    // not a seat number: ignore
                }
            }
        }
    }

    static List<String> strings(Object value) {
        List<String> out = new ArrayList<>();
        for (Object o : Json.asList(value)) {
            if (o instanceof String s) {
                out.add(s);
            }
        }
        return out;
    }

    // ---- The main loop -------------------------------------------------------------------

    /** Plays the match on stdin/stdout; returns at match_end or end of input. */
    public static void run(String name, String version, Strategy strategy, String[] args)
            throws IOException {
        boolean debug = Arrays.asList(args).contains("--debug");
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                StandardCharsets.UTF_8);
        System.setOut(System.err); // a stray System.out.println goes to the log
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        State state = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (debug) {
                log("[recv] " + line);
            }
            Map<String, Object> m;
            try {
                m = Json.asMap(Json.parse(line));
            } catch (IllegalArgumentException ex) {
                log("[teenpatti] ignoring a line that is not JSON (" + ex.getMessage() + ")");
                continue;
            }
            String reply = null;
            switch (Json.asString(m.get("type"), "")) {
                case "hello" -> {
                    State hello = new State(m);
                    state = hello;
                    guarded("onHello", () -> strategy.onHello(hello));
                    reply = "{\"type\":\"hello\",\"name\":" + Json.quote(name) + ",\"version\":"
                            + Json.quote(version) + ",\"protocol\":1}";
                    log("[teenpatti] " + name + ": seat " + state.seat + " of " + state.seats
                            + ", " + state.game + ", hands " + state.firstHand + ".."
                            + state.hands);
                }
                case "event" -> {
                    if (state != null) {
                        State now = state;
                        guarded("the state", () -> now.applyEvent(m));
                        guarded("onEvent", () -> strategy.onEvent(m, now));
                    }
                }
                case "request" -> {
                    if (state == null) {
                        state = new State(new HashMap<>());
                    }
                    Request request = new Request(m);
                    reply = decideSafely(strategy, request, state).toJson(request.id);
                }
                case "fault" -> log("[teenpatti] FAULT " + m.get("fault") + " on request "
                        + m.get("id") + ": " + m.get("detail") + " (applied " + m.get("applied")
                        + ")");
                case "match_end" -> {
                    log("[teenpatti] match over after " + m.get("hands") + " hands; totals "
                            + m.get("totals"));
                    return;
                }
                default -> { } // a message type this helper does not know: ignore it
            }
            if (reply != null) {
                if (debug) {
                    log("[send] " + reply);
                }
                out.print(reply + "\n");
                out.flush(); // without the flush the arena never gets the line
            }
        }
    }

    /** Runs {@code code}, logging what it throws: a bug in a callback must not end the bot. */
    private static void guarded(String what, Runnable code) {
        try {
            code.run();
        } catch (RuntimeException | StackOverflowError ex) {
            log("[teenpatti] " + what + " threw " + ex);
            ex.printStackTrace();
        }
    }

    private static Answer decideSafely(Strategy strategy, Request request, State state) {
        Answer answer;
        try {
            state.applyRequest(request);
            answer = strategy.decide(request, state);
        } catch (RuntimeException | StackOverflowError ex) {
            log("[teenpatti] decide threw " + ex + "; sending the safe answer instead");
            ex.printStackTrace();
            return request.safe();
        }
        if (!request.allows(answer)) {
            List<String> names = new ArrayList<>();
            request.legal.forEach(l -> names.add(l.action));
            String rule = answer != null && answer.isMix() ? "; a mix needs 1 to "
                    + Answer.MAX_ENTRIES + " legal actions, none twice, p from 0 to 1 adding up"
                    + " to 1" : "";
            log("[teenpatti] decide returned " + answer + ", not legal here (legal: " + names
                    + rule + "); sending the safe answer instead");
            return request.safe();
        }
        return answer;
    }
}
