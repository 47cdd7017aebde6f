//! Values cached per key (a bot's page per bot name), each a [`Cached`] of its own with the
//! same rules, and at most `capacity` keys: when a new key finds the map full, the key whose
//! value is oldest (or that has none yet) goes. Bounded because keys come from visitors'
//! URLs; kept by age rather than by use because a page read once long ago is the one least
//! worth keeping.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::cached::Cached;

pub struct CachedMap<V> {
    max_age: Duration,
    wait: Duration,
    capacity: usize,
    slots: Mutex<HashMap<String, Arc<Cached<V>>>>,
}

impl<V> std::fmt::Debug for CachedMap<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedMap")
            .field("max_age", &self.max_age)
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl<V: Send + Sync + 'static> CachedMap<V> {
    /// At most `capacity` (at least 1) keys, each value kept `max_age` (see [`Cached::new`]).
    pub fn new(max_age: Duration, wait: Duration, capacity: usize) -> CachedMap<V> {
        CachedMap {
            max_age,
            wait,
            capacity: capacity.max(1),
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// The slot of `key`, made if missing. The map's lock is held for the lookup only, never
    /// while a value is made.
    pub fn slot(&self, key: &str) -> Arc<Cached<V>> {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(slot) = slots.get(key) {
            return slot.clone();
        }
        if slots.len() >= self.capacity {
            // O(capacity) once per new key when full: a thousand comparisons, far cheaper
            // than the queries that the new key's page costs anyway.
            let oldest = slots
                .iter()
                .min_by_key(|(_, slot)| slot.made_at())
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                slots.remove(&oldest);
            }
        }
        let slot = Arc::new(Cached::new(self.max_age, self.wait));
        slots.insert(key.to_string(), slot.clone());
        slot
    }

    /// How many keys are kept.
    pub fn len(&self) -> usize {
        self.slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keys_are_bounded_and_the_oldest_value_goes_first() {
        let map: CachedMap<usize> =
            CachedMap::new(Duration::from_secs(60), Duration::from_secs(1), 3);
        for (i, key) in ["a", "b", "c"].iter().enumerate() {
            map.slot(key)
                .get(move || async move { Ok(i) })
                .await
                .unwrap();
            // Made one after the other: their ages differ.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // "a" read again: the same slot, its value not made again.
        let again = map.slot("a").get(|| async { Ok(99) }).await.unwrap();
        assert_eq!(*again.value, 0);
        // A fourth key: "a", made first, goes.
        map.slot("d").get(|| async { Ok(3) }).await.unwrap();
        assert_eq!(map.len(), 3);
        let a = map.slot("a").get(|| async { Ok(10) }).await.unwrap();
        assert_eq!(*a.value, 10, "made afresh");
        // And that pushed out "b", the oldest left; "c" and "d" stay.
        assert_eq!(map.len(), 3);
        let c = map.slot("c").get(|| async { Ok(20) }).await.unwrap();
        assert_eq!(*c.value, 2);
    }
}
