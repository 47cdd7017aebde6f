//! Which request ids one bot process was sent, so that an answer carrying another id is
//! judged precisely: a late answer to a request of its own that timed out is dropped quietly;
//! any other id (a request of another seat, one it never got, or one it already answered)
//! is a `wrong_id` fault at once, instead of a silent wait that burns its time bank.
//!
//! Ids come from one counter per match, shared by all seats, growing by one for every request
//! sent to any seat: the ids one bot sees grow but have gaps.

/// The ids sent to one process, in the order sent (so ascending), and those that timed out
/// without an answer yet.
#[derive(Clone, Debug, Default)]
pub struct RequestIds {
    /// Eight bytes a decision: a bot of a 100,000-hand match keeps well under a few MB.
    sent: Vec<u64>,
    /// Usually empty: a timeout spends the whole bank, and each late answer removes its id.
    late: Vec<u64>,
}

impl RequestIds {
    /// Request `id` was written to the bot (ids are sent in increasing order).
    pub fn sent(&mut self, id: u64) {
        debug_assert!(self.sent.last().is_none_or(|&last| last < id));
        self.sent.push(id);
    }

    /// Request `id` timed out: one late answer to it will be dropped quietly.
    pub fn timed_out(&mut self, id: u64) {
        self.late.push(id);
    }

    /// Whether an answer with `id` is the late answer to a request that timed out.
    pub fn is_late(&self, id: u64) -> bool {
        self.late.contains(&id)
    }

    /// The late answer to `id` arrived (and was dropped): a second one is a wrong id.
    pub fn answered_late(&mut self, id: u64) {
        self.late.retain(|&late| late != id);
    }

    fn was_sent(&self, id: u64) -> bool {
        self.sent.binary_search(&id).is_ok()
    }

    /// Why an answer with `id` is not the answer to `pending`, in the bot author's words.
    pub fn explain_wrong(&self, id: u64, pending: u64) -> String {
        let why = if id > pending {
            "no request with that id was sent yet".to_string()
        } else if self.was_sent(id) {
            format!("request {id} was already answered")
        } else {
            format!(
                "request {id} was never sent to this bot (ids are shared by all seats: the ids one bot gets have gaps)"
            )
        };
        format!(
            "\"id\":{id} is not the pending request's: {why}; answer request {pending} with \"id\":{pending}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_out_request_gets_one_quiet_late_answer() {
        let mut ids = RequestIds::default();
        ids.sent(3);
        ids.timed_out(3);
        ids.sent(7);
        assert!(ids.is_late(3));
        assert!(!ids.is_late(7));
        ids.answered_late(3);
        assert!(!ids.is_late(3), "a second late answer is a wrong id");
        assert!(
            ids.explain_wrong(3, 7)
                .contains("request 3 was already answered")
        );
    }

    #[test]
    fn each_wrong_id_says_why() {
        let mut ids = RequestIds::default();
        for id in [2, 5, 9] {
            ids.sent(id);
        }
        assert_eq!(
            ids.explain_wrong(5, 9),
            "\"id\":5 is not the pending request's: request 5 was already answered; answer request 9 with \"id\":9"
        );
        assert!(
            ids.explain_wrong(4, 9)
                .contains("request 4 was never sent to this bot (ids are shared by all seats")
        );
        assert!(
            ids.explain_wrong(1009, 9)
                .contains("no request with that id was sent yet")
        );
        assert!(!ids.is_late(5) && !ids.is_late(4));
    }
}
