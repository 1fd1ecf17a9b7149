//! The responder's TLS mode (issue 51): rustls (provider `ring`) between the socket and the
//! OpenFlow stream, so the engine and the C client (bench/engine/hsclient.c on OpenSSL) bring up
//! TLS sessions against one controller side, in the same run.
//!
//! The least a controller can do: its certificate and key, and with a CA the switch's
//! certificate is required and checked against it (as `ovs-testcontroller -p/-c/-C` and os-ken's
//! `--ctl-privkey/--ctl-cert/--ca-certs` do). No session tickets or resumption: every session is a
//! full handshake, the cost being measured. TLS 1.2 and 1.3 are both offered; the client chooses.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig, ServerConnection};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

/// The TLS mode of the flags: None without them; Err (one line naming the flag and the file)
/// when a file cannot be read, is not what it should be, or a flag lacks its companion.
pub fn from_flags(cert: Option<&Path>, key: Option<&Path>, ca: Option<&Path>) -> Result<Option<Arc<ServerConfig>>, String> {
    for (flag, p) in [("--tls-cert", cert), ("--tls-key", key), ("--tls-ca", ca)] {
        if let Some(p) = p {
            std::fs::File::open(p).map_err(|e| format!("{flag} {}: {e}", p.display()))?;
        }
    }
    match (cert, key) {
        (None, None) if ca.is_some() => Err("--tls-ca needs --tls-cert and --tls-key (the responder's own identity)".into()),
        (None, None) => Ok(None),
        (Some(c), None) => Err(format!("--tls-cert {} needs --tls-key", c.display())),
        (None, Some(k)) => Err(format!("--tls-key {} needs --tls-cert", k.display())),
        (Some(c), Some(k)) => config(c, k, ca).map(Some),
    }
}

/// The server side's configuration from PEM files: certificate chain, key, and (optional) the CA
/// that must have signed the client's certificate. Err is one line naming the file.
pub fn config(cert: &Path, key: &Path, ca: Option<&Path>) -> Result<Arc<ServerConfig>, String> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|it| it.collect::<Result<_, _>>())
        .map_err(|e| format!("--tls-cert {}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!("--tls-cert {}: no certificate in it", cert.display()));
    }
    let key_der = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("--tls-key {}: {e}", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| format!("TLS: {e}"))?;
    let builder = match ca {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let mut roots = RootCertStore::empty();
            for c in CertificateDer::pem_file_iter(ca).map_err(|e| format!("--tls-ca {}: {e}", ca.display()))? {
                let c = c.map_err(|e| format!("--tls-ca {}: {e}", ca.display()))?;
                roots.add(c).map_err(|e| format!("--tls-ca {}: {e}", ca.display()))?;
            }
            let v = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| format!("--tls-ca {}: {e}", ca.display()))?;
            builder.with_client_cert_verifier(v)
        }
    };
    let mut cfg = builder.with_single_cert(certs, key_der).map_err(|e| format!("--tls-key {}: {e}", key.display()))?;
    cfg.send_tls13_tickets = 0;
    cfg.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
    Ok(Arc::new(cfg))
}

/// The socket as `Read`/`Write` for rustls (the loop owns and closes the descriptor).
pub struct Fd(pub i32);

impl Read for Fd {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = unsafe { libc::read(self.0, buf.as_mut_ptr() as *mut _, buf.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }
}

impl Write for Fd {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = unsafe { libc::write(self.0, buf.as_ptr() as *const _, buf.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What a read of the plaintext gave.
#[derive(Debug, PartialEq)]
pub enum Got {
    Data(usize),
    Eof,
    WouldBlock,
    Dead,
}

/// Plaintext into `buf`: what rustls holds already, else what the socket has (decrypted; the
/// handshake's records are answered by the next `send`). `WouldBlock` only when the socket is empty.
pub fn read(tls: &mut ServerConnection, fd: i32, buf: &mut [u8]) -> Got {
    loop {
        match tls.reader().read(buf) {
            Ok(0) => return Got::Eof, // the peer's close_notify
            Ok(n) => return Got::Data(n),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return Got::Dead,
        }
        match tls.read_tls(&mut Fd(fd)) {
            Ok(0) => return Got::Eof,
            Ok(_) => {
                if tls.process_new_packets().is_err() {
                    let _ = tls.write_tls(&mut Fd(fd)); // the alert, when it fits
                    return Got::Dead;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Got::WouldBlock,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Got::Dead,
        }
    }
}

/// `plain` encrypted, and every record rustls holds written as far as the socket takes it
/// (the rest on the next EPOLLOUT); false when the connection is dead.
pub fn send(tls: &mut ServerConnection, fd: i32, plain: &mut Vec<u8>) -> bool {
    if !plain.is_empty() {
        if tls.writer().write_all(plain).is_err() {
            return false;
        }
        plain.clear();
    }
    while tls.wants_write() {
        match tls.write_tls(&mut Fd(fd)) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_without_its_companion_or_file_is_one_line_naming_it() {
        let here = Path::new("Cargo.toml");
        assert!(from_flags(None, None, None).unwrap().is_none());
        for (c, k, a, want) in [
            (Some(here), None, None, "--tls-cert Cargo.toml needs --tls-key"),
            (None, Some(here), None, "--tls-key Cargo.toml needs --tls-cert"),
            (None, None, Some(here), "--tls-ca needs"),
            (Some(Path::new("/nonexistent")), Some(here), None, "--tls-cert /nonexistent: No such file"),
            (Some(here), Some(here), None, "--tls-cert Cargo.toml: "),
        ] {
            let e = from_flags(c, k, a).err().unwrap();
            assert!(e.starts_with(want) && !e.contains('\n'), "{e}");
        }
    }
}
