use super::*;

/// The message of `read`'s refusal of `line` (a test failure if it reads it).
fn refusal<T: std::fmt::Debug>(read: fn(&str) -> Result<T, LineError>, line: &str) -> String {
    match read(line) {
        Ok(read) => panic!("{line} was read as {read:?}"),
        Err(e) => e.message,
    }
}

fn refused(line: &str) -> String {
    refusal(read_answer, line)
}

fn hello_refused(line: &str) -> String {
    refusal(read_hello, line)
}

#[test]
fn answers_in_every_accepted_form() {
    let read = |line: &str| read_answer(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let bet = |id, amount| Answer {
        id,
        action: Action::Bet { amount },
    };
    assert_eq!(read(r#"{"id":7,"action":"bet","amount":4}"#), bet(7, 4));
    // Whole numbers however written, as JSON Schema's "integer".
    assert_eq!(read(r#"{"id":7.0,"action":"bet","amount":4.0}"#), bet(7, 4));
    assert_eq!(
        read(r#"{"id":7e0,"action":"bet","amount":0.4e1}"#),
        bet(7, 4)
    );
    assert_eq!(read(r#"{"id":-0,"action":"bet","amount":-0.0}"#), bet(0, 0));
    assert_eq!(
        read(r#"{"id":18446744073709551615,"action":"bet","amount":1}"#),
        bet(u64::MAX, 1)
    );
    // Unknown fields, and parameters the action does not take, whatever their value.
    assert_eq!(
        read(r#" {"note":[1,{"x":null}],"action":"pack","amount":"x","card":7,"id":3,"note":0} "#),
        Answer {
            id: 3,
            action: Action::Pack
        }
    );
    assert_eq!(
        read(r#"{"id":7,"action":"bet","amount":4,"card":"Zz"}"#),
        bet(7, 4)
    );
    assert_eq!(
        read(r#"{"id":8,"action":"swap","card":"10d","amount":-1}"#).action,
        Action::Swap {
            card: "Td".parse().unwrap()
        }
    );
    // Escapes in keys and values are JSON's business, not the bot's problem.
    assert_eq!(
        read(r#"{"\u0069d":9,"action":"p\u0061ck"}"#).action,
        Action::Pack
    );
}

#[test]
fn refused_answers_name_the_field_and_the_value() {
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":2.5}"#),
        r#""amount":2.5 is not a whole number"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":-4}"#),
        r#""amount":-4 is negative"#
    );
    // Exactly as written, never as a float.
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":18446744073709551616}"#),
        r#""amount":18446744073709551616 is above the largest allowed, 18446744073709551615"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":1e30}"#),
        r#""amount":1e30 is above the largest allowed, 18446744073709551615"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":1e400}"#),
        r#""amount":1e400 is above the largest allowed, 18446744073709551615"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":-1e400}"#),
        r#""amount":-1e400 is negative"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"bet","amount":"4"}"#),
        r#""amount" is the string "4"; write a number: "amount":4"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"bet"}"#),
        r#""action":"bet" needs an "amount", e.g. "amount":4"#
    );
    assert_eq!(
        refused(r#"{"id":"7","action":"pack"}"#),
        r#""id" is the string "7"; write a number: "id":7"#
    );
    assert_eq!(
        refused(r#"{"action":"pack"}"#),
        r#"no "id": echo the id of the request you answer"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"fly"}"#),
        r#""action":"fly" is not an action; the actions are pack, see, bet, show, sideshow, swap, keep, accept, refuse"#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":["pack"]}"#),
        r#""action" is an array; write the action's name as a string, e.g. "action":"pack""#
    );
    assert_eq!(
        refused(r#"{"id":8,"action":"swap","card":"Kx"}"#),
        r#""card":"Kx" is not a card: unknown suit; expected one of c, d, h, s"#
    );
    assert_eq!(
        refused(r#"{"id":8,"action":"swap","card":null}"#),
        r#""card" is null; write the card as a string, e.g. "card":"Kd""#
    );
    assert_eq!(
        refused(r#"{"id":7,"action":"pack","id":8}"#),
        r#""id" is given twice; give each field once"#
    );
    // Every problem at once.
    assert_eq!(
        refused(r#"{"id":-1}"#),
        r#""id":-1 is negative; no "action": one of pack, see, bet, show, sideshow, swap, keep, accept, refuse"#
    );
}

#[test]
fn lines_that_are_not_one_object_say_so() {
    assert_eq!(refused(""), "an empty line; expected one JSON object");
    assert_eq!(
        refused(r#"[7,"pack"]"#),
        "An array is not a JSON object; expected one object {...} per line"
    );
    assert_eq!(
        refused("42"),
        "The number 42 is not a JSON object; expected one object {...} per line"
    );
    assert!(
        refused("pack").starts_with("not JSON ("),
        "{}",
        refused("pack")
    );
    assert!(refused(r#"{"id":7,"#).starts_with("not JSON ("));
    assert_eq!(
        refused("\u{FEFF}{\"id\":7,\"action\":\"pack\"}"),
        "the line starts with a UTF-8 byte order mark (EF BB BF); write plain UTF-8"
    );
}

#[test]
fn a_refused_answer_keeps_a_readable_id() {
    let e = read_answer(r#"{"id":3,"note":"hi"}"#).unwrap_err();
    assert_eq!(e.id, Some(3));
    assert_eq!(
        read_answer(r#"{"id":3.5,"action":"x"}"#).unwrap_err().id,
        None
    );
}

#[test]
fn long_values_are_echoed_cut() {
    let long = format!(r#"{{"id":7,"action":"{}"}}"#, "é".repeat(100));
    let message = refused(&long);
    assert!(message.len() < 200, "{message}");
    assert!(
        message.contains("...\" is not an action") || message.contains("... is not an action"),
        "{message}"
    );
}

#[test]
fn hellos_in_every_accepted_form() {
    let read = |line: &str| read_hello(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let hello = read(r#"{"type":"hello","name":"my-bot","version":"1.0","protocol":1}"#);
    assert_eq!(
        (hello.name.as_str(), hello.version.as_str(), hello.protocol),
        ("my-bot", "1.0", Some(1))
    );
    let hello = read(r#"{"type":"hello","name":"b"}"#);
    assert_eq!((hello.version.as_str(), hello.protocol), ("", None));
    assert_eq!(
        read(r#"{"type":"hello","name":"b","protocol":null}"#).protocol,
        None
    );
    assert_eq!(
        read(r#"{"type":"hello","name":"b","protocol":2.0}"#).protocol,
        Some(2)
    );
    assert_eq!(
        read(r#"{"type":"hello","name":"b","extra":{"x":1}}"#).name,
        "b"
    );
}

#[test]
fn each_refused_hello_says_which_field_and_why() {
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":""}"#),
        r#""name" is empty; give your bot a name"#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":" \t"}"#),
        r#""name":" \t" is only white space; give your bot a name"#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":7}"#),
        r#""name" is the number 7; write a string, e.g. "name":"my-bot""#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello"}"#),
        r#"no "name": give your bot a name, e.g. "name":"my-bot""#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":"b","version":1}"#),
        r#""version" is the number 1; write a string, e.g. "version":"1.0""#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":"b","protocol":"1"}"#),
        r#""protocol" is the string "1"; write a number: "protocol":1"#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":"b","protocol":1.5}"#),
        r#""protocol":1.5 is not a whole number"#
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":"b","protocol":4294967296}"#),
        r#""protocol":4294967296 is above the largest allowed, 4294967295"#
    );
    assert_eq!(
        hello_refused(r#"{"type":"helo","name":"b"}"#),
        r#""type":"helo" is not the hello answer; expected "type":"hello""#
    );
    assert_eq!(
        hello_refused(r#"{"type":1,"name":"b"}"#),
        r#""type" is the number 1; expected "type":"hello""#
    );
    assert_eq!(
        hello_refused(r#"{"name":"b"}"#),
        r#"no "type": the hello answer has "type":"hello""#
    );
    assert_eq!(
        hello_refused(r#"{"id":1,"action":"pack"}"#),
        r#"this looks like an answer to a request; the first line must be the hello answer {"type":"hello","name":...}; no "name": give your bot a name, e.g. "name":"my-bot""#
    );
    assert_eq!(
        hello_refused("\u{FEFF}{\"type\":\"hello\",\"name\":\"b\"}"),
        "the line starts with a UTF-8 byte order mark (EF BB BF); write plain UTF-8"
    );
    assert_eq!(
        hello_refused(r#"{"type":"hello","name":"","version":2}"#),
        r#""name" is empty; give your bot a name; "version" is the number 2; write a string, e.g. "version":"1.0""#
    );
}

#[test]
fn no_line_makes_the_readers_panic() {
    for line in [
        "{",
        "}",
        "{\"id\":}",
        "{\"id\":1e999}",
        "{\"id\":-}",
        "\u{FEFF}",
        "\"\\ud800\"",
        "{\"id\":7,\"action\":\"bet\",\"amount\":1e-400}",
        "{\"id\":00}",
        "nul",
        "{\"id\":1,\"mix\":[{\"action\":\"pack\",\"p\":1e999}]}",
        "{\"id\":1,\"mix\":[{\"action\":\"pack\",\"p\":-1e999}]}",
        "{\"id\":1,\"mix\":[{\"action\":\"pack\",\"p\":1e-400}]}",
        "{\"id\":1,\"mix\":[{\"p\":1},{}]}",
        "{\"id\":1,\"mix\":[null,[],\"x\"]}",
        "{\"id\":1,\"mix\":null}",
    ] {
        let _ = read_answer(line);
        let _ = read_reply(line);
        let _ = read_hello(line);
    }
}

fn mix_refused(line: &str) -> String {
    refusal(read_reply, line)
}

#[test]
fn mixed_answers_are_read_with_their_probabilities() {
    let reply = read_reply(
        r#"{"id":7,"mix":[{"action":"pack","p":0.25},{"action":"bet","amount":4.0,"p":0.75,"why":1}]}"#,
    )
    .unwrap();
    assert_eq!(
        reply,
        Reply::Mix(MixAnswer {
            id: 7,
            mix: vec![
                MixEntry {
                    action: Action::Pack,
                    p: 0.25
                },
                MixEntry {
                    action: Action::Bet { amount: 4 },
                    p: 0.75
                },
            ],
        })
    );
    assert_eq!(reply.id(), 7);
    // A plain answer is still a plain answer, and a zero probability is allowed.
    assert_eq!(
        read_reply(r#"{"id":8,"action":"keep"}"#).unwrap(),
        Reply::Action(Answer {
            id: 8,
            action: Action::Keep
        })
    );
    let third = 1.0 / 3.0;
    let line = format!(
        r#"{{"id":9,"mix":[{{"action":"swap","card":"Kd","p":{third}}},{{"action":"keep","p":{third}}},{{"action":"pack","p":{third}}},{{"action":"show","p":0}}]}}"#
    );
    let Reply::Mix(mix) = read_reply(&line).unwrap() else {
        panic!("a mix")
    };
    assert_eq!(mix.mix.len(), 4);
}

#[test]
fn refused_mixes_say_which_entry_and_why() {
    assert_eq!(
        mix_refused(r#"{"id":7,"mix":[{"action":"pack","p":0.5},{"action":"show","p":0.4}]}"#),
        r#"the probabilities of "mix" add up to 0.9, not 1"#
    );
    assert_eq!(
        mix_refused(r#"{"id":7,"mix":[{"action":"pack","p":0.5},{"action":"pack","p":0.5}]}"#),
        "mix[1] gives the action of mix[0] again; give each action once"
    );
    assert_eq!(
        mix_refused(r#"{"id":7,"mix":[{"action":"pack","p":1.5}]}"#),
        r#"mix[0]: "p":1.5 is not between 0 and 1"#
    );
    assert_eq!(
        mix_refused(r#"{"id":7,"mix":[{"action":"pack","p":-0.5},{"action":"show","p":1.5}]}"#),
        r#"mix[0]: "p":-0.5 is not between 0 and 1; mix[1]: "p":1.5 is not between 0 and 1"#
    );
    assert_eq!(
        mix_refused(r#"{"id":7,"mix":[{"action":"pack","p":"0.5"},{"action":"bet","p":0.5}]}"#),
        r#"mix[0]: "p" is the string "0.5"; write a probability as a number, e.g. "p":0.25; mix[1]: "action":"bet" needs an "amount", e.g. "amount":4"#
    );
    assert!(mix_refused(r#"{"id":7,"mix":[]}"#).starts_with(r#""mix" is empty"#));
    assert!(
        mix_refused(r#"{"id":7,"mix":{"action":"pack"}}"#)
            .starts_with(r#""mix" is an object; write an array"#)
    );
    assert!(
        mix_refused(r#"{"id":7,"mix":[3]}"#).starts_with("mix[0]: the number 3 is not an object")
    );
    assert_eq!(
        mix_refused(r#"{"id":7,"mix":[{"action":"pack"}]}"#),
        r#"mix[0]: no "p": give the action's probability, e.g. "p":0.25"#
    );
    assert_eq!(
        mix_refused(r#"{"id":7,"action":"pack","mix":[{"action":"pack","p":1}]}"#),
        r#"give either "action" or "mix", not both"#
    );
    let many = vec![r#"{"action":"pack","p":0}"#; MAX_MIX_ENTRIES + 1].join(",");
    assert_eq!(
        mix_refused(&format!(r#"{{"id":7,"mix":[{many}]}}"#)),
        format!(
            r#""mix" has {} entries; at most {MAX_MIX_ENTRIES}"#,
            MAX_MIX_ENTRIES + 1
        )
    );
    // The id is still known, so a late mix is recognised as late.
    let e = read_reply(r#"{"id":12,"mix":[]}"#).unwrap_err();
    assert_eq!(e.id, Some(12));
}
