//! How many connections may be open at once: in all (each holds a file descriptor, and a
//! server out of descriptors serves no one) and per client address (so one client, however
//! many sockets it opens, cannot take everyone's share).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The counts of open connections, shared by the accept loop and the connections' tasks.
#[derive(Debug)]
pub struct ConnectionCaps {
    total: Arc<Semaphore>,
    total_max: usize,
    per_address_max: usize,
    per_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server holds `max_connections` already.
    Full,
    /// This address holds `max_connections_per_address` already.
    AddressFull,
}

/// A connection's place, given back when dropped (when its task ends).
#[derive(Debug)]
pub struct Slot {
    _total: OwnedSemaphorePermit,
    address: IpAddr,
    per_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl ConnectionCaps {
    pub fn new(total_max: usize, per_address_max: usize) -> ConnectionCaps {
        ConnectionCaps {
            total: Arc::new(Semaphore::new(total_max)),
            total_max,
            per_address_max,
            per_address: Arc::default(),
        }
    }

    /// A place for a connection from `ip`, or why there is none (never waits).
    pub fn admit(&self, ip: IpAddr) -> Result<Slot, Refusal> {
        let address = address_key(ip);
        let total = self
            .total
            .clone()
            .try_acquire_owned()
            .map_err(|_| Refusal::Full)?;
        let mut counts = self.per_address.lock().unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(address).or_insert(0);
        if *count >= self.per_address_max {
            return Err(Refusal::AddressFull);
        }
        *count += 1;
        Ok(Slot {
            _total: total,
            address,
            per_address: self.per_address.clone(),
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.total_max - self.total.available_permits()
    }

    /// Waits until every connection has ended.
    pub async fn all_closed(&self) {
        let _ = self.total.acquire_many(self.total_max as u32).await;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.per_address.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// The address a client is counted under: an IPv4 address (also when it arrives mapped into
/// IPv6), or an IPv6 client's /64, the block one subscriber is usually given whole.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn one_address_is_held_to_its_share_and_gets_it_back() {
        let caps = ConnectionCaps::new(10, 2);
        let a = caps.admit(ip("10.0.0.1")).unwrap();
        let _b = caps.admit(ip("10.0.0.1")).unwrap();
        assert_eq!(
            caps.admit(ip("10.0.0.1")).unwrap_err(),
            Refusal::AddressFull
        );
        // Another address is not affected, and a refusal took no place.
        let _c = caps.admit(ip("10.0.0.2")).unwrap();
        assert_eq!(caps.open(), 3);
        drop(a);
        assert_eq!(caps.open(), 2);
        let _d = caps.admit(ip("10.0.0.1")).unwrap();
    }

    #[test]
    fn everyone_together_is_held_to_the_total() {
        let caps = ConnectionCaps::new(3, 3);
        let slots: Vec<Slot> = (1..=3)
            .map(|i| caps.admit(ip(&format!("10.0.0.{i}"))).unwrap())
            .collect();
        assert_eq!(caps.admit(ip("10.0.0.9")).unwrap_err(), Refusal::Full);
        drop(slots);
        assert_eq!(caps.open(), 0);
        assert!(
            caps.per_address.lock().unwrap().is_empty(),
            "no counts left"
        );
        caps.admit(ip("10.0.0.9")).unwrap();
    }

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let caps = ConnectionCaps::new(10, 1);
        let _a = caps.admit(ip("2001:db8:1:2::1")).unwrap();
        assert_eq!(
            caps.admit(ip("2001:db8:1:2:ffff::9")).unwrap_err(),
            Refusal::AddressFull
        );
        let _b = caps.admit(ip("2001:db8:1:3::1")).unwrap();
        let _c = caps.admit(ip("192.0.2.7")).unwrap();
        assert_eq!(
            caps.admit(ip("::ffff:192.0.2.7")).unwrap_err(),
            Refusal::AddressFull
        );
    }

    #[tokio::test]
    async fn all_closed_waits_for_the_last_connection() {
        let caps = Arc::new(ConnectionCaps::new(4, 4));
        let slot = caps.admit(ip("10.0.0.1")).unwrap();
        let waiter = tokio::spawn({
            let caps = caps.clone();
            async move { caps.all_closed().await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!waiter.is_finished());
        drop(slot);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .unwrap()
            .unwrap();
    }
}
