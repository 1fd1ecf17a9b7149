//! One controller-side connection: frame the stream, answer, no allocation per message.

/// Flow-mod templates; the buffer id and xid are patched per reply.
/// OF1.0: all-wildcard match, ADD, priority 0x8000, one output action (port 1). 80 bytes.
fn flow_mod10() -> Vec<u8> {
    let mut m = vec![0x01, 14, 0, 80, 0, 0, 0, 0];
    m.extend_from_slice(&0x003f_ffffu32.to_be_bytes());
    m.resize(8 + 40, 0);
    m.extend_from_slice(&[0; 8]); // cookie
    m.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0]); // ADD, idle, hard, priority
    m.extend_from_slice(&[0, 0, 0, 0]); // buffer id at 64
    m.extend_from_slice(&[0xff, 0xff, 0, 0]); // out_port NONE, flags
    m.extend_from_slice(&[0, 0, 0, 8, 0, 1, 0, 0]); // output to port 1
    m
}

/// OF1.3: empty match, apply-actions(output port 1). 80 bytes; buffer id at 32.
fn flow_mod13() -> Vec<u8> {
    let mut m = vec![0x04, 14, 0, 80, 0, 0, 0, 0];
    m.extend_from_slice(&[0; 16]); // cookie, mask
    m.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0]); // table, ADD, idle, hard, priority
    m.extend_from_slice(&[0, 0, 0, 0]); // buffer id at 32
    m.extend_from_slice(&[0xff; 8]); // out_port, out_group ANY
    m.extend_from_slice(&[0, 0, 0, 0]); // flags, pad
    m.extend_from_slice(&[0, 1, 0, 4, 0, 0, 0, 0]); // match: OXM, no fields
    m.extend_from_slice(&[0, 4, 0, 24, 0, 0, 0, 0]); // APPLY_ACTIONS
    m.extend_from_slice(&[0, 0, 0, 16, 0, 0, 0, 1, 0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    m
}

pub struct Conn {
    pub fd: i32,
    pub version: u8,
    pub rbuf: Vec<u8>,
    pub wbuf: Vec<u8>,
}

pub struct Templates {
    fm10: Vec<u8>,
    fm13: Vec<u8>,
}

impl Templates {
    pub fn new() -> Templates {
        Templates { fm10: flow_mod10(), fm13: flow_mod13() }
    }
}

impl Conn {
    pub fn new(fd: i32, version: u8) -> Conn {
        let mut c = Conn { fd, version, rbuf: Vec::new(), wbuf: Vec::new() };
        c.hello();
        c
    }

    fn hello(&mut self) {
        if self.version >= 4 {
            self.wbuf.extend_from_slice(&[4, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x12]);
        } else {
            self.wbuf.extend_from_slice(&[self.version, 0, 0, 8, 0, 0, 0, 1]);
        }
    }

    /// Handle whole messages in `buf`; returns bytes consumed. Err on a malformed stream.
    pub fn process(&mut self, buf: &[u8], t: &Templates) -> Result<usize, ()> {
        let mut at = 0;
        while buf.len() - at >= 8 {
            let m = &buf[at..];
            let n = u16::from_be_bytes([m[2], m[3]]) as usize;
            if n < 8 {
                return Err(());
            }
            if m.len() < n {
                break;
            }
            match m[1] {
                0 => {
                    // hello: agree on the lower version, then ask for features
                    self.version = self.version.min(m[0]);
                    self.wbuf.extend_from_slice(&[self.version, 5, 0, 8, 0, 0, 0, 2]);
                }
                2 => {
                    self.wbuf.extend_from_slice(&m[..n]);
                    let at = self.wbuf.len() - n;
                    self.wbuf[at + 1] = 3;
                }
                10 if n >= 12 => {
                    let tpl = if self.version == 1 { &t.fm10 } else { &t.fm13 };
                    let off = if self.version == 1 { 64 } else { 32 };
                    let s = self.wbuf.len();
                    self.wbuf.extend_from_slice(tpl);
                    self.wbuf[s + 4..s + 8].copy_from_slice(&m[4..8]);
                    self.wbuf[s + off..s + off + 4].copy_from_slice(&m[8..12]);
                }
                _ => {}
            }
            at += n;
        }
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_flow_mod_per_packet_in_with_its_buffer_id() {
        let t = Templates::new();
        for (v, off) in [(1u8, 64usize), (4, 32)] {
            let mut c = Conn::new(3, v);
            c.wbuf.clear();
            let mut pi = vec![v, 10, 0, 20, 0, 0, 0, 9, 0, 0, 0, 42];
            pi.resize(20, 0);
            let mut two = pi.clone();
            two.extend_from_slice(&pi);
            two.extend_from_slice(&pi[..5]);
            assert_eq!(c.process(&two, &t), Ok(40));
            assert_eq!(c.wbuf.len(), 160);
            assert_eq!(&c.wbuf[off..off + 4], &[0, 0, 0, 42]);
            assert_eq!(&c.wbuf[4..8], &[0, 0, 0, 9]);
            assert_eq!(c.wbuf[0], v);
        }
    }

    #[test]
    fn echo_and_bad_length() {
        let t = Templates::new();
        let mut c = Conn::new(3, 4);
        c.wbuf.clear();
        assert_eq!(c.process(&[4, 2, 0, 10, 0, 0, 0, 5, 7, 7], &t), Ok(10));
        assert_eq!(c.wbuf, vec![4, 3, 0, 10, 0, 0, 0, 5, 7, 7]);
        assert!(c.process(&[4, 2, 0, 3, 0, 0, 0, 5], &t).is_err());
    }

    #[test]
    fn templates_have_their_stated_length() {
        assert_eq!(flow_mod10().len(), 80);
        assert_eq!(flow_mod13().len(), 80);
    }
}
