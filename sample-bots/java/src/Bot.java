import java.io.IOException;

/**
 * The starter bot: sees at once (classic), always bets the minimum, keeps its cards
 * (closest-555), refuses sideshows. Your strategy goes in decide().
 *
 * <p>Build: {@code javac -d build src/*.java} (in sample-bots/java). Run: {@code arena match
 * --game closest-555 --hands 50 --bot "java -cp sample-bots/java/build Bot" --bot "python3
 * sample-bots/python/random_bot.py"}
 */
public final class Bot implements TeenPatti.Strategy {
    /**
     * Called for every request; return the answer (the helper adds the id).
     * request.kind is "bet", "swap" or "sideshow_reply"; request.legal is what you may do
     * (request.find("bet").min ...); request.cards are your cards (null while blind).
     * state is the match and the hand: state.game, state.pot, state.players[seat].inHand,
     * state.known, state.opponentsInHand() ... (see TeenPatti.State).
     */
    @Override
    public TeenPatti.Answer decide(TeenPatti.Request request, TeenPatti.State state) {
        if (request.can("see")) {
            return TeenPatti.Answer.of("see"); // classic: look at the cards
        }
        if (request.can("bet")) {
            return request.bet(request.find("bet").min); // chaal: the minimum
        }
        if (request.can("keep")) {
            return TeenPatti.Answer.of("keep"); // closest-555: no swap
        }
        if (request.can("refuse")) {
            return TeenPatti.Answer.of("refuse"); // no sideshow
        }
        return request.safe();
    }

    public static void main(String[] args) throws IOException {
        TeenPatti.run("java-starter", "1.0", new Bot(), args);
    }
}
