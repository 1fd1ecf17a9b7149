//! The engine's TLS parameters (`Config::tls`; absent or null: plain TCP). The files are read
//! and checked by `crate::tls::client` (at `check` time and when a worker starts).

use serde::{Deserialize, Serialize};

/// OpenFlow over TLS to the controller (issue 51): every switch's connection, in every mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tls {
    /// PEM file of the CA(s) that signed the controller's certificate.
    pub ca: String,
    /// PEM certificate (chain) the switches present; with `key`, or neither (no client
    /// certificate).
    #[serde(default)]
    pub cert: Option<String>,
    /// PEM private key of `cert` (PKCS#8, PKCS#1 or SEC1).
    #[serde(default)]
    pub key: Option<String>,
    /// The name the controller's certificate must carry; null: the controller's host (an IP
    /// address is checked against the certificate's IP addresses).
    #[serde(default)]
    pub server_name: Option<String>,
    /// The TLS versions offered: "1.2", "1.3" (default both; `["1.2"]` forces TLS 1.2).
    #[serde(default = "both")]
    pub versions: Vec<String>,
}

fn both() -> Vec<String> {
    vec!["1.2".into(), "1.3".into()]
}

impl Tls {
    pub fn new(ca: &str) -> Tls {
        Tls { ca: ca.into(), cert: None, key: None, server_name: None, versions: both() }
    }
}

/// The versions of a comma-separated list ("1.2,1.3"), checked.
pub fn versions(list: &str) -> Result<Vec<String>, String> {
    let v: Vec<String> = list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    if v.is_empty() {
        return Err("no TLS version given (1.2, 1.3 or 1.2,1.3)".into());
    }
    for s in &v {
        if s != "1.2" && s != "1.3" {
            return Err(format!("unknown TLS version {s:?} (1.2, 1.3)"));
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_fields_take_their_defaults_and_unknown_ones_are_refused() {
        let t: Tls = serde_json::from_str(r#"{"ca": "ca.pem"}"#).unwrap();
        assert_eq!(t, Tls::new("ca.pem"));
        assert!(serde_json::from_str::<Tls>(r#"{"ca": "a", "bogus": 1}"#).is_err());
        assert!(serde_json::from_str::<Tls>(r#"{"cert": "a"}"#).is_err(), "ca is required");
    }

    #[test]
    fn version_lists() {
        assert_eq!(versions("1.2").unwrap(), vec!["1.2"]);
        assert_eq!(versions("1.2, 1.3").unwrap(), vec!["1.2", "1.3"]);
        assert!(versions("1.1").unwrap_err().contains("1.1"));
        assert!(versions("").is_err());
    }
}
