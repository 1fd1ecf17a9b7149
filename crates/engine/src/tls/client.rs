//! The switches' TLS client: the PEM files of `Config::tls` read and checked (each problem one
//! line naming the field and the file), the TLS versions offered, the name the controller's
//! certificate must carry. Built once per worker and shared by its sessions.

use crate::config::tls::Tls;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, RootCertStore};
use std::sync::Arc;

/// What every TLS session of a worker starts from.
#[derive(Clone, Debug)]
pub struct Client {
    pub config: Arc<ClientConfig>,
    pub name: ServerName<'static>,
    /// The name was given (`server_name`), not taken from the controller's address.
    pub fixed_name: bool,
}

impl Client {
    /// The client of `t` for the controller `controller` (HOST:PORT); Err: one line naming the
    /// field and the file.
    pub fn new(t: &Tls, controller: &str) -> Result<Client, String> {
        let roots = roots(&t.ca)?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let versions = versions(&t.versions)?;
        let builder = ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&versions)
            .map_err(|e| format!("tls.versions: {e}"))?
            .with_root_certificates(roots);
        let config = match (&t.cert, &t.key) {
            (Some(cert), Some(key)) => {
                let chain = certs("tls.cert", cert)?;
                let key = private_key(key)?;
                builder
                    .with_client_auth_cert(chain, key)
                    .map_err(|e| format!("tls.key: {}: does not fit tls.cert {cert}: {e}", t.key.as_deref().unwrap_or("")))?
            }
            (None, None) => builder.with_no_client_auth(),
            (Some(_), None) => return Err("tls.key: missing (tls.cert is given; both or neither)".into()),
            (None, Some(_)) => return Err("tls.cert: missing (tls.key is given; both or neither)".into()),
        };
        // no resumption: every switch is a device of its own, with a full handshake each time
        // (as Open vSwitch's OpenSSL client); an OVS controller also refused our resumptions
        let mut config = config;
        config.resumption = rustls::client::Resumption::disabled();
        let host = match &t.server_name {
            Some(n) => n.clone(),
            None => host_of(controller).to_string(),
        };
        let name =
            ServerName::try_from(host.clone()).map_err(|_| format!("tls.server_name: {host:?} is neither a DNS name nor an IP address"))?;
        Ok(Client { config: Arc::new(config), name, fixed_name: t.server_name.is_some() })
    }

    /// The same client for another controller (HOST:PORT; a network run's others): its host is
    /// the name to check, unless a name was given.
    pub fn for_controller(&self, controller: &str) -> Result<Client, String> {
        if self.fixed_name {
            return Ok(self.clone());
        }
        let host = host_of(controller).to_string();
        let name = ServerName::try_from(host.clone()).map_err(|_| format!("{host:?} is neither a DNS name nor an IP address"))?;
        Ok(Client { name, ..self.clone() })
    }
}

/// The host of HOST:PORT (`[::1]:6653` gives `::1`).
pub fn host_of(addr: &str) -> &str {
    let host = addr.rsplit_once(':').map_or(addr, |(h, _)| h);
    host.trim_start_matches('[').trim_end_matches(']')
}

fn versions(list: &[String]) -> Result<Vec<&'static rustls::SupportedProtocolVersion>, String> {
    let mut v = Vec::new();
    for s in list {
        v.push(match s.as_str() {
            "1.2" => &rustls::version::TLS12,
            "1.3" => &rustls::version::TLS13,
            other => return Err(format!("tls.versions: unknown TLS version {other:?} (1.2, 1.3)")),
        });
    }
    if v.is_empty() {
        return Err("tls.versions: empty (1.2, 1.3 or both)".into());
    }
    Ok(v)
}

fn read(field: &str, path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{field}: {path}: cannot read: {e}"))
}

fn certs(field: &str, path: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let bytes = read(field, path)?;
    let certs: Result<Vec<_>, _> = CertificateDer::pem_slice_iter(&bytes).collect();
    match certs {
        Ok(c) if !c.is_empty() => Ok(c),
        Ok(_) => Err(format!("{field}: {path}: no PEM certificate in it")),
        Err(e) => Err(format!("{field}: {path}: not PEM: {e}")),
    }
}

fn roots(path: &str) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    for c in certs("tls.ca", path)? {
        roots.add(c).map_err(|e| format!("tls.ca: {path}: not a usable CA certificate: {e}"))?;
    }
    Ok(roots)
}

fn private_key(path: &str) -> Result<PrivateKeyDer<'static>, String> {
    let bytes = read("tls.key", path)?;
    PrivateKeyDer::from_pem_slice(&bytes).map_err(|e| format!("tls.key: {path}: no PEM private key in it ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_of_an_address() {
        assert_eq!(host_of("127.0.0.1:6653"), "127.0.0.1");
        assert_eq!(host_of("[::1]:6653"), "::1");
        assert_eq!(host_of("localhost:6653"), "localhost");
    }

    #[test]
    fn a_missing_or_non_pem_file_is_one_line_naming_it() {
        let e = Client::new(&Tls::new("/nonexistent/ca.pem"), "127.0.0.1:6653").unwrap_err();
        assert!(e.starts_with("tls.ca: /nonexistent/ca.pem: cannot read"), "{e}");
        assert_eq!(e.lines().count(), 1);
        let p = std::env::temp_dir().join(format!("sdnbench-tls-notpem-{}", std::process::id()));
        std::fs::write(&p, "hello, not a certificate\n").unwrap();
        let e = Client::new(&Tls::new(p.to_str().unwrap()), "127.0.0.1:6653").unwrap_err();
        std::fs::remove_file(&p).unwrap();
        assert!(e.contains(p.to_str().unwrap()) && e.contains("no PEM certificate"), "{e}");
    }

    #[test]
    fn cert_and_key_come_as_a_pair() {
        let t = Tls { cert: Some("c.pem".into()), ..Tls::new("/dev/null") };
        // the CA is read first; an empty one is refused before the pair is looked at
        assert!(Client::new(&t, "127.0.0.1:1").unwrap_err().starts_with("tls.ca: /dev/null"));
    }
}
